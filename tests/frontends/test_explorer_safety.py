"""The explorer's server is only its user's: a foreign Host header gets 400
(DNS rebinding), every answer carries the security headers and no Python version, a
warning says when it listens beyond this machine, idle and slow connections are closed,
heavy queries cannot starve light ones, and SIGTERM lets requests in flight finish."""
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from urllib.parse import urlsplit

import pytest

from matrix_frontends.explorer import pool as explorer_pool
from matrix_frontends.explorer import server as explorer_server
from tests.helpers import REPO

SCRIPT = str(REPO / "matrix_calculator.py")
LIGHT = "/api/json?arch=cdna3&inst=v_mfma_f32_32x32x8_f16&mode=g&matrix=A&i=1&k=2"
# (a query of about half a second of work: 20 of them keep the two workers busy for seconds
# on any machine; a conversion, a few tens of ms, does not)
HEAVY = ("/api/json?arch=gfx1251&inst=v_wmma_f32_32x16x128_f4&mode=lds&matrix=A"
         "&lds-tile=32x128&lds-search=1")


class Served:
    """`--serve --port 0` in a child process: its URL, host and port."""

    def __init__(self, *extra):
        self.process = subprocess.Popen([sys.executable, SCRIPT, "--serve", "--port", "0",
                                         *extra], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port

    def get(self, path, host=None, timeout=120):
        """(status, headers, body) of a GET, with the Host header `host` when given."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Host": host} if host is not None else {}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        found = (response.status, dict(response.getheaders()), response.read())
        connection.close()
        return found

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=60)
        return status, self.process.stderr.read()


@pytest.fixture(scope="module")
def served():
    server = Served()
    yield server
    status, err = server.stop()
    assert status == 0 and err == "", err


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "[::2]", ""])
def test_a_foreign_host_header_gets_400(served, host):
    status, headers, body = served.get(LIGHT, host=host)
    assert status == 400 and b"answers requests for" in body and b"locations" not in body


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_the_bound_address_and_localhost_are_answered(served, host):
    status, _, body = served.get(LIGHT, host=f"{host}:{served.port}")
    assert status == 200 and b"locations" in body


@pytest.mark.parametrize("path", ["/", "/explorer.js", "/explorer_plans.js", LIGHT,
                                  "/api/json?mode=x", "/api/plans", "/nope"])
def test_every_answer_carries_the_security_headers(served, path):
    status, headers, _ = served.get(path, host=f"127.0.0.1:{served.port}")
    assert status in (200, 400, 404)
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Server"] == "matrix-calculator-explorer" and "Python" not in str(headers)


def _raw(port, data):
    """The status line, headers and body the server answers to the bytes `data` (the
    connection then half-closed), whatever they are."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(data)
        connection.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    return lines[0], dict(line.split(": ", 1) for line in lines[1:]), body


HOST = b"Host: 127.0.0.1\r\n"


@pytest.mark.parametrize("data, status, says", [
    (b"", 400, b"empty request"),
    (b"\r\n", 400, b"empty request"),
    (b"PUT / HTTP/1.0\r\n" + HOST + b"\r\n", 501, b"answers GET and HEAD, not 'PUT'"),
    (b"DELETE /api/plans HTTP/1.1\r\n" + HOST + b"\r\n", 501, b"not 'DELETE'"),
    (b"GET /" + b"a" * 70000 + b" HTTP/1.0\r\n\r\n", 414, b"longer than 65536 bytes"),
    (b"GET / HTTP/1.0\r\nX: " + b"a" * 70000 + b"\r\n\r\n", 431, b""),
    (b"garbage\r\n\r\n", 400, b"Bad request syntax"),
    (b"GET / HTTP/9.0\r\n" + HOST + b"\r\n", 505, b""),
    (b"\r\nGET /nope HTTP/1.0\r\n" + HOST + b"\r\n", 404, b"no such page"),
], ids=["nothing", "blank", "put", "delete", "414", "431", "400", "505", "blank-then-get"])
def test_the_http_layers_own_answers_carry_the_security_headers(served, data, status, says):
    line, headers, body = _raw(served.port, data)
    assert line.split(" ")[1] == str(status), line
    assert says in body and b"\n" not in body.rstrip(b"\n")  # (one line)
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Server"] == "matrix-calculator-explorer"


@pytest.mark.parametrize("path", ["/", "/explorer.js", LIGHT, "/api/plans",
                                  "/api/svg?arch=cdna3&inst=v_mfma_f32_32x32x8_f16&matrix=A",
                                  "/api/json?mode=x", "/nope"])
def test_head_gets_the_status_and_headers_of_get_without_the_body(served, path):
    status, got, body = served.get(path, host=f"127.0.0.1:{served.port}")
    line, headers, empty = _raw(served.port, f"HEAD {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                                "\r\n".encode())
    assert line.split(" ")[1] == str(status) and empty == b""
    assert headers["Content-Length"] == got["Content-Length"] == str(len(body))
    assert headers["Content-Type"] == got["Content-Type"]
    assert headers["Content-Security-Policy"] == got["Content-Security-Policy"]


@pytest.mark.parametrize("host, warned", [("0.0.0.0", True), ("", True), ("127.0.0.1", False),
                                          ("localhost", False)])
def test_listening_beyond_loopback_is_warned_of(host, warned):
    server = Served("--host", host)
    status, err = server.stop()
    assert status == 0 and ("warning: the explorer listens on" in err) == warned, err
    assert explorer_server.beyond_loopback(host) == warned


@pytest.mark.slow
def test_idle_and_slow_connections_are_closed_and_a_query_still_answered(served):
    idle = [socket.create_connection(("127.0.0.1", served.port)) for _ in range(1000)]
    slow = socket.create_connection(("127.0.0.1", served.port))
    try:
        start = time.monotonic()
        status, _, _ = served.get(LIGHT, host="localhost")
        assert status == 200 and time.monotonic() - start < 5
        slow.settimeout(1)
        slow.sendall(b"GET / HTTP/1.0\r\n")
        closed = None
        while time.monotonic() - start < explorer_server.REQUEST_SECONDS + 10:
            try:
                slow.sendall(b"X-Slow: 1\r\n")  # a header line every half second
                if slow.recv(1) == b"":
                    closed = time.monotonic() - start
                    break
            except TimeoutError:
                pass
            except OSError:
                closed = time.monotonic() - start
                break
            time.sleep(0.5)
        assert closed is not None and closed < explorer_server.REQUEST_SECONDS + 5
        idle[0].settimeout(explorer_server.IDLE_SECONDS + 10)
        assert idle[0].recv(1) == b""  # (an idle connection is closed by the server)
    finally:
        for connection in idle + [slow]:
            connection.close()


@pytest.mark.slow
def test_heavy_queries_cannot_starve_a_light_one(served):
    assert served.get(LIGHT, host="localhost")[0] == 200  # (warm)
    done = []
    heavy = [threading.Thread(target=lambda: done.append(served.get(HEAVY, "localhost")[0]))
             for _ in range(20)]
    for thread in heavy:
        thread.start()
    time.sleep(0.5)
    took = []
    for _ in range(3):
        start = time.perf_counter()
        assert served.get(LIGHT, host="localhost")[0] == 200
        took.append(time.perf_counter() - start)
    in_flight = 20 - len(done)
    for thread in heavy:
        thread.join()
    assert in_flight > 0 and done == [200] * 20
    assert min(took) < 0.1, took


@pytest.mark.slow
def test_sigterm_finishes_the_requests_in_flight_and_ends_with_status_0():
    server = Served()
    answers = []

    def get():
        with urllib.request.urlopen(server.url + "api/text?arch=cdna4&mode=catalog",
                                    timeout=60) as response:
            answers.append((response.status, len(response.read())))

    threads = [threading.Thread(target=get) for _ in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    status, err = server.stop()
    for thread in threads:
        thread.join()
    assert status == 0 and err == ""
    assert len(answers) == 3 and all(code == 200 and size > 1000 for code, size in answers)


@pytest.mark.parametrize("port", ["²", "١٢٣٤٥", "99999", "1" * 5000])
def test_a_port_that_is_not_ascii_digits_is_refused(port):
    done = subprocess.run([sys.executable, SCRIPT, "--serve", "--port", port],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "--port takes a port number 0 to 65535" in done.stderr and len(done.stderr) < 300


WIDEST = ["-a", "sm90", "-i", "wgmma.mma_async.m64n256k32.f32.e5m2.e4m3", "--json"]


def _read_all(connection):
    """Every byte a socket receives until its other end closes."""
    pieces = []
    while piece := connection.recv(1 << 20):
        pieces.append(piece)
    return b"".join(pieces)


def test_a_worker_writes_its_answer_to_the_connection_once_the_token_is_its_own(tmp_path):
    """_respond with a Reply writes the head and the text respond() prints to the
    connection (the Content-Length its length, the headers the server's own) when it
    creates the token first, and returns Sent; when the token is there already (the
    server answered 503), it writes nothing; an error is returned for the server to send;
    its copy of the socket is closed in every case."""
    from matrix_frontends.cli import respond as cli_respond
    from matrix_frontends.cli.inputs import command_line
    long_words = [*WIDEST, "-M", "-D"]
    expected = cli_respond.respond(long_words)[1].encode()
    ours, theirs = socket.socketpair()
    token = str(tmp_path / "0")
    reply = explorer_pool.Reply(ours, "application/json", token)
    read = []
    reader = threading.Thread(target=lambda: read.append(_read_all(theirs)))
    reader.start()
    status, sent = explorer_pool._respond(long_words, reply)
    reader.join(60)
    assert (status, sent) == (0, explorer_pool.Sent(len(expected)))
    assert ours.fileno() == -1 and os.path.exists(token)
    data = read[0]
    head, body = data.split(b"\r\n\r\n", 1)
    assert body == expected and data.startswith(b"HTTP/1.0 200 OK\r\n")
    fields = dict(line.split(": ", 1) for line in head.decode().split("\r\n")[1:])
    assert fields["Content-Length"] == str(len(expected))
    assert fields["Content-Type"] == "application/json; charset=utf-8"
    assert fields["X-Command-Line"] == command_line(long_words)
    assert fields["Server"] == "matrix-calculator-explorer"
    assert "default-src 'none'" in fields["Content-Security-Policy"]
    ours, theirs = socket.socketpair()
    assert explorer_pool._respond(long_words, explorer_pool.Reply(ours, "x", token)) == \
        (0, explorer_pool.Sent(0))
    assert _read_all(theirs) == b"" and ours.fileno() == -1
    ours, theirs = socket.socketpair()
    bad = [*WIDEST[:-1], "-R", "-D", "-w", "7"]
    status, text = explorer_pool._respond(bad, explorer_pool.Reply(ours, "x", token + "1"))
    assert (status, text) == cli_respond.respond(bad) and status == 2
    assert _read_all(theirs) == b"" and not os.path.exists(token + "1")
    assert explorer_pool._respond(long_words, None) == cli_respond.respond(long_words)


def test_a_long_answer_is_sent_whole_and_no_token_is_left():
    """Through a server with its workers, a 7 MB -M document: the bytes the command line
    prints, Content-Length their length, the security headers; the pool's folder (mode
    0700) holds no token after, and is gone once the server is closed."""
    from matrix_frontends.cli import respond as cli_respond
    from matrix_frontends.explorer import app as matrix_explorer
    server = matrix_explorer.make_server("127.0.0.1", 0, pool=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert (os.stat(server.heavy.folder).st_mode & 0o777) == 0o700
        connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1],
                                                timeout=120)
        connection.request("GET", "/api/json?arch=sm90&inst=" + WIDEST[3] +
                           "&mode=M&matrix=D")
        response = connection.getresponse()
        status, headers, body = response.status, dict(response.getheaders()), response.read()
        connection.close()
        expected = cli_respond.respond([*WIDEST, "-M", "-D"])[1].encode()
        assert status == 200 and body == expected
        assert int(headers["Content-Length"]) == len(expected) > 1 << 20
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        assert os.listdir(server.heavy.folder) == []
    finally:
        server.shutdown()
        server.server_close()
    assert not os.path.exists(server.heavy.folder)


def test_a_late_answer_gets_503_and_the_worker_writes_nothing(monkeypatch):
    """A query past HEAVY_SECONDS gets 503 from the server, which takes the token first:
    the client reads that answer alone (the worker, when it is done, writes nothing after
    it), and the token is removed once the worker is done."""
    from matrix_frontends.explorer import app as matrix_explorer
    monkeypatch.setattr(explorer_pool, "HEAVY_SECONDS", 0.001)
    server = matrix_explorer.make_server("127.0.0.1", 0, pool=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(server.server_address[:2], timeout=120) as client:
            client.sendall(b"GET /api/json?arch=sm90&inst=" + WIDEST[3].encode() +
                           b"&mode=R&matrix=D HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            data = _read_all(client)
        head, body = data.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.0 503 ") and b"took longer" in body
        assert body.count(b"HTTP/1.0") == 0 and len(body) < 1000
        deadline = time.monotonic() + 60
        while server.heavy.pool._pending_work_items and time.monotonic() < deadline:  # type: ignore
            time.sleep(0.05)
        time.sleep(0.2)
        assert os.listdir(server.heavy.folder) == []
    finally:
        server.shutdown()
        server.server_close()


def _warmed():
    """(in a worker) what its warm-up answered"""
    return list(explorer_pool.WARMED)


def test_each_worker_answers_one_query_of_each_layout_answer_as_it_starts():
    """The pool's workers start warm: each answered, as it started, one small query of
    every layout answer the page asks for (-R and -M as JSON and text, the picture, the
    HIP code: each 0, answered), so that the modules a first query needs are loaded (a
    cold worker's first answer took 15-25 ms more); a line that fails says so and the
    worker still starts."""
    from matrix_frontends.explorer import app as matrix_explorer
    lines = matrix_explorer.warm_lines()
    assert {word for line in lines for word in line} >= {"-R", "-M", "--json", "svg", "hip"}
    server = matrix_explorer.make_server("127.0.0.1", 0, pool=True)
    try:
        assert server.heavy.warm == lines
        pool = server.heavy.pool
        assert pool is not None
        answered = [pool.submit(_warmed).result(timeout=120) for _ in range(8)]
        assert answered and all(found == [0] * len(lines) for found in answered)
    finally:
        server.server_close()
    assert explorer_pool.warm_up([["--architecture", "no-such-arch", "-L"]]) == [2]
    assert explorer_pool.warm_up([[None]]) == [-1]  # type: ignore[list-item]


@pytest.mark.skipif(__import__("platform").libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_a_worker_keeps_its_freed_memory_with_glibc():
    """keep_memory() sets glibc's mmap and trim thresholds (in a child process: they
    stay set for the process), so that a worker's strings of megabytes come from memory
    it already has."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import matrix_calculator\n"
            "from matrix_frontends.explorer import pool as explorer_pool\n"
            "print(explorer_pool.keep_memory())")
    done = subprocess.run([sys.executable, "-c", code, str(REPO)], capture_output=True,
                          text=True, timeout=60)
    assert done.stdout == "True\n" and done.returncode == 0


def test_workers_end_with_a_server_killed_outright():
    """SIGKILL leaves the server no time to end its workers: they end by themselves
    within seconds (each looks whether its parent still runs), and so release the
    server's standard output and error (a reader of them sees their end)."""
    server = Served()
    workers = [int(pid) for pid in subprocess.run(
        ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True,
        timeout=30).stdout.split()] if os.path.exists("/proc") else []
    server.process.kill()
    out, err = server.process.communicate(timeout=30)
    assert server.process.returncode == -signal.SIGKILL and out == ""
    deadline = time.monotonic() + 30
    while any(os.path.exists(f"/proc/{pid}") for pid in workers) and \
            time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(workers) == explorer_pool.HEAVY_WORKERS
    assert not any(os.path.exists(f"/proc/{pid}") for pid in workers)
