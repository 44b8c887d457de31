"""Round trip and bit coverage of every CDNA4 f8f6f4 format pair and of the scale
operands under every OPSEL.

(Shared helpers: tests/helpers/cdna4_common.py.)
"""
from collections import defaultdict

import pytest

from layouts import Operand
from tests.helpers import sampled
from tests.helpers.cdna4_common import CDNA4, PAIRS, operand, where
from tests.helpers.cdna4_facts import F8F6F4, F8F6F4_REGISTERS, FORMATS, S16, S32, U16

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
@pytest.mark.parametrize("cbsz, blgp", sampled(PAIRS, [f"cbsz{a}-blgp{b}" for a, b in PAIRS]))
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


@pytest.mark.slow
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
