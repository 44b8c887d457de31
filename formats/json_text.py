"""JSON text as `json.dumps(document, indent=2)` writes it, byte for byte, in a fraction of
its time: given `indent`, `json.dumps` takes the standard library's pure-Python encoder
(a chain of generators, one per nesting level, through which every token passes); the C
encoder serves only compact text. Here strings go through the C string encoder
(`encode_basestring_ascii`, as `json.dumps` with `ensure_ascii` does), integers, `None`
and booleans are spelled directly, and containers are walked once with the indentation
of their level. Anything else (floats, subclasses, keys that are not strings) is
rendered by `json.dumps` itself and indented to its level (JSON text holds no raw line
breaks, so replacing them indents it); tests/formats/test_json.py compares both encoders.

A long array of records of one shape (the slots of an -M document, the elements of an
-R one) may come as a `Written`: its maker writes its text with a template per record,
at the indentation it is given or on one line, and `plain()` gives the same array as
lists and dicts (tests compare the two texts byte for byte)."""
from __future__ import annotations

import json
from contextvars import ContextVar
from json.encoder import encode_basestring_ascii

from formats.templated import joined

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

# (called on values whose type is str: checked with `type(...) is`, which mypy does not
# read as a narrowing)
_string: Callable[[object], str] = encode_basestring_ascii  # type: ignore[assignment]

_int = int.__repr__
_KEYS: dict[object, str] = {}  # the text of each key seen: `"key": `


class Written:
    """A value whose text `write(newline)` writes, as pieces to be joined (the document's
    text is then copied once): at the indentation `newline` ("\n" and the spaces of its
    level), or on one line (`newline` None, the compact separators); `plain()` is the
    value as lists and dicts (what json.dumps writes the same text of)."""

    __slots__ = ("write", "plain")

    def __init__(self, write: Callable[[str | None], list[str]],
                 plain: Callable[[], object]) -> None:
        self.write, self.plain = write, plain


def record_format(keys: tuple[str, ...], newline: str | None) -> str:
    """A %-format of an object of `keys`, each value's text a %s (the value's own JSON text
    at the indentation of newline + two spaces), written at `newline` (None: compact)."""
    names = [_string(key).replace("%", "%%") for key in keys]
    if newline is None:
        return "{" + ",".join(f"{name}:%s" for name in names) + "}"
    inner = newline + "  "
    return "{" + ",".join(f"{inner}{name}: %s" for name in names) + newline + "}"


def array_text(texts: list[str], newline: str | None) -> str:
    """The text of an array whose items' texts are `texts` (written at newline + two
    spaces), at `newline` (None: compact)."""
    if not texts:
        return "[]"
    if newline is None:
        return "[" + ",".join(texts) + "]"
    inner = newline + "  "
    return "[" + inner + ("," + inner).join(texts) + newline + "]"


def filled(shapes: list[int], templates: Mapping[int, str], columns: list[list[int]],
           newline: str | None) -> list[str]:
    """The pieces of array_text([templates[shapes[n]] % (columns[0][n], columns[1][n],
    ...) for every n], newline), for thousands of records of a few templates
    (templated.joined)."""
    if not shapes:
        return ["[]"]
    if newline is None:
        return joined(shapes, templates, columns, "[", ",", "]")
    inner = newline + "  "
    return joined(shapes, templates, columns, "[" + inner, "," + inner, newline + "]")


def leaf(value: object) -> str:
    """The text of a string, a whole number, a boolean or None (the same either way)."""
    if type(value) is str:
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return _int(value)


COMPACT: ContextVar[bool] = ContextVar("compact", default=False)
"""Set (by the command line's --compact, for the query in hand) to have `text` write the
document on one line; a context variable, so that the explorer's threads never meet."""


def text(document: object) -> str:
    """The document's text with a final newline: indented, or on one line (the C
    encoder's `separators=(",", ":")`) while COMPACT is set."""
    if COMPACT.get():
        return _one_line(document, "\n")
    return indented(document, "\n")


