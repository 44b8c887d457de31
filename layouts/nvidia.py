"""Layout generator of NVIDIA's fragments (instructions/nvidia.py): mma.sync, wgmma.mma_async
(A in registers, and D), ldmatrix and stmatrix.

Lanes are a warp's threads (%laneid); for wgmma, the warpgroup's 128 threads, lane =
32 * warp + %laneid. A register is one 32-bit register of the fragment operand's vector, in
order ({a0, a1, ...} for PTX's A); an f64 element takes two. Every digit below is the PTX
ISA's fragment figure in factor form (groupID = %laneid >> 2, threadID_in_group =
%laneid % 4), checked against CuTe's MMA_Traits and against an H200 (tests/layouts/test_nvidia.py):

  A (m16nNkK, e = 32 / bits values per register): k mod e in the register's bits, then
  k by threadID_in_group, m by groupID, m + 8 in the next register, k + 4e in the
  next two; wgmma: warp w holds rows 16w..16w+15.
  B: k as A's, n by groupID.  C/D: n mod 2 in the register, n by threadID_in_group,
  m by groupID, m + 8 in the next register, n + 8 in the next two (wgmma: the next
  pair of pairs), rows by warp as A.
  m8n8k4 .f16: four quad pairs (lanes 4q..4q+3 and 4q+16..4q+19) each hold their own
  8x8x4 product (block q); .row/.col pick A's and B's layouts.
  ldmatrix/stmatrix: matrix i (block i) in register i; thread t holds row t / 4,
  columns 2 (t % 4) and + 1 (.trans: rows 2 (t % 4) and + 1 of column t / 4).
"""
from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import Modifiers
from instructions.nvidia import HARDWARE, PTX, SECTIONS, cute_source, ptx_spelling

from layouts.core import BIT, BLOCK, COL, LANE, ROW, Factor, Layout

GROUP, QUAD, WARP = 4, 1, 32  # lane strides: groupID, threadID_in_group, warp


TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import FamilyFacts


def _ab(inst: Instruction, matrix: str, bits: int) -> list[Factor]:
    """A (m x k) or B (k x n) of mma.sync and wgmma."""
    reg, per = max(32, bits), max(32 // bits, 1)
    k, mn = (COL, ROW) if matrix == "A" else (ROW, COL)
    out = [Factor(k, per, BIT, bits)] if per > 1 else []
    out += [Factor(k, 4, LANE, QUAD), Factor(mn, 8, LANE, GROUP)]
    rest = inst.k // (4 * per)
    if matrix == "A" and inst.m >= 16:
        out.append(Factor(ROW, 2, BIT, reg))
        reg *= 2
    if rest > 1:
        out.append(Factor(k, rest, BIT, reg))
    if matrix == "A" and inst.m == 64:
        out.append(Factor(ROW, 4, LANE, WARP))
    return out


def _cd(inst: Instruction, bits: int) -> list[Factor]:
    out = [Factor(COL, 2, BIT, bits), Factor(COL, 4, LANE, QUAD), Factor(ROW, 8, LANE, GROUP)]
    if inst.m >= 16:
        out.append(Factor(ROW, 2, BIT, 2 * bits))
    if inst.n > 8:
        out.append(Factor(COL, inst.n // 8, BIT, 4 * bits))
    if inst.m == 64:
        out.append(Factor(ROW, 4, LANE, WARP))
    return out


def _quad_pairs(inst: Instruction, matrix: str, bits: int) -> list[Factor]:
    """m8n8k4 .f16: logical thread t of quad pair q is lane 4q + t % 4 + 16 (t / 4)."""
    a_row, b_row = (t == "row" for t in inst.mnemonic.split(".")[2:4])
    pairs = Factor(BLOCK, 4, LANE, 4)
    if matrix == "A":
        if a_row:
            return [Factor(ROW, 4, LANE, 1), Factor(ROW, 2, LANE, 16), Factor(COL, 4, BIT, 16),
                    pairs]
        return [Factor(COL, 4, LANE, 1), Factor(ROW, 4, BIT, 16), Factor(ROW, 2, LANE, 16),
                pairs]
    if matrix == "B":
        if b_row:
            return [Factor(ROW, 4, LANE, 1), Factor(COL, 4, BIT, 16), Factor(COL, 2, LANE, 16),
                    pairs]
        return [Factor(COL, 4, LANE, 1), Factor(COL, 2, LANE, 16), Factor(ROW, 4, BIT, 16),
                pairs]
    if bits == 16:
        return [Factor(ROW, 4, LANE, 1), Factor(ROW, 2, LANE, 16), Factor(COL, 8, BIT, 16), pairs]
    return [Factor(ROW, 2, LANE, 1), Factor(ROW, 2, BIT, 64), Factor(ROW, 2, LANE, 16),
            Factor(COL, 2, BIT, 32), Factor(COL, 2, LANE, 2), Factor(COL, 2, BIT, 128), pairs]


def _matrices(inst: Instruction) -> Layout:
    """ldmatrix / stmatrix: x1, x2 or x4 8x8 matrices of b16, matrix i in register i."""
    trans = ".trans." in inst.mnemonic
    line, across = (ROW, COL) if trans else (COL, ROW)
    factors = [Factor(line, 2, BIT, 16), Factor(line, 4, LANE, QUAD),
               Factor(across, 8, LANE, GROUP)]
    if inst.blocks > 1:
        factors.append(Factor(BLOCK, inst.blocks, BIT, 32))
    return Layout((8, 8, inst.blocks), 16, factors)


def layout(inst: Instruction, matrix: str, _wave: int, _mods: Modifiers) -> Layout:
    """The layout family "nvidia" (layouts/family.py)."""
    if inst.kind in ("ldmatrix", "stmatrix"):
        return _matrices(inst)
    types = {"A": inst.a_type, "B": inst.b_type, "C": inst.c_type, "D": inst.d_type}
    bits = types[matrix].bits
    shape = {"A": (inst.m, inst.k), "B": (inst.k, inst.n)}.get(matrix, (inst.m, inst.n))
    if inst.blocks == 4:
        factors = _quad_pairs(inst, matrix, bits)
    elif matrix in ("A", "B"):
        factors = _ab(inst, matrix, bits)
    else:
        factors = _cd(inst, bits)
    return Layout((*shape, inst.blocks), bits, factors)


def facts(inst: Instruction) -> FamilyFacts:
    """What matrix_api.facts adds (--json -d): the PTX spelling, the first architecture,
    the CuTe atom, each with its source, and the hardware record."""
    given = dict(inst.facts)
    provenance: dict[str, dict[str, str]] = {
        "ptx": {"spelling": ptx_spelling(inst), "first_architecture": given.get("first", ""),
                "source": f"{PTX}, {SECTIONS[inst.kind]}"},
        "hardware": {"source": HARDWARE}}
    if given.get("cute"):
        provenance["cute"] = {"atom": "cute::" + given["cute"],
                              "source": cute_source(given["cute"])}
    # (no cycle counts: the PTX ISA gives none)
    return {"cycles": None, "provenance": provenance}
