"""CDNA4 (gfx950, MI350X/MI355X), checked against the sources the support was built from.

1. Every fact E01-E64 of ../shared/facts/cdna4_examples.txt (literal data in
   cdna4_facts.py), one test each. Facts about something the calculator does not model
   (an encoding, an assembler message, a number format's largest value) are asserted
   through the nearest thing it does model; the comment of each such check says which.
2. The HIP kernels of seed 000 (AMD ROCm blog, "Matrix Core Programming on CDNA3 and
   CDNA4") and the MI355X mxfp4 kernel of seed 003: their load/store index arithmetic is
   re-computed here and compared with Operand.places for every element.
3. Round trip and bit coverage of every f8f6f4 format pair and of the scale operands
   under every OPSEL.
4. The command line: aliases, -L, -d, the fp6 straddle notation, scale queries, errors.
5. The printed (-d) formulas of all 68 instructions, every format pair and every OPSEL,
   evaluated against the engine (CDNA4 has no known-defect exceptions).
"""
import os
import re
import subprocess
import sys
from collections import defaultdict
from functools import cache

import pytest
from cdna4_facts import (
    ENCODINGS,
    F8F6F4,
    F8F6F4_REGISTERS,
    FACT_IDS,
    FORMATS,
    LD_SCALE_OPCODE,
    OPCODES,
    PLACE_FACTS,
    S16,
    S32,
    SPARSE_FACTS,
    U16,
    U32,
)
from conftest import REPO, absent_reason, missing, shared_text
from test_formulas import (
    AXES,
    backward_label,
    compile_formula,
    compile_gpr,
    compile_values,
    forward_label,
    span,
)

from instructions import find_architecture
from instructions.model import F8F6F4_FORMATS
from layouts import Modifiers, Operand
from layouts.formulas_cdna import sections

CDNA4 = find_architecture("cdna4")
CDNA3 = find_architecture("cdna3")
PAIRS = [(a, b) for a in range(5) for b in range(5)]


def inst_of(name, cbsz=0, blgp=0):
    """The CDNA4 instruction; an f8f6f4 one with the formats CBSZ and BLGP select."""
    inst = CDNA4.find(name)
    assert inst is not None, name
    return inst.with_formats(cbsz, blgp) if inst.f8f6f4 else inst


@cache
def operand(name, matrix, cbsz=0, blgp=0, abid=0, opsel_a=0, opsel_b=0):
    mods = Modifiers(cbsz=cbsz, abid=abid, blgp=blgp, opsel_a=opsel_a, opsel_b=opsel_b)
    return Operand(inst_of(name, cbsz, blgp), matrix, mods)


def where(op, elem):
    """The one place of an element as (first VGPR, lane, low bit, high bit)."""
    places = op.places(*elem)
    assert len(places) == 1, (elem, places)
    p = places[0]
    return (p.reg, p.lane, p.lo, p.hi)


def body(out):
    """Output lines after the Architecture/Instruction header."""
    lines = out.splitlines()
    assert lines[0].startswith("Architecture: ") and lines[1].startswith("Instruction: ")
    return lines[2:]


def detail(run, name, cbsz=0, blgp=0, arch="cdna4"):
    args = ["-a", arch, "-i", name, "-d"]
    if CDNA4.find(name) is not None and CDNA4.find(name).f8f6f4:
        args += ["--cbsz", str(cbsz), "--blgp", str(blgp)]
    rc, out, err = run(args)
    assert rc == 0 and err == "", err
    return [line.strip() for line in body(out)]


def detail_value(lines, key):
    found = [line.split(": ", 1)[1] for line in lines if line.startswith(key + ": ")]
    assert len(found) == 1, (key, found)
    return found[0]


def fails(run, args):
    """A rejected command line: status 2, one line on stderr, nothing on stdout."""
    rc, out, err = run(args)
    assert (rc, out) == (2, ""), (args, rc, out)
    assert len(err.splitlines()) == 1 and err.startswith("matrix_calculator.py: error: "), err
    return err


# ---- encodings (the calculator prints opcodes, not encodings: decoded here to compare) ---

def words(data):
    """A VOP3P / VOP3P-MAI dword pair given as little-endian bytes."""
    return (int.from_bytes(bytes(data[0:4]), "little"),
            int.from_bytes(bytes(data[4:8]), "little") if len(data) >= 8 else 0)


def mai_fields(data):
    """Fields of a VOP3P-MAI instruction (CDNA4 ISA, Table 89)."""
    low, high = words(data)
    return {"encoding": low >> 23, "op": (low >> 16) & 0x7F, "cbsz": (low >> 8) & 7,
            "abid": (low >> 11) & 0xF, "acc_cd": (low >> 15) & 1, "blgp": high >> 29}


def scale_opsel(data):
    """(OPSEL_A, OPSEL_B) of a v_mfma_ld_scale_b32 dword pair: 2 * op_sel_hi + op_sel."""
    low, high = words(data)
    op_sel, op_sel_hi = (low >> 11) & 7, (high >> 27) & 3
    return tuple(2 * (op_sel_hi >> n & 1) + (op_sel >> n & 1) for n in (0, 1))


VOP3P = 0x1A7  # the encoding field (bits 31:23) of VOP3P and VOP3P-MAI


def check_opcode_fields(run, fid):
    """The 7-bit opcode field of the fact's encoding is the VOP3P-MAI opcode -d prints."""
    name, data = ENCODINGS[fid]
    fields = mai_fields(data[-8:])
    inst = inst_of(name)
    assert fields["encoding"] == VOP3P
    assert fields["op"] == inst.opcode == inst.mai_opcode == OPCODES[name]
    lines = detail(run, name)
    assert detail_value(lines, "VOP3P Opcode") == f"{OPCODES[name]:#x}"
    assert detail_value(lines, "VOP3P-MAI Opcode") == f"{fields['op']:#x}"
    return fields


# ---- the facts ----------------------------------------------------------------------------

FACT_CHECKS = {}


def fact(*ids):
    def register(check):
        for fid in ids:
            FACT_CHECKS[fid] = check
        return check
    return register


@fact("E01", "E02")
def _opcode_and_encoding(run, fid):
    fields = check_opcode_fields(run, fid)
    assert (fields["cbsz"], fields["abid"], fields["blgp"]) == (0, 0, 0)


