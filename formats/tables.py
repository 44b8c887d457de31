"""Every text table, drawn by tabulate; CSV and TSV written by the `csv` module.

The reference calculator draws its tables with tabulate 0.10.0 ("grid", "github" and
"asciidoc"), so tabulate's rules are the compatibility contract, and tabulate draws
them here too. Only the first column may be read as numbers (row index, lane): every
other cell is text, as the reference has it. This module is imported only when a table
is drawn, and tabulate only when a table other than CSV or TSV is drawn, so point
queries (and CSV) never pay for tabulate's import.

A cell is a string, an integer or a list of entries; `JOINERS` says how the entries of
one cell are joined in each format (several lines where the format draws multi-line
cells, `<br />` in Markdown, a space elsewhere). In the legacy AsciiDoc table a cell's
line breaks count as one character of the column width, as in the reference.
`ESCAPES` says how a `|` inside a cell is written where the bar would end the cell
(RDNA's NEG_HI marks absolute values |C[0][0]|; see the README's differences).
"""
from __future__ import annotations

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
    import tabulate  # only here: CSV and TSV need no tabulate
    body = _typed(cells(fmt, rows), len(header))
    text: str = tabulate.tabulate(body, headers=[str(h) for h in header],
                                  tablefmt=TABLEFMT.get(fmt, fmt),
                                  # (tabulate indexes this list by the body's columns)
                                  disable_numparse=list(range(1, len(header))) if body
                                  else True)
    return text.replace(_BREAK, "\n")


def delimited(header: Sequence[object], rows: Rows, delimiter: str = ",",
              comments: Sequence[str] = (), flat: bool = False) -> str:
    """Comma- (or tab-) separated values as the `csv` module writes them by default, one
    line per row, after `comments` written as `# ` lines; no final newline. `flat`: no
    cell is a list of entries (the rows are written as they are)."""
    # The writer is csv.writer itself, taken from `_csv`, the C module that the `csv`
    # module re-exports: csv.py also imports `re` (for its Sniffer), a quarter of a CSV
    # query's time (about 5 ms, bench/bench.py). Without a dialect _csv.writer uses the
    # values of csv's default dialect, "excel" (tests/test_tables.py compares both).
    import io
    from _csv import writer as csv_writer
    out = io.StringIO()
    for line in comments:
        out.write(f"# {line}\n")
    writer = csv_writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows if flat else cells("csv", rows))
    return out.getvalue()[:-1]
