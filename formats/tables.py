"""Every text table, drawn by tabulate's rules; CSV and TSV written by the `csv` module.

The reference calculator draws its tables with tabulate 0.10.0 ("grid", "github" and
"asciidoc"), so tabulate's rules are the compatibility contract, and tabulate draws
them here too, but for the plain tables of -R and -M (whole numbers, then one-line ASCII
text) in grid, github, rst and AsciiDoc, which _plain_grid draws by the same rules a
column at a time (tabulate works cell by cell: 65 of a 16,384-cell table's 70 ms; the
tests compare the two). Only the first column may be read as numbers (row index, lane):
every other cell is text, as the reference has it. This module is imported only when a
table is drawn, and tabulate only when a table that is not plain, CSV or TSV is drawn, so
point queries, CSV and most -R and -M tables never pay for tabulate's import.

A cell is a string, an integer or a list of entries; `JOINERS` says how the entries of
one cell are joined in each format (several lines where the format draws multi-line
cells, `<br />` in Markdown, a space elsewhere). In the legacy AsciiDoc table a cell's
line breaks count as one character of the column width, as in the reference.
`ESCAPES` says how a `|` inside a cell is written where the bar would end the cell
(RDNA's NEG_HI marks absolute values |C[0][0]|; see the README's differences).
"""
from __future__ import annotations

from itertools import repeat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    Rows = Sequence[Sequence[object]]  # a cell: text, a number or a list of entries

_BREAK = "\ue000"  # stands for a line break that tabulate must count as one character

# Formats whose cells may span several lines of text (drawn for a terminal); every
# other format gets its entries joined by a space or <br />.
MULTILINE = frozenset({
    "plain", "simple", "grid", "simple_grid", "rounded_grid", "heavy_grid", "mixed_grid",
    "double_grid", "fancy_grid", "colon_grid", "presto", "pretty", "psql", "outline",
    "simple_outline", "rounded_outline", "heavy_outline", "mixed_outline", "double_outline",
    "fancy_outline"})
JOINERS = {"markdown": "<br />", "github": "<br />", "pipe": "<br />", "asciidoc": _BREAK}
ESCAPES = {  # how a literal | is written inside a cell, where it would end the cell
    "markdown": "\\|", "github": "\\|", "pipe": "\\|", "asciidoc": "\\|", "jira": "\\|",
    "rst": "\\|", "orgtbl": "\\vert{}", "mediawiki": "&#124;", "textile": "&#124;",
    "moinmoin": "&#124;", "youtrack": "\\|"}
TABLEFMT = {"markdown": "github"}  # the legacy --markdown is tabulate's github style


def joiner(fmt: str) -> str:
    return JOINERS.get(fmt, "\n" if fmt in MULTILINE else " ")


def _text(cell: object, join: str, bar: str | None) -> object:
    if isinstance(cell, list):
        cell = join.join(cell)
    if bar is not None and isinstance(cell, str) and "|" in cell:
        cell = cell.replace("|", bar)
    return cell


def cells(fmt: str, rows: Rows) -> list[list[object]]:
    """The rows with every cell as one value: entries joined, bars escaped for `fmt`."""
    join, bar = joiner(fmt), ESCAPES.get(fmt)
    if bar is None:  # (_text() inlined: a table has thousands of cells)
        return [[join.join(c) if isinstance(c, list) else c for c in row] for row in rows]
    return [[_text(c, join, bar) for c in row] for row in rows]


class _Text(Exception):
    """A cell of a text column, handed to tabulate already typed. tabulate finds a
    column's type by typing every cell, and types a string only after stripping terminal
    escape sequences from it (a regular-expression substitution per cell: on Python 3.11
    most of a table's drawing time); a value with an `isoformat` attribute (a date, to
    tabulate) it types as text at once, and writes as str() of it. So the cells of a
    column that is text whatever its cells hold are given as _Text: per call, with no
    change to tabulate, so tables drawn at once in several threads do not meet.
    (Exception is the base only for speed: its construction and str() are C code, and
    str() of a one-argument exception is that argument.)"""
    isoformat = None  # (the attribute tabulate looks for, never called)


