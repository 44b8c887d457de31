"""Grid, Markdown and AsciiDoc tables, drawn here rather than by a table library.

The reference calculator draws these three with tabulate's "grid", "github" and
"asciidoc" styles, so their rules are the compatibility contract; they are few for the
cells this calculator makes (text, and integers in the first column):

- every column is as wide as its widest cell line, and at least its header plus 2;
- the first column is right-aligned, header included, when every non-empty value in it
  is an integer; every other column, and its header, is left-aligned;
- each cell sits between one space on either side, and the styles below add the
  borders. A grid cell may hold several lines (one entry per line); shorter cells of
  the row are filled with blank lines. An AsciiDoc cell may hold line breaks too, but
  they count as one character of its width (the AsciiDoc table is not multi-line).

tests/test_tables.py checks that this draws, character for character, what tabulate
0.10.0 draws for every table the calculator can make.
"""
from instructions.record import record

# A rule is (begin, fill, separator, end). above: the line above the header;
# below_header: between the header and the first row; between: between two rows;
# below: below the last row; multiline: cells may span several lines of text.
# (instructions.record rather than typing.NamedTuple: drawing a table imports nothing.)
Style = record("Style", "above below_header between below multiline", module=__name__)

GRID = Style(above=("+", "-", "+", "+"), below_header=("+", "=", "+", "+"),
             between=("+", "-", "+", "+"), below=("+", "-", "+", "+"), multiline=True)
MARKDOWN = Style(above=None, below_header=("|", "-", "|", "|"), between=None, below=None,
                 multiline=False)
ASCIIDOC = Style(above=None, below_header=None, between=None, below=("|====", "", "", ""),
                 multiline=False)


def _is_integer(value):
    if isinstance(value, int):
        return not isinstance(value, bool)
    try:
        int(value)
    except (TypeError, ValueError):
        return False
    return True


def _columns(header, rows, style):
    """(header texts, row texts, widths, right-aligned flags) of a table."""
    header = [str(h) for h in header]
    first = [row[0] for row in rows]
    filled = [v for v in first if v != ""]
    right = [bool(filled) and all(map(_is_integer, filled))] + [False] * (len(header) - 1)
    texts = [[str(c) if n == 0 and right[0] else str(c).strip() for n, c in enumerate(row)]
             for row in rows]
    widths = [len(h) + 2 for h in header]
    for row in texts:
        for n, cell in enumerate(row):
            size = (max(map(len, cell.split("\n"))) if style.multiline and "\n" in cell
                    else len(cell))
            if size > widths[n]:
                widths[n] = size
    return header, texts, widths, right


def _rule(rule, widths):
    begin, fill, sep, end = rule
    return (begin + sep.join(fill * (w + 2) for w in widths) + end).rstrip()


def _pad(text, width, right):
    return text.rjust(width) if right else text.ljust(width)


def _line(cells, widths, right):
    """One line of cells, each padded to its column and set between spaces after a bar."""
    return "|" + "|".join(f" {_pad(c, w, r)} " for c, w, r in zip(cells, widths, right))


def _row_lines(cells, widths, right, multiline):
    """The lines of one bordered row."""
    if not multiline:
        return [_line(cells, widths, right) + "|"]
    split = [c.splitlines() for c in cells]
    return [_line([lines[at] if at < len(lines) else "" for lines in split], widths, right)
            + "|" for at in range(max(map(len, split)))]


def draw(style, header, rows):
    """The text of a Markdown or grid table, without a final newline."""
    header, texts, widths, right = _columns(header, rows, style)
    multiline = style.multiline and any("\n" in c for row in texts for c in row)
    lines = [_rule(style.above, widths)] if style.above else []
    lines += _row_lines(header, widths, right, False)
    lines += [_rule(style.below_header, widths)] if style.below_header else []
    for at, row in enumerate(texts):
        if at and style.between:
            lines.append(_rule(style.between, widths))
        lines += _row_lines(row, widths, right, multiline)
    lines += [_rule(style.below, widths)] if style.below else []
    return "\n".join(lines)


def draw_asciidoc(header, rows):
    """The text of an AsciiDoc table, without a final newline: a `cols` line giving each
    column's alignment and width, then the header and rows between `|====` lines."""
    header, texts, widths, right = _columns(header, rows, ASCIIDOC)
    cols = ",".join(f"{'>' if r else '<'}{w + 2}" for w, r in zip(widths, right))
    lines = [f'[cols="{cols}",options="header"]', "|===="]
    lines += [_line(cells, widths, right) for cells in [header] + texts]
    lines.append(_rule(ASCIIDOC.below, widths))
    return "\n".join(lines)


def draw_format(fmt, header, rows):
    """The table in format `fmt`: "grid", "markdown" or "asciidoc"."""
    if fmt == "asciidoc":
        return draw_asciidoc(header, rows)
    return draw(GRID if fmt == "grid" else MARKDOWN, header, rows)
