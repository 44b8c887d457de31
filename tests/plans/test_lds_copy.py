"""Copy plans into LDS: which architecture has which direct-to-LDS load (the
facts against llvm-mc-22's recorded answers), the MI355X write-up's A tile (read
conflicts 8-way, 2-way, none; the swizzle moved into the global addresses as its kernel
computes them), write phases and coalescing against hand-checked cases (docs/lds_copy.md),
the XOR swizzle, the tensor data mover's descriptor and its refusals, the replay check,
and the command line."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from instructions import TARGETS
from instructions.lds_copy import COPIES
from layouts.core import CalcError
from matrix_library import api as mc
from matrix_plans.lds.copies import Global, check
from tests.helpers import call

DATA = Path(__file__).parents[1] / "data"
sys.path.insert(0, str(Path(__file__).parents[2] / "scripts"))  # (the scripts' probes)

from record_lds_copy import probe

SEED = ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4")
SEED_OPTIONS = {"tile": "16x128", "mods": {"cbsz": 4}, "lds_type": "bf16",
                "copy": "buffer_load_dwordx4", "load": "ds_read_b128"}
SEED_ARGV = ["-a", "gfx950", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-A", "--cbsz", "4",
             "--lds-type", "bf16", "--lds-tile", "16x128", "--copy", "buffer_load_dwordx4",
             "--load", "ds_read_b128"]


def copy(arch, name, matrix="A", **options):
    return mc.lds_copy(mc.find_instruction(arch, name), matrix, **options)


# ---- which architecture has which copy instruction: llvm-mc-22's answers

def _recorded():
    answers = {}
    for line in (DATA / "lds_copy_llvm_mc.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        target, asm, answer = (part.strip() for part in line.split(" | ", 2))
        answers[target, asm] = not answer.startswith("error")
    return answers


def test_copy_facts_agree_with_llvm_mc():
    """Every copy instruction of an architecture assembles for its target, and every
    direct/async/tensor load of another architecture that the facts do not give it is
    refused there (scripts/record_lds_copy.py mc)."""
    answers = _recorded()
    special = {probe(op) for facts in COPIES for op in facts.ops
               if op.route in ("direct", "async", "tdm")}
    for facts in COPIES:
        target = TARGETS[facts.arch]
        mine = {probe(op) for op in facts.ops}
        for asm in mine:
            assert answers[target, asm], (facts.arch, asm)
        for asm in special - mine:
            assert not answers[target, asm], (facts.arch, asm)


def test_direct_widths_per_architecture():
    """The fact sheet's table 1: x3/x4 direct loads on gfx950 only; global_load_lds_dword
    from gfx942; gfx1250's asynchronous loads have no b96; RDNA has no direct load."""
    direct = {f.arch: sorted(op.name for op in f.ops if op.route in ("direct", "async"))
              for f in COPIES}
    assert direct["CDNA3"] == ["buffer_load_dword", "global_load_lds_dword"]
    assert direct["CDNA4"] == ["buffer_load_dword", "buffer_load_dwordx3", "buffer_load_dwordx4",
                               "global_load_lds_dword", "global_load_lds_dwordx3",
                               "global_load_lds_dwordx4"]
    assert direct["CDNA2"] == ["buffer_load_dword", "global_load_dword_lds"]
    assert direct["RDNA3"] == direct["RDNA4"] == []
    assert direct["GFX1250"] == ["global_load_async_to_lds_b128", "global_load_async_to_lds_b32",
                                 "global_load_async_to_lds_b64"]


@pytest.mark.external
@pytest.mark.skipif(not shutil.which("llvm-mc-22"), reason="llvm-mc-22 is not installed")
def test_llvm_mc_live_sample():
    """Where llvm-mc-22 is installed: a sample of the record is what it answers today."""
    answers = _recorded()
    for (target, asm), accepted in list(answers.items())[::23]:
        done = subprocess.run(["llvm-mc-22", "-triple=amdgcn", f"-mcpu={target}",
                               "-show-encoding"], input=asm, capture_output=True, text=True,
                              check=False)
        assert (done.returncode == 0 and "encoding" in done.stdout) == accepted, (target, asm)


