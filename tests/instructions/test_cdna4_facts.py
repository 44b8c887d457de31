"""Every fact E01-E64 of tests/data/facts/cdna4_examples.txt (literal data in
cdna4_facts.py), one test each; facts about something the calculator does not model are
asserted through the nearest thing it does model (each check's comment says which).

(Shared helpers: tests/helpers/cdna4_common.py.)
"""
import re

import pytest

from instructions.model import F8F6F4_FORMATS
from tests.helpers import data_text
from tests.helpers.cdna4_common import (
    CDNA3,
    CDNA4,
    PAIRS,
    body,
    check_opcode_fields,
    detail,
    detail_value,
    fails,
    inst_of,
    mai_fields,
    operand,
    scale_opsel,
    where,
    words,
)
from tests.helpers.cdna4_facts import (
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
def _f8f6f4_opcodes(run, _fid):
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
def _no_xf32(run, _fid):
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
def _cycles_16x16x128(run, _fid):
    for name in (U16, S16):
        check_cycles(run, name, 32)


@fact("E08")
def _cycles_32x32x64(run, _fid):
    assert inst_of(U32, 4, 4).effective_cycles == 32
    for name in (U32, S32):
        check_cycles(run, name, 64)


@fact("E09")
def _f64_cycles(run, _fid):
    name = "v_mfma_f64_16x16x4_f64"
    assert inst_of(name).cycles == 64 and CDNA3.find(name).cycles == 32
    assert detail_value(detail(run, name), "Execution cycles") == "64"
    assert detail_value(detail(run, name, arch="cdna3"), "Execution cycles") == "32"


@fact("E10")
def _f16_statistics(run, _fid):
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
def _registers_32x32x16_f16(run, _fid):
    assert inst_of("v_mfma_f32_32x32x16_f16").cycles == 32
    check_registers(run, "v_mfma_f32_32x32x16_f16", {"A": 4, "B": 4, "C": 16, "D": 16})


@fact("E12")
def _registers_16x16x64_i8(run, _fid):
    assert inst_of("v_mfma_i32_16x16x64_i8").cycles == 16
    check_registers(run, "v_mfma_i32_16x16x64_i8", {"A": 4, "B": 4, "C": 4, "D": 4})


@fact("E13")
def _registers_by_format(run, _fid):
    for a, b in PAIRS:
        check_registers(run, S16, {"A": F8F6F4_REGISTERS[a], "B": F8F6F4_REGISTERS[b],
                                   "C": 4, "D": 4, "SA": 1, "SB": 1}, a, b)


@fact("E14")
def _fp6_needs_six_registers(run, _fid):
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
def _smfmac_i8_ignores_cbsz(run, _fid):
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
def _f64_blgp_negates(_run, _fid):
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
def _flops_32x32x64(run, _fid):
    assert inst_of(U32).flops == 131072
    for (a, b), want in (((0, 4), 8192), ((4, 1), 8192), ((2, 4), 16384), ((4, 4), 16384)):
        lines = detail(run, U32, a, b)
        assert detail_value(lines, "FLOPs") == "131072"
        assert detail_value(lines, "FLOPs/CU/cycle") == str(want)


def _place_fact(_run, fid):
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
def _opsel_encoding_bits(_run, fid):
    _, data = ENCODINGS[fid]
    assert scale_opsel(data + [0, 0, 0, 0]) == (0, 1)           # op_sel:[0,1,0]
    assert scale_opsel([0, 0, 0xAC, 0xD3, 0, 0, 0, 0x10]) == (0, 2)  # op_sel_hi:[0,1,0]
    assert where(operand(S16, "SB", opsel_b=1), (0, 0, 0)) == (0, 0, 8, 15)
    assert where(operand(S16, "SB", opsel_b=2), (0, 0, 0)) == (0, 0, 16, 23)


@fact("E52")
def _neutral_scale(run, _fid):
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
def _scales_in_vgprs(run, _fid):
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
def _scale_blocks(_run, _fid):
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
def _sparse_a_and_index(_run, fid):
    name, elem, a_place, index_places = SPARSE_FACTS[fid]
    op = operand(name, "A")
    assert where(op, elem + (0,)) == a_place
    group = 4 * (elem[1] // 4)  # the four K values of a group share the slot
    assert {where(op, (elem[0], k, 0)) for k in range(group, group + 4)} == {a_place}
    for cbsz, abid, want in index_places:
        assert where(operand(name, "K", cbsz=cbsz, abid=abid), elem + (0,)) == want


@fact("E62")
def _ocp_fp8(run, _fid):
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
def _format_codes(run, _fid):
    assert F8F6F4_FORMATS == tuple(FORMATS[c][0] for c in range(5))
    names = ("FP8 (E4M3)", "BF8 (E5M2)", "FP6 (E2M3)", "BF6 (E3M2)", "FP4 (E2M1)")
    for code in range(5):
        lines = detail(run, U16, code, code)
        assert detail_value(lines, f"A matrix format (CBSZ {code})") == names[code]
        assert detail_value(lines, f"B matrix format (BLGP {code})") == names[code]
        check_format_widths(code)


@fact("E64")
def _small_format_ranges(_run, _fid):
    for code in (2, 3, 4):
        check_format_widths(code)


def test_every_fact_has_a_check():
    assert sorted(FACT_CHECKS) == list(FACT_IDS)


def test_fact_ids_match_the_fact_sheet():
    text = data_text("facts", "cdna4_examples.txt")
    listed = re.findall(r"^(E\d\d) \| ([^|]+?) \|", text, re.M)
    assert [fid for fid, _ in listed] == list(FACT_IDS)
    for fid, names in listed:
        if fid in PLACE_FACTS:
            assert PLACE_FACTS[fid][0] in names, fid


@pytest.mark.parametrize("fid", FACT_IDS)
def test_fact(run, fid):
    FACT_CHECKS[fid](run, fid)
