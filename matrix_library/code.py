"""The answer of `--emit hip`: what the emitted code is written from, computed and
checked once (request.answer, mode "emit"): the instruction with the A/B formats its
modifiers select, the checked modifiers and wave size, and the fragment of every
operand the code loads or stores. The HIP writer (formats/hip/kernel.py) reads it and
asks the library for nothing more about those operands.
"""
from __future__ import annotations

from instructions.modifiers import MODIFIERS, shaped
from instructions.record import Record
from layouts import check_modifiers
from layouts.core import CalcError
from layouts.fragment import Digit as Digit
from layouts.fragment import Fragment, fragment
from layouts.fragment import bit_of as bit_of
from layouts.fragment import digit_value as digit_value
from layouts.fragment import element as element
from layouts.legality import rule
from layouts.modifiers import Modifiers

from matrix_library.checks import matrices, operand, wave_size, with_formats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

# (the fragment's names, Digit to fragment, for the HIP writers of formats/hip)
__all__ = ["Code", "CodeOperand", "Digit", "Fragment", "bit_of", "check_example", "code",
           "digit_value", "element", "fragment", "shaping"]


class CodeOperand(Record):
    """One operand the code loads or stores: its matrix, the modifiers that shape its
    layout (those the code's function names carry) and its fragment."""
    matrix: str
    mods: Modifiers
    fragment: Fragment


class Code(Record):
    """--emit hip of `matrix` (None: the whole-instruction example): `inst` with the A/B
    formats its modifiers select, the checked modifiers `mods`, the wave size, and the
    `operands` the code reads: `matrix` alone, or every register operand of the example,
    in the instruction's order."""
    inst: Instruction
    matrix: str | None
    mods: Modifiers
    wave: int
    operands: tuple[CodeOperand, ...]


def code(inst: Instruction, matrix: str | None, mods: Modifiers, wave: int) -> Code:
    """What the code of `matrix` of `inst` (None: the wave-level example) is written
    from, in wave size `wave` (0: the instruction's default), checked here."""
    if matrix is not None:
        found = operand(inst, matrix, mods=mods, wave=wave)
        return Code(found.inst, found.matrix, found.mods, found.wave,
                    (CodeOperand(found.matrix, found.mods, fragment(found)),))
    resolved, wave = with_formats(inst, mods), wave_size(inst, wave)
    check_example(resolved, mods, wave)
    operands = []
    for name in matrices(resolved):
        shape = shaping(resolved, name, mods, wave)
        found = operand(resolved, name, mods=shape, wave=wave, output_calc=name == "D")
        operands.append(CodeOperand(name, shape, fragment(found)))
    return Code(resolved, None, mods, wave, tuple(operands))


def check_example(inst: Instruction, mods: Modifiers, wave: int) -> None:
    """The modifiers must suit the instruction: as for D with -o (which takes the inputs'
    modifiers), or else as for one of its operands (RDNA4 SWMMAC's OPSEL picks K's
    index set); the error is D's."""
    try:
        check_modifiers(inst, "D", mods, True, "get", wave)
    except CalcError:
        for matrix in matrices(inst):
            try:
                check_modifiers(inst, matrix, mods, False, "get", wave)
            except CalcError:
                continue
            return
        raise


def shaping(inst: Instruction, matrix: str, mods: Modifiers, wave: int) -> Modifiers:
    """The modifiers that shape `matrix`'s layout, as the modifier table says (`shaped`:
    the spec's `shapes`, narrowed by the instruction's rule): the example's D-level
    modifiers apply to every operand; each operand keeps the ones that move it."""
    values = {}
    for spec in MODIFIERS:
        found = rule(spec, inst, mods, wave)
        if found is not None and matrix in shaped(spec, found):
            values[spec.name] = getattr(mods, spec.name)
    return Modifiers(**values)