# ---- the seed: the MI355X write-up's A tile

def _seed_swizzle(addr):
    """The write-up's swizzle, as its kernel writes it (section 'Resolving bank conflicts
    with swizzling'): bits 4-5 XOR bits 8-9, bit 7 XOR bit 10."""
    return (((addr >> 4) & (0b11 << 4)) | ((addr >> 3) & (0b1 << 7))) ^ addr


@pytest.mark.parametrize("swizzle, worst", [(None, 8), ("xor:4^8,5^9", 2),
                                            ("xor:4^8,5^9,7^10", 1)])
def test_seed_read_conflicts(swizzle, worst):
    found = copy(*SEED, swizzle=swizzle, **SEED_OPTIONS)
    assert found.read.worst == worst
    assert [load.instruction for load in found.read.loads] == ["ds_read_b128"] * 4
    assert found.copy.route == "direct" and found.copy.per_wave() == {"buffer_load_dwordx4": 4}
    assert found.read.element_bits == 16 and found.lds_type == "bf16"


def test_seed_global_addresses_carry_the_swizzle():
    """Direct loads write lane l at M0 + 16 l; each lane fetches the global bytes of what
    the swizzled tile keeps there: its offset is the write-up's swiz(LDS offset), the same
    involution its kernel applies (rows of 128 bf16 = 256 bytes in both)."""
    found = copy(*SEED, swizzle="xor:4^8,5^9,7^10", **SEED_OPTIONS)
    steps = found.copy.steps
    assert [s.m0 for s in steps] == [0, 1024, 2048, 3072]
    for step in steps:
        for lane in step.lanes:
            assert lane.lds_at == step.m0 + 16 * lane.lane
            assert lane.global_at == _seed_swizzle(lane.lds_at)
    assert steps[0].lanes[16].global_at == 272 and steps[0].lanes[32].global_at == 544
    # coalescing is kept: each instruction reads 4 whole rows of 256 bytes
    assert found.copy.coalescing(128) == (128, 32, 4096)
    assert found.copy.worst_write == 1


def test_seed_cli():
    status, out, err = call(SEED_ARGV + ["--lds-swizzle", "xor:4^8,5^9,7^10"])
    assert (status, err) == (0, "")
    assert "Route: direct to LDS: buffer_load_dwordx4 ... lds" in out
    assert "16: 272->256" in out and "Worst: conflict-free" in out
    status, out, _ = call(SEED_ARGV)
    assert "Worst: 8-way" in out
    status, out, _ = call(SEED_ARGV + ["--lds-swizzle", "xor:4^8,5^9"])
    assert "Worst: 2-way" in out


def test_swizzle_breaking_contiguity_is_refused():
    """A swizzle that moves pieces smaller than a direct load's 16 bytes cannot be moved
    into the global addresses: refused with the reason."""
    with pytest.raises(CalcError, match="not contiguous in global memory"):
        copy(*SEED, swizzle="xor:3^8", **{**SEED_OPTIONS, "load": "ds_read_b64"})
    with pytest.raises(CalcError, match="skips LDS bytes 12-15"):
        copy(*SEED, **{**SEED_OPTIONS, "copy": "buffer_load_dwordx3"})


# ---- write phases and coalescing: hand-checked cases (docs/lds_copy.md section 6)

