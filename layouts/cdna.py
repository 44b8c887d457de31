"""The layout family "cdna" (layouts/family.py): the MFMA / SMFMAC operands, wave64, the
FP64 BLGP negation mark and ABID's range.

Element coordinates are (row, col, block) in the matrix's own order:
A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] -> (i, j), K[i][k] -> (i, k).
"""
from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import Modifiers, ModifierSpec, Rule

from layouts.core import BIT, BLOCK, COL, LANE, NONE, ROW, Factor, Layout
from layouts.modifiers import blgp_mark

WAVE = 64
CHUNK_BITS = 128  # the most K data one lane feeds into one pass


class ABShape:
    """Parameters of a dense A/B operand, shared by the layout and its printed formulas.

    Each lane holds `kpl` K values of one row (A) or column (B). Lanes take the M/N
    index fastest, then the block, then the K group (`groups` of them). A lane's values
    are consecutive in K, except when they exceed 128 bits (gfx950's 16x16x128 fp8,
    the SMFMAC B of 16x16x64 f16, ...): then they form two `chunk`s taken from the two
    halves of K. Within a chunk `per_reg` values share a VGPR (`regs` VGPRs); values
    whose width does not divide 32 (fp6) are packed densely across VGPR boundaries.
    """

    def __init__(self, inst: Instruction, mn: int, bits: int) -> None:
        self.mn, self.bits, self.blocks, self.k = mn, bits, inst.blocks, inst.k
        self.kpl = mn * inst.k * inst.blocks // WAVE
        self.packed = bits < 32 and 32 % bits != 0
        self.chunks = 2 if self.kpl * bits > CHUNK_BITS and not self.packed else 1
        self.chunk = self.kpl // self.chunks
        self.per_reg = 1 if self.packed else max(1, min(32 // bits, self.chunk))
        self.regs = self.chunk // self.per_reg
        self.groups = inst.k // self.kpl


def _ab_factors(inst: Instruction, bits: int, k_coord: str, mn_coord: str,
                mn: int) -> tuple[Factor, ...]:
    """A or B of a dense MFMA.   # (lane64, slot) -> (mn, k, block)"""
    s = ABShape(inst, mn, bits)
    reg_bits = bits if s.packed else max(32, bits)
    return (Factor(mn_coord, mn, LANE, 1),
            Factor(k_coord, s.per_reg, BIT, bits),
            Factor(k_coord, s.regs, BIT, reg_bits),
            Factor(k_coord, s.groups, LANE, mn * inst.blocks),
            Factor(k_coord, s.chunks, BIT, s.regs * reg_bits),
            Factor(BLOCK, inst.blocks, LANE, mn))


def _sparse_k_factors(inst: Instruction, k_coord: str, mn: int, group_bits: int,
                      lane_k: int) -> tuple[Factor, ...]:
    """K of a sparse operand: groups of 4 K values share one slot of `group_bits`."""
    groups = lane_k // 4
    return (Factor(k_coord, 4, NONE, 0),
            Factor(k_coord, groups, BIT, group_bits),
            Factor(k_coord, inst.k // lane_k, LANE, mn))


def sparse_lane_k(inst: Instruction) -> int:
    """K values (of the uncompressed row) that one lane of a sparse operand covers."""
    return inst.k * inst.m // WAVE


def a_matrix(inst: Instruction) -> Layout:
    bits = inst.a_type.bits
    if inst.sparse:  # two of every four K values stored: 2*bits per group of 4
        lane_k = sparse_lane_k(inst)
        factors = ((Factor(ROW, inst.m, LANE, 1),)
                   + _sparse_k_factors(inst, COL, inst.m, 2 * bits, lane_k))
        return Layout((inst.m, inst.k, 1), 2 * bits, factors)
    return Layout((inst.m, inst.k, inst.blocks), bits, _ab_factors(inst, bits, COL, ROW, inst.m))


def b_matrix(inst: Instruction) -> Layout:
    bits = inst.b_type.bits
    return Layout((inst.k, inst.n, inst.blocks), bits, _ab_factors(inst, bits, ROW, COL, inst.n))


def index_matrix(inst: Instruction, index_set: int = 0) -> Layout:
    """The sparse compression indices K[i][k]: one 4-bit field per group of four K; each
    index set holds one lane's fields (lane_k bits)."""
    lane_k = sparse_lane_k(inst)
    factors = (Factor(ROW, inst.m, LANE, 1),) + _sparse_k_factors(inst, COL, inst.m, 4, lane_k)
    return Layout((inst.m, inst.k, 1), 4, factors, base_bit=index_set * lane_k)


class CDShape:
    """Parameters of a 32-bit C/D operand, shared by the layout and its formulas.

    Rows come in groups of four consecutive VGPRs; the groups go to lane groups of
    N lanes (`in_lanes` of them), the rest to further VGPRs (`reg_groups`); blocks
    fill the lane groups left over (`block_lanes`), then VGPRs (`block_regs` each).
    """

    def __init__(self, inst: Instruction) -> None:
        self.m, self.n, self.blocks = inst.m, inst.n, inst.blocks
        lane_groups, self.row_groups = WAVE // inst.n, inst.m // 4
        self.in_lanes = min(lane_groups, self.row_groups)
        self.reg_groups = self.row_groups // self.in_lanes
        self.block_lanes = lane_groups // self.in_lanes
        self.block_regs = 4 * self.reg_groups


def cd_matrix(inst: Instruction) -> Layout:
    """C/D.   # (lane64, reg) -> (i, j, block)"""
    m, n, blocks, bits = inst.m, inst.n, inst.blocks, inst.out_type.bits
    if bits == 64:  # one value per register pair; rows spread over lanes first
        pairs = (Factor(COL, n, LANE, 1), Factor(BLOCK, blocks, LANE, n),
                 Factor(ROW, 4, LANE, n * blocks), Factor(ROW, m // 4, BIT, 64))
        return Layout((m, n, blocks), 64, pairs)
    s = CDShape(inst)
    factors = (Factor(COL, n, LANE, 1), Factor(ROW, 4, BIT, 32),
               Factor(ROW, s.in_lanes, LANE, n), Factor(ROW, s.reg_groups, BIT, 128),
               Factor(BLOCK, s.block_lanes, LANE, n * s.in_lanes),
               Factor(BLOCK, blocks // s.block_lanes, BIT, 32 * s.block_regs))
    return Layout((m, n, blocks), bits, factors)


def scale_matrix(inst: Instruction, matrix: str, opsel: int = 0) -> Layout:
    """E8M0 block scales of v_mfma_scale_*: SA[i][kb] in lane i + M*kb, SB[kb][j] in lane
    j + N*kb (kb = block of inst.scale_k K values: 32), byte OPSEL of the scale VGPR."""
    blocks = inst.k // inst.scale_k
    if matrix == "SA":
        shape, factors = (inst.m, blocks, 1), (Factor(ROW, inst.m, LANE, 1),
                                               Factor(COL, blocks, LANE, inst.m))
    else:
        shape, factors = (blocks, inst.n, 1), (Factor(COL, inst.n, LANE, 1),
                                               Factor(ROW, blocks, LANE, inst.n))
    return Layout(shape, 8, factors, base_bit=8 * opsel)


# ---- the family module's functions (layouts/family.py Hooks)

def layout(inst: Instruction, matrix: str, _wave: int, mods: Modifiers) -> Layout:
    """The layout family "cdna": the base layout of `matrix` (K: the index set that
    CBSZ/ABID select; SA/SB: the scale byte OPSEL_A/OPSEL_B select)."""
    if matrix == "A":
        return a_matrix(inst)
    if matrix == "B":
        return b_matrix(inst)
    if matrix == "K":
        return index_matrix(inst, mods.abid if mods.cbsz == 0 else 0)
    if matrix in ("SA", "SB"):
        return scale_matrix(inst, matrix, mods.opsel_a if matrix == "SA" else mods.opsel_b)
    return cd_matrix(inst)


mark = blgp_mark  # the FP64 BLGP negation mask's mark (layouts/modifiers.py)


def abid(_spec: ModifierSpec, inst: Instruction, mods: Modifiers, _wave: int) -> Rule | None:
    """ABID: the block a CBSZ group broadcasts, or a SMFMAC's index set. (CBSZ is checked
    before ABID, so 1 << cbsz is small here.)"""
    if not inst.takes("abid") or inst.formats_by_cbsz_blgp:
        return None
    if inst.sparse:  # ABID picks one of the index sets of the Src2 VGPR
        return Rule(32 // sparse_lane_k(inst) - 1, ("A", "K"), meaning="index_set")
    return Rule((1 << mods.cbsz) - 1, ("A", "K"), meaning="broadcast",
                needs=f" with CBSZ {mods.cbsz}")


RANGES = {"abid": abid}
