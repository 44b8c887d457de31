"""Every printed RDNA -d formula (layouts.formulas_rdna) evaluated for every element and
register slot in both wave sizes; the reference's known misprints stay listed.

(Split from the former test_rdna.py; shared helpers in rdna_common.py.)
"""
import re
from collections import defaultdict

import pytest
from rdna_common import ALL, WAVES, cases, operand, slots
from test_formulas import (
    AXES,
    backward_label,
    backward_mismatches,
    compile_formula,
    compile_gpr,
    forward_label,
    span,
)

from layouts import formula_sections as sections
from layouts.formulas_rdna import LANES_0_31, NOTE
from matrix_api import matrices


# ======================================================================================
# 5. The printed -d formulas, evaluated for every element and register slot
# ======================================================================================
# (arch, mnemonic, wave, label): a formula the reference prints wrongly (reproduced for
# byte compatibility), with the text that would be right. Each must still fail as printed
# and pass repaired, so this list cannot go stale.
def _strip_bits(text):
    return text[:-len(".[15:0]")] if text.endswith(".[15:0]") else text


def _close(text):
    return text + ")"


def _group(formula):
    def repair(text):
        return text.replace("4 * floor(GPR_bits / 4) % 4)", "4 * (floor(GPR_bits / 4) % 4)")
    return tuple(repair(t) for t in formula[:2]) + formula[2:]


KNOWN_REFERENCE_DEFECTS = {
    # RDNA3 16-bit C/D: the row index is printed with a bit range, `(...).[15:0]`
    **{("RDNA3", m, w, "C or D i"): _strip_bits
       for m in ("v_wmma_f16_16x16x16_f16", "v_wmma_bf16_16x16x16_bf16") for w in WAVES},
    # v_swmmac_i32_16x16x32_iu4: unbalanced parentheses
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 32, "compression k"): _group,
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 64, "compression k"): _group,
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 64, "A[i][k] Lane"): _close,
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 64, "compression[i][k] Lane"): _close,
}
NOTE_MATRICES = {"A matrix": "A", "B matrix": "B", "compression indices": "K"}


class Slots:
    """What test_formulas.backward_mismatches reads: the matrix and its register slots
    (GPR_num, lane, the value's bits inside that VGPR, elements)."""

    def __init__(self, op, lanes):
        self.matrix = op.matrix
        self.slots = [(reg, lane, (p.lo, min(p.hi, 31)), elems)
                      for (reg, lane), held in slots(op, lanes).items() for p, elems in held]


def lane_formulas(text):
    """'i and i+16' / 'i, i+16, i+32, and i+48' / one expression -> compiled lanes."""
    return [compile_formula(part) for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", text)]


def forward_wrong(op, kind, text):
    """How many elements the element -> register formula gets wrong."""
    compute = compile_gpr(text) if kind == "GPR" else lane_formulas(text)
    wrong = 0
    for elem in op.elements():
        places = op.places(*elem)
        names = dict(zip(AXES[op.matrix], elem[:2]))
        if kind == "GPR":
            wrong += {span(p) for p in places} != {compute(**names)}
        else:
            wrong += {p.lane for p in places} != {f(**names) for f in compute}
    return wrong


def backward_wrong(op, coord, formula):
    """How many register slots the register -> element formula gets wrong."""
    lanes = 32 if formula[2:] == (LANES_0_31,) else None
    if isinstance(formula, tuple):
        formula = formula[:2]
    return backward_mismatches(Slots(op, lanes), coord, formula)[0]


def verdict(inst, wave, label, text):
    """Wrong evaluations of one formula line (a text that does not parse counts as one)."""
    if label == NOTE:
        matrix = NOTE_MATRICES[re.fullmatch(r"All lanes > 32 are ignored for (.*)", text)[1]]
        op = operand(inst, matrix, wave)
        return sum(1 for e in op.elements() for p in op.places(*e) if p.lane >= 32)
    forward = "[" in label
    names, what = forward_label(label) if forward else backward_label(label)
    check = forward_wrong if forward else backward_wrong
    try:
        return sum(check(operand(inst, m, wave), what, text) for m in names)
    except ValueError:
        return 1


def formula_lines(inst):
    for wave, (forward, backward) in sections(inst).items():
        for label, text in forward + backward:
            yield wave, label, text


@pytest.mark.parametrize("inst, wave", cases(ALL, per_matrix=False))
def test_rdna_formulas_agree_with_the_engine(inst, wave):
    forward, backward = sections(inst)[wave]
    described = defaultdict(set)
    for label, _ in forward + backward:
        if label != NOTE:
            names, what = forward_label(label) if "[" in label else backward_label(label)
            for m in names:
                described[m].add(what)
    for matrix in matrices(inst):
        assert described[matrix] >= {"GPR", "Lane", *AXES[matrix]}, matrix
    wrong = {}
    for label, text in forward + backward:
        key = (inst.arch, inst.mnemonic, wave, label)
        bad = verdict(inst, wave, label, text)
        if key in KNOWN_REFERENCE_DEFECTS:
            assert bad, f"{key} is right now: drop it from KNOWN_REFERENCE_DEFECTS"
            repaired = KNOWN_REFERENCE_DEFECTS[key](text)
            assert verdict(inst, wave, label, repaired) == 0, (key, repaired)
        elif bad:
            wrong[label] = (text, bad)
    assert not wrong, wrong


def test_rdna_notes_name_every_half_empty_operand():
    """The -d notes ("All lanes > 32 are ignored ...") appear exactly for the wave64
    operands whose lanes 32-63 are empty (index matrix and A/B; D is never half empty)."""
    noted = {(inst.mnemonic, wave, NOTE_MATRICES[text.rsplit(" for ", 1)[1]])
             for inst in ALL for wave, label, text in formula_lines(inst) if label == NOTE}
    empty = set()
    for inst in ALL:
        for matrix in matrices(inst):
            op = operand(inst, matrix, 64)
            if all(p.lane < 32 for e in op.elements() for p in op.places(*e)):
                empty.add((inst.mnemonic, 64, matrix))
    # The reference has no B note for v_swmmac_i32_16x16x32_iu4 (its B uses all lanes).
    assert noted == empty


def test_known_defects_name_real_formulas():
    labels = {(inst.arch, inst.mnemonic, wave, label)
              for inst in ALL for wave, label, _ in formula_lines(inst)}
    assert set(KNOWN_REFERENCE_DEFECTS) <= labels


def test_detail_prints_every_rdna_formula(run):
    """Each formula line under its own heading of -d (long ones wrapped into `through`)."""
    heading = re.compile(r"Wave(32|64) (matrix element to register|register to matrix element) "
                         r"mapping with no modifiers:")
    for inst in ALL:
        rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-d"])
        assert (rc, err) == (0, "")
        parts = heading.split(" ".join(out.split()))
        shown = {(int(wave), kind.startswith("matrix")): text
                 for wave, kind, text in zip(parts[1::3], parts[2::3], parts[3::3])}
        assert len(shown) == 4
        for wave in WAVES:
            for is_forward, lines in zip((True, False), sections(inst)[wave]):
                for label, formula in lines:
                    if isinstance(formula, tuple):
                        marker = "(lanes 0-31 only) " if formula[2:] == (LANES_0_31,) else ""
                        formula = marker + " through ".join(formula[:2])
                    line = formula if label == NOTE else f"{label}: {formula}"
                    assert line in shown[wave, is_forward], (inst.mnemonic, wave, label)
