"""Every --format output loads in the program people load it with, whole, with the right
tables, rows and columns: csv and pandas (csv, tsv, long-csv), json (jsonl),
markdown-it-py (markdown, github, pipe and the legacy --markdown), docutils (rst),
html.parser (html, unsafehtml), and asciidoctor and pandoc where they are installed
(tests/install_consumers.sh installs them).

The sample covers every architecture, a many-block -R (16 blocks), absolute values
|C[0][0]| (RDNA3 NEG_HI), negated values, broadcast cells with several entries, a
transposed -M, and the catalog. The expected shape of each table comes from the tables
the calculator computes (formats.documents.tables), not from the text.
"""
import csv
import io
import itertools
import json
import os
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from formats import documents
from instructions import ARCHITECTURES, find_architecture
from layouts import Modifiers
from matrix_library import api as matrix_api
from tests.helpers import call, missing

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need(module):
    """A test dependency (requirements-dev.txt): skipped when absent, failed under CI."""
    try:
        return pytest.importorskip(module)
    except pytest.skip.Exception:
        if IN_CI:
            pytest.fail(f"CI: the test dependency {module} is not installed")
        raise


MODS = {"--cbsz": "cbsz", "--abid": "abid", "--blgp": "blgp", "--neg": "neg",
        "--neg_hi": "neg_hi", "--opsel": "opsel"}
MATRIX = {"-A": "A", "-B": "B", "-C": "C", "-D": "D", "-k": "K"}


