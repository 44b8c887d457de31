"""--json: every mode, every matrix and the modifiers of every architecture give one
document that formats/output.schema.json accepts, and that says what the text says."""
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import matrix_calculator
from instructions import ARCHITECTURES
from matrix_frontends.cli import modes as cli_modes
from matrix_library import api
from matrix_library.records import marked
from tests.helpers import call

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "formats" / "output.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA)
MATRIX_FLAG = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k", "SA": "--A-scale",
               "SB": "--B-scale"}
MODES = {"-g": "get", "-m": "entry", "-R": "register_layout", "-M": "matrix_layout"}




def document(argv):
    """The checked JSON document of a command line that must succeed."""
    status, out, err = call(list(argv) + ["--json"])
    assert (status, err) == (0, ""), (argv, err)
    assert out.endswith("}\n")
    doc = json.loads(out)
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, f"{argv}: {errors[0].message[:300]} at {list(errors[0].absolute_path)}"
    return doc


def text_lines(argv):
    status, out, err = call(argv)
    assert status == 0, err
    return out.splitlines()[2:]  # after the Architecture/Instruction header


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)


def base(inst):
    return ["-a", inst.arch.lower(), "-i", inst.mnemonic]


def cli_matrices(inst):
    """The instruction's matrices that the command line can name."""
    named = dict(cli_modes.MATRIX_FLAGS)
    return [matrix for matrix in api.matrices(inst) if matrix in named]


def representatives(arch):
    """The smallest instruction of each kind: any, sparse, multi-block, 64-bit,
    block-scaled, with packed formats, with OPSEL, with 4-bit inputs."""
    chosen = set()
    tests = (lambda _i: True, lambda i: i.sparse, lambda i: i.blocks > 1,
             lambda i: i.out_type.bits == 64, lambda i: getattr(i, "scaled", False),
             lambda i: getattr(i, "f8f6f4", False),
             lambda i: i.opsel, lambda i: i.a_type.bits == 4)
    for test in tests:
        kind = [i for i in arch.instructions if test(i)]
        if kind:
            chosen.add(min(kind, key=lambda i: (i.m * i.n * i.blocks, i.k)))
    return sorted(chosen, key=lambda i: i.mnemonic)


CASES = [(inst, wave) for arch in ARCHITECTURES for inst in representatives(arch)
         for wave in inst.wave_sizes]


def case_id(case):
    inst, wave = case
    return f"{inst.arch}-{inst.mnemonic}-w{wave}"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_mode_and_matrix_validates(case):
    inst, wave = case
    for matrix in cli_matrices(inst):
        for mode, name in MODES.items():
            argv = base(inst) + ["-w", str(wave), mode, MATRIX_FLAG[matrix]]
            if mode == "-g":
                argv += ["-I", str(inst.m - 1), "-J", "1", "-K", "1" if matrix in ("SA", "SB")
                         else str(inst.k - 1), "-b", str(inst.blocks - 1)]
            if mode == "-m":
                argv += ["-r", "0", "-l", "1"]
            doc = document(argv)
            assert (doc["mode"], doc["matrix"], doc["wave"]) == (name, matrix, wave)
            assert doc["register_count"] == api.register_count(inst, matrix, wave=wave)
        for mode in ("-g", "-m"):
            if matrix == "D" and inst.products:
                doc = document(base(inst) + ["-w", str(wave), mode, "-D", "-o"])
                calcs = [doc["calculation"]] if mode == "-g" else \
                    [e["calculation"] for e in doc["entries"]]
                for calc in calcs:
                    assert len(calc["products"]) == inst.k
                    assert (calc["c"] is None) == inst.sparse


