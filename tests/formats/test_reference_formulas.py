"""The reference tool's -d formula texts (formats/reference_formulas_*.py, the text-only
overlay of quirk `reference_formulas`), evaluated against the engine for every element
and register slot of every CDNA and RDNA instruction of the architectures that declare
the quirk. A few are printed wrongly by the reference and reproduced for byte
compatibility: the texts that disagree with the engine must be exactly those the product
declares (formats/quirks.py reference_formula_defects), and -d must print one stderr note
for each, naming the line and the engine's formula, with stdout unchanged. The formulas
derived from the layouts (what JSON and the library give) are evaluated by
tests/layouts/test_formula_evaluator.py.
"""
import re
from collections import defaultdict

import pytest

from formats.quirks import reference_formula_defects, reference_formulas
from formats.reference_formulas_rdna import LANES_0_31, NOTE
from instructions import ARCHITECTURES
from tests.helpers.formula_eval import (
    AXES,
    Views,
    backward_label,
    backward_mismatches,
    compile_formula,
    compile_gpr,
    forward_label,
    forward_mismatches,
    span,
)
from tests.helpers.rdna_common import matrices, operand, slots

WAVES = (32, 64)


def sections(inst):
    return reference_formulas(inst)[64]


# ---- known defects of the reference's formula texts --------------------------------------


def family(inst):
    """The arch-independent layout family: kind, input width, M x N."""
    return f"{inst.kind}-{inst.a_type.bits}bit-{inst.m}x{inst.n}"


# What the reference prints wrongly, by evaluation (the declared defects must match it):
# sparse 16-bit A `A k` lacks the lane's K group; sparse 16-bit B's VGPR is `(k % 4)`
# instead of `(floor(k / 2) % 4)`; FP64 16x16x4 `C or D i` lacks `floor(lane / 16)`.
NOTE_LINE = re.compile(r'matrix_calculator\.py: note: -d\'s line(?: \(wave(\d+)\))? "([^:"]+): '
                       r'.*" is the reference calculator\'s text, kept byte for byte, and it is '
                       r"wrong; the engine's formula: (.+)")


def noted_lines(err, wave=None):
    """{(wave, label)} of the -d notes on stderr; every stderr line must be one."""
    found = set()
    for line in err.splitlines():
        match = NOTE_LINE.fullmatch(line)
        assert match, line
        found.add((int(match[1]) if match[1] else wave, match[2]))
    return found


def declared(inst):
    return {(wave, label) for wave, labels in reference_formula_defects(inst).items()
            for label in labels}


# Every instruction of the architectures whose -d prints the reference's texts, by the
# layout family of those texts (CDNA: one wave size; RDNA: both, below).
REFERENCE = [inst for arch in ARCHITECTURES if "reference_formulas" in arch.quirks
             for inst in arch.instructions]
CDNA_INSTRUCTIONS = [inst for inst in REFERENCE if inst.wave_sizes == (64,)]
ALL = [inst for inst in REFERENCE if inst.wave_sizes == WAVES]  # RDNA3 and RDNA4


def formula_verdicts(inst):
    """({label: (wrong evaluations, an example)}, {matrix: what its formulas give})."""
    forward, backward = sections(inst)
    views = {}
    lines = [(label, text, forward_label(label), forward_mismatches) for label, text in forward]
    lines += [(label, text, backward_label(label), backward_mismatches)
              for label, text in backward]
    verdicts, described = {}, defaultdict(set)
    for label, text, (names, what), check in lines:
        for m in names:
            if m not in views:
                views[m] = Views(inst, m)
        results = [check(views[m], what, text) for m in names]
        verdicts[label] = (sum(r[0] for r in results), next((r[1] for r in results if r[0]), None))
        for m in names:
            described[m].add(what)
    return verdicts, described


@pytest.mark.parametrize("inst", CDNA_INSTRUCTIONS,
                         ids=[f"{i.arch}-{i.mnemonic}" for i in CDNA_INSTRUCTIONS])
def test_cdna_texts_agree_with_the_engine(inst):
    verdicts, described = formula_verdicts(inst)
    for matrix in (("A", "B", "K", "D") if inst.sparse else ("A", "B", "C", "D")):
        assert described[matrix] >= {"GPR", "Lane", *AXES[matrix]}, matrix
    wrong = {(64, label) for label, v in verdicts.items() if v[0]}
    assert wrong == declared(inst), {label: verdicts[label] for _, label in wrong}


def test_the_known_wrong_families():
    """The five families whose reference texts are wrong (one or more lines each)."""
    families = {family(inst) for inst in CDNA_INSTRUCTIONS if declared(inst)}
    assert families == {"smfmac-16bit-16x16", "smfmac-16bit-32x32", "mfma-64bit-16x16"}
    rdna = {(inst.arch, inst.out_type.bits, inst.sparse) for inst in ALL if declared(inst)}
    assert rdna == {("RDNA3", 16, False), ("RDNA4", 32, True)}


def test_detail_prints_the_formula_lines(run):
    """Every formula line on stdout; on stderr one note exactly per line that disagrees
    with the engine, naming it and the engine's formula (that of --json)."""
    for inst in CDNA_INSTRUCTIONS:
        rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-d"])
        assert rc == 0
        assert noted_lines(err, 64) == {(64, label) for label, v
                                        in formula_verdicts(inst)[0].items() if v[0]}
        text = " ".join(out.split())  # wrapped `through` lines joined back
        forward, backward = sections(inst)
        for label, formula in forward + backward:
            shown = " through ".join(formula) if isinstance(formula, tuple) else formula
            assert f"{label}: {shown}" in text, (inst.mnemonic, label)