def test_cdna3_f16_register_route():
    """gfx942 f16 16x64 tile (rows of 128 bytes), global_load_dwordx4 + ds_write_b128: each
    instruction reads 1024 contiguous bytes (100% of 16 segments of 64 bytes), and each
    8-lane write phase (L12, L14) writes 128 consecutive bytes: conflict-free."""
    found = copy("cdna3", "v_mfma_f32_16x16x16_f16", tile="16x64",
                 copy="global_load_dwordx4+ds_write_b128", load="ds_read_b64", ld=4096)
    assert found.copy.route == "register"
    assert found.copy.per_wave() == {"global_load_dwordx4": 2, "ds_write_b128": 2}
    assert found.copy.coalescing(64) == (64, 32, 2048)
    assert found.copy.coalescing(128) == (128, 16, 2048)
    writes = [s for s in found.copy.steps if s.route == "write"]
    assert [len(s.phases) for s in writes] == [8, 8]
    assert [p.lanes for p in writes[0].phases][:2] == [tuple(range(8)), tuple(range(8, 16))]
    assert found.copy.worst_write == 1
    assert found.read.worst == 16  # (the read side: fact sheet C.2 g)


def test_write_conflicts_of_a_transposing_copy():
    """gfx942 f32 B tile 16x32 (N rows of 32 K = 128 bytes) from a row-major B (N
    contiguous, ld 16): lane l writes element (k = l / 16, n = l % 16) at n x 128 + 4k,
    bank k: 16 lanes of a 32-lane b32 phase on one bank = 16-way. One element of padding
    per row puts lane l on bank (n + k) % 32: lanes (n, k) = (1, 0) and (0, 1) share bank 1,
    2-way; two elements, bank (2n + k) % 32: conflict-free."""
    base = {"tile": "16x32", "copy": "global_load_dword", "global_order": "row",
            "load": "ds_read_b32"}
    found = copy("cdna3", "v_mfma_f32_16x16x4_f32", "B", **base)
    assert found.copy.worst_write == 16
    assert found.copy.coalescing(64).efficiency == 1.0
    assert copy("cdna3", "v_mfma_f32_16x16x4_f32", "B", pad=1, **base).copy.worst_write == 2
    assert copy("cdna3", "v_mfma_f32_16x16x4_f32", "B", pad=2, **base).copy.worst_write == 1


def test_gfx950_write_model_is_the_measured_b64():
    """gfx950 ds_write_b64: contiguous 16-lane phases (HipKittens' measurement, L15)."""
    found = copy("cdna4", "v_mfma_f32_16x16x32_f16", tile="16x64",
                 copy="global_load_dwordx2", load="ds_read_b128")
    write = next(s for s in found.copy.steps if s.route == "write")
    assert [p.lanes for p in write.phases] == [tuple(range(i, i + 16)) for i in (0, 16, 32, 48)]
    assert not found.copy.write_model.assumed


def test_uncoalesced_global_tile():
    """A tile read from a matrix whose rows are far apart (ld 4096) by 4-byte loads of a
    column-major global tile: each lane's 4 bytes sit in their own 64-byte segment."""
    found = copy("cdna3", "v_mfma_f32_16x16x4_f32", "B", tile="16x32",
                 copy="global_load_dword", global_order="row", ld=4096, load="ds_read_b32")
    c64 = found.copy.coalescing(64)
    assert c64.touched == 16 * 32 // 16 and c64.used == 16 * 32 * 4  # 32 K rows x 64 bytes


def test_waves_split_the_tile():
    found = copy("cdna3", "v_mfma_f32_16x16x16_f16", tile="16x64", copy="global_load_dwordx4",
                 load="ds_read_b64", waves=2, wave_split="interleave")
    assert [(s.wave, s.number) for s in found.copy.steps if s.route == "load"] == \
        [(0, 0), (1, 0)]
    assert found.copy.per_wave() == {"global_load_dwordx4": 1, "ds_write_b128": 1}


