"""--emit hip of copy plans: clang-22 compiles each sample's copy and read to
exactly the planned instructions (recorded in tests/data/lds_copy_clang.json by
scripts/record_lds_copy.py; compared live where clang-22 is installed), and gcc runs the
emitted copy then the emitted read lane by lane: every lane ends with exactly its
fragment (each slot holds the global bytes of its element)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from formats.hip.copies import emit_copy, name_of
from formats.hip.lds import _name as read_name
from instructions import TARGETS
from matrix_library import api as mc
from tests.helpers import missing

sys.path.insert(0, str(Path(__file__).parents[2] / "scripts"))  # (the scripts' records)

from record_lds_copy import clang_counts

CASES = [  # (arch, instruction, matrix, options)
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
     {"tile": "16x128", "mods": {"cbsz": 4}, "lds_type": "bf16",
      "copy": "buffer_load_dwordx4", "load": "ds_read_b128"}),
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
     {"tile": "16x128", "mods": {"cbsz": 4}, "lds_type": "bf16",
      "copy": "buffer_load_dwordx4", "load": "ds_read_b128", "swizzle": "xor:4^8,5^9,7^10"}),
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
     {"tile": "16x128", "mods": {"cbsz": 4}, "lds_type": "bf16",
      "copy": "global_load_lds_dwordx4", "load": "ds_read_b128", "swizzle": "8,1,8",
      "ld": 4096}),
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "B",
     {"tile": "16x128", "mods": {"blgp": 4}, "copy": "buffer_load_dword"}),
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
     {"tile": "16x128", "mods": {"cbsz": 4}, "copy": "global_load_dwordx4+ds_write_b64",
      "swizzle": "xor:4^6"}),
    ("cdna4", "v_mfma_f32_16x16x32_f16", "A",
     {"tile": "16x64", "copy": "global_load_dwordx4", "load": "ds_read_b128",
      "swizzle": "8,2,8", "waves": 2, "wave_split": "interleave"}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A",
     {"tile": "16x64", "copy": "global_load_dwordx4+ds_write_b128", "load": "ds_read_b64"}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A",
     {"tile": "16x64", "copy": "global_load_dwordx4+ds_write_b64", "load": "ds_read_b64",
      "swizzle": "4,1,16", "ld": 256}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A",
     {"tile": "16x64", "copy": "global_load_dwordx2", "load": "ds_read_b64", "pad": 4,
      "waves": 2}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "B",
     {"tile": "16x64", "copy": "buffer_load_dword", "load": "ds_read_b64", "pad": 4}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "B",
     {"tile": "16x64", "copy": "global_load_lds_dword", "load": "ds_read_b64",
      "swizzle": "xor:3^7,4^8,5^9"}),
    ("cdna3", "v_mfma_f32_32x32x8_f16", "A",
     {"tile": "32x64", "copy": "buffer_load_dwordx4+ds_write_b64", "load": "ds_read_b64",
      "swizzle": "4,1,16", "ld": 1024}),
    ("cdna2", "v_mfma_f32_16x16x16f16", "A",
     {"tile": "16x64", "copy": "buffer_load_dword", "load": "ds_read_b64"}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "A",
     {"tile": "16x32", "copy": "global_load_async_to_lds_b128", "load": "ds_load_b128",
      "swizzle": "8,1,4"}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "B",
     {"tile": "16x32", "copy": "global_load_b64", "load": "ds_load_b128", "pad": 8,
      "waves": 2}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "A",
     {"tile": "16x32", "copy": "tensor_load_to_lds", "load": "ds_load_b128", "pad": 8,
      "waves": 2}),
    ("cdna1", "v_mfma_f32_16x16x16f16", "A",
     {"tile": "16x64", "copy": "global_load_dword_lds", "load": "ds_read_b64", "pad": 4}),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "B",
     {"tile": "16x16", "copy": "global_load_b64", "swizzle": "xor:3^6"}),
    ("gfx1251", "v_wmma_f32_16x16x32_f16", "B",
     {"tile": "16x32", "copy": "global_load_async_to_lds_b64", "swizzle": "xor:4^7"}),
    ("rdna4", "v_wmma_f32_16x16x16_f16", "A",
     {"tile": "16x16", "copy": "global_load_b128"}),
]
RECORDED = Path(__file__).parents[1] / "data" / "lds_copy_clang.json"
COMMAND = "python3 scripts/record_lds_copy.py clang > tests/data/lds_copy_clang.json"

KERNEL = """
extern "C" __global__ void k(const unsigned char* g, unsigned int* dst) {
    __shared__ __attribute__((aligned(16))) unsigned char tile[%(lbytes)d];
    const unsigned int lane = __builtin_amdgcn_workitem_id_x() %% %(wave)du;
    %(copy)s_copy(g, tile, lane, __builtin_amdgcn_workitem_id_x() / %(wave)du);
    %(copy)s_wait();
    unsigned int out[%(regs)d];
    %(read)s_load(tile, lane, out);
    for (int r = 0; r < %(regs)d; ++r) dst[lane * %(regs)d + r] = out[r];
}
"""
HARNESS = """
#include <stdio.h>
#include <string.h>
static unsigned char G[%(gbytes)d] __attribute__((aligned(16)));
static unsigned char L[%(lbytes)d] __attribute__((aligned(16)));
int main(void) {
    for (int p = 0; p < %(gbytes)d; ++p) G[p] = (unsigned char)(p * 7 + (p >> 8) * 31 + 3);
    memset(L, 0xee, sizeof L);
    for (unsigned int w = 0; w < %(waves)du; ++w)
        for (unsigned int lane = 0; lane < %(wave)du; ++lane) %(copy)s_copy(G, L, lane, w);
    for (unsigned int lane = 0; lane < %(wave)du; ++lane) {
        unsigned int out[%(regs)d] = {0};
        %(read)s_load(L, lane, out);
        for (int r = 0; r < %(regs)d; ++r) printf("%%u %%d %%u\\n", lane, r, out[r]);
    }
    return 0;
}
"""


def solve(case: tuple[str, str, str, dict[str, object]]) -> mc.LdsCopy:
    arch, name, matrix, options = case
    return mc.lds_copy(mc.find_instruction(arch, name), matrix, **options)  # type: ignore[arg-type]


def _registers(found: mc.LdsCopy) -> int:
    regs = max(s.register for s in found.read.slots) + 1
    return regs + regs % 2


def probe_kernel(found: mc.LdsCopy) -> str:
    read = found.read
    return emit_copy(found) + KERNEL % {
        "lbytes": read.tile.base + read.lds_bytes, "wave": read.wave,
        "regs": _registers(found), "copy": name_of(found), "read": read_name(read)}


def _single(name: str) -> tuple[str, int]:
    """A merged DS pair (ds_write2_b64, ds_store_2addr_b64, ds_read2st64_b32, ...) as the
    single instruction it merges, twice."""
    merged = re.sub(r"^(ds_(?:read|write))2(?:st64)?_", r"\1_", name)
    merged = re.sub(r"^(ds_(?:load|store))_2addr(?:_stride64)?_", r"\1_", merged)
    return merged, 2 if merged != name else 1


def _expected(found: mc.LdsCopy) -> dict[str, int]:
    counts = dict(found.copy.per_wave())
    for load in found.read.loads:
        counts[load.instruction] = counts.get(load.instruction, 0) + 1
    return counts


def _compiled(names: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for name in names:
        single, times = _single(name)
        counts[single] = counts.get(single, 0) + times
    return counts


def test_recorded_clang_compiles_the_planned_instructions():
    """Each recorded case replanned: clang-22's copy and read instructions (merged DS
    pairs counted as their two) are the plan's, instruction for instruction."""
    data = json.loads(RECORDED.read_text())
    assert data["command"] == COMMAND
    assert [tuple(c["case"]) for c in data["cases"]] == [
        (a, n, m, o) for a, n, m, o in CASES]
    for case, recorded in zip(CASES, data["cases"]):
        found = solve(case)
        assert _compiled(recorded["clang"]) == _expected(found), case


