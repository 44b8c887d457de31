"""The engine's facts the renderers of formats/ draw with, as the library's typed names:
the fragment digits of the HIP emitter, the family traits, the formula texts' shapes,
the LDS loads' lane maps and alignment, the modifiers' rules. formats/ reads the engine
and the planners only through this module and the answers; it is loaded by the modes
that draw code, formulas or facts (never by a point query)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from instructions.lds import lds_facts
from layouts import Operand
from layouts import check_modifiers as check_modifiers
from layouts import formula_sections as formula_sections
from layouts import operand as made_operand
from layouts.cdna import ABShape as ABShape
from layouts.cdna import CDShape as CDShape
from layouts.cdna import sparse_lane_k as sparse_lane_k
from layouts.core import BIT as BIT
from layouts.core import BLOCK as BLOCK
from layouts.core import COL as COL
from layouts.core import COPY as COPY
from layouts.core import LANE as LANE
from layouts.core import ROW as ROW
from layouts.core import CalcError
from layouts.family import family_of as family_of
from layouts.family import wmma_builtins as wmma_builtins
from layouts.fragment import Digit as Digit
from layouts.fragment import Fragment as Fragment
from layouts.fragment import bit_of as bit_of
from layouts.fragment import digit_value as digit_value
from layouts.fragment import element as element
from layouts.fragment import fragment as fragment
from layouts.gfx1250 import FORMATS as FORMATS
from layouts.gfx1250 import neg_masks as neg_masks
from layouts.gfx1250_facts import latencies as latencies
from layouts.gfx1250_facts import provenance as provenance
from layouts.legality import rule as rule
from layouts.modifiers import Modifiers
from layouts.rdna import index_bits_per_lane as index_bits_per_lane
from matrix_plans.lds.reads import LANE_MAPS as LANE_MAPS
from matrix_plans.lds.reads import alignment as alignment

if TYPE_CHECKING:
    from collections.abc import Callable

    from instructions.model import Instruction

    LaneMap = Callable[[int, int], tuple[int, int]]


def engine_operand(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                   wave: int = 64) -> Operand:
    """The engine's operand as is (no checks: for renderers that ask about operands they
    know to exist; matrix_library.checks.operand is the checked one)."""
    return made_operand(inst, matrix, mods, wave)


def lane_map(arch: str, load: str) -> LaneMap:
    """The lane map of LDS load `load` of `arch`: (lane, element) -> (the lane whose
    bytes it reads, that lane's element); CalcError where it is not known."""
    facts = lds_facts(arch)
    found = facts.load(load) if facts else None
    if found is None or found.lane_map not in LANE_MAPS:
        raise CalcError(f"{load}'s lane map is not known: no HIP code")
    return LANE_MAPS[found.lane_map]