@fact("E03")
def _f8f6f4_opcodes(run, fid):
    for name in F8F6F4:
        inst = inst_of(name)
        assert inst.opcode == inst.mai_opcode == OPCODES[name]
        lines = detail(run, name)
        assert detail_value(lines, "VOP3P-MAI Opcode") == f"{OPCODES[name]:#x}"
        scaled = name.startswith("v_mfma_scale_")
        assert inst.encoding == ("VOP3PX" if scaled else "VOP3P-MAI")
        assert detail_value(lines, "Encoding") == inst.encoding
        load = [line for line in lines if line.startswith("Scale load")]
        assert load == ([f"Scale load (v_mfma_ld_scale_b32) VOP3P Opcode: {LD_SCALE_OPCODE:#x}"]
                        if scaled else [])


@fact("E04", "E05")
def _smfmac_opcodes(run, fid):
    names = {"E04": ["v_smfmac_f32_16x16x128_fp8_fp8", "v_smfmac_f32_16x16x128_bf8_bf8",
                     "v_smfmac_f32_16x16x128_bf8_fp8", "v_smfmac_f32_16x16x128_fp8_bf8"],
             "E05": ["v_smfmac_f32_32x32x32_bf16", "v_smfmac_i32_32x32x64_i8"]}[fid]
    for name in names:
        assert inst_of(name).mai_opcode == OPCODES[name]
        assert detail_value(detail(run, name), "VOP3P-MAI Opcode") == f"{OPCODES[name]:#x}"


@fact("E06")
def _no_xf32(run, fid):
    names = {inst.mnemonic for inst in CDNA4.instructions}
    assert len(CDNA4.instructions) == len(names) == 68
    for name in ("v_mfma_f32_16x16x8_xf32", "v_mfma_f32_32x32x4_xf32"):
        assert CDNA3.find(name) is not None and name not in names
        assert "has no instruction" in fails(run, ["-a", "gfx950", "-i", name, "-d"])
    assert not {0x3E, 0x3F} & {inst.opcode for inst in CDNA4.instructions}


def check_cycles(run, name, fp8_cycles):
    """fp8/bf8 on either side: `fp8_cycles`; fp6/bf6/fp4 only: half as many."""
    for a, b in PAIRS:
        want = fp8_cycles if a <= 1 or b <= 1 else fp8_cycles // 2
        assert inst_of(name, a, b).effective_cycles == want, (name, a, b)
        assert detail_value(detail(run, name, a, b), "Execution cycles") == str(want)


@fact("E07")
def _cycles_16x16x128(run, fid):
    for name in (U16, S16):
        check_cycles(run, name, 32)


@fact("E08")
def _cycles_32x32x64(run, fid):
    assert inst_of(U32, 4, 4).effective_cycles == 32
    for name in (U32, S32):
        check_cycles(run, name, 64)


@fact("E09")
def _f64_cycles(run, fid):
    name = "v_mfma_f64_16x16x4_f64"
    assert inst_of(name).cycles == 64 and CDNA3.find(name).cycles == 32
    assert detail_value(detail(run, name), "Execution cycles") == "64"
    assert detail_value(detail(run, name, arch="cdna3"), "Execution cycles") == "32"


@fact("E10")
def _f16_statistics(run, fid):
    name = "v_mfma_f32_16x16x32_f16"
    inst = inst_of(name)
    assert (inst.cycles, inst.flops) == (16, 16384)
    lines = detail(run, name)
    assert detail_value(lines, "FLOPs") == "16384"
    assert detail_value(lines, "Execution cycles") == "16"
    assert detail_value(lines, "FLOPs/CU/cycle") == "4096"


def check_registers(run, name, counts, cbsz=0, blgp=0):
    for matrix, count in counts.items():
        assert operand(name, matrix, cbsz, blgp).register_count == count, (name, matrix)
    lines = detail(run, name, cbsz, blgp)
    for matrix, count in counts.items():
        key = {"SA": "A scale", "SB": "B scale", "K": None}.get(matrix, matrix)
        if key:
            assert detail_value(lines, f"GPRs required for {key}") == str(count), matrix


@fact("E11")
def _registers_32x32x16_f16(run, fid):
    assert inst_of("v_mfma_f32_32x32x16_f16").cycles == 32
    check_registers(run, "v_mfma_f32_32x32x16_f16", {"A": 4, "B": 4, "C": 16, "D": 16})


@fact("E12")
def _registers_16x16x64_i8(run, fid):
    assert inst_of("v_mfma_i32_16x16x64_i8").cycles == 16
    check_registers(run, "v_mfma_i32_16x16x64_i8", {"A": 4, "B": 4, "C": 4, "D": 4})


@fact("E13")
def _registers_by_format(run, fid):
    for a, b in PAIRS:
        check_registers(run, S16, {"A": F8F6F4_REGISTERS[a], "B": F8F6F4_REGISTERS[b],
                                   "C": 4, "D": 4, "SA": 1, "SB": 1}, a, b)


@fact("E14")
def _fp6_needs_six_registers(run, fid):
    # The assembler's "wrong register tuple size for cbsz value 2" (an 8-VGPR A with
    # cbsz:2) is not modelled; what is: fp6 A takes 6 VGPRs, so register 6 does not exist.
    assert operand(U16, "A", 2).register_count == 6
    base = ["-a", "cdna4", "-i", U16, "-m", "-A", "--cbsz", "2", "-l", "0"]
    assert run(base + ["-r", "5"])[0] == 0
    assert "use 0 to 5" in fails(run, base + ["-r", "6"])


@fact("E15")
def _bf8_bf6_encoding(run, fid):
    fields = check_opcode_fields(run, fid)
    assert (fields["cbsz"], fields["blgp"], fields["acc_cd"]) == (1, 3, 1)
    inst = inst_of(U16, fields["cbsz"], fields["blgp"])
    assert (inst.a_type.key, inst.b_type.key) == ("bf8", "bf6")
    # a[4:11] is 8 AccVGPRs, a[4:9] is 6
    assert operand(U16, "A", 1, 3).register_count == 8
    assert operand(U16, "B", 1, 3).register_count == 6
    lines = detail(run, U16, 1, 3)
    assert detail_value(lines, "A matrix format (CBSZ 1)") == "BF8 (E5M2)"
    assert detail_value(lines, "B matrix format (BLGP 3)") == "BF6 (E3M2)"


@fact("E16")
def _smfmac_f16_registers(run, fid):
    name = "v_smfmac_f32_16x16x64_f16"
    fields = check_opcode_fields(run, fid)
    assert (fields["cbsz"], fields["abid"]) == (3, 1)
    check_registers(run, name, {"A": 4, "B": 8, "K": 1, "D": 4})
    rc, out, _ = run(["-a", "cdna4", "-i", name, "-g", "-k", "-I", "2", "-K", "21",
                      "--cbsz", "3", "--abid", "1"])
    assert rc == 0 and body(out) == ["K[2][21] = v0{18}.[7:4]"]  # CBSZ != 0: index set 0


