"""LDS load plans: how a wave loads one operand fragment from a tile stored in LDS.

Input: an Operand (its layout says which element every register slot of every lane
holds), a tile description (how the operand's elements are stored: shape, order,
padding, swizzle, base address), a load instruction and an architecture's phase model
(instructions/lds.py). Output: every lane's byte address for every load, the lanes the
LDS serves together (phases), the banks each phase touches and its worst conflict, and
the element each register slot receives.

The slots are read from the layout engine (Layout.block_places): a load of W bits
fills bits [jW, (j+1)W) of a lane's registers, so a plain load is possible when the
elements of those bits are contiguous in LDS; a transpose load when its lane map
(LANE_MAPS) sends each destination element to a source lane whose W bits are
contiguous. Addresses follow from the elements, nothing is searched.

K steps: `k_steps` consecutive issues of the instruction are loaded together, the
registers of step s following those of step s-1. Each lane's K values come in runs of
`kw` consecutive K (4 for CDNA's 16x16x16 f16 A); the tile's K column of step s, k is
(k // kw) * kw * steps + s * kw + k % kw, so the runs of the steps sit side by side and
one wide load can fill several steps (kw*steps K values per lane), as kernels store them.
With one step the column is k.

The parts: matrix_plans.lds.tile (the tile, its checks and swizzles, the plan's
records), matrix_plans.lds.fragment (the operand's slots and the transpose lane maps),
and here the loads, their phases and the plan.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import repeat
from operator import and_, rshift

from instructions.lds import LdsFacts, Load, PhaseModel, PhaseRow
from layouts import Operand
from layouts.core import CalcError

from matrix_plans.lds.fragment import LANE_MAPS, Fragment
from matrix_plans.lds.tile import (
    LaneRead,
    LoadPlan,
    Phase,
    Plan,
    SlotPlan,
    Tile,
    check_tile,
    ck_swizzle,
    triton_swizzle,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # (annotations only: a plan loads no typing)
    from typing import TypeVar

    _R = TypeVar("_R", bound=tuple[object, ...])


__all__ = ["LANE_MAPS", "Fragment", "LaneRead", "LoadPlan", "Phase", "Plan", "SlotPlan", "Tile",
           "alignment", "candidates", "check_tile", "ck_swizzle", "named_slots", "plan",
           "read_phases",
           "triton_swizzle"]


# ---- one load -------------------------------------------------------------------

def alignment(load: Load) -> int:
    """Natural alignment in bytes ([INF]: the CDNA4 ISA states it for transpose loads;
    no unaligned DS access mode is assumed); a b96 load is aligned as a b128."""
    size = 1
    while size < load.bytes:
        size *= 2
    return size


def _transpose_refused(frag: Fragment, load: Load, mapped: bool) -> str:
    """Why a transpose load cannot read the fragment ('' when it can); `mapped`: its
    lane map is known."""
    if load.transpose != frag.bits:
        return (f"it transposes {load.transpose}-bit elements; the operand's are "
                f"{frag.bits}-bit")
    if not mapped:
        return "its lane map is not known (no source states it)"
    return ""


def _sources(frag: Fragment, load: Load, j: int) -> list[int | None] | str:
    """The bit address every lane reads for load j (None: nothing to read), or why the
    load cannot deliver these slots."""
    width, wave = load.bits, frag.operand.wave
    lo, hi = j * width, (j + 1) * width
    found: list[int | None] = [None] * wave
    lane_map = LANE_MAPS.get(load.lane_map)
    if load.transpose:
        refused = _transpose_refused(frag, load, lane_map is not None)
        if refused:
            return refused
    if lane_map is None:  # each lane's slots must be one run of bits in LDS
        indices, offsets, spans = frag.chunk(lo, hi)
        flat = frag.flat_addresses()
        starts = [flat[i] - offset for i, offset in zip(indices, offsets)]
        for lane, first, end in spans:
            start = starts[first]
            if end - first > 1 and starts[first:end].count(start) != end - first:
                return _two_addresses(lane, lo, hi)
            found[lane] = start
        return found
    return _mapped(frag, lane_map, lo, hi, found)


def _mapped(frag: Fragment, lane_map: Callable[[int, int], tuple[int, int]], lo: int, hi: int,
            found: list[int | None]) -> list[int | None] | str:
    """_sources of a transpose load: each slot's element comes from the lane and element
    its lane map names."""
    addresses, slots, bits = frag.addresses(), frag.slots, frag.bits
    for lane, indices_of in enumerate(frag.within(lo, hi)):  # (the slots of bits lo..hi-1)
        held, at = slots[lane], addresses[lane]
        for index in indices_of:
            bit, address = held[index][0], at[index]
            if bit < lo or bit + bits > hi:
                return f"an element of lane {lane} straddles two loads"
            reader, elem = lane_map(lane, (bit - lo) // bits)
            start = address - elem * bits
            if found[reader] is None:
                found[reader] = start
            elif found[reader] != start:
                return _two_addresses(reader, lo, hi)
    return found


def _two_addresses(lane: int, lo: int, hi: int) -> str:
    return (f"lane {lane} would need two addresses (the elements of its bits {lo}-{hi - 1} "
            "are not contiguous in LDS)")


def _legality(frag: Fragment, load: Load, found: list[int | None]) -> str:
    """Why the load is illegal ('' when legal)."""
    wave = frag.operand.wave
    if load.waves and wave not in load.waves:
        return f"it runs in wave{'/'.join(map(str, load.waves))} only, not wave{wave}"
    align = alignment(load)
    for lane, start in enumerate(found):
        if start is None:
            if load.transpose:
                return (f"lane {lane} has nothing to read, but a transpose load needs EXEC "
                        f"all ones")
            continue
        if start % 8 or start // 8 % align:
            where = f"{start // 8}" + (f" (+{start % 8} bits)" if start % 8 else "")
            return f"lane {lane} would read at byte {where}, not a multiple of {align}"
    return ""


def read_phases(found: list[int | None], load: Load, row: PhaseRow, wave: int
                ) -> tuple[Phase, ...]:
    """The phases of one load of `row`: for each lane group, the distinct dwords the
    lanes read from their start bits `found` (None: the lane reads nothing) counted per
    bank, and the worst count (the conflict)."""
    phases = []
    banks, span = row.banks, load.bits - 1
    new = tuple.__new__  # (records built directly: a search makes many)
    for group in row.groups:
        lanes = tuple([lane for lane in group if lane < wave])
        if not lanes:
            continue
        touched: set[int] = set()  # the distinct dwords the phase reads
        for lane in lanes:
            start = found[lane]
            if start is not None:
                touched.update(range(start // 32, (start + span) // 32 + 1))
        counts = [0] * banks
        for dword in touched:
            counts[dword % banks] += 1
        phases.append(new(Phase, (lanes, max(counts), tuple(counts))))
    return tuple(phases)


def _variant(facts: LdsFacts, load: Load, j: int) -> Load | None:
    """The load of chunk j: a narrow (d16) load is the one writing the chunk's bits of
    its VGPR (None: there is none)."""
    if load.bits >= 32:
        return load
    at = j * load.bits % 32
    return next((other for other in facts.loads
                 if other.bits == load.bits and other.at == at), None)


def _try(frag: Fragment, facts: LdsFacts, model: PhaseModel, load: Load
         ) -> tuple[LoadPlan, ...] | str:
    """Every load of the plan with `load`, or why it cannot be used. Chunks of bits no
    lane holds anything in are not loaded."""
    total = frag.registers * 32 * frag.steps
    if total % load.bits:
        return f"the fragment's {total} bits do not split into loads of {load.bits} bits"
    chunks = frag.chunks(load.bits)
    if load.bits >= 64 and facts.even_vgpr_tuples and not load.odd_vgpr:
        for j in chunks:
            register = j * load.bits // 32
            if register % 2:
                return (f"load {j} would write from v{register} (odd): loads of 64 bits or "
                        f"more need an even first VGPR on {facts.arch}")
    plans = []
    for j in chunks:
        lo = j * load.bits
        used = _variant(facts, load, j)
        if used is None:
            return f"no {load.bits}-bit load writes bits {lo % 32}-{lo % 32 + load.bits - 1}"
        found = _sources(frag, used, j)
        if isinstance(found, str):
            return found
        illegal = _legality(frag, used, found)
        if illegal:
            return illegal
        row = model.row(used.phase_bits)
        size, new = used.bytes, tuple.__new__  # (records built directly)
        lanes = tuple([new(LaneRead, (lane, None, 0) if a is None else (lane, a // 8, size))
                       for lane, a in enumerate(found)])
        plans.append(LoadPlan(used.name, used, lo // 32, lanes,
                              read_phases(found, used, row, frag.operand.wave), lo % 32))
    return tuple(plans)


def candidates(facts: LdsFacts) -> list[Load]:
    """The loads a default plan tries, widest first (a transpose load before a plain one
    of the same width; a d16 pair by its low half)."""
    usable = [load for load in facts.loads if not load.at]
    return sorted(usable, key=lambda load: (-load.bits, not load.transpose))


def plan(operand: Operand, tile: Tile, facts: LdsFacts, model: PhaseModel,
         load: Load | None = None, k_steps: int = 1, frag: Fragment | None = None,
         with_slots: bool = True) -> Plan:
    """The plan of loading `operand` (k_steps steps) from `tile` with `load` (None: the
    widest load that delivers the fragment legally). `frag`: the fragment of an earlier
    plan of the same operand, steps and tile order, and `with_slots` False (no slots
    listed): for a search, which tries many tiles."""
    if frag is None or frag.tile.order != tile.order or frag.steps != k_steps:
        frag = Fragment(operand, tile, k_steps)
    frag.tile = tile
    needed = (frag.mn, frag.k * k_steps) if tile.order == "k" else (frag.k * k_steps, frag.mn)
    check_tile(tile, *needed, frag.bits, facts)
    if load is not None:
        loads = _try(frag, facts, model, load)
        if isinstance(loads, str):
            raise CalcError(f"{load.name} cannot load the {operand.matrix} fragment of "
                            f"{operand.inst.mnemonic} from this tile ({tile.text}): {loads}")
    else:
        reasons = []
        for candidate in candidates(facts):
            loads = _try(frag, facts, model, candidate)
            if not isinstance(loads, str):
                break
            reasons.append(f"{candidate.name}: {loads}")
        else:
            raise CalcError(f"no LDS load of {facts.arch} delivers the {operand.matrix} "
                            f"fragment of {operand.inst.mnemonic} from this tile "
                            f"({tile.text}): " + "; ".join(_telling(reasons)))
    return Plan(tile, model, facts, operand.wave, frag.bits, k_steps, frag.k_run, loads,
                _slots(frag, loads) if with_slots else (), _notes(loads, model, facts),
                frag.share)


def _telling(reasons: list[str]) -> list[str]:
    """The reasons worth reading: those other than a width that does not divide."""
    telling = [r for r in reasons if "do not split" not in r]
    return (telling or reasons)[:3]


def _numbering(frag: Fragment, loads: tuple[LoadPlan, ...]
               ) -> tuple[int, dict[int, int], list[tuple[int, int]]]:
    """(the load width, {first bit of a load: its number}, the bits (lo, hi) of a slot
    beginning at each bit of a register: one tuple each) of the slot records."""
    width = loads[0].load.bits if loads else 32
    last = frag.bits - 1
    return (width, {p.register * 32 + p.at: n for n, p in enumerate(loads)},
            [(lo, lo + last) for lo in range(32)])


def _slots(frag: Fragment, loads: Iterable[LoadPlan]) -> tuple[SlotPlan, ...]:
    width, number_of, spans = _numbering(frag, tuple(loads))
    new = tuple.__new__  # (records built directly: a plan has many)
    return tuple([new(SlotPlan, (lane, bit >> 5, spans[bit & 31], elem, step, address >> 3,
                                 address & 7, number_of[bit // width * width], where))
                  for lane, (held, addresses) in enumerate(zip(frag.slots, frag.addresses()))
                  for (bit, elem, step, where), address in zip(held, addresses)])


def named_slots(frag: Fragment, loads: tuple[LoadPlan, ...], record: type[_R],
                names: Mapping[tuple[int, int, int], object]) -> tuple[_R, ...]:
    """The slots as records of another layer (the library's), without a SlotPlan each
    (from the fragment's columns): `record` of (lane, register, bits, address, bit, the
    element's name in `names`, step, load, tile_at)."""
    width, number_of, spans = _numbering(frag, loads)
    new, steps = tuple.__new__, frag.steps
    slots: list[_R] = []
    # (the fields read off a slot's bit, made once for the lanes that hold the same bits,
    # and the records made in bulk from columns: a plan has tens of thousands)
    made: tuple[list[int], list[int], list[tuple[int, int]], list[int]] | None = None
    for lane, (bits, elements, numbers, wheres, addresses) in enumerate(frag.columns()):
        if made is None or (made[0] is not bits and made[0] != bits):
            made = (bits, [bit >> 5 for bit in bits], [spans[bit & 31] for bit in bits],
                    [number_of[bit // width * width] for bit in bits])
        _, registers, spanned, loaded = made
        count = len(bits)
        slots += map(new, repeat(record, count), zip(
            repeat(lane, count), registers, spanned, map(rshift, addresses, repeat(3, count)),
            map(and_, addresses, repeat(7, count)), list(map(names.__getitem__, elements)) * steps,
            numbers, loaded, wheres))
    return tuple(slots)


def _notes(loads: tuple[LoadPlan, ...], model: PhaseModel, facts: LdsFacts) -> tuple[str, ...]:
    notes = []
    if any(p.load.transpose for p in loads):
        notes.append("transpose loads need EXEC all ones and addresses aligned to the data "
                     "size (CDNA4 ISA 11.4)")
    if facts.even_vgpr_tuples and any(p.load.bits >= 64 for p in loads):
        notes.append("the operand's first VGPR must be even (DS loads of 64 bits or more)")
    if any(lane.address is None for p in loads for lane in p.lanes):
        notes.append("lanes with nothing to read may be masked off (EXEC)")
    notes += _pairs(loads)
    if model.assumed:
        notes.append(f"phase model assumed: {model.confidence}")
    return tuple(notes)


def _pairs(loads: tuple[LoadPlan, ...]) -> list[str]:
    """Consecutive b32/b64 loads every lane issues a fixed distance apart (a multiple of
    the size, at most 255 of them): what LLVM merges into one ds_read2_b32/b64
    (ds_load_2addr_* on gfx11+), two addresses per lane in one instruction."""
    notes = []
    for first, second in zip(loads, loads[1:]):
        if first.load != second.load or first.load.bits not in (32, 64) or first.at:
            continue
        gaps = {b.address - a.address for a, b in zip(first.lanes, second.lanes)
                if a.address is not None and b.address is not None}
        size = first.load.bytes
        if len(gaps) == 1 and (gap := gaps.pop()) % size == 0 and 0 < gap // size <= 255:
            merged = first.instruction.replace("ds_read_b", "ds_read2_b").replace(
                "ds_load_b", "ds_load_2addr_b")
            notes.append(f"{first.instruction} to v{first.register} and to v{second.register} "
                         f"are {gap} bytes apart in every lane: a compiler may issue them "
                         f"as one {merged}")
    return notes
