"""What the static site's page runs in the browser (formats/explorer/engine.js calls it in
Pyodide): the explorer's answers, exactly as `--serve` gives them (the same `api_answer`
and documents of app.py), and whole command lines, as the command writes them (the same
`main`, its standard output, standard error and exit status captured).

Both return JSON text, which the page parses: a handful of strings crosses between
JavaScript and Python, never a Python object.
"""
from __future__ import annotations

import io
import json
import sys

from matrix_frontends.cli.command import main
from matrix_frontends.explorer.app import API, api_answer, documents

PROGRAM = "matrix-calculator"  # the name messages give the program, as the installed command


def ask(path: str, query: str) -> str:
    """JSON [status, body, content type, command line] of the explorer's `path` (an /api
    path) for the URL query `query`: what the server answers for it."""
    found = documents().get(path)
    if found is not None:
        return json.dumps([200, found(), "application/json", ""])
    if path not in API:
        return json.dumps([404, f"no such page: {path}", "text/plain", ""])
    status, body, content_type, command = api_answer(path, query)
    assert isinstance(body, str)  # (no worker in the page: the answer is its text)
    return json.dumps([status, body, content_type, command])


def run(argv: str) -> str:
    """JSON {status, stdout, stderr} of the command line `argv` (a JSON array of strings,
    the words after the program's name): what `matrix-calculator ARGV` writes and its exit
    status. --serve, --mcp and --export-site are refused (status 2), as --batch refuses
    them: the page starts no server and writes no site."""
    words = json.loads(argv)
    if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
        return json.dumps({"status": 2, "stdout": "", "stderr": f"{PROGRAM}: error: run "
                           "takes a list of strings (the command line's words)\n"})
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr, sys.stdin, sys.argv
    sys.stdout, sys.stderr, sys.stdin, sys.argv = out, err, io.StringIO(), [PROGRAM, *words]
    try:
        status = main(words, servers=False)
    finally:
        sys.stdout, sys.stderr, sys.stdin, sys.argv = saved
    return json.dumps({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()})
