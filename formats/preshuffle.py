"""Renderers of preshuffle plans: the text answer and the --json document
(mode "preshuffle"). The numbers come from matrix_api.preshuffle (layouts.preshuffle);
nothing is computed here."""
from __future__ import annotations

from html import escape

from formats.palette import fill, text_on
from formats.svg import Canvas
from matrix_library.api import element_text, find_instruction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.preshuffle import PreshufflePlan, PreshuffleSlot

_NAMES = {"A": ("M", "A"), "B": ("N", "B"), "K": ("M", "index"), "SA": ("M", "A scale"),
          "SB": ("N", "B scale")}


def _lanes(lanes: tuple[int, ...]) -> str:
    if lanes and list(lanes) == list(range(lanes[0], lanes[0] + len(lanes))):
        return f"{lanes[0]}-{lanes[-1]}" if len(lanes) > 1 else str(lanes[0])
    return ", ".join(map(str, lanes))


def stored(plan: PreshufflePlan) -> tuple[str, str]:
    """(outer, inner) names of the stored matrix's indices: M/N and K."""
    mn = _NAMES[plan.matrix][0]
    return (mn, "K") if plan.k_inner else ("K", mn)


def _select(plan: PreshufflePlan, select: int) -> str:
    return f", {plan.selector} {select}" if plan.selector else ""


def text(plan: PreshufflePlan) -> str:
    outer, inner = stored(plan)
    rows_t, cols_t = plan.supertile
    what = _NAMES[plan.matrix][1]
    lines = [f"Architecture: {plan.architecture}", f"Instruction: {plan.instruction}",
             f"Preshuffled operand: {plan.matrix} ({what}), {plan.element_bits}-bit values, "
             f"wave{plan.wave}",
             f"Stored matrix: {outer} x {inner}, {plan.order}-major ({inner} contiguous), "
             f"ld = {plan.ld} values",
             f"Block: {rows_t} x {cols_t} instruction tile(s) ({rows_t} along "
             f"{_NAMES[plan.matrix][0]}, {cols_t} along K) = {plan.block[0]} x {plan.block[1]} "
             f"values, {plan.block_bytes} bytes, one run of the buffer",
             f"Loads: each lane loads {plan.loads * plan.width} bytes: {plan.loads} x "
             f"{plan.load} ({plan.width} bytes, aligned); lanes {_lanes(plan.lanes)}, lane "
             f"rank q at byte q * {plan.width} of load t's {len(plan.lanes) * plan.width} bytes"]
    if plan.mirrors:
        lines.append("Lanes holding copies load the same bytes: " + ", ".join(
            f"{lane} as {src}" for lane, src in plan.mirrors))
    lines.append("Tiles of a block (in the lane's registers):")
    for t, tile in enumerate(plan.tiles):
        lines.append(f"  tile {t}: {_NAMES[plan.matrix][0]} tile {tile.ir}, K tile {tile.ic}: "
                     f"from VGPR {tile.vgpr}{_select(plan, tile.select)}")
    forward, back = plan.formula
    lines += [f"Index formula (r: {outer} index, c: {inner} index; p: the value's index in "
              f"the buffer, byte p * {plan.element_bits} / 8):", f"  {forward}", f"  {back}",
              "NumPy (reshape and transpose, no per-element loop):"]
    lines += _code(plan.numpy)
    lines.append("PyTorch (the same chain: reshape, permute and contiguous, no per-element loop):")
    lines += _code(plan.torch)
    if plan.preset is not None:
        lines.append(_verdict_line(plan))
    lines.append("First lanes (lane: bytes of the block -> values):")
    lines += _lane_lines(plan)
    return "\n".join(lines) + "\n"


def _code(source: str) -> list[str]:
    return ["  " + line if line else "" for line in source.rstrip("\n").split("\n")]


def _verdict_line(plan: PreshufflePlan) -> str:
    v = plan.preset
    assert v is not None
    head = f"Preset {v.key} ({v.title}; {v.source}):"
    if v.agrees:
        return f"{head} agrees with the instruction's layout value for value"
    if v.k_only:
        return (f"{head} differs by a permutation of K only ({v.first}): right only when A "
                "is preshuffled with the same K order")
    return f"{head} DISAGREES with the instruction's layout: {v.first}"


def _runs(slots: list[PreshuffleSlot]) -> str:
    parts = []
    for s in slots:
        e = s.element
        coords = {"i": e.i, "j": e.j, "k": e.k}
        parts.append(",".join(f"{n}{v}" for n, v in coords.items() if v is not None))
    if len(parts) > 4:
        return f"{parts[0]} {parts[1]} ... {parts[-1]} ({len(parts)} values)"
    return " ".join(parts)


