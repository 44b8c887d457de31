"""Epilogue store plans: the seed's output shuffle (ds_read_b64_tr_b16 on
gfx950), every route of many plans checked against the layout engine (each element
stored once, where it belongs, from the register bytes the layout gives it), the command
line and JSON, and the --emit hip code (gcc lane emulation with the conversion's model;
clang-22's instructions recorded)."""
import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from formats.hip.epilogue import emit, name_of
from instructions.lds import lds_facts
from layouts import operand
from layouts.modifiers import Modifiers
from matrix_library import api as mc
from matrix_plans.lds.reads import LANE_MAPS
from tests.helpers import REPO, call, need_module
from tests.helpers.hip_records import CLANG, device_asm, recorded, regenerate

BF16 = ("cdna4", "v_mfma_f32_16x16x32_bf16")


def plan(arch, name, **options):
    return mc.store_plan(mc.find_instruction(arch, name), **options)


def test_seed_output_shuffle():
    """A 16x16 bf16 D tile on gfx950 goes through LDS with ds_read_b64_tr_b16: one
    ds_write_b64, one transpose read, one 8-byte global store per lane. Lane l writes to
    the 8-byte slot ((l & 3) << 2) + ((l >> 2) & 3) + (l & ~15) and stores row
    4 (l >> 4) + (l & 3), columns 4 ((l >> 2) & 3) .. + 3: the write-up's `shfl`."""
    found = plan(*BF16, store_type="bf16")
    route = found.chosen
    assert route.name == "lds-transpose"
    assert route.counts == (("ds_write_b64", 1), ("ds_read_b64_tr_b16", 1),
                            ("global_store_dwordx2", 1))
    assert found.pack == ("v_cvt_pk_bf16_f32",) * 2
    for write in route.writes:
        lane = write.lane
        assert write.address == 8 * (((lane & 3) << 2) + ((lane >> 2) & 3) + (lane & ~15))
    for store in route.stores:
        lane = store.lane
        row, col = 4 * (lane >> 4) + (lane & 3), 4 * ((lane >> 2) & 3)
        assert store.elements == tuple((row, col + x) for x in range(4))
        assert store.address == (row * 16 + col) * 2 and store.bytes == 8
    direct = next(r for r in found.routes if r.name == "direct")
    assert direct.counts == (("global_store_short", 4),) and direct.cost > route.cost
    assert all(way == 1 for _, way in route.conflicts)


