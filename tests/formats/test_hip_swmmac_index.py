"""The sparse index of a SWMMAC's HIP example: an RDNA4 SWMMAC's OPSEL picks one
slice of the index VGPR (its index set), so the example must load the whole VGPR and pass
the builtin the slice OPSEL picks. Once the example loaded only the low 16 bits (a
`short`) and shifted those: zero for every OPSEL above 0, the index thrown away.

Checked here without a compiler: the loaded type, the shift (read off the engine's K
layout: where OPSEL's set begins in the VGPR), and the empty asm that keeps clang from
folding the shift (so that it encodes index_key). scripts/check_hip.py (run by
tests/external/test_hip_clang.py where clang-22 is installed) compiles every SWMMAC at every OPSEL
and checks that the assembly carries index_key:OPSEL and that the index register is not
set from a constant (tests/data: none, it runs live)."""
import re

import pytest

from formats import hip
from matrix_library import api as mc
from matrix_library import code, drawing


def opsel_cases():
    cases = []
    for arch in mc.architectures():
        for inst in arch.instructions:
            if not inst.sparse or not inst.opsel:
                continue
            builtins = drawing.wmma_builtins(inst)
            if builtins is None or builtins.operand_modifiers:
                continue
            for wave in arch.waves:
                top = 32 // drawing.index_bits_per_lane(inst, wave)
                cases += [(inst, wave, opsel) for opsel in range(top)]
    return cases


CASES = opsel_cases()


def first_bit(inst, wave, opsel):
    """The bit of the index VGPR where OPSEL's index set begins (the engine's fragment)."""
    operand = drawing.engine_operand(inst, "K", mc.Modifiers(opsel=opsel), wave)
    return code.fragment(operand).base_bit


def test_the_cases_cover_rdna4_in_both_waves():
    assert {(inst.arch, wave) for inst, wave, _ in CASES} >= {("RDNA4", 32), ("RDNA4", 64)}
    assert len(CASES) >= 40 and max(opsel for _, _, opsel in CASES) == 3


@pytest.mark.parametrize("inst, wave, opsel", CASES,
                         ids=[f"{i.mnemonic}-w{w}-opsel{o}" for i, w, o in CASES])
def test_the_example_passes_the_index_set_opsel_picks(inst, wave, opsel):
    text = hip.emit(inst, None, mc.Modifiers(opsel=opsel), wave)
    loaded = re.search(r"^    (\w+) k = (\w+)_k_load\(", text, re.M)
    assert loaded and loaded.group(1) == "int", "the whole index VGPR is loaded"
    index = re.search(r"/\*index=\*/(.*?)(?:\);|,)$", text, re.M).group(1)
    shift = first_bit(inst, wave, opsel)
    if opsel:
        assert index == f"(int)((unsigned int)k >> {shift})"
        assert '__asm__ volatile("" : "+v"(k));' in text  # clang encodes the shift
    else:
        assert index == "k" and "__asm__" not in text


def test_the_shift_is_where_the_engine_puts_the_index_set():
    """The K fragment of OPSEL o begins o * (index bits per lane) into the VGPR."""
    for inst, wave, opsel in CASES:
        assert first_bit(inst, wave, opsel) == opsel * drawing.index_bits_per_lane(inst, wave), \
            (inst.name, wave, opsel)
