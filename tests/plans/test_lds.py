"""LDS load plans: the fact sheet's worked examples (section C of
docs/facts/lds_and_lane_moves.md), every slot receiving its own element (checked by
simulating the loads on a tile whose every byte names its element), the search, the
command line, the JSON schema and the --emit hip code (gcc lane emulation)."""
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from formats.hip.lds import _name, emit_lds
from instructions.lds import lds_facts
from layouts import COORDINATES
from matrix_library import api as mc
from matrix_plans.lds.reads import LANE_MAPS, triton_swizzle
from tests.helpers import call

F16_16 = ("cdna3", "v_mfma_f32_16x16x16_f16")
F16_32 = ("cdna4", "v_mfma_f32_16x16x32_f16")


def plan(arch, name, matrix="A", **options):
    return mc.lds_plan(mc.find_instruction(arch, name), matrix, **options)


# ---- C.2: conflicts of operand-fragment loads (default model L12/L13/L15)

@pytest.mark.parametrize("_row, arch, name, options, worst", [
    ("a", "cdna3", "v_mfma_f32_16x16x16_f16", {"k_steps": 2}, 4),   # b128, chunk l/16
    ("b", "cdna3", "v_mfma_f32_16x16x16_f16", {"k_steps": 2, "pad": 8}, 2),
    ("c", "cdna3", "v_mfma_f32_16x16x16_f16", {"k_steps": 2, "swizzle": "8,1,8"}, 1),
    ("d", "cdna4", "v_mfma_f32_16x16x32_f16", {}, 4),
    ("e", "cdna4", "v_mfma_f32_16x16x32_f16", {"swizzle": "8,2,8"}, 1),
    ("e'", "cdna4", "v_mfma_f32_16x16x32_f16", {"swizzle": "8,1,8"}, 1),
    ("g", "cdna3", "v_mfma_f32_16x16x16_f16", {"load": "ds_read_b64"}, 16),
    ("h", "cdna3", "v_mfma_f32_16x16x16_f16", {"load": "ds_read_b64", "pad": 4}, 1),
    ("h'", "cdna3", "v_mfma_f32_16x16x16_f16", {"load": "ds_read_b64", "swizzle": "4,1,16"}, 1),
])
def test_section_c2(_row, arch, name, options, worst):
    found = plan(arch, name, tile="16x64", **options)
    assert found.worst == worst
    assert all(phase.conflict == worst for load in found.loads for phase in load.phases)
    assert found.loads[0].instruction == options.get("load", "ds_read_b128")


@pytest.mark.parametrize("arch, name", [("cdna3", "v_mfma_f32_32x32x8_f16"),
                                        ("cdna4", "v_mfma_f32_32x32x16_f16")])
def test_section_c2_f_32_rows(arch, name):
    steps = 2 if arch == "cdna3" else 1
    found = plan(arch, name, tile="32x64", k_steps=steps)
    assert found.loads[0].instruction == "ds_read_b128" and found.worst == 8
    assert plan(arch, name, tile="32x64", k_steps=steps, model="rocroller").worst == 4


def test_section_c2_i_j_xor_period():
    """uint2 offset 32i + (j ^ (i % 8)) over rows of 128 f16: 2-way (lanes i, i+8); period
    16 is conflict-free."""
    two = plan(*F16_16, tile="16x128", load="ds_read_b64", swizzle="4,1,8")
    assert two.worst == 2
    phase = two.loads[0].phases[0]
    assert phase.lanes == tuple(range(16))
    assert plan(*F16_16, tile="16x128", load="ds_read_b64", swizzle="4,1,16").worst == 1
    assert plan(*F16_16, tile="16x128", load="ds_read_b64", swizzle="4,1,8",
                model="rocroller").worst == 1


def test_rocroller_model_section_c2():
    """Under rocRoller's model a and d stay 4-way, g drops to 8-way."""
    assert plan(*F16_16, tile="16x64", k_steps=2, model="rocroller").worst == 4
    assert plan(*F16_32, tile="16x64", model="rocroller").worst == 4
    assert plan(*F16_16, tile="16x64", load="ds_read_b64", model="rocroller").worst == 8


# ---- C.1: Triton's swizzle parameters

