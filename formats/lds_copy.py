"""Renderers of copy plans: text (the copy instructions of every wave, their
global segments and LDS write phases, every lane's global offset and LDS address, the
tensor data mover's descriptor, then the read plan), the --json document (mode
"lds_copy"), the search (text and mode "lds_copy_search") and a picture of the tile in
LDS coloured by the writing lane (SVG, or an HTML page holding it and the text). They read
matrix_library.copies' answers only."""
from __future__ import annotations

from html import escape

from formats.lds import _COUNTS, _lanes, _way
from formats.lds import document as read_document
from formats.lds import text as read_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.copies import CopyCandidate, LdsCopy, LdsCopySearch

_SHOWN = 4  # instructions of wave 0 whose lanes the text lists (every one: --json)


def _percent(used: int, count: int, size: int) -> str:
    return f"{100 * used / (count * size):.0f}%" if count else "-"


def _route(found: LdsCopy) -> str:
    copy = found.copy
    if copy.route == "register":
        assert copy.write is not None
        return (f"register: {copy.load.name} ({copy.load.bytes} bytes per lane into VGPRs), "
                f"then {copy.write.name}")
    if copy.route == "direct":
        return (f"direct to LDS: {copy.load.name} ... lds ({copy.load.bytes} bytes per lane at "
                f"M0 + lane x {copy.load.lds_stride})")
    if copy.route == "async":
        return f"asynchronous to LDS: {copy.load.name} (a per-lane LDS address)"
    return "tensor data mover: tensor_load_to_lds (a descriptor per wave)"


def text(found: LdsCopy) -> str:
    """The copy as text, then the read plan of the same tile."""
    copy, read = found.copy, found.read
    stored = (f"; the tile stores {found.lds_type} ({copy.element_bits} bits), converted after "
              "the read" if found.lds_type else "")
    model = copy.write_model
    lines = [f"Architecture: {found.architecture}", f"Instruction: {found.instruction}",
             f"Copy of {found.matrix}'s LDS tile from global memory{stored}",
             f"Tile: {read.tile.text}; {read.lds_bytes} bytes of LDS",
             f"Global tile: {copy.global_order}-major, ld {copy.ld} elements; offsets from the "
             "tile's first element",
             f"Route: {_route(found)}",
             f"Waves: {copy.waves} (split {copy.wave_split})",
             f"LDS write model: {model.key}: {model.title}",
             f"  source: {model.source}", f"  confidence: {model.confidence}", ""]
    lines.append(f"{'wave':>4} {'#':>3}  {'instruction':<30} {'m0':>6} {'lanes':>5} "
                 f"{'64B segs':>8} {'128B segs':>9} {'used':>6}  {'phases':>6}  worst")
    for step in copy.steps:
        active = sum(1 for lane in step.lanes if lane.bytes)
        seg = {s.size: s for s in step.segments}
        s64, s128 = seg.get(64), seg.get(128)
        used = _percent(s128.used, s128.touched, 128) if s128 else "-"
        phases = f"{len(step.phases)}" if step.phases else "-"
        worst = _way(step.worst) if step.phases else "-"
        lines.append(f"{step.wave:>4} {step.number:>3}  {step.instruction:<30} "
                     f"{'' if step.m0 is None else step.m0:>6} {active:>5} "
                     f"{s64.touched if s64 else '-':>8} {s128.touched if s128 else '-':>9} "
                     f"{used:>6}  {phases:>6}  {worst}")
    per = ", ".join(f"{n} x {name}" for name, n in copy.per_wave().items())
    c64, c128 = copy.coalescing(64), copy.coalescing(128)
    lines += ["", f"Per wave: {per}",
              f"Coalescing: {c128.used} bytes read; 64-byte segments {c64.touched} "
              f"({_percent(c64.used, c64.touched, 64)} used), 128-byte segments {c128.touched} "
              f"({_percent(c128.used, c128.touched, 128)} used)",
              f"LDS writes: worst {_way(copy.worst_write)}" if any(s.phases for s in copy.steps)
              else "LDS writes: no phase model for this route"]
    lines += _write_pictures(found)
    lines += _lane_lines(found)
    if found.tdm is not None:
        lines += ["", f"tensor_load_to_lds descriptor of wave {found.tdm.wave} (groups 0 and 1; "
                  "add the kernel's pointers to the address fields):",
                  f"  {'field':<20} {'value':>8} {'unit':<9} {'where':<16} {'stored':>8}  legal"]
        for f in found.tdm.fields:
            where = f"g{f.group} d{f.dword} [{f.lo + f.width - 1}:{f.lo}]"
            lines.append(f"  {f.name:<20} {f.value:>8} {f.unit:<9} {where:<16} {f.encoded:>8}  "
                         f"{f.legal}")
        lines.append("  group0 " + " ".join(f"{w:#010x}" for w in found.tdm.group0))
        lines.append("  group1 " + " ".join(f"{w:#010x}" for w in found.tdm.group1))
    if copy.notes:
        lines += ["", "Copy notes:"] + [f"  {note}" for note in copy.notes]
    body = read_text(read).split("\n", 2)[2]  # (the read plan without its first two lines)
    lines += ["", "Read plan of the same tile:", body.rstrip("\n")]
    return "\n".join(lines) + "\n"