# Modifiers of each family: (architecture, instruction, matrix, options).
MODIFIED = [
    ("cdna1", "v_mfma_f32_32x32x1f32", "A", ["--cbsz", "1", "--abid", "1"]),
    ("cdna2", "v_mfma_f32_16x16x1f32", "B", ["--blgp", "3"]),
    ("cdna3", "v_mfma_f32_4x4x4_16b_f16", "A", ["--cbsz", "3", "--abid", "5"]),
    ("cdna3", "v_mfma_f32_4x4x4_16b_f16", "D", ["--cbsz", "2", "--abid", "1", "--blgp", "4",
                                                 "-o"]),
    ("cdna3", "v_mfma_f64_16x16x4_f64", "A", ["--blgp", "1"]),
    ("cdna3", "v_mfma_f64_16x16x4_f64", "D", ["--blgp", "7", "-o"]),
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "K", ["--abid", "2"]),
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "D", ["--cbsz", "1", "-o"]),
    ("rdna3", "v_wmma_f16_16x16x16_f16", "C", ["--opsel", "4"]),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "A", ["--neg", "1", "--neg_hi", "1"]),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "D", ["--neg", "7", "--neg_hi", "4", "-o"]),
    ("rdna4", "v_swmmac_f32_16x16x32_f16", "K", ["--opsel", "1"]),
    ("rdna4", "v_wmma_f32_16x16x16_f16", "C", ["--neg", "4", "--neg_hi", "4"]),
    ("rdna4", "v_wmma_f32_16x16x16_f16", "B", ["--neg", "2", "-w", "64"]),
]


@pytest.mark.parametrize("arch, mnemonic, matrix, options", MODIFIED,
                         ids=[f"{a}-{m}-{x}-{' '.join(o)}" for a, m, x, o in MODIFIED])
def test_modifiers_are_reported_and_applied(arch, mnemonic, matrix, options):
    argv = ["-a", arch, "-i", mnemonic, MATRIX_FLAG[matrix]] + options
    for mode in MODES:
        if "-o" in options and mode in ("-R", "-M"):
            continue
        doc = document(argv + [mode])
        values = dict(zip(options[::2], options[1::2]))
        for option, value in values.items():
            if option.startswith("--"):
                assert doc["modifiers"][option[2:].replace("-", "_")] == int(value)


def test_negation_and_absolute_value_are_flagged():
    doc = document(["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-R", "-C", "--neg", "4",
                    "--neg_hi", "4"])
    flags = {(loc["negated"], loc["absolute"]) for e in doc["elements"] for loc in e["locations"]}
    assert flags == {(True, True)}
    doc = document(["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-g", "-D", "-o",
                    "--blgp", "5"])
    calc = doc["calculation"]
    assert all(p["a"]["location"]["negated"] and not p["b"]["location"]["negated"]
               for p in calc["products"])
    assert calc["c"]["location"]["negated"]


