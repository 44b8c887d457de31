"""gfx1250 / gfx1251 through the command line, the JSON output and the library:
every example fact of tests/data/facts/gfx1250_examples.txt (part 1), opcodes, operand
widths and modifier legality against LLVM's recorded answers (tests/data), the
wave32-only rule, the catalog, the sources in -d / --json, and the printed formulas
evaluated element by element against the layouts.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest

from instructions import find_architecture
from layouts import operand
from layouts.gfx1250 import FORMATS
from matrix_library import api
from tests.helpers import call
from tests.helpers import gfx1250 as facts_of

GFX1250 = find_architecture("gfx1250")
GFX1251 = find_architecture("gfx1251")
OPTION = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k", "SA": "--A-scale",
          "SB": "--B-scale"}
FORMAT_OPTION = {"fp8": "0", "bf8": "1", "fp6": "2", "bf6": "3", "fp4": "4"}


def coordinates(matrix: str, row: int, col: int) -> list[str]:
    """-I/-J/-K of element (row, col) of `matrix`."""
    names = {"A": ("-I", "-K"), "B": ("-K", "-J"), "C": ("-I", "-J"), "D": ("-I", "-J"),
             "K": ("-I", "-K"), "SA": ("-I", "-K"), "SB": ("-K", "-J")}[matrix]
    return [names[0], str(row), names[1], str(col)]


def api_coordinates(matrix: str, row: int, col: int) -> dict[str, int]:
    pairs = {"A": "ik", "B": "kj", "C": "ij", "D": "ij", "K": "ik", "SA": "ik", "SB": "kj"}
    return {pairs[matrix][0]: row, pairs[matrix][1]: col}


def fact_text(text: str) -> tuple[int, int, int, int]:
    """(first VGPR, lane, low bit, high bit) of a fact's vN{L}.[hi:lo] (a straddler
    'vN{L}.[31:lo] + vN+1{L}.[h:0]' counts its bits across the pair, as the calculator)."""
    parts = re.findall(r"v(\d+)\{(\d+)\}\.\[(\d+):(\d+)\]", text)
    reg, lane, hi, lo = (int(x) for x in parts[0])
    if len(parts) == 2:
        hi = 32 + int(parts[1][2])
    return reg, lane, lo, hi


def cli_get(arch: str, mnemonic: str, matrix: str, row: int, col: int,
            extra: tuple[str, ...] = ()) -> str:
    status, out, err = call(["-a", arch, "-i", mnemonic, "-g", OPTION[matrix],
                             *coordinates(matrix, row, col), *extra])
    assert (status, err) == (0, ""), err
    return str(out.splitlines()[-1].split(" = ", 1)[1])


def as_fact(cli: str) -> tuple[int, int, int, int]:
    """(first VGPR, lane, low bit, high bit) of the calculator's register text."""
    found = re.fullmatch(r"v(?:(\d+)|\[(\d+):(\d+)\])\{(\d+)\}(?:\.\[(\d+):(\d+)\])?", cli)
    assert found, cli
    single, last, first, lane, hi, lo = found.groups()
    reg = int(single if single is not None else first)
    if hi is None:
        width = 32 * (1 if single is not None else int(last) - int(first) + 1)
        return reg, int(lane), 0, width - 1
    return reg, int(lane), int(lo), int(hi)


# ---- every example fact through the command line and the library

ALL_FACTS = ([(fid, mn, m, r, c, t, ()) for fid, mn, m, r, c, t in facts_of.LAYOUT_FACTS]
             + [(fid, facts_of.F8F6F4, m, r, c, t,
                 ("--matrix-a-fmt", fa, "--matrix-b-fmt", FORMAT_OPTION[fb]))
                for fid, fa, fb, m, r, c, t in facts_of.FORMAT_FACTS]
             + [(fid, mn, m, r, c, t,
                 (("--matrix-a-scale" if m == "SA" else "--matrix-b-scale"), f"row{sel}"))
                for fid, mn, m, sel, r, c, t in facts_of.SCALE_FACTS])


@pytest.mark.parametrize("fid, mnemonic, matrix, row, col, text, extra", ALL_FACTS,
                         ids=[f"{f[0]}-{f[2]}{f[3]}.{f[4]}" for f in ALL_FACTS])
