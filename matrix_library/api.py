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

This module is the library's one public door, plain imports of the matrix_library
package's modules (split by job: records, checks, queries, facts, catalog, the planners'
doors, the Request door) and the documented `__all__`. Point queries on the command line
do not load it: they ask matrix_library.request alone (docs/speed.md).
"""
from __future__ import annotations

from instructions import Architecture
from instructions.model import Instruction
from layouts import COORDINATES as COORDINATES  # (which of i, j, k index each matrix)
from layouts import MATRICES as MATRICES
from layouts import Modifiers
from layouts.algebra import LayoutMap as LayoutMap  # (layout_value's map)
from layouts.core import CalcError
from layouts.core import Place as Place  # (Location.place)
from layouts.values import OperandValue as OperandValue  # (layout_value)

from matrix_library.budget import (
    Budget,
    GpuProduct,
    Limits,
    Peak,
    architecture_limits,
    budget,
    find_product,
    peak,
    products,
)
from matrix_library.bulk import (
    KeyedLayout,
    LayoutColumns,
    layout,
    layout_columns,
    layout_keys,
    layout_rows,
    register_grid,
    slot_grid,
    slot_rows,
    slots,
)
from matrix_library.catalog import catalog, check_filters, parse_filters
from matrix_library.checks import (
    architecture_of,
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
from matrix_library.compare import compare
from matrix_library.conversion import conversion, port
from matrix_library.copies import LdsCopy, LdsCopySearch, lds_copy, lds_copy_search
from matrix_library.epilogue import StorePlan, store_plan
from matrix_library.exports import (
    CkTile,
    CuteLayout,
    Export,
    GluonLayout,
    ck_tile_counts,
    export,
    layout_value,
)
from matrix_library.facts import description, facts, formulas, linear_layout, supported_modifiers
from matrix_library.filters import FILTERS
from matrix_library.lds import LdsPlan, LdsSearch, lds_plan, lds_search
from matrix_library.modifier_values import value_meanings
from matrix_library.preshuffle import PreshufflePlan, preshuffle
from matrix_library.queries import (
    calculation,
    calculations_at,
    element_of,
    element_text,
    elements_at,
    locate,
    register_count,
)
from matrix_library.records import Calculation, Element, Entry, Location, Product, Slot
from matrix_library.request import Request, answer
from matrix_library.typed import (
    Description,
    Facts,
    Formula,
    LayoutRow,
    LinearLayoutBases,
    OperandTypes,
    SlotRow,
    TypeFacts,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # (an annotation alias: what the functions take as modifiers)
    from matrix_library.checks import ModifierValues as ModifierValues

__all__ = ["Architecture", "CalcError", "Calculation", "Description", "Element", "Entry",
           "FILTERS", "Facts",
           "Formula", "Instruction", "KeyedLayout", "LayoutColumns", "LayoutRow",
           "LayoutMap", "LinearLayoutBases", "Location", "OperandValue",
           "Modifiers", "OperandTypes", "Product", "Slot", "SlotRow", "TypeFacts",
           "architecture_of", "architectures",
           "calculation", "calculations_at", "catalog", "check_filters", "element_of",
           "element_text", "elements_at", "description", "facts", "find_architecture",
           "find_instruction",
           "formulas", "instructions", "layout", "layout_columns", "layout_keys", "layout_rows",
           "layout_value", "linear_layout",
           "locate",
           "matrices", "modifiers", "operand", "parse_filters", "register_count", "register_grid",
           "slot_grid", "slot_rows", "slots", "supported_modifiers", "value_meanings", "wave_size",
           "with_formats",
           "LdsPlan", "LdsSearch", "lds_plan", "lds_search", "LdsCopy", "lds_copy", "LdsCopySearch",
           "lds_copy_search", "conversion", "port", "compare", "Request", "answer",
           "Budget", "GpuProduct", "Limits", "Peak", "architecture_limits", "budget",
           "find_product", "peak", "products",
           "PreshufflePlan", "preshuffle", "StorePlan", "store_plan",
           "CkTile", "CuteLayout", "Export", "GluonLayout", "ck_tile_counts", "export"]
