"""The library refuses wrong input with a CalcError (a ValueError) that names the bad
value and says what is allowed; it never answers silently with something else, and no
other exception escapes (a table of misuses, and their neighbours)."""
import pytest

from matrix_library import api
from matrix_library.api import Modifiers

DENSE = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
MULTI = api.find_instruction("cdna3", "v_mfma_f32_32x32x4_2b_f16")
F8F6F4 = api.find_instruction("cdna4", "v_mfma_f32_16x16x128_f8f6f4")
RDNA = api.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16")

# (id, call, texts the message must contain)
MISUSE = [
    # the misuse table
    ("negative-cbsz-selects-no-format",
     lambda: api.locate(F8F6F4, "A", mods=Modifiers(cbsz=-1)), ["cbsz", "-1", "whole number"]),
    ("negative-abid", lambda: api.locate(MULTI, "A", mods=Modifiers(cbsz=1, abid=-1)),
     ["abid", "-1"]),
    ("bool-cbsz", lambda: api.locate(MULTI, "A", mods=Modifiers(cbsz=True)), ["cbsz", "True"]),
    ("mnemonic-for-instruction", lambda: api.locate("v_mfma_f32_32x32x8_f16", "A"),
     ["'v_mfma_f32_32x32x8_f16'", "Instruction", "find_instruction"]),
    ("string-coordinate", lambda: api.locate(DENSE, "A", i="1"), ["'1'", "whole number"]),
    ("catalog-unknown-wave", lambda: api.catalog(wave=99), ["99", "32 or 64"]),
    # types, bools, negatives and floats of every number
    ("float-coordinate", lambda: api.locate(DENSE, "A", k=1.0), ["1.0", "whole number"]),
    ("bool-coordinate", lambda: api.locate(DENSE, "A", j=True), ["True", "whole number"]),
    ("negative-block", lambda: api.locate(MULTI, "A", block=-1), ["-1", "whole number"]),
    ("string-register", lambda: api.elements_at(DENSE, "A", "0", 0), ["'0'", "whole number"]),
    ("float-lane", lambda: api.elements_at(DENSE, "A", 0, 2.5), ["2.5", "whole number"]),
    ("float-modifier", lambda: api.locate(MULTI, "A", mods={"cbsz": 1.0}), ["1.0", "cbsz"]),
    ("bool-wave", lambda: api.locate(RDNA, "A", wave=True), ["True", "whole number"]),
    ("negative-wave", lambda: api.locate(RDNA, "A", wave=-32), ["-32", "whole number"]),
    ("float-wave", lambda: api.locate(RDNA, "A", wave=32.0), ["32.0", "whole number"]),
    ("catalog-bool-wave", lambda: api.catalog(wave=True), ["True", "whole number"]),
    # unknown names and objects that are not what they should be
    ("unknown-matrix", lambda: api.locate(DENSE, "E"), ["'E'", "A, B, C, D"]),
    ("matrix-not-a-string", lambda: api.locate(DENSE, 1), ["1", "A, B, C, D"]),
    ("unknown-modifier", lambda: api.locate(DENSE, "A", mods={"bogus": 1}), ["'bogus'", "cbsz"]),
    ("modifiers-not-a-mapping", lambda: api.locate(DENSE, "A", mods=5), ["5", "Modifiers"]),
    ("architecture-not-a-string", lambda: api.find_architecture(5), ["5", "cdna3"]),
    ("mnemonic-not-a-string", lambda: api.find_instruction("cdna3", None),
     ["None", "instructions("]),
    ("none-instruction", lambda: api.calculation(None), ["None", "Instruction"]),
    ("number-instruction", lambda: api.facts(42), ["42", "Instruction"]),
    ("instruction-for-slots", lambda: list(api.slots("v_mfma_f32_32x32x8_f16", "A")),
     ["Instruction"]),
    ("instruction-for-supported", lambda: api.supported_modifiers("x"), ["'x'", "Instruction"]),
    ("instruction-for-formulas", lambda: api.formulas("x"), ["'x'", "Instruction"]),
    ("instruction-for-matrices", lambda: api.matrices("x"), ["'x'", "Instruction"]),
    # wave sizes
    ("wave-not-on-cdna", lambda: api.locate(DENSE, "A", wave=32), ["32", "64"]),
    ("wave-not-on-rdna", lambda: api.locate(RDNA, "A", wave=48), ["48", "32 or 64"]),
    ("facts-wave", lambda: api.facts(RDNA, wave=16), ["16", "32 or 64"]),
    # modifier values and combinations
    ("cbsz-above-blocks", lambda: api.locate(MULTI, "A", mods={"cbsz": 2}), ["2", "0 to 1"]),
    ("abid-without-cbsz", lambda: api.locate(MULTI, "A", mods={"abid": 1}),
     ["1", "use 0 (the only value here)"]),
    ("format-code-too-big", lambda: api.with_formats(F8F6F4, {"cbsz": 5}), ["5", "fp4"]),
    ("format-code-negative", lambda: api.with_formats(F8F6F4, {"blgp": -1}), ["-1", "blgp"]),
    ("abid-on-f8f6f4", lambda: api.locate(F8F6F4, "A", mods={"abid": 1}), ["ABID", "only 0"]),
    ("neg-on-cdna", lambda: api.locate(DENSE, "A", mods={"neg": 1}), ["NEG", "1"]),
    ("cbsz-on-rdna", lambda: api.locate(RDNA, "A", mods={"cbsz": 1}), ["CBSZ", "1"]),
]


@pytest.mark.parametrize("call, texts", [case[1:] for case in MISUSE],
                         ids=[case[0] for case in MISUSE])
def test_misuse_raises_calc_error_naming_the_value(call, texts):
    with pytest.raises(api.CalcError) as info:
        call()
    for text in texts:
        assert text in str(info.value), str(info.value)


def test_modifiers_add_keywords_to_a_modifiers_value():
    assert api.modifiers(Modifiers(cbsz=1), abid=1) == Modifiers(cbsz=1, abid=1)
    assert api.modifiers({"cbsz": 1}, blgp=2) == Modifiers(cbsz=1, blgp=2)
    assert api.modifiers(None) == Modifiers()


def test_the_checked_answers_do_not_change():
    """(the checks refuse only bad input: the answers of good input are as before)"""
    assert [str(loc) for loc in api.locate(DENSE, "A", i=5, k=6)] == ["v1{37}.[15:0]"]
    assert api.locate(F8F6F4, "A", mods=Modifiers(cbsz=4)) == \
        api.locate(F8F6F4, "A", mods={"cbsz": 4})
    assert len(api.catalog(wave=32)) == sum(32 in inst.wave_sizes for inst in api.instructions())
