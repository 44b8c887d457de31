"""Porting plans: an NVIDIA fragment moved into the same matrix's AMD operand.

Every move is checked against the two layouts and the tile rule; the emitted HIP of the
plans runs in scripts/check_port.py's host emulation of a wavefront (gcc), every lane's
every destination word compared with the layouts.
"""
import shutil
import sys
import tempfile

import pytest

from matrix_library import api as mc
from matrix_plans.convert.port import port_tile
from tests.helpers import REPO, call, missing

sys.path.insert(0, str(REPO / "scripts"))
import check_port

EXAMPLE = ["-a", "gfx1100", "--convert", "sm80:mma.m16n8k16.f32.f16.f16.f32:A",
           "v_wmma_f32_16x16x16_f16:A"]


def port(matrix, arch="gfx1100", amd="v_wmma_f32_16x16x16_f16", wave=32,
         nvidia="mma.m16n8k16.f32.f16.f16.f32"):
    return mc.port(mc.find_instruction("sm80", nvidia), matrix,
                   mc.find_instruction(arch, amd), matrix, wave=wave)


def test_the_worked_example():
    status, out, err = call(EXAMPLE)
    assert (status, err) == (0, ""), err
    lines = out.splitlines()
    assert lines[1] == ("Conversion: A of MMA.M16N8K16.F32.F16.F16.F32 (1 fragment) -> A of "
                        "V_WMMA_F32_16X16X16_F16 (1 fragment), wave 32")
    # RDNA3 wave32 A holds each of its 256 values twice (lanes l and l + 16)
    assert lines[2].startswith("Class: cross-lane (512 slots:")
    status, hip, err = call([*EXAMPLE, "--emit", "hip"])
    assert (status, err) == (0, "")
    assert "mc_convert_sm80_mma_m16n8k16_f32_f16_f16_f32_a_to_wmma_f32_16x16x16_f16_a_w32" in hip


@pytest.mark.parametrize(("matrix", "arch", "wave", "sources", "fragments"), [
    ("A", "gfx1100", 32, 1, 1), ("B", "gfx1100", 32, 2, 1), ("C", "gfx1100", 32, 2, 1),
    ("D", "gfx1200", 32, 2, 1), ("A", "gfx1200", 64, 1, 2), ("D", "gfx1100", 64, 1, 1)])