CASES = [  # (arch, instruction, options)
    (*BF16, {"store_type": "bf16"}),
    (*BF16, {"store_type": "bf16", "order": "col", "ld": 64}),
    (*BF16, {"store_type": "bf16", "ld": 4096}),
    (*BF16, {}),                                           # f32: plain LDS or direct
    ("cdna4", "v_mfma_f32_32x32x16_bf16", {"store_type": "bf16"}),
    ("cdna4", "v_mfma_f32_32x32x16_bf16", {"store_type": "f16", "order": "col"}),
    ("cdna4", "v_mfma_f32_16x16x32_bf16", {"store_type": "fp8"}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", {"store_type": "f16"}),
    ("gfx1250", "v_wmma_f32_16x16x32_bf16", {"store_type": "bf16"}),
    ("rdna4", "v_wmma_f32_16x16x16_f16", {"store_type": "f16"}),
    ("rdna3", "v_wmma_f32_16x16x16_f16", {}),
]


def _case_id(case):
    return f"{case[0]}-{case[1]}-" + "-".join(f"{k}{v}" for k, v in case[2].items())


def _register_bytes(found, arch, name):
    """{(lane, converted-register byte): element (i, j)} from the layout engine's places
    of D: the value at bits [32 r + lo] of a lane is value number (32 r + lo) / D's
    bits, packed in that order."""
    inst = mc.find_instruction(arch, name)
    op = operand(inst, "D", Modifiers(), found.wave)
    size = found.bits // 8
    out = {}
    rows, cols, _ = op.shape
    for i in range(rows):
        for j in range(cols):
            for place in op.places(i, j, 0):
                v = (place.reg * 32 + place.lo) // op.layout.width
                out[place.lane, v * size] = (i, j)
    return out


def _check_stores(found, route, held):
    """Every element once, each store's values consecutive from its aligned address;
    direct stores take each value from the register byte the layout gives it."""
    size = found.bits // 8
    seen = set()
    for s in route.stores:
        assert s.address % s.bytes == 0, s
        for x, (i, j) in enumerate(s.elements):
            at = (i * found.ld + j) if found.order == "row" else (j * found.ld + i)
            assert at * size == s.address + x * size, s
            assert (i, j) not in seen
            seen.add((i, j))
            if route.name == "direct":
                assert held[s.lane, s.source + x * size] == (i, j)
    assert len(seen) == found.shape[0] * found.shape[1]


def _check_lds(found, route, held):
    """The LDS writes take their values from the layout's register bytes; what a lane
    reads back (plain: the bytes; transpose: its lane map's gather) is what it stores."""
    size = found.bits // 8
    lds = {}
    for w in route.writes:
        for x, elem in enumerate(w.elements):
            assert held[w.lane, w.source + x * size] == elem
            lds[w.address + x * size] = elem
    reads = {(lane, number): at for lane, number, at in route.reads}
    load = next((lds_facts(found.engine.arch).load(n) for n, _ in route.counts
                 if "_tr" in n), None)
    for s in route.stores:
        at = reads[s.lane, s.number]
        if load is None:
            got = [lds[at + x * size] for x in range(s.bytes // size)]
        else:
            pairs = [LANE_MAPS[load.lane_map](s.lane, e) for e in range(s.bytes // size)]
            got = [lds[reads[src, s.number] + elem * size] for src, elem in pairs]
        assert tuple(got) == s.elements, s


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_every_route_stores_every_element_once(case):
    """Each route of each plan, checked against the layout engine (_check_stores,
    _check_lds)."""
    arch, name, options = case
    found = plan(arch, name, **options)
    held = _register_bytes(found, arch, name)
    for route in found.routes:
        if route.refused:
            continue
        _check_stores(found, route, held)
        if route.name != "direct":
            _check_lds(found, route, held)


def test_cli_text_json_and_errors():
    base = ["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "--store-d"]
    status, out, err = call(base + ["--store-type", "bf16"])
    assert status == 0 and "lds-transpose (chosen)" in out and "ds_read_b64_tr_b16" in out
    status, out, _ = call(base + ["--store-type", "bf16", "--json"])
    doc = json.loads(out)
    assert doc["mode"] == "store" and doc["chosen"] == "lds-transpose"
    jsonschema = need_module("jsonschema", "the --json output is validated against its schema")
    jsonschema.validate(doc, json.loads((REPO / "formats" / "output.schema.json").read_text()))
    for argv, needle in ((["--store-type", "int3"], "int3"), (["--order", "diag"], "diag"),
                         (["--store-type", "fp4"], "fp4"),
                         (["-i", "v_mfma_f32_4x4x4_16b_f16"], "16 blocks")):
        status, out, err = call(base + argv)
        assert status == 2 and out == "" and err.count("\n") == 1 and needle in err, err
    status, out, err = call(["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "--store-type",
                             "bf16"])
    assert status == 2 and "--store-d" in err


def test_route_takes_that_route_instead_of_the_cheapest():
    """--route is the library's route=: the plan, its JSON and its code take that route
    (the cheapest is lds-transpose here), and a route the plan has not is one line."""
    base = ["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "--store-d", "--store-type", "bf16"]
    assert plan("cdna4", "v_mfma_f32_16x16x32_bf16", store_type="bf16").chosen.name == \
        "lds-transpose"
    for route in ("direct", "lds", "lds-transpose"):
        forced = plan("cdna4", "v_mfma_f32_16x16x32_bf16", store_type="bf16", route=route)
        status, out, err = call(base + ["--route", route])
        assert status == 0 and err == "" and f"  {route} (chosen): " in out
        assert out.count("(chosen)") == 1
        status, out, _ = call(base + ["--route", route, "--json"])
        assert status == 0 and json.loads(out)["chosen"] == forced.chosen.name == route
        status, out, _ = call(base + ["--route", route, "--emit", "hip"])
        assert status == 0 and f"_row_{route.replace('-', '_')}_write(" in out
    for argv, message in [
            (["--route", "diag"], "route 'diag': the routes are direct, lds, lds-transpose"),
            (["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "--store-d", "--route",
              "lds-transpose"], "route 'lds-transpose': the routes are direct, lds"),
            (["--route"], "the --route option needs a value (NAME)")]:
        argv = argv if argv[0] == "-a" else base + argv
        status, out, err = call(argv)
        assert status == 2 and out == "" and err.count("\n") == 1 and message in err, err
    status, out, err = call(["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "--route", "lds"])
    assert status == 2 and "--route describes an epilogue store: give --store-d" in err
    status, out, err = call(["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "-A",
                             "--preshuffle", "--route", "lds"])
    assert status == 2 and out == "" and "--preshuffle makes a plan of its own: drop --route" \
        in err


# ---- --emit hip: gcc emulation (values through the conversion's model), clang-22

HOST = r"""
#include <stdio.h>
#include <string.h>
static inline unsigned int mc_bf16(unsigned int x) {   /* round to nearest even (no NaNs) */
    return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}
static inline unsigned int mc_f16(unsigned int x) {
    float f; memcpy(&f, &x, 4); _Float16 h = (_Float16)f; unsigned short u;
    memcpy(&u, &h, 2); return u;
}
#define MC_CVT2_BF16(x, y) (mc_bf16(x) | mc_bf16(y) << 16)
#define MC_CVT2_F16(x, y) (mc_f16(x) | mc_f16(y) << 16)
"""
HARNESS = """
static unsigned char tile[%(tile)d], lds[%(lds)d + 16];
static const unsigned int d[%(wave)d][%(regs)d] = {%(values)s};
int main(void) {
    for (unsigned int lane = 0; lane < %(wave)du; ++lane) %(name)s_write(lds, lane, d[lane]);
    for (unsigned int lane = 0; lane < %(wave)du; ++lane)
        %(name)s_store(tile, %(ld)d, lds, lane, d[lane]);
    for (int i = 0; i < %(tile)d; ++i) printf("%%d\\n", tile[i]);
    return 0;
}
"""


def _value(i, j):
    return (i * 64 + j) * 1.0078125 + 0.25   # distinct; rounding matters for 16-bit types


def _bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _converted(x, kind):
    bits = _bits(x)
    if kind == "bf16":
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF
    if kind == "f16":
        return struct.unpack("<H", struct.pack("<e", x))[0]
    return bits


def _routes(arch, name, options):
    """The possible routes of a case."""
    return [r.name for r in plan(arch, name, **options).routes if not r.refused]


EMULATED = [(arch, name, {**options, "route": route})
            for arch, name, options in CASES
            if options.get("store_type", "f32") in ("bf16", "f16", "f32")
            for route in _routes(arch, name, options)]


@pytest.mark.parametrize("case", EMULATED, ids=[_case_id(c) for c in EMULATED])
def test_emit_hip_gcc_emulation(tmp_path, case):
    """gcc runs the emitted _write in every lane, then _store in every lane, on D values
    placed by the layout engine: every element of the global tile holds its value after
    the conversion's model (bf16: round to nearest even; f16: gcc's _Float16). Every
    possible route of each plan is emitted and run."""
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed")
    arch, name, options = case
    found = plan(arch, name, **options)
    inst = mc.find_instruction(arch, name)
    op = operand(inst, "D", Modifiers(), found.wave)
    regs = op.register_count
    d = [[0] * regs for _ in range(found.wave)]
    rows, cols, _ = op.shape
    for i in range(rows):
        for j in range(cols):
            for place in op.places(i, j, 0):
                d[place.lane][place.reg] = _bits(_value(i, j))
    size = found.bits // 8
    extent = (rows if found.order == "row" else cols)
    tile_bytes = found.ld * extent * size
    source = tmp_path / "store.c"
    source.write_text(HOST + emit(found) + HARNESS % {
        "tile": tile_bytes, "lds": max(16, found.chosen.lds_bytes), "wave": found.wave,
        "regs": regs, "name": name_of(found), "ld": found.ld,
        "values": ", ".join("{" + ", ".join(f"{v}u" for v in row) + "}" for row in d)})
    subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-o", str(tmp_path / "store"),
                    str(source)], check=True)
    out = subprocess.run([str(tmp_path / "store")], capture_output=True, text=True,
                         check=True).stdout.split()
    tile = bytes(int(b) for b in out)
    kind = found.store_type
    for i in range(rows):
        for j in range(cols):
            at = ((i * found.ld + j) if found.order == "row" else (j * found.ld + i)) * size
            got = int.from_bytes(tile[at:at + size], "little")
            assert got == _converted(_value(i, j), kind), (i, j)


CLANG_CASES = [  # (gfx, arch, instruction, options)
    ("gfx950", *BF16, {"store_type": "bf16"}),
    ("gfx950", *BF16, {"store_type": "bf16", "order": "col", "ld": 64}),
    ("gfx950", *BF16, {}),
    ("gfx942", "cdna3", "v_mfma_f32_16x16x16_f16", {"store_type": "f16"}),
    ("gfx1250", "gfx1250", "v_wmma_f32_16x16x32_bf16", {"store_type": "bf16"}),
]
KERNEL = """
extern "C" __global__ void k(unsigned char* tile, const unsigned int* src) {
    __shared__ __attribute__((aligned(16))) unsigned char lds[%(lds)d];
    unsigned int lane = __builtin_amdgcn_workitem_id_x() %% %(wave)du;
    unsigned int d[%(regs)d];
    for (int r = 0; r < %(regs)d; ++r) d[r] = src[lane * %(regs)d + r];
    %(name)s_write(lds, lane, d);
    %(name)s_store(tile, %(ld)d, lds, lane, d);
}
"""
RECORDED = Path(__file__).parents[1] / "data" / "epilogue_hip_asm.json"
COMMAND = (f"python3 -m tests.plans.test_epilogue ({CLANG} on each case's --emit hip code in "
           "a kernel)")
MEMORY = r"^\s+(global_store\w*|ds_write\w*|ds_store\w*|ds_read\w*|ds_load\w*)"


def clang_cases():
    cases = []
    for gfx, arch, name, options in CLANG_CASES:
        found = plan(arch, name, **options)
        code = emit(found) + KERNEL % {"lds": max(16, found.chosen.lds_bytes),
                                       "wave": found.wave, "name": name_of(found),
                                       "regs": found.engine.d_registers, "ld": found.ld}
        asm = device_asm(code, gfx)
        cases.append({"gfx": gfx, "arch": arch, "instruction": name, "options": options,
                      "clang": sorted(re.findall(MEMORY, asm, re.M))})
    return cases


def _planned(found):
    return sorted(name for name, count in found.chosen.counts for _ in range(count))


def test_emit_hip_clang_facts():
    """clang-22 compiled each case's code to exactly the planned LDS and global accesses
    (recorded with the command that regenerates the record)."""
    data = {"cases": recorded(RECORDED, COMMAND)}
    assert [(c["gfx"], c["arch"], c["instruction"], c["options"]) for c in data["cases"]] \
        == CLANG_CASES
    for case in data["cases"]:
        found = plan(case["arch"], case["instruction"], **case["options"])
        assert case["clang"] == _planned(found), case


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_emit_hip_clang_live():
    assert clang_cases() == recorded(RECORDED, COMMAND)


if __name__ == "__main__":   # regenerate the record (clang-22 needed)
    regenerate(RECORDED, COMMAND, clang_cases())
