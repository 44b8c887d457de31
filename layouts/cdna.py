"""Layout generators of the CDNA (MFMA / SMFMAC) operands, wave64.

Element coordinates are (row, col, block) in the matrix's own order:
A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] -> (i, j), K[i][k] -> (i, k).
"""
from .core import BIT, BLOCK, COL, LANE, NONE, ROW, Factor, Layout

WAVE = 64


def _ab_factors(inst, bits, k_coord, mn_coord, mn):
    """A or B of a dense MFMA.   # (lane64, slot) -> (mn, k, block)

    Each lane holds `kpl` consecutive K values of one row (A) or column (B); lanes
    take the M/N index fastest, then the block, then the K group.
    """
    kpl = mn * inst.k * inst.blocks // WAVE
    per_reg = max(1, min(32 // bits, kpl))
    return (Factor(mn_coord, mn, LANE, 1),
            Factor(k_coord, per_reg, BIT, bits),
            Factor(k_coord, kpl // per_reg, BIT, max(32, bits)),
            Factor(k_coord, inst.k // kpl, LANE, mn * inst.blocks),
            Factor(BLOCK, inst.blocks, LANE, mn))


def _sparse_k_factors(inst, k_coord, mn, group_bits, lane_k):
    """K of a sparse operand: groups of 4 K values share one slot of `group_bits`."""
    groups = lane_k // 4
    return (Factor(k_coord, 4, NONE, 0),
            Factor(k_coord, groups, BIT, group_bits),
            Factor(k_coord, inst.k // lane_k, LANE, mn))


def a_matrix(inst):
    bits = inst.a_type.bits
    if inst.sparse:  # two of every four K values stored: 2*bits per group of 4
        lane_k = 128 // bits
        factors = (Factor(ROW, inst.m, LANE, 1),) + _sparse_k_factors(inst, COL, inst.m, 2 * bits, lane_k)
        return Layout((inst.m, inst.k, 1), 2 * bits, factors)
    return Layout((inst.m, inst.k, inst.blocks), bits, _ab_factors(inst, bits, COL, ROW, inst.m))


def b_matrix(inst):
    bits = inst.b_type.bits
    return Layout((inst.k, inst.n, inst.blocks), bits, _ab_factors(inst, bits, ROW, COL, inst.n))


def index_matrix(inst, index_set=0):
    """The sparse compression indices K[i][k]: one 4-bit field per group of four K."""
    lane_k = 128 // inst.a_type.bits
    factors = (Factor(ROW, inst.m, LANE, 1),) + _sparse_k_factors(inst, COL, inst.m, 4, lane_k)
    return Layout((inst.m, inst.k, 1), 4, factors, base_bit=index_set * lane_k)


def cd_matrix(inst):
    """C/D.   # (lane64, reg) -> (i, j, block)"""
    m, n, blocks, bits = inst.m, inst.n, inst.blocks, inst.out_type.bits
    if bits == 64:  # one value per register pair; rows spread over lanes first
        factors = (Factor(COL, n, LANE, 1), Factor(BLOCK, blocks, LANE, n),
                   Factor(ROW, 4, LANE, n * blocks), Factor(ROW, m // 4, BIT, 64))
        return Layout((m, n, blocks), 64, factors)
    lane_groups, row_groups = WAVE // n, m // 4
    in_lanes = min(lane_groups, row_groups)
    block_lanes = lane_groups // in_lanes
    regs = 4 * (row_groups // in_lanes)
    factors = (Factor(COL, n, LANE, 1), Factor(ROW, 4, BIT, 32),
               Factor(ROW, in_lanes, LANE, n), Factor(ROW, row_groups // in_lanes, BIT, 128),
               Factor(BLOCK, block_lanes, LANE, n * in_lanes),
               Factor(BLOCK, blocks // block_lanes, BIT, 32 * regs))
    return Layout((m, n, blocks), bits, factors)
