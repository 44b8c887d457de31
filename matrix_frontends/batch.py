"""--batch FILE|-: many command lines answered in one process.

Each non-blank line of the file (standard input for -) is one command line, split as a
POSIX shell splits words (quotes work; a line starting with # is a comment). Every line
gets its answer followed by the marker line `#--- N` (N: its line number), or, with
--json, one JSON document per line (JSON Lines) carrying `line`; a line that fails gets
an error on stderr naming its line number (with --json: an error object in its place)
and the others still run. The exit status is 2 when any line failed.

The batch streams: each answer is written as soon as its line is done, and
the input is read a line at a time, bounded: a line of at most MAX_LINE bytes, at most
MAX_LINES lines and MAX_INPUT bytes in all, UTF-8 (a byte order mark first is skipped).
Input past a bound, or not UTF-8, ends the batch with an error naming its line (exit 2);
the lines before it keep their answers.
"""
from __future__ import annotations

import json
import sys

from matrix_frontends.cli.options import (
    ArgumentError,
    BatchFailed,
    HelpRequested,
    message_text,
    parse_args,
    program_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO

    from matrix_frontends.cli.options import Args

MARKER = "#---"
MAX_LINE = 1 << 16       # bytes of one line (its newline included)
MAX_LINES = 10_000_000   # lines of one batch
MAX_INPUT = 1 << 30      # bytes of one batch
BOM = b"\xef\xbb\xbf"


class InputEnds(Exception):
    """The input cannot be read on past line `number` (a bound, or not UTF-8)."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number


def _open(source: str | None) -> BinaryIO:
    if source is None:
        raise ArgumentError("the --batch option needs a value: a FILE of command lines, one a "
                            "line, or - for standard input")
    if source == "-":
        if sys.stdin is None:
            raise ArgumentError("--batch -: standard input is closed")
        return _stdin()
    try:
        return open(source, "rb")
    except OSError as exc:
        raise ArgumentError(f"--batch cannot read {message_text(repr(source))}: "
                            f"{exc.strerror or exc}") from None


def _stdin() -> BinaryIO:
    """Standard input's bytes (its text stream where a caller replaced it by one)."""
    from typing import cast
    return cast("BinaryIO", getattr(sys.stdin, "buffer", None) or sys.stdin)


def _lines(stream: BinaryIO) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line, read one at a time within the bounds."""
    total = 0
    for number in range(1, MAX_LINES + 2):
        try:
            raw: bytes | str = stream.readline(MAX_LINE + 1)
        except OSError as exc:
            raise InputEnds(number, f"cannot be read: {exc.strerror or exc}") from None
        if not raw:
            return
        if number > MAX_LINES:
            raise InputEnds(number, f"is past the {MAX_LINES:,} lines a batch may have; "
                            "split the input into several batches")
        total += len(raw)
        if len(raw) > MAX_LINE:
            raise InputEnds(number, f"is longer than {MAX_LINE:,} bytes; a line is one "
                            "command line")
        if total > MAX_INPUT:
            raise InputEnds(number, f"is past the {MAX_INPUT:,} bytes a batch may have; "
                            "split the input into several batches")
        if isinstance(raw, str):  # (a text stream: standard input replaced by a caller)
            yield number, raw.removeprefix("\ufeff" if number == 1 else "").rstrip("\r\n")
            continue
        try:
            text = (raw[len(BOM):] if number == 1 and raw.startswith(BOM) else raw).decode()
        except UnicodeDecodeError as exc:
            raise InputEnds(number, f"is not UTF-8 text (byte {exc.start + 1}); a batch is "
                            "a text file of command lines") from None
        yield number, text.rstrip("\r\n")


_TOKENS = None


def words(line: str) -> list[str]:
    """The words of one line, split as shlex.split (POSIX) splits them, in time linear in
    the line's length: quotes '...' and "..." (where \\" and \\\\ escape), a backslash
    escapes any character outside them."""
    if not any(c in line for c in "'\"\\"):
        return line.split()
    global _TOKENS
    if _TOKENS is None:
        import re
        _TOKENS = re.compile(r"""(\s+)|([^\s'"\\]+)|\\(.)|(\\)\Z|'([^']*)'"""
                             r"""|"((?:[^"\\]|\\.)*)"|(['"])""", re.S)
    found: list[str] = []
    word: list[str] | None = None
    for match in _TOKENS.finditer(line):
        space, plain, escaped, trailing, single, double, unclosed = match.groups()
        if space is not None:
            if word is not None:
                found.append("".join(word))
            word = None
            continue
        if trailing is not None:
            raise ArgumentError("cannot split the line into words: no escaped character "
                                "after the last backslash")
        if unclosed is not None:
            raise ArgumentError(f"cannot split the line into words: no closing quotation "
                                f"({unclosed} at character {match.start() + 1})")
        word = [] if word is None else word
        if double is not None:
            word.append(double.replace('\\\\', '\0').replace('\\"', '"').replace('\0', '\\')
                        if "\\" in double else double)
        else:
            word.append(plain if plain is not None else escaped if escaped is not None
                        else single)
    if word is not None:
        found.append("".join(word))
    return found


def _stdout(text: str) -> None:
    if sys.stdout is None:
        raise OSError("standard output is closed")
    sys.stdout.write(text)
    sys.stdout.flush()


def run_batch(source: str | None, as_json: bool, respond: Callable[[Args], str],
              write: Callable[[str], None] = _stdout) -> str:
    """Answer every command line of `source`, each answer written (`write`: to standard
    output) as soon as its line is done; `respond` answers one parsed line. Returns ''
    (everything is written); BatchFailed when a line failed or the input ended early.
    With --json each document is written on one line at once (json_text.on_one_line)."""
    if not as_json:
        return _run(source, as_json, respond, write)
    from formats.json_text import on_one_line
    return on_one_line(lambda: _run(source, as_json, respond, write))


def _run(source: str | None, as_json: bool, respond: Callable[[Args], str],
         write: Callable[[str], None]) -> str:
    stream = _open(source)
    failed = 0
    try:
        for number, line in _lines(stream):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            answer, error = _answer(line, as_json, respond)
            if error is None:
                write(_answered(answer, number, as_json))
                continue
            failed += 1
            _refused(number, error, as_json, write)
    except InputEnds as ended:
        if as_json:
            _refused(ended.number, f"the line {ended}; the batch stops here", as_json, write)
        raise BatchFailed("", f"--batch line {ended.number} {ended}; the batch stops there"
                          + (f"; {failed} line(s) before it failed" if failed else "")
                          ) from None
    finally:
        if source != "-":
            stream.close()
    if failed:
        raise BatchFailed("", f"{failed} line(s) of --batch failed")
    return ""


def _answer(line: str, as_json: bool, respond: Callable[[Args], str]
            ) -> tuple[str, str | None]:
    """(the answer of one line, None) or ('', why it failed)."""
    try:
        found = words(line)
        if as_json and "--json" not in found:
            found.append("--json")
        args = parse_args(found)
        args.__dict__["words"] = found  # (recorded by --emit hip)
        if args.given("batch"):
            raise ArgumentError("a --batch line cannot itself use --batch")
        text = respond(args)
    except HelpRequested:
        return "", "a --batch line cannot ask for -h/--help: run it on its own"
    except (ArgumentError, ValueError) as exc:  # CalcError too
        return "", str(exc)
    if as_json and not _one_object(text):
        try:
            document = json.loads(text)
        except ValueError:
            return "", ("this line's answer is text, not JSON: run it without --json (or "
                        "outside the --json batch)")
        if not isinstance(document, dict):
            return "", "this line's answer is not one JSON object"
    return text, None


def _one_object(text: str) -> bool:
    """Whether `text` is one JSON object on one line, as the calculator writes a --json
    document under --compact (formats/json_text.py: json.dumps's compact text)."""
    return text.startswith("{") and text.endswith("}\n") and "\n" not in text[:-1]


def _answered(text: str, number: int, as_json: bool) -> str:
    if not as_json:
        return f"{text}{MARKER} {number}\n"
    if text != "{}\n":  # (the document's own keys, then its line, as json.dumps writes them)
        return f'{text[:-2]},"line":{number}}}\n'
    return f'{{"line":{number}}}\n'


def _refused(number: int, error: str, as_json: bool, write: Callable[[str], None]) -> None:
    message = message_text(error)
    if as_json:
        write(json.dumps({"schema_version": 1, "mode": "error", "line": number,
                          "error": message}, separators=(",", ":")) + "\n")
        return
    try:
        sys.stderr.write(f"{program_name()}: line {number}: error: {message}\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no stderr, or nobody reads it
        pass
    write(f"{MARKER} {number}\n")
