"""The printed (-d) formulas of every CDNA4 instruction, format pair and OPSEL,
evaluated against the engine (CDNA4 has no known-defect exceptions).

(Split from the former test_cdna4.py; shared helpers in cdna4_common.py.)
"""
from collections import defaultdict

import pytest
from cdna4_common import CDNA4, PAIRS
from test_formulas import (
    AXES,
    backward_label,
    compile_formula,
    compile_gpr,
    compile_values,
    forward_label,
    span,
)

from instructions.model import F8F6F4_FORMATS
from layouts import Modifiers, Operand
from layouts.formulas_cdna import sections
from matrix_api import matrices

# ---- the printed formulas ----------------------------------------------------------------

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
