"""The calculator as a library: find instructions, read their facts, and map matrix
elements to registers and back with the layout engine the command line uses.

    >>> import matrix_api as mc
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
matrix_library.typed) are loaded on first use, so point queries do not import typing.
"""
from __future__ import annotations

from instructions import Architecture
from instructions.model import Instruction
from instructions.record import TYPE_CHECKING
from layouts import COORDINATES as COORDINATES  # (which of i, j, k index each matrix)
from layouts import MATRICES as MATRICES
from layouts import Modifiers
from layouts.core import CalcError
from layouts.core import Place as Place  # (Location.place)
from matrix_library.catalog import FILTERS, catalog, check_filters, parse_filters
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
from matrix_library.facts import facts, formulas, linear_layout, supported_modifiers
from matrix_library.queries import (
    calculation,
    calculations_at,
    elements_at,
    layout,
    layout_rows,
    locate,
    register_count,
    register_grid,
    slot_grid,
    slots,
)
from matrix_library.records import Calculation, Element, Entry, Location, Product, Slot

if TYPE_CHECKING:
    from matrix_conversion import Conversion
    from matrix_library.checks import ModifierValues as ModifierValues
    from matrix_library.typed import (
        Facts,
        Formula,
        LayoutRow,
        LinearLayoutBases,
        OperandTypes,
        TypeFacts,
    )

__all__ = ["Architecture", "CalcError", "Calculation", "Element", "Entry", "FILTERS", "Facts",
           "Formula", "Instruction", "LayoutRow", "LinearLayoutBases", "Location", "Modifiers",
           "OperandTypes", "Product", "Slot", "TypeFacts", "architecture_of", "architectures",
           "calculation", "calculations_at", "catalog", "check_filters", "element_of",
           "element_text", "elements_at", "facts", "find_architecture", "find_instruction",
           "formulas", "instructions", "layout", "layout_rows", "linear_layout", "locate",
           "matrices", "modifiers", "operand", "parse_filters", "register_count", "register_grid",
           "slot_grid", "slots", "supported_modifiers", "wave_size", "with_formats"]

_TYPED = ("Facts", "Formula", "LayoutRow", "LinearLayoutBases", "OperandTypes", "TypeFacts")


def __getattr__(name: str) -> object:
    """The typed dictionaries, loaded on first use (they import typing_extensions)."""
    if name in _TYPED:
        from matrix_library import typed
        return getattr(typed, name)
    raise AttributeError(f"module 'matrix_api' has no attribute {name!r}")


from matrix_api_lds import LdsPlan, LdsSearch, lds_plan, lds_search  # noqa: E402  (issue 24)

__all__ += ["LdsPlan", "LdsSearch", "lds_plan", "lds_search"]


def conversion(src_inst: Instruction, src_matrix: str, dst_inst: Instruction,
               dst_matrix: str, *, mods: ModifierValues = None,
               src_mods: ModifierValues = None, dst_mods: ModifierValues = None,
               wave: int | None = None, transposed: bool = False,
               advice: bool = True, route: str | None = None) -> Conversion:
    """The plan moving `src_matrix` (C or D) of `src_inst` into `dst_matrix` (A or B) of
    `dst_inst` (issue 20; matrix_conversion.conversion, loaded on first use)."""
    from matrix_conversion import conversion as plan
    return plan(src_inst, src_matrix, dst_inst, dst_matrix, mods=mods, src_mods=src_mods,
                dst_mods=dst_mods, wave=wave, transposed=transposed, advice=advice,
                route=route)


__all__.append("conversion")

__all__ += ["Request", "answer"]; from matrix_request import Request, answer  # noqa: E402, E702, I001
