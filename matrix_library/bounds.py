"""The bounds of the library's work (issue 30): every call is answered or refused within
seconds and a bounded amount of memory, whatever its input. Work that grows with the
input (an LDS plan's slots, an LDS search's plans) is estimated from the input before it
starts, and refused with the estimate and how to narrow it when it is over its bound.

The bounds are the sizes below, in the units the work is counted in; bench/ measures
the time they take (tests/library/test_bounds.py runs the largest allowed within 10 s and 1 GB).
"""
from __future__ import annotations

from layouts.core import CalcError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from layouts import Operand

# An LDS plan lists every register slot of the wave with the element it receives: at
# most PLAN_SLOTS (a wave's fragment of the largest instruction is 4,096 elements a K
# step: 8 steps of it; 16x16x16 f16 A is 256: 64 steps, the most k_steps takes).
PLAN_SLOTS = 1 << 15
# An LDS search plans the fragment once per candidate setting (paddings and swizzles):
# at most SEARCH_PLACEMENTS element placements (settings x slots) in all.
SEARCH_PLACEMENTS = 1 << 21
# A preshuffle lists every slot of every tile of its supertile: at most PRESHUFFLE_SLOTS
# (64 tiles of a 2,048-element fragment; 32 of the largest, 4,096).
PRESHUFFLE_SLOTS = 1 << 17


def plan_slots(operand: Operand, steps: int) -> int:
    """The register slots a plan of `steps` K steps of `operand` fills (every element of
    the wave's fragment, one slot each), from its register count: no plan is made."""
    return operand.register_count * 32 * operand.wave * steps // max(1, operand.layout.width)


def check_plan(operand: Operand, steps: int) -> int:
    """The plan's slots; CalcError (argument k_steps) when over PLAN_SLOTS."""
    slots = plan_slots(operand, steps)
    if slots > PLAN_SLOTS:
        per_step = max(1, slots // steps)
        raise CalcError(f"this plan would place {slots:,} elements ({per_step:,} a K step x "
                        f"{steps} steps), over the {PLAN_SLOTS:,} one plan places at most; "
                        f"lower k_steps to at most {max(1, PLAN_SLOTS // per_step)}", "k_steps")
    return slots


def check_search(operand: Operand, steps: int, settings: int, cols: int) -> None:
    """CalcError (argument k_steps) when trying `settings` paddings and swizzles of a plan
    of `steps` K steps would place more than SEARCH_PLACEMENTS elements in all; the
    message says what it would take and how to narrow the search."""
    slots = check_plan(operand, steps)
    work = slots * settings
    if work <= SEARCH_PLACEMENTS:
        return
    per_step = max(1, slots // steps)
    fewer = SEARCH_PLACEMENTS // settings // per_step
    narrower = (f"lower k_steps to at most {fewer}" if fewer >= 1 else
                "plan the settings you want one at a time (without the search)")
    raise CalcError(f"this search would try {settings} paddings and swizzles of a plan "
                    f"placing {slots:,} elements: {work:,} placements, over the "
                    f"{SEARCH_PLACEMENTS:,} a search makes at most; {narrower}, or search a "
                    f"tile of fewer columns than {cols} (fewer swizzles to try)",
                    "k_steps" if fewer >= 1 else "tile")


def check_supertile(operand: Operand, tiles: tuple[int, int]) -> None:
    """CalcError (argument supertile) when a preshuffle of `tiles` (R x C) tiles of
    `operand` would list more than PRESHUFFLE_SLOTS slots."""
    per_tile = plan_slots(operand, 1)
    slots = per_tile * tiles[0] * tiles[1]
    if slots > PRESHUFFLE_SLOTS:
        raise CalcError(f"--supertile {tiles[0]}x{tiles[1]}: this preshuffle would list "
                        f"{slots:,} slots ({per_tile:,} a tile x {tiles[0] * tiles[1]} tiles), "
                        f"over the {PRESHUFFLE_SLOTS:,} one preshuffle lists at most; use a "
                        f"supertile of at most "
                        f"{max(1, PRESHUFFLE_SLOTS // per_tile)} tiles", "supertile")