@pytest.mark.parametrize("arch, bits, inner, vec, wmma, expected", [
    ("CDNA3", 16, 64, 8, False, (8, 1, 8)),
    ("CDNA3", 16, 64, 4, False, (4, 1, 16)),
    ("CDNA4", 16, 64, 8, False, (8, 2, 8)),
    ("CDNA4", 8, 128, 16, False, (16, 2, 8)),
    ("RDNA3", 16, 64, 8, True, (8, 1, 8)),
])
def test_section_c1_triton(arch, bits, inner, vec, wmma, expected):
    assert triton_swizzle(lds_facts(arch), 16, wmma, bits, inner, vec, "k") == expected


# ---- C.3: transpose-load lane maps

def test_section_c3_lane_maps():
    assert LANE_MAPS["tr16_gfx950"](5, 2) == (9, 1)
    assert LANE_MAPS["tr16_gfx1250"](10, 3) == (11, 2)
    tr8 = LANE_MAPS["tr8_gfx1250"]
    assert [tr8(2, e) for e in range(8)] == [(s, 2) for s in (0, 1, 2, 3, 8, 9, 10, 11)]
    assert tr8(12, 5) == (13, 4)


def test_tr16_dest_lane_holds_consecutive_k():
    """gfx950 ds_read_b64_tr_b16 on B stored N-contiguous: lane 5 gets (N=5, K=0..3)."""
    found = plan("cdna4", "v_mfma_f32_16x16x32_f16", "B", tile="64x16", order="mn")
    assert found.loads[0].instruction == "ds_read_b64_tr_b16"
    held = sorted((s.bits[0] + 32 * s.register, s.element) for s in found.slots
                  if s.lane == 5 and s.load == 0)
    assert [(e.k, e.j) for _, e in held] == [(k, 5) for k in range(4)]


# ---- every slot receives its own element

