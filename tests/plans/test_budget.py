"""Budgets of block tiles: LLVM 22's occupancy model reproduced row by row
(tests/data/llvm_occupancy.txt), the budgets of the sample tiles against what clang-22
reports for their HIP skeletons (tests/data/budget_clang.txt), the CDNA3 sample tile
and the command line. Both data files: scripts/check_budget.py --record."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from matrix_library import api as mc
from matrix_plans.budget import ADDRESSING, occupancy
from tests.helpers import call, data_text

REPO = Path(__file__).resolve().parents[2]
# clang-22's VGPRs lie between the budget's least (the data alone) and its estimate plus
# this margin (docs/budget.md): the estimate counts 12 addressing VGPRs.
MARGIN = 8


def rows(name):
    return [line.split("\t") for line in data_text(name).splitlines()
            if line and not line.startswith("#")]


def used(limits, vgprs, agprs):
    """VGPRs and AGPRs as one count: the AGPRs after the ArchVGPRs (rounded to 4) in a
    unified file, side by side otherwise."""
    if limits.agprs == "unified" and agprs:
        return -(-vgprs // 4) * 4 + agprs
    return vgprs + agprs


PROBES = rows("llvm_occupancy.txt")


def test_the_probes_cover_every_target_and_refusal():
    assert len(PROBES) >= 400
    assert {row[0] for row in PROBES} >= {"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100",
                                          "gfx1102", "gfx1201", "gfx1250"}
    assert any(row[-1] == "0" for row in PROBES)  # workgroups that cannot be resident
    assert any(int(row[5]) for row in PROBES)  # AGPRs


@pytest.mark.parametrize("row", PROBES, ids=[f"{r[0]}-{n}" for n, r in enumerate(PROBES)])
def test_occupancy_agrees_with_llvm(row):
    target, wave, threads, lds, _, _, vgprs, agprs, lds_used, waves = row
    limits = mc.architecture_limits(target)
    got = occupancy(limits, target, int(wave), int(vgprs), int(agprs), int(lds_used),
                    int(threads))
    if waves == "0":  # LLVM found no registers: the workgroup cannot be resident
        assert not got.resident, got
    else:
        assert got.waves == int(waves), got


def test_the_model_can_disagree():
    """(the test above can fail: one VGPR more than a granule holds costs a wave)"""
    limits = mc.architecture_limits("gfx942")
    assert occupancy(limits, "gfx942", 64, 64, 0, 0, 64).waves == 8
    assert occupancy(limits, "gfx942", 64, 65, 0, 0, 64).waves == 7


TILES = rows("budget_clang.txt")


def budget_of(row):
    arch, name, wave, wave_tile, waves, ks, buffers, product = row[:8]
    inst = mc.find_instruction(arch, name)
    pair = [tuple(map(int, text.split("x"))) for text in (wave_tile, waves)]
    return inst, mc.budget(inst, wave=int(wave), wave_tile=pair[0], waves=pair[1],
                           k_steps=int(ks), lds_buffers=int(buffers),
                           product=None if product == "-" else product)


def test_every_family_has_a_sample_tile():
    families = {mc.find_architecture(row[0]).family for row in TILES}
    assert families == {a.family for a in mc.architectures() if a.vendor == "amd"}


@pytest.mark.parametrize("row", TILES, ids=[f"{r[8]}-{r[1]}-{n}" for n, r in enumerate(TILES)])
def test_budget_against_clang(row):
    inst, budget = budget_of(row)
    vgprs, agprs, lds, waves = map(int, row[9:])
    limits = mc.architecture_limits(inst.arch)
    assert budget.lds == lds
    assert budget.least <= used(limits, vgprs, agprs)
    assert vgprs <= budget.vgprs + MARGIN and agprs <= budget.agprs + MARGIN
    assert budget.agprs == agprs or limits.agprs == "unified"
    # LLVM's occupancy for the registers and LDS it used is the model's
    again = occupancy(limits, row[8], int(row[2]), vgprs, agprs, lds, budget.threads)
    assert again.waves == waves


def test_the_estimates_occupancy_agrees_but_on_gfx125x():
    """The estimate's own occupancy is clang's for every sample of CDNA1-4 and RDNA3/4;
    not on gfx1250 (its 4x4 tile: clang streams A's fragments through one register set,
    fewer than the estimate) nor gfx1251 (clang spends 20 VGPRs on addresses, more than
    the estimate's 12): docs/budget.md."""
    differ = [row[8] for row in TILES if budget_of(row)[1].occupancy.waves != int(row[12])]
    assert differ == ["gfx1250", "gfx1251"]


def test_the_cdna3_sample_tile():
    """128x128 of v_mfma_f32_32x32x8_f16 with four waves, double-buffered LDS: the
    budget's VGPRs, AGPRs, LDS and occupancy agree with clang-22's report."""
    row = next(r for r in TILES if r[:8] == ["cdna3", "v_mfma_f32_32x32x8_f16", "64", "2x2",
                                             "2x2", "1", "2", "mi300x"])
    _, budget = budget_of(row)
    vgprs, agprs, lds, waves = map(int, row[9:])
    assert budget.block == (128, 128, 8) and budget.threads == 256
    assert (budget.agprs, budget.lds, budget.occupancy.waves) == (agprs, lds, waves) == \
        (0, 8192, 5)
    assert budget.allocated == -(-vgprs // 8) * 8 == 88
    parts = {p.name: p.total for p in budget.parts}
    assert parts["accumulators (D)"] == 64 and parts["A fragments"] == 4
    assert budget.vgprs == 64 + 8 + ADDRESSING


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_clang_answers_as_recorded():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "check_budget.py")],
                          check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_budget_command_line():
    argv = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "--budget", "--wave-tile", "2x2",
            "--waves-per-group", "2x2", "--lds-buffers", "2", "--product", "mi300x"]
    status, out, err = call(argv)
    assert (status, err) == (0, "")
    assert "Occupancy: 5 waves per SIMD, bound by VGPRs" in out
    assert "LDS: 8192 bytes per workgroup" in out
    assert "64.0 FLOPs per byte from global memory" in out
    assert "memory 5300 GB/s x 64.0 = 339.2 TFLOP/s: memory-bound" in out
    status, out, err = call(argv + ["--json"])
    doc = json.loads(out)
    assert (doc["mode"], doc["vgprs"], doc["lds"]) == ("budget", 84, 8192)
    assert doc["occupancy"]["waves_per_simd"] == 5 and doc["roofline"]["bound"] == "memory"


