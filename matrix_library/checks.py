"""Every check of the library's (and the command line's) input: architectures,
instructions, matrices, modifiers, wave sizes and coordinates. Each raises CalcError
naming the bad value and what is allowed."""
from __future__ import annotations

import instructions as registry
from instructions import ARCHITECTURES
from instructions import Architecture as Architecture
from instructions.model import Instruction as Instruction
from layouts import MATRICES, Operand, check_matrix, check_modifiers
from layouts import operand as cached_operand
from layouts.core import CalcError as CalcError
from layouts.core import shown as shown
from layouts.modifiers import Modifiers as Modifiers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from instructions.lane_moves import ArchMoves
    ModifierValues = Modifiers | Mapping[str, int] | None


# ---- architectures and instructions

def architectures() -> tuple[Architecture, ...]:
    """Every supported architecture, including ones the reference tool lacks (CDNA4)."""
    return ARCHITECTURES


def names() -> str:
    return ", ".join(a.name.lower() for a in ARCHITECTURES)


def find_architecture(name: str | Architecture) -> Architecture:
    """The architecture called `name`: its name or a gfx/product alias, in any case."""
    if isinstance(name, Architecture):
        return name
    if not isinstance(name, str):
        raise CalcError(f"an architecture is named by a string, not {shown(name)}; choose one "
                        f"of {names()}")
    arch = registry.resolve(name)
    if isinstance(arch, str):
        raise CalcError(arch or f"unknown architecture {shown(name)}; choose one of "
                        f"{names()} (or one of their gfx/product aliases, an LLVM target "
                        "or a product name)")
    return arch


def target_note(name: object) -> str:
    """What the architecture named `name` answers for, when `name` is an LLVM target that
    is not its own name or one of its aliases, or a generic or provisional target (""
    otherwise): the line -L and -d print under "Target:"."""
    if not isinstance(name, str):
        return ""
    arch = registry.find_architecture(name)
    if arch is None:
        return ""
    if not arch.members and name.lower() in (arch.name.lower(), *arch.aliases):
        return ""  # (the architecture's own name or alias: no line, the table unread)
    from instructions.targets import target_of  # (the target table: for -L and -d alone)
    target = target_of(name)
    if target is None:
        return ""
    if target.name in arch.aliases and not (target.generic or target.provisional):
        return ""
    return target.summary()


def find_instruction(arch: str | Architecture, mnemonic: str) -> Instruction:
    """The instruction `mnemonic` (any case, trailing whitespace ignored) of architecture
    `arch` (name or alias)."""
    found = find_architecture(arch)
    if not isinstance(mnemonic, str):
        raise CalcError(f"an instruction is named by a string, not {shown(mnemonic)}; "
                        f"instructions({found.name.lower()!r}) lists them")
    inst = found.find(mnemonic)
    if inst is None:
        raise CalcError(f"{found.name} has no instruction {shown(mnemonic)}; "
                        f"instructions({found.name.lower()!r}) lists them")
    return inst


def instructions(arch: str | Architecture | None = None) -> tuple[Instruction, ...]:
    """The instructions of `arch`, or of every architecture when it is None."""
    if arch is None:
        return tuple(inst for a in ARCHITECTURES for inst in a.instructions)
    return tuple(find_architecture(arch).instructions)


def instruction(inst: object) -> Instruction:
    """`inst` when it is an Instruction; CalcError otherwise (a mnemonic string, ...)."""
    if not isinstance(inst, Instruction):
        hint = " (look it up with find_instruction(arch, name))" if isinstance(inst, str) else ""
        raise CalcError(f"expected an Instruction, not {shown(inst)}{hint}")
    return inst


def architecture_of(inst: Instruction) -> Architecture:
    return instruction(inst).architecture


def lane_moves_of(inst: Instruction, what: str) -> ArchMoves:
    """The lane moves, loads and stores of `inst`'s architecture (instructions/lane_moves.py)
    that a plan of `what` is made of; CalcError where none are recorded: the architectures
    there to port from (NVIDIA's) have no AMD code to plan."""
    from instructions.lane_moves import arch_moves
    arch = architecture_of(inst)
    try:
        return arch_moves(arch.name)
    except KeyError:
        raise CalcError(generic_refusal(arch, what) or (
            f"{arch.name} has no {what}: the plans are AMD code (port its fragments with -a "
            f"AMD_ARCH --convert {arch.name.lower()}:INSTRUCTION:MATRIX INSTRUCTION:MATRIX)")
        ) from None


def generic_refusal(arch: Architecture, what: str) -> str:
    """Why a generic target (an architecture with members) has no `what` (the code and
    plans are written for its members' targets), naming its members; "" for any other."""
    if not arch.members:
        return ""
    members = " or ".join(f"-a {name.lower()}" for name in arch.members)
    return (f"{arch.name} has no {what}: it is a generic target, and the calculator writes "
            f"code and plans for its members ({members})")


def matrices(inst: Instruction) -> tuple[str, ...]:
    """The matrices of `inst`: A, B, C (dense) or K (sparse), D, and SA, SB (scaled)."""
    instruction(inst)
    present = []
    for matrix in MATRICES:
        try:
            check_matrix(inst, matrix)
        except CalcError:
            continue
        present.append(matrix)
    return tuple(present)


# ---- numbers, modifiers, wave sizes