def test_replay_catches_a_wrong_lane():
    """The replay can fail: one lane's global offset moved by an element."""
    found = copy(*SEED, swizzle="xor:4^8,5^9", **SEED_OPTIONS)
    glob = Global("row", 128, 1)
    assert check(found.copy, found.read.tile, glob) == []
    step = found.copy.steps[1]
    lanes = list(step.lanes)
    lanes[5] = lanes[5]._replace(global_at=lanes[5].global_at + 2)
    broken = found.copy._replace(steps=(found.copy.steps[0], step._replace(lanes=tuple(lanes)),
                                        *found.copy.steps[2:]))
    assert check(broken, found.read.tile, glob)


# ---- the XOR swizzle on the read side

def test_xor_swizzle_reads():
    """xor:4^8,5^9,7^10 is the seed's; bits inside an element or across rows are refused."""
    found = mc.lds_plan(mc.find_instruction(*SEED), "A", tile="16x128", mods={"cbsz": 4},
                        lds_type="bf16", load="ds_read_b128", swizzle="xor:4^8,5^9,7^10")
    assert found.worst == 1 and found.tile.xor == ((4, 8), (5, 9), (7, 10))
    for bad, match in (("xor:0^8", "inside a 16-bit element"), ("xor:8^4", "across rows"),
                       ("xor:4^8,8^9", "changed and read"), ("xor:4-8", "xor:DST\\^SRC")):
        with pytest.raises(CalcError, match=match):
            mc.lds_plan(mc.find_instruction(*SEED), "A", tile="16x128", mods={"cbsz": 4},
                        lds_type="bf16", load="ds_read_b128", swizzle=bad)


# ---- gfx1250's tensor data mover

GFX1250 = ("gfx1250", "v_wmma_f32_16x16x32_f16")


def test_tdm_descriptor_encoding():
    """A 16x32 f16 tile padded 8 elements per row: pad interval 16 dwords (one 64-byte
    row) and amount 4 dwords, encoded log2(16) - 1 = 3 and 4 - 1 = 3 (Triton, CK)."""
    found = copy(*GFX1250, tile="16x32", copy="tensor_load_to_lds", load="ds_load_b128",
                 tdm_pad_interval=16, tdm_pad_amount=4, pad=8)
    fields = {f.name: f for f in found.tdm.fields}
    assert (fields["pad_interval"].encoded, fields["pad_amount"].encoded) == (3, 3)
    assert fields["data_size"].encoded == 1
    assert found.tdm.group1[0] == 1 << 16 | 1 << 20 | 3 << 22 | 3 << 25
    assert found.tdm.group1[3] >> 16 == 32 and found.tdm.group1[4] & 0xFFFF == 16
    assert found.read.worst == 1 and found.copy.route == "tdm"
    # the same padding derived from --lds-pad alone
    derived = copy(*GFX1250, tile="16x32", copy="tensor_load_to_lds", load="ds_load_b128", pad=8)
    assert derived.tdm.group1 == found.tdm.group1


@pytest.mark.parametrize("interval, amount, match", [
    (12, 4, "pad interval 12 dwords is not encodable.*2 to 256 dwords"),
    (512, 4, "pad interval 512 dwords"),
    (16, 0, "pad amount 0 dwords is not encodable.*1 to 128 dwords"),
    (16, 200, "pad amount 200 dwords"),
])
def test_tdm_illegal_pad_is_refused_with_the_range(interval, amount, match):
    with pytest.raises(CalcError, match=match):
        copy(*GFX1250, tile="16x32", copy="tensor_load_to_lds", load="ds_load_b128",
             tdm_pad_interval=interval, tdm_pad_amount=amount)


def test_tdm_pad_that_is_not_the_tile_is_refused():
    with pytest.raises(CalcError, match="give --lds-pad 8"):
        copy(*GFX1250, tile="16x32", copy="tensor_load_to_lds", load="ds_load_b128",
             tdm_pad_interval=16, tdm_pad_amount=4)
    with pytest.raises(CalcError, match="does not swizzle"):
        copy(*GFX1250, tile="16x32", copy="tensor_load_to_lds", swizzle="8,1,4")


