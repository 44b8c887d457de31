"""The one legality check over the modifier table (layouts/legality.py): every value
out of range is refused, naming the range, before it is used (a huge CBSZ must not
make the check compute 1 << cbsz), and what the table allows is accepted; with every
modifier 0 neither the check nor a family's marks run."""
import time

import pytest

import layouts
from instructions import ARCHITECTURES, find_architecture
from instructions.modifiers import MODIFIERS, Modifiers
from layouts import MATRICES, Operand, check_modifiers
from layouts.core import Place
from layouts.family import hooks
from layouts.legality import rule, takes
from matrix_library import api

HUGE = 10 ** 10
ENORMOUS = 1 << 100_000


def instructions():
    return [inst for arch in ARCHITECTURES for inst in arch.instructions]


@pytest.mark.slow
def test_a_huge_value_is_refused_at_once_for_every_instruction_and_modifier():
    slow = []
    for inst in instructions():
        for spec in MODIFIERS:
            for value in (HUGE, ENORMOUS):
                mods, times = Modifiers(**{spec.name: value}), []
                for _ in range(3):  # (the fastest of three: the machine may be busy)
                    start = time.perf_counter()
                    with pytest.raises(api.CalcError) as info:
                        check_modifiers(inst, "A", mods, True, wave=inst.wave_sizes[0])
                    times.append(time.perf_counter() - start)
                if min(times) > 0.02:
                    slow.append((inst.mnemonic, spec.name, min(times)))
                text = str(info.value)
                assert "out of range" in text or "not" in text, text
                assert (value == HUGE) == ("10000000000" in text), text
    assert not slow, slow[:5]


def test_huge_cbsz_and_abid_through_the_library_name_the_range():
    inst = api.find_instruction("cdna3", "v_mfma_f32_16x16x1_4b_f32")  # 4 blocks
    with pytest.raises(api.CalcError, match="CBSZ 10000000000 is out of range.*0 to 2"):
        api.locate(inst, "A", mods={"cbsz": HUGE})
    with pytest.raises(api.CalcError, match="ABID 10000000000 .* with CBSZ 2.*0 to 3"):
        api.locate(inst, "A", mods={"cbsz": 2, "abid": HUGE})


def test_the_top_of_every_range_is_accepted_and_one_more_refused():
    """For each instruction and modifier it takes, on a matrix the rule names: the
    largest value passes, the next is refused (bit masks: the mask itself passes)."""
    checked = 0
    for inst in instructions():
        wave = inst.wave_sizes[0]
        for spec in takes(inst, wave):
            found = rule(spec, inst, Modifiers(), wave)
            top = found.mask if found.mask >= 0 else found.top
            if not top:
                continue
            matrix = next(m for m in found.matrices if m in api.matrices(inst))
            check_modifiers(inst, matrix, Modifiers(**{spec.name: top}), False, wave=wave)
            with pytest.raises(api.CalcError):
                check_modifiers(inst, matrix, Modifiers(**{spec.name: found.top + 1}), False,
                                wave=wave)
            checked += 1
    assert checked > 200, checked


def test_a_modifier_on_a_matrix_it_does_not_act_on():
    inst = api.find_instruction("cdna3", "v_mfma_f32_16x16x1_4b_f32")
    with pytest.raises(api.CalcError, match="CBSZ acts on the A matrix or the compression"):
        check_modifiers(inst, "B", Modifiers(cbsz=1), False)
    check_modifiers(inst, "D", Modifiers(cbsz=1), True)  # D with -o takes it


def test_what_an_instruction_takes():
    wave32 = api.find_instruction("rdna4", "v_swmmac_f32_16x16x32_f16")
    assert [s.name for s in takes(wave32, 32)] == ["opsel", "neg", "neg_hi"]
    assert rule(takes(wave32, 32)[0], wave32, Modifiers(), 32).meaning == "index_set"
    rdna3 = api.find_instruction("rdna3", "v_wmma_f16_16x16x16_f16")
    opsel = rule(takes(rdna3, 32)[0], rdna3, Modifiers(), 32)
    assert (opsel.values, opsel.meaning) == ((4,), "cd_half")


def test_with_every_modifier_0_the_check_does_not_run(monkeypatch):
    def refuse(*_args):
        raise AssertionError("the legality check ran")
    monkeypatch.setattr(layouts, "check", refuse)
    inst = find_architecture("cdna3").find("v_mfma_f32_32x32x8_f16")
    check_modifiers(inst, "A", Modifiers(), False)
    with pytest.raises(AssertionError, match="check ran"):
        check_modifiers(inst, "A", Modifiers(cbsz=1), False)


def test_with_every_modifier_0_no_value_is_marked():
    """(what lets Operand skip a family's mark functions when no modifier is given)"""
    places = [Place(0, 0, lo, width) for lo, width in ((0, 16), (16, 16), (0, 32), (0, 8))]
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            family = hooks(inst)
            for matrix in MATRICES:
                if family.mark:
                    assert family.mark(inst, matrix, Modifiers()) == "", (inst.name, matrix)
                if family.half_mark:
                    assert {family.half_mark(inst, matrix, Modifiers(), p)
                            for p in places} == {""}, (inst.name, matrix)


def test_a_negation_still_marks_the_operand():
    inst = next(i for i in find_architecture("rdna3").instructions if i.neg and not i.is_int)
    assert Operand(inst, "C", Modifiers(neg=4), 32).mark == "-"
    assert Operand(inst, "C", Modifiers(), 32).mark == ""
