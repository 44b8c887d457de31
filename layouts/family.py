"""The layout-family registry: one `Family` record per layout family, registered once.

A family (an architecture's `family` trait, instructions/__init__.py) names its layout
generator, formula derivation, negation marks, modifier range functions and extra facts
(typed functions of layouts/hooks.py, each importing its module on first call, so that a
point query imports only its own family's modules), and declares the capabilities
renderers read (`traits`, `detail`).

Adding a family (see docs/contributing.md): a table module in instructions/ with its
Architecture line, a generator module in layouts/, and one `Family(...)` line below.
No code outside the registries tests a family or architecture name
(tests/structure/test_no_family_names.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from instructions.builtins import WmmaBuiltins

from layouts import hooks

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import TypedDict

    from instructions.model import Instruction
    from instructions.modifiers import ModifierSpec, Rule

    from layouts.core import Layout, Place
    from layouts.formulas import Section
    from layouts.modifiers import Modifiers

    # The hooks' types (Family's docstring says what each answers).
    Generator = Callable[[Instruction, str, int, Modifiers], Layout]
    Derivation = Callable[[Callable[[str, int], Layout], Sequence[str], Sequence[int], bool],
                          dict[int, Section]]
    Mark = Callable[[Instruction, str, Modifiers], str]
    HalfMark = Callable[[Instruction, str, Modifiers, Place], str]
    RangeFunction = Callable[[ModifierSpec, Instruction, Modifiers, int], Rule | None]

    class FamilyFacts(TypedDict, total=False):
        """What a family's `facts` hook adds to (or replaces in) matrix_api.facts."""
        cycles: int | None
        flops_per_cycle: int | None
        prefix_opcode: int | None
        provenance: Mapping[str, object]

# The capabilities a family may declare in `traits` (what renderers and checks read):
TRAITS = {
    "opsel_cd_half": "OPSEL[2] puts 16-bit C/D values in the high register halves "
                     "(-d prints OPSEL[1:0] and OPSEL[2] apart)",
}

# The -d renderers (formats/detail.py DETAILS) a family may name in `detail`.
DETAILS = ("mai", "wmma", "sourced", "ptx")


class Family(NamedTuple):
    """One layout family.

    name: the family's name (Architecture.family); layout: the generator,
    (inst, matrix, wave, mods) -> Layout; formulas: the formula derivation,
    (layout of (matrix, wave), matrices, waves, sparse) -> {wave: (element -> register
    lines, register -> element lines)}: DERIVED, layouts/formulas.py, for every family
    so far; mark: the mark of a
    whole operand, (inst, matrix, mods) -> "", "-", "|" or "-|"; half_mark: the mark of
    one slot when the halves of a packed value differ, (inst, matrix, mods, place) ->
    mark ("" when they never do); ranges: range functions by name (instructions/
    modifiers.py ModifierSpec.range) that replace the shared ones of
    layouts/legality.py for this family; facts: the facts the family adds to (or
    replaces in) matrix_api.facts, inst -> dict (None for none); detail: which -d
    renderer prints its instructions (DETAILS); traits: the capabilities it declares
    (TRAITS); builtins: clang's conventions for the WMMA/SWMMAC builtins of its instructions, as
    data (instructions/builtins.py WmmaBuiltins; None: MFMA families, whose builtins
    follow one convention, or a family whose builtins are not charted).

    Every hook is a function (layouts/hooks.py: each loads its module on first call)."""
    name: str
    layout: Generator
    formulas: Derivation
    mark: Mark | None = None
    half_mark: HalfMark | None = None
    ranges: Mapping[str, RangeFunction] = {}
    facts: Callable[[Instruction], FamilyFacts] | None = None
    detail: str = "mai"
    traits: frozenset[str] = frozenset()
    builtins: WmmaBuiltins | None = None


FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add `family` to the registry (its name must be new)."""
    if family.name in FAMILIES:
        raise ValueError(f"layout family {family.name!r} is registered already")
    unknown = set(family.traits) - set(TRAITS)
    if unknown or family.detail not in DETAILS:
        raise ValueError(f"layout family {family.name!r}: unknown traits {sorted(unknown)} "
                         f"or detail {family.detail!r} (allowed: {', '.join(TRAITS)}; "
                         f"{', '.join(DETAILS)})")
    FAMILIES[family.name] = family
    return family


def family_of(inst: Instruction) -> Family:
    """The registry record of `inst`'s layout family."""
    return FAMILIES[inst.family]


def wmma_builtins(inst: Instruction) -> WmmaBuiltins | None:
    """clang's conventions for `inst`'s WMMA/SWMMAC builtins, from its family's registry
    line (None: not charted)."""
    return FAMILIES[inst.family].builtins


# The formula derivation every family uses: formulas read off the layout's factors
# (layouts/formulas.py), so a new family's generator brings its formulas with it.
DERIVED = hooks.derive

# ---- the families (one line each)
register(Family("cdna", hooks.cdna_layout, DERIVED, mark=hooks.blgp_mark))
register(Family("rdna3", hooks.rdna3_layout, DERIVED,
                mark=hooks.rdna_c_mark, half_mark=hooks.rdna_half_mark,
                ranges={"opsel": hooks.cd_half_opsel},
                detail="wmma", traits=frozenset(("opsel_cd_half",)),
                builtins=WmmaBuiltins("", True)))
register(Family("rdna4", hooks.rdna4_layout, DERIVED,
                mark=hooks.rdna_c_mark, half_mark=hooks.rdna_half_mark,
                ranges={"opsel": hooks.index_set_opsel},
                detail="wmma", builtins=WmmaBuiltins("_gfx12", False)))
register(Family("gfx1250", hooks.gfx1250_layout, DERIVED,
                mark=hooks.gfx1250_mark, half_mark=hooks.gfx1250_half_mark,
                ranges={"neg": hooks.llvm_neg}, facts=hooks.gfx1250_facts,
                detail="sourced",
                # clang-22: no index_key argument; it selects index_key:1 when the index
                # argument is the index VGPR's high half (K >> 16). Its 8-bit SWMMACs take a
                # 32-bit index for their 64-bit one; it has no f64 WMMA builtin (gfx1251).
                builtins=WmmaBuiltins("", False, wave_suffix=False, operand_modifiers=True,
                                      bf16="__bf16", index_bits=32, index_keys=2,
                                      missing=("f64",))))


# NVIDIA (issue 34): mma.sync, wgmma.mma_async, ldmatrix and stmatrix fragments; its two
# hooks load layouts/nvidia.py on their first call, as layouts/hooks.py's do
def _nvidia_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from layouts.nvidia import family_layout
    return family_layout(inst, matrix, wave, mods)


def _nvidia_facts(inst: Instruction) -> FamilyFacts:
    from layouts.nvidia import facts
    return facts(inst)


register(Family("nvidia", _nvidia_layout, DERIVED, detail="ptx", facts=_nvidia_facts))
