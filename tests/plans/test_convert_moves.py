"""Lane moves of conversions: permlane16/x16/64 and DPP chosen
where they are cheaper than ds_bpermute or LDS, the honest cost model, DPP controls per
generation (names, LLVM dpp_ctrl codes and lane rules checked against llvm-mc and the
gcc lane emulation), and the recorded clang assembly.

Every plan's moves delivering each destination slot's element exactly once, from a
slot that holds it, is tests/plans/test_convert.py::
test_every_plan_moves_each_slot_once_from_a_slot_holding_its_element (every class of
every architecture); that the programs built from those moves deliver them is the
emulation (scripts/check_convert.py, sampled below)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from instructions.dpp import CONTROLS, dpp_ctrl, dpp_source
from instructions.lane_moves import ARCH_MOVES, arch_moves
from matrix_library import api as mc
from matrix_plans.convert.moves import _cover
from matrix_plans.convert.register_route import weight
from tests.helpers import missing

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]

sys.path.insert(0, str(ROOT / "scripts"))  # (the scripts' checks, imported by name)

from check_lane_moves import programs


def steps(arch, src, dst, matrix, **kwargs):
    plan = mc.conversion(mc.find_instruction(arch, src), "D", mc.find_instruction(arch, dst),
                         matrix, advice=False, **kwargs)
    return plan, {s.instruction: s.times for s in plan.steps}


# ---- plans that must use permlanes


def test_rdna4_16x16x16_d_into_b_wave32_is_four_permlanex16():
    """D rows 4-7 of lanes 0-15 go to lanes 16-31 and back: per packed register pair
    one v_permlanex16 and one select; no ds_bpermute, no LDS (the LDS route: 19
    instructions with two waits)."""
    name = "v_wmma_f32_16x16x16_f16"
    plan, counts = steps("rdna4", name, name, "B", wave=32)
    assert plan.route == "registers" and plan.total == 20
    assert counts == {"v_cvt_f16_f32": 8, "v_pack_b32_f16": 4, "v_permlanex16_b32": 4,
                      "v_cndmask_b32": 4}


def test_rdna4_16x16x16_d_into_b_wave64_is_permlane64_then_permlanex16():
    """Wave64: lanes 16-31 read lanes 32-47 and back, which is v_permlane64 followed by
    v_permlanex16 (two VALU moves, no wait) instead of permlane64 + ds_bpermute."""
    name = "v_wmma_f32_16x16x16_f16"
    plan, counts = steps("rdna4", name, name, "B", wave=64, route="registers")
    assert plan.total == 12
    assert counts == {"v_cvt_f16_f32": 4, "v_pack_b32_f16": 2, "v_permlane64_b32": 2,
                      "v_permlanex16_b32": 2, "v_cndmask_b32": 2}


def test_rdna4_f16_into_fp8_b_takes_permlanex16():
    plan, counts = steps("rdna4", "v_wmma_f32_16x16x16_f16", "v_swmmac_f32_16x16x32_fp8_fp8",
                         "B", wave=32)
    assert plan.route == "registers" and counts["v_permlanex16_b32"] == 4
    assert not any(k.startswith("ds_") for k in counts)


def test_rdna3_16x16x16_d_into_b_is_permlanex16_and_v_perm():
    """RDNA3's B holds all 16 K of a column in each lane, D only the rows of its lane's
    parity: each source register is converted once, moved to the other row once, and
    each destination register takes its two halves with one v_perm_b32 whose selector
    depends on the row (the LDS route: 38 instructions with two waits)."""
    name = "v_wmma_f32_16x16x16_f16"
    plan, counts = steps("rdna3", name, name, "B", wave=32)
    assert plan.route == "registers" and plan.total == 26
    assert counts == {"v_cvt_f16_f32": 8, "v_permlanex16_b32": 8, "v_perm_b32": 8,
                      "v_mov/v_cndmask (lane selectors)": 2}
    perms = [op for op in plan.plan.ops if op.op == "perm"]
    # lanes 0-15: own value low, the other row's high; lanes 16-31 the reverse
    assert {op.info[0] for op in perms} == {0x01000504} and {op.info[16] for op in perms} \
        == {0x05040100}


def test_gfx1250_16x16x4_d_into_b_is_four_permlane16_swaps():
    plan, counts = steps("gfx1250", "v_wmma_f32_16x16x4_f32", "v_wmma_f32_16x16x4_f32", "B")
    assert counts == {"v_permlane16_swap_b32": 4}


def test_register_route_prefers_a_permlane_to_a_bpermute():
    """(the tie the old cover broke towards ds_bpermute)"""
    name = "v_wmma_f32_16x16x16_f16"
    _, counts = steps("rdna4", name, name, "B", wave=32, route="registers")
    assert "ds_bpermute_b32" not in counts and counts["v_permlanex16_b32"] == 4


# One named plan per architecture with its instructions (before this work in the
# comment: the chosen route, its count).
PLANS = [
    # CDNA1-3: no DPP row control serves MFMA's cross-row moves; LDS stays cheaper
    ("cdna1", "v_mfma_f32_32x32x2f32", "v_mfma_f32_32x32x2f32", "B", 64, "lds",  # lds 16
     {"ds_read_b128": 4, "ds_write_b64": 8, "s_waitcnt": 2,
      "v_and/v_lshl (lane addresses)": 2}),
    ("cdna2", "v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16f16", "B", 64, "registers",
     {"v_cvt_f16_f32": 4, "v_pack_b32_f16": 2}),  # in-lane
    # one wait instead of the LDS route's two: 4 ds_bpermute (the LDS route: 17)
    ("cdna3", "v_mfma_f32_32x32x4_xf32", "v_mfma_f32_32x32x16_bf8_bf8", "B", 64, "registers",
     {"ds_bpermute_b32": 4, "s_waitcnt": 1, "v_and/v_lshl (lane addresses)": 2,
      "v_cndmask_b32": 4, "v_cvt_pk_bf8_f32": 8}),
    ("cdna4", "v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x16_f16", "A", 64, "registers",
     {"v_cvt_pk_f16_f32": 8, "v_permlane32_swap_b32": 4}),  # transposed (C.4)
    ("rdna3", "v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_f16", "B", 32, "registers",
     {"v_cvt_f16_f32": 8, "v_permlanex16_b32": 8, "v_perm_b32": 8,
      "v_mov/v_cndmask (lane selectors)": 2}),  # the LDS route: 38
    ("rdna3", "v_wmma_f16_16x16x16_f16", "v_wmma_f32_16x16x16_f16", "B", 32, "registers",
     {"v_permlanex16_b32": 8, "v_perm_b32": 8,
      "v_mov/v_cndmask (lane selectors)": 2}),  # the LDS route: 22
    ("rdna4", "v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_f16", "B", 32, "registers",
     {"v_cvt_f16_f32": 8, "v_pack_b32_f16": 4, "v_permlanex16_b32": 4,
      "v_cndmask_b32": 4}),  # the LDS route: 19
    ("rdna4", "v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_f16", "B", 64, "registers",
     {"v_cvt_f16_f32": 4, "v_pack_b32_f16": 2, "v_permlane64_b32": 2,
      "v_permlanex16_b32": 2, "v_cndmask_b32": 2}),  # the LDS route: 12
    ("gfx1250", "v_wmma_f32_16x16x4_f32", "v_wmma_f32_16x16x4_f32", "B", 32, "registers",
     {"v_permlane16_swap_b32": 4}),
    ("gfx1251", "v_wmma_f32_16x16x4_f32", "v_wmma_f32_16x16x4_f32", "B", 32, "registers",
     {"v_permlane16_swap_b32": 4}),
]


@pytest.mark.parametrize("arch, src, dst, matrix, wave, route, counts", PLANS,
                         ids=[f"{p[0]}-{p[3]}-w{p[4]}" for p in PLANS])
def test_named_plans_per_architecture(arch, src, dst, matrix, wave, route, counts):
    transposed = arch == "cdna4"
    plan, got = steps(arch, src, dst, matrix, wave=wave, transposed=transposed)
    assert plan.route == route and got == counts


def test_every_architecture_has_a_named_plan():
    assert {p[0].upper() for p in PLANS} == {e.arch for e in ARCH_MOVES}


# ---- the cover: which move serves a lane pattern


def _kinds(arch, sigma, wave=64):
    return [(kind, detail) for kind, detail, _ in _cover(sigma, arch_moves(arch), wave)]


@pytest.mark.parametrize("arch, sigma, wave, expected", [
    ("CDNA3", {ln: ln ^ 1 for ln in range(64)}, 64, [("dpp", ("quad_perm", 0xB1))]),
    ("CDNA1", {ln: (ln + 1) % 64 for ln in range(64)}, 64, [("dpp", ("wave_rol", 1))]),
    ("CDNA3", {ln: (ln & ~15) | ((ln + 8) & 15) for ln in range(64)}, 64,
     [("dpp", ("row_ror", 8))]),
    ("CDNA2", {ln: (ln & ~15) + 3 for ln in range(64)}, 64, [("dpp", ("row_newbcast", 3))]),
    ("RDNA4", {ln: ln ^ 16 for ln in range(32)}, 32, [("xrow", tuple(range(16)))]),
    ("RDNA3", {ln: ln ^ 32 for ln in range(64)}, 64, [("half", None)]),
    ("RDNA4", {ln: (ln & ~7) + (7 - ln % 8) for ln in range(32)}, 32,
     [("row", (7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8))]),
    ("CDNA3", {ln: ln ^ 16 for ln in range(64)}, 64, [("gather", None)]),
])
def test_cover_picks_one_move(arch, sigma, wave, expected):
    assert _kinds(arch, sigma, wave) == expected


def test_cover_without_row_moves_uses_dpp8_or_dpp():
    """A within-8 permutation is one DPP8 move on RDNA when permlane16 is absent."""
    entry = arch_moves("RDNA4")
    no_rows = entry._replace(arch="RDNA4-test", moves=tuple(
        m for m in entry.moves if m.kind not in ("row", "xrow")))
    sigma = {ln: (ln & ~7) + (3, 3, 0, 6, 1, 7, 2, 5)[ln % 8] for ln in range(32)}
    assert [k for k, _, _ in _cover(sigma, no_rows, 32)] == ["dpp8"]


def test_cost_model():
    """A ds_bpermute weighs 3 (with its lane address and wait), a VALU lane move 1; the
    route choice weighs each s_waitcnt at 3."""
    costs = {m.kind: m.cost for m in arch_moves("RDNA4").moves}
    assert costs["gather"] == 3
    assert all(costs[k] == 1 for k in ("row", "xrow", "half", "dpp", "dpp8"))
    assert weight([("ds_load_b128", 1), ("s_waitcnt", 2)]) == 7
    assert weight([("v_permlanex16_b32", 4)]) == 4


# ---- DPP controls: data, codes, lane rules


def test_dpp_controls_per_generation():
    controls = {e.arch: {c for m in e.moves if m.kind == "dpp" for c in m.controls}
                for e in ARCH_MOVES}
    rows = {"quad_perm", "row_shl", "row_shr", "row_ror", "row_mirror", "row_half_mirror"}
    gfx9 = rows | {"wave_shl", "wave_rol", "wave_shr", "wave_ror", "row_bcast"}
    assert controls["CDNA1"] == gfx9
    assert controls["CDNA2"] == controls["CDNA3"] == controls["CDNA4"] == gfx9 | {"row_newbcast"}
    for arch in ("RDNA3", "RDNA4", "GFX1250", "GFX1251"):
        assert controls[arch] == rows | {"row_share", "row_xmask"}
        assert any(m.kind == "dpp8" for m in arch_moves(arch).moves)


def test_dpp_codes_are_llvms():
    assert dpp_ctrl("quad_perm", 0xB1) == 0xB1
    assert dpp_ctrl("row_shl", 1) == 0x101 and dpp_ctrl("row_shr", 15) == 0x11F
    assert dpp_ctrl("row_ror", 8) == 0x128 and dpp_ctrl("wave_ror", 1) == 0x13C
    assert dpp_ctrl("row_bcast", 15) == 0x142 and dpp_ctrl("row_bcast", 31) == 0x143
    assert dpp_ctrl("row_share", 5) == dpp_ctrl("row_newbcast", 5) == 0x155
    assert dpp_ctrl("row_xmask", 15) == 0x16F


def test_dpp_lane_rules():
    assert dpp_source("row_shr", 1, 16, 64) is None       # shifted in: no source (0)
    assert dpp_source("row_shr", 1, 17, 64) == 16
    assert dpp_source("row_shl", 2, 14, 64) is None
    assert dpp_source("row_ror", 1, 16, 64) == 31
    assert dpp_source("wave_shr", 1, 0, 64) is None and dpp_source("wave_ror", 1, 0, 64) == 63
    assert dpp_source("row_bcast", 15, 40, 64) == 31 and dpp_source("row_bcast", 15, 3, 64) is None
    assert dpp_source("row_bcast", 31, 50, 64) == 31
    assert dpp_source("row_share", 3, 37, 64) == 35
    assert dpp_source("row_xmask", 5, 18, 64) == 16 + (2 ^ 5)
    assert dpp_source("row_half_mirror", 0, 9, 64) == 14


def _recorded():
    rows = []
    for line in (DATA / "lane_moves_llvm_mc.txt").read_text().splitlines():
        if not line.startswith("#"):
            rows.append(tuple(part.strip() for part in line.split(" | ")))
    return rows


def test_every_dpp_control_assembles_with_llvms_code():
    """tests/data/lane_moves_llvm_mc.txt (scripts/record_lane_moves.py): each target's
    DPP controls assembled, and the encoding's dpp_ctrl field (byte 5, bit 0 of byte 6
    of the VOP1 DPP word) is instructions/dpp.py's code."""
    seen = set()
    for target, asm, answer in _recorded():
        if not asm.startswith("v_mov_b32_dpp"):
            continue
        assert "encoding" in answer, (target, asm)
        control = asm.split()[3]
        seen.add((target, control.split(":")[0]))
        if control.startswith("dpp8"):
            continue
        data = [int(x, 16) for x in answer.split("encoding: [")[1].rstrip("]").split(",")]
        name, _, value = control.partition(":")
        if name == "quad_perm":
            number = sum(int(x) << (2 * k) for k, x in enumerate(value.strip("[]").split(",")))
        else:
            number = int(value) if value else 0
        assert data[5] | (data[6] & 1) << 8 == dpp_ctrl(name, number), asm
    for entry in ARCH_MOVES:
        for move in entry.moves:
            for name in move.controls:
                assert (entry.target, name) in seen, (entry.target, name)
            if move.kind == "dpp8":
                assert (entry.target, "dpp8") in seen