@fact("E17")
def _smfmac_i8_ignores_cbsz(run, fid):
    # The hardware ignores CBSZ/ABID here (one index set per VGPR); the calculator
    # reports them as not supported, and has the single index set.
    name = "v_smfmac_i32_16x16x128_i8"
    inst = inst_of(name)
    assert inst.cycles == 16 and not inst.cbsz
    assert where(operand(name, "K"), (3, 45)) == (0, 19, 12, 15)
    lines = detail(run, name)
    assert detail_value(lines, "CBSZ and ABID bits supported") == "False"
    for option in ("--cbsz", "--abid"):
        fails(run, ["-a", "cdna4", "-i", name, "-g", "-k", "-I", "3", "-K", "45", option, "1"])


@fact("E18")
def _scaled_encoding(run, fid):
    # The MFMA dword of v_mfma_scale_* carries ABID = 1 set by the assembler: not a user
    # choice, so the calculator takes no --abid there; its two opcodes are the ones -d prints.
    _, data = ENCODINGS[fid]
    load, mfma = mai_fields(data[:8]), mai_fields(data[8:])
    assert (load["op"], mfma["op"]) == (LD_SCALE_OPCODE, inst_of(S16).mai_opcode)
    assert (mfma["abid"], mfma["cbsz"], mfma["blgp"]) == (1, 0, 0)
    assert scale_opsel(data[:8]) == (0, 0)
    assert words(data[:8])[1] & 0x1FF == 256 + 24 and (words(data[:8])[1] >> 9) & 0x1FF == 256 + 25
    lines = detail(run, S16)
    assert detail_value(lines, "CBSZ and ABID bits supported") == "False"
    err = fails(run, ["-a", "cdna4", "-i", S16, "-g", "-A", "--abid", "1"])
    assert "does not take ABID" in err


@fact("E19")
def _f64_blgp_negates(run, fid):
    # BLGP of the F64 MFMAs is a negation mask (bit 0: A, bit 1: B, bit 2: C); it moves
    # nothing. CBSZ/ABID are ignored: reported as not supported.
    name = "v_mfma_f64_16x16x4_f64"
    assert not inst_of(name).cbsz
    for blgp in range(8):
        for matrix, bit in (("A", 1), ("B", 2), ("C", 4), ("D", 0)):
            op, plain = operand(name, matrix, blgp=blgp), operand(name, matrix)
            assert op.mark == ("-" if blgp & bit else ""), (blgp, matrix)
            assert all(op.places(*e) == plain.places(*e) for e in plain.elements()), (blgp, matrix)


@fact("E20")
def _flops_32x32x64(run, fid):
    assert inst_of(U32).flops == 131072
    for (a, b), want in (((0, 4), 8192), ((4, 1), 8192), ((2, 4), 16384), ((4, 4), 16384)):
        lines = detail(run, U32, a, b)
        assert detail_value(lines, "FLOPs") == "131072"
        assert detail_value(lines, "FLOPs/CU/cycle") == str(want)


def _place_fact(run, fid):
    name, matrix, elem, mods, want = PLACE_FACTS[fid]
    assert where(operand(name, matrix, **mods), elem + (0,)) == want


for _fid in PLACE_FACTS:
    FACT_CHECKS[_fid] = _place_fact


@fact("E49", "E50")
def _opsel_bytes(run, fid):
    # The assembler's op_sel / op_sel_hi pair is OPSEL = 2 * op_sel_hi + op_sel (-d says so).
    assert "= 2 * op_sel_hi + op_sel" in detail_value(detail(run, S16), "Scale byte")
    cases = {"E49": [("SA", 2, (16, 23))],
             "E50": [("SA", 2 * 1 + 1, (24, 31)), ("SB", 2 * 0 + 0, (0, 7))]}[fid]
    for matrix, opsel, bits in cases:
        mods = {"opsel_a": opsel} if matrix == "SA" else {"opsel_b": opsel}
        assert where(operand(S16, matrix, **mods), (0, 0, 0)) == (0, 0) + bits


@fact("E51")
def _opsel_encoding_bits(run, fid):
    _, data = ENCODINGS[fid]
    assert scale_opsel(data + [0, 0, 0, 0]) == (0, 1)           # op_sel:[0,1,0]
    assert scale_opsel([0, 0, 0xAC, 0xD3, 0, 0, 0, 0x10]) == (0, 2)  # op_sel_hi:[0,1,0]
    assert where(operand(S16, "SB", opsel_b=1), (0, 0, 0)) == (0, 0, 8, 15)
    assert where(operand(S16, "SB", opsel_b=2), (0, 0, 0)) == (0, 0, 16, 23)


@fact("E52")
def _neutral_scale(run, fid):
    # The value of a scale byte is printed by -d (2^(v-127)); every OPSEL byte of 0x7F7F7F7F
    # is 127, i.e. 1.0.
    lines = detail(run, S16)
    assert "2^(v-127)" in detail_value(lines, "Scale Src0")
    assert "127 = 1.0" in " ".join(lines)
    for opsel in range(4):
        (p,) = operand(S16, "SA", opsel_a=opsel).places(0, 0, 0)
        value = (0x7F7F7F7F >> p.lo) & ((1 << p.width) - 1)
        assert 2.0 ** (value - 127) == 1.0


@fact("E53")
def _scales_in_vgprs(run, fid):
    # SGPR / inline-constant scales are rejected by LLVM; the calculator models a scale
    # operand as one byte of one ArchVGPR (no AccVGPRs, nothing else).
    for name in (S16, S32):
        lines = detail(run, name)
        assert detail_value(lines, "A and B scales can use ArchVGPRs") == "True"
        assert detail_value(lines, "A and B scales can use AccVGPRs") == "False"
        for matrix in ("SA", "SB"):
            for opsel in range(4):
                op = operand(name, matrix, opsel_a=opsel, opsel_b=opsel)
                assert op.register_count == 1
                assert {p.reg for e in op.elements() for p in op.places(*e)} == {0}


@fact("E54")
def _scale_blocks(run, fid):
    for name in (S16, S32):
        inst = inst_of(name)
        blocks = inst.k // 32
        for matrix, shape in (("SA", (inst.m, blocks, 1)), ("SB", (blocks, inst.n, 1))):
            op = operand(name, matrix)
            assert op.shape == shape
            places = [where(op, e) for e in op.elements()]
            assert sorted(p[1] for p in places) == list(range(64))
            assert {(p[0], p[2], p[3]) for p in places} == {(0, 0, 7)}


