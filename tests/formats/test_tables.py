"""The table renderers: tabulate's rules for the calculator's cells, the bar escapes,
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
    """tables.draw hands tabulate its text columns pre-typed (no per-cell escape
    stripping) for tables without ESC; tabulate itself draws the same text for the
    calculator's tables."""
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
    assert tabulate._strip_ansi("\x1b[31mred\x1b[0m") == "red"  # (tabulate unchanged)
    colored = tables.draw("grid", ["n", "x"], [[1, "\x1b[31mred\x1b[0m"]])
    assert colored.splitlines()[1] == "|   n | x   |"  # escapes still take no width


def test_pretyped_columns_type_as_tabulate_types_them():
    """tables.draw hands tabulate the cells of text columns pre-typed (_Text); tabulate's
    own _column_type gives every such column the type it gives the plain strings, with
    numbers not parsed (as draw asks for every column but the first)."""
    tabulate = pytest.importorskip("tabulate")
    columns = [["a", "", "b"], ["", ""], ["True", "False"], ["True", "x"], ["1", "2.5"],
               ["", "False", "v1{3}"], [1, "a"], [None, "a"], ["-|A[0][0]|", ""],
               ["\x1b[31mred\x1b[0m", "b"]]
    for column in columns:
        body = [[n, cell] for n, cell in enumerate(column)]
        typed = [cell for _, cell in tables._typed(body, 2)]
        assert tabulate._column_type(typed, True, False) is \
            tabulate._column_type(column, True, False), column
        pretyped = any(isinstance(cell, tables._Text) for cell in typed)
        assert pretyped == (column in (["a", "", "b"], ["True", "x"], ["1", "2.5"],
                                       ["", "False", "v1{3}"], ["-|A[0][0]|", ""]))


def _module_state(module):
    return {name: id(value) for name, value in vars(module).items()}


def test_tables_drawn_from_8_threads_at_once_each_get_their_own_output():
    """tabulate's module is never changed, and 8 threads drawing at once (tables with
    and without terminal escapes, in several formats) each get the text a lone draw
    gives: no draw sees another's settings."""
    tabulate = pytest.importorskip("tabulate")
    import threading

    from formats import queries
    from instructions import find_architecture
    from layouts import Modifiers
    inst = find_architecture("cdna3").find("v_mfma_f32_32x32x8_f16")
    header, rows = queries.matrix_layout(inst, "A", Modifiers(), 64)
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


# ---- tables drawn without tabulate (tables._plain_grid)

PLAIN_FORMATS = ("grid", "markdown", "rst", "asciidoc")


def _layout_tables():
    """(label, header, rows) of the -R and -M tables (transposed too) of every matrix of
    five instructions spread over each architecture's list, with a modifier that marks
    values where the instruction takes one; and of each architecture's widest
    accumulator."""
    from matrix_library import api
    found = []
    for arch in api.architectures():
        widest = max(arch.instructions, key=lambda i: i.m * i.n * i.blocks)
        for inst in [*arch.instructions[::max(1, len(arch.instructions) // 5)], widest]:
            wave = inst.wave_sizes[0]
            meanings = api.value_meanings(inst, wave)
            mods = {name: max(v for v, _ in values) for name, values in meanings.items()
                    if name in ("neg", "neg_hi", "blgp", "cbsz")}
            for modifiers in ({}, mods) if inst is not widest else ({},):
                for matrix in api.matrices(inst) if inst is not widest else ["D"]:
                    for view in ("rlayout", "mlayout"):
                        for transpose in (False, True) if inst is not widest else (False,):
                            query = documents.Query(inst, matrix, api.Modifiers(**modifiers),
                                                    wave, view, transpose)
                            try:
                                drawn = documents.tables(query)
                            except api.CalcError:
                                continue
                            found += [(f"{inst.mnemonic} {matrix} {view} {modifiers}", h, r)
                                      for _, h, r in drawn]
    return found


@pytest.mark.slow
def test_tables_drawn_without_tabulate_are_what_tabulate_draws():
    """Every -R and -M table of the sample in grid, Markdown, rst and AsciiDoc: draw()
    (without tabulate where the table is plain) is tabulate's text, and most tables of
    the sample (SM90's widest among them) are drawn without it."""
    plain = total = 0
    for label, header, rows in _layout_tables():
        for fmt in PLAIN_FORMATS:
            body = tables.cells(fmt, rows)
            expected = tables.tabulated(fmt, header, body)
            assert tables.draw(fmt, header, rows) == expected, (label, fmt)
            total += 1
            plain += tables._plain_grid(tables.TABLEFMT.get(fmt, fmt),
                                        [str(h) for h in header], body) is not None
    assert total > 1000 and plain > total // 2, (plain, total)


@pytest.mark.parametrize("fmt", PLAIN_FORMATS)
@pytest.mark.parametrize("rows", [
    [[0, "a", "b"], [12, "cc", "-|x|"]],
    [[0, " a", "b"], [1, "c", "d"]],            # a space around a cell: tabulate strips it
    [[0, "", "b"], [1, "", "d"]],               # an empty column: tabulate types it
    [[0, "True", "b"], [1, "False", "d"]],      # True/False: tabulate types them
    [[0, "a", 5], [1, "b", "d"]],               # a number in a text column
    [["x", "a", "b"], [1, "c", "d"]],           # text in the first column
    [[0, "a\nb", "c"], [1, "d", "e"]],          # a cell of two lines
    [[0, "a \nbb", ""], [7, "", "e\n\nf\ng"]],   # lines of several lengths, a blank one
    [[0, "é", "c"], [1, "d", "e"]],             # not ASCII
    [[-3, "a", "c"], [10, "d", "e"]],           # below 0
    [[0, "a" * 30, "c"], [100000, "d", "e" * 7]]])
@pytest.mark.parametrize("header", [["lane", "v0", "long header here"], ["", " h ", "y"]])
def test_made_up_tables_are_drawn_as_tabulate_draws_them(fmt, rows, header):
    assert tables.draw(fmt, header, rows) == tables.tabulated(fmt, header,
                                                              tables.cells(fmt, rows))