def _write_pictures(found: LdsCopy) -> list[str]:
    """The phases of the first instruction that writes LDS with a phase model."""
    step = next((s for s in found.copy.steps if s.phases), None)
    if step is None:
        return []
    banks = len(step.phases[0].banks)
    lines = ["", f"Write phases of wave {step.wave} #{step.number} ({step.instruction}): banks "
             f"0-{banks - 1} (distinct dwords per bank: . none, 1-9, a = 10, ...)"]
    width = max(len(_lanes(p.lanes)) for p in step.phases)
    for at, phase in enumerate(step.phases):
        picture = "".join(_COUNTS[min(c, len(_COUNTS) - 1)] for c in phase.banks)
        lines.append(f"  phase {at:<2} lanes {_lanes(phase.lanes):<{width}}  {picture}  "
                     f"{_way(phase.conflict)}")
    return lines


def _lane_lines(found: LdsCopy) -> list[str]:
    """Every lane's global offset -> LDS address for the first instructions of wave 0."""
    lines = []
    shown = [s for s in found.copy.steps if s.wave == 0 and s.route != "load"][:_SHOWN]
    total = sum(1 for s in found.copy.steps if s.route != "load")
    for step in shown:
        what = "row: global offset -> LDS address" if step.route == "tdm" else \
            "lane: global offset -> LDS address"
        lines += ["", f"Wave {step.wave} #{step.number} ({step.instruction}), {what} "
                  f"({step.lanes[0].bytes if step.lanes else 0} bytes each):"]
        cells = [f"{lane.lane}: {lane.global_at}->{lane.lds_at}" if lane.bytes
                 else f"{lane.lane}: off" for lane in step.lanes]
        for at in range(0, len(cells), 8):
            lines.append("  " + "  ".join(f"{c:<18}" for c in cells[at:at + 8]).rstrip())
    if total > len(shown):
        lines += ["", f"({total - len(shown)} more writing instructions: every lane of every "
                  "one with --json)"]
    return lines


def document(found: LdsCopy) -> dict[str, object]:
    """The copy as the --json document (mode "lds_copy"): the copy and the read plan."""
    copy = found.copy
    c64, c128 = copy.coalescing(64), copy.coalescing(128)
    out: dict[str, object] = {
        "architecture": found.architecture, "instruction": found.instruction,
        "matrix": found.matrix, "lds_type": found.lds_type or None,
        "element_bits": copy.element_bits,
        "copy": {
            "route": copy.route, "load": copy.load.name,
            "write": copy.write.name if copy.write else None,
            "bytes_per_lane": copy.load.bytes, "lds_stride": copy.load.lds_stride or None,
            "global_order": copy.global_order, "ld": copy.ld, "waves": copy.waves,
            "wave_split": copy.wave_split, "per_wave": copy.per_wave(),
            "coalescing": {"bytes": c128.used, "segments_64": c64.touched,
                           "segments_128": c128.touched,
                           "efficiency_64": round(c64.efficiency, 4),
                           "efficiency_128": round(c128.efficiency, 4)},
            "worst_write": copy.worst_write,
            "write_model": {"key": copy.write_model.key, "title": copy.write_model.title,
                            "source": copy.write_model.source,
                            "confidence": copy.write_model.confidence,
                            "assumed": copy.write_model.assumed},
            "steps": [{"wave": s.wave, "number": s.number, "instruction": s.instruction,
                       "route": s.route, "m0": s.m0,
                       "lanes": [{"lane": lane.lane, "global": lane.global_at,
                                  "lds": lane.lds_at, "bytes": lane.bytes}
                                 for lane in s.lanes],
                       "segments": {str(seg.size): seg.touched for seg in s.segments},
                       "phases": [{"lanes": list(p.lanes), "conflict": p.conflict}
                                  for p in s.phases],
                       "worst": s.worst} for s in copy.steps],
            "notes": list(copy.notes),
            "checked": found.checked,
        },
        "read": read_document(found.read),
    }
    if found.tdm is not None:
        out["tdm"] = {"wave": found.tdm.wave,
                      "fields": [{"name": f.name, "value": f.value, "unit": f.unit,
                                  "group": f.group, "dword": f.dword, "lo": f.lo,
                                  "width": f.width, "encoded": f.encoded, "legal": f.legal}
                                 for f in found.tdm.fields],
                      "group0": list(found.tdm.group0), "group1": list(found.tdm.group1)}
    return out


