"""The calculator as a library: find instructions, read their facts, and map matrix
elements to registers and back with the layout engine the command line uses.

    >>> import matrix_calculator as mc
    >>> inst = mc.find_instruction("mi300x", "V_MFMA_F32_32X32X8_F16")
    >>> [str(loc) for loc in mc.locate(inst, "A", i=5, k=6)]
    ['v1{37}.[15:0]']

Elements are named by the coordinates of the product D = A x B + C: A[i][k], B[k][j],
C and D[i][j], the compression indices of a sparse instruction K[i][k], and the block
scales of CDNA4's v_mfma_scale_* SA[i][k] and SB[k][j] (there k counts blocks of 32 K
values). A location is a lane and a bit range of the operand's registers, counted from
its first VGPR (v0). Every function checks its arguments and raises CalcError (a
ValueError) whose message says what is allowed.

This module is the library's one public door; the code lives in the matrix_library
package, split by job (records, checks, queries, facts, catalog). The typed
dictionaries `Facts`, `TypeFacts`, `Formula` and `LinearLayoutBases` (of
matrix_library.typed) are loaded on first use, so point queries do not import typing;
so are the facts, the catalog, the LDS plans, conversions and `Request`/`answer`
(matrix_request), which point queries do not need (docs/speed.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from instructions import Architecture
from instructions.model import Instruction
from layouts import COORDINATES as COORDINATES  # (which of i, j, k index each matrix)
from layouts import MATRICES as MATRICES
from layouts import Modifiers
from layouts.core import CalcError
from layouts.core import Place as Place  # (Location.place)

from matrix_library.checks import (
    architecture_of,
    element_of,
    element_text,
    find_architecture,
    find_instruction,
    instructions,
    matrices,
    modifiers,
    operand,
    wave_size,
    with_formats,
)
from matrix_library.checks import architectures as architectures
from matrix_library.queries import (
    calculation,
    calculations_at,
    elements_at,
    layout,
    layout_columns,
    layout_keys,
    layout_rows,
    locate,
    register_count,
    register_grid,
    slot_grid,
    slot_rows,
    slots,
)
from matrix_library.records import (
    Calculation,
    Element,
    Entry,
    KeyedLayout,
    LayoutColumns,
    Location,
    Product,
    Slot,
)

if TYPE_CHECKING:  # (and the names of _LIBRARY, loaded on first use: see __getattr__)
    from layouts import Operand
    from layouts import check_modifiers as check_modifiers
    from layouts import formula_sections as formula_sections
    from layouts.cdna import ABShape as ABShape
    from layouts.cdna import CDShape as CDShape
    from layouts.cdna import sparse_lane_k as sparse_lane_k
    from layouts.core import BIT as BIT
    from layouts.core import BLOCK as BLOCK
    from layouts.core import COL as COL
    from layouts.core import COPY as COPY
    from layouts.core import LANE as LANE
    from layouts.core import ROW as ROW
    from layouts.family import family_of as family_of
    from layouts.family import wmma_builtins as wmma_builtins
    from layouts.formulas import Lines as Lines
    from layouts.formulas import Section as Section
    from layouts.formulas import Text as Text
    from layouts.fragment import Digit as Digit
    from layouts.fragment import Fragment as Fragment
    from layouts.fragment import bit_of as bit_of
    from layouts.fragment import digit_value as digit_value
    from layouts.fragment import element as element
    from layouts.fragment import fragment as fragment
    from layouts.gfx1250 import FORMATS as FORMATS
    from layouts.gfx1250 import latencies as latencies
    from layouts.gfx1250 import neg_masks as neg_masks
    from layouts.gfx1250 import provenance as provenance
    from layouts.legality import rule as rule
    from layouts.rdna4 import index_bits_per_lane as index_bits_per_lane
    from matrix_plans.lds.reads import LANE_MAPS as LANE_MAPS
    from matrix_plans.lds.reads import LoadPlan as LoadPlan
    from matrix_plans.lds.reads import alignment as alignment

    from matrix_library.budget import Budget as Budget
    from matrix_library.budget import GpuProduct as GpuProduct
    from matrix_library.budget import Limits as Limits
    from matrix_library.budget import Peak as Peak
    from matrix_library.budget import architecture_limits as architecture_limits
    from matrix_library.budget import budget as budget
    from matrix_library.budget import find_product as find_product
    from matrix_library.budget import peak as peak
    from matrix_library.budget import products as products
    from matrix_library.catalog import FILTERS as FILTERS
    from matrix_library.catalog import catalog as catalog
    from matrix_library.catalog import check_filters as check_filters
    from matrix_library.catalog import parse_filters as parse_filters
    from matrix_library.checks import ModifierValues as ModifierValues
    from matrix_library.compare import Comparison
    from matrix_library.conversion import Conversion
    from matrix_library.copies import LdsCopy as LdsCopy
    from matrix_library.copies import LdsCopySearch as LdsCopySearch
    from matrix_library.copies import lds_copy as lds_copy
    from matrix_library.copies import lds_copy_search as lds_copy_search
    from matrix_library.epilogue import StorePlan as StorePlan
    from matrix_library.epilogue import store_plan as store_plan
    from matrix_library.facts import facts as facts
    from matrix_library.facts import formulas as formulas
    from matrix_library.facts import linear_layout as linear_layout
    from matrix_library.facts import supported_modifiers as supported_modifiers
    from matrix_library.lds import LdsPlan as LdsPlan
    from matrix_library.lds import LdsSearch as LdsSearch
    from matrix_library.lds import lds_plan as lds_plan
    from matrix_library.lds import lds_search as lds_search
    from matrix_library.modifier_values import value_meanings as value_meanings
    from matrix_library.preshuffle import PreshufflePlan as PreshufflePlan
    from matrix_library.preshuffle import preshuffle as preshuffle
    from matrix_library.request import Request as Request
    from matrix_library.request import answer as answer
    from matrix_library.typed import (
        Facts,
        Formula,
        LayoutRow,
        LinearLayoutBases,
        OperandTypes,
        SlotRow,
        TypeFacts,
    )

__all__ = ["Architecture", "CalcError", "Calculation", "Element", "Entry", "FILTERS", "Facts",
           "Formula", "Instruction", "KeyedLayout", "LayoutColumns", "LayoutRow",
           "LinearLayoutBases", "Location",
           "Modifiers", "OperandTypes", "Product", "Slot", "SlotRow", "TypeFacts",
           "architecture_of", "architectures",
           "calculation", "calculations_at", "catalog", "check_filters", "element_of",
           "element_text", "elements_at", "facts", "find_architecture", "find_instruction",
           "formulas", "instructions", "layout", "layout_columns", "layout_keys", "layout_rows",
           "linear_layout",
           "locate",
           "matrices", "modifiers", "operand", "parse_filters", "register_count", "register_grid",
           "slot_grid", "slot_rows", "slots", "supported_modifiers", "value_meanings", "wave_size",
           "with_formats",
           "LdsPlan", "LdsSearch", "lds_plan", "lds_search", "LdsCopy", "lds_copy", "LdsCopySearch",
           "lds_copy_search", "conversion", "port", "compare", "Request", "answer",
           "Budget", "GpuProduct", "Limits", "Peak", "architecture_limits", "budget",
           "find_product", "peak", "products",
           "PreshufflePlan", "preshuffle", "StorePlan", "store_plan"]

_TYPED = ("Facts", "Formula", "LayoutRow", "LinearLayoutBases", "OperandTypes", "SlotRow",
          "TypeFacts")


# The engine's pieces the renderers of formats/ draw with (the fragment digits of the HIP
# emitter, the family traits, the formula texts' shapes...): formats/ reads layouts/ only
# through this door. Not part of the documented API; each is loaded on first use, from
# the module named here (point queries load only what they read).
_ENGINE = {
    "check_modifiers": "layouts", "formula_sections": "layouts",
    "ABShape": "layouts.cdna", "CDShape": "layouts.cdna", "sparse_lane_k": "layouts.cdna",
    "BIT": "layouts.core", "BLOCK": "layouts.core", "COL": "layouts.core",
    "COPY": "layouts.core", "LANE": "layouts.core", "ROW": "layouts.core",
    "family_of": "layouts.family", "wmma_builtins": "layouts.family",
    "Digit": "layouts.fragment", "Fragment": "layouts.fragment", "bit_of": "layouts.fragment",
    "element": "layouts.fragment",
    "digit_value": "layouts.fragment", "fragment": "layouts.fragment",
    "FORMATS": "layouts.gfx1250", "neg_masks": "layouts.gfx1250",
    "latencies": "layouts.gfx1250", "provenance": "layouts.gfx1250",
    "LANE_MAPS": "matrix_plans.lds.reads", "alignment": "matrix_plans.lds.reads",
    "rule": "layouts.legality",
    "index_bits_per_lane": "layouts.rdna4",
}


# The library's parts that only some questions need, loaded on first use too, so that a
# point query loads none of them: the catalog and the facts (--catalog, -d, --json), the
# LDS plans (issue 24) and the Request door (issue 18; matrix_request reads the library's
# modules directly, so it and this module do not import each other).
_LIBRARY = {
    "FILTERS": "matrix_library.catalog", "catalog": "matrix_library.catalog",
    "check_filters": "matrix_library.catalog", "parse_filters": "matrix_library.catalog",
    "facts": "matrix_library.facts", "formulas": "matrix_library.facts",
    "linear_layout": "matrix_library.facts", "supported_modifiers": "matrix_library.facts",
    "value_meanings": "matrix_library.modifier_values",
    "LdsPlan": "matrix_library.lds", "LdsSearch": "matrix_library.lds",
    "lds_plan": "matrix_library.lds", "lds_search": "matrix_library.lds",
    "LdsCopy": "matrix_library.copies", "lds_copy": "matrix_library.copies",
    "LdsCopySearch": "matrix_library.copies", "lds_copy_search": "matrix_library.copies",
    "PreshufflePlan": "matrix_library.preshuffle", "preshuffle": "matrix_library.preshuffle",
    "StorePlan": "matrix_library.epilogue", "store_plan": "matrix_library.epilogue",
    "Request": "matrix_library.request", "answer": "matrix_library.request",
    "Budget": "matrix_library.budget", "GpuProduct": "matrix_library.budget",
    "Limits": "matrix_library.budget", "Peak": "matrix_library.budget",
    "architecture_limits": "matrix_library.budget", "budget": "matrix_library.budget",
    "find_product": "matrix_library.budget", "peak": "matrix_library.budget",
    "products": "matrix_library.budget",
}


def __getattr__(name: str) -> object:
    """The typed dictionaries (they import typing_extensions), the library's parts of
    _LIBRARY and the engine's pieces of _ENGINE, loaded on first use."""
    if name in _TYPED:
        from matrix_library import typed
        return getattr(typed, name)
    module = _LIBRARY.get(name) or _ENGINE.get(name)
    if module is None:
        raise AttributeError(f"module 'matrix_api' has no attribute {name!r}")
    found: object = getattr(__import__(module, fromlist=["_"]), name)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    """The module's names, the ones loaded on first use included (tab completion, dir()
    and help() list the whole public API before any of it is loaded)."""
    return sorted({*globals(), *__all__})