def _typed(body: list[list[object]], columns: int) -> Sequence[Sequence[object]]:
    """`body` with the cells of every text column (not the first, whose numbers tabulate
    reads) as _Text, where that cannot change the column's type: every cell a string,
    one of them neither empty nor True/False (which tabulate would type otherwise), and
    no terminal escape sequence in it (tabulate measures those apart)."""
    if not body or columns < 2:
        return body
    cols: list[Sequence[object]] = list(zip(*body))
    typed = False
    for c in range(1, len(cols)):
        texts = [s for s in cols[c] if isinstance(s, str)]
        if (len(texts) == len(body) and any(s and s not in _BOOLS for s in texts)
                and "\x1b" not in "".join(texts)):
            cols[c], typed = list(map(_Text, texts)), True
    return list(zip(*cols)) if typed else body


_BOOLS = ("True", "False")


def draw(fmt: str, header: Sequence[object], rows: Rows) -> str:
    """The text of one table in tabulate format `fmt` (or "markdown"), without a final
    newline."""
    body = cells(fmt, rows)
    drawn = _plain_grid(TABLEFMT.get(fmt, fmt), [str(h) for h in header], body)
    return tabulated(fmt, header, body) if drawn is None else drawn


def tabulated(fmt: str, header: Sequence[object], body: list[list[object]]) -> str:
    """draw() by tabulate itself, of the rows as cells() gives them."""
    import tabulate  # only here: CSV, TSV and the tables _plain_grid draws need no tabulate
    text: str = tabulate.tabulate(_typed(body, len(header)), headers=[str(h) for h in header],
                                  tablefmt=TABLEFMT.get(fmt, fmt),
                                  # (tabulate indexes this list by the body's columns)
                                  disable_numparse=list(range(1, len(header))) if body
                                  else True)
    return text.replace(_BREAK, "\n")


def _plain_grid(tablefmt: str, header: list[str], body: list[list[object]]) -> str | None:
    """What tabulate draws in `tablefmt` (grid, github, rst or asciidoc) of a table whose
    first column is whole numbers and every other column printable ASCII text with no
    space around it, on one line (in grid, where a cell's entries are lines: on lines),
    and not empty or True/False throughout, as -R and -M tables are; None for any other
    table (tabulate draws it). tabulate types, strips,
    measures and pads every cell in Python, a few microseconds each; this measures a
    column at once and pads it with str.rjust/ljust (tests/formats/test_tables.py compares the
    two on every -R and -M table of a sample of every architecture and on made-up ones).
    The rules: a column is as wide as its widest cell or its header and 2; numbers and
    their header right-aligned, text left-aligned (rst writes a blank first header as
    ".."); tabulate's lines of each format."""
    columns = list(zip(*body))
    if tablefmt not in _LINES or not body or len(header) < 2 or len(columns) != len(header) \
            or any(len(row) != len(header) for row in body) \
            or not all(type(v) is int for v in columns[0]) \
            or not all(h.isascii() and h.isprintable() for h in header):
        return None
    if tablefmt == "rst" and not header[0].strip():  # (tabulate's rule: ".." for a blank)
        header = ["..", *header[1:]]
    texts = [list(map(str, columns[0]))]
    lines = False  # (a grid's cell of several lines: its entries)
    for column in columns[1:]:
        if not all(type(v) is str for v in column):
            return None
        text = "".join(column)
        if tablefmt == "grid" and "\n" in text:
            lines, text = True, text.replace("\n", "")
        if not (text.isascii() and text.isprintable()) \
                or list(map(str.strip, column)) != list(column) \
                or not any(v and v not in _BOOLS for v in column):
            return None
        texts.append(column)  # type: ignore[arg-type]
    if lines:
        return _grid_of_lines(header, texts)
    widths = [max(len(h) + 2, max(map(len, cells))) for h, cells in zip(header, texts)]
    padded = [list(map(str.rjust, texts[0], repeat(widths[0])))] + [
        list(map(str.ljust, cells, repeat(width))) for cells, width in zip(texts[1:], widths[1:])]
    head = [header[0].rjust(widths[0])] + [h.ljust(w) for h, w in zip(header[1:], widths[1:])]
    return _LINES[tablefmt](head, list(zip(*padded)), widths)


