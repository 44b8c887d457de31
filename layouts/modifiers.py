"""Instruction modifiers as small transforms of a base layout, and their marks (the
legality check is layouts/legality.py; the modifier table instructions/modifiers.py).

A modifier that moves values is a map (layouts/algebra.py) composed with the base
layout: CBSZ/ABID map each block to the block whose A values it reads, BLGP each B lane
to the lane it reads (a swizzle or a broadcast); on CDNA3 FP64 BLGP is a negation mask
instead, and RDNA's NEG/NEG_HI only mark values (neither moves a value).
"""
from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import Modifiers

from layouts.algebra import LayoutMap
from layouts.core import Place

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["BLGP_LANES", "BLGP_SOURCE", "Modifiers", "blgp_mark", "blgp_negates", "cbsz_blocks",
           "cbsz_source_block", "negated", "rdna_c_mark", "rdna_half_mark"]

# BLGP: the lane each lane's B value is read from (CDNA ISA, "B-matrix lane group
# pattern"), as maps of the 64 lanes composed with B's layout (layouts/values.py).
_PATTERNS: tuple[Callable[[int], int], ...] = (
    lambda lane: lane,                  # 0: as is
    lambda lane: lane % 32,             # 1: lanes 0-31 broadcast to 32-63
    lambda lane: lane % 32 + 32,        # 2: lanes 32-63 broadcast to 0-31
    lambda lane: (lane + 16) % 64,      # 3: rotate down by 16 lanes
    lambda lane: lane % 16,             # 4-7: broadcast one group of 16 lanes to all
    lambda lane: lane % 16 + 16,
    lambda lane: lane % 16 + 32,
    lambda lane: lane % 16 + 48,
)

BLGP_LANES = tuple(LayoutMap((64,), (64,), tuple(map(source, range(64)))) for source in _PATTERNS)
# ... and as functions of a lane (the map's table read at that lane)
BLGP_SOURCE: tuple[Callable[[int], int], ...] = tuple(m.table.__getitem__ for m in BLGP_LANES)


def cbsz_blocks(blocks: int, cbsz: int, abid: int) -> LayoutMap:
    """CBSZ/ABID as a map of the blocks: each block to the block whose A values it reads,
    ABID within its aligned group of 2^CBSZ."""
    return LayoutMap((blocks,), (blocks,),
                     tuple(cbsz_source_block(b, cbsz, abid) for b in range(blocks)))


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