def owner(found, bit_address):
    """(row, col, bit) of the tile element holding `bit_address`, None for padding: the
    tile's storage rule inverted (the swizzle's XOR undoes itself)."""
    tile, bits = found.tile, found.element_bits
    index, bit = divmod(bit_address - tile.base * 8, bits)
    row, stored = divmod(index, tile.cols + tile.pad)
    if stored >= tile.cols:
        return None
    if tile.swizzle:
        vec, per_phase, max_phase = tile.swizzle
        stored = ((stored // vec) ^ ((row // per_phase) % max_phase)) * vec + stored % vec
    return row, stored, bit


def check_delivery(found):
    """Simulate the loads: the first and last bit of every slot come, through the load
    that fills it (a transpose load: from the source lane of its lane map), from the
    first and last bit of the slot's own tile element."""
    bits = found.element_bits
    assert found.slots
    for slot in found.slots:
        load = found.loads[slot.load]
        start = load.register * 32 + load.at
        for end in (0, bits - 1):
            offset = slot.register * 32 + slot.bits[0] + end - start
            lane, within = slot.lane, offset
            if load.load.transpose:
                tr = load.load.transpose
                lane, elem = LANE_MAPS[load.load.lane_map](slot.lane, offset // tr)
                within = elem * tr + offset % tr
            if offset >= load.load.bits:  # (an element straddling into the next load)
                following = found.loads[slot.load + 1]
                lane, within = slot.lane, offset - load.load.bits
                load = following
            read = load.lanes[lane].address * 8 + within
            assert owner(found, read) == (*slot.tile_at, end), slot


def _cases():
    """One instruction per (architecture, matrix, element width): every operand kind."""
    seen, cases = set(), []
    for inst in mc.instructions():
        for matrix in mc.matrices(inst):
            if "k" not in COORDINATES.get(matrix, ()):
                continue
            facts = lds_facts(inst.arch)  # (gfx1251 = gfx1250: one of them)
            if facts is None:  # (NVIDIA's architectures: no LDS facts, no plans)
                continue
            key = (inst.family, facts.loads, facts.models, facts.even_vgpr_tuples, matrix,
                   mc.operand(inst, matrix).layout.width, inst.m)
            if key not in seen:
                seen.add(key)
                cases.append((inst.arch, inst.mnemonic, matrix))
    return cases


CASES = _cases()


def _tile_of(inst, matrix, order, steps=1):
    op = mc.operand(inst, matrix)
    rows, cols, blocks = op.shape
    k_axis = COORDINATES[matrix].index("k")
    k = (rows, cols)[k_axis] * steps
    mn = (rows, cols)[1 - k_axis] * blocks
    share = 4 if inst.sparse and matrix in ("A", "K") else 1  # (sparse: a slot serves 4 K)
    k //= share
    return f"{mn}x{k}" if order == "k" else f"{k}x{mn}"


@pytest.mark.parametrize("arch, name, matrix", CASES)
def test_default_plan_delivers_every_slot(arch, name, matrix):
    inst = mc.find_instruction(arch, name)
    tile = _tile_of(inst, matrix, "k")
    try:
        found = mc.lds_plan(inst, matrix, tile=tile)
    except mc.CalcError as error:  # only where no load can: RDNA4 wave32 sparse indices
        assert matrix == "K" and "no LDS load" in str(error)
        return
    check_delivery(found)
    rows, cols = (int(v) for v in tile.split("x"))
    pad = max(1, 128 // found.element_bits)  # 16 bytes: keeps every load aligned
    padded = mc.lds_plan(inst, matrix, tile=f"{rows}x{cols}", pad=pad, base=64)
    check_delivery(padded)
    vec = max(1, min(cols, found.k_run * 1))
    if cols // vec >= 2:
        swizzled = mc.lds_plan(inst, matrix, tile=tile, swizzle=(vec, 1, cols // vec))
        check_delivery(swizzled)


def _every_operand():
    for inst in mc.instructions():
        if not mc.architecture_of(inst).target:  # (NVIDIA's: no LDS facts, no plans)
            continue
        for matrix in mc.matrices(inst):
            if "k" in COORDINATES.get(matrix, ()):
                yield inst, matrix


@pytest.mark.slow
def test_every_default_plan_reads_each_slots_element():
    """Every instruction and input operand, default plan of its unpadded K-contiguous
    tile: each slot's element sits at its (row, col) = (M/N index with blocks after one
    another, K index; a sparse index slot serves 4 K) of the tile, so at byte
    (row * cols + col) * bits / 8, and the load that fills the slot reads exactly there
    (a transpose load: from the source lane its lane map names)."""
    checked = refused = 0
    for inst, matrix in _every_operand():
        tile = _tile_of(inst, matrix, "k")
        cols = int(tile.split("x")[1])
        try:
            found = mc.lds_plan(inst, matrix, tile=tile)
        except mc.CalcError as error:  # RDNA4 wave32 sparse indices: no load can
            assert matrix == "K" and "no LDS load" in str(error), error
            refused += 1
            continue
        op = mc.operand(inst, matrix)
        per_block = op.shape[1 - COORDINATES[matrix].index("k")]
        bits, share = found.element_bits, 4 if inst.sparse and matrix in ("A", "K") else 1
        assert found.k_per_element == share
        for slot in found.slots:
            e = slot.element
            mn = e.block * per_block + (e.i if e.i is not None else e.j)
            assert slot.tile_at == (mn, e.k // share), slot
            assert slot.address * 8 + slot.bit == (mn * cols + e.k // share) * bits, slot
            load = found.loads[slot.load]
            offset = slot.register * 32 + slot.bits[0] - (load.register * 32 + load.at)
            lane, within = slot.lane, offset
            if load.load.transpose:
                lane, elem = LANE_MAPS[load.load.lane_map](slot.lane, offset // bits)
                within = elem * bits
            assert load.lanes[lane].address * 8 + within == slot.address * 8 + slot.bit
        checked += 1
    assert checked > 600 and refused <= 8


@pytest.mark.parametrize("arch, name, matrix, order, steps", [
    ("cdna4", "v_mfma_f32_16x16x32_f16", "B", "mn", 1),
    ("cdna4", "v_mfma_f32_32x32x16_bf16", "A", "mn", 1),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "B", "mn", 1),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "B", "mn", 1),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "B", "mn", 1),   # ds_read_b64_tr_b8
    ("gfx1250", "v_wmma_f32_16x16x64_fp8_fp8", "A", "mn", 1),  # ds_load_tr8_b64
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A", "k", 4),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "A", "k", 2),
])
def test_transposed_and_multi_step_plans_deliver(arch, name, matrix, order, steps):
    inst = mc.find_instruction(arch, name)
    found = mc.lds_plan(inst, matrix, tile=_tile_of(inst, matrix, order, steps), order=order,
                        k_steps=steps)
    check_delivery(found)
    if order == "mn" and any(load.transpose == found.element_bits
                             for load in found.facts.loads):  # its transpose load
        assert found.loads[0].load.transpose == found.element_bits


# ---- the search

def test_search_finds_the_sheets_settings():
    inst = mc.find_instruction(*F16_16)
    found = mc.lds_search(inst, "A", tile="16x64", load="ds_read_b64")
    assert found.given.worst == 16
    settings = {(c.pad, c.swizzle) for c in found.found}
    assert (4, None) in settings and (0, (4, 1, 16)) in settings
    assert found.found[0].lds_bytes == 2048 and found.found[0].worst == 1
    assert found.triton.swizzle == (4, 1, 16) and found.triton.worst == 1
    wide = mc.lds_search(mc.find_instruction(*F16_32), "A", tile="16x64")
    assert wide.triton.swizzle == (8, 2, 8) and wide.triton.worst == 1
    assert (0, (8, 2, 8)) in {(c.pad, c.swizzle) for c in wide.found}


@pytest.mark.parametrize("arch, name, tile, options, setting", [
    ("cdna3", "v_mfma_f32_16x16x16_f16", "16x64", {"k_steps": 2}, (0, (8, 1, 8))),   # C.2 c
    ("cdna3", "v_mfma_f32_16x16x16_f16", "16x128", {"load": "ds_read_b64"},
     (0, (4, 1, 16))),                                                                # C.2 j
])
def test_search_finds_the_sheets_conflict_free_settings(arch, name, tile, options, setting):
    found = mc.lds_search(mc.find_instruction(arch, name), "A", tile=tile, **options)
    assert found.given.worst > 1 and found.found and found.found[0].worst == 1
    assert setting in {(c.pad, c.swizzle) for c in found.found}


# ---- legality and errors

@pytest.mark.parametrize("options, words", [
    ({"tile": "16x64", "load": "ds_read_b64_tr_b16"}, "ds_read_b64_tr_b16"),
    ({"tile": "8x64"}, "cannot hold"),
    ({"tile": "16x64", "swizzle": "8,1,16"}, "MAX_PHASE"),
    ({"tile": "16x64", "base": 4, "load": "ds_read_b128"}, "multiple of 16"),
    ({"tile": "16x64", "model": "nope"}, "rocroller"),
    ({"tile": "16-64"}, "ROWSxCOLS"),
    ({"tile": "16x64", "load": "ds_read_b999"}, "choose one of"),
])
def test_errors(options, words):
    with pytest.raises(mc.CalcError, match=words.replace("(", r"\(")):
        plan(*F16_32, **options)


def test_vgpr_parity():
    """fp6 A of a CDNA4 f8f6f4 MFMA is 6 VGPRs: the second ds_read_b96 would start at v3,
    odd, which DS loads of 64 bits or more may not on CDNA2+ (CDNA4 ISA 11.4)."""
    inst = mc.find_instruction("cdna4", "v_mfma_f32_16x16x128_f8f6f4")
    with pytest.raises(mc.CalcError, match="v3 \\(odd\\)"):
        mc.lds_plan(inst, "A", tile="16x128", load="ds_read_b96", mods={"cbsz": 2})
    found = mc.lds_plan(inst, "A", tile="16x128", mods={"cbsz": 2})
    assert {load.instruction for load in found.loads} == {"ds_read_b64"}
    check_delivery(found)


def test_wave_size_of_transpose_loads():
    """gfx1250's transpose loads run in wave32 only (LLVM: 'instruction requires
    wavesize=32'); RDNA has no LDS transpose load at all."""
    found = plan("gfx1250", "v_wmma_f32_16x16x32_f16", "B", tile="32x16", order="mn")
    assert found.loads[0].instruction == "ds_load_tr16_b128"
    assert any("EXEC" in note for note in found.notes)
    with pytest.raises(mc.CalcError, match="has no LDS load"):
        plan("rdna4", "v_wmma_f32_16x16x16_f16", "B", tile="16x16", order="mn",
             load="ds_load_tr16_b128")


# ---- the command line

def test_cli_done_when():
    base = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x64",
            "--load", "ds_read_b64"]
    status, out, err = call(base)
    assert status == 0 and "Worst: 16-way" in out and err == ""
    # the bank picture: lanes 0-15 all read dwords 0-1 of their rows (banks 0 and 1)
    assert "  phase 0  lanes 0-15   gg" + "." * 30 + "  16-way\n" in out
    assert "  phase 3  lanes 48-63  " + "." * 6 + "gg" in out
    assert "     1 A[1][0]@128" in out  # lane 1's first slot: row 1 starts at byte 128
    for extra in (["--lds-pad", "4"], ["--lds-swizzle", "4,1,16"]):
        assert "Worst: conflict-free" in call(base + extra)[1]
    wide = ["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_f16", "-A", "--lds-tile", "16x64",
            "--load", "ds_read_b128"]
    assert "Worst: 4-way" in call(wide)[1]
    assert "Worst: conflict-free" in call(wide + ["--lds-swizzle", "8,2,8"])[1]


@pytest.mark.parametrize("argv", [
    ["--lds-pad", "x"], ["--lds-swizzle", "1,2"], ["--lds-order", "z"], ["-B", "-C"],
    ["--load", "ds_read_b999"], ["-R"],
])
def test_cli_bad_values(argv):
    words = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x64"]
    if argv[0] == "-B":
        words.remove("-A")
    status, out, err = call(words + argv)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_cli_option_without_tile():
    status, out, err = call(["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A",
                             "--lds-pad", "4"])
    assert status == 2 and "--lds-tile" in err


def test_cli_format_modifiers_set_the_element_width():
    """gfx1250's --matrix-a-fmt by name or code, CDNA4's --cbsz: the tile's elements."""
    base = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-A", "--lds-tile",
            "16x128"]
    by_name, by_code = (call(base + ["--matrix-a-fmt", value])[1] for value in ("fp4", "4"))
    assert "(4-bit elements" in by_name and by_name == by_code
    assert "(8-bit elements" in call(base)[1]
    status, out, err = call(base + ["--matrix-a-fmt", "fp9"])
    assert status == 2 and out == "" and "fp4" in err
    cdna4 = ["-a", "cdna4", "-i", "v_mfma_f32_16x16x128_f8f6f4", "-A", "--cbsz", "2",
             "--lds-tile", "16x128"]
    assert "(6-bit elements" in call(cdna4)[1]


def test_json_documents_validate():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(Path(__file__).resolve().parents[2].joinpath(
        "formats", "output.schema.json").read_text())
    base = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x64",
            "--json"]
    for extra, mode in (([], "lds"), (["--lds-search"], "lds_search")):
        status, out, _ = call(base + extra)
        document = json.loads(out)
        assert status == 0 and document["mode"] == mode and document["schema_version"] == 1
        jsonschema.validate(document, schema)
    document = json.loads(call(base)[1])
    assert document["worst"] == 16 and len(document["loads"][0]["lanes"]) == 64
    assert document["loads"][0]["instruction"] == "ds_read_b64"
    assert [p["conflict"] for p in document["loads"][0]["phases"]] == [16] * 4
    assert document["loads"][0]["phases"][1]["banks"][2:4] == [16, 16]
    assert sum(document["loads"][0]["phases"][1]["banks"]) == 32
    assert document["slots"][0]["element"] == "A[0][0]"
    bad = dict(document, mode="lds", loads="x")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_pictures():
    base = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x64"]
    status, out, _ = call(base + ["--format", "svg"])
    assert status == 0 and out.startswith("<svg") and out.count("<rect") == 4 * 32
    status, out, _ = call(base + ["--format", "html"])
    assert status == 0 and "<svg" in out and "<pre>" in out


# ---- --emit hip: gcc lane emulation (clang's instructions: tests/data/lds_hip_asm.json)

HARNESS = """
#include <stdio.h>
int main(void) {
    static unsigned char tile[%(bytes)d] __attribute__((aligned(16)));
    for (int i = 0; i < %(bytes)d; ++i) tile[i] = (unsigned char)(i * 7 + 3);
    for (unsigned int lane = 0; lane < %(wave)d; ++lane) {
        unsigned int out[%(regs)d] = {0};
        %(name)s_load(tile, lane, out);
        for (int r = 0; r < %(regs)d; ++r) printf("r %%u %%d %%u\\n", lane, r, out[r]);
        for (int j = 0; j < %(loads)d; ++j)
            printf("a %%u %%d %%u\\n", lane, j, %(name)s_address(lane, j));
    }
    return 0;
}
"""
EMULATED = [  # (arch, instruction, matrix, tile, options)
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A", "16x64", {"swizzle": "4,1,16", "k_steps": 2}),
    ("cdna4", "v_mfma_f32_16x16x32_f16", "A", "16x64", {"swizzle": "8,2,8", "base": 256}),
    ("cdna3", "v_mfma_f32_32x32x8_f16", "A", "32x64", {"pad": 8, "k_steps": 2}),
    ("cdna4", "v_mfma_f32_16x16x32_f16", "B", "64x16", {"order": "mn", "pad": 4}),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "B", "128x16", {"order": "mn"}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "B", "32x16", {"order": "mn"}),
    ("gfx1250", "v_wmma_f32_16x16x64_fp8_fp8", "A", "64x16", {"order": "mn"}),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "A", "16x128", {"mods": {"cbsz": 4}}),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "A", "16x128", {"mods": {"cbsz": 2}}),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "B", "16x16", {"wave": 64}),
]


