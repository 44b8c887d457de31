"""Instruction modifiers as small transforms of a base layout, and their marks (the
legality check is layouts/legality.py; the modifier table instructions/modifiers.py).

A transform maps an element's base places to the places the hardware actually reads
under the modifier: CBSZ/ABID make a group of blocks read one block's A values, BLGP
swizzles or broadcasts B lanes, and on CDNA3 FP64 BLGP is a negation mask instead.
"""
from __future__ import annotations

from collections.abc import Callable

from instructions.model import Instruction
from instructions.modifiers import Modifiers

from layouts.core import Place

__all__ = ["BLGP_SOURCE", "Modifiers", "blgp_mark", "blgp_negates", "cbsz_source_block",
           "negated", "rdna_c_mark", "rdna_half_mark"]

# BLGP: the lane each lane's B value is read from (CDNA ISA, "B-matrix lane group pattern").
BLGP_SOURCE: tuple[Callable[[int], int], ...] = (
    lambda lane: lane,                  # 0: as is
    lambda lane: lane % 32,             # 1: lanes 0-31 broadcast to 32-63
    lambda lane: lane % 32 + 32,        # 2: lanes 32-63 broadcast to 0-31
    lambda lane: (lane + 16) % 64,      # 3: rotate down by 16 lanes
    lambda lane: lane % 16,             # 4-7: broadcast one group of 16 lanes to all
    lambda lane: lane % 16 + 16,
    lambda lane: lane % 16 + 32,
    lambda lane: lane % 16 + 48,
)


def cbsz_source_block(block: int, cbsz: int, abid: int) -> int:
    """The block whose A values `block` reads: ABID within its aligned group of 2^CBSZ."""
    return (block >> cbsz << cbsz) + abid


def blgp_negates(inst: Instruction) -> bool:
    """FP64 MFMAs with BLGP (CDNA3 and later) use it as a negation mask: bit 0 negates A,
    bit 1 B, bit 2 C (CDNA2's FP64 MFMAs have no BLGP)."""
    return inst.blgp and inst.out_type.bits == 64


def negated(inst: Instruction, matrix: str, mods: Modifiers) -> bool:
    if mods.blgp and blgp_negates(inst):
        bit = {"A": 1, "B": 2, "C": 4}.get(matrix, 0)
        return bool(mods.blgp & bit)
    return False


def blgp_mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    """The mark of a whole operand that an FP64 BLGP negation mask negates."""
    return "-" if negated(inst, matrix, mods) else ""


# ---- RDNA: NEG/NEG_HI marks.

def rdna_half_mark(inst: Instruction, matrix: str, mods: Modifiers, place: Place) -> str:
    """A/B: NEG[0]/NEG[1] negate low 16-bit halves, NEG_HI[0]/NEG_HI[1] high halves.

    As in the reference, the mark is shown only where the printed slot is exactly one
    16-bit half (so never on 8/4-bit data, which NEG treats as signedness)."""
    if not inst.neg or place.width != 16:
        return ""
    bit = 1 if matrix == "A" else 2
    mask = mods.neg if place.lo == 0 else mods.neg_hi
    return "-" if mask & bit else ""


def rdna_c_mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    """C: NEG[2] negates, NEG_HI[2] takes the absolute value."""
    if matrix != "C" or not inst.neg:
        return ""
    return ("-" if mods.neg & 4 else "") + ("|" if mods.neg_hi & 4 else "")