def test_example_fact_through_cli_and_library(fid: str, mnemonic: str, matrix: str, row: int,
                                              col: int, text: str,
                                              extra: tuple[str, ...]) -> None:
    want = fact_text(text)
    assert as_fact(cli_get("gfx1250", mnemonic, matrix, row, col, extra)) == want, fid
    assert as_fact(cli_get("mi430x", mnemonic, matrix, row, col, extra)) == want, fid
    mods = {opt[2:].replace("-", "_"): int(FORMAT_OPTION.get(val, val[-1]))
            for opt, val in zip(extra[::2], extra[1::2])}
    inst = api.find_instruction("gfx1250", mnemonic)
    where: dict[str, Any] = {**api_coordinates(matrix, row, col), "mods": mods}
    (loc,) = api.locate(inst, matrix, **where)
    assert (loc.registers[0], loc.lane, *loc.bits) == want, fid


def test_named_and_numbered_modifier_values_agree() -> None:
    base = ["-a", "CDNA5", "-i", "v_wmma_scale16_f32_16x16x128_f8f6f4", "-g", "-A", "-K", "100"]
    assert call(base + ["--matrix-a-fmt", "FP4"]) == call(base + ["--matrix-a-fmt", "4"])
    sa = ["-a", "gfx1250", "-i", "v_wmma_scale_f32_16x16x128_f8f6f4", "-g", "--A-scale"]
    assert call(sa + ["--matrix-a-scale", "row1"]) == call(sa + ["--matrix_a_scale", "1"])
    status, _, err = call(base + ["--matrix-a-fmt", "fp9"])
    assert status == 2 and "fp8, bf8, fp6, bf6, fp4 or their codes 0-4" in err


# ---- opcodes and operand widths of every instruction against llvm-mc-22

def format_pairs(inst: Any) -> list[tuple[str, str] | None]:
    if not inst.format_fields:
        return [None]
    pairs: list[tuple[str, str] | None] = [(a, b) for a in FORMATS for b in FORMATS]
    return pairs if not inst.scaled else [(f, f) for f in FORMATS]


@pytest.mark.parametrize("inst", GFX1250.instructions, ids=lambda i: i.mnemonic)
def test_opcode_and_widths_match_llvm(inst: Any) -> None:
    enc = facts_of.encoding(facts_of.baseline(inst.mnemonic))
    assert enc[3] == 0xCC  # VOP3P
    if inst.scaled:
        assert len(enc) == 16 and (enc[2], enc[10]) == (inst.prefix_opcode, inst.opcode)
        assert inst.encoding == "VOP3PX2" and inst.encoding_bits == 128
    else:
        assert len(enc) == 8 and enc[2] == inst.opcode and inst.encoding_bits == 64
    for pair in format_pairs(inst):
        mods = dict(zip(("matrix_a_fmt", "matrix_b_fmt"),
                        (FORMATS.index(f) for f in pair))) if pair else {}
        accepted = facts_of.llvm_widths(inst.mnemonic, facts_of.fmt_mods(*pair) if pair else "")
        for matrix in api.matrices(inst):
            count = api.register_count(inst, matrix, mods=mods)
            if matrix == "D" and inst.sparse and inst.out_type.bits < inst.c_type.bits:
                count *= 2  # bf16f32: Vdst is the tied f32 C, D packed into its first half
            assert accepted[facts_of.LLVM_NAME[matrix]] == {count}, (pair, matrix)


def test_gfx1251_adds_only_the_f64_wmma() -> None:
    """G-LEG-2, G-REG-13, G-ENC-13 (S4; LLVM 22 does not know the instruction)."""
    names = [i.mnemonic for i in GFX1251.instructions]
    assert names == [i.mnemonic for i in GFX1250.instructions] + ["v_wmma_f64_16x16x4_f64"]
    f64 = GFX1251.find("v_wmma_f64_16x16x4_f64")
    assert f64.opcode == 0x5B and GFX1250.find("v_wmma_f64_16x16x4_f64") is None
    assert {m: api.register_count(f64, m) for m in "ABCD"} == {"A": 4, "B": 4, "C": 16, "D": 16}
    status, _, err = call(["-a", "gfx1250", "-i", "v_wmma_f64_16x16x4_f64", "-d"])
    assert status == 2 and "GFX1250 has no instruction" in err
    doc = json.loads(call(["-a", "gfx1251", "-i", "v_wmma_f64_16x16x4_f64", "-d", "--json"])[1])
    assert doc["facts"]["cycles"] is None
    assert "S4" in doc["facts"]["provenance"]["encoding"]["note"]


# ---- modifier legality: every recorded modifier probe, the calculator against LLVM

PROBE_VALUES = {"MATRIX_SCALE_ROW0": 0, "MATRIX_SCALE_ROW1": 1, "MATRIX_SCALE_FMT_E8": 0,
                "MATRIX_SCALE_FMT_E5M3": 1, "MATRIX_SCALE_FMT_E4M3": 2,
                **{f"MATRIX_FMT_{f.upper()}": n for n, f in enumerate(FORMATS)}}