def engine_operand(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                   wave: int = 64) -> Operand:
    """The engine's operand as is (no checks: for renderers that ask about operands they
    know to exist; `operand` is the checked one)."""
    from layouts import operand as made
    return made(inst, matrix, mods, wave)


def conversion(src_inst: Instruction, src_matrix: str, dst_inst: Instruction,
               dst_matrix: str, *, mods: ModifierValues = None,
               src_mods: ModifierValues = None, dst_mods: ModifierValues = None,
               wave: int | None = None, transposed: bool = False,
               advice: bool = True, route: str | None = None) -> Conversion:
    """The plan moving `src_matrix` (C or D) of `src_inst` into `dst_matrix` (A or B) of
    `dst_inst` (issue 20; matrix_conversion.conversion, loaded on first use)."""
    from matrix_library.conversion import conversion as plan
    return plan(src_inst, src_matrix, dst_inst, dst_matrix, mods=mods, src_mods=src_mods,
                dst_mods=dst_mods, wave=wave, transposed=transposed, advice=advice,
                route=route)



def port(src_inst: Instruction, src_matrix: str, dst_inst: Instruction, dst_matrix: str, *,
         wave: int | None = None, route: str | None = None) -> Conversion:
    """The plan porting `src_matrix` of another architecture's `src_inst` (an NVIDIA
    fragment) into the same matrix's operand of `dst_inst` (issue 34;
    matrix_conversion.port, loaded on first use)."""
    from matrix_library.conversion import port as plan
    return plan(src_inst, src_matrix, dst_inst, dst_matrix, wave=wave, route=route)


def compare(first: Instruction, second: Instruction, matrix: str, *,
            first_wave: int | None = None, second_wave: int | None = None,
            element: tuple[int, int] | None = None) -> Comparison:
    """`matrix` of two instructions (an NVIDIA fragment and an AMD operand, say) side by
    side, element by element (issue 34; matrix_compare.compare, loaded on first use)."""
    from matrix_library.compare import compare as made
    return made(first, second, matrix, first_wave=first_wave, second_wave=second_wave,
                element=element)
