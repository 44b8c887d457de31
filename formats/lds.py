"""Renderers of LDS load plans and searches: text (a short table and a bank
picture per phase) and JSON documents (mode "lds" and "lds_search"); the banks x phases
picture (SVG, or an HTML page holding it) is formats/lds_picture.py's. They read
matrix_library.lds's answers only."""
from __future__ import annotations

from itertools import compress
from operator import attrgetter

from matrix_library.checks import find_instruction
from matrix_library.queries import element_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

    from matrix_library.answers import LoadPlan
    from matrix_library.lds import LdsCandidate, LdsPlan, LdsSearch, LdsSlot
    from matrix_library.records import Element

_COUNTS = ".123456789abcdefghijklmnopqrstuvwxyz"  # distinct dwords on a bank: '.' none


def _lanes(lanes: tuple[int, ...]) -> str:
    """0-3,20-23 for a set of lanes."""
    runs: list[list[int]] = []
    for lane in lanes:
        if runs and lane == runs[-1][1] + 1:
            runs[-1][1] = lane
        else:
            runs.append([lane, lane])
    return ",".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)


def _registers(load: LoadPlan) -> str:
    count = max(1, load.load.bits // 32)
    if load.load.bits < 32:
        return f"v{load.register}.[{load.at + load.load.bits - 1}:{load.at}]"
    return f"v{load.register}" if count == 1 else \
        f"v[{load.register + count - 1}:{load.register}]"


def _way(conflict: int) -> str:
    return "conflict-free" if conflict <= 1 else f"{conflict}-way"


def text(plan: LdsPlan) -> str:
    """The plan as text: what is loaded, the model, a table of the loads and, for each
    load, one line per phase with its lanes, its conflict and a bank picture (one
    character per bank: the distinct dwords the phase reads from it, '.' none)."""
    model = plan.model
    lines = [f"Architecture: {plan.architecture}", f"Instruction: {plan.instruction}",
             f"LDS load plan of {plan.matrix} ({plan.element_bits}-bit elements, wave"
             f"{plan.wave}, {plan.k_steps} K step{'s' * (plan.k_steps > 1)}, K runs of "
             f"{plan.k_run})" + (f"; sparse: a tile element holds what is kept of "
                                 f"{plan.k_per_element} K" if plan.k_per_element > 1 else ""),
             f"Tile: {plan.tile.text}; {plan.lds_bytes} bytes of LDS "
             f"({plan.facts.lds_bytes} available to a workgroup)",
             f"Phase model: {model.key}: {model.title}",
             f"  source: {model.source}", f"  confidence: {model.confidence}", ""]
    header = f"{'load':>4}  {'instruction':<20} {'VGPRs':<10} {'phases':>6}  {'worst':<14} cycles"
    lines.append(header)
    for number, load in enumerate(plan.loads):
        lines.append(f"{number:>4}  {load.instruction:<20} {_registers(load):<10} "
                     f"{len(load.phases):>6}  {_way(load.worst):<14} {load.cycles}")
    lines += ["", f"Worst: {_way(plan.worst)}; LDS cycle estimate: {plan.cycles} "
              "(one cycle per phase and way)"]
    for number, load in enumerate(plan.loads):
        banks = len(load.phases[0].banks) if load.phases else 0
        lines += ["", f"Load {number} ({load.instruction}): banks 0-{banks - 1} per phase "
                  "(distinct dwords per bank: . none, 1-9, a = 10, b = 11, ...)"]
        width = max(len(_lanes(p.lanes)) for p in load.phases)
        for at, phase in enumerate(load.phases):
            counts = list(phase.banks)
            picture = "".join(_COUNTS[min(c, len(_COUNTS) - 1)] for c in counts)
            lines.append(f"  phase {at:<2} lanes {_lanes(phase.lanes):<{width}}  {picture}  "
                         f"{_way(phase.conflict)}")
        first = [lane for lane in load.lanes if lane.address is not None][:4]
        shown = ", ".join(f"lane {lane.lane} @ {lane.address}" for lane in first)
        lines.append(f"  addresses: {shown}, ... ({load.load.bytes} bytes each)")
    lines += _slot_lines(plan)
    if plan.notes:
        lines += ["", "Notes:"] + [f"  {note}" for note in plan.notes]
    return "\n".join(lines) + "\n"


def _slot_lines(plan: LdsPlan, lanes: int = 4) -> list[str]:
    """A table of what the first lanes' register slots receive: element @ byte (every
    lane: --json); a column per slot, named with its K step when there are several."""
    slots = plan.slots
    # (the fields read in bulk: a plan has tens of thousands of slots and few columns)
    of_lane = list(map(attrgetter("lane"), slots))
    shown = sorted(set(of_lane))[:lanes]
    registers = list(map(attrgetter("register"), slots))
    bits = list(map(attrgetter("bits"), slots))
    columns = _columns(slots, registers, bits, plan.k_steps > 1)
    rows = _cells(find_instruction(plan.architecture, plan.instruction), slots, of_lane,
                  set(shown), registers, bits)
    keys = sorted(columns)
    width = max([len(columns[k]) for k in keys]
                + [len(cell) for row in rows.values() for cell in row.values()])
    lines = ["", "Slots (element @ byte) of the first lanes; every lane: --json"]
    lines.append("  lane " + " ".join(f"{columns[k]:<{width}}" for k in keys).rstrip())
    for lane in shown:
        row = rows[lane]
        lines.append(f"  {lane:>4} " + " ".join(f"{row.get(k, '-'):<{width}}"
                                                  for k in keys).rstrip())
    return lines


def _columns(slots: tuple[LdsSlot, ...], registers: list[int], bits: list[tuple[int, int]],
             steps: bool) -> dict[tuple[int, int], str]:
    """The name of each register slot (register, first bit), read off its first slot."""
    # (the first slot of each register and bits, the slots' bits being a few shared
    # tuples, and of these the first of each first bit)
    found = dict(zip(zip(reversed(registers), reversed(bits)), range(len(slots) - 1, -1, -1)))
    first: dict[tuple[int, int], int] = {}
    for (register, (lo, _)), at in found.items():
        if first.get((register, lo), at) >= at:
            first[register, lo] = at
    return {key: f"v{key[0]}.[{bits[at][1]}:{key[1]}]" + (f" s{slots[at].step}" if steps else "")
            for key, at in first.items()}


def _cells(inst: Instruction, slots: tuple[LdsSlot, ...], of_lane: list[int], wanted: set[int],
           registers: list[int], bits: list[tuple[int, int]]
           ) -> dict[int, dict[tuple[int, int], str]]:
    """Each wanted lane's cells, by register slot: element @ byte."""
    rows: dict[int, dict[tuple[int, int], str]] = {lane: {} for lane in wanted}
    names: dict[Element, str] = {}  # (each K step's slots name the same elements)
    for at in compress(range(len(of_lane)), map(wanted.__contains__, of_lane)):
        slot = slots[at]
        name = names.get(slot.element)
        if name is None:
            name = names[slot.element] = element_text(inst, slot.element)
        bit = f"+{slot.bit}b" if slot.bit else ""
        rows[slot.lane][registers[at], bits[at][0]] = f"{name}@{slot.address}{bit}"
    return rows


def document(plan: LdsPlan) -> dict[str, object]:
    """The plan as the --json document (mode "lds")."""
    inst = find_instruction(plan.architecture, plan.instruction)
    tile = plan.tile
    return {
        "architecture": plan.architecture, "instruction": plan.instruction,
        "matrix": plan.matrix, "wave": plan.wave, "element_bits": plan.element_bits,
        "k_steps": plan.k_steps, "k_run": plan.k_run, "k_per_element": plan.k_per_element,
        "tile": {"rows": tile.rows, "cols": tile.cols, "order": tile.order, "pad": tile.pad,
                 "swizzle": list(tile.swizzle) if tile.swizzle else None,
                 "xor": [list(pair) for pair in tile.xor],
                 "base": tile.base, "bytes": plan.lds_bytes},
        "model": {"key": plan.model.key, "title": plan.model.title,
                  "source": plan.model.source, "confidence": plan.model.confidence,
                  "assumed": plan.model.assumed, "banks": plan.facts.banks,
                  "lds_bytes": plan.facts.lds_bytes},
        "loads": [{"instruction": load.instruction, "register": load.register,
                   "bits": load.load.bits,
                   "lanes": [{"lane": lane.lane, "address": lane.address,
                              "bytes": lane.bytes} for lane in load.lanes],
                   "phases": [{"lanes": list(phase.lanes), "conflict": phase.conflict,
                               "banks": list(phase.banks)} for phase in load.phases],
                   "worst": load.worst, "cycles": load.cycles} for load in plan.loads],
        "slots": [{"lane": slot.lane, "register": slot.register, "bits": list(slot.bits),
                   "address": slot.address, "bit": slot.bit,
                   "element": element_text(inst, slot.element), "step": slot.step,
                   "load": slot.load} for slot in plan.slots],
        "worst": plan.worst, "cycles": plan.cycles, "notes": list(plan.notes),
    }


def _setting(candidate: LdsCandidate) -> str:
    if candidate.swizzle:
        return "--lds-swizzle {},{},{}".format(*candidate.swizzle)
    return f"--lds-pad {candidate.pad}"


def _result(candidate: LdsCandidate) -> str:
    if candidate.failure:
        return f"no load works: {candidate.failure}"
    return (f"{_way(candidate.worst)}, {candidate.lds_bytes} bytes, {candidate.instructions} x "
            f"{candidate.load}, {candidate.cycles} cycles")


def search_text(search: LdsSearch, limit: int = 10) -> str:
    lines = [f"Architecture: {search.architecture}", f"Instruction: {search.instruction}",
             f"LDS settings for {search.matrix} (tile {search.tile.rows}x{search.tile.cols}, "
             f"order {search.tile.order}); phase model {search.model.key}: "
             f"{search.model.title}",
             f"  source: {search.model.source}; confidence: {search.model.confidence}",
             f"As given ({_setting(search.given)}): {_result(search.given)}",
             f"Triton's formula picks {_setting(search.triton)}: {_result(search.triton)}",
             f"CK's XOR picks {_setting(search.ck)}: {_result(search.ck)}"]
    if search.tile.order != "k":
        lines.append("  (K is not contiguous: both formulas leave the tile unswizzled; Triton's "
                     "gfx950 swizzle of 8/16-bit tiles for transpose loads is not modelled)")
    lines.append("")
    if not search.found:
        lines.append("No padding or swizzle tried makes every load conflict-free.")
    else:
        lines.append(f"Conflict-free settings ({len(search.found)} found; fewest LDS bytes, "
                     "then instructions, first):")
        for candidate in search.found[:limit]:
            lines.append(f"  {_setting(candidate):<24} {_result(candidate)}")
        fewest = min(search.found, key=lambda c: (c.instructions, c.lds_bytes))
        if fewest.instructions < search.found[0].instructions:
            lines.append(f"Fewest load instructions: {_setting(fewest)}: {_result(fewest)}")
    return "\n".join(lines) + "\n"


def _candidate(candidate: LdsCandidate) -> dict[str, object]:
    return {"pad": candidate.pad,
            "swizzle": list(candidate.swizzle) if candidate.swizzle else None,
            "load": candidate.load or None, "lds_bytes": candidate.lds_bytes,
            "instructions": candidate.instructions, "worst": candidate.worst,
            "cycles": candidate.cycles, "failure": candidate.failure or None}


def search_document(search: LdsSearch) -> dict[str, object]:
    """The search as the --json document (mode "lds_search")."""
    tile = search.tile
    return {"architecture": search.architecture, "instruction": search.instruction,
            "matrix": search.matrix,
            "tile": {"rows": tile.rows, "cols": tile.cols, "order": tile.order,
                     "base": tile.base},
            "model": {"key": search.model.key, "title": search.model.title,
                      "source": search.model.source, "confidence": search.model.confidence,
                      "assumed": search.model.assumed},
            "given": _candidate(search.given), "triton": _candidate(search.triton),
            "ck": _candidate(search.ck), "found": [_candidate(c) for c in search.found]}
