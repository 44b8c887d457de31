"""Bounded work: every command line and library call of the probes below is
answered or refused within 10 s of CPU time and 1 GB of memory, refusals with one line
that says what the work would take and how to narrow it; the largest work the bounds
allow stays within them too.

The time bound is CPU time of a child process (its resource usage), not wall time, so
that a loaded machine does not make it fail; its memory is bounded by RLIMIT_AS.
"""
import itertools
import time

import pytest

from matrix_library import api as mc
from matrix_library import bounds
from matrix_plans.lds.tile import max_xor
from tests.helpers.bounds import CPU_SECONDS, bounded_run

F16 = ("cdna3", "v_mfma_f32_16x16x16_f16")


def assert_refused(argv, *texts, stdin=None):
    status, out, err, cpu = bounded_run(argv, stdin)
    assert status == 2 and out == b"" and err.count("\n") == 1, (status, out[:200], err)
    assert "Traceback" not in err and cpu < CPU_SECONDS, (cpu, err)
    for text in texts:
        assert text in err, err
    return err


# ---- the LDS probes

HANG = ["-a", "cdna3", "-i", F16[1], "-A", "--lds-tile", "99999999x99999999",
        "--lds-swizzle", "1,1,2"]


@pytest.mark.parametrize("extra", [[], ["--emit", "hip"]])
def test_a_huge_swizzled_tile_is_refused_at_once(extra):
    assert_refused(HANG + extra, "--lds-tile", "beyond the 65536 bytes of LDS")


def test_the_library_refuses_a_huge_swizzled_tile_at_once():
    inst = mc.find_instruction(*F16)
    start = time.process_time()
    with pytest.raises(mc.CalcError, match="beyond the 65536 bytes"):
        mc.lds_plan(inst, "A", tile=(99999999, 99999999), swizzle=(1, 1, 2))
    assert time.process_time() - start < 1


@pytest.mark.parametrize("argv, texts", [
    (["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-A", "--matrix-a-fmt", "fp4",
      "--lds-tile", "16x8192", "--k-steps", "64", "--lds-search"],
     ["--k-steps", "131,072 elements", "84,017,152 placements", "lower k_steps to at most 1"]),
    (["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-A", "--matrix-a-fmt", "fp4",
      "--lds-tile", "16x1024", "--k-steps", "8", "--lds-search"],
     ["this search would try", "placements, over the 2,097,152", "fewer columns than 1024"]),
    (["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "-A", "--lds-tile", "32x8320",
      "--k-steps", "65", "--json"],
     ["--k-steps", "1,040 VGPRs (16 a K step)", "the 1,024 one GFX1250 wave addresses",
      "lower k_steps to at most 64"]),
    (["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x4112",
      "--k-steps", "257"], ["514 VGPRs (2 a K step)", "the 512 one CDNA3 wave addresses"]),
    (["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "-A", "--lds-tile", "32x32768",
      "--k-steps", "16"], ["--lds-tile", "beyond the 327680 bytes of LDS"]),
    (["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "-A", "--preshuffle", "--supertile",
      "1x64", "--json"], ["--supertile 1x64", "262,144 slots", "at most 32 tiles"]),
])
def test_legal_work_over_its_bound_is_refused_with_the_estimate(argv, texts):
    assert_refused(argv, *texts)


@pytest.mark.parametrize("argv", [["-a", "cdna3", "-i", F16[1], "-A", "--lds-tile",
                                   "4096x4096", "--lds-search"], HANG + ["--lds-search"]])
def test_a_search_of_an_oversized_tile_ends_at_once(argv):
    status, out, err, cpu = bounded_run(argv)
    assert status == 0 and b"beyond the 65536 bytes" in out and cpu < CPU_SECONDS


@pytest.mark.parametrize("option, value", [("--lds-tile", "²x4"), ("--lds-tile", "16x٦٤"),
                                           ("--lds-swizzle", "²,1,1"),
                                           ("--lds-swizzle", "1,1," + "9" * 5000),
                                           ("--lds-tile", "16x" + "9" * 5000)])
def test_tile_and_swizzle_numbers_are_ascii_digits_named_by_their_option(option, value):
    argv = ["-a", "cdna3", "-i", F16[1], "-A", "--lds-tile", "16x64", option, value]
    err = assert_refused(argv, option, "ASCII digits")
    assert "invalid literal" not in err and "int_max_str_digits" not in err and len(err) < 300


@pytest.mark.parametrize("extra, dropped", [(["--json"], "--json"),
                                            (["--lds-search"], "--lds-search"),
                                            (["--format", "svg"], "--format")])
def test_lds_code_refuses_what_it_would_drop(extra, dropped):
    argv = ["-a", "cdna3", "-i", F16[1], "-A", "--lds-tile", "16x64", "--emit", "hip", *extra]
    assert_refused(argv, f"drop {dropped}")


def test_a_tile_that_fits_the_hardware_is_planned():
    """A 32 KB f4 tile of 16 K steps (256 of gfx1250's 1,024 VGPRs, 32 KB of its 320 KB of
    LDS) is planned: the bounds are the hardware's."""
    inst = mc.find_instruction("gfx1250", "v_wmma_f32_32x16x128_f4")
    plan = mc.lds_plan(inst, "A", tile="32x2048", k_steps=16)
    assert len(plan.slots) == 65536 and plan.lds_bytes == 32768
    assert max(slot.register for slot in plan.slots) == 255


# ---- the estimates are the work

@pytest.mark.parametrize("arch, name, matrix, tile, steps, mods", [
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A", "16x64", 2, None),
    ("cdna3", "v_mfma_f32_32x32x8_f16", "B", "64x32", 1, None),
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "A", "16x64", 1, None),
    ("gfx950", "v_mfma_f32_16x16x128_f8f6f4", "A", "16x128", 1, {"cbsz": 4}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "A", "16x64", 2, None),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "A", "16x16", 1, None),
])
def test_the_slot_estimate_is_the_plans_slot_count(arch, name, matrix, tile, steps, mods):
    inst = mc.find_instruction(arch, name)
    plan = mc.lds_plan(inst, matrix, tile=tile, k_steps=steps, mods=mods)
    operand = mc.operand(inst, matrix, mods=mods)
    assert bounds.plan_slots(operand, steps) == len(plan.slots)


def test_the_farthest_chunk_of_a_swizzle_is_the_walks():
    for a, b in itertools.product(range(70), range(70)):
        assert max_xor(a, b) == max(x ^ y for x in range(a + 1) for y in range(b + 1))
    assert max_xor(1, 99999998) == 99999999 and max_xor(0, 5) == 5


# ---- the largest work allowed stays within the bound

@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    # the largest plan: every VGPR a gfx1250 wave addresses (16 a step x 64 steps:
    # 262,144 slots), as JSON
    ["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "-A", "--lds-tile", "32x8192",
     "--k-steps", "64", "--json"],
    # a search near SEARCH_PLACEMENTS (397 settings x 2,048 slots)
    ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-A", "--matrix-a-fmt", "fp4",
     "--lds-tile", "16x128", "--lds-search"],
    # a preshuffle of PRESHUFFLE_SLOTS slots (4,096 elements a tile x 32), as JSON
    ["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "-A", "--preshuffle", "--supertile",
     "1x32", "--json"],
])
def test_the_largest_work_allowed_stays_within_the_bound(argv):
    status, out, err, cpu = bounded_run(argv)
    assert status == 0 and err == "" and cpu < CPU_SECONDS, (status, err, cpu)