def _grid_of_lines(header: list[str], texts: list[list[str]]) -> str:
    """_plain_grid's grid where some cells hold several lines: a column is as wide as its
    widest line, a row as tall as its tallest cell, each line padded as a cell is and a
    short cell's missing lines blank."""
    split = [[[cell] for cell in texts[0]]] + [[cell.split("\n") for cell in cells]
                                               for cells in texts[1:]]
    widths = [max(len(h) + 2, max(len(line) for cell in cells for line in cell))
              for h, cells in zip(header, split)]
    head = [header[0].rjust(widths[0])] + [h.ljust(w) for h, w in zip(header[1:], widths[1:])]
    rule = "+" + "+".join(["-" * (w + 2) for w in widths]) + "+"
    out = [rule, "| " + " | ".join(head) + " |", rule.replace("-", "=")]
    for row in zip(*split):
        height = max(map(len, row))
        for at in range(height):
            out.append("| " + " | ".join(
                [(cell[at] if at < len(cell) else "").rjust(widths[0]) if column == 0 else
                 (cell[at] if at < len(cell) else "").ljust(widths[column])
                 for column, cell in enumerate(row)]) + " |")
        out.append(rule)
    return "\n".join(out)


def _grid(head: list[str], rows: list[tuple[str, ...]], widths: list[int]) -> str:
    rule = "+" + "+".join(["-" * (w + 2) for w in widths]) + "+"
    lines = [rule, "| " + " | ".join(head) + " |", rule.replace("-", "=")]
    for row in rows:
        lines += ("| " + " | ".join(row) + " |", rule)
    return "\n".join(lines)


def _github(head: list[str], rows: list[tuple[str, ...]], widths: list[int]) -> str:
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["-" * (w + 2) for w in widths]) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _rst(head: list[str], rows: list[tuple[str, ...]], widths: list[int]) -> str:
    rule = "  ".join(["=" * w for w in widths])
    lines = [rule, "  ".join(head).rstrip(), rule]
    lines += ["  ".join(row).rstrip() for row in rows]
    lines.append(rule)
    return "\n".join(lines)


def _asciidoc(head: list[str], rows: list[tuple[str, ...]], widths: list[int]) -> str:
    spec = ",".join([f"{'>' if at == 0 else '<'}{w + 2}" for at, w in enumerate(widths)])
    lines = [f'[cols="{spec}",options="header"]', "|====", "| " + " | ".join(head) + " "]
    lines += ["| " + " | ".join(row) + " " for row in rows]
    lines.append("|====")
    return "\n".join(lines)


_LINES = {"grid": _grid, "github": _github, "rst": _rst, "asciidoc": _asciidoc}


def delimited(header: Sequence[object], rows: Rows, delimiter: str = ",",
              comments: Sequence[str] = (), flat: bool = False) -> str:
    """Comma- (or tab-) separated values as the `csv` module writes them by default, one
    line per row, after `comments` written as `# ` lines; no final newline. `flat`: no
    cell is a list of entries (the rows are written as they are)."""
    # The writer is csv.writer itself, taken from `_csv`, the C module that the `csv`
    # module re-exports: csv.py also imports `re` (for its Sniffer), a quarter of a CSV
    # query's time (about 5 ms, bench/bench.py). Without a dialect _csv.writer uses the
    # values of csv's default dialect, "excel" (tests/formats/test_tables.py compares both).
    import io
    from _csv import writer as csv_writer
    out = io.StringIO()
    for line in comments:
        out.write(f"# {line}\n")
    writer = csv_writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows if flat else cells("csv", rows))
    return out.getvalue()[:-1]
