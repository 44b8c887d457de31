"""The layout-family registry: one `Family` line per layout family, naming its module.

A family (an architecture's `family` trait, instructions/__init__.py) is a module of
layouts/ that the registry line names: it defines `layout(inst, matrix, wave, mods)`,
the generator, and where the family has them its marks (`mark`, `half_mark`), its own
modifier range functions (`RANGES`) and the facts it adds (`facts`). The line declares
the capabilities renderers read (`traits`, `detail`) and clang's builtin conventions
(`builtins`). `hooks(inst)` loads the family's module on first use, the one place a
module is found by its name: a point query loads only its own family's module.

Adding a family (see docs/contributing.md): a table module in instructions/ with its
Architecture line, a family module in layouts/, and one `Family(...)` line below.
No code outside the registries tests a family or architecture name
(tests/structure/test_no_family_names.py).
"""

from __future__ import annotations

from functools import cache

from instructions.model import WmmaBuiltins
from instructions.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from instructions.model import FamilyFacts, Instruction
    from instructions.modifiers import Modifiers

    from layouts.core import Layout, Place
    from layouts.legality import RangeFunction

    # The functions a family module defines (Hooks says what each answers; range
    # functions: layouts/legality.py).
    Generator = Callable[[Instruction, str, int, Modifiers], Layout]
    Mark = Callable[[Instruction, str, Modifiers], str]
    HalfMark = Callable[[Instruction, str, Modifiers, Place], str]
    Facts = Callable[[Instruction], FamilyFacts]
    # Other readings of a sparse index: (inst, mods) -> [(name, what it reads, the layout
    # the hardware would read the index through beside the family's A and B)].
    IndexReadings = Callable[[Instruction, Modifiers], list[tuple[str, str, Layout]]]

# The capabilities a family may declare in `traits` (what renderers and checks read):
TRAITS = {
    "opsel_cd_half": "OPSEL[2] puts 16-bit C/D values in the high register halves "
                     "(-d prints OPSEL[1:0] and OPSEL[2] apart)",
}

# The -d renderers (formats/detail.py DETAILS) a family may name in `detail`.
DETAILS = ("mai", "wmma", "sourced", "ptx")


class Family(Record):
    """One layout family.

    name: the family's name (Architecture.family); module: the module of layouts/ (or
    any importable module) that defines its functions (see Hooks); detail: which -d
    renderer prints its instructions (DETAILS); traits: the capabilities it declares
    (TRAITS); builtins: clang's conventions for the WMMA/SWMMAC builtins of its
    instructions, as data (instructions/model.py WmmaBuiltins; None: MFMA families,
    whose builtins follow one convention, or a family whose builtins are not charted)."""
    name: str
    module: str
    detail: str = "mai"
    traits: frozenset[str] = frozenset()
    builtins: WmmaBuiltins | None = None


class Hooks(Record):
    """The functions of one family's module.

    layout: the generator, (inst, matrix, wave, mods) -> Layout; mark: the mark of a
    whole operand, (inst, matrix, mods) -> "", "-", "|" or "-|" (every mark is ""
    when every modifier is 0); half_mark: the mark of one slot when the halves of a
    packed value differ, (inst, matrix, mods, place) -> mark; ranges: range functions
    by name (instructions/modifiers.py ModifierSpec.range) that add to or replace the
    shared ones of layouts/legality.py for this family; facts: the facts the family adds
    to (or replaces in) matrix_api.facts, inst -> dict (None for none); index_readings:
    the other readings of a sparse index that sources give, which `--emit probe` checks
    on a GPU (None for none)."""
    layout: Generator
    mark: Mark | None = None
    half_mark: HalfMark | None = None
    ranges: Mapping[str, RangeFunction] = {}
    facts: Facts | None = None
    index_readings: IndexReadings | None = None


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
    """The registry line of `inst`'s layout family."""
    return FAMILIES[inst.family]


@cache
def module_hooks(module: str) -> Hooks:
    """The functions of the family module called `module`, which this loads (the lazy
    boundary of the family modules: __import__ rather than importlib, which would add
    to every query's start-up)."""
    loaded = __import__(module, fromlist=["layout"])
    return Hooks(loaded.layout, getattr(loaded, "mark", None),
                 getattr(loaded, "half_mark", None), getattr(loaded, "RANGES", {}),
                 getattr(loaded, "facts", None), getattr(loaded, "index_readings", None))


def hooks(inst: Instruction) -> Hooks:
    """The functions of `inst`'s family module."""
    return module_hooks(FAMILIES[inst.family].module)


def wmma_builtins(inst: Instruction) -> WmmaBuiltins | None:
    """clang's conventions for `inst`'s WMMA/SWMMAC builtins, from its family's registry
    line (None: not charted)."""
    return FAMILIES[inst.family].builtins


# ---- the families (one line each)
register(Family("cdna", "layouts.cdna"))
register(Family("rdna3", "layouts.rdna3", detail="wmma",
                traits=frozenset(("opsel_cd_half",)), builtins=WmmaBuiltins("", True)))
register(Family("rdna4", "layouts.rdna4", detail="wmma", builtins=WmmaBuiltins("_gfx12", False)))
register(Family("gfx1250", "layouts.gfx1250", detail="sourced",
                # clang-22: no index_key argument; it selects index_key:1 when the index
                # argument is the index VGPR's high half (K >> 16). Its 8-bit SWMMACs take a
                # 32-bit index for their 64-bit one; it has no f64 WMMA builtin (gfx1251).
                builtins=WmmaBuiltins("", False, wave_suffix=False, operand_modifiers=True,
                                      bf16="__bf16", index_bits=32, index_keys=2,
                                      missing=("f64",))))
# mma.sync, wgmma.mma_async, ldmatrix and stmatrix fragments
register(Family("nvidia", "layouts.nvidia", detail="ptx"))
