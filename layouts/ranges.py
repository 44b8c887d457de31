"""The modifier range functions: what an instruction allows of each modifier (a Rule:
range, matrices, meaning), by the range name of the modifier table (instructions/
modifiers.py ModifierSpec.range). RANGES are the shared ones; a family names its own in
its registry line (layouts/family.py, through layouts/hooks.py), which replace these.
layouts/legality.py checks values against them."""
from __future__ import annotations

from typing import TYPE_CHECKING

from instructions.modifiers import Rule

from layouts.modifiers import blgp_negates

if TYPE_CHECKING:
    from collections.abc import Callable

    from instructions.model import Instruction
    from instructions.modifiers import Modifiers, ModifierSpec

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


# ---- CDNA: CBSZ/ABID broadcast A blocks, BLGP swizzles B lanes or negates; on f8f6f4
# instructions CBSZ and BLGP name the A and B formats instead.

def _format() -> Rule:
    from instructions.modifiers import F8F6F4_NAMES
    return Rule(len(F8F6F4_NAMES) - 1, ALL, names=F8F6F4_NAMES, meaning="format")


def cbsz(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    if not inst.takes("cbsz"):
        return None
    if inst.formats_by_cbsz_blgp:
        return _format()
    top = 3 if inst.sparse else inst.blocks.bit_length() - 1
    return Rule(top, ("A", "K"), meaning="broadcast")


def abid(_spec: ModifierSpec, inst: Instruction, mods: Modifiers, _wave: int) -> Rule | None:
    """(CBSZ is checked before ABID, so 1 << cbsz is small here.)"""
    if not inst.takes("abid") or inst.formats_by_cbsz_blgp:
        return None
    if inst.sparse:  # ABID picks one of the index sets of the Src2 VGPR
        from layouts.cdna import sparse_lane_k
        return Rule(32 // sparse_lane_k(inst) - 1, ("A", "K"), meaning="index_set")
    return Rule((1 << mods.cbsz) - 1, ("A", "K"), meaning="broadcast",
                needs=f" with CBSZ {mods.cbsz}")


def blgp(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    if not inst.takes("blgp"):
        return None
    if inst.formats_by_cbsz_blgp:
        return _format()
    if blgp_negates(inst):
        return Rule(7, ("A", "B", "C"), mask=7, meaning="negate")
    return Rule(7, ("B",), meaning="lane_pattern")


# ---- RDNA: OPSEL, NEG / NEG_HI; gfx1250: neg_lo / neg_hi as LLVM accepts them.

def cd_half_opsel(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers,
                  _wave: int) -> Rule | None:
    """OPSEL[2] selects the C/D register half (0: low halves, 4: high halves)."""
    if not inst.takes("opsel"):
        return None
    return Rule(4, ("C", "D"), output=False, values=(4,), meaning="cd_half")


def opsel_limit(inst: Instruction, wave: int) -> int:
    """Largest legal OPSEL of an RDNA4 SWMMAC: one index set per `bits per lane` slice."""
    from layouts.rdna import index_bits_per_lane
    return 32 // index_bits_per_lane(inst, wave) - 1


def index_set_opsel(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers,
                    wave: int) -> Rule | None:
    """OPSEL selects the compression-index set of a SWMMAC."""
    if not inst.takes("opsel"):
        return None
    return Rule(opsel_limit(inst, wave), ("K",), output=False, meaning="index_set",
                needs=f" (wave{wave})")


def neg(spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    """NEG / NEG_HI: bits 0-2 act on A, B, C; integer instructions: NEG 0-3 (the
    signedness of A and B) and no NEG_HI."""
    if not inst.takes("neg") or spec.name not in ("neg", "neg_hi"):
        return None
    if inst.is_int:
        return None if spec.name == "neg_hi" else Rule(3, INPUTS, mask=3, meaning="signed")
    return Rule(7, INPUTS, mask=7, meaning="negate")


def llvm_neg(spec: ModifierSpec, inst: Instruction, _mods: Modifiers,
             _wave: int) -> Rule | None:
    """neg_lo / neg_hi: the bits LLVM's assembler accepts (layouts.gfx1250.neg_masks);
    integer instructions: neg_lo[0/1] are the signedness of A and B."""
    if spec.name not in ("neg_lo", "neg_hi") or not inst.takes("neg_lo"):
        return None
    from layouts.gfx1250 import neg_masks
    lo, hi = neg_masks(inst)
    return Rule(7, INPUTS, mask=lo if spec.name == "neg_lo" else hi,
                meaning="signed" if inst.is_int else "negate")


RANGES: dict[str, RangeFunction] = {"": fixed, "cbsz": cbsz, "abid": abid, "blgp": blgp,
                                    "neg": neg}  # (opsel: only the families that define it)
