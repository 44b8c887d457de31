"""The shared modifier range functions: what an instruction allows of each modifier (a
Rule: range, matrices, meaning), by the range name of the modifier table (instructions/
modifiers.py ModifierSpec.range). A family module's own (its `RANGES`, layouts/family.py)
add to or replace these. layouts/legality.py checks values against them."""
from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import F8F6F4_NAMES, Modifiers, ModifierSpec, Rule

from layouts.modifiers import blgp_negates

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # A range function: (spec, inst, mods, wave) -> what `inst` allows (None: not taken).
    RangeFunction = Callable[[ModifierSpec, Instruction, Modifiers, int], Rule | None]

ALL = ("A", "B", "C", "D", "K", "SA", "SB")
INPUTS = ("A", "B", "C", "K", "SA", "SB")  # every matrix but D


def fixed(spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    """The spec's own range 0..top and matrices (any, for an instruction-wide setting),
    for an instruction that declares it."""
    if not inst.takes(spec.name):
        return None
    return Rule(spec.top, ALL if spec.anywhere else spec.matrices,
                mask=spec.top if spec.mask else -1, names=spec.names)


# ---- CDNA: CBSZ broadcasts A blocks (ABID: layouts/cdna.py), BLGP swizzles B lanes or
# negates; on f8f6f4 instructions CBSZ and BLGP name the A and B formats instead.

def _format() -> Rule:
    return Rule(len(F8F6F4_NAMES) - 1, ALL, names=F8F6F4_NAMES, meaning="format")


def cbsz(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    if not inst.takes("cbsz"):
        return None
    if inst.formats_by_cbsz_blgp:
        return _format()
    top = 3 if inst.sparse else inst.blocks.bit_length() - 1
    return Rule(top, ("A", "K"), meaning="broadcast")


def blgp(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    if not inst.takes("blgp"):
        return None
    if inst.formats_by_cbsz_blgp:
        return _format()
    if blgp_negates(inst):
        return Rule(7, ("A", "B", "C"), mask=7, meaning="negate")
    return Rule(7, ("B",), meaning="lane_pattern")


# ---- RDNA: NEG / NEG_HI.

def neg(spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    """NEG / NEG_HI: bits 0-2 act on A, B, C; integer instructions: NEG 0-3 (the
    signedness of A and B) and no NEG_HI."""
    if not inst.takes("neg") or spec.name not in ("neg", "neg_hi"):
        return None
    if inst.is_int:
        return None if spec.name == "neg_hi" else Rule(3, INPUTS, mask=3, meaning="signed")
    return Rule(7, INPUTS, mask=7, meaning="negate")


# (abid, opsel: only the families that define them)
RANGES: dict[str, RangeFunction] = {"": fixed, "cbsz": cbsz, "blgp": blgp, "neg": neg}
