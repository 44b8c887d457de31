"""Renderers of the calculator's answers: text tables, documents, JSON.

`render(fmt, header, rows)` draws one table in one of the reference's four formats
(grid, csv, markdown, asciidoc): the first three by tabulate, CSV by the `csv` module
(formats.tables, imported only when a table is drawn, so point queries start fast: load
neither it, nor csv, nor tabulate).
Every cell is a list of strings (a cell may hold several entries) or a single value.
`--format NAME` documents (every tabulate format, CSV with a header comment, the long
form) are made by formats.documents.
"""
from __future__ import annotations

# Pictures (formats.pictures): the --format names that draw a layout, and what may colour
# their cells (--color-by). The command line and the renderers read them from here.
PICTURES = ("svg", "html")
COLOR_KEYS = ("lane", "register", "block", "row", "k")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

LEGACY = ("grid", "csv", "markdown", "asciidoc")

# The two lines that open an instruction's answers (-g, -m, -R, -M, -d), made by
# HEADER.format(inst=inst) (formats.queries.header; -d reads it without the query renderers)
HEADER = "Architecture: {inst.arch}\nInstruction: {inst.name}\n"


def render(fmt: str, header: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """One table in a legacy format, without a final newline."""
    from formats import tables  # the table drawer's lazy boundary (with its tabulate)
    if fmt == "csv":
        return tables.delimited(header, rows)
    return tables.draw(fmt, header, rows)