def test_tdm_cli_refusal_is_one_line():
    argv = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-A", "--lds-tile", "16x32",
            "--copy", "tensor_load_to_lds", "--tdm-pad-interval", "12", "--tdm-pad-amount", "4"]
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "pad interval 12 dwords" in err and "2 to 256 dwords" in err


# ---- the command line

@pytest.mark.parametrize("extra, message", [
    (["--copy", "buffer_load_dwordx9"], "has no copy instruction 'buffer_load_dwordx9'"),
    (["--copy", "global_load_dwordx4+ds_write_b512"], "has no LDS write"),
    (["--copy", "buffer_load_dwordx4", "--global-order", "diagonal"], "row or col"),
    (["--copy", "buffer_load_dwordx4", "--wave-split", "zigzag"], "block or interleave"),
    (["--copy", "buffer_load_dwordx4", "--ld", "16"], "less than the tile's 128"),
    (["--global-order", "row"], "give --copy"),
    (["--copy", "buffer_load_dwordx4", "--lds-type", "bf17"], "names a data type"),
])
def test_cli_errors(extra, message):
    argv = [a for a in SEED_ARGV if a not in ("--copy", "buffer_load_dwordx4")]
    status, out, err = call(argv + extra)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1, err


def test_json_document():
    status, out, _ = call(SEED_ARGV + ["--lds-swizzle", "xor:4^8,5^9,7^10", "--json"])
    doc = json.loads(out)
    assert doc["mode"] == "lds_copy" and doc["copy"]["route"] == "direct"
    assert doc["read"]["worst"] == 1 and doc["read"]["tile"]["xor"] == [[4, 8], [5, 9], [7, 10]]
    lanes = doc["copy"]["steps"][0]["lanes"]
    assert lanes[16] == {"lane": 16, "global": 272, "lds": 256, "bytes": 16}
    assert doc["copy"]["coalescing"]["efficiency_128"] == 1.0 and doc["copy"]["checked"]


def test_emit_hip_cli():
    status, out, err = call(SEED_ARGV + ["--lds-swizzle", "xor:4^8,5^9,7^10", "--emit", "hip"])
    assert (status, err) == (0, "")
    assert "__builtin_amdgcn_raw_ptr_buffer_load_lds" in out and "_copy(" in out
    assert "a ^= ((a >> 10u) & 1u) << 7u;" in out


# ---- the search and the picture

def test_search_ranks_reads_writes_coalescing_and_bytes():
    """gfx942 16x16x16 f16 A (ds_read_b64) copied with global_load_dwordx4 + ds_write_b64:
    unswizzled, reads 16-way and writes 2-way (lanes l and l + 8 of a 16-lane b64 phase
    write 128 bytes apart); Triton's 4,1,16 is conflict-free both ways and ranks first
    (fewest bytes); CK's 8,1,8 keeps 2-way reads (fact sheet C.2 i)."""
    found = mc.lds_copy_search(mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16"), "A",
                               tile="16x64", copy="global_load_dwordx4+ds_write_b64",
                               load="ds_read_b64")
    assert (found.given.read_worst, found.given.write_worst) == (16, 2)
    assert (found.triton.swizzle, found.triton.read_worst, found.triton.write_worst) == \
        ("4,1,16", 1, 1)
    assert found.ck.read_worst == 2
    best = found.ranked[0]
    assert (best.swizzle, best.read_worst, best.write_worst, best.coalescing) == \
        ("4,1,16", 1, 1, 1.0)
    assert [c.rank for c in found.ranked] == sorted(c.rank for c in found.ranked)


def test_svg_colours_the_writing_lanes():
    status, out, _ = call(SEED_ARGV + ["--lds-swizzle", "xor:4^8,5^9,7^10", "--format", "svg"])
    assert status == 0 and out.startswith("<svg")
    assert out.count("<rect") == 16 * 64  # 16 rows of 64 dwords
    assert "dword 64, bank 0: wave 0 instruction 0 lane 16 (global byte 272)" in out
