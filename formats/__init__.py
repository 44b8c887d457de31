"""Table renderers: one function per output format, chosen by name.

Every renderer takes a header row and data rows whose cells are lists of strings (a
cell may hold several entries) or single values, and returns the text of the table
without a final newline. Grid, Markdown and AsciiDoc are drawn by formats.tables (the
reference's table rules, checked against tabulate by the tests), imported only when a
table is drawn, so point queries start fast; CSV follows the `csv` module's default
dialect.
"""
# How several entries of one cell are joined, per format. In AsciiDoc the line breaks
# count as one character of the column width, which is what the reference prints.
JOINERS = {"grid": "\n", "csv": " ", "markdown": "<br />", "asciidoc": "\n"}


def _cells(rows, joiner):
    return [[joiner.join(c) if isinstance(c, list) else c for c in row] for row in rows]


def _table(fmt):
    def render(header, rows):
        from .tables import draw_format
        return draw_format(fmt, header, _cells(rows, JOINERS[fmt]))
    return render


def _csv_field(value):
    """A CSV field as the `csv` module writes it by default: quoted (and its quotes
    doubled) only when it holds a comma, a quote or a line break."""
    text = str(value)
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def render_csv(header, rows):
    """Comma-separated values, one line per row (written here rather than by the `csv`
    module, whose import loads `re`; the tests check both write the same)."""
    lines = [header] + _cells(rows, JOINERS["csv"])
    return "\n".join('""' if row == [""] else ",".join(map(_csv_field, row)) for row in lines)


RENDERERS = {
    "grid": _table("grid"),
    "csv": render_csv,
    "markdown": _table("markdown"),
    "asciidoc": _table("asciidoc"),
}


def render(fmt, header, rows):
    return RENDERERS[fmt](header, rows)
