"""The one legality check of modifier values, read from the modifier table.

For each modifier given (not 0), in the table's order (instructions/modifiers.py):
1. the instruction must take it (a rule exists), else the message says which it takes;
2. the value must be in the rule's range: checked first, in constant time, before any
   value is used for anything (a huge --cbsz is refused without computing 1 << cbsz);
3. the queried matrix must be one it acts on (or D with -o when the rule allows it).

A rule comes from the spec's range function (`ModifierSpec.range`): the family module's
own (its RANGES, layouts/family.py Hooks.ranges) or a shared one (RANGES below: what an
instruction allows of each modifier, a Rule of range, matrices and meaning, by the range
name of the modifier table); a spec without one has the fixed range 0..`top` wherever an
instruction declares it.
"""
from __future__ import annotations

from instructions import ARCHITECTURES
from instructions.model import Instruction
from instructions.modifiers import F8F6F4_NAMES, MODIFIERS, Modifiers, ModifierSpec, Rule

from layouts.core import CalcError
from layouts.family import hooks
from layouts.modifiers import blgp_negates

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # A range function: (spec, inst, mods, wave) -> what `inst` allows (None: not taken).
    RangeFunction = Callable[[ModifierSpec, Instruction, Modifiers, int], Rule | None]

# How a message names a matrix a modifier acts on.
MATRIX_FLAGS = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k", "SA": "--A-scale",
                "SB": "--B-scale"}
MATRIX_NAMES = {"A": "the A matrix", "B": "the B matrix", "C": "the C matrix",
                "D": "the D matrix", "K": "the compression matrix (-k)", "SA": "the A scales",
                "SB": "the B scales"}


# ---- the shared range functions (a family module's own RANGES add to or replace them)

ALL = ("A", "B", "C", "D", "K", "SA", "SB")
INPUTS = ("A", "B", "C", "K", "SA", "SB")  # every matrix but D


def fixed(spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    """The spec's own range 0..top and matrices (any, for an instruction-wide setting),
    for an instruction that declares it."""
    if not inst.takes(spec.name):
        return None
    return Rule(spec.top, ALL if spec.anywhere else spec.matrices,
                mask=spec.top if spec.mask else -1, names=spec.names)


# ---- CDNA: CBSZ broadcasts A blocks (ABID: layouts/cdna.py), BLGP swizzles B lanes or
# negates; on f8f6f4 instructions CBSZ and BLGP name the A and B formats instead.

def _format() -> Rule:
    return Rule(len(F8F6F4_NAMES) - 1, ALL, names=F8F6F4_NAMES, meaning="format")


def cbsz(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    if not inst.takes("cbsz"):
        return None
    if inst.formats_by_cbsz_blgp:
        return _format()
    top = 3 if inst.sparse else inst.blocks.bit_length() - 1
    return Rule(top, ("A", "K"), meaning="broadcast")


def blgp(_spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    if not inst.takes("blgp"):
        return None
    if inst.formats_by_cbsz_blgp:
        return _format()
    if blgp_negates(inst):
        return Rule(7, ("A", "B", "C"), mask=7, meaning="negate")
    return Rule(7, ("B",), meaning="lane_pattern")


# ---- RDNA: NEG / NEG_HI.

def neg(spec: ModifierSpec, inst: Instruction, _mods: Modifiers, _wave: int) -> Rule | None:
    """NEG / NEG_HI: bits 0-2 act on A, B, C; integer instructions: NEG 0-3 (the
    signedness of A and B) and no NEG_HI."""
    if not inst.takes("neg") or spec.name not in ("neg", "neg_hi"):
        return None
    if inst.is_int:
        return None if spec.name == "neg_hi" else Rule(3, INPUTS, mask=3, meaning="signed")
    return Rule(7, INPUTS, mask=7, meaning="negate")


# (abid, opsel: only the families that define them)
RANGES: dict[str, RangeFunction] = {"": fixed, "cbsz": cbsz, "blgp": blgp, "neg": neg}


def rule(spec: ModifierSpec, inst: Instruction, mods: Modifiers, wave: int) -> Rule | None:
    """What `inst` allows of the modifier `spec` (None: it does not take it). A rule that
    depends on another modifier's value (ABID's on CBSZ) assumes that one was checked."""
    found = hooks(inst).ranges.get(spec.range) or RANGES.get(spec.range)
    if found is None:  # a range only some families define: the others do not take it
        return None
    return found(spec, inst, mods, wave)


def takes(inst: Instruction, wave: int) -> list[ModifierSpec]:
    """The modifiers `inst` takes (with all modifiers 0)."""
    none = Modifiers()
    return [spec for spec in MODIFIERS if rule(spec, inst, none, wave) is not None]


def shown(value: int) -> str:
    """A value as a message names it (a number too long to print by its size)."""
    return str(value) if value < 10 ** 30 else f"(a number of {value.bit_length()} bits)"


def _allowed(found: Rule) -> str:
    if found.names:
        return ", ".join(f"{name} = {code}" for code, name in enumerate(found.names))
    if found.values:
        return " or ".join(str(v) for v in (0, *found.values))
    if not found.top:
        return "0 (the only value here)"
    return f"a value from 0 to {found.top}"


def check(inst: Instruction, matrix: str, mods: Modifiers, d_calc: bool, wave: int) -> None:
    """Raise CalcError for the first modifier value `inst` or `matrix` cannot take.
    `d_calc`: the query is D with an output calculation (-o), which lets D take the
    modifiers of the inputs where the rule allows it."""
    for spec in MODIFIERS:
        value = getattr(mods, spec.name)
        if not value:
            continue
        found = rule(spec, inst, mods, wave)
        if found is None:
            raise _not_taken(spec, inst, value, wave)
        if value < 0 or value > found.top or found.values and value not in found.values:
            raise CalcError(f"{spec.label} {shown(value)} is out of range for {inst.name}"
                            f"{found.needs}: use {_allowed(found)}.")
        if found.mask >= 0 and value & ~found.mask:
            bits = ", ".join(str(1 << b) for b in range(3) if found.mask >> b & 1) or "none"
            raise CalcError(f"{spec.label} {shown(value)} is not allowed for {inst.name}: "
                            f"the bits it takes are {bits} (1 = A, 2 = B, 4 = C).")
        if matrix not in found.matrices and not (d_calc and found.output):
            acts = " or ".join(MATRIX_NAMES[m] for m in found.matrices)
            with_o = " (or D with -o)" if found.output and "D" not in found.matrices else ""
            raise CalcError(f"On {inst.name} {spec.label} acts on "
                            f"{acts}{with_o}, not on {matrix} ({MATRIX_FLAGS[matrix]}).")


def _not_taken(spec: ModifierSpec, inst: Instruction, value: int, wave: int) -> CalcError:
    """The architecture's instructions never take it, or this one does not."""
    title = spec.label
    taken = takes(inst, wave)
    listed = ", ".join(s.option for s in taken) or "no modifiers"
    if not any(spec.name in other.modifiers for other in inst.architecture.instructions):
        archs = [arch.name for arch in ARCHITECTURES
                 if any(spec.name in other.modifiers for other in arch.instructions)]
        return CalcError(f"{title} is not a {inst.arch} modifier (it is one of "
                         f"{', '.join(archs)}); {inst.name} takes {listed} "
                         f"(got {spec.name} {shown(value)}).")
    return CalcError(f"{inst.name} does not take {title} (got {shown(value)}): only "
                     f"0 is allowed; it takes {listed}.")
