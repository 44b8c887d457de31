"""The layout family "rdna3" (layouts/family.py): the RDNA3 WMMA operands, wave32 and
wave64, the NEG/NEG_HI marks and OPSEL's range (the C/D half).

Element coordinates as on CDNA: A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] -> (i, j);
there is one block.
"""
from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import Modifiers, ModifierSpec, Rule

from layouts.core import BIT, COL, COPY, LANE, ROW, Factor, Layout
from layouts.modifiers import rdna_c_mark, rdna_half_mark

HALF = 16  # lanes per lane half of a wave32 row pair


# ---- RDNA3: A/B replicated over every group of 16 lanes; C/D rows interleaved over lanes.

def rdna3_ab(inst: Instruction, matrix: str, wave: int) -> Layout:
    """# (lane, slot) -> (i or j, k); each value in lanes x, x+16 (, x+32, x+48)"""
    bits = inst.a_type.bits
    mn, k = (ROW, COL) if matrix == "A" else (COL, ROW)
    factors = (Factor(mn, 16, LANE, 1), Factor(COPY, wave // HALF, LANE, HALF),
               Factor(k, 32 // bits, BIT, bits), Factor(k, inst.k * bits // 32, BIT, 32))
    shape = (16, inst.k, 1) if matrix == "A" else (inst.k, 16, 1)
    return Layout(shape, bits, factors)


def rdna3_cd(inst: Instruction, wave: int, opsel: int = 0) -> Layout:
    """# (lane, vgpr) -> (i, j): W/16 rows per VGPR; 16-bit values in the half OPSEL picks"""
    rows_per_reg = wave // HALF
    factors = (Factor(COL, 16, LANE, 1), Factor(ROW, rows_per_reg, LANE, HALF),
               Factor(ROW, 16 // rows_per_reg, BIT, 32))
    bits = inst.out_type.bits
    return Layout((16, 16, 1), bits, factors, base_bit=16 if bits == 16 and opsel == 4 else 0)


# ---- the family module's functions (layouts/family.py Hooks)

def layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    """The layout family "rdna3"."""
    return rdna3_ab(inst, matrix, wave) if matrix in "AB" else rdna3_cd(inst, wave, mods.opsel)


mark, half_mark = rdna_c_mark, rdna_half_mark  # NEG / NEG_HI (layouts/modifiers.py)


def cd_half_opsel(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers,
                  _wave: int) -> Rule | None:
    """OPSEL[2] selects the C/D register half (0: low halves, 4: high halves)."""
    if not inst.takes("opsel"):
        return None
    return Rule(4, ("C", "D"), output=False, values=(4,), meaning="cd_half")


RANGES = {"opsel": cd_half_opsel}
