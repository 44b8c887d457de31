"""The bounds of the library's work: every call is answered or refused within
seconds and a bounded amount of memory, whatever its input. Work that grows with the
input (an LDS plan's slots, an LDS search's plans) is estimated from the input before it
starts, and refused with the estimate and how to narrow it when it is over its bound.

The bounds follow the hardware where the work is the hardware's (a plan's VGPRs and LDS);
a search's and a preshuffle's are sizes of work, in the units it is counted in; bench/ measures
the time they take (tests/library/test_bounds.py runs the largest allowed within 10 s and 1 GB).
"""
from __future__ import annotations

from instructions.products import limits_of
from layouts.core import CalcError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from layouts import Operand

# An LDS plan lists every register slot of the wave with the element it receives, for
# each of its K steps: the steps' fragments are held in VGPRs at once, so a plan holds at
# most the VGPRs one wave of its architecture addresses (instructions/products.py
# Limits.addressable), and its tile at most the LDS a workgroup may take (the planner's
# tile check). The largest plan is thus 262,144 slots (1,024 VGPRs of 32 lanes of f4 on
# gfx1250; 512 of 64 lanes on CDNA).
# An LDS search plans the fragment once per candidate setting (paddings and swizzles):
# at most SEARCH_PLACEMENTS element placements (settings x slots) in all.
SEARCH_PLACEMENTS = 1 << 21
# A preshuffle lists every slot of every tile of its supertile: at most PRESHUFFLE_SLOTS
# (64 tiles of a 2,048-element fragment; 32 of the largest, 4,096).
PRESHUFFLE_SLOTS = 1 << 17
# A workgroup holds at most 1,024 work-items (LLVM's AMDGPU backend, getMaxFlatWorkGroupSize:
# llvm/llvm-project 007560ecefea9acb75379f871b8c54773ddd1887,
# llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp): the waves that share a copy are at
# most that many work-items over the wave size (16 of wave64, 32 of wave32).
WORKGROUP_ITEMS = 1024


def plan_slots(operand: Operand, steps: int) -> int:
    """The register slots a plan of `steps` K steps of `operand` fills (every element of
    the wave's fragment, one slot each), from its register count: no plan is made."""
    return operand.register_count * 32 * operand.wave * steps // max(1, operand.layout.width)


def check_plan(operand: Operand, steps: int) -> int:
    """The plan's slots; CalcError (argument k_steps) when its K steps' fragments would
    take more VGPRs than one wave of the architecture addresses."""
    arch = operand.inst.architecture.name
    try:
        limit = limits_of(arch).addressable
    except KeyError:
        raise CalcError(f"no register limits are recorded for {arch}", "k_steps") from None
    per_step = operand.register_count
    if per_step * steps > limit:
        raise CalcError(f"{steps} K steps of {operand.matrix} would hold {per_step * steps:,} "
                        f"VGPRs ({per_step:,} a K step), over the {limit:,} one {arch} wave "
                        f"addresses; lower k_steps to at most {max(1, limit // per_step)}",
                        "k_steps")
    return plan_slots(operand, steps)


def check_waves(waves: int, shown_waves: str, wave: int) -> int:
    """`waves`, the waves of one workgroup sharing a copy; CalcError (argument waves) when
    they are not 1 to the workgroup's most waves of `wave` lanes (`shown_waves`: the value
    as given)."""
    most = WORKGROUP_ITEMS // wave
    if not 1 <= waves <= most:
        raise CalcError(f"--waves takes 1 to {most} waves (a workgroup holds at most "
                        f"{WORKGROUP_ITEMS:,} work-items, {most} waves of {wave} lanes), "
                        f"not {shown_waves}", "waves")
    return waves


def check_group(waves: tuple[int, int], wave: int) -> tuple[int, int]:
    """`waves`, a block tile's waves along M and N in one workgroup; CalcError (argument
    waves) when they are more work-items than a workgroup holds."""
    most = WORKGROUP_ITEMS // wave
    count = waves[0] * waves[1]
    if count > most:
        raise CalcError(f"{waves[0]}x{waves[1]} waves per workgroup are {count * wave:,} "
                        f"work-items, over the {WORKGROUP_ITEMS:,} a workgroup holds: use "
                        f"at most {most} waves of {wave} lanes in all (M x N <= {most})",
                        "waves")
    return waves


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
