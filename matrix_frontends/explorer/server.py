"""The explorer's HTTP server, hardened for a machine where other people and other web
pages live:

- it answers only requests whose Host header names the address it listens on or
  localhost (a web page elsewhere cannot reach it by DNS rebinding): 400 otherwise;
- every answer carries a Content-Security-Policy, X-Frame-Options DENY and
  X-Content-Type-Options nosniff, and Server: names no Python version;
- a connection that sends nothing for IDLE_SECONDS, or has not sent its whole request
  REQUEST_SECONDS after it opened (slowloris), is closed;
- heavy queries (conversions, pictures, code, layouts, the catalog) run in a small pool
  of worker processes, at most HEAVY_WAITING of them waiting, each within HEAVY_SECONDS
  and WORKER_MEMORY: light ones (point queries) are answered at once in the server's own
  process, whatever the heavy ones do; a worker writes its answer to the connection
  itself (the server hands it a duplicate of the socket), so that an answer of
  megabytes is not pickled through the pool's pipe, decoded and encoded again; an error
  goes back to the server, which sends it; whoever first creates the request's token
  file (in the pool's own folder, mode 0700) answers: the worker with its answer or the
  server with a 503 once HEAVY_SECONDS have passed, never both;
- SIGTERM stops accepting, lets the requests in flight finish and ends with status 0.

app.serve starts it; app turns queries into command lines; pool.py holds the worker
processes.
"""

from __future__ import annotations

import contextlib
import ipaddress
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from instructions.record import Record

from matrix_frontends.cli import respond as cli_respond
from matrix_frontends.cli.options import shown
from matrix_frontends.explorer.heads import SERVER_NAME, head
from matrix_frontends.explorer.pool import Heavy, Sent

# a query's words -> (status, its answer, or Sent when a worker wrote it); with the
# content type of a 200 answer (Responder), as the server's handler offers it
Respond = Callable[[Sequence[str]], tuple[int, str | Sent]]
Responder = Callable[[Sequence[str], str], tuple[int, str | Sent]]
Answer = Callable[[str, str, Responder | None], tuple[int, str | Sent, str, str]]
# the server's: with the connection a worker may write the answer to
Served = Callable[[Sequence[str], str, socket.socket | None], tuple[int, str | Sent]]

IDLE_SECONDS = 5          # a connection silent this long is closed
REQUEST_SECONDS = 10      # a request not read in full this long after its connection opened
DRAIN_SECONDS = 30        # SIGTERM: how long requests in flight may take to finish
READ_GRACE = 2            # SIGTERM: how long requests still being read may take to arrive
LIGHT_MODES = ("-g", "-m", "-d", "-L")  # point queries: answered in the server's process

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
MAX_LINE = 65536          # the longest request line read (longer: 414)


