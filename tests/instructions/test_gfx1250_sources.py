"""What each source says about gfx1250 (tests/data/gfx1250_sources.txt, code
read at a commit and path, or clang-22 / llc-22 output recorded by
tests/data/regen_gfx1250_sources.py) against the calculator's chosen answers and the
alternatives it shows as contested; index_key 1 against key 0; both latency sources in
-d and --json.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from instructions import find_architecture
from layouts import operand
from layouts.gfx1250 import alternative_layouts, latencies, provenance, sourced
from layouts.modifiers import Modifiers
from matrix_library import api
from tests.helpers import call
from tests.helpers.gfx1250 import data_script, where

DATA = Path(__file__).resolve().parents[1] / "data"
SOURCES = DATA / "gfx1250_sources.txt"
GFX1250 = find_architecture("gfx1250")
GFX1251 = find_architecture("gfx1251")
FORMAT_CODE = {"fp8": 0, "bf8": 1, "fp6": 2, "bf6": 3, "fp4": 4}


def rows(kind: str) -> list[list[str]]:
    return [line.split("\t") for line in SOURCES.read_text(encoding="utf-8").splitlines()
            if line.startswith(kind + "\t")]


def inst_of(mnemonic: str) -> Any:
    for arch in (GFX1250, GFX1251):
        for inst in arch.instructions:
            if inst.mnemonic == mnemonic:
                return inst
    raise KeyError(mnemonic)


def mods_of(text: str) -> Modifiers:
    if text == "-":
        return Modifiers()
    return Modifiers(**{k: int(v) for k, v in (p.split("=") for p in text.split(","))})


LAYOUT_ROWS = rows("layout")


@pytest.mark.parametrize("row", LAYOUT_ROWS, ids=[r[3] for r in LAYOUT_ROWS])
def test_each_sources_layout_fact(row: list[str]) -> None:
    """A chosen fact is the calculator's answer; an alternative one is not, and is the
    answer of the alternative the calculator names (layout, or the note's text)."""
    _, source, _, fid, role, mnemonic, matrix, r, c, mods, want = row
    inst, mods_ = inst_of(mnemonic), mods_of(mods)
    if inst.format_fields:  # (the f8f6f4 forms: the row's formats chosen)
        inst = inst.with_formats(mods_.matrix_a_fmt, mods_.matrix_b_fmt)
    chosen = sourced(inst, matrix, mods_)
    got = where(chosen.layout, int(r), int(c))
    if role == "chosen":
        assert got == want, fid
        return
    assert got != want, fid
    assert chosen.provenance.contested, fid
    named = [s for s, _ in chosen.provenance.alternatives] + [
        s for s, _ in alternative_layouts(inst, matrix)]
    assert any(source.split()[0] in s for s in named), (fid, named)
    answers = [where(layout, int(r), int(c)) for _, layout in alternative_layouts(inst, matrix)]
    notes = " ".join(a for _, a in chosen.provenance.alternatives)
    assert want in answers or want.split(".")[0] in notes or "row 16*g + VGPR" in notes, fid


def test_the_two_sparse_b_examples_answer_as_composable_kernel() -> None:
    """The two SWMMAC B examples answer as composable_kernel does."""
    for mnemonic, k in (("v_swmmac_f32_16x16x64_f16", "16"), ("v_swmmac_f32_16x16x128_fp8_fp8",
                                                                "32")):
        status, out, err = call(["-a", "gfx1250", "-i", mnemonic, "-g", "-B", "-K", k, "-J",
                                 "0"])
        assert (status, err) == (0, "")
        assert out.splitlines()[-1].startswith(f"B[{k}][0] = v8{{0}}.")


@pytest.mark.parametrize("row", rows("latency"), ids=[r[3] for r in rows("latency")])
def test_each_origami_latency(row: list[str]) -> None:
    _, source, _, fid, name, cycles = row
    mnemonic, *fmts = name.split()
    inst = inst_of(mnemonic)
    if fmts:
        inst = inst.with_formats(FORMAT_CODE[fmts[0]], FORMAT_CODE[fmts[1]])
    values = {v["source"]: v["cycles"] for v in latencies(inst)}
    assert values[source] == (None if cycles == "-" else int(cycles)), fid


def test_both_latencies_in_detail_and_json() -> None:
    for inst in (*GFX1250.instructions, GFX1251.instructions[-1]):
        out = call(["-a", inst.arch, "-i", inst.mnemonic, "-d"])[1]
        assert "Latency in LLVM's scheduling model" in out
        assert "Latency in AMD origami's GEMM model" in out
        doc = json.loads(call(["-a", inst.arch, "-i", inst.mnemonic, "-d", "--json"])[1])
        values = doc["facts"]["provenance"]["latency"]["values"]
        assert [v["source"] for v in values] == ["LLVM sched model", "AMD origami"]
        assert values[0]["cycles"] == (inst.cycles or None)
    fp8 = inst_of("v_wmma_f32_16x16x64_fp8_fp8")
    assert "AMD origami's GEMM model: 4 cycles" in call(["-a", "gfx1250", "-i", fp8.mnemonic,
                                                         "-d"])[1]


def test_catalog_filters_still_work() -> None:
    rows_ = api.catalog({"arch": ["gfx1250"]})
    assert len(rows_) == len(GFX1250.instructions)


def test_index_key_one_reads_the_upper_half() -> None:
    """Every SWMMAC: key 1 places every index field half the operand higher than key 0
    (never the same), and -d states the operand width and the bits each key reads."""
    for inst in (i for i in GFX1250.instructions if i.sparse):
        width = inst.k // 2
        k0 = operand(inst, "K", Modifiers(), 32).layout
        k1 = operand(inst, "K", Modifiers(index_key=1), 32).layout
        for elem in k0.elements():
            p0, p1 = k0.places(*elem)[0], k1.places(*elem)[0]
            assert 32 * p1.reg + p1.lo == 32 * p0.reg + p0.lo + width // 2
        assert operand(inst, "K", Modifiers(), 32).register_count == width // 32
        out = call(["-a", "gfx1250", "-i", inst.mnemonic, "-d"])[1]
        assert (f"Index operand: {width} bits a lane; one instruction reads bits "
                f"[{width - 1}:0] with index_key 0, [{width - 1}:{width // 2}] with "
                "index_key 1") in out
        status, a, _ = call(["-a", "gfx1250", "-i", inst.mnemonic, "-g", "-k", "-I", "0",
                             "-K", "0", "--index-key", "0"])
        status1, b, _ = call(["-a", "gfx1250", "-i", inst.mnemonic, "-g", "-k", "-I", "0",
                              "-K", "0", "--index-key", "1"])
        assert status == status1 == 0 and a != b


def test_contested_facts_are_marked_everywhere() -> None:
    """-d says 'contested' with the alternative's answer; --json and the library carry
    the alternatives as data."""
    for inst in (i for i in GFX1250.instructions if i.sparse):
        prov = provenance(inst)["layouts"]
        for matrix in ("A", "B", "K"):
            assert prov[matrix]["contested"] and prov[matrix]["alternatives"], matrix
        out = call(["-a", "gfx1250", "-i", inst.mnemonic, "-d"])[1]
        assert out.count("contested: ") >= 3
        assert "rocjitsu answers: stored A'" in out
        assert "Product check (scripts/check_products.py)" in out
        assert "issue" not in out.lower()
        doc = json.loads(call(["-a", "gfx1250", "-i", inst.mnemonic, "-d", "--json"])[1])
        assert doc["facts"]["provenance"]["layouts"]["B"]["alternatives"][0]["answer"]
    d32 = api.facts(inst_of("v_wmma_f32_32x16x128_f4"))["provenance"]["layouts"]["D"]
    assert d32["confidence"] == "SRC" and d32["contested"]
    assert "FlyDSL" in d32["alternatives"][0]["source"]


def test_kernel_confirmed_facts_are_raised() -> None:
    for name, matrices in (("v_wmma_scale_f32_32x16x128_f4", ("A", "D", "SA", "SB")),
                           ("v_wmma_f32_16x16x128_f8f6f4", ("A", "B"))):
        prov = provenance(inst_of(name))["layouts"]
        for matrix in matrices:
            assert prov[matrix]["confidence"] == "SRC", (name, matrix)


def test_recorded_isel_reads_as_the_index_key_decision() -> None:
    """LLVM 22 folds a right shift by half the index into index_key:1 (the decision's
    reading); clang-22's 8-bit builtin leaves the pair's second VGPR unset (why --emit
    hip still refuses the 8-bit SWMMACs)."""
    got = {r[3].split(":")[1]: r[4] for r in rows("isel")}
    assert got["f16_high"] == "index 1 VGPR; index_key:1"
    assert got["fp8_i64_high"] == "index 2 VGPRs; index_key:1"
    assert got["fp8_int"].endswith("never sets its second VGPR")
    # clang-22's bf16f32 SWMMAC builtin returns the tied f32 C (8 VGPRs); the
    # calculator's D is bf16 packed into the first 4 (rocjitsu), LLVM's answer shown
    assert got["bf16f32"].endswith("vdst 8 VGPRs, returned as 8 floats")
    d = provenance(inst_of("v_swmmac_bf16f32_16x16x64_bf16"))["layouts"]["D"]
    assert d["source"] == "rocjitsu" and "LLVM 22" in d["alternatives"][0]["source"]
    status, _, err = call(["-a", "gfx1250", "-i", "v_swmmac_f32_16x16x128_fp8_fp8",
                           "--emit", "hip"])
    assert status == 2 and "64-bit" in err


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None or shutil.which("llc-22") is None,
                    reason="clang-22 / llc-22 are not installed")
def test_live_isel_agrees_with_the_recording() -> None:
    live = data_script("regen_gfx1250_sources").isel("clang-22", "llc-22")
    assert live == ["\t".join(r) for r in rows("isel")]


@pytest.mark.parametrize("inst", [i for i in GFX1250.instructions if i.sparse],
                         ids=lambda i: str(i.mnemonic))
def test_the_index_keeps_its_reading_with_each_forms_other_sources(inst: Any) -> None:
    """Both forms keep the calculator's index, contested by rocjitsu's reading; only the
    16-bit forms have composable_kernel's layout test among its backers; the 8-bit note
    says why rocjitsu's hardware-linked evidence is not adopted."""
    index = provenance(inst)["layouts"]["K"]
    assert index["source"] == "composable_kernel" and index["contested"]
    others = [alt["source"] for alt in index.get("alternatives", [])]
    assert others[0].startswith("rocjitsu") and "#10521" in others[0]
    assert any("test_amdgcn_mma_layout.inc" in s for s in others) == (inst.k == 64)
    assert ("ds_load_tr8_b64" in index["note"]) == (inst.k == 128)
