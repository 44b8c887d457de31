"""Every text table drawn by tabulate; CSV and TSV written by the `csv` module's writer.

The reference calculator draws its tables with tabulate 0.10.0 ("grid", "github" and
"asciidoc"), so tabulate draws every table here too, with its own options: only the first column
may be read as numbers (row index, lane); every other column is text, as the reference has
it (`disable_numparse` for those columns, which also spares tabulate the number parsing
of their cells). tabulate is imported by draw() alone, so point queries, CSV and TSV
never pay for its import.

A cell is a string, an integer or a list of entries; `JOINERS` says how the entries of
one cell are joined in each format (several lines where the format draws multi-line
cells, `<br />` in Markdown, a space elsewhere). In the legacy AsciiDoc table a cell's
line breaks count as one character of the column width, as in the reference.
`ESCAPES` says how a `|` inside a cell is written where the bar would end the cell
(RDNA's NEG_HI marks absolute values |C[0][0]|; see the README's differences).
"""
from __future__ import annotations

import io
from _csv import writer  # (the csv module's writer, without csv.py's re and enum)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing is not imported when a table is drawn
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
# LaTeX's escaped formats: tabulate escapes braces and backslashes but writes | bare,
# which the OT1 font encoding typesets as an em dash; their column specifications hold
# no bar, so every | of the drawn table is a cell's, written \textbar{}.
TEXTBAR = frozenset({"latex", "latex_booktabs", "latex_longtable"})


def joiner(fmt: str) -> str:
    return JOINERS.get(fmt, "\n" if fmt in MULTILINE else " ")


def cells(fmt: str, rows: Rows) -> list[list[object]]:
    """The rows with every cell as one value: entries joined, bars escaped for `fmt`
    (each an expression of the comprehension, no call per cell: a table has thousands)."""
    join, bar = joiner(fmt), ESCAPES.get(fmt)
    body = [[join.join(c) if isinstance(c, list) else c for c in row] for row in rows]
    if bar is None:
        return body
    return [[c.replace("|", bar) if isinstance(c, str) and "|" in c else c for c in row]
            for row in body]


def draw(fmt: str, header: Sequence[object], rows: Rows) -> str:
    """The text of one table in tabulate format `fmt` (or "markdown"), without a final
    newline: tabulate's text of the rows as cells() gives them, numbers read in the first
    column only."""
    import tabulate  # the lazy boundary of tables: only a drawn table imports tabulate
    body = cells(fmt, rows)
    text: str = tabulate.tabulate(body, headers=[str(h) for h in header],
                                  tablefmt=TABLEFMT.get(fmt, fmt),
                                  # (tabulate indexes this list by the body's columns)
                                  disable_numparse=list(range(1, len(header))) if body
                                  else True,
                                  # (no cell begins or ends with white space: tabulate
                                  # need not strip every cell)
                                  preserve_whitespace=True)
    if fmt in TEXTBAR:
        text = text.replace("|", "\\textbar{}")
    return text.replace(_BREAK, "\n")


def delimited(header: Sequence[object], rows: Rows, delimiter: str = ",",
              comments: Sequence[str] = (), flat: bool = False) -> str:
    """Comma- (or tab-) separated values as the `csv` module writes them by default, one
    line per row, after `comments` written as `# ` lines; no final newline. `flat`: no
    cell is a list of entries (the rows are written as they are)."""
    out = io.StringIO()
    for line in comments:
        out.write(f"# {line}\n")
    written = writer(out, delimiter=delimiter, lineterminator="\n")
    written.writerow(header)
    written.writerows(rows if flat else cells("csv", rows))
    return out.getvalue()[:-1]
