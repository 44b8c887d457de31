"""An operand as the layout objects of other projects (docs/exports.md): a CuTe (thread,
value) -> element layout (`--emit cute`), a Triton Gluon distributed layout (`--emit
gluon`), and the per-lane counts of a ck_tile warp-gemm attribute block (`-d --ck-tile`).
The engine derives them from the operand's lane map (layouts/exports.py); this module
checks the arguments, refuses an operand that is not such an object with the reason, and
answers with the typed records the renderers (formats/exports.py) read.
"""


from __future__ import annotations

from instructions.model import Instruction
from instructions.record import Record, short_repr
from layouts.core import CalcError
from layouts.exports import CkTile, CuteLayout, GluonLayout, ck_tile, cute_layout, gluon_layout
from layouts.modifiers import Modifiers
from layouts.values import OperandValue, value

from matrix_library.checks import instruction, operand, shown, wave_size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.checks import ModifierValues

LANGUAGES = ("cute", "gluon")


class Export(Record):
    """One operand exported: `language` cute or gluon, and that language's layout (the
    other None); `extent` the (rows, cols, blocks) of the matrix (compressed for sparse
    operands)."""
    inst: Instruction
    matrix: str
    mods: Modifiers
    wave: int
    extent: tuple[int, int, int]
    language: str
    cute: CuteLayout | None
    gluon: GluonLayout | None

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def export(inst: Instruction, matrix: str, language: str, *, mods: ModifierValues = None,
           wave: int | None = None) -> Export:
    """`matrix` of `inst` as a CuTe or Gluon layout; CalcError (saying why) where the
    operand is not one CuTe shape:stride or one Gluon linear layout."""
    if language not in LANGUAGES:
        raise CalcError(f"the exports are {' and '.join(LANGUAGES)}, not {shown(language)}")
    op = operand(inst, matrix, mods=mods, wave=wave)
    cute = cute_layout(op)
    if language == "cute":
        if cute.reason:
            raise CalcError(f"{op.matrix} of {op.inst.name} (wave{op.wave}) is not one CuTe "
                            f"shape:stride: {cute.reason}")
        return Export(op.inst, op.matrix, op.mods, op.wave, cute.extent, language, cute, None)
    gluon = gluon_layout(op)
    if gluon.reason:
        raise CalcError(f"{op.matrix} of {op.inst.name} (wave{op.wave}) has no Gluon "
                        f"distributed layout: {gluon.reason}")
    return Export(op.inst, op.matrix, op.mods, op.wave, cute.extent, language, None, gluon)


def ck_tile_counts(inst: Instruction, wave: int | None = None) -> CkTile:
    """ck_tile's warp-gemm counts of `inst` in `wave` (default: its first wave size), read
    off its A, B and D layouts, or the reason they do not apply."""
    inst = instruction(inst)
    size = wave_size(inst, wave)
    if inst.architecture.vendor != "amd":
        return CkTile((), "ck_tile is composable_kernel's, for AMD's instructions")
    if inst.matrices and not {"A", "B", "D"} <= set(inst.matrices):
        return CkTile((), f"{inst.name} has no A, B and D register operands")
    return ck_tile(*(operand(inst, m, wave=size) for m in ("A", "B", "D")))


__all__ = ["LANGUAGES", "CkTile", "CuteLayout", "Export", "GluonLayout", "ck_tile_counts",
           "export", "layout_value"]


def layout_value(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                 wave: int | None = None) -> OperandValue:
    """The operand's layout as a value of the layout algebra (layouts/algebra.py): `map`,
    a LayoutMap from (row, col, block, copy) to (lane, slot) with the modifiers that
    move values composed in (BLGP, CBSZ/ABID, OPSEL, index sets, scale selects), which
    composes, inverts (a right inverse: (lane, slot) -> element), multiplies and
    projects (`preimages`: each place's elements); `unit`, the bits of a slot (slot s
    starts at bit s * unit of the operand's registers); `width`, the bits of a value.
    `places(row, col, block)` and `held()` read it as the engine's Places."""
    return value(operand(inst, matrix, mods=mods, wave=wave))
