"""The layout family "rdna4" (layouts/family.py): the RDNA4 WMMA / SWMMAC operands, wave32
and wave64, the NEG/NEG_HI marks and OPSEL's range (a SWMMAC's index set).

Element coordinates as on CDNA: A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] -> (i, j),
K[i][k] -> (i, k); there is one block.
"""
from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import Modifiers, ModifierSpec, Rule

from layouts.core import BIT, COL, LANE, NONE, ROW, Factor, Layout
from layouts.modifiers import rdna_c_mark, rdna_half_mark

HALF = 16  # lanes per lane half of a wave32 row pair


# ---- RDNA4: each row of an operand is cut into chunks that alternate between the two
# lane halves; in wave64 the upper half of each lane's VGPRs moves to lane + 32.

def chunked(coord: str, extent: int, chunk: int, bits: int,
            wave: int) -> tuple[Factor, ...]:
    """Digits of one coordinate of `extent` values laid out in chunks of `chunk` values;
    a wave32 lane holds extent/2 values of `bits` bits."""
    per_lane = extent // 2
    rounds = per_lane // chunk
    width = bits
    low = [Factor(coord, chunk, BIT, width), Factor(coord, 2, LANE, HALF),
           Factor(coord, rounds, BIT, chunk * width)]
    if wave == 64 and per_lane * bits >= 64:  # fold the top half of the VGPRs to lane + 32
        if rounds >= 2:
            low[2:] = [Factor(coord, rounds // 2, BIT, chunk * width), Factor(coord, 2, LANE, 32)]
        else:
            low[:1] = [Factor(coord, chunk // 2, BIT, width), Factor(coord, 2, LANE, 32)]
    return tuple(low)


def rdna4_ab(inst: Instruction, matrix: str, wave: int) -> Layout:
    bits = inst.a_type.bits
    mn, k = (ROW, COL) if matrix == "A" else (COL, ROW)
    chunk_bits = 128 if inst.sparse else 64   # SWMMAC B is cut into 128-bit chunks
    chunk = min(chunk_bits // bits, inst.k // 2)
    factors = (Factor(mn, 16, LANE, 1),) + chunked(k, inst.k, chunk, bits, wave)
    shape = (16, inst.k, 1) if matrix == "A" else (inst.k, 16, 1)
    return Layout(shape, bits, factors)


def _sparse_pairs(inst: Instruction, wave: int) -> tuple[Factor, ...]:
    """Sparse A (and its index K): every 4 K values keep 2, stored as one pair of 2*bits."""
    bits = inst.a_type.bits
    stored = inst.k // 2
    chunk = min(64 // bits, stored // 2) // 2   # in pairs
    return (Factor(ROW, 16, LANE, 1), Factor(COL, 4, NONE, 0)) + chunked(
        COL, inst.k // 4, chunk, 2 * bits, wave)


def rdna4_sparse_a(inst: Instruction, wave: int) -> Layout:
    return Layout((16, inst.k, 1), 2 * inst.a_type.bits, _sparse_pairs(inst, wave))


def index_bits_per_lane(inst: Instruction, wave: int) -> int:
    """Bits of index data one lane holds (4 per stored pair); OPSEL picks one such slice."""
    pairs = Layout((16, inst.k, 1), 4, _sparse_pairs(inst, wave)).register_count
    return 4 * (pairs * 32 // (2 * inst.a_type.bits))


def rdna4_index(inst: Instruction, wave: int, opsel: int = 0) -> Layout:
    """The compression indices: A's pair arrangement with one 4-bit index per pair."""
    pair_bits = 2 * inst.a_type.bits
    factors = tuple(Factor(f.coord, f.size, f.dest, f.stride * 4 // pair_bits)
                    if f.dest == BIT else f for f in _sparse_pairs(inst, wave))
    return Layout((16, inst.k, 1), 4, factors, base_bit=opsel * index_bits_per_lane(inst, wave))


def rdna4_cd(inst: Instruction, wave: int) -> Layout:
    bits = inst.out_type.bits
    factors = (Factor(COL, 16, LANE, 1),) + chunked(ROW, 16, 8, bits, wave)
    return Layout((16, 16, 1), bits, factors)


# ---- the family module's functions (layouts/family.py Hooks)

def layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    """The layout family "rdna4"."""
    if matrix == "K":
        return rdna4_index(inst, wave, mods.opsel)
    if matrix == "A" and inst.sparse:
        return rdna4_sparse_a(inst, wave)
    return rdna4_ab(inst, matrix, wave) if matrix in "AB" else rdna4_cd(inst, wave)


mark, half_mark = rdna_c_mark, rdna_half_mark  # NEG / NEG_HI (layouts/modifiers.py)


def opsel_limit(inst: Instruction, wave: int) -> int:
    """Largest legal OPSEL of a SWMMAC: one index set per `bits per lane` slice."""
    return 32 // index_bits_per_lane(inst, wave) - 1


def index_set_opsel(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers,
                    wave: int) -> Rule | None:
    """OPSEL selects the compression-index set of a SWMMAC."""
    if not inst.takes("opsel"):
        return None
    return Rule(opsel_limit(inst, wave), ("K",), output=False, meaning="index_set",
                needs=f" (wave{wave})")


RANGES = {"opsel": index_set_opsel}
