"""The status line and headers of the explorer's answers (server.py's own and those its
workers write to the connection themselves, pool.py): one source of them."""
from __future__ import annotations

from email.utils import formatdate
from http import HTTPStatus

SERVER_NAME = "matrix-calculator-explorer"  # the Server header: no Python version
SECURITY_HEADERS = (
    ("Content-Security-Policy", "default-src 'none'; script-src 'self'; "
     "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
     "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)


def head(status: int, content_type: str, length: int, command: str) -> bytes:
    """The status line and headers of an answer of `length` bytes, as the server sends
    them (HTTP/1.0: the connection closes after its answer); X-Command-Line names the
    command line it equals, and every answer carries SECURITY_HEADERS."""
    if "charset" not in content_type:
        content_type += "; charset=utf-8"
    lines = [f"HTTP/1.0 {status} {HTTPStatus(status).phrase}", f"Server: {SERVER_NAME}",
             f"Date: {formatdate(usegmt=True)}", f"Content-Type: {content_type}",
             f"Content-Length: {length}"]
    if command:  # (a header is one line of printable ASCII: escape the rest)
        printable = all(" " <= c <= "~" for c in command)
        lines.append("X-Command-Line: " + (command if printable else
                                           command.encode("unicode_escape").decode("ascii")))
    lines += [f"{name}: {value}" for name, value in SECURITY_HEADERS]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
