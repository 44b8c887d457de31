"""The grid, Markdown and AsciiDoc tables equal tabulate's, character for character.

The reference calculator draws its tables with tabulate ("grid", "github", "asciidoc");
formats.tables draws them itself (tabulate's import alone costs several times the
interpreter's start-up). tabulate 0.10.0, pinned in requirements-dev.txt, is the oracle
here: every -R and -M table of every instruction, matrix and wave size, both ways round
(--transpose), under modifier settings that put several entries or signs in a cell, and
the instruction catalog, is drawn both ways and compared; CSV likewise against the
standard csv module.
"""
import csv
import io

import pytest
from conftest import call, need_module

import formats
from formats import tables
from instructions import ARCHITECTURES

tabulate = need_module("tabulate", "tabulate (requirements-dev.txt) is the oracle of "
                       "these tests").tabulate

STYLES = {"grid": "grid", "markdown": "github", "asciidoc": "asciidoc"}
FORMAT_FLAGS = {"grid": [], "markdown": ["--markdown"], "asciidoc": ["--asciidoc"]}
# Settings that change cells: broadcasts (several entries a cell), signs, OPSEL halves.
SETTINGS = ([], ["--cbsz", "1", "--abid", "1"], ["--cbsz", "2"], ["--blgp", "1"],
            ["--blgp", "4"], ["--blgp", "7"], ["--neg", "1"], ["--neg", "7"],
            ["--neg_hi", "3"], ["--opsel", "1"], ["--opsel", "4"], ["--cbsz", "3"],
            ["--opsel-a", "1"], ["--opsel-b", "3"])
MATRIX_FLAGS = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k", "SA": "--A-scale",
                "SB": "--B-scale"}


def csv_oracle(header, rows):
    """What the standard csv module writes (the reference's CSV is plain comma-separated
    values; ours follows the module's default dialect)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([[" ".join(c) if isinstance(c, list) else c for c in row]
                      for row in rows])
    return out.getvalue()[:-1]


def oracle(fmt):
    """What tabulate 0.10.0 draws for the calculator's cells (the reference's rules:
    number parsing only in the first column; AsciiDoc line breaks drawn after the widths
    are counted)."""
    def render(header, rows):
        joiner = "\ue000" if fmt == "asciidoc" else formats.JOINERS[fmt]
        cells = [[joiner.join(c) if isinstance(c, list) else c for c in row] for row in rows]
        text = tabulate(cells, headers=header, tablefmt=STYLES[fmt],
                        disable_numparse=list(range(1, len(header))))
        return text.replace("\ue000", "\n")
    return render


def tables_of(argv, monkeypatch):
    """The (header, rows) of every table that one command line draws."""
    drawn = []

    def record(header, rows):
        drawn.append((header, rows))
        return ""
    with monkeypatch.context() as patch:
        patch.setitem(formats.RENDERERS, "grid", record)
        assert call(argv)[0] == 0, " ".join(argv)
    return drawn


SEEN = set()  # tables already compared (many instructions share a layout)


def assert_drawn_alike(argv, monkeypatch):
    """Each table of `argv`, in each format, as tabulate draws it; returns how many."""
    found = tables_of(argv, monkeypatch)
    for header, rows in found:
        key = repr((header, rows))
        if key in SEEN:
            continue
        SEEN.add(key)
        for fmt in STYLES:
            assert formats.render(fmt, header, rows) == oracle(fmt)(header, rows), \
                " ".join(argv + FORMAT_FLAGS[fmt])
        assert formats.render("csv", header, rows) == csv_oracle(header, rows), \
            " ".join(argv + ["--csv"])
    return len(found)


def matrices(inst):
    names = ["A", "B", "D", "K" if inst.sparse else "C"]
    return names + (["SA", "SB"] if inst.scaled else [])


def cases():
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            for wave in arch.waves:
                yield pytest.param(arch.name, inst.mnemonic, wave,
                                   id=f"{arch.name}-{inst.mnemonic}-w{wave}")


@pytest.mark.parametrize("arch, mnemonic, wave", list(cases()))
def test_every_layout_table_equals_tabulate(arch, mnemonic, wave, monkeypatch):
    inst = next(a for a in ARCHITECTURES if a.name == arch).find(mnemonic)
    drawn = 0
    for matrix in matrices(inst):
        base = ["-a", arch, "-i", mnemonic, "-w", str(wave), MATRIX_FLAGS[matrix]]
        for setting in SETTINGS:
            if call(base + ["-g"] + setting)[0] != 0:  # not legal here
                continue
            for mode in ("-R", "-M"):
                for transpose in ([], ["--transpose"]):
                    drawn += assert_drawn_alike(base + [mode] + setting + transpose,
                                                monkeypatch)
    assert drawn >= 4 * 2 * 2


def test_the_catalog_equals_tabulate(monkeypatch):
    assert assert_drawn_alike(["--catalog"], monkeypatch) == 1


# Tiny fixtures: each rule on its own, with the expected text inline.

def test_grid_widths_alignment_and_multiline_cells():
    text = tables.draw(tables.GRID, ["M", 0, 1], [[0, "a\nbb", ""], [10, "", "ccc"]])
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
    text = tables.draw(tables.MARKDOWN, ["lane", 0], [["v0", "x<br />y"], ["v10", "z"]])
    assert text == "\n".join([
        "| lane   | 0        |",
        "|--------|----------|",
        "| v0     | x<br />y |",
        "| v10    | z        |"])


def test_asciidoc_counts_a_line_break_as_one_character():
    text = tables.draw_asciidoc(["lane", "v0"], [[0, "A\nB"], [1, ""]])
    assert text == "\n".join([
        '[cols=">8,<6",options="header"]',
        "|====",
        "|   lane | v0   ",
        "|      0 | A\nB  ",
        "|      1 |      ",
        "|===="])


def test_csv_quotes_only_what_needs_quotes():
    rows = [[0, ["a", "b"], 'say "x"'], [1, "p,q", "line\nbreak"], [2, "", "cr\r"]]
    expected = 'h,"h,2",3\n0,a b,"say ""x"""\n1,"p,q","line\nbreak"\n2,,"cr\r"'
    assert formats.render("csv", ["h", "h,2", 3], rows) == expected
    assert formats.render("csv", [""], [[""]]) == '""\n""'


def test_integer_strings_count_as_numbers_in_the_first_column_only():
    text = tables.draw(tables.MARKDOWN, ["n", "m"], [["7", "1"], ["", "22"]])
    assert text.splitlines()[2:] == ["|   7 | 1   |", "|     | 22  |"]
