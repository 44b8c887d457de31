"""`--format NAME`: the -R/-M answer (or the catalog) as a document its consumer loads
whole.

`FORMATS` maps every format name to its renderer; a renderer takes a `Query` and returns
the whole output. Table documents (every tabulate format, Markdown by its own name) open
with a heading naming the instruction and the view, then give one table per block, each
under a heading of its own with a blank line before and after; a `|` in a cell is
escaped where it would end the cell. Data formats hold no text line that is not data:
CSV and TSV start with `#` comment lines (the title) and, when a -R answer has several
blocks, hold them as one table with a leading `block` column; `long-csv` and `jsonl` give
one row (one JSON object) per element location, long-csv as plain CSV (a header row and
no `#` lines: the long form is read by tools, which then need no options).

Every renderer is a function of its Query: the library's answer (a Layout, in the form
`form(fmt)` names) and the document's own options. A picture renderer (e.g.
formats.pictures.picture(fmt, found, transpose, color_by)) joins with one entry in
`FORMATS`; see `_picture` below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from instructions.record import Record

from formats import PICTURES, queries
from formats.tables import delimited as write
from formats.tables import draw
from formats.templated import joined
from matrix_library.answers import Layout
from matrix_library.bulk import LayoutColumns
from matrix_library.checks import CalcError
from matrix_library.drawing import COORDINATES
from matrix_library.notation import split_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.typed import LayoutRow as Row

# The table formats of tabulate 0.10.0 (tabulate.tabulate_formats; a test checks them)
# but tsv, which the csv module writes.
TABULATE_FORMATS = (
    "asciidoc", "colon_grid", "double_grid", "double_outline", "fancy_grid", "fancy_outline",
    "github", "grid", "heavy_grid", "heavy_outline", "html", "jira", "latex",
    "latex_booktabs", "latex_longtable", "latex_raw", "mediawiki", "mixed_grid",
    "mixed_outline", "moinmoin", "orgtbl", "outline", "pipe", "plain", "presto", "pretty",
    "psql", "rounded_grid", "rounded_outline", "rst", "simple", "simple_grid",
    "simple_outline", "textile", "unsafehtml", "youtrack")
VIEWS = {"rlayout": "register layout", "mlayout": "matrix layout"}
LONG_FORMS = ("long-csv", "jsonl")  # one row per element location: -R/-M only
LONG_HEADER = ("matrix", "i", "j", "k", "block", "register", "registers", "lane", "bit_lo",
               "bit_hi", "negated", "absolute")

# title, header, rows
Table = tuple[str | None, Sequence[object], Sequence[Sequence[object]]]


class Query(Record):
    """What a document shows: the library's answer to one -R/-M question (`found`, in
    the form form(fmt) names), or the catalog (`catalog` holds its header and rows;
    `found` is None)."""
    found: Layout | None
    transpose: bool = False
    catalog: tuple[list[str], list[list[object]]] | None = None
    heading: str = "Instruction catalog"  # the title of a catalog-shaped table
    color_by: str | None = None  # pictures: what colours the cells (None: the view's default)


Renderer = Callable[[Query], str]


def form(fmt: str) -> str:
    """The form of a -R/-M answer the document `fmt` reads (the option "document" of
    its Request): "json", the layout in bulk, for the long forms and the pictures;
    "text", its tables, for every other."""
    return "json" if fmt in LONG_FORMS or fmt in PICTURES else "text"


def title(query: Query) -> str:
    if query.catalog is not None:
        return query.heading
    found = _asked(query)
    inst, chosen = found.inst, found.mods
    mods = ", ".join(f"{name} {value}" for name, value in zip(chosen._fields, chosen) if value)
    wave = f", wave{found.wave}" if len(inst.architecture.waves) > 1 else ""
    return (f"{inst.name} ({inst.arch}{wave}): {VIEWS[found.query]} of {found.matrix}"
            + (" (transposed)" if query.transpose else "") + (f", {mods}" if mods else ""))


def tables(query: Query) -> list[Table]:
    """The tables of the answer: one per block for -R, one for -M and the catalog."""
    if query.catalog is not None:
        return [(None, *query.catalog)]
    found = _asked(query)
    if found.query == "rlayout":
        return [(t, h, r) for t, h, r in queries.register_tables(found, query.transpose)]
    header, rows = queries.slot_table(found, query.transpose)
    return [(None, header, rows)]


# ---- table documents

def _latex(text: str) -> str:
    for char in "\\&%$#_{}":
        text = text.replace(char, "\\" + char)
    return text


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


HEADINGS: dict[str, Callable[[str, int], str]] = {
    "markdown": lambda t, n: "#" * n + " " + t.replace("|", "\\|"),
    "rst": lambda t, n: t + "\n" + "=-"[n - 1] * len(t),
    "asciidoc": lambda t, n: "=" * n + " " + t,
    "html": lambda t, n: f"<h{n}>{_html(t)}</h{n}>",
    "mediawiki": lambda t, n: "=" * n + " " + t + " " + "=" * n,
    "textile": lambda t, n: f"h{n}. {t}",
    "orgtbl": lambda t, n: "*" * n + " " + t,
    "latex": lambda t, n: "\\" + "sub" * (n - 1) + "section*{" + _latex(t) + "}",
}
for _alias, _kind in (("github", "markdown"), ("pipe", "markdown"), ("unsafehtml", "html"),
                      ("moinmoin", "mediawiki"), ("jira", "textile"), ("youtrack", "markdown"),
                      ("latex_booktabs", "latex"), ("latex_longtable", "latex"),
                      ("latex_raw", "latex")):
    HEADINGS[_alias] = HEADINGS[_kind]


def _plain_heading(text: str, _level: int) -> str:
    """A format without headings (plain, simple, ...): the title as a line of text."""
    return text


def document(fmt: str) -> Renderer:
    """Heading, then each table under its own heading, blank lines around each table."""
    def render(query: Query) -> str:
        heading = HEADINGS.get(fmt, _plain_heading)
        parts = [heading(title(query), 1)]
        for name, header, rows in tables(query):
            if name is not None:
                parts.append(heading(name, 2))
            parts.append(draw(fmt, header, rows))
        return "\n\n".join(parts) + "\n"
    return render


# ---- data formats

def delimited(delimiter: str) -> Renderer:
    """One CSV (TSV) table after `#` title lines; several -R blocks become one table
    with a leading `block` column (the numbers of the blocks the row belongs to)."""
    def render(query: Query) -> str:
        found = tables(query)
        comments = [title(query)]
        if len(found) == 1:
            name, header, rows = found[0]
            comments += [] if name is None else [name]
        else:
            header = ["block", *found[0][1]]
            rows = [[_blocks(name), *row] for name, _, table in found for row in table]
        return write(header, rows, delimiter, comments) + "\n"
    return render


def _blocks(name: str | None) -> str:
    """'3' for 'Block 3', '0 1' for 'Blocks 0, 1'."""
    return "" if name is None else name.split(" ", 1)[1].replace(",", "")


def _asked(query: Query) -> Layout:
    """The answer of a -R/-M query; CalcError for the catalog."""
    if query.found is None:
        raise CalcError("the long forms (long-csv, jsonl) list element locations: use them "
                        "with -R or -M")
    return query.found


def _columns(query: Query) -> LayoutColumns:
    """The layout in bulk of a -R/-M query's answer (asked in the form "json")."""
    found = _asked(query).columns
    if found is None:
        raise CalcError("the long forms (long-csv, jsonl) read a layout given in bulk: ask "
                        "for it with the option (\"document\", \"json\")")
    return found


