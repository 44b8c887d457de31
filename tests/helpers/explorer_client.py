"""The explorer's server in a thread and a plain HTTP client of it, for the server tests
(tests/frontends/test_explorer.py, tests/frontends/test_explorer_plans.py)."""
import http.client
import threading

from matrix_frontends.explorer import app as matrix_explorer


def serving():
    """A module fixture's body: the server, serving in a thread until the module ends."""
    found = matrix_explorer.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=found.serve_forever, daemon=True)
    thread.start()
    yield found
    found.shutdown()
    found.server_close()
    thread.join(5)


def get(server, path):
    """(status, headers, body text) of GET `path`, sent as written (no normalising)."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode("utf-8")
    finally:
        connection.close()
