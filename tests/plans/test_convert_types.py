"""Type conversions on the way between instructions: which (source type,
destination type) pairs are planned on which architecture, the packing instructions
each uses (facts: instructions/lane_moves.py, docs/chaining.md), the integer
saturation and the conversions' values (scripts/check_convert_types.py models)."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from instructions.lane_moves import ARCH_MOVES, arch_moves
from matrix_frontends.cli.command import respond
from matrix_library import api as mc
from matrix_library.conversion import _swapped
from matrix_plans.convert.planner import _choose, _signed

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import check_convert
import check_convert_types as models

# (source type, destination type) -> conversion keys, per architecture: what is planned
PLANNED = {
    "CDNA1": {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"}, ("i32", "i8"): {"i8"}},
    "CDNA2": {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"}, ("i32", "i8"): {"i8"}},
    "CDNA3": {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"}, ("i32", "i8"): {"i8"},
              ("f32", "fp8_fnuz"): {"fp8_fnuz"}, ("f32", "bf8_fnuz"): {"bf8_fnuz"}},
    "CDNA4": {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"}, ("i32", "i8"): {"i8"},
              ("f32", "fp8"): {"fp8"}, ("f32", "bf8"): {"bf8"}, ("f32", "fp6"): {"fp6"},
              ("f32", "bf6"): {"bf6"}, ("f32", "fp4"): {"fp4"}},
    "RDNA3": {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"},
              ("i32", "iu8"): {"i8", "u8"}, ("i32", "iu4"): {"i4", "u4"}},
    "RDNA4": {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"},
              ("i32", "iu8"): {"i8", "u8"}, ("i32", "iu4"): {"i4", "u4"},
              ("f32", "fp8"): {"fp8"}, ("f32", "bf8"): {"bf8"},
              ("f16", "fp8"): {"fp8_f16_via_f32"}, ("f16", "bf8"): {"bf8_f16_via_f32"},
              ("bf16", "fp8"): {"fp8_bf16_via_f32"}, ("bf16", "bf8"): {"bf8_bf16_via_f32"}},
}
_GFX1250 = {("f32", "f16"): {"f16"}, ("f32", "bf16"): {"bf16"},
            ("i32", "iu8"): {"i8", "u8"}, ("f32", "fp8"): {"fp8"}, ("f32", "bf8"): {"bf8"},
            ("f32", "fp6"): {"fp6"}, ("f32", "bf6"): {"bf6"}, ("f32", "fp4"): {"fp4"},
            ("f32", "f4"): {"fp4"}, ("f16", "fp8"): {"fp8_f16"}, ("f16", "bf8"): {"bf8_f16"},
            ("bf16", "fp8"): {"fp8_bf16_via_f32"}, ("bf16", "bf8"): {"bf8_bf16_via_f32"}}
PLANNED["GFX1250"] = PLANNED["GFX1251"] = _GFX1250


def _pairs(arch: mc.Architecture) -> dict[tuple[str, str], set[str]]:
    """{(have, want): {conversion key, or the refusal}} over every single-block pair
    of the architecture (every destination format and signedness)."""
    out: dict[tuple[str, str], set[str]] = {}
    insts = [i for i in arch.instructions if i.blocks == 1]
    wave = arch.waves[0]
    for src in insts:
        for dst in insts:
            if wave not in dst.wave_sizes:
                continue
            for matrix, mods in models.variants(dst):
                op = mc.operand(dst, matrix, mods=mods, wave=wave)
                have = src.out_type.key
                want = (op.inst.a_type if matrix == "A" else op.inst.b_type).key
                if have == want or (have, want) == ("f32", "xf32"):
                    continue
                try:
                    key = _choose(arch_moves(src.arch), src, op.inst, matrix, _signed(op))[0]
                except mc.CalcError as exc:
                    key = "refused: " + str(exc)
                out.setdefault((have, want), set()).add(key)
    return out


@pytest.mark.parametrize("arch", [m.arch for m in ARCH_MOVES])
def test_every_type_pair_is_planned_or_refused_with_its_reason(arch):
    """Each (source, destination) type pair of an architecture is planned with the
    keys listed, or refused by a message that names both types and what is lacking."""
    found = _pairs(mc.find_architecture(arch))
    planned = {pair: keys for pair, keys in found.items()
               if not any(k.startswith("refused") for k in keys)}
    assert planned == PLANNED[arch]
    for (have, want), keys in found.items():
        if (have, want) in planned:
            continue
        for reason in keys:
            assert f"no conversion of {have} values" in reason, reason
            assert f"into {want} operands" in reason and "planned are" in reason, reason
            assert any(why in reason for why in ("number kind", "a widening",
                                                 "different", "no pack from")), reason


def _plan(arch, src, dst, matrix, **options):
    return mc.conversion(mc.find_instruction(arch, src), "D", mc.find_instruction(arch, dst),
                         matrix, advice=False, **options)


def _counts(plan) -> dict[str, int]:
    return {s.instruction: s.times for s in plan.steps}


def test_rdna4_f16_accumulators_widen_then_pack_fp8():
    """RDNA4 has no 16-bit -> fp8 instruction: v_cvt_f32_f16 per value, then one
    v_cvt_pk_fp8_f32 per pair (B of the fp8 WMMA is in-lane from the f16 D)."""
    plan = _plan("rdna4", "v_wmma_f16_16x16x16_f16", "v_wmma_f32_16x16x16_fp8_fp8", "B")
    assert plan.kind == "in-lane"
    registers = plan.fragments * plan.plan.registers  # 8-bit values, four per register
    assert _counts(plan) == {"v_cvt_f32_f16": 4 * registers,
                             "v_cvt_pk_fp8_f32": 2 * registers}


def test_gfx1250_f16_accumulators_pack_fp8_directly():
    plan = _plan("gfx1250", "v_wmma_f16_16x16x32_f16", "v_wmma_f32_16x16x64_fp8_fp8", "B")
    counts = _counts(plan)
    assert "v_cvt_pk_fp8_f16" in counts and "v_cvt_f32_f16" not in counts
    bf = _plan("gfx1250", "v_wmma_bf16_16x16x32_bf16", "v_wmma_f32_16x16x64_bf8_bf8", "B")
    assert "v_lshlrev_b32" in _counts(bf) and "v_cvt_pk_bf8_f32" in _counts(bf)


def test_gfx950_fp4_and_fp6_follow_the_format_modifiers():
    """CBSZ/BLGP pick the f8f6f4 formats; the plan packs into the format picked:
    fp4 with four v_cvt_scalef32_pk_fp4_f32 per register (two values each), fp6/bf6
    with one v_cvt_scalef32_2xpk16_*_f32 per six registers (32 values)."""
    src, dst = "v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x128_f8f6f4"
    fp8 = _plan("cdna4", src, dst, "B", transposed=True)
    assert "v_cvt_pk_fp8_f32" in _counts(fp8)
    fp4 = _plan("cdna4", src, dst, "B", transposed=True, dst_mods={"blgp": 4})
    assert fp4.plan.registers == 4
    assert _counts(fp4)["v_cvt_scalef32_pk_fp4_f32"] == 4 * fp4.fragments * 4
    for code, name in ((2, "v_cvt_scalef32_2xpk16_fp6_f32"), (3, "v_cvt_scalef32_2xpk16_bf6_f32")):
        plan = _plan("cdna4", src, dst, "A", dst_mods={"cbsz": code})
        assert plan.plan.registers == 6
        assert _counts(plan)[name] == plan.fragments
        # 6-bit slots: the LDS round trip stages the f32 words, packs after the loads
        assert plan.route == "lds" and "ds_read_b128" in _counts(plan)
        by_registers = _plan("cdna4", src, dst, "A", dst_mods={"cbsz": code},
                             route="registers")
        assert by_registers.total > plan.total and _counts(by_registers)[name] == 1


def test_gfx1250_fp4_and_fp6_packs():
    src, dst = "v_wmma_f32_16x16x32_f16", "v_wmma_f32_16x16x128_f8f6f4"
    fp4 = _plan("gfx1250", src, dst, "B", dst_mods={"matrix_b_fmt": 4})
    assert _counts(fp4)["v_cvt_scalef32_pk8_fp4_f32"] == fp4.fragments * fp4.plan.registers
    fp6 = _plan("gfx1250", src, dst, "B", dst_mods={"matrix_b_fmt": 2})
    assert _counts(fp6)["v_cvt_scalef32_pk16_fp6_f32"] == fp6.fragments * fp6.plan.registers // 3
    bf6 = _plan("gfx1250", src, dst, "B", dst_mods={"matrix_b_fmt": 3})
    assert "v_cvt_scalef32_pk16_bf6_f32" in _counts(bf6)


def test_integer_saturation_and_signedness():
    """i32 -> 8 bits: v_med3_i32 per value, three v_perm_b32 per register; the RDNA
    iu8 operand is signed when its NEG bit says so (else unsigned)."""
    plan = _plan("cdna3", "v_mfma_i32_16x16x32_i8", "v_mfma_i32_16x16x32_i8", "B",
                 route="registers")
    registers = plan.fragments * plan.plan.registers
    assert _counts(plan)["v_med3_i32"] == 4 * registers
    keys = {}
    for neg in (0, 2):
        conv = _plan("rdna4", "v_wmma_i32_16x16x16_iu8", "v_wmma_i32_16x16x16_iu8", "B",
                     dst_mods={"neg": neg})
        keys[neg] = models.value_key(conv)
        bounds = "-128..127" if neg else "0..255"
        assert conv.plan.types.startswith(f"i32 -> iu8 ({keys[neg]}, saturated to {bounds})")
    assert keys == {0: "u8", 2: "i8"}
    iu4 = _plan("rdna3", "v_wmma_i32_16x16x16_iu4", "v_wmma_i32_16x16x16_iu4", "B",
                dst_mods={"neg": 2})
    assert models.value_key(iu4) == "i4" and "v_lshl_or_b32" in _counts(iu4)


def test_refusals_name_their_reason():
    cdna3 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x4_f32")
    with pytest.raises(mc.CalcError, match="several of its slots then read one value"):
        mc.conversion(cdna3, "D", cdna3, "B", mods={"blgp": 1})
    rotated = mc.conversion(cdna3, "D", cdna3, "B", mods={"blgp": 3})  # a permutation
    assert rotated.fragments >= 1
    multi = mc.find_instruction("cdna3", "v_mfma_f32_16x16x4_4b_f16")
    with pytest.raises(mc.CalcError, match="product of its own"):
        mc.conversion(multi, "D", multi, "A")
    sparse = mc.find_instruction("cdna3", "v_smfmac_f32_16x16x32_f16")
    f16 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    with pytest.raises(mc.CalcError, match="chosen at run time by the indices"):
        mc.conversion(f16, "D", sparse, "A")
    rdna = mc.find_instruction("gfx1250", "v_wmma_f16_16x16x32_f16")
    f32 = mc.find_instruction("gfx1250", "v_wmma_f32_16x16x4_f32")
    with pytest.raises(mc.CalcError, match="a widening"):
        mc.conversion(rdna, "D", f32, "B")


@pytest.mark.parametrize(("value", "fmt", "code"), [
    (1.0, "fp8", 0x38), (448.0, "fp8", 0x7E), (-2.0, "fp8", 0xC0),
    (1.0, "fp8_fnuz", 0x40), (240.0, "fp8_fnuz", 0x7F), (1.0, "bf8", 0x3C),
    (57344.0, "bf8", 0x7B), (1.0, "bf8_fnuz", 0x40),
    (6.0, "fp4", 0x7), (0.5, "fp4", 0x1), (2.5, "fp4", 0x4), (-3.5, "fp4", 0xE),
    (7.5, "fp6", 0x1F), (0.125, "fp6", 0x1), (28.0, "bf6", 0x1F), (0.0625, "bf6", 0x1),
    (1.0, "f16", 0x3C00), (1.0, "bf16", 0x3F80), (1 + 2 ** -8, "bf16", 0x3F80),
])
def test_python_models_encode_the_formats(value, fmt, code):
    """The expected values' model against encodings from the OCP 8-bit and MX
    specifications (fp4 2.5 ties to the even 2.0; bf16 1 + 2^-8 ties to 1.0)."""
    assert models.nearest(value, fmt) == code


@pytest.mark.slow
def test_emulation_checks_every_new_conversion_by_value():
    """One class of every new conversion kind runs in the gcc emulation with tag
    passes and a value pass (C models against the Python models)."""
    cc = check_convert.compiler()
    if cc is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no C compiler under CI")
        pytest.skip("no C compiler")
    cases = [
        ("rdna4", "v_wmma_f16_16x16x16_f16", "v_wmma_f32_16x16x16_fp8_fp8", "B", {}),
        ("rdna4", "v_wmma_bf16_16x16x16_bf16", "v_wmma_f32_16x16x16_bf8_bf8", "B", {}),
        ("gfx1250", "v_wmma_f16_16x16x32_f16", "v_wmma_f32_16x16x64_fp8_fp8", "B", {}),
        ("gfx1250", "v_wmma_f16_16x16x32_f16", "v_wmma_f32_16x16x64_bf8_bf8", "B", {}),
        ("cdna4", "v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x128_f8f6f4", "B", {"blgp": 4}),
        ("cdna4", "v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x128_f8f6f4", "B", {"blgp": 2}),
        ("cdna4", "v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x128_f8f6f4", "B", {"blgp": 3}),
        ("gfx1250", "v_wmma_f32_16x16x32_f16", "v_wmma_f32_16x16x128_f8f6f4", "B",
         {"matrix_b_fmt": 4}),
        ("gfx1250", "v_wmma_f32_16x16x32_f16", "v_wmma_f32_16x16x128_f8f6f4", "B",
         {"matrix_b_fmt": 3}),
        ("cdna3", "v_mfma_i32_16x16x32_i8", "v_mfma_i32_16x16x32_i8", "B", {}),
        ("rdna4", "v_wmma_i32_16x16x16_iu8", "v_wmma_i32_16x16x16_iu8", "B", {}),
        ("rdna3", "v_wmma_i32_16x16x16_iu4", "v_wmma_i32_16x16x16_iu4", "B", {"neg": 2}),
        ("rdna3", "v_wmma_i32_16x16x16_iu4", "v_wmma_i32_16x16x16_iu4", "B", {}),
        ("cdna3", "v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x32_fp8_fp8", "B", {}),
    ]
    convs = []
    for arch, src, dst, matrix, mods in cases:
        conv = _plan(arch, src, dst, matrix, transposed=True, dst_mods=mods)
        check_convert.DST_MODS[id(conv)] = mods
        convs.append(conv)
    for mods in ({"cbsz": 4}, {"cbsz": 2}):  # the wide packs' two routes, cross-lane
        for route in ("lds", "registers"):
            conv = _plan("cdna4", "v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x128_f8f6f4",
                         "A", dst_mods=mods, route=route)
            assert conv.kind == "cross-lane" and conv.route == route
            check_convert.DST_MODS[id(conv)] = mods
            convs.append(conv)
    keys = {models.value_key(c) for c in convs}
    assert keys == {"fp8_f16_via_f32", "bf8_bf16_via_f32", "fp8_f16", "bf8_f16", "fp4",
                    "fp6", "bf6", "i8", "u8", "i4", "u4", "fp8_fnuz"}
    assert all(-1 in check_convert.shifts(c) for c in convs)  # a value pass each
    with tempfile.TemporaryDirectory() as folder:
        failures, messages = check_convert.run_host(convs, shutil.which(cc) or cc, folder)
    assert failures == 0, messages[:5]


def test_command_line_gives_each_side_the_modifiers_it_takes():
    """--cbsz picks the f8f6f4 destination's A format although the source takes no
    modifiers; a modifier neither side takes is still refused."""
    status, text = respond(["-a", "gfx950", "--convert", "v_mfma_f32_16x16x32_f16:D",
                            "v_mfma_f32_16x16x128_f8f6f4:A", "--cbsz", "4"])
    assert status == 0 and "Types: f32 -> fp4 (scale 1.0, round to nearest even)" in text
    status, text = respond(["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16:D",
                            "v_mfma_f32_16x16x16_f16:A", "--cbsz", "1"])
    assert status == 2 and "CBSZ" in text


def test_advice_for_the_other_operand_keeps_format_and_signedness():
    """The modifiers of the swapped destination: the signedness bits of A and B trade
    places (read from the modifier table's negation bits and the instruction's rule),
    as do the format fields; a negation of floats or C is left as it is."""
    iu8 = mc.find_instruction("rdna4", "v_wmma_i32_16x16x16_iu8")
    assert _swapped(iu8, {"neg": 1}, 32) == {"neg": 2}
    assert _swapped(iu8, {"neg": 3}, 32) == {"neg": 3}
    gfx1250 = mc.find_instruction("gfx1250", "v_wmma_i32_16x16x64_iu8")
    assert _swapped(gfx1250, {"neg_lo": 2}, 32) == {"neg_lo": 1}
    f16 = mc.find_instruction("rdna4", "v_wmma_f32_16x16x16_f16")
    assert _swapped(f16, {"neg": 1}, 32) == {"neg": 1}
    f8f6f4 = mc.find_instruction("cdna4", "v_mfma_f32_16x16x128_f8f6f4")
    assert _swapped(f8f6f4, {"cbsz": 4}, 64) == {"blgp": 4}