def _long_rows(query: Query, opening: str, template: Callable[[Row], str]) -> str:
    """One line per element location (layout_rows()' order) after `opening`, the line of
    each slot `template(the slot's row)` with MARK where the element's coordinates,
    block and lane go (the row holds -1 there): written from layout_columns() by
    templated.joined (tests/formats/test_json_layout.py compares with the rows written one by
    one)."""
    found = _columns(query)
    if not found.keys:
        return opening
    row, col = ("ijk".index(c) for c in COORDINATES[found.matrix])

    def line(bit: int) -> str:
        ijk: list[int | None] = [None, None, None]
        ijk[row] = ijk[col] = -1
        reg, regs, lo, hi, negated, absolute = found.slot[bit]
        return template((found.matrix, ijk[0], ijk[1], ijk[2], -1, reg, regs, -1, lo, hi,
                         negated, absolute))
    lanes, bits = split_keys(found.keys)
    fields = [found.rows, found.cols] if row < col else [found.cols, found.rows]
    return "".join(joined(
        bits, {bit: line(bit) for bit in set(bits)}, [*fields, found.blocks, lanes],
        opening, "\n", "\n", MARK))


MARK = "\x00"  # (where a long form's numbers go: no line of either form holds it)


def long_csv(query: Query) -> str:
    """One CSV row per element location under a header row: plain CSV, which
    pandas.read_csv and spreadsheets load without options (the header names the
    columns; the instruction is the caller's, as in its command line). The rows are
    what the csv writer writes of layout_rows() (nothing in them is quoted: names,
    numbers, false/true, VGPRs apart by spaces)."""
    truth = ("false", "true")

    def template(row: Row) -> str:
        matrix, i, j, k, block, reg, regs, lane, lo, hi, negated, absolute = row
        return ",".join([matrix, *(MARK if v == -1 else "" if v is None else str(v)
                                   for v in (i, j, k, block)),
                         str(reg), " ".join(map(str, regs)), MARK, str(lo), str(hi),
                         truth[negated], truth[absolute]])
    return _long_rows(query, write(list(LONG_HEADER), [], ",", flat=True) + "\n", template)