def probe_modifiers(text: str) -> dict[str, int] | None:
    """The Modifiers of one probe's modifier text (None: a modifier the calculator does
    not model, as clamp or op_sel)."""
    mods: dict[str, int] = {}
    for word in text.split():
        name, _, value = word.partition(":")
        if name in ("neg_lo", "neg_hi"):
            bits = [int(b) for b in value.strip("[]").split(",")]
            mods[name] = sum(b << n for n, b in enumerate(bits))
        elif name in ("matrix_a_reuse", "matrix_b_reuse"):
            mods[name] = 1
        elif name in PROBE_VALUES or value in PROBE_VALUES or value.isdigit():
            mods[name] = PROBE_VALUES[value] if value in PROBE_VALUES else int(value)
        else:
            return None
    return mods


def legality_cases() -> list[tuple[str, str, dict[str, int], bool]]:
    cases = []
    for cpu, line, ans in facts_of.mc_rows():
        name = line.split()[0]
        if cpu != "gfx1250" or GFX1250.find(name) is None:
            continue
        base = facts_of.baseline(name)
        if not line.startswith(base + " "):
            continue
        mods = probe_modifiers(line[len(base) + 1:])
        if mods is None or not any(mods.values()) or "wrong register tuple size" in ans:
            continue  # 0 is the calculator's "not given"; tuple sizes: widths tests
        cases.append((name, line[len(base) + 1:], mods, ans.startswith("enc ")))
    return cases


@pytest.mark.slow
def test_every_modifier_probe_agrees_with_llvm() -> None:
    """For each recorded probe that adds modifiers to an instruction's baseline line,
    the calculator accepts the values exactly when LLVM's assembler does."""
    cases = legality_cases()
    assert len(cases) > 500
    disagree = []
    for name, text, mods, ok in cases:
        inst = GFX1250.find(name)
        try:
            api.locate(inst, "C" if not inst.sparse else "K", mods=mods, output_calc=True)
            accepted = True
        except api.CalcError:
            accepted = False
        if accepted != ok:
            disagree.append((name, text, ok))
    assert not disagree, disagree[:10]


def test_format_widths_through_the_cli() -> None:
    base = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-d"]
    for fmt, count in (("fp8", 16), ("bf6", 12), ("fp4", 8)):
        out = call(base + ["--matrix-a-fmt", fmt])[1]
        assert f"GPRs required for A: {count}\n" in out and "GPRs required for B: 16\n" in out


def test_errors_name_the_value_and_what_is_allowed() -> None:
    cases = [
        (["-i", "v_wmma_f32_16x16x32_f16", "-w", "64", "-g", "-A"],
         "wave size 64 is not available for V_WMMA_F32_16X16X32_F16 on GFX1250; use 32"),
        (["-i", "v_wmma_f32_16x16x64_fp8_fp8", "--neg-lo", "1", "-g", "-A"],
         "the bits it takes are 4"),
        (["-i", "v_wmma_f32_32x16x128_f4", "--matrix-b-reuse", "-g", "-B"],
         "does not take --matrix-b-reuse"),
        (["-i", "v_swmmac_f32_16x16x64_f16", "--index-key", "2", "-g", "-k"],
         "--index-key 2 is out of range"),
        (["-i", "v_wmma_f32_16x16x32_f16", "--cbsz", "1", "-g", "-A"],
         "CBSZ is not a GFX1250 modifier"),
        (["-i", "v_wmma_f32_16x16x32_f16", "--neg", "1", "-g", "-A"],
         "NEG is not a GFX1250 modifier"),
        (["-i", "v_wmma_scale_f32_16x16x128_f8f6f4", "--matrix-a-scale-fmt", "e9", "-g", "-A"],
         "takes e8, e5m3, e4m3"),
    ]
    for argv, message in cases:
        status, out, err = call(["-a", "gfx1250", *argv])
        assert (status, out) == (2, "") and message in err and err.count("\n") == 1, err
    status, _, err = call(["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_f16", "--neg-lo", "1",
                           "-g", "-A"])
    assert status == 2 and "--neg-lo is not a RDNA4 modifier (it is one of GFX1250" in err


def test_reuse_hints_change_no_layout() -> None:
    inst = GFX1250.find("v_wmma_f32_16x16x32_f16")
    for matrix in ("A", "B", "C", "D"):
        plain = list(api.layout(inst, matrix))
        assert list(api.layout(inst, matrix, mods={"matrix_a_reuse": 1,
                                                   "matrix_b_reuse": 1})) == plain