def test_tiles_and_every_move(matrix, arch, wave, sources, fragments):
    """Two m16n8k16 B (or C, D) fragments per 16x16x16 WMMA operand; a wave64 holds two
    warps (source fragment s in lanes + 32 (s mod 2), register set s div 2: `sources`
    counts register sets)."""
    conv = port(matrix, arch, wave=wave)
    warps = wave // 32
    assert (conv.plan.source_fragments, conv.fragments) == (sources, fragments)
    src = mc.operand(conv.source, matrix, wave=32, output_calc=matrix == "D")
    dst = mc.operand(conv.destination, matrix, wave=wave, output_calc=matrix == "D")
    _, _, pairs = port_tile(src, dst, warps)
    want = {}
    for t, r, c, s, i, j in pairs:
        (held,) = src.places(i, j)
        for place in dst.places(r, c):
            want[t, place.lane, place.reg, place.lo] = (
                s // warps, held.lane + 32 * (s % warps), held.reg, held.lo)
    got = {(m.fragment, m.lane, m.register, m.bits[0]):
           (m.source.fragment, m.source.lane, m.source.register, m.source.bits[0])
           for m in conv.moves}
    assert got == want and len(conv.moves) == len(want)


def test_the_emitted_hip_runs_in_the_emulation():
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        missing("gcc (the host emulation of a wavefront)")
    convs = [port(m, arch, wave=w) for arch in ("gfx1100", "gfx1200") for w in (32, 64)
             for m in "ABCD"]
    with tempfile.TemporaryDirectory() as folder:
        bad, out = check_port.emulate(convs, compiler, folder)
    assert bad == 0 and "BAD 0" in out, out


def test_refusals():
    with pytest.raises(mc.CalcError, match="same matrix"):
        mc.port(mc.find_instruction("sm80", "mma.m16n8k16.f32.f16.f16.f32"), "D",
                mc.find_instruction("gfx1100", "v_wmma_f32_16x16x16_f16"), "A")
    with pytest.raises(mc.CalcError, match="same values"):
        port("A", "gfx1100", "v_wmma_f32_16x16x16_bf16")
    status, out, err = call([*EXAMPLE[:3], "sm80:mma.m16n8k16.f32.f16.f16.f32:A",
                             "v_wmma_f32_16x16x16_f16:A", "--transpose"])
    assert (status, out) == (2, "") and "no modifiers" in err


NV = ["-a", "sm90", "-i", "mma.m16n8k16.f32.f16.f16.f32"]


@pytest.mark.parametrize("argv, what", [
    (["--convert", "mma.m16n8k16.f32.f16.f16.f32:D", "mma.m16n8k16.f32.f16.f16.f32:A"],
     "conversion plans"),
    (["--store-d"], "epilogue store plans"),
    (["--preshuffle", "-B"], "preshuffle plans"),
    (["--lds-tile", "64x64", "-A"], "LDS plans"),
    (["--lds-tile", "64x64", "-A", "--copy", "global_load_dwordx4+ds_write_b128"], "LDS plans"),
    (["--lds-tile", "64x64", "-A", "--lds-search"], "LDS plans"),
])
def test_amd_plans_of_an_nvidia_instruction_are_refused_in_one_line(argv, what):
    """The plans are AMD code: an NVIDIA instruction (there to port from) gets one line
    that says how to port it, never an internal error."""
    status, out, err = call([*NV, *argv])
    assert (status, out) == (2, ""), err
    assert err.count("\n") == 1 and f"SM90 has no {what}" in err and "--convert sm90:" in err
    inst = mc.find_instruction("sm90", "mma.m16n8k16.f32.f16.f16.f32")
    for ask in (lambda: mc.store_plan(inst), lambda: mc.preshuffle(inst, "B"),
                lambda: mc.conversion(inst, "D", inst, "A"),
                lambda: mc.lds_plan(inst, "A", tile=(64, 64))):
        with pytest.raises(mc.CalcError, match="SM90 has no"):
            ask()


COMPARE = ["-a", "sm80", "-i", "mma.m16n8k16.f32.f16.f16.f32", "-D", "--compare",
           "gfx1100:v_wmma_f32_16x16x16_f16"]


def test_compare_translates_one_element():
    """D[3][5]: mma.m16n8k16 thread 4 * 3 + 5 / 2 = 14, c2/c3? no: row 3 < 8 and column 5
    odd: c1, register 1; RDNA3 wave32: lane 16 * (3 % 2) + 5 = 21, VGPR 3 / 2 = 1."""
    status, out, err = call([*COMPARE, "-I", "3", "-J", "5"])
    assert (status, err) == (0, ""), err
    assert "\nD[3][5] = v1{14} | v1{21}\n" in out
    assert "C or D[i][j] Lane: 4 * (i % 8) + floor(j / 2)" in out  # NVIDIA's formula
    assert "C or D[i][j] Lane: 16 * (i % 2) + j" in out            # RDNA3's


def test_compare_agrees_with_both_layouts_cell_by_cell():
    nv = mc.find_instruction("sm80", "mma.m16n8k16.f32.f16.f16.f32")
    amd = mc.find_instruction("gfx1200", "v_wmma_f32_16x16x16_f16")
    comp = mc.compare(nv, amd, "B")
    assert (comp.rows, comp.cols, len(comp.cells)) == (16, 8, 128)
    ops = [mc.operand(nv, "B", wave=32), mc.operand(amd, "B", wave=32)]
    for cell in comp.cells:
        for texts, op in zip((cell.first, cell.second), ops):
            places = op.places(cell.row, cell.col)
            assert texts == tuple(f"v{p.reg}{{{p.lane}}}.[{p.lo + p.width - 1}:{p.lo}]"
                                  for p in places)
    status, out, err = call([*COMPARE, "--json"])
    assert (status, err) == (0, "") and '"mode": "compare"' in out
    status, out, err = call([*COMPARE[:5], "--compare", "gfx1100"])
    assert (status, out) == (2, "") and "ARCH:INSTRUCTION" in err


# A port between AMD architectures whose source holds each element twice (RDNA3's wave32
# A and B, in lanes l and l + 16): the register route reads the copy in the destination's
# lane where there is one, the round trip through LDS each element's first place. (The
# port once unpacked one place per element and ended in "too many values to unpack".)
TWICE = [("gfx942", "v_mfma_f32_16x16x16_f16", 64), ("gfx942", "v_mfma_f32_32x32x8_f16", 64),
         ("gfx1200", "v_wmma_f32_16x16x16_f16", 32), ("gfx1200", "v_wmma_f32_16x16x16_f16", 64),
         ("gfx1250", "v_wmma_f32_16x16x32_f16", 32)]


def _twice(matrix, arch, name, wave, route):
    return mc.port(mc.find_instruction("gfx1100", "v_wmma_f32_16x16x16_f16"), matrix,
                   mc.find_instruction(arch, name), matrix, wave=wave, route=route)


@pytest.mark.parametrize("route", ["registers", "lds"])
@pytest.mark.parametrize(("arch", "name", "wave"), TWICE)
def test_a_source_holding_each_element_twice_is_read_from_one_of_its_places(arch, name,
                                                                            wave, route):
    conv = _twice("A", arch, name, wave, route)
    src = mc.operand(conv.source, "A", wave=32)
    dst = mc.operand(conv.destination, "A", wave=wave)
    warps = wave // 32
    _, _, pairs = port_tile(src, dst, warps)
    held = {}  # destination slot -> the source places its element may come from
    for t, r, c, s, i, j in pairs:
        froms = {(s // warps, p.lane + 32 * (s % warps), p.reg, p.lo) for p in src.places(i, j)}
        assert len(froms) == 2
        for place in dst.places(r, c):
            held[t, place.lane, place.reg, place.lo] = froms
    got = {(m.fragment, m.lane, m.register, m.bits[0]):
           (m.source.fragment, m.source.lane, m.source.register, m.source.bits[0])
           for m in conv.moves}
    assert set(got) == set(held) and len(conv.moves) == len(held)
    assert all(got[slot] in held[slot] for slot in held)
    if route == "registers":  # (no move where the destination's lane holds a copy)
        assert all(got[slot][1] == slot[1] for slot in held
                   if any(lane == slot[1] for _, lane, _, _ in held[slot]))
    else:  # (one place an element, as the round trip writes it)
        first = {}
        for m in conv.moves:  # (an element of a source fragment: its warp's lanes)
            element = (m.source.fragment, m.source.lane // 32, m.source.element)
            assert first.setdefault(element, m.source) == m.source


def test_ports_from_a_source_holding_each_element_twice_run_in_the_emulation():
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        missing("gcc (the host emulation of a wavefront)")
    convs = [_twice(m, *case, route) for case in TWICE for m in "AB"
             for route in ("registers", "lds")]
    assert {conv.plan.route for conv in convs} == {"registers", "lds"}
    with tempfile.TemporaryDirectory() as folder:
        bad, out = check_port.emulate(convs, compiler, folder)
    assert bad == 0 and "BAD 0" in out, out
