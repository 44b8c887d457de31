"""`--emit probe` on gfx1250's SWMMACs: both readings of the sparse index.

The calculator's reading and rocjitsu's (the calculator's index with lane i's bits
[31:16] exchanged with lane i+16's bits [15:0]; 8-bit forms: lane i's second VGPR with
lane i+16's first) give different D on the probe's tiles, and the probe says which one
the hardware follows. Checked without a GPU: in scripts/check_probe.py's lane emulation
with the instruction modelled from the engine's layouts, once as the calculator reads
it and once as rocjitsu does (its A' and B, the alternatives -d names, beside the
calculator's index: what rocjitsu's recorded answers pass), the probe names each
reading for every variant of every SWMMAC under either index key (rocjitsu's
read_swmmac_index_set defines key 1: the upper half of the operand as the lane's first
entries, the later ones read as 0), the 8-bit K=128 forms (issued by inline assembly)
included. Where clang-22 is installed the device code compiles to an
object (the assembler takes the inline assembly) with every kernel issuing its
instruction, operand widths and modifiers as asked."""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import matrix_calculator as mc
from formats.hip import probe as probe_code
from layouts import gfx1250 as engine
from tests.helpers import call, missing

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import check_probe

SWMMACS = [inst for inst in mc.instructions("gfx1250") if inst.sparse]
EIGHT_BIT = [inst for inst in SWMMACS if inst.k == 128]
CLANG = shutil.which("clang-22")


def exchanged(lane, bit, operand_bits):
    """rocjitsu's reading: lane i's upper operand half exchanged with lane i+16's lower."""
    half = operand_bits // 2
    if lane < 16 and bit >= half:
        return lane + 16, bit - half
    if lane >= 16 and bit < half:
        return lane - 16, bit + half
    return lane, bit


