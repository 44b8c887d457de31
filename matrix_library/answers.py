"""The typed answers of `answer(request)` to the query modes, computed once by the
library and read by every renderer (text, JSON, pictures): the instruction, the matrix,
the checked modifiers and wave size, and what the mode asks for.

A leaf module: it names the library's records and holds no computation, so renderers
and front ends import it without loading the engine.
"""


from __future__ import annotations

from instructions.record import Record
from layouts.core import CalcError as CalcError  # (what every answer may raise instead)

TYPE_CHECKING = False
if TYPE_CHECKING:  # (annotations only: the records and the instruction's model)
    from collections.abc import Sequence

    from instructions.model import Instruction
    from matrix_plans.epilogue import Route as Route  # (a StorePlan's routes and stores)
    from matrix_plans.epilogue import Store as Store
    from matrix_plans.lds.reads import LoadPlan as LoadPlan  # (an LDS plan's loads)

    # Formula texts: a line's text (or its pieces), lines of (label, text), and a
    # matrix's (element -> register lines, register -> element lines)
    Text = str | tuple[str, ...]
    Lines = Sequence[tuple[str, Text]]
    Section = tuple[Lines, Lines]
    from layouts.modifiers import Modifiers as Modifiers

    from matrix_library.bulk import LayoutColumns
    from matrix_library.records import Calculation, Element, Entry, Location

# An element of an operand: (row, col, block)
Elem = tuple[int, int, int]
# One -R table's cells: [row][col] the texts of the locations of that element
Grid = list[list[list[str]]]
# The -M table: (register slot names, [(lane, cells of each slot)])
SlotGrid = tuple[list[str], list[tuple[int, list[list[str]]]]]


class Point(Record):
    """-g: `element` of `matrix` and every location the hardware reads it from;
    `calculation`: how D[i][j] is computed (-o), else None."""
    inst: Instruction
    matrix: str
    mods: Modifiers
    wave: int
    register_count: int
    element: Element
    locations: tuple[Location, ...]
    calculation: Calculation | None


class Held(Record):
    """-m: the elements VGPR `register` holds in `lane` (`entries`, lowest bits first);
    `calculations`: how each D value there is computed (-o), else empty. `remapped`:
    CBSZ/ABID or BLGP move the operand's values between lanes; `base_bit`: the first bit
    of the operand's slice of its registers; `used`: when `entries` is empty, the lanes
    where `register` holds a value."""
    inst: Instruction
    matrix: str
    mods: Modifiers
    wave: int
    register_count: int
    register: int
    lane: int
    entries: tuple[Entry, ...]
    calculations: tuple[Calculation, ...]
    remapped: bool
    base_bit: int
    used: tuple[int, ...]


class Layout(Record):
    """-R or -M (`query`: "rlayout" or "mlayout"): the whole operand, in the form its
    output reads: `grids`, each block's register grid (-R text); `slots`, the slot grid
    (-M text); `columns`, the layout in bulk (JSON, the long forms, pictures); each None
    where not asked for. `resolved`: the instruction with the A/B formats its format
    modifiers select (its types, blocks and register counts), which pictures draw."""
    inst: Instruction
    matrix: str
    mods: Modifiers
    wave: int
    register_count: int
    query: str
    blocks: int
    grids: tuple[Grid, ...] | None
    slots: SlotGrid | None
    columns: LayoutColumns | None
    resolved: Instruction


QueryAnswer = Point | Held | Layout