def _sample():
    cases = [
        ["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "-R", "-A"],  # 16 blocks
        ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-M", "-C", "--neg_hi", "4"],  # |C|
        ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-R", "-A", "--neg", "1"],  # -A
        ["-a", "cdna1", "-i", "v_mfma_f32_32x32x1f32", "-R", "-A", "--cbsz", "1",
         "--abid", "1"],  # broadcast blocks
        ["-a", "cdna2", "-i", "v_mfma_f32_16x16x4f32", "-M", "-B", "--blgp", "1",
         "--transpose"],
    ]
    for arch in ARCHITECTURES:  # every architecture: its first instruction, -R and -M
        inst = arch.instructions[0].mnemonic
        wave = ["-w", "32"] if 32 in arch.waves else []
        cases.append(["-a", arch.name.lower(), "-i", inst, "-R", "-D"] + wave)
        cases.append(["-a", arch.name.lower(), "-i", inst, "-M", "-A"])
    return cases


SAMPLE = _sample()
IDS = [" ".join(a[1:2] + a[3:]) for a in SAMPLE]


def query(argv):
    """The documents.Query of a sample command line."""
    words = dict(itertools.pairwise(argv))
    arch = find_architecture(words["-a"])
    inst = arch.find(words["-i"])
    mods = Modifiers(**{name: int(words[flag]) for flag, name in MODS.items() if flag in words})
    wave = int(words.get("-w", arch.waves[0]))
    matrix = next(MATRIX[w] for w in argv if w in MATRIX)
    view = "rlayout" if "-R" in argv else "mlayout"
    found = matrix_api.answer(matrix_api.Request(
        "query", inst=inst, matrix=matrix, mods=mods, wave=wave,
        options=(("query", view), ("document", "text"))))
    return documents.Query(found, "--transpose" in argv)


def shapes(argv):
    """(data rows, columns) of each table the command line's answer holds."""
    return [(len(rows), len(header)) for _, header, rows in documents.tables(query(argv))]


def output(argv):
    status, out, err = call(argv)
    assert (status, err) == (0, ""), err
    return out


# ---- CSV, TSV, the long form and JSON Lines

@pytest.mark.parametrize("argv", SAMPLE, ids=IDS)
@pytest.mark.parametrize("fmt, delimiter", [("csv", ","), ("tsv", "\t")])
def test_csv_loads_whole_in_the_csv_module_and_pandas(argv, fmt, delimiter):
    pandas = need("pandas")
    text = output(argv + ["--format", fmt])
    found = shapes(argv)
    block_column = len(found) > 1
    rows = sum(r for r, _ in found)
    columns = found[0][1] + block_column
    assert text.startswith("# ")
    records = list(csv.reader((line for line in io.StringIO(text) if not line.startswith("#")),
                              delimiter=delimiter))
    assert len(records) == 1 + rows and {len(r) for r in records} == {columns}
    frame = pandas.read_csv(io.StringIO(text), sep=delimiter, comment="#", dtype=str,
                            keep_default_na=False)
    assert frame.shape == (rows, columns)
    assert list(frame.columns)[:1] == (["block"] if block_column else [str(records[0][0])])


def long_entries(argv):
    found = query(argv).found
    return list(matrix_api.layout(found.inst, found.matrix, mods=found.mods, wave=found.wave))


@pytest.mark.parametrize("argv", SAMPLE, ids=IDS)
def test_the_long_form_has_one_row_per_element_location(argv):
    pandas = need("pandas")
    entries = long_entries(argv)
    text = output(argv + ["--format", "long-csv"])  # plain CSV: read without options
    assert text.startswith(",".join(documents.LONG_HEADER) + "\n")
    assert not any(line.startswith("#") for line in text.splitlines())
    frame = pandas.read_csv(io.StringIO(text))
    assert list(frame.columns) == list(documents.LONG_HEADER)
    assert len(frame) == len(entries)
    first_elem, first_loc = entries[0]
    assert (frame["matrix"][0], frame["lane"][0], frame["bit_lo"][0], frame["bit_hi"][0]) == \
        (first_elem.matrix, first_loc.lane, *first_loc.bits)
    assert frame["negated"].sum() == sum(loc.negated for _, loc in entries)
    assert frame["absolute"].sum() == sum(loc.absolute for _, loc in entries)
    lines = output(argv + ["--format", "jsonl"]).splitlines()
    objects = [json.loads(line) for line in lines]
    assert len(objects) == len(entries)
    assert objects[-1]["registers"] == list(entries[-1][1].registers)
    assert {o["instruction"] for o in objects} == {query(argv).found.inst.name}


# ---- Markdown

def markdown_tables(text):
    """[(data rows, columns)] of every table markdown-it finds, and each table's cells."""
    markdown_it = need("markdown_it")
    tokens = markdown_it.MarkdownIt("commonmark").enable("table").parse(text)
    found, cells, rows, columns = [], [], 0, 0
    for token in tokens:
        if token.type == "table_open":
            rows, columns, cells = -1, 0, []
        elif token.type == "tr_open":
            rows, columns = rows + 1, 0
        elif token.type in ("th_open", "td_open"):
            columns += 1
        elif token.type == "inline" and rows >= 0:
            cells.append(token.content)
        elif token.type == "table_close":
            found.append((rows, columns))
    return found, cells


@pytest.mark.parametrize("argv", SAMPLE, ids=IDS)
@pytest.mark.parametrize("fmt", ["markdown", "github", "pipe"])
def test_markdown_documents_keep_every_table_row_and_column(argv, fmt):
    text = output(argv + ["--format", fmt])
    found, cells = markdown_tables(text)
    assert found == shapes(argv)
    if "--neg_hi" in argv:
        assert "|C[0][0]|" in cells


def test_legacy_markdown_escapes_bars_so_cells_stay_whole():
    argv = SAMPLE[1]
    text = output(argv + ["--markdown"])
    assert "\\|C[0][0]\\|" in text and text.startswith("Architecture: RDNA3\n")
    found, cells = markdown_tables(text)
    assert found == shapes(argv) == [(32, 9)]
    assert cells.count("|C[0][0]|") == 1


# ---- reStructuredText

@pytest.mark.parametrize("argv", SAMPLE, ids=IDS)
def test_rst_parses_in_docutils_with_every_table(argv):
    need("docutils")
    from docutils import nodes
    from docutils.core import publish_doctree
    text = output(argv + ["--format", "rst"])
    messages = []
    tree = publish_doctree(text, settings_overrides={
        "report_level": 2, "halt_level": 5, "warning_stream": io.StringIO()})
    messages = [m.astext() for m in tree.findall(nodes.system_message)]
    assert not messages, messages[:3]
    found = []
    for table in tree.findall(nodes.table):
        body = next(table.findall(nodes.tbody))
        rows = list(body.findall(nodes.row))
        found.append((len(rows), len(list(rows[0].findall(nodes.entry)))))
    assert found == shapes(argv)
    if "--neg_hi" in argv:
        assert "|C[0][0]|" in tree.astext()


# ---- HTML

class Tables(HTMLParser):
    """[(data rows, columns)] of the <table>s of a document (the header row left out)."""

    def __init__(self):
        super().__init__()
        self.found, self.row, self.text = [], None, []

    def handle_starttag(self, tag, _attrs):
        if tag == "table":
            self.found.append([])
        elif tag == "tr":
            self.row = 0
        elif tag in ("td", "th"):
            self.row += 1

    def handle_endtag(self, tag):
        if tag == "tr":
            self.found[-1].append(self.row)

    def handle_data(self, data):
        self.text.append(data)

    def shapes(self):
        return [(len(rows) - 1, rows[0]) for rows in self.found]


@pytest.mark.parametrize("argv", SAMPLE, ids=IDS)
@pytest.mark.parametrize("fmt", ["html-table", "unsafehtml"])
def test_html_has_every_table_row_and_column(argv, fmt):
    parser = Tables()
    parser.feed(output(argv + ["--format", fmt]))
    assert parser.shapes() == shapes(argv)
    assert len({columns for rows in parser.found for columns in rows}) == 1
    if "--neg_hi" in argv:
        assert "|C[0][0]|" in [text.strip() for text in parser.text]


# ---- the catalog as a document

def test_the_catalog_loads_whole_as_csv_markdown_and_html():
    pandas = need("pandas")
    expected = len(matrix_api.catalog())
    frame = pandas.read_csv(io.StringIO(output(["--catalog", "--format", "csv"])), comment="#")
    assert frame.shape == (expected, 16 + 7 + 1)
    found, _ = markdown_tables(output(["--catalog", "--format", "markdown"]))
    assert found == [(expected, 24)]
    parser = Tables()
    parser.feed(output(["--catalog", "--format", "html"]))
    assert parser.shapes() == [(expected, 24)]


# ---- every format: a heading, then blank lines around each table

@pytest.mark.parametrize("fmt", [f for f in documents.FORMATS
                                 if f not in ("csv", "tsv", "long-csv", "jsonl", "svg", "html")])
def test_every_document_gives_each_block_a_heading_and_blank_lines(fmt):
    argv = SAMPLE[0]  # 16 blocks
    text = output(argv + ["--format", fmt])
    parts = text.rstrip("\n").split("\n\n")
    assert len(parts) == 1 + 2 * 16  # the title, then a heading and a table per block
    assert all("Block" in heading for heading in parts[1::2])
    assert text.endswith("\n") and not text.endswith("\n\n")


# ---- asciidoctor and pandoc, where installed

def _tool(name):
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed (tests/install_consumers.sh installs it)")
    return path


def _asciidoctor_tables(text):
    proc = subprocess.run([_tool("asciidoctor"), "-s", "-o", "-", "-"], input=text,
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0 and "WARNING" not in proc.stderr, proc.stderr
    parser = Tables()
    parser.feed(proc.stdout)
    return parser


@pytest.mark.parametrize("argv", SAMPLE[:3], ids=IDS[:3])
def test_asciidoctor_reads_every_table(argv):
    parser = _asciidoctor_tables(output(argv + ["--format", "asciidoc"]))
    assert parser.shapes() == shapes(argv)
    if "--neg_hi" in argv:
        assert "|C[0][0]|" in "".join(parser.text)


def test_asciidoctor_reads_the_legacy_asciidoc_with_absolute_values():
    argv = SAMPLE[1]
    assert _asciidoctor_tables(output(argv + ["--asciidoc"])).shapes() == shapes(argv)


PANDOC_READERS = {"markdown": "gfm", "rst": "rst", "html-table": "html", "mediawiki": "mediawiki",
                  "textile": "textile", "orgtbl": "org", "jira": "jira", "latex": "latex"}


def _pandoc_shapes(text, reader):
    proc = subprocess.run([_tool("pandoc"), "-f", reader, "-t", "html"], input=text,
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    parser = Tables()
    parser.feed(proc.stdout)
    return parser.shapes()


@pytest.mark.parametrize("argv", SAMPLE[:2], ids=IDS[:2])
@pytest.mark.parametrize("fmt", list(PANDOC_READERS))
def test_pandoc_reads_every_table(argv, fmt):
    if fmt == "jira" and "--neg_hi" in argv:
        pytest.skip("pandoc's Jira reader ignores the \\| escape that Jira documents")
    assert _pandoc_shapes(output(argv + ["--format", fmt]), PANDOC_READERS[fmt]) == shapes(argv)