@pytest.mark.parametrize("inst", SWMMACS, ids=lambda i: i.mnemonic)
def test_the_other_reading_is_the_exchanged_index(inst):
    (name, what, layout), = engine.index_readings(inst, mc.modifiers({}))
    assert name == "rocjitsu's" and "[31:16]" in what
    ours = mc.operand(inst, "K", wave=32)
    width = engine.index_bits(inst.k)
    moved = 0
    for i in range(16):
        for group in range(inst.k // 4):
            (p,), (q,) = ours.places(i, 4 * group), layout.places(i, 4 * group)
            assert (q.lane, 32 * q.reg + q.lo) == exchanged(p.lane, 32 * p.reg + p.lo, width)
            moved += (q.lane, q.reg, q.lo) != (p.lane, p.reg, p.lo)
    assert moved == 16 * inst.k // 8  # half of every row's fields change lanes


@pytest.mark.parametrize("inst", SWMMACS, ids=lambda i: i.mnemonic)
def test_under_index_key_1_the_other_reading_is_the_exchanged_index_moved_up(inst):
    """Each row's first quarter of groups sits in lane i's upper half in both readings;
    the second quarter reads lane i+16's upper half in rocjitsu's and 0 (past the operand)
    in the calculator's, the third the other way round; the last reads 0 in both."""
    key1 = mc.modifiers({"index_key": 1})
    (name, _, layout), = engine.index_readings(inst, key1)
    ours = mc.operand(inst, "K", mods=key1, wave=32)
    width = engine.index_bits(inst.k)
    quarter = inst.k // 16
    for i in range(16):
        for group in range(inst.k // 4):
            (p,), (q,) = ours.places(i, 4 * group), layout.places(i, 4 * group)
            mine, theirs = ((x.lane, 32 * x.reg + x.lo) for x in (p, q))
            side = [None if bit >= width else (lane, bit) for lane, bit in (mine, theirs)]
            at = width // 2 + 4 * (group % quarter)
            assert side == {0: [(i, at), (i, at)], 1: [None, (i + 16, at)],
                            2: [(i + 16, at), None], 3: [None, None]}[group // quarter]


@pytest.mark.parametrize("inst", SWMMACS, ids=lambda i: i.mnemonic)
def test_every_swmmac_variant_of_index_key_0_carries_the_other_reading(inst):
    variants = probe_code.variants(inst, 32)
    assert variants and variants[0].mods.index_key == 0
    groups = inst.k // 4
    keys = set()
    for variant in variants:
        keys.add(variant.mods.index_key)
        (name, _, k_from), = variant.readings
        past = probe_code.index_past(variant)
        if variant.mods.index_key:
            # rows keep their groups; a quarter of them read as 0 in each reading
            # (-1) and a quarter of the calculator's lie past the operand
            assert all(e < 0 or e // groups == n // groups for n, e in enumerate(k_from))
            assert k_from.count(-1) == 16 * groups // 2 and len(past) == 16 * groups // 2
            assert sum(0 <= e != n for n, e in enumerate(k_from)) == 16 * groups // 4
            continue
        assert past == []
        # a permutation of the index tile that keeps each row and moves half its groups
        assert sorted(k_from) == list(range(16 * groups))
        assert all(e // groups == n // groups for n, e in enumerate(k_from))
        assert sum(e != n for n, e in enumerate(k_from)) == 16 * groups // 2
    assert keys == {0, 1}
    assert all(v.asm for v in variants) == (inst.k == 128)


def test_the_probe_of_gfx1250_runs_every_swmmac_and_says_so():
    status, out, err = call(["-a", "gfx1250", "--emit", "probe"])
    assert (status, err) == (0, "")
    head = out.split("#ifndef MC_EMULATION")[0]
    assert "rocjitsu's (lane i's index bits [31:16] exchanged" in head
    for inst in EIGHT_BIT:
        assert inst.mnemonic in head.split("Issued by inline assembly")[1].splitlines()[0]
    assert not any(inst.mnemonic in head.split("Not probed")[-1] for inst in SWMMACS
                   if "Not probed" in head)
    fp8 = re.search(r'asm volatile\("(.*?)" : "\+v"\(dv\) : "v"\(a\), "v"\(b\), "v"\(k\)\);',
                    out)
    assert fp8 is not None and "v_swmmac_" in fp8.group(1)
    keyed = [line for line in out.splitlines()
             if "asm volatile" in line and "v_swmmac_f32_16x16x128_fp8_fp8" in line]
    assert len(keyed) == 2 and "index_key:1" in keyed[1] and "index_key" not in keyed[0]
    assert "long k; __builtin_memcpy(&k, kw, sizeof k);" in out  # the 64-bit index


def test_the_bf16f32_probe_passes_the_tied_f32_c_and_reads_d_from_its_first_vgprs():
    """clang-22's builtin takes and returns the tied C/D as 8 floats (8 VGPRs, as llvm-mc
    writes vdst); D's bf16 is packed into the first 4 of them."""
    inst = mc.find_instruction("gfx1250", "v_swmmac_bf16f32_16x16x64_bf16")
    variant = probe_code.variants(inst, 32)[0]
    ops = probe_code.operands(variant)
    (c_frag, c_type), (d_frag, d_type) = ops["C"], ops["D"]
    assert (d_type.element, d_type.length) == ("__bf16", 8)
    assert (c_type.element, c_type.length, c_frag.registers) == ("float", 8, 8)
    assert (d_frag.registers, probe_code.tile_format(variant, "C"),
            probe_code.tile_format(variant, "D")) == (4, "F32", "BF16")
    assert mc.facts(inst)["fields"]["32"]["vdst"] == c_frag.registers
    code, init = probe_code.variant_code(variant, 0)
    assert "mc_f32x8 c; __builtin_memcpy(&c, cw, sizeof c);" in code
    assert "mc_f32x8 dv = __builtin_amdgcn_swmmac_bf16f32_16x16x64_bf16(" in code
    assert "__builtin_memcpy(dw, &dv, 16);" in code and "unsigned int cw[8]" in code
    assert "mc_p0_c_gather(c, lane, cw);" in code and "{MC_F32, 16, 16, 1}" in init
    # the other SWMMACs load C as their D (the same register, the same type)
    same = mc.find_instruction("gfx1250", "v_swmmac_f32_16x16x64_bf16")
    assert probe_code.source_matrix(same, "C") == "D"


def need_gcc():
    if shutil.which("gcc") is None:
        missing("gcc is not installed (the lane emulation compiles with it)")


@pytest.mark.parametrize("reading, says", [
    (None, "(index: hardware follows the calculator's reading)"),
    ("rocjitsu", ": index: hardware follows rocjitsu's reading, not the calculator's")])
def test_the_emulation_tells_each_reading(reading, says):
    need_gcc()
    lines = check_probe.emulate(SWMMACS, 32, reading)
    variants = [v for inst in SWMMACS for v in probe_code.variants(inst, 32)]
    told = [v.label for v in variants if v.readings]
    assert len(told) == len(variants) == 2 * len(SWMMACS) + 3 * 6  # both keys; 3 of 6
    for label in told:
        prefix = ("PASS " if reading is None else "FAIL ") + label
        found = [ln for ln in lines if ln.startswith((prefix + " (", prefix + ":"))]
        assert len(found) == 1 and says in found[0]
    assert sum(says in line for line in lines) == len(told)
    assert not any("neither" in line or "give one D" in line for line in lines)
    if reading is None:
        assert lines[-1] == f"{len(variants)} of {len(variants)} variants pass"


@pytest.mark.external
def test_clang_compiles_the_swmmac_probe_with_its_inline_assembly():
    if CLANG is None:
        missing("clang-22 is not installed (bash tests/install_hip.sh)")
    assert check_probe.clang_check(SWMMACS, 32, CLANG, False) == 0
    text = probe_code.probe(SWMMACS, 32)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.hip"
        path.write_text(text)
        done = subprocess.run([CLANG, "-x", "hip", "--cuda-device-only", "-nogpulib",
                               "-nogpuinc", "-DMC_DEVICE_ONLY", "--offload-arch=gfx1250",
                               "-O1", "-c", "-o", str(Path(folder) / "probe.o"), str(path)],
                              capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[:2000]
