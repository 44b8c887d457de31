"""The table renderers: tabulate's rules for the calculator's cells, the bar escapes,
CSV through the csv module, and the format registry.

tabulate 0.10.0 draws every table (the reference's own table library and version); the
golden corpus (tests/test_golden.py) holds the reference's grid, CSV, Markdown and
AsciiDoc outputs byte for byte. The fixtures below pin each rule with its expected text.
"""
import pytest

import formats
from formats import documents, tables


def test_grid_widths_alignment_and_multiline_cells():
    text = formats.render("grid", ["M", 0, 1], [[0, ["a", "bb"], ""], [10, "", "ccc"]])
    assert text == "\n".join([
        "+-----+-----+-----+",
        "|   M | 0   | 1   |",
        "+=====+=====+=====+",
        "|   0 | a   |     |",
        "|     | bb  |     |",
        "+-----+-----+-----+",
        "|  10 |     | ccc |",
        "+-----+-----+-----+"])


def test_markdown_text_first_column_is_left_aligned():
    text = formats.render("markdown", ["lane", 0], [["v0", ["x", "y"]], ["v10", "z"]])
    assert text == "\n".join([
        "| lane   | 0        |",
        "|--------|----------|",
        "| v0     | x<br />y |",
        "| v10    | z        |"])


def test_asciidoc_counts_a_line_break_as_one_character():
    text = formats.render("asciidoc", ["lane", "v0"], [[0, ["A", "B"]], [1, ""]])
    assert text == "\n".join([
        '[cols=">8,<6",options="header"]',
        "|====",
        "|   lane | v0   ",
        "|      0 | A\nB  ",
        "|      1 |      ",
        "|===="])


def test_integer_strings_count_as_numbers_in_the_first_column_only():
    text = formats.render("markdown", ["n", "m"], [["7", "1"], ["", "22"]])
    assert text.splitlines()[2:] == ["|   7 | 1   |", "|     | 22  |"]


def test_csv_quotes_only_what_needs_quotes():
    rows = [[0, ["a", "b"], 'say "x"'], [1, "p,q", "line\nbreak"], [2, "", "x"]]
    expected = 'h,"h,2",3\n0,a b,"say ""x"""\n1,"p,q","line\nbreak"\n2,,x'
    assert formats.render("csv", ["h", "h,2", 3], rows) == expected
    assert formats.render("csv", [""], [[""]]) == '""\n""'


def test_csv_is_written_by_the_csv_modules_own_writer_and_default_dialect():
    """tables.delimited takes the writer from _csv (sparing csv.py's import of re): it is
    csv.writer, and with no dialect it writes what csv's default dialect (excel) does."""
    import csv
    import io
    from _csv import writer

    assert writer is csv.writer
    rows = [["h", "h,2", 3], [0, "a b", 'say "x"'], [1, "p,q", "line\nbreak"], ["", " x", "\t"]]
    for delimiter in (",", "\t"):
        out = io.StringIO()
        csv.writer(out, "excel", delimiter=delimiter, lineterminator="\n").writerows(rows)
        assert tables.delimited(rows[0], rows[1:], delimiter) + "\n" == out.getvalue()


@pytest.mark.parametrize("fmt, cell", [("markdown", "\\|C[0][0]\\|"),
                                       ("asciidoc", "\\|C[0][0]\\|"),
                                       ("grid", "|C[0][0]|"), ("csv", "|C[0][0]|")])
def test_a_bar_in_a_cell_is_escaped_where_it_would_end_the_cell(fmt, cell):
    text = formats.render(fmt, ["lane", "v0"], [[0, "|C[0][0]|"]])
    assert cell in text and text.count("|C") == 1


@pytest.mark.parametrize("fmt", ["rst", "jira", "orgtbl", "mediawiki", "textile", "github"])
def test_every_bar_escape_replaces_the_bar(fmt):
    text = tables.draw(fmt, ["lane", "v0"], [[0, "|C[0][0]|"]])
    assert tables.ESCAPES[fmt] + "C[0][0]" in text


def test_the_format_names_are_tabulates_and_ours():
    tabulate = pytest.importorskip("tabulate")
    assert set(documents.TABULATE_FORMATS) | {"tsv"} == set(tabulate.tabulate_formats)
    assert set(documents.NAMES) == set(tabulate.tabulate_formats) | {
        "markdown", "csv", "long-csv", "jsonl", "json", "html-table", "svg"}
    assert set(tables.ESCAPES) <= set(documents.NAMES)
    assert set(documents.HEADINGS) <= set(documents.NAMES)


def test_entries_are_joined_per_format():
    assert [tables.joiner(f) for f in ("grid", "fancy_grid", "markdown", "rst", "html", "csv")] \
        == ["\n", "\n", "<br />", " ", " ", " "]


def test_skipping_tabulates_escape_stripping_draws_the_same():
    """tables.draw skips tabulate's per-cell escape stripping for tables without ESC;
    tabulate itself draws the same text for the calculator's tables."""
    tabulate = pytest.importorskip("tabulate")
    from formats import queries
    from instructions import find_architecture
    from layouts import Modifiers
    inst = find_architecture("rdna3").find("v_wmma_f32_16x16x16_f16")
    header, rows = queries.matrix_layout(inst, "C", Modifiers(neg_hi=4), 32)
    for fmt in ("grid", "markdown", "asciidoc", "rst", "html", "latex"):
        expected = tabulate.tabulate(tables.cells(fmt, rows), headers=[str(h) for h in header],
                                     tablefmt=tables.TABLEFMT.get(fmt, fmt),
                                     disable_numparse=list(range(1, len(header))))
        assert tables.draw(fmt, header, rows) == expected.replace("\ue000", "\n")
    assert tabulate._strip_ansi("\x1b[31mred\x1b[0m") == "red"  # restored afterwards
    colored = tables.draw("grid", ["n", "x"], [[1, "\x1b[31mred\x1b[0m"]])
    assert colored.splitlines()[1] == "|   n | x   |"  # escapes still take no width


def test_text_column_typing_shortcut_agrees_with_tabulate():
    """tables.draw answers str at once for text columns of strings; tabulate's own
    _column_type gives the same type for every such column (and is restored)."""
    tabulate = pytest.importorskip("tabulate")
    typer = tabulate._column_type
    shortcut = tables._text_column(typer)
    columns = [["a", "", "b"], ["", ""], ["True", "False"], ["True", "x"], ["1", "2.5"],
               ["", "False", "v1{3}"], [1, "a"], [None, "a"], [], ["-|A[0][0]|", ""]]
    for column in columns:
        for numparse in (False, True):
            assert shortcut(column, True, numparse) is typer(column, True, numparse), column
    tables.draw("grid", ["n", "x"], [[1, "a"]])
    assert tabulate._column_type is typer  # restored afterwards