@pytest.mark.external
def test_controls_not_in_a_generation_are_refused_by_llvm_mc():
    """(a check that could fail: llvm-mc does refuse a control the records leave out)"""
    llvm_mc = shutil.which("llvm-mc-22")
    if llvm_mc is None:
        missing("llvm-mc-22 is not installed (a live check; its answers are recorded)")
    for target, control in (("gfx1100", "row_bcast:15"), ("gfx942", "row_xmask:1"),
                            ("gfx908", "row_newbcast:1")):
        done = subprocess.run([llvm_mc, "-triple=amdgcn", f"-mcpu={target}", "-show-encoding"],
                              input=f"v_mov_b32_dpp v1, v2 {control}\n", capture_output=True,
                              text=True, check=False)
        assert "error" in done.stderr, (target, control)
    assert set(CONTROLS) >= {"row_bcast", "row_xmask", "row_newbcast"}


# ---- the emulation and clang


def _run(*args):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          check=False, cwd=ROOT)


@pytest.mark.slow
def test_emulation_covers_dpp_and_permlanes():
    """Every DPP control value, dpp8, v_permlane16/x16/64 and the swaps, run alone in
    the gcc emulation of the emitted HIP (scripts/check_lane_moves.py), per
    architecture and wave size; then a sample of RDNA4 plans that use permlanes."""
    cc = shutil.which(os.environ.get("CC") or "gcc") or shutil.which("cc")
    if cc is None:
        missing("no C compiler: cannot run the lane emulation")
    kinds = {(conv.architecture, conv.wave, op.info[0]) for conv, _, _ in programs()
             for op in conv.plan.ops}
    for wave in (32, 64):
        assert {("RDNA4", wave, k) for k in ("row", "xrow", "half", "dpp", "dpp8")} <= kinds
    assert ("CDNA3", 64, "dpp") in kinds and ("CDNA4", 64, "swap32") in kinds
    done = _run(ROOT / "scripts" / "check_lane_moves.py", "-q")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    count = int(done.stdout.split("lane moves: ")[1].split()[0])
    assert count >= 800 and ", 0 programs failed" in done.stdout
    done = _run(ROOT / "scripts" / "check_convert.py", "--arch", "RDNA4", "--sample", "6", "-q")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert ", 0 failed" in done.stdout


def test_recorded_clang_shows_every_lane_move():
    """tests/data/convert_clang.txt: each target's lane-move program compiled and its
    assembly shows every DPP control, dpp8 and permlane; RDNA4's D -> B plan compiled
    to v_permlanex16_b32."""
    text = (DATA / "convert_clang.txt").read_text()
    for entry in ARCH_MOVES:
        assert f"lane moves {entry.target} wave " in text
    lines = [line for line in text.splitlines() if line.startswith("lane moves ")]
    assert lines and all(": ok, the assembly shows all " in line for line in lines)
    assert ("gfx1200 V_WMMA_F32_16X16X16_F16:D -> V_WMMA_F32_16X16X16_F16:B (cross-lane, "
            "registers): ok, contains v_cvt_f16_f32, v_permlanex16_b32") in text
