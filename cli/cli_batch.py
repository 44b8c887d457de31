"""--batch FILE|-: many command lines answered in one process.

Each non-blank line of the file (standard input for -) is one command line, split as a
POSIX shell splits words (quotes work; a line starting with # is a comment). Every line
gets its answer followed by the marker line `#--- N` (N: its line number), or, with
--json, one JSON document per line (JSON Lines) carrying `line`; a line that fails gets
an error on stderr naming its line number (with --json: an error object in its place)
and the others still run. The exit status is 2 when any line failed.
"""
from __future__ import annotations

import sys

from amd_matrix_calculator.cli.cli_options import (
    ArgumentError,
    BatchFailed,
    parse_args,
    program_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from amd_matrix_calculator.cli.cli_options import Args

MARKER = "#---"


def _lines(source: str) -> list[str]:
    if source == "-":
        if sys.stdin is None:
            raise ArgumentError("--batch -: standard input is closed")
        return sys.stdin.read().splitlines()
    try:
        with open(source, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ArgumentError(f"--batch cannot read {source!r}: {reason}") from None


def _words(line: str) -> list[str]:
    """The words of one line: split directly when it has no quote or escape."""
    if not any(c in line for c in "'\"\\"):
        return line.split()
    import shlex
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise ArgumentError(f"cannot split the line into words: {exc}") from None


def run_batch(source: str, as_json: bool, respond: Callable[[Args], str]) -> str:
    """The outputs of every command line of `source`; `respond` answers one parsed line."""
    if not as_json:
        return _run(source, as_json, respond)
    from amd_matrix_calculator.formats.json_text import on_one_line
    return on_one_line(lambda: _run(source, as_json, respond))  # (each read back)


def _run(source: str, as_json: bool, respond: Callable[[Args], str]) -> str:
    import json
    out: list[str] = []
    failed = 0
    for number, line in enumerate(_lines(source), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            words = _words(line)
            if as_json and "--json" not in words:
                words.append("--json")
            args = parse_args(words)
            args.__dict__["words"] = words  # (recorded by --emit hip)
            if args.given("batch"):
                raise ArgumentError("a --batch line cannot itself use --batch")
            text = respond(args)
        except (ArgumentError, ValueError) as exc:  # CalcError too
            failed += 1
            message = " ".join(str(exc).split())
            if as_json:
                out.append(json.dumps({"schema_version": 1, "mode": "error", "line": number,
                                       "error": message}, separators=(",", ":")) + "\n")
            else:
                sys.stderr.write(f"{program_name()}: line {number}: error: {message}\n")
                out.append(f"{MARKER} {number}\n")
            continue
        if as_json:
            document = json.loads(text)
            document["line"] = number
            out.append(json.dumps(document, separators=(",", ":")) + "\n")
        else:
            out.append(f"{text}{MARKER} {number}\n")
    if failed:
        raise BatchFailed("".join(out), f"{failed} line(s) of --batch failed")
    return "".join(out)