def test_budget_emits_the_skeleton():
    status, out, err = call(["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_f16", "--budget",
                             "--wave-tile", "2x2", "--waves-per-group", "2", "--emit", "hip"])
    assert (status, err) == (0, "")
    assert "__builtin_amdgcn_wmma_f32_16x16x16_f16" in out
    assert "amdgpu_flat_work_group_size(64, 64)" in out  # two wave32 waves


@pytest.mark.parametrize("argv, message", [
    (["--wave-tile", "2"], "--wave-tile takes MxN"),
    (["--waves-per-group", "0x2"], "whole numbers from 1 to 1024"),
    (["--lds-buffers", "4"], "--lds-buffers takes 0 to 3"),
    (["--lds-buffers", "0"], "--lds-buffers takes a whole number from 1"),
    (["--product", "mi355x"], "MI355X is CDNA4 (gfx950), not CDNA3"),
    (["--product", "mi999"], "unknown product"),
    (["--wave-tile", "16x16", "--k-steps", "64"], "bytes of LDS; CDNA3 gives a workgroup"),
])
def test_bad_budget_options(argv, message):
    status, out, err = call(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "--budget",
                             *argv])
    assert status == 2 and out == "" and message in err and err.count("\n") == 1, err


def test_multi_block_instructions_are_refused():
    status, out, err = call(["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "--budget"])
    assert status == 2 and "independent blocks" in err


def test_library_budget_checks_its_arguments():
    inst = mc.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    for bad in ({"wave_tile": (0, 1)}, {"k_steps": True}, {"lds_order": "row"},
                {"lds_pad": -1}, {"product": 3}):
        with pytest.raises(mc.CalcError):
            mc.budget(inst, **bad)