def test_negation_marks() -> None:
    """16-bit A: neg_lo marks the low halves, neg_hi the high; C: -C and |C|."""
    base = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-g"]
    assert call(base + ["-A", "-K", "0", "--neg-lo", "1"])[1].endswith("= v0{0}.[15:0]\n")
    out = call(base + ["-D", "-o", "--neg-lo", "5", "--neg-hi", "5"])[1]
    assert "-Src0_v0{0}.[15:0]*Src1_v0{0}.[15:0]" in out and "-Src0_v0{0}.[31:16]" in out
    assert out.rstrip().endswith("- |Src2_v0{0}|")
    (loc,) = api.locate(GFX1250.find("v_wmma_f32_16x16x4_f32"), "C",
                        mods={"neg_lo": 4, "neg_hi": 4})
    assert loc.negated and loc.absolute


def test_output_calculation_scales_each_k_block() -> None:
    for name, blocks in (("v_wmma_scale_f32_16x16x128_f8f6f4", 4),
                         ("v_wmma_scale16_f32_16x16x128_f8f6f4", 8),
                         ("v_wmma_scale16_f32_32x16x128_f4", 8)):
        out = call(["-a", "gfx1250", "-i", name, "-g", "-D", "-o", "-I", "3", "-J", "5",
                    "--matrix-b-scale", "row1"])[1]
        terms = re.findall(r"ScaleA_v(\d+)\{(\d+)\}\.\[\d+:(\d+)\]\*ScaleB_v\d+\{(\d+)\}", out)
        assert len(terms) == blocks, name
        assert {int(t[3]) for t in terms} == {5 + 16}  # column 5 in the upper lane half
        assert [32 * int(t[0]) + int(t[2]) for t in terms] == [8 * b for b in range(blocks)]


# ---- -d, --json, the catalog

def test_detail_and_json_carry_sources() -> None:
    for inst in (*GFX1250.instructions, GFX1251.instructions[-1]):
        out = call(["-a", inst.arch, "-i", inst.mnemonic, "-d"])[1]
        assert "Sources and confidence" in out and "Product names" in out
        assert "Latency in LLVM's scheduling model" in out
        doc = json.loads(call(["-a", inst.arch, "-i", inst.mnemonic, "-d", "--json"])[1])
        prov = doc["facts"]["provenance"]
        assert prov["product_names"]["confidence"] == "SEC"
        assert set(prov["layouts"]) == set(api.matrices(inst))
        for entry in prov["layouts"].values():
            assert entry["confidence"] in ("SRC", "SEC", "CONV", "INF") and entry["note"]
        if inst.scaled:
            assert doc["facts"]["prefix_opcode"] == inst.prefix_opcode
            assert f"Scale load (v_wmma_ld_scale{'16' if inst.scale_k == 16 else ''}_paired" in out


def test_latencies_are_llvm_mcas() -> None:
    rows = [r.split("\t") for r in facts_of.MCA_DATA.read_text(encoding="utf-8").splitlines()
            if r and not r.startswith("#")]
    latency = {r[1].split()[0]: int(r[2].split()[1]) for r in rows}
    for inst in GFX1250.instructions:
        assert inst.cycles == latency[inst.mnemonic], inst.mnemonic
        assert api.facts(inst)["cycles"] == latency[inst.mnemonic]


def test_catalog_lists_every_instruction() -> None:
    rows = api.catalog({"arch": ["gfx1250", "gfx1251"]})
    assert [(r["architecture"], r["mnemonic"]) for r in rows] == \
        [(i.arch, i.mnemonic) for i in GFX1250.instructions + GFX1251.instructions]
    out = call(["--catalog", "--filter", "arch=gfx1251", "--csv"])[1]
    assert out.count("\nGFX1251,") == 44 and "v_wmma_f64_16x16x4_f64" in out


def test_names_are_case_insensitive() -> None:
    for name, arch in (("CDNA5", "GFX1250"), ("Mi450", "GFX1250"), ("mi450x", "GFX1250"),
                       ("MI455X", "GFX1250"), ("gfx1250", "GFX1250"), ("GFX1251", "GFX1251"),
                       ("MI430X", "GFX1251")):
        assert find_architecture(name).name == arch
    assert not GFX1250.public and GFX1250.waves == (32,)


# ---- printed formulas, evaluated element by element

def evaluate(text: str, **values: int) -> int:
    expr = text.split(",")[0]
    return int(eval(expr, {"floor": math.floor}, dict(values)))