def search_text(search: LdsCopySearch, limit: int = 10) -> str:
    """The ranked settings as text: the given one, Triton's and CK's picks, then the best."""
    def row(c: CopyCandidate) -> str:
        setting = f"pad {c.pad}" + (f", swizzle {c.swizzle}" if c.swizzle else "")
        if c.failure:
            return f"  {setting:<28} refused: {c.failure}"
        return (f"  {setting:<28} read {_way(c.read_worst):<14} write {_way(c.write_worst):<14} "
                f"coalescing {100 * c.coalescing:.0f}%  {c.lds_bytes} bytes  "
                f"{c.instructions} instructions per wave")
    lines = [f"Architecture: {search.architecture}", f"Instruction: {search.instruction}",
             f"LDS settings for {search.matrix} copied with {search.copy}: read conflicts, "
             "write conflicts, coalescing, LDS bytes, instructions (in that order)",
             "As given:", row(search.given), "Triton's formula:", row(search.triton),
             "CK's XOR:", row(search.ck), ""]
    if not search.ranked:
        lines.append("No setting that makes the reads conflict-free can be copied this way.")
    else:
        lines.append(f"Read-conflict-free settings, ranked ({len(search.ranked)}):")
        lines += [row(c) for c in search.ranked[:limit]]
    return "\n".join(lines) + "\n"


def search_document(search: LdsCopySearch) -> dict[str, object]:
    """The search as the --json document (mode "lds_copy_search")."""
    def one(c: CopyCandidate) -> dict[str, object]:
        return {"pad": c.pad, "swizzle": c.swizzle or None, "read_worst": c.read_worst,
                "write_worst": c.write_worst, "coalescing": c.coalescing,
                "lds_bytes": c.lds_bytes, "instructions": c.instructions,
                "failure": c.failure or None}
    return {"architecture": search.architecture, "instruction": search.instruction,
            "matrix": search.matrix, "copy": search.copy, "given": one(search.given),
            "triton": one(search.triton), "ck": one(search.ck),
            "ranked": [one(c) for c in search.ranked]}


_CELL, _LEFT, _TOP = 14, 70, 40


def svg(found: LdsCopy) -> str:
    """The tile in LDS: a row of dword cells per tile row (padding included), each cell
    coloured by the lane that writes it (hue: lane / wave size), numbered with that lane,
    its bank in the tooltip with the instruction; grey: padding nobody writes."""
    copy, tile = found.copy, found.read.tile
    size = copy.element_bits // 8
    stride = (tile.cols + tile.pad) * size
    words = -(-stride // 4)
    banks = found.read.facts.banks
    writer: dict[int, tuple[int, int, int, int]] = {}  # dword -> (wave, number, lane, global)
    for step in copy.steps:
        if step.route == "load":
            continue
        for lane in step.lanes:
            if lane.lds_at is None:
                continue
            for byte in range(lane.lds_at, lane.lds_at + lane.bytes, 4):
                writer[(byte - tile.base) // 4] = (step.wave, step.number, lane.lane,
                                                   lane.global_at or 0)
    wave = found.read.wave
    width, height = _LEFT + words * _CELL + 20, _TOP + tile.rows * _CELL + 20
    title = (f"{found.instruction} {found.matrix}: {tile.text} copied by "
             f"{copy.load.name}{' + ' + copy.write.name if copy.write else ''}; colour: the "
             "writing lane")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="monospace" font-size="8">', f"<title>{escape(title)}</title>",
             f'<text x="4" y="14" font-size="12">{escape(title)}</text>']
    for word in range(0, words, 8):
        parts.append(f'<text x="{_LEFT + word * _CELL + 2}" y="{_TOP - 6}">'
                     f'b{(tile.base // 4 + word) % banks}</text>')
    for row in range(tile.rows):
        y = _TOP + row * _CELL
        parts.append(f'<text x="4" y="{y + 10}" font-size="10">row {row}</text>')
        for word in range(words):
            at = (row * stride) // 4 + word
            x = _LEFT + word * _CELL
            who = writer.get(at)
            bank = (tile.base // 4 + at) % banks
            if who is None:
                parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                             f'fill="#ddd" stroke="#999"><title>dword {at}, bank {bank}: '
                             'not written (padding)</title></rect>')
                continue
            w, number, who_lane, glob = who
            parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                         f'fill="hsl({360 * who_lane // wave},70%,75%)" stroke="#999"><title>'
                         f'dword {at}, bank {bank}: wave {w} instruction {number} lane '
                         f'{who_lane} (global byte {glob})</title></rect>'
                         f'<text x="{x + 1}" y="{y + 10}">{who_lane}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def html(found: LdsCopy) -> str:
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"{escape(found.instruction)} {found.matrix} copy into LDS</title></head><body>\n"
            f"{svg(found)}<pre>{escape(text(found))}</pre>\n</body></html>\n")
