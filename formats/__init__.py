"""Table renderers: one function per output format, chosen by name.

Every renderer takes a header row and data rows whose cells are lists of strings (a
cell may hold several entries) and returns the text of the table without a final
newline. Grid, Markdown and AsciiDoc use `tabulate` (imported only when a table is
drawn, so point queries start fast); CSV uses the standard `csv` module.
"""
# How several entries of one cell are joined, per format. AsciiDoc cells get raw
# newlines after the table is drawn (column widths count the joined text as one
# line), which is what the reference prints.
JOINERS = {"grid": "\n", "csv": " ", "markdown": "<br />", "asciidoc": "\ue000"}


def _cells(rows, joiner):
    return [[joiner.join(c) if isinstance(c, list) else c for c in row] for row in rows]


def _tabulate(fmt):
    def render(header, rows):
        from tabulate import tabulate
        # Only the first column (row index or lane) may be numeric, which right-aligns
        # it; register and element names never parse as numbers, so skip the attempt
        # for the other columns: it is most of tabulate's time on a large table.
        text = tabulate(_cells(rows, JOINERS[fmt]), headers=header,
                        tablefmt="github" if fmt == "markdown" else fmt,
                        disable_numparse=list(range(1, len(header))))
        return text.replace("\ue000", "\n")
    return render


def render_csv(header, rows):
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(_cells(rows, JOINERS["csv"]))
    return out.getvalue().rstrip("\n")


RENDERERS = {
    "grid": _tabulate("grid"),
    "csv": render_csv,
    "markdown": _tabulate("markdown"),
    "asciidoc": _tabulate("asciidoc"),
}


def render(fmt, header, rows):
    return RENDERERS[fmt](header, rows)