@pytest.mark.slow
@pytest.mark.parametrize("inst", [i for i in GFX1250.instructions if i.mnemonic in (
    "v_wmma_f32_16x16x4_f32", "v_wmma_bf16f32_16x16x32_bf16", "v_wmma_f16_16x16x64_bf8_fp8",
    "v_wmma_f32_16x16x128_fp8_fp8", "v_wmma_scale16_f32_32x16x128_f4",
    "v_wmma_scale_f32_16x16x128_f8f6f4", "v_swmmac_f16_16x16x64_f16",
    "v_swmmac_i32_16x16x128_iu8")] + list(GFX1251.instructions[-1:]), ids=lambda i: i.mnemonic)
def test_formulas_match_the_layouts(inst: Any) -> None:
    lines = api.formulas(inst)
    text = {(line["direction"], line["label"]): line["text"] for line in lines}
    labels = {"A": ("A[i][k]", "A", "ik"), "B": ("B[k][j]", "B", "kj"),
              "K": ("index[i][k]", "index", "ik"), "SA": ("SA[i][kb]", "A scale", "i kb"),
              "SB": ("SB[kb][j]", "B scale", "kb j"),
              "C": ("C[i][j]", "C", "ij"), "D": ("D[i][j]", "D", "ij")}
    for matrix in api.matrices(inst):
        elem, name, coords = labels[matrix]
        if ("element_to_register", f"{elem} Lane") not in text:
            elem, name = "C or D[i][j]", "C or D"
        names = coords.split() if " " in coords else list(coords)
        layout = operand(inst, matrix, wave=32).layout
        for row, col, _ in layout.elements():
            values = dict(zip(names, (row, col)))
            (place,) = layout.places(row, col)
            lane = evaluate(text[("element_to_register", f"{elem} Lane")], **values)
            b = evaluate(text[("element_to_register", f"{elem} bit offset b")], **values)
            assert (lane, b) == (place.lane, 32 * place.reg + place.lo), (matrix, row, col)
            back = {"lane": place.lane, "b": b, "p": col % 4}
            got = tuple(evaluate(text[("register_to_element", f"{name} {n}")], **back)
                        for n in names)
            assert got == (row, col), (matrix, row, col)


@pytest.mark.slow
def test_every_format_pair_answers_every_mode() -> None:
    """-R, -M and -m (text) and -M (JSON) for each A/B format pair: the slots the text
    lists are the library's, and JSON lists every element once."""
    base = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4"]
    inst = GFX1250.find("v_wmma_f32_16x16x128_f8f6f4")
    for fa in FORMATS:
        for fb in FORMATS:
            fmts = ["--matrix-a-fmt", fa, "--matrix-b-fmt", fb]
            mods = {"matrix_a_fmt": FORMATS.index(fa), "matrix_b_fmt": FORMATS.index(fb)}
            status, out, err = call(base + fmts + ["-R", "-A", "--csv"])
            # the two header lines and the block title, the table
            assert (status, err) == (0, "") and out.count("\n") == 3 + 16 + 1
            status, out, err = call(base + fmts + ["-m", "-B", "-r", "3", "-l", "17"])
            listed = [line.split(" = ")[1] for line in out.splitlines()[2:]]
            want = [f"B[{e.element.k}][{e.element.j}]"
                    for e in api.elements_at(inst, "B", 3, 17, mods=mods)]
            assert (status, listed) == (0, want)
            doc = json.loads(call(base + fmts + ["-M", "-A", "--json"])[1])
            count = api.register_count(inst, "A", mods=mods)
            assert doc["register_count"] == count == {"fp8": 16, "bf8": 16, "fp6": 12,
                                                       "bf6": 12, "fp4": 8}[fa]


def test_scale_selects_and_index_keys_through_every_mode() -> None:
    for inst in GFX1250.instructions:
        base = ["-a", "gfx1250", "-i", inst.mnemonic]
        runs: list[list[str]] = []
        if inst.scaled:
            for value in ("row0", "row1"):
                runs += [["--matrix-a-scale", value, "-R", "--A-scale"],
                         ["--matrix-b-scale", value, "-M", "--B-scale"],
                         ["--matrix-a-scale-fmt", "e4m3", "-m", "--A-scale", "-l", "5"]]
        if inst.sparse:
            runs += [["--index-key", key, mode, "-k"] for key in ("0", "1")
                     for mode in ("-R", "-M")]
        for extra in runs:
            status, out, err = call(base + extra)
            assert (status, err) == (0, "") and out.count("\n") > 2, (inst.mnemonic, extra)