def test_scaled_calculation_lists_the_scales():
    inst = next(i for i in api.find_architecture("cdna4").instructions if i.scaled)
    assert {"SA", "SB"} <= set(cli_matrices(inst))
    doc = document(base(inst) + ["-g", "-D", "-o", "-I", "3", "-J", "5", "--opsel-a", "1"])
    scales = doc["calculation"]["scales"]
    assert [s["kb"] for s in scales] == list(range(inst.k // 32))
    assert all(s["a"]["element"]["i"] == 3 and s["b"]["element"]["j"] == 5 for s in scales)
    assert all(s["a"]["location"]["bits"] == [8, 15] for s in scales)


# ---- the JSON says what the text says

def _get_pairs(lines):
    return [tuple(line.split(" = ")) for line in lines]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_get_register_matches_the_text(case):
    inst, wave = case
    for matrix in cli_matrices(inst):
        coords = ["-I", "1", "-J", str(min(2, inst.n - 1)), "-K", str(min(1, inst.k - 1)),
                  "-b", str(inst.blocks - 1)]
        argv = base(inst) + ["-w", str(wave), "-g", MATRIX_FLAG[matrix]] + coords
        doc = document(argv)
        expected = _get_pairs(text_lines(argv))
        got = [(doc["element"]["text"], loc["text"]) for loc in doc["locations"]]
        assert got == expected


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_matrix_entry_matches_the_text(case):
    inst, wave = case
    for matrix in cli_matrices(inst):
        if matrix == "K" and inst.family != "cdna":
            continue  # the text lists only the first A register's indices (README)
        for lane in (0, 17, wave - 1):
            argv = base(inst) + ["-w", str(wave), "-m", MATRIX_FLAG[matrix], "-r", "0",
                                 "-l", str(lane)]
            doc = document(argv)
            got = [(e["location"]["text"], marked(e["element"]["text"],
                                                  _mark(e["location"])))
                   for e in doc["entries"]]
            status, out, _ = call(argv)
            if status:  # the text reports an empty slot as an error
                assert got == []
            else:
                assert got == _get_pairs(out.splitlines()[2:])


def _mark(loc):
    return ("-" if loc["negated"] else "") + ("|" if loc["absolute"] else "")


@pytest.mark.parametrize("arch, mnemonic, options", [
    ("cdna1", "v_mfma_f32_32x32x2f32", []),
    ("cdna3", "v_mfma_f32_16x16x4_4b_f16", ["-b", "3", "-I", "7", "-J", "9"]),
    ("cdna3", "v_mfma_f64_4x4x4_4b_f64", ["--blgp", "6", "-b", "2", "-I", "3"]),
    ("cdna3", "v_mfma_f32_32x32x4_2b_f16", ["--cbsz", "1", "--abid", "1", "-b", "0"]),
    ("cdna3", "v_smfmac_f32_32x32x16_bf16", ["-I", "31", "-J", "30"]),
    ("rdna4", "v_wmma_f32_16x16x16_f16", ["--neg", "3", "--neg_hi", "4", "-I", "9"]),
])
def test_output_calculation_matches_the_text(arch, mnemonic, options):
    """-g -o: the same D, A, B and C registers, term by term, signs included."""
    argv = ["-a", arch, "-i", mnemonic, "-g", "-D", "-o"] + options
    doc = document(argv)
    (line,) = text_lines(argv)
    calc = doc["calculation"]
    text = f"{doc['element']['text']} = Vdst_{calc['d']['location']['text']} = " + " + ".join(
        f"{marked('Src0_' + p['a']['location']['text'], _mark(p['a']['location']))}*"
        f"{marked('Src1_' + p['b']['location']['text'], _mark(p['b']['location']))}"
        for p in calc["products"])
    if calc["c"]:
        loc = calc["c"]["location"]
        sign = "-" if loc["negated"] else "+"
        text += f" {sign} {marked('Src2_' + loc['text'], '|' if loc['absolute'] else '')}"
    assert text == line


@pytest.mark.parametrize("argv", [
    ["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "-R", "-A"],
    ["-a", "cdna1", "-i", "v_mfma_f32_32x32x2f32", "-R", "-C"],
    ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-R", "-B", "-w", "64", "--neg", "2"],
    ["-a", "rdna4", "-i", "v_swmmac_f32_16x16x32_bf16", "-R", "-k", "--opsel", "1"],
])
def test_register_layout_matches_the_csv_text(argv):
    doc = document(argv)
    status, out, _ = call(argv + ["--csv"])
    cells, block = {}, 0
    for line in out.splitlines()[2:]:
        if line.startswith("Block"):  # "Block 3", or "Blocks 2, 3" (shows block 2)
            block = int(line.split()[1].rstrip(","))
            continue
        if "[" in line.split(",")[0]:  # the column header
            continue
        row, *values = line.split(",")
        for col, value in enumerate(values):
            cells[(int(row), col, block)] = value
    for item in doc["elements"]:
        e = item["element"]
        key = (e[_axes(e["matrix"])[0]], e[_axes(e["matrix"])[1]], e["block"])
        if key in cells:
            expected = " ".join(marked(loc["text"], _mark(loc)) for loc in item["locations"])
            assert cells[key] == expected, (key, cells[key], expected)
    assert len(cells) <= len(doc["elements"])


def _axes(matrix):
    return api.COORDINATES.get(matrix, ("i", "j"))


@pytest.mark.parametrize("argv", [
    ["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "-M", "-B"],
    ["-a", "rdna4", "-i", "v_wmma_f16_16x16x16_f16", "-M", "-D", "-w", "64"],
    ["-a", "cdna2", "-i", "v_mfma_f64_4x4x4f64", "-M", "-D"],
])
def test_matrix_layout_matches_the_csv_text(argv):
    doc = document(argv)
    status, out, _ = call(argv + ["--csv"])
    header, *rows = [line.split(",") for line in out.splitlines()[2:]]
    assert [int(row[0]) for row in rows] == doc["lanes"]
    cells = {}
    for slot in doc["slots"]:
        loc = slot["location"]
        column = loc["text"].split("{")[0] + (loc["text"].split("}")[1] if "}" in loc["text"]
                                              else "")
        cells[(loc["lane"], column)] = " ".join(
            marked(e["text"], _mark(loc)) for e in slot["elements"])
    for row in rows:
        for name, value in zip(header[1:], row[1:]):
            assert cells.get((int(row[0]), name), "") == value


# ---- listing, detail, catalog, version

@pytest.mark.slow
@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_list_and_detail_of_every_instruction(arch):
    doc = document(["-a", arch.name.lower(), "-L"])
    assert doc["instructions"] == [inst.mnemonic for inst in arch.instructions]
    for inst in arch.instructions:
        doc = document(base(inst) + ["-d"])
        assert doc["facts"]["instruction"] == inst.name
        assert doc["formulas"]


@pytest.mark.slow
def test_catalog_and_version_validate():
    doc = document(["--catalog"])
    assert doc["count"] == len(doc["instructions"]) == len(api.instructions())
    doc = document(["-L", "-a", "all", "--filter", "type=fp8", "-w", "64"])
    assert doc["filters"] == {"type": ["fp8"]} and doc["wave"] == 64
    assert document(["-v"])["version"] == matrix_calculator.__version__


# ---- errors stay on stderr

@pytest.mark.parametrize("argv", [
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A", "--csv"],
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d", "--markdown"],
    ["-a", "cdna3", "-L", "--asciidoc"],
    ["--catalog", "-c"],
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "32"],
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-m", "-D", "-r", "16"],
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-B", "--blgp", "1"],
    ["-a", "cdna3", "-i", "v_smfmac_f32_16x16x32_f16", "-g", "-C"],
    ["-a", "bogus", "-L"],
])
def test_errors_are_one_line_on_stderr_and_nothing_on_stdout(argv):
    status, out, err = call(argv + ["--json"])
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)


def test_an_unused_slot_is_an_empty_list_not_an_error():
    """The text reports lanes no value is read from; JSON lists no entries."""
    doc = document(["-a", "cdna3", "-i", "v_mfma_f32_32x32x4_2b_f16", "-m", "-A", "-l", "40",
                    "--cbsz", "1"])
    assert doc["entries"] == []
    doc = document(["-a", "cdna1", "-i", "v_mfma_f32_32x32x2f32", "-m", "-B", "-l", "40",
                    "--blgp", "1"])
    assert doc["entries"] == []


@pytest.mark.parametrize("document", [
    {"a": [1, -2, 1.5, float("nan"), float("inf"), {}, [], (), {"k": ()}], "b": {"c": [[{}]]},
     "flags": [True, False, None], "text": "é \" \\ \n \x00 \u2028 [{,:}]"},
    {1: "int key", False: "bool key", None: "none key", 2.5: "float key"},
    {"nested": {1: [1, {"x": {2: 3}}]}, "after": "the object ends"},
    [], {}, 0, "x", None, 1e300, [[[[]]]],
])
def test_the_indented_encoder_writes_what_json_dumps_writes(document):
    """json_text.indented is json.dumps(indent=2), byte for byte, on every kind of value
    (the golden and JSON tests check the documents themselves)."""
    from formats.json_text import indented
    assert indented(document) == json.dumps(document, indent=2)


@pytest.mark.parametrize("argv", [
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A", "--json"],
    ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x4_f32", "-g", "-D", "-I", "1", "-J", "2", "-o",
     "--json"],
    # -g by the operand's templates: replicated and negated, a block's name, a VGPR pair
    ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-g", "-A", "-I", "5", "-K", "6",
     "--neg", "1", "--json"],
    ["-a", "cdna1", "-i", "v_mfma_f32_32x32x1f32", "-g", "-B", "-J", "1", "-b", "1", "--json"],
    ["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-g", "-A", "-I", "1", "-K", "2", "--json"],
    ["-a", "cdna3", "--catalog", "--json"],
    ["-a", "gfx950", "--convert", "v_mfma_f32_16x16x32_bf16:D",
     "v_mfma_f32_16x16x32_bf16:A", "--json"],
])
def test_compact_is_the_indented_document_on_one_line(argv):
    """--compact writes at once what re-encoding the indented document gives."""
    (status, indented, _), (compact_status, compact, err) = call(argv), call(argv + ["--compact"])
    assert status == compact_status == 0, err
    assert compact == json.dumps(json.loads(indented), separators=(",", ":")) + "\n"