@pytest.mark.external
def test_clang_live():
    """Where clang-22 is installed: the record is what it answers today."""
    if not shutil.which("clang-22"):
        missing("clang-22 is not installed")
    data = json.loads(RECORDED.read_text())
    for case, recorded in list(zip(CASES, data["cases"]))[::3]:
        found = solve(case)
        assert clang_counts(probe_kernel(found), TARGETS[found.architecture]) == \
            recorded["clang"], case


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]['copy']}")
def test_gcc_emulation_copy_then_read(tmp_path, case):
    """gcc runs the emitted copy for every wave and lane, then the emitted read: every
    slot of every lane holds the global bytes of the element the layout engine puts
    there."""
    if not shutil.which("gcc"):
        missing("gcc is not installed")
    found = solve(case)
    copy, read = found.copy, found.read
    regs = _registers(found)
    gbytes = max(lane.global_at + lane.bytes for s in copy.steps for lane in s.lanes
                 if lane.global_at is not None) + 64
    source = tmp_path / "copy.c"
    source.write_text(emit_copy(found) + HARNESS % {
        "gbytes": gbytes, "lbytes": read.tile.base + read.lds_bytes + 64,
        "waves": copy.waves, "wave": read.wave, "regs": regs, "copy": name_of(found),
        "read": read_name(read)})
    subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-o", str(tmp_path / "copy"),
                    str(source)], check=True)
    run = subprocess.run([str(tmp_path / "copy")], capture_output=True, text=True, check=True)
    words = {}
    for line in run.stdout.split("\n"):
        if line:
            lane, register, word = map(int, line.split())
            words[lane, register] = word
    glob, bits = copy.glob, read.element_bits
    for slot in read.slots:
        at = glob.offset(read.tile, *slot.tile_at) * bits  # (a bit address: fp4 tiles too)
        word = sum(((p * 7 + (p >> 8) * 31 + 3) & 255) << (8 * b)
                   for b, p in enumerate(range(at // 8, at // 8 + 4)))
        expected = word >> at % 8 & ((1 << bits) - 1)
        got = words[slot.lane, slot.register] >> slot.bits[0] & ((1 << bits) - 1)
        assert got == expected, slot