def whole(name: str, value: object, argument: str | None = None) -> int:
    """`value` as a plain int when it is a whole number >= 0 (not a bool, float or
    string); an int subclass is read by its value, never by its own comparisons."""
    number = int.__index__(value) if isinstance(value, int) and type(value) is not bool \
        else -1
    if number < 0:
        raise CalcError(f"{name} takes a whole number >= 0, not {shown(value)}", argument)
    return number


def flag(name: str, value: object, argument: str | None = None) -> bool:
    """`value` when it is True or False; CalcError otherwise (1, "yes", None...)."""
    if not isinstance(value, bool):
        raise CalcError(f"{name} is True or False, not {shown(value)}", argument or name)
    return value


# Every modifier is a field of at most 8 bits of the instruction word: a larger value is
# refused here, before any check works with it (the instruction's own range, checked by
# the layout engine, is narrower).
MODIFIER_LIMIT = 255


def modifiers(mods: ModifierValues = None, **values: int) -> Modifiers:
    """Modifiers from None, a Modifiers value, or a mapping of names (cbsz, abid, blgp,
    opsel, neg, neg_hi, ...) to whole numbers; keyword arguments add to them. Every
    value is checked (a Modifiers value too): whole numbers >= 0, not bools, at most
    MODIFIER_LIMIT."""
    return _modifiers(mods, values, bounded=True)


def _modifiers(mods: ModifierValues, values: dict[str, int], bounded: bool) -> Modifiers:
    """modifiers(); `bounded` False where the instruction is known, whose legality check
    (layouts/legality.py) bounds every value before use and names its own range."""
    if type(mods) is Modifiers and not values and all(
            type(value) is int and 0 <= value <= MODIFIER_LIMIT for value in mods):
        return mods  # (already plain and in range: the common case, checked at once)
    if isinstance(mods, Modifiers):
        given: dict[object, object] = dict(mods._asdict().items())
    elif mods is None or hasattr(mods, "items"):
        given = dict(mods.items()) if mods else {}
    else:
        raise CalcError(f"modifiers are given as Modifiers(...) or a mapping of names to "
                        f"whole numbers, not {shown(mods)}")
    given.update(values)
    fields = list(Modifiers._fields)
    chosen = {}
    for key, value in given.items():
        name = str(key).lower().replace("-", "_")
        if name not in fields:
            raise CalcError(f"unknown modifier {shown(key)}; the modifiers are "
                            f"{', '.join(fields)}")
        chosen[name] = whole(f"modifier {name}", value)
        if bounded and chosen[name] > MODIFIER_LIMIT:
            raise CalcError(f"modifier {name} = {shown(value)} is out of range: no "
                            f"instruction takes more than {MODIFIER_LIMIT}")
    result = Modifiers(**chosen)
    return mods if result == mods and isinstance(mods, Modifiers) else result


def wave_size(inst: Instruction, wave: int | None = None) -> int:
    """The wave size of a query: `wave` when `inst` runs in it, its default for None/0."""
    sizes = instruction(inst).wave_sizes
    if wave is None or type(wave) is int and wave == 0:
        return sizes[0]
    wave = whole("wave", wave, "wave")
    if wave not in sizes:
        allowed = " or ".join(map(str, sizes))
        raise CalcError(f"wave size {shown(wave)} is not available for {inst.name} on {inst.arch}; "
                        f"use {allowed}", "wave")
    return wave


def matrix_name(inst: Instruction | None, matrix: object) -> str:
    """The matrix called `matrix` (any case): one of MATRICES (of `inst`'s when given)."""
    name = matrix.upper() if isinstance(matrix, str) else ""
    if name not in MATRICES:
        has = f"{inst.name} has {', '.join(matrices(inst))}" if inst is not None else \
            f"the matrices are {', '.join(MATRICES)}"
        raise CalcError(f"unknown matrix {shown(matrix)}; {has}")
    return name


def with_formats(inst: Instruction, mods: ModifierValues = None) -> Instruction:
    """`inst` with the A/B formats its format modifiers select (CBSZ/BLGP on CDNA4's
    f8f6f4, matrix_a_fmt/matrix_b_fmt on gfx1250's): types, register counts and cycles
    follow; other instructions as is."""
    fields = instruction(inst).format_fields
    checked = _modifiers(mods, {}, bounded=False)  # (checked for every instruction)
    if not fields:
        return inst
    codes = {name: getattr(checked, name) for name in fields}
    check_modifiers(inst, "A", Modifiers(**codes), False)
    return inst.with_formats(*codes.values())


def operand(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
            wave: int | None = None, output_calc: bool = False) -> Operand:
    """The engine's checked operand (layouts.Operand) of `matrix`: the instruction,
    matrix, modifiers and wave size validated here, the one place that does it.
    `output_calc`: check the modifiers as for an output calculation (-o), which lets
    D take the modifiers of the inputs."""
    inst = instruction(inst)
    name, size = matrix_name(inst, matrix), wave_size(inst, wave)
    checked = _modifiers(mods, {}, bounded=False)  # (the legality check names the range)
    check_modifiers(inst, name, checked, flag("output_calc", output_calc), "get", size)
    check_matrix(inst, name)
    return cached_operand(with_formats(inst, checked), name, checked, size)


def in_range(name: str, value: object, limit: int, what: str,
             argument: str | None = None) -> None:
    argument = argument or name
    value = whole(name, value, argument)
    if value >= limit:
        use = "use 0 (it has only one)" if limit == 1 else f"use 0 to {limit - 1}"
        raise CalcError(f"{name} = {shown(value)} is out of range for {what}: {use}.",
                        argument)