@fact("E55", "E56", "E57")
def _sparse_a_and_index(run, fid):
    name, elem, a_place, index_places = SPARSE_FACTS[fid]
    op = operand(name, "A")
    assert where(op, elem + (0,)) == a_place
    group = 4 * (elem[1] // 4)  # the four K values of a group share the slot
    assert {where(op, (elem[0], k, 0)) for k in range(group, group + 4)} == {a_place}
    for cbsz, abid, want in index_places:
        assert where(operand(name, "K", cbsz=cbsz, abid=abid), elem + (0,)) == want


@fact("E62")
def _ocp_fp8(run, fid):
    # OCP E4M3FN / E5M2 on gfx950 and FNUZ on gfx942: the calculator names the type
    # (-d's "Register data types"); the largest values follow from the printed widths.
    for inst in CDNA4.instructions:
        for side in ("a_type", "b_type"):
            dtype = getattr(inst, side)
            if dtype.key.startswith(("fp8", "bf8")):
                assert dtype.key in ("fp8", "bf8") and dtype.description.startswith("OCP "), inst
                old = CDNA3.find(inst.mnemonic)
                if old is not None:
                    assert getattr(old, side).key == dtype.key + "_fnuz"
    lines = detail(run, "v_mfma_f32_16x16x32_fp8_bf8")
    assert detail_value(lines, "Src0") == "FP8 (OCP 4-bit exponent, 3-bit mantissa floating point)"
    assert detail_value(lines, "Src1") == "BF8 (OCP 5-bit exponent, 2-bit mantissa floating point)"
    for code in (0, 1):
        check_format_widths(code)


def check_format_widths(code):
    """The type of format code `code` has the fact's exponent/mantissa widths, and the
    largest finite value OCP's rules give for them is the fact's."""
    key, exp_bits, man_bits, largest = FORMATS[code]
    dtype = inst_of(U16, code, code).a_type
    assert dtype.key == key
    match = re.fullmatch(r"OCP (\d)-bit exponent, (\d)-bit mantissa floating point",
                         dtype.description)
    assert match and (int(match[1]), int(match[2])) == (exp_bits, man_bits), dtype
    assert largest_finite(exp_bits, man_bits) == largest


def largest_finite(exp_bits, man_bits):
    """OCP: E5M2 keeps IEEE's Inf/NaN exponent; E4M3FN only reserves S.1111.111 for NaN;
    the 6- and 4-bit formats have no Inf/NaN at all."""
    bias = 2 ** (exp_bits - 1) - 1
    top_exp, top_man = 2 ** exp_bits - 1, 2 ** man_bits - 1
    if (exp_bits, man_bits) == (5, 2):
        top_exp -= 1
    elif (exp_bits, man_bits) == (4, 3):
        top_man -= 1
    return 2.0 ** (top_exp - bias) * (1 + top_man / 2 ** man_bits)


@fact("E63")
def _format_codes(run, fid):
    assert F8F6F4_FORMATS == tuple(FORMATS[c][0] for c in range(5))
    names = ("FP8 (E4M3)", "BF8 (E5M2)", "FP6 (E2M3)", "BF6 (E3M2)", "FP4 (E2M1)")
    for code in range(5):
        lines = detail(run, U16, code, code)
        assert detail_value(lines, f"A matrix format (CBSZ {code})") == names[code]
        assert detail_value(lines, f"B matrix format (BLGP {code})") == names[code]
        check_format_widths(code)


@fact("E64")
def _small_format_ranges(run, fid):
    for code in (2, 3, 4):
        check_format_widths(code)


def test_every_fact_has_a_check():
    assert sorted(FACT_CHECKS) == list(FACT_IDS)


def test_fact_ids_match_the_fact_sheet():
    text = shared_text("facts", "cdna4_examples.txt")
    if text is None:
        missing(absent_reason("facts", "cdna4_examples.txt"))
    listed = re.findall(r"^(E\d\d) \| ([^|]+?) \|", text, re.M)
    assert [fid for fid, _ in listed] == list(FACT_IDS)
    for fid, names in listed:
        if fid in PLACE_FACTS:
            assert PLACE_FACTS[fid][0] in names, fid


@pytest.mark.parametrize("fid", FACT_IDS)
def test_fact(run, fid):
    FACT_CHECKS[fid](run, fid)


# ---- seed 000: the blog's HIP kernels -----------------------------------------------------
# `tid` is threadIdx.x, the lane. Matrices are row-major in memory. A vector register
# variable of n-bit values holds value v in bits n*v .. n*v+n-1 of its VGPR group.

def vector_item(index, bits, lane):
    lo = index * bits
    return (lo // 32, lane, lo % 32, lo % 32 + bits - 1)


def row_major(flat, cols):
    return divmod(flat, cols)


def check_loads(op, loads):
    """`loads`: (element, expected place) pairs; every element of `op` appears once."""
    seen = set()
    for elem, want in loads:
        assert where(op, elem + (0,)) == want, (op.matrix, elem)
        seen.add(elem)
    assert seen == {e[:2] for e in op.elements()}, op.matrix


def c_store_32x32(op):
    """C[tid%32 + (tid/32)*4*32 + 32*r + i*32*8] = c_reg[i*4 + r]."""
    check_loads(op, [(row_major(tid % 32 + tid // 32 * 128 + 32 * r + 256 * i, 32),
                      (4 * i + r, tid, 0, 31))
                     for tid in range(64) for i in range(4) for r in range(4)])


SEED_ARCHS = ["cdna3", "cdna4"]


@pytest.mark.parametrize("arch", SEED_ARCHS)
def test_seed000_32x32x2_f32(arch):
    inst = find_architecture(arch).find("v_mfma_f32_32x32x2_f32")
    a, b, d = (Operand(inst, m) for m in "ABD")
    # a_reg = A[tid/32 + 2*(tid%32)]; b_reg = B[tid%32 + (tid/32)*32]
    check_loads(a, [(row_major(tid // 32 + 2 * (tid % 32), 2), (0, tid, 0, 31))
                    for tid in range(64)])
    check_loads(b, [(row_major(tid % 32 + tid // 32 * 32, 32), (0, tid, 0, 31))
                    for tid in range(64)])
    c_store_32x32(d)


@pytest.mark.parametrize("arch", SEED_ARCHS)
def test_seed000_16x16x16_f16(arch):
    inst = find_architecture(arch).find("v_mfma_f32_16x16x16_f16")
    a, b, d = (Operand(inst, m) for m in "ABD")
    # a_reg = *(fp16x4_t*)(A + 4*(tid/16) + 16*(tid%16)); b_reg[i] = B[i*16 + tid%16 + (tid/16)*64]
    check_loads(a, [(row_major(4 * (tid // 16) + 16 * (tid % 16) + v, 16), vector_item(v, 16, tid))
                    for tid in range(64) for v in range(4)])
    check_loads(b, [(row_major(16 * i + tid % 16 + tid // 16 * 64, 16), vector_item(i, 16, tid))
                    for tid in range(64) for i in range(4)])
    check_loads(d, [(row_major(16 * i + tid % 16 + tid // 16 * 64, 16), (i, tid, 0, 31))
                    for tid in range(64) for i in range(4)])


@pytest.mark.parametrize("arch", SEED_ARCHS)
def test_seed000_32x32x16_fp8(arch):
    inst = find_architecture(arch).find("v_mfma_f32_32x32x16_fp8_fp8")
    a, b, d = (Operand(inst, m) for m in "ABD")
    # a_reg = *(fp8x8_t*)(A + (tid/32)*8 + (tid%32)*16)
    # b_reg[i] = B[i*32 + tid%32 + (tid/32)*8*32]
    check_loads(a, [(row_major(tid // 32 * 8 + tid % 32 * 16 + v, 16), vector_item(v, 8, tid))
                    for tid in range(64) for v in range(8)])
    check_loads(b, [(row_major(32 * i + tid % 32 + tid // 32 * 256, 32), vector_item(i, 8, tid))
                    for tid in range(64) for i in range(8)])
    c_store_32x32(d)


def check_one_scale_per_lane(name, cbsz, blgp):
    """Each lane passes one E8M0 byte per scale operand with OPSEL 0: bits [7:0] of v0,
    and scale_a = scale_b = 127 means a factor of 2^(127-127) = 1."""
    for matrix in ("SA", "SB"):
        op = operand(name, matrix, cbsz, blgp)
        places = [where(op, e) for e in op.elements()]
        assert sorted(p[1] for p in places) == list(range(64))
        assert {(p[0], p[2], p[3]) for p in places} == {(0, 0, 7)}
    assert 2.0 ** (127 - 127) == 1.0


def test_seed000_scaled_32x32x64_fp8():
    a, b, d = (operand(S32, m) for m in "ABD")
    # ldg_a = A + (tid%32)*64 + (tid/32)*16; a_reg[i*16 + j] = ldg_a[i*32 + j]   (A: 32 x 64)
    # ldg_b = B + tid%32 + 32*16*(tid/32);   b_reg[i*16 + j] = ldg_b[32*j + i*32*32] (B: 64 x 32)
    loads_a, loads_b = [], []
    for tid in range(64):
        for i in range(2):
            for j in range(16):
                slot = vector_item(16 * i + j, 8, tid)
                loads_a.append((row_major(tid % 32 * 64 + tid // 32 * 16 + 32 * i + j, 64), slot))
                b_flat = tid % 32 + 512 * (tid // 32) + 32 * j + 1024 * i
                loads_b.append((row_major(b_flat, 32), slot))
    check_loads(a, loads_a)
    check_loads(b, loads_b)
    c_store_32x32(d)
    check_one_scale_per_lane(S32, 0, 0)


def test_seed000_scaled_32x32x64_fp4():
    a, b, d = (operand(S32, m, 4, 4) for m in "ABD")
    loads_a, loads_b = [], []
    for tid in range(64):
        for i in range(16):
            # a_reg[i] = ldg_a[i], ldg_a = A + (tid%32)*32 + (tid/32)*16: fp4x2 bytes of a
            # 32 x 64 fp4 A (32 bytes a row), the even K in the low nibble
            row, byte = row_major(tid % 32 * 32 + tid // 32 * 16 + i, 32)
            for nibble in range(2):
                loads_a.append(((row, 2 * byte + nibble), vector_item(2 * i + nibble, 4, tid)))
            # b_reg[i] = create_fp4x2(extract(ldg_b[16*2i], tid%2),
            #                         extract(ldg_b[16*(2i+1)], tid%2)),
            # ldg_b = B + (tid%32)/2 + 16*32*(tid/32): a 64 x 32 fp4 B, 16 bytes a row
            for nibble, offset in enumerate((32 * i, 32 * i + 16)):
                k, byte = row_major(tid % 32 // 2 + 512 * (tid // 32) + offset, 16)
                loads_b.append(((k, 2 * byte + tid % 2), vector_item(2 * i + nibble, 4, tid)))
    check_loads(a, loads_a)
    check_loads(b, loads_b)
    c_store_32x32(d)
    check_one_scale_per_lane(S32, 4, 4)


# ---- seed 003: the MI355X mxfp4 kernel (v_mfma_scale_f32_16x16x128_f8f6f4, fp4 x fp4) -----

def permuted(shape, order):
    """torch's x.view(shape).permute(order).contiguous().view(-1), as a list of the source
    flat indices in destination order."""
    strides = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    out = [0]
    for axis in order:
        out = [base + strides[axis] * x for base in out for x in range(shape[axis])]
    return out


def test_permuted_matches_a_transpose():
    assert permuted((2, 3), (1, 0)) == [0, 3, 1, 4, 2, 5]


SEED003_N, SEED003_K = 64, 512  # 4 output tiles of 16 columns, 4 K steps of 128


def test_seed003_a_and_a_scales():
    a, sa = operand(S16, "A", 4, 4), operand(S16, "SA", 4, 4)
    loads = []
    for lid in range(64):
        # lane lid quantizes A row (lid & 15), K (lid >> 4)*32 .. +31 (one mxfp4 block);
        # block.u32[r] byte s = cvt_scalef32_pk_fp4_bf16(dat.x2[4r + s]): the pair of
        # values 2*(4r+s) and 2*(4r+s)+1, the first in the low nibble
        for r in range(4):
            for s in range(4):
                for h in range(2):
                    k = (lid >> 4) * 32 + 2 * (4 * r + s) + h
                    loads.append(((lid & 15, k), (r, lid, 8 * s + 4 * h, 8 * s + 4 * h + 3)))
        # As: the scale of the lane's own block, OPSEL 0
        assert where(sa, (lid & 15, lid >> 4, 0)) == (0, lid, 0, 7)
    check_loads(a, loads)


def test_seed003_b_through_the_host_shuffle():
    b = operand(S16, "B", 4, 4)
    kbytes = SEED003_K // 2  # B_q: N x K/2 bytes, fp4x2 with the even K in the low nibble
    # B_swiz = B_q.view(-1, 16, K/2/16, 16).permute(0, 2, 1, 3)
    source = permuted((SEED003_N // 16, 16, kbytes // 16, 16), (0, 2, 1, 3))
    for tile in range(SEED003_N // 16):          # C_tile_x
        for it in range(0, SEED003_K, 128):      # the K step
            loads = []
            for lid in range(64):
                unit = (tile * SEED003_K + it) // 128 * 64 + lid  # B_ptr[...]: 16-byte units
                for byte in range(16):
                    n, kbyte = divmod(source[16 * unit + byte], kbytes)
                    for h in range(2):
                        elem = (2 * kbyte + h - it, n - 16 * tile)  # B[k][j] = B_q[j][k]
                        loads.append((elem, vector_item(2 * byte + h, 4, lid)))
            check_loads(b, loads)


def test_seed003_b_scales_through_the_host_shuffle():
    sb = operand(S16, "SB", 4, 4)
    blocks = SEED003_K // 32  # Bs: N x K/32 e8m0
    # Bs_swiz = Bs.view(-1, 2, 16, K/32/8, 2, 4).permute(0, 3, 5, 2, 4, 1)
    source = permuted((SEED003_N // 32, 2, 16, blocks // 8, 2, 4), (0, 3, 5, 2, 4, 1))
    for tile in range(SEED003_N // 16):
        for it in range(0, SEED003_K, 128):
            seen = set()
            for lid in range(64):
                index = ((tile // 2 * SEED003_K // 128 // 2 + it // 128 // 2) * 64 * 4 + lid * 4
                         + (it // 128 & 1) * 2 + (tile & 1))
                n, kb = divmod(source[index], blocks)
                elem = (kb - it // 32, n - 16 * tile)   # SB[kb][j] of this MFMA
                assert where(sb, elem + (0,)) == (0, lid, 0, 7), (tile, it, lid)
                seen.add(elem)
            assert len(seen) == 64


def test_seed003_c_store():
    # C_ptr[(C_y + (lid >> 4)*4 + i)*n + C_x + (lid & 15)] = C[i]
    check_loads(operand(S16, "D", 4, 4), [(((lid >> 4) * 4 + i, lid & 15), (i, lid, 0, 31))
                                          for lid in range(64) for i in range(4)])


def test_seed003_second_mfma_takes_byte_1():
    # The blocked kernel permutes the 4 loaded B-scale bytes (K step s, tile p at byte
    # 2s + p) with v_perm_b32(x, x, 0x01030200), shifts even waves by 0, and gives the
    # first MFMA OPSEL 0, the second OPSEL 1: both of tile 0, K steps 0 and 1.
    loaded = [(s, p) for s in range(2) for p in range(2)]
    permuted_bytes = [loaded[(0x01030200 >> (8 * n)) & 0xFF] for n in range(4)]
    assert permuted_bytes[0] == (0, 0) and permuted_bytes[1] == (1, 0)
    for opsel in range(4):
        op = operand(S16, "SB", 4, 4, opsel_b=opsel)
        for lid in range(64):
            assert where(op, (lid // 16, lid % 16, 0)) == (0, lid, 8 * opsel, 8 * opsel + 7)


# ---- round trip and coverage of every format pair and every OPSEL -------------------------

def check_round_trip(op, exact_cover):
    """Every place of every element maps back to it; no register bit holds two elements;
    with `exact_cover`, every bit of every register of the operand is used."""
    owner = {}
    for elem in op.elements():
        for p in op.places(*elem):
            assert p.lane in range(64) and p.reg + len(p.regs) <= op.register_count, (elem, p)
            for reg in p.regs:
                assert (p, elem) in op.entries(reg, p.lane), (elem, p, reg)
            first = 32 * p.reg + p.lo
            for bit in range(first, first + p.width):
                assert owner.setdefault((p.lane, bit), elem) == elem, (elem, p)
    held = sum(len([1 for p, _ in op.entries(reg, lane) if p.reg == reg])
               for reg in range(op.register_count) for lane in range(64))
    assert held == sum(len(op.places(*e)) for e in op.elements())
    if exact_cover:
        assert len(owner) == 64 * 32 * op.register_count


@pytest.mark.parametrize("name", F8F6F4)
@pytest.mark.parametrize("cbsz, blgp", PAIRS, ids=[f"cbsz{a}-blgp{b}" for a, b in PAIRS])
def test_format_pair_round_trip(name, cbsz, blgp):
    for matrix, code in (("A", cbsz), ("B", blgp)):
        op = operand(name, matrix, cbsz, blgp)
        assert op.register_count == F8F6F4_REGISTERS[code]
        assert op.layout.width == FORMATS[code][1] + FORMATS[code][2] + 1
        check_round_trip(op, exact_cover=True)
    for matrix in ("C", "D"):
        check_round_trip(operand(name, matrix, cbsz, blgp), exact_cover=True)


def test_fp6_straddlers():
    # 32 fp6 values in 6 VGPRs: values 5, 10, 21 and 26 of each 16 cross a VGPR boundary
    op = operand(U16, "A", 2)
    crossing = sorted(k for k in range(32) if len(op.places(0, k, 0)[0].regs) == 2)
    assert crossing == [5, 10, 21, 26]
    assert where(op, (0, 10, 0)) == (1, 0, 28, 33)


@pytest.mark.parametrize("name", (S16, S32))
@pytest.mark.parametrize("matrix", ("SA", "SB"))
@pytest.mark.parametrize("opsel", range(4))
def test_scale_round_trip(name, matrix, opsel):
    op = operand(name, matrix, opsel_a=opsel, opsel_b=opsel)
    check_round_trip(op, exact_cover=False)
    inst = op.inst
    for elem in op.elements():
        index, kb = (elem[0], elem[1]) if matrix == "SA" else (elem[1], elem[0])
        size = inst.m if matrix == "SA" else inst.n
        assert where(op, elem) == (0, index + size * kb, 8 * opsel, 8 * opsel + 7)


def test_every_cdna4_operand_round_trips():
    for inst in CDNA4.instructions:
        if inst.f8f6f4:
            continue  # every format pair above
        for matrix in (("A", "B", "K", "D") if inst.sparse else ("A", "B", "C", "D")):
            op = Operand(inst, matrix)
            if inst.sparse and matrix in ("A", "K"):  # four K values share a slot
                slots = defaultdict(set)
                for elem in op.elements():
                    (p,) = op.places(*elem)
                    slots[p].add(elem[1] // 4)
                    assert (p, elem) in op.entries(p.reg, p.lane)
                assert all(len(groups) == 1 for groups in slots.values())
            else:
                check_round_trip(op, exact_cover=True)


# ---- the command line --------------------------------------------------------------------

@pytest.mark.parametrize("alias", ["cdna4", "CDNA4", "gfx950", "mi350x", "MI355X", "mi355x"])
def test_aliases(run, alias):
    rc, out, err = run(["-a", alias, "-L"])
    lines = out.splitlines()
    assert rc == 0 and err == ""
    assert lines[0] == "Available instructions in the CDNA4 architecture:"
    assert [line.strip() for line in lines[1:]] == [i.mnemonic for i in CDNA4.instructions]
    assert len(lines) == 1 + 68
    rc, out, _ = run(["-a", alias, "-i", U16, "-g", "-A"])
    assert rc == 0 and out.startswith("Architecture: CDNA4\n")


def test_detail_of_a_scaled_instruction(run):
    lines = detail(run, S16, 4, 2)
    assert "Matrix formats:" in lines
    assert detail_value(lines, "A matrix format (CBSZ 4)") == "FP4 (E2M1)"
    assert detail_value(lines, "B matrix format (BLGP 2)") == "FP6 (E2M3)"
    text = "\n".join(lines)
    assert "E8M0" in text and "2^(v-127)" in text
    assert detail_value(lines, "Assembly").startswith(f"{S16} vD, vA, vB, vC, vSA, vSB ")
    assert detail_value(lines, "GPRs required for A") == "4"
    assert detail_value(lines, "GPRs required for B") == "6"


def test_detail_without_formats_is_fp8(run):
    rc, out, _ = run(["-a", "cdna4", "-i", U32, "-d"])
    assert rc == 0
    assert "A matrix format (CBSZ 0): FP8 (E4M3)" in out
    assert "Execution cycles: 64" in out


@pytest.mark.parametrize("args, want", [
    (["-i", U16, "-g", "-A", "-I", "0", "-K", "5", "--cbsz", "2"], "A[0][5] = v[1:0]{0}.[35:30]"),
    (["-i", S16, "-g", "-A", "-I", "4", "-K", "42", "--cbsz", "3"],
     "A[4][42] = v[2:1]{20}.[33:28]"),
    (["-i", S16, "-g", "--A-scale", "-I", "5", "-K", "2", "--opsel-a", "1"],
     "SA[5][2] = v0{37}.[15:8]"),
    (["-i", S16, "-g", "--A_scale", "-I", "5", "-K", "2", "--opsel_a", "1"],
     "SA[5][2] = v0{37}.[15:8]"),
    (["-i", S32, "-g", "--B-scale", "-J", "20", "-K", "1", "--opsel-b", "3"],
     "SB[1][20] = v0{52}.[31:24]"),
    (["-i", S32, "-g", "-B", "-K", "35", "-J", "7", "--blgp", "4"], "B[35][7] = v0{39}.[15:12]"),
])
def test_point_queries(run, args, want):
    rc, out, err = run(["-a", "cdna4"] + args)
    assert rc == 0 and err == "" and body(out) == [want]


def test_register_query_lists_the_straddler(run):
    rc, out, _ = run(["-a", "cdna4", "-i", U16, "-m", "-A", "--cbsz", "2", "-r", "1", "-l", "0"])
    assert rc == 0
    lines = body(out)
    assert lines[0] == "v[1:0]{0}.[35:30] = A[0][5]"
    assert lines[-1] == "v[2:1]{0}.[33:28] = A[0][10]"


def test_output_calculation_with_scales(run):
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-g", "-D", "-I", "1", "-J", "2", "-o",
                      "--cbsz", "4", "--blgp", "4", "--opsel-a", "1", "--opsel-b", "2"])
    assert rc == 0
    (line,) = body(out)
    head = "D[1][2] = Vdst_v1{2} = ScaleA_v0{1}.[15:8]*ScaleB_v0{2}.[23:16]*(Src0_v0{1}.[3:0]*"
    assert line.startswith(head)
    assert line.count("ScaleA_") == 4 and line.count("*Src1_") == 128
    assert line.endswith(" + Src2_v1{2}")
    assert "ScaleA_v0{49}.[15:8]*ScaleB_v0{50}.[23:16]*(Src0_v0{49}" in line  # K block 3
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-m", "-D", "-r", "0", "-l", "0", "-o"])
    (line,) = body(out)
    assert line.startswith("v0{0} = D[0][0] = SA[0][0]*SB[0][0]*(A[0][0]*B[0][0] + ")
    assert "SA[0][3]*SB[3][0]*(A[0][96]*B[96][0] + " in line


def test_scale_matrix_layout(run):
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-M", "--A-scale", "--opsel-a", "2", "--csv"])
    assert rc == 0
    lines = body(out)
    assert lines[0] == "lane,v0.[23:16]"
    assert lines[1:] == [f"{lane},SA[{lane % 16}][{lane // 16}]" for lane in range(64)]


def test_register_layout_of_a_format_has_one_block(run):
    # CBSZ picks the A format on f8f6f4, not a broadcast block group: one block, one table
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-R", "-A", "--cbsz", "4", "--csv"])
    assert rc == 0
    lines = body(out)
    assert lines[0] == "Block 0"
    assert lines[1].startswith("A[M][K],0,1,2,")
    assert lines[2].startswith("0,v0{0}.[3:0],v0{0}.[7:4],")
    assert len(lines) == 2 + 16


BAD_COMMANDS = {
    "cbsz-5": ["-i", U16, "-g", "-A", "--cbsz", "5"],
    "blgp-5": ["-i", S32, "-g", "-B", "--blgp", "5"],
    "abid-on-f8f6f4": ["-i", U16, "-g", "-A", "--abid", "1"],
    "opsel-a-4": ["-i", S16, "-g", "--A-scale", "--opsel-a", "4"],
    "opsel-b-4": ["-i", S32, "-g", "--B-scale", "--opsel-b", "4"],
    "opsel-a-non-scale": ["-i", U16, "-g", "-A", "--opsel-a", "1"],
    "opsel-a-dense": ["-i", "v_mfma_f32_16x16x32_f16", "-g", "-A", "--opsel-a", "1"],
    "opsel-a-with-B-scale": ["-i", S16, "-g", "--B-scale", "--opsel-a", "1"],
    "opsel-b-with-A": ["-i", S16, "-g", "-A", "--opsel-b", "1"],
    "A-scale-non-scale": ["-i", U16, "-g", "--A-scale"],
    "B-scale-dense": ["-i", "v_mfma_f32_32x32x16_f16", "-g", "--B-scale"],
    "fp6-register-6": ["-i", U16, "-m", "-A", "--cbsz", "2", "-r", "6"],
    "fp4-register-4": ["-i", S16, "-m", "-B", "--blgp", "4", "-r", "4"],
    "scale-register-1": ["-i", S16, "-m", "--A-scale", "-r", "1"],
    "scale-k-block-4": ["-i", S16, "-g", "--A-scale", "-K", "4"],
    "scale-k-block-2-32x32": ["-i", S32, "-g", "--B-scale", "-K", "2"],
    "xf32": ["-i", "v_mfma_f32_32x32x4_xf32", "-d"],
    "cbsz-smfmac-i8": ["-i", "v_smfmac_i32_16x16x128_i8", "-g", "-k", "--cbsz", "1"],
    "abid-smfmac-fp8": ["-i", "v_smfmac_f32_32x32x64_fp8_fp8", "-g", "-k", "--abid", "1"],
    "blgp-single-block": ["-i", "v_mfma_f32_16x16x32_f16", "-g", "-B", "--blgp", "1"],
    "opsel-rdna": ["-i", S16, "-g", "-A", "--opsel", "1"],
    "cbsz-5-detail": ["-i", S16, "-d", "--cbsz", "5"],
}


@pytest.mark.parametrize("args", BAD_COMMANDS.values(), ids=BAD_COMMANDS.keys())
def test_rejected(run, args):
    fails(run, ["-a", "cdna4"] + args)


# ---- the printed formulas ----------------------------------------------------------------

def matrices(inst):
    names = ("A", "B", "K", "D") if inst.sparse else ("A", "B", "C", "D")
    return names + (("SA", "SB") if inst.scaled else ())


def register_slots(op):
    """(GPR_num, lane, (low, high) bits of the value inside that VGPR, elements there)."""
    for reg in range(op.register_count):
        for lane in range(64):
            held = defaultdict(list)
            for place, elem in op.entries(reg, lane):
                held[place].append(elem)
            for place, elems in held.items():
                first, last = span(place)
                yield reg, lane, (max(first, 32 * reg) - 32 * reg,
                                  min(last, 32 * reg + 31) - 32 * reg), elems


def formula_errors(inst, mods, only):
    """Formula lines of sections(inst) about the matrices `only` that disagree with
    Operand(inst, m, mods): the first wrong evaluation of each, and which coordinates
    each matrix has formulas for."""
    env = {"OPSEL_A": mods.opsel_a, "OPSEL_B": mods.opsel_b}
    ops = {m: Operand(inst, m, mods) for m in only}
    forward, backward = sections(inst)
    errors, described = {}, defaultdict(set)
    for label, text in forward:
        names, kind = forward_label(label)
        compute = compile_gpr(text) if kind == "GPR" else compile_formula(text)
        for m in set(names) & set(only):
            described[m].add(kind)
            first, second = AXES[m]
            for elem in ops[m].elements():
                (place,) = ops[m].places(*elem)
                want = span(place) if kind == "GPR" else place.lane
                got = compute(**{first: elem[0], second: elem[1], "block": elem[2]}, **env)
                if got != want:
                    errors[label] = (m, elem, got, want)
                    break
    for label, text in backward:
        names, coord = backward_label(label)
        compute = compile_values(text)
        for m in set(names) & set(only):
            described[m].add(coord)
            axis = AXES[m].index(coord) if coord in AXES[m] else 2
            for reg, lane, bits, elems in register_slots(ops[m]):
                want = {e[axis] for e in elems}
                got = [compute(lane=lane, GPR_num=reg, GPR_bits=b) for b in bits]
                if got != [want, want]:
                    errors[label] = (m, (reg, lane, bits), got, want)
                    break
    return errors, described


def formula_cases():
    for inst in CDNA4.instructions:
        if inst.f8f6f4:
            for a, b in PAIRS:
                yield pytest.param(inst.with_formats(a, b), id=f"{inst.mnemonic}-cbsz{a}-blgp{b}")
        else:
            yield pytest.param(inst, id=inst.mnemonic)


@pytest.mark.parametrize("inst", list(formula_cases()))
def test_formulas_agree_with_the_engine(inst):
    codes = {}
    if inst.f8f6f4:
        codes = {"cbsz": F8F6F4_FORMATS.index(inst.formats[0]),
                 "blgp": F8F6F4_FORMATS.index(inst.formats[1])}
    cases = [(Modifiers(**codes), matrices(inst))]
    if inst.scaled:  # every OPSEL of the scales (the other operands do not depend on it)
        cases += [(Modifiers(**codes, opsel_a=n, opsel_b=3 - n), ("SA", "SB")) for n in range(4)]
    for mods, only in cases:
        errors, described = formula_errors(inst, mods, only)
        assert not errors, (mods, errors)
        for m in only:
            assert described[m] >= {"GPR", "Lane", *AXES[m]}, m


def test_formula_count():
    # 64 instructions plus 4 x 25 format pairs; each has A, B and C/D (or K and D) formulas
    cases = list(formula_cases())
    assert len(cases) == 64 + 100
    texts = {text for case in cases for part in sections(case.values[0])
             for _, text in part if isinstance(text, str)}
    assert "[5:0].[6*(k % 32)+5 : 6*(k % 32)]" in texts
    assert "0.[8*OPSEL_A+7 : 8*OPSEL_A]" in texts
    assert "(4 * floor(k / 64) + (floor(k / 4) % 4)).[8*(k % 4)+7 : 8*(k % 4)]" in texts


# ---- the README's CDNA4 examples ---------------------------------------------------------

def readme_examples():
    """(command, output) pairs of the README's CDNA4 section: a ```sh block holding one
    command line, then a ``` block with what it prints."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.find("## CDNA4 (gfx950, MI350X/MI355X)")
    if start < 0:
        return []
    end = text.find("\n## ", start + 1)
    section = text[start:] if end < 0 else text[start:end]
    return re.findall(r"```sh\n(python3 matrix_calculator\.py [^\n]+)\n```\n\n```\n(.*?)```",
                      section, re.S)


def test_readme_has_cdna4_examples():
    commands = [command for command, _ in readme_examples()]
    assert len(commands) >= 8
    for option in ("--A-scale", "--opsel-a", "-o", "--cbsz 2", "--blgp 4", "-d"):
        assert any(f" {option} " in command for command in commands), option


@pytest.mark.parametrize("command, output", readme_examples(),
                         ids=[f"example-{n}" for n, _ in enumerate(readme_examples(), 1)])
def test_readme_example(command, output):
    command = command.replace("python3 ", f"'{sys.executable}' ", 1)
    result = subprocess.run(command, shell=True, cwd=REPO, capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "80"}, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == output