_MARK = "\x00written\x00"  # stands for a Written in the compact text: "\u0000written\u0000"


def _one_line(document: object, end: str = "") -> str:
    """json.dumps(separators=(",", ":")) (the C encoder), each Written written by itself
    where a stand-in string marks its place (and `end` after it)."""
    written: list[list[str]] = []

    def stand_in(value: object) -> str:
        if type(value) is not Written:
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
        written.append(value.write(None))
        return _MARK
    line = json.dumps(document, separators=(",", ":"), default=stand_in)
    if not written:
        return line + end
    pieces = line.split(_string(_MARK))
    if len(pieces) != len(written) + 1:  # (the mark also in the document's own strings)
        return json.dumps(plain(document), separators=(",", ":")) + end
    out = [pieces[0]]
    for text_, piece in zip(written, pieces[1:]):
        out += text_
        out.append(piece)
    out.append(end)
    return "".join(out)


def plain(document: object) -> object:
    """The document with each Written replaced by its plain() value."""
    kind = type(document)
    if kind is Written:
        return document.plain()  # type: ignore[attr-defined]
    if kind is dict:
        return {key: plain(item) for key, item in document.items()}  # type: ignore[attr-defined]
    if kind is list or kind is tuple:
        return [plain(item) for item in document]  # type: ignore[attr-defined]
    return document


def on_one_line(render: Callable[[], str]) -> str:
    """What `render` writes with COMPACT set (--compact): a document written by `text`
    comes on one line at once; one written otherwise is read back and written so."""
    token = COMPACT.set(True)
    try:
        written = render()
    finally:
        COMPACT.reset(token)
    if written.startswith("{\n"):
        written = json.dumps(json.loads(written), separators=(",", ":")) + "\n"
    return written


def indented(document: object, end: str = "") -> str:
    """`json.dumps(document, indent=2)`, the same bytes (and `end` after them)."""
    out: list[str] = []
    _value(document, "\n", out)
    out.append(end)
    return "".join(out)


def _other(value: object, newline: str) -> str:
    return json.dumps(value, indent=2).replace("\n", newline)


def _value(value: object, newline: str, out: list[str]) -> None:
    kind = type(value)
    if kind is dict:
        _object(value, newline, out)  # type: ignore[arg-type]
    elif kind is list or kind is tuple:
        _array(value, newline, out)  # type: ignore[arg-type]
    elif kind is str:
        out.append(_string(value))
    elif kind is int:
        out.append(_int(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is Written:
        out += value.write(newline)  # type: ignore[attr-defined]
    else:
        out.append(_other(value, newline))


# _object and _array repeat the few lines that write one item rather than share them:
# a call or a zip per item costs a third more (measured on a 4,096-element -R document).

def _object(value: dict[object, object], newline: str, out: list[str]) -> None:
    if not value:
        out.append("{}")
        return
    start = len(out)
    inner = newline + "  "
    opening = "{" + inner
    append = out.append
    for key, item in value.items():
        name = _KEYS.get(key)
        if name is None:
            if type(key) is not str:  # json.dumps turns such keys into strings
                del out[start:]
                append(_other(value, newline))
                return
            name = _string(key) + ": "
            if len(_KEYS) < 4096:
                _KEYS[key] = name
        append(opening + name)
        opening = "," + inner
        kind = type(item)
        if kind is str:
            append(_string(item))
        elif kind is int:
            append(_int(item))
        else:
            _value(item, inner, out)
    append(newline + "}")


def _array(value: list[object] | tuple[object, ...], newline: str, out: list[str]) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + "  "
    opening = "[" + inner
    append = out.append
    for item in value:
        append(opening)
        opening = "," + inner
        kind = type(item)
        if kind is str:
            append(_string(item))
        elif kind is int:
            append(_int(item))
        else:
            _value(item, inner, out)
    append(newline + "]")