def jsonl(query: Query) -> str:
    """JSON Lines: one object per element location, naming architecture and instruction
    (what json.dumps writes of each; a NUL in a string it writes as \\u0000)."""
    import json  # (jsonl's lazy boundary: no other document writes JSON)
    inst = _asked(query).inst
    fixed = {"architecture": inst.arch, "instruction": inst.name}
    number = json.dumps("number")

    def template(row: Row) -> str:
        values = ["number" if value == -1 and type(value) is int else value for value in row]
        return json.dumps({**fixed, **dict(zip(LONG_HEADER, values))}).replace(number, MARK)
    return _long_rows(query, "", template)


def _picture(fmt: str, table: Renderer | None = None) -> Renderer:
    """A layout picture drawn by formats.pictures; the catalog, which has no picture, is
    drawn by `table` when one is given."""
    def render(query: Query) -> str:
        if query.catalog is not None:
            if table is None:
                raise CalcError(f"--format {fmt} draws layouts (-R, -M), not the catalog")
            return table(query)
        from formats import pictures  # (the pictures' lazy boundary: only a picture loads them)
        return pictures.picture(fmt, _asked(query), query.transpose, query.color_by)
    return render


FORMATS: dict[str, Renderer] = {
    **{name: document(name) for name in TABULATE_FORMATS},
    "markdown": document("markdown"),  # tabulate's github style, the legacy --markdown's
    "csv": delimited(","),
    "tsv": delimited("\t"),
    "long-csv": long_csv,
    "jsonl": jsonl,
    # Pictures (formats.pictures). "html" is the picture page;

    # tabulate's HTML table is "html-table" (and "unsafehtml"), and the catalog's "html".
    "html-table": document("html"),
}
# Pictures draw -R/-M; the catalog, which has no picture, falls back to tabulate's table
# of the same name where there is one ("html"; tabulate's is also "html-table").
FORMATS.update({name: _picture(name, document(name) if name in TABULATE_FORMATS else None)
                for name in PICTURES})
# "json" is the --json document (formats/json_output.py writes it).
NAMES = tuple(sorted([*FORMATS, "json"]))


def render(fmt: str, query: Query) -> str:
    return FORMATS[fmt](query)
