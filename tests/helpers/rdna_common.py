"""Shared helpers of the RDNA3/RDNA4 test modules (test_rdna_*.py): the architectures,
the operands of each instruction in both wave sizes, and small readers of -d output."""
from collections import defaultdict
from functools import cache

import pytest

from instructions import find_architecture
from layouts import Modifiers, Operand
from matrix_library.api import matrices

RDNA3, RDNA4 = find_architecture("rdna3"), find_architecture("rdna4")
ARCHS = {"RDNA3": RDNA3, "RDNA4": RDNA4}
WAVES = (32, 64)
ALL = [inst for arch in (RDNA3, RDNA4) for inst in arch.instructions]


def find(arch, mnemonic):
    inst = ARCHS[arch].find(mnemonic)
    assert inst is not None, (arch, mnemonic)
    return inst


@cache
def operand(inst, matrix, wave, mods=Modifiers()):
    return Operand(inst, matrix, mods, wave)


def slots(op, lanes=None):
    """{(reg, lane): [(place, (elements held there, in order))]} of every register slot."""
    table = {}
    for reg in range(op.register_count):
        for lane in range(op.wave if lanes is None else lanes):
            held = defaultdict(list)
            for place, elem in op.entries(reg, lane):
                held[place].append(elem)
            table[reg, lane] = list(held.items())
    return table


def ids(inst, *rest):
    return "-".join([inst.arch, inst.mnemonic] + [str(r) for r in rest])


def cases(insts, waves=WAVES, per_matrix=True):
    out = []
    for inst in insts:
        for wave in waves:
            for matrix in (matrices(inst) if per_matrix else (None,)):
                args = (inst, wave, matrix) if per_matrix else (inst, wave)
                out.append(pytest.param(*args, id=ids(inst, f"w{wave}", *args[2:])))
    return out


def detail_value(out, section, key):
    """The value printed as `key: value` in -d output, below the `section:` heading."""
    lines = out.splitlines()
    start = lines.index(f"    {section}:") if section else 0
    for line in lines[start + 1:]:
        if line.strip().startswith(f"{key}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{key!r} not under {section!r}")


@cache
def _slots_of(inst, matrix, wave, mods):
    return slots(operand(inst, matrix, wave, mods))


def slots_of(op):
    return _slots_of(op.inst, op.matrix, op.wave, op.mods)


def expected_mark(inst, matrix, header, neg, neg_hi):
    """§8.5 / B.3 / the README's NEG section: A and B halves are negated by NEG (bits
    15:0) and NEG_HI (bits 31:16), bit 0 for A and bit 1 for B, and the mark is shown only
    where the printed slot is one 16-bit half (never 8/4-bit data, the 32-bit pairs of a
    16-bit sparse A, or K); C is negated by NEG[2] and made absolute by NEG_HI[2].
    Integer instructions follow the same display rule: their NEG[1:0] (signedness) shows
    only on the 16-bit pairs of v_swmmac_i32_16x16x32_iu8's A, as the golden record
    `-a rdna4 -i v_swmmac_i32_16x16x32_iu8 -m -A -r 0 -l 4 --neg 3` shows (§8.5's
    "nothing is displayed" for integers does not hold there)."""
    if not inst.neg:
        return ""
    if matrix == "C":
        return ("-" if neg & 4 else "") + ("|" if neg_hi & 4 else "")
    if matrix not in "AB" or not header.endswith((".[15:0]", ".[31:16]")):
        return ""
    mask = neg if header.endswith(".[15:0]") else neg_hi
    return "-" if mask & (1 if matrix == "A" else 2) else ""