def host_name(header: str) -> str:
    """The host of a Host header, without its port, in lower case ([::1]:80 -> ::1)."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def beyond_loopback(host: str) -> bool:
    """Whether listening on `host` reaches beyond this machine ('' and 0.0.0.0 and ::
    are every interface)."""
    if host.lower() == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: whatever it names may be reachable
        return True


def respond_with(heavy: Heavy | None) -> Served:
    """The respond function of the server's answers, (words, content type of a 200,
    connection) -> (status, text or Sent): point queries in this process, the rest by
    the worker pool (when there is one), which writes an answer to the connection."""

    def respond(words: Sequence[str], content_type: str = "text/plain",
                connection: socket.socket | None = None) -> tuple[int, str | Sent]:
        if heavy is None or any(mode in words for mode in LIGHT_MODES) and not any(
                word in words for word in ("--convert", "--emit", "--format")):
            return cli_respond.respond(words)
        return heavy.respond(words, connection, content_type)
    return respond


class Site(Record):
    """What the server serves: `files` (URL path -> (file, content type)), the /api
    paths `api` answered by `answer(path, query, respond)`, the JSON `documents` the
    page builds its controls from (URL path -> its body: /api/options, /api/plans), and
    the command lines each worker answers once as it starts (`warm`: so that a first
    query finds the writers it needs loaded)."""
    files: dict[str, tuple[Path, str]]
    api: frozenset[str]
    answer: Answer | None
    documents: dict[str, Callable[[], str]]
    warm: tuple[tuple[str, ...], ...] = ()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many requests at once wait instead of being refused

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 heavy: Heavy | None) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, handler)
        self.heavy = heavy
        self.respond = respond_with(heavy)
        self.site = Site({}, frozenset(), None, {})
        self.reading: dict[socket.socket, float] = {}  # connection -> its deadline
        self.in_flight = 0
        self.guard = threading.Condition()
        threading.Thread(target=self._reap, daemon=True).start()
        host = address[0].lower()
        self.hosts = {host.strip("[]"), str(self.server_address[0]).lower(), "localhost"}
        if not beyond_loopback(host) or host in ("", "0.0.0.0", "::"):
            self.hosts |= set(LOOPBACK_NAMES)
        self.hosts.discard("")  # (a request must name its host)

    def _reap(self) -> None:
        """Close the connections whose request is not read by its deadline."""
        while True:
            time.sleep(0.5)
            now = time.monotonic()
            with self.guard:
                late = [c for c, deadline in self.reading.items() if deadline < now]
            for connection in late:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, _request: object, _client_address: object) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):  # (a reader gone: quiet)
            sys.stderr.write(cli_respond.error_line(f"{type(error).__name__}: {error}") + "\n")

    def drain(self, seconds: float = DRAIN_SECONDS) -> None:
        """Wait (at most `seconds`) for the requests in flight to be answered."""
        start = time.monotonic()
        with self.guard:  # (a request being read arrives within moments: READ_GRACE)
            while (self.in_flight or self.reading and time.monotonic() < start + READ_GRACE) \
                    and time.monotonic() < start + seconds:
                self.guard.wait(0.05)

    def server_close(self) -> None:
        super().server_close()
        heavy = getattr(self, "heavy", None)  # (None too when the address was refused)
        if heavy is not None:
            heavy.close()


class Handler(BaseHTTPRequestHandler):
    """One connection: one GET or HEAD (HTTP/1.0: the connection closes after its
    answer). Every answer, the HTTP layer's own errors included (400 for a request line
    it cannot read or an empty request, 414, 431, 501 for other methods), goes through
    `_send`: the same headers on all of them."""
    server_version = SERVER_NAME
    timeout = IDLE_SECONDS
    server: Server
    command = ""  # (the method, once the request line is read: HEAD sends no body)

    def handle_one_request(self) -> None:
        """BaseHTTPRequestHandler's reading of one request, with an empty request (a
        connection that ends, or sends a blank line, before any request line) answered
        400 instead of closed without a word; one blank line before the request line is
        skipped (RFC 9112, 2.2)."""
        try:
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if self.raw_requestline in (b"\r\n", b"\n"):
                self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if len(self.raw_requestline) > MAX_LINE:
                self.send_error(414, f"the request line is longer than {MAX_LINE} bytes")
                return
            if not self.raw_requestline.strip():
                self.send_error(400, "empty request: send a request line, such as "
                                "GET / HTTP/1.0")
                return
            if not self.parse_request():
                return
            handler = getattr(self, f"do_{self.command}", None)
            if handler is None:
                self.send_error(501, f"this server answers GET and HEAD, not "
                                f"{shown(self.command)}")
                return
            handler()
            self.wfile.flush()
        except TimeoutError:  # (silent for IDLE_SECONDS: closed, as the reaper closes)
            self.close_connection = True

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:  # noqa: ARG002 (the base's)
        """An error of the HTTP layer (parse_request's 400 and 505, parse_headers' 431,
        ...): one line of text, with every answer's headers."""
        self.close_connection = True
        with contextlib.suppress(OSError):  # (a reader gone: nothing to tell)
            self._send(code, message or HTTPStatus(code).phrase, "text/plain")

    def version_string(self) -> str:
        return self.server_version  # (not Python's version)

    def setup(self) -> None:
        super().setup()
        with self.server.guard:
            self.server.reading[self.connection] = time.monotonic() + REQUEST_SECONDS

    def finish(self) -> None:
        with self.server.guard:
            self.server.reading.pop(self.connection, None)
        super().finish()

    def do_HEAD(self) -> None:
        """GET's status and headers, without the body."""
        self.do_GET()

    def do_GET(self) -> None:
        with self.server.guard:
            self.server.reading.pop(self.connection, None)
            self.server.in_flight += 1
        try:
            self._get()
        finally:
            with self.server.guard:
                self.server.in_flight -= 1
                self.server.guard.notify_all()

    def _get(self) -> None:
        host = host_name(self.headers.get("Host", ""))
        if host not in self.server.hosts:
            allowed = ", ".join(sorted(self.server.hosts))
            self._send(400, f"this server answers requests for {allowed} only", "text/plain")
            return
        site, url = self.server.site, urlsplit(self.path)
        if url.path in site.api and site.answer is not None and self.command == "HEAD":
            self._send(*site.answer(url.path, url.query, None))  # (its length: in process)
        elif url.path in site.api and site.answer is not None:
            respond = self.server.respond

            def responder(words: Sequence[str], content_type: str) -> tuple[int, str | Sent]:
                return respond(words, content_type, self.connection)
            self._send(*site.answer(url.path, url.query, responder))
        elif url.path in site.documents:
            self._send(200, site.documents[url.path](), "application/json")
        elif url.path in site.files:
            path, content_type = site.files[url.path]
            self._send(200, path.read_text(encoding="utf-8"), content_type)
        else:
            self._send(404, f"no such page: {url.path}", "text/plain")

    def _send(self, status: int, body: str | Sent, content_type: str,
              command: str = "") -> None:
        if isinstance(body, Sent):  # (a worker has written it)
            return
        data = body.encode("utf-8")
        self.wfile.write(head(status, content_type, len(data), command)
                         + (b"" if self.command == "HEAD" else data))

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: standard output is the URL, standard error the errors


def make_server(host: str, port: int, site: Site, pool: bool = True) -> Server:
    """A server bound to (host, port), not yet serving, serving `site`; `pool`: heavy
    queries in worker processes."""
    server = Server((host, port), Handler, None)  # (bound first: no workers for a refusal)
    server.site = site
    if pool:
        server.heavy = Heavy(site.warm)
        server.respond = respond_with(server.heavy)
    return server


class Terminated(Exception):
    """SIGTERM: raised in the serving thread, which then drains and ends."""


def on_sigterm() -> None:
    """SIGTERM ends serve_forever (as Ctrl-C does) by raising Terminated."""

    def stop(_signal: int, _frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # (once: a second one waits too)
        raise Terminated

    signal.signal(signal.SIGTERM, stop)
