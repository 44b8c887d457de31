"""The table renderers: tabulate's drawing of the calculator's cells, the bar escapes,
CSV through the csv module, and the format registry.

tabulate 0.10.0 draws every table (the reference's own table library and version); the
golden corpus (tests/golden/test_golden.py) holds the reference's grid, CSV, Markdown and
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


@pytest.mark.parametrize("fmt", ["grid", "markdown", "github", "plain"])
def test_a_table_without_rows_is_its_header(fmt):
    """tabulate indexes disable_numparse by the body's columns: none without rows."""
    text = formats.render(fmt, ["Name", "Count"], [])
    assert "Name" in text and "Count" in text and len(text.splitlines()) <= 4, text


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


def test_csv_is_what_the_csv_modules_default_dialect_writes():
    """tables.delimited writes with csv's default dialect (excel), a line feed ending
    each line."""
    import csv
    import io

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


def test_terminal_escapes_in_a_cell_take_no_width():
    colored = tables.draw("grid", ["n", "x"], [[1, "\x1b[31mred\x1b[0m"]])
    assert colored.splitlines()[1] == "|   n | x   |"
    assert colored.splitlines()[3] == "|   1 | \x1b[31mred\x1b[0m |"


@pytest.mark.parametrize("column, lines", [
    (["1", "2.5"], ["|   0 | 1   |", "|   1 | 2.5 |"]),  # numbers in a text column: text
    (["True", "x"], ["|   0 | True |", "|   1 | x    |"]),
    (["-|A[0][0]|", ""], ["|   0 | -\\|A[0][0]\\| |", "|   1 |              |"])])
def test_only_the_first_column_is_read_as_numbers(column, lines):
    text = formats.render("markdown", ["n", "v"], [[n, cell] for n, cell in enumerate(column)])
    assert text.splitlines()[2:] == lines


def _module_state(module):
    return {name: id(value) for name, value in vars(module).items()}


def test_tables_drawn_from_8_threads_at_once_each_get_their_own_output():
    """tabulate's module is never changed, and 8 threads drawing at once (tables with
    and without terminal escapes, in several formats) each get the text a lone draw
    gives: no draw sees another's settings."""
    tabulate = pytest.importorskip("tabulate")
    import threading

    from formats import queries
    from matrix_library import api
    inst = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    found = api.answer(api.Request("query", inst=inst, matrix="A", wave=64,
                                   options=(("query", "mlayout"),)))
    header, rows = queries.slot_table(found)
    red = [[n, f"\x1b[31m{n}\x1b[0m", "x" * (n % 7)] for n in range(40)]
    jobs = [(fmt, header, rows) for fmt in ("grid", "markdown", "asciidoc", "rst")]
    jobs += [(fmt, ["n", "colour", "pad"], red) for fmt in ("grid", "simple", "pipe", "psql")]
    before = _module_state(tabulate)
    expected = [tabulate.tabulate(tables.cells(fmt, body), headers=[str(h) for h in head],
                                  tablefmt=tables.TABLEFMT.get(fmt, fmt),
                                  disable_numparse=list(range(1, len(head))))
                .replace("\ue000", "\n") for fmt, head, body in jobs]
    # (the escapes take no width)
    assert expected[4].splitlines()[3].startswith("|   0 | \x1b[31m0\x1b[0m        | ")
    start = threading.Barrier(len(jobs))
    found: dict[int, list[str]] = {n: [] for n in range(len(jobs))}

    def work(n: int) -> None:
        fmt, head, body = jobs[n]
        start.wait()
        for _ in range(15):
            found[n].append(tables.draw(fmt, head, body))
    threads = [threading.Thread(target=work, args=(n,)) for n in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert _module_state(tabulate) == before
    for n, texts in found.items():
        assert texts == [expected[n]] * 15, jobs[n][0]


def test_no_cell_of_the_calculators_tables_has_white_space_to_strip(monkeypatch):
    """draw() has tabulate keep each cell's white space (preserve_whitespace), as no cell
    of the catalog, the product list or an -R/-M table begins or ends with any: the
    same text as tabulate's stripping of every cell."""
    import tabulate

    from instructions import ARCHITECTURES
    from tests.helpers import call

    drawn = tabulate.tabulate
    differ = []

    def checked(*args, **options):
        text = drawn(*args, **options)
        if text != drawn(*args, **{**options, "preserve_whitespace": False}):
            differ.append(options.get("tablefmt"))
        return text
    monkeypatch.setattr(tabulate, "tabulate", checked)
    argvs = [["--catalog"], ["--list-products"]]
    for arch in ARCHITECTURES:
        inst = ["-a", arch.name, "-i", arch.instructions[0].mnemonic]
        argvs += [inst + [mode, "-A", *fmt] for mode in ("-R", "-M")
                  for fmt in ([], ["--markdown"], ["--transpose"])]
    assert [call(argv)[0] for argv in argvs] == [0] * len(argvs)
    assert not differ
    stripped = drawn([[0, " x"]], ["n", "v"], "plain", disable_numparse=[1])
    assert tables.draw("plain", ["n", "v"], [[0, " x"]]) != stripped  # (the check can fail)
