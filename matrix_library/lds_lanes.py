"""The lane maps and alignment of LDS loads, for the renderers of HIP code: a transpose
load's lane map as a function of the library, the planners' table of them and a load's
natural alignment."""
from __future__ import annotations

from instructions.lds import lds_facts
from layouts.core import CalcError
from matrix_plans.lds.reads import LANE_MAPS as LANE_MAPS
from matrix_plans.lds.reads import alignment as alignment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    LaneMap = Callable[[int, int], tuple[int, int]]


def lane_map(arch: str, load: str) -> LaneMap:
    """The lane map of LDS load `load` of `arch`: (lane, element) -> (the lane whose
    bytes it reads, that lane's element); CalcError where it is not known."""
    facts = lds_facts(arch)
    found = facts.load(load) if facts else None
    if found is None or found.lane_map not in LANE_MAPS:
        raise CalcError(f"{load}'s lane map is not known: no HIP code")
    return LANE_MAPS[found.lane_map]