def _lane_lines(plan: PreshufflePlan, count: int = 4) -> list[str]:
    by_lane: dict[int, list[PreshuffleSlot]] = {}
    for s in plan.slots:
        by_lane.setdefault(s.lane, []).append(s)
    lines = []
    for lane in list(by_lane)[:count]:
        slots = by_lane[lane]
        for load in range(plan.loads):
            mine = [s for s in slots if s.load == load]
            start = min(s.offset for s in mine) // 8
            lines.append(f"  lane {lane}, load {load}: bytes {start}-{start + plan.width - 1}"
                         f" -> {_runs(mine)}")
    return lines


def document(plan: PreshufflePlan) -> dict[str, object]:
    """The plan as the --json document (mode "preshuffle")."""
    inst = find_instruction(plan.architecture, plan.instruction)
    preset = plan.preset
    return {
        "architecture": plan.architecture, "instruction": plan.instruction,
        "matrix": plan.matrix, "wave": plan.wave, "element_bits": plan.element_bits,
        "stored": {"order": plan.order, "k_contiguous": plan.k_inner, "ld": plan.ld,
                   "outer": stored(plan)[0], "inner": stored(plan)[1]},
        "tile": list(plan.tile), "supertile": list(plan.supertile),
        "block": {"outer": plan.block[0], "inner": plan.block[1], "bytes": plan.block_bytes},
        "load": {"instruction": plan.load, "bytes": plan.width, "count": plan.loads},
        "lanes": list(plan.lanes), "mirrors": [list(m) for m in plan.mirrors],
        "selector": plan.selector or None,
        "tiles": [{"tile": t, "ir": tile.ir, "ic": tile.ic, "select": tile.select,
                   "vgpr": tile.vgpr} for t, tile in enumerate(plan.tiles)],
        "formula": {"offset": plan.formula[0], "element": plan.formula[1]},
        "numpy": plan.numpy, "torch": plan.torch,
        "preset": None if preset is None else {
            "key": preset.key, "source": preset.source, "code": preset.code,
            "agrees": preset.agrees, "k_only": preset.k_only, "first": preset.first,
            "region": list(preset.region)},
        "slots": [{"lane": s.lane, "register": s.register, "bits": list(s.bits),
                   "element": element_text(inst, s.element), "tile": s.tile,
                   "offset": s.offset, "load": s.load} for s in plan.slots],
    }


_CELL, _LEFT, _TOP, _ROW = 12, 90, 34, 64   # px per byte, margins, bytes per row


def svg(plan: PreshufflePlan, standalone: bool = True) -> str:
    """One block of the buffer, byte by byte (64 a row), each byte coloured by the lane
    that loads it; a byte's tooltip names the lane, the load and the values it holds."""
    held: dict[int, list[str]] = {}
    owner: dict[int, tuple[int, int]] = {}
    for s in plan.slots:
        byte = s.offset // 8
        e = s.element
        held.setdefault(byte, []).append(",".join(
            f"{n}{v}" for n, v in (("i", e.i), ("j", e.j), ("k", e.k)) if v is not None))
        owner[byte] = (s.lane, s.load)
    rows = -(-plan.block_bytes // _ROW)
    canvas = Canvas()
    title = (f"{plan.instruction} {plan.matrix}: preshuffled block of {plan.block_bytes} "
             f"bytes, {plan.loads} x {plan.load} per lane")
    canvas.text(4, 12, title, 12, anchor="start")
    lanes = len(plan.lanes)
    for byte in range(plan.block_bytes):
        row, col = divmod(byte, _ROW)
        x, y = _LEFT + col * _CELL, _TOP + row * _CELL
        lane, load = owner.get(byte, (-1, -1))
        colour = fill(plan.lanes.index(lane), lanes) if lane >= 0 else "#ffffff"
        canvas.cell(x, y, _CELL, _CELL, colour, {"lane": lane, "load": load},
                    f"byte {byte}: lane {lane}, load {load}: " + " ".join(held.get(byte, [])))
        if col % 16 == 0 and lane >= 0:
            canvas.text(x + _CELL / 2, y + _CELL / 2, str(lane), 7, text_on(colour))
        if col == 0:
            canvas.text(4, y + _CELL / 2, f"byte {byte}", 9, anchor="start")
    return canvas.document(_LEFT + _ROW * _CELL + 8, _TOP + rows * _CELL + 8, title,
                           ".cell{stroke:#888;stroke-width:0.3}", standalone=standalone)


def html(plan: PreshufflePlan) -> str:
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"{escape(plan.instruction)} {plan.matrix} preshuffle</title></head><body>\n"
            f"<pre>{escape(text(plan))}</pre>\n{svg(plan, standalone=False)}</body></html>\n")
