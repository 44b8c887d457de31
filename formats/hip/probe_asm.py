"""`--emit probe` by inline assembly: the instructions whose clang builtin cannot pass an
operand the instruction reads (clang-22's 8-bit gfx1250 SWMMAC builtins take a 32-bit
index for the 64-bit one the instruction reads, so the second VGPR is never set) are
issued as `asm volatile` with the operand widths LLVM's assembler takes (the tied C/D
as "+v", A, B and the index as "v" of the builtin's own vector types; a 64-bit index is
a VGPR pair) and the modifiers as the assembler spells them (the modifier table's LLVM
names). The compiler does not see the instruction's hazards, so the text waits around
it: more than LLVM 22 inserts after the same instruction issued by its builtin.
"""
from __future__ import annotations

from instructions.modifiers import MODIFIERS

from formats.hip.calls import check_builtin, register_bits
from matrix_library.api import CalcError
from matrix_library.drawing import rule, wmma_builtins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

    from formats.hip.common import CType
    from matrix_library.api import Modifiers

# Waits before and after the instruction (s_nop 15: 16 wait states each).
BEFORE = ("s_nop 15",)
AFTER = ("v_nop", "v_nop", "v_nop", "v_nop", "s_nop 15", "s_nop 15")


def by_assembly(inst: Instruction, wave: int) -> bool:
    """Whether the probe issues `inst` by inline assembly: clang has a builtin for it,
    but its sparse index argument is narrower than the index the instruction reads.
    Raises CalcError (check_builtin's) for any other instruction without a builtin."""
    try:
        check_builtin(inst, wave)
    except CalcError:
        builtins = wmma_builtins(inst)
        if not inst.sparse or builtins is None or inst.a_type.key in builtins.missing or \
                register_bits(inst, "K", wave) <= builtins.index_bits:
            raise
        return True
    return False


def asm_modifiers(inst: Instruction, mods: Modifiers, wave: int) -> list[str]:
    """The modifiers as LLVM's assembler writes them after the operands: a mask as
    name:[bit0,bit1,bit2], a flag by its name, a number as name:value. Raises CalcError
    for a modifier whose values are names (the assembler's spelling is not charted here)."""
    out = []
    for spec in MODIFIERS:
        value = getattr(mods, spec.name)
        if not value or rule(spec, inst, mods, wave) is None:
            continue
        if spec.names:
            raise CalcError(f"--emit probe has no assembly spelling of {spec.llvm} values")
        if spec.mask:
            bits = (str(value >> b & 1) for b in range(len(spec.matrices)))
            out.append(f"{spec.llvm}:[{','.join(bits)}]")
        elif spec.flag:
            out.append(spec.llvm)
        else:
            out.append(f"{spec.llvm}:{value}")
    return out


def asm_op(inst: Instruction, mods: Modifiers, wave: int, d_type: CType) -> list[str]:
    """The lines of the probe's device op that issue `inst` by inline assembly on the
    operands `a`, `b`, `c` (C in D's type: the tied C/D) and `k`, leaving D in `dv`."""
    text = " ".join([f"{inst.mnemonic} %0, %1, %2, %3", *asm_modifiers(inst, mods, wave)])
    lines = "\\n\\t".join([*BEFORE, text, *AFTER])
    return [f"    {d_type.name} dv = c;",
            f'    asm volatile("{lines}" : "+v"(dv) : "v"(a), "v"(b), "v"(k));']


__all__ = ["asm_modifiers", "asm_op", "by_assembly"]