def _emulated(output):
    """({(lane, register): word}, {(lane, load): address}) the emulation printed."""
    words, addresses = {}, {}
    for line in output.split("\n"):
        if line:
            kind, lane, at, value = line.split()
            (words if kind == "r" else addresses)[int(lane), int(at)] = int(value)
    return words, addresses


@pytest.mark.parametrize("arch, name, matrix, tile, options", EMULATED)
def test_emit_hip_gcc_emulation(tmp_path, arch, name, matrix, tile, options):
    """gcc runs the emitted code lane by lane: every lane's address for every load is
    the plan's, and (plain loads) every slot of out[] receives its element's bytes; for
    a transpose load each slot's element is where the lane map says its source lane
    reads."""
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed")
    found = plan(arch, name, matrix, tile=tile, **options)
    regs = max(s.register for s in found.slots) + 1
    regs += regs % 2
    size = found.tile.base + found.lds_bytes + 16
    source = tmp_path / "lds.c"
    source.write_text(emit_lds(found) + HARNESS % {
        "bytes": size, "wave": found.wave, "regs": regs, "loads": len(found.loads),
        "name": _name(found)})
    subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-o", str(tmp_path / "lds"),
                    str(source)], check=True)
    run = subprocess.run([str(tmp_path / "lds")], capture_output=True, text=True, check=True)
    words, addresses = _emulated(run.stdout)
    for number, load in enumerate(found.loads):
        for lane in load.lanes:
            if lane.address is not None:
                assert addresses[lane.lane, number] == lane.address
    bits = found.element_bits
    for slot in found.slots:
        load = found.loads[slot.load]
        offset = slot.register * 32 + slot.bits[0] - (load.register * 32 + load.at)
        if load.load.transpose:
            source_lane, elem = LANE_MAPS[load.load.lane_map](slot.lane, offset // bits)
            where = addresses[source_lane, slot.load] * 8 + elem * bits
            assert where == slot.address * 8 + slot.bit, slot
            continue
        assert addresses[slot.lane, slot.load] * 8 + offset == slot.address * 8 + slot.bit
        if bits % 8 == 0:
            expected = 0
            for byte in range(bits // 8):
                expected |= ((slot.address + byte) * 7 + 3) % 256 << (8 * byte)
            got = words[slot.lane, slot.register] >> slot.bits[0] & (1 << bits) - 1
            assert got == expected, slot


CLANG_CASES = [  # (arch, gfx, instruction, matrix, tile, options)
    ("cdna3", "gfx942", "v_mfma_f32_16x16x16_f16", "A", "16x64", {"swizzle": "4,1,16"}),
    ("cdna3", "gfx942", "v_mfma_f32_16x16x16_f16", "A", "16x64", {"k_steps": 2}),
    ("cdna4", "gfx950", "v_mfma_f32_16x16x32_f16", "A", "16x64", {"swizzle": "8,2,8"}),
    ("cdna3", "gfx942", "v_mfma_f32_32x32x8_f16", "A", "32x64", {"pad": 8, "k_steps": 2}),
    ("cdna3", "gfx942", "v_mfma_f32_32x32x8_f16", "A", "32x64", {"pad": 2}),
    ("cdna4", "gfx950", "v_mfma_f32_16x16x32_f16", "B", "64x16", {"order": "mn"}),
    ("cdna4", "gfx950", "v_mfma_f32_16x16x128_f8f6f4", "B", "128x16", {"order": "mn"}),
    ("cdna4", "gfx950", "v_mfma_f32_16x16x128_f8f6f4", "A", "16x128", {"mods": {"cbsz": 2}}),
    ("gfx1250", "gfx1250", "v_wmma_f32_16x16x32_f16", "A", "16x32", {"swizzle": "8,1,4"}),
    ("gfx1250", "gfx1250", "v_wmma_f32_16x16x32_f16", "B", "32x16", {"order": "mn"}),
    ("gfx1250", "gfx1250", "v_wmma_f32_16x16x64_fp8_fp8", "A", "64x16", {"order": "mn"}),
    ("rdna4", "gfx1201", "v_wmma_f32_16x16x16_f16", "A", "16x16", {}),
]
KERNEL = """
extern "C" __global__ void k(unsigned int* dst) {
    __shared__ __attribute__((aligned(16))) unsigned char tile[%(bytes)d];
    unsigned int lane = __builtin_amdgcn_workitem_id_x() %% %(wave)du;
    for (unsigned int i = lane; i < %(bytes)du; i += %(wave)du) tile[i] = (unsigned char)i;
    __builtin_amdgcn_s_barrier();
    unsigned int out[%(regs)d];
    %(name)s_load(tile, lane, out);
    for (int r = 0; r < %(regs)d; ++r) dst[lane * %(regs)d + r] = out[r];
}
"""
RECORDED = Path(__file__).parents[1] / "data" / "lds_hip_asm.json"
COMMAND = ("python3 -m tests.plans.test_lds (clang-22 -x hip --cuda-device-only -nogpulib "
           "-nogpuinc --offload-arch=GFX -O2 -S on each case's --emit hip code in a kernel)")


def clang_cases():
    """Every CLANG_CASES entry with the ds_* instructions clang-22 compiles its code to."""
    cases = []
    for arch, gfx, name, matrix, tile, options in CLANG_CASES:
        found = plan(arch, name, matrix, tile=tile, **options)
        regs = max(s.register for s in found.slots) + 1
        regs += regs % 2
        code = emit_lds(found) + KERNEL % {"bytes": found.tile.base + found.lds_bytes,
                                           "regs": regs,
                                           "name": _name(found),
                                           "wave": found.wave}
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "lds.hip"
            source.write_text(code)
            asm = subprocess.run(["clang-22", "-x", "hip", "--cuda-device-only", "-nogpulib",
                                  "-nogpuinc", f"--offload-arch={gfx}", "-O2", "-S", "-o", "-",
                                  str(source)], capture_output=True, text=True,
                                 check=True).stdout
        loads = re.findall(r"^\s+(ds_read\w*|ds_load\w*)", asm, re.M)
        cases.append({"arch": arch, "gfx": gfx, "instruction": name, "matrix": matrix,
                      "tile": tile, "options": options, "clang": loads})
    return cases


def test_emit_hip_clang_facts():
    """clang-22 compiled each case's code to exactly the planned loads (recorded; the
    command that regenerates the record is in it)."""
    data = json.loads(RECORDED.read_text())
    assert data["command"] == COMMAND
    assert [(c["arch"], c["gfx"], c["instruction"], c["matrix"], c["tile"], c["options"])
            for c in data["cases"]] == CLANG_CASES
    for case in data["cases"]:
        found = plan(case["arch"], case["instruction"], case["matrix"], tile=case["tile"],
                     **case["options"])
        compiled = []
        for name in case["clang"]:  # a merged pair: the two loads the plan notes
            if name.startswith(("ds_read2_b", "ds_load_2addr_b")):
                single = name.replace("ds_read2_", "ds_read_").replace("_2addr", "")
                compiled += [single, single]
                assert any(name in note for note in found.notes), (name, found.notes)
            else:
                compiled.append(name)
        assert sorted(load.instruction for load in found.loads) == sorted(compiled), case


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_emit_hip_clang_live():
    """The record still holds: clang-22 gives the same instructions today."""
    data = json.loads(RECORDED.read_text())
    assert clang_cases() == data["cases"]


def test_library_module_imports_first():
    """matrix_library.api re-exports matrix_library.lds: either may be imported first."""
    done = subprocess.run([sys.executable, "-c", "from matrix_library import lds, api; "
                           "print(api.lds_plan is lds.lds_plan)"],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert done.stdout.strip() == "True", done.stderr


if __name__ == "__main__":  # pragma: no cover (regenerates the record)
    RECORDED.write_text(json.dumps({"command": COMMAND, "cases": clang_cases()}, indent=1)
                        + "\n")