def test_rdna4_iu4_k_formulas_are_the_references():
    """The reference prints `8 * floor(lane / 16) + floor(GPR_bits / 4)` for A and B k
    of RDNA4 v_wmma_i32_16x16x16_iu4 in both wave sizes (lanes from 32 up are ignored in
    wave64, so no `% 2` is needed)."""
    from matrix_library import api
    inst = api.find_instruction("rdna4", "v_wmma_i32_16x16x16_iu4")
    texts = [text for wave in WAVES for label, text in reference_formulas(inst)[wave][1]
             if label in ("A k", "B k")]
    assert texts == ["8 * floor(lane / 16) + floor(GPR_bits / 4)"] * 4


# ---- RDNA3 / RDNA4 (both wave sizes) ------------------------------------------------------

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


RDNA_REFERENCE_DEFECTS = {
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


def rdna_sections(inst):
    return reference_formulas(inst)


def formula_lines_of(inst, wave):
    forward, backward = rdna_sections(inst)[wave]
    return forward + backward


def formula_lines(inst):
    for wave, (forward, backward) in rdna_sections(inst).items():
        for label, text in forward + backward:
            yield wave, label, text


@pytest.mark.parametrize("inst, wave", [pytest.param(i, w, id=f"{i.arch}-{i.mnemonic}-w{w}")
                                        for i in ALL for w in WAVES])
def test_rdna_texts_agree_with_the_engine(inst, wave):
    forward, backward = rdna_sections(inst)[wave]
    described = defaultdict(set)
    for label, _ in forward + backward:
        if label != NOTE:
            names, what = forward_label(label) if "[" in label else backward_label(label)
            for m in names:
                described[m].add(what)
    for matrix in matrices(inst):
        assert described[matrix] >= {"GPR", "Lane", *AXES[matrix]}, matrix
    wrong = set()
    for label, text in forward + backward:
        key = (inst.arch, inst.mnemonic, wave, label)
        bad = verdict(inst, wave, label, text)
        if bad:
            wrong.add((wave, label))
        if key in RDNA_REFERENCE_DEFECTS:
            assert bad, f"{key} is right now: drop it from RDNA_REFERENCE_DEFECTS"
            repaired = RDNA_REFERENCE_DEFECTS[key](text)
            assert verdict(inst, wave, label, repaired) == 0, (key, repaired)
    assert wrong == {(w, label) for w, label in declared(inst) if w == wave}


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


def test_rdna_known_defects_name_real_formulas():
    labels = {(inst.arch, inst.mnemonic, wave, label)
              for inst in ALL for wave, label, _ in formula_lines(inst)}
    assert set(RDNA_REFERENCE_DEFECTS) <= labels


def test_detail_prints_every_rdna_formula(run):
    """Each formula line under its own heading of -d (long ones wrapped into `through`)."""
    heading = re.compile(r"Wave(32|64) (matrix element to register|register to matrix element) "
                         r"mapping with no modifiers:")
    for inst in ALL:
        rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-d"])
        assert rc == 0
        assert noted_lines(err) == {(wave, label) for wave in WAVES
                                    for label, text in formula_lines_of(inst, wave)
                                    if verdict(inst, wave, label, text)}
        parts = heading.split(" ".join(out.split()))
        shown = {(int(wave), kind.startswith("matrix")): text
                 for wave, kind, text in zip(parts[1::3], parts[2::3], parts[3::3])}
        assert len(shown) == 4
        for wave in WAVES:
            for is_forward, lines in zip((True, False), rdna_sections(inst)[wave]):
                for label, formula in lines:
                    if isinstance(formula, tuple):
                        marker = "(lanes 0-31 only) " if formula[2:] == (LANES_0_31,) else ""
                        formula = marker + " through ".join(formula[:2])
                    line = formula if label == NOTE else f"{label}: {formula}"
                    assert line in shown[wave, is_forward], (inst.mnemonic, wave, label)


def test_fp64_note_gives_the_engines_row(run):
    """-m says register 2 of lane 16 holds D[5][0]; the reference's `4 * floor(GPR_num / 2)`
    gives 4, the engine's formula in the note 5 (b = 64: 1 + 4 * 1)."""
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-d"])
    assert rc == 0 and "        C or D i: 4 * floor(GPR_num / 2)\n" in out
    assert err == ("matrix_calculator.py: note: -d's line \"C or D i: 4 * floor(GPR_num / 2)\""
                   " is the reference calculator's text, kept byte for byte, and it is wrong;"
                   " the engine's formula: C or D i: (floor(lane / 16) % 4) + 4 * "
                   "(floor(b / 64) % 4), where b = 32 * GPR_num + GPR_bits (bit offset in the"
                   " operand)\n")
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-m", "-D", "-r", "2",
                        "-l", "16"])
    assert "D[5][0]" in out


def test_json_gives_the_engines_formulas_and_no_note(run):
    """-d --json carries the engine's formula for each line -d notes, and no note."""
    import json

    from matrix_library.drawing import formula_sections
    for inst in [i for i in REFERENCE if declared(i)]:
        rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-d", "--json"])
        assert (rc, err) == (0, "")
        shown = {(f["wave"], f["label"], f["text"]) for f in json.loads(out)["formulas"]}
        engine = {(wave, label, text) for wave, sides in formula_sections(inst).items()
                  for side in sides for label, text in side if label != "note"}
        assert engine <= shown, inst.mnemonic
