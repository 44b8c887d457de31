"""Layout pictures: SVG and HTML drawings of where every element of an operand lives.

Two views, drawn from the library's answers alone (matrix_api.layout and .slots; no
layout knowledge here):

* "register" (-R): the matrix as a grid, rows x columns, one panel per block (blocks
  that read identical registers, as CBSZ broadcasts make them, share a panel). A cell
  is filled by the colour of the lane holding it (or its register, block, row or k)
  and labelled with the register and lane as far as it fits. An element read from
  several lanes (RDNA3's replicated A and B) is split into one stripe per copy.
* "matrix" (-M): lanes x registers, each register divided by bit position, so values
  that share a VGPR are sub-columns and values spanning two VGPRs (fp6 straddlers,
  64-bit pairs) cross the register border. A cell is labelled with its element and
  coloured by its matrix row (or k, lane, register, block).

Marks: negated values are hatched, absolute values get bars on both sides, values in
two VGPRs a black corner notch, and a slot that several elements are read from (CBSZ
broadcast, a sparse index shared by k values) a white dot. The HTML page embeds the SVG
and a small script: pointing at a cell shows its element, register, lane and bits and
highlights every copy of the element.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import matrix_api as mc

from . import COLOR_KEYS, palette
from .html_page import page
from .svg import Canvas, fit_font, text_width

FORMATS = ("svg", "html")
VIEWS = ("register", "matrix")
DEFAULT_COLOR = {"register": "lane", "matrix": "row"}
MAX_WIDTH = 2400.0  # pixels the cells of one picture may take across before shrinking
FONT = 11.0  # label size when there is room
SMALL = 9.0  # index and legend size
MARGIN = 16.0
GAP = 24.0  # between panels
MARK_ROOM = 12.0  # extra cell width where marks (notch, dot) share a cell with its label


@dataclass
class Shape:
    """One drawn cell: a location and the elements read from it."""
    x: float
    y: float
    w: float
    h: float
    location: mc.Location
    elements: tuple[mc.Element, ...]
    labels: list[list[str]]  # label variants, richest first
    shared: bool = False  # the slot feeds other elements too


@dataclass
class Picture:
    """Everything drawn, before it becomes text."""
    canvas: Canvas = field(default_factory=Canvas)
    shapes: list[Shape] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0
    frames: list[tuple[float, float, float, float]] = field(default_factory=list)
    grouped: bool = False  # a panel shows several blocks reading the same registers
    empty: bool = False  # the matrix view has lanes or bits that hold nothing
    label_note: str = ""  # how the labels read, from an example


# ---- names

def _registers(loc: mc.Location) -> str:
    first, last = loc.registers[0], loc.registers[-1]
    return f"v{first}" if first == last else f"v[{last}:{first}]"


def _marked(text: str, loc: mc.Location) -> str:
    if loc.absolute:
        text = f"|{text}|"
    return "-" + text if loc.negated else text


def _bits(loc: mc.Location) -> str:
    return f"{loc.bits[1]}:{loc.bits[0]}"


def _modifier_text(mods: mc.Modifiers) -> str:
    shown = [f"{name.upper()}={value}" for name, value in mods._asdict().items() if value]
    return ", ".join(shown) if shown else "none"


def _axis_names(matrix: str) -> tuple[str, str]:
    """The coordinate names (i, j, k; kb for block scales) of the matrix's rows and
    columns, read from the library's element naming."""
    probe = mc.element_of(matrix, i=1, j=2, k=3)
    names = ["i", "j", "kb" if matrix in ("SA", "SB") else "k"]
    return names[probe.row - 1], names[probe.col - 1]


# ---- colours

@dataclass
class Colouring:
    key: str
    count: int
    value: Callable[[mc.Element, mc.Location], int]

    def fill(self, element: mc.Element, loc: mc.Location) -> str:
        return palette.fill(self.value(element, loc) % self.count, self.count)


def _colouring(key: str, entries: list[mc.Entry], matrix: str, lanes: int,
               registers: int) -> Colouring:
    if key == "lane":
        return Colouring(key, lanes, lambda e, loc: loc.lane)
    if key == "register":
        return Colouring(key, registers, lambda e, loc: loc.register)
    if key == "block":
        return Colouring(key, 1 + max(e.element.block for e in entries),
                         lambda e, loc: e.block)
    if key == "row":
        return Colouring(key, 1 + max(e.element.row for e in entries), lambda e, loc: e.row)
    if any(e.element.k is None for e in entries):
        raise mc.CalcError(f"--color-by k needs a matrix indexed by k; {matrix} is not: "
                           "colour it by lane, register, block or row")
    return Colouring(key, 1 + max(e.element.k or 0 for e in entries),
                     lambda e, loc: e.k or 0)


# ---- the register view (-R)

@dataclass
class Panel:
    blocks: list[int]
    cells: dict[tuple[int, int], list[mc.Entry]]  # (row, col) -> entries, copies in order


def _panels(entries: list[mc.Entry], transpose: bool) -> list[Panel]:
    """One panel per block; consecutive blocks whose cells read the same locations
    share one (a CBSZ broadcast)."""
    by_block: dict[int, dict[tuple[int, int], list[mc.Entry]]] = {}
    for entry in entries:
        e = entry.element
        cell = (e.col, e.row) if transpose else (e.row, e.col)
        by_block.setdefault(e.block, {}).setdefault(cell, []).append(entry)
    panels: list[Panel] = []
    for block in sorted(by_block):
        cells = by_block[block]
        if panels and _same_locations(panels[-1].cells, cells):
            panels[-1].blocks.append(block)
            for key, found in cells.items():
                panels[-1].cells[key].extend(found)
        else:
            panels.append(Panel([block], {key: list(found) for key, found in cells.items()}))
    return panels


def _same_locations(first: dict[tuple[int, int], list[mc.Entry]],
                    second: dict[tuple[int, int], list[mc.Entry]]) -> bool:
    if first.keys() != second.keys():
        return False
    return all({e.location for e in first[key]} == {e.location for e in second[key]}
               for key in second)


def _copies(found: list[mc.Entry]) -> list[tuple[mc.Location, tuple[mc.Element, ...]]]:
    """The distinct locations of one panel cell, each with the elements read there."""
    out: dict[mc.Location, list[mc.Element]] = {}
    for entry in found:
        out.setdefault(entry.location, []).append(entry.element)
    return [(loc, tuple(elems)) for loc, elems in out.items()]


@lru_cache(maxsize=8192)
def _register_labels(loc: mc.Location) -> list[list[str]]:
    """Label variants of a register-view cell, richest first."""
    reg, lane = _registers(loc), f"{{{loc.lane}}}"
    whole = loc.text.endswith("}")  # no bit range: the whole register (or pair)
    variants = [[_marked(loc.text, loc)]]
    if not whole:
        variants.append([_marked(reg + lane, loc), loc.text[loc.text.index("}") + 2:]])
    return variants + [[_marked(reg + lane, loc)], [_marked(reg, loc), lane],
                       [_marked(reg, loc)]]


def _step(count: int, room: float, size: float) -> int:
    """Label every n-th index so that the labels of `count` slots of `room` pixels
    never touch."""
    widest = text_width(str(max(count - 1, 0)), size) + 3
    step = 1
    while step * room < widest and step < count:
        step *= 2
    return step


def _register_view(pic: Picture, inst: mc.Instruction, matrix: str, entries: list[mc.Entry],
                   colouring: Colouring, transpose: bool, top: float) -> None:
    panels = _panels(entries, transpose)
    rows = 1 + max(r for p in panels for r, _ in p.cells)
    cols = 1 + max(c for p in panels for _, c in p.cells)
    copies = max(len(_copies(found)) for p in panels for found in p.cells.values())
    shared = Counter(e.location for e in entries)
    preferred = [_register_labels(e.location)[1] for e in entries]
    lines = max(len(label) for label in preferred)
    marked = any(len(e.location.registers) > 1 or shared[e.location] > 1 for e in entries)
    widest = max(text_width(line, FONT) for label in preferred for line in label) + 6
    widest += MARK_ROOM * marked
    # at least room for register and lane on two lines at a readable size
    least = max(text_width(line, READABLE) for e in entries
                for line in _register_labels(e.location)[-2]) + 5
    cell_w = max(least, min(widest, MAX_WIDTH / cols))
    copy_h = max(lines, 2 if cell_w < widest else 1) * FONT * 1.2 + 6
    cell_h = copy_h * copies
    first, second = _axis_names(matrix)
    if transpose:
        first, second = second, first
    head_w = text_width(str(rows - 1), SMALL) + 10
    title_h = 18.0 if len(panels) > 1 else 0.0
    panel_w = head_w + cols * cell_w
    panel_h = title_h + 16 + rows * cell_h
    pic.grouped = any(len(panel.blocks) > 1 for panel in panels)
    per_row = max(1, min(len(panels), int((MAX_WIDTH + GAP) // (panel_w + GAP))))
    canvas = pic.canvas
    for number_, panel in enumerate(panels):
        px = MARGIN + (number_ % per_row) * (panel_w + GAP)
        py = top + (number_ // per_row) * (panel_h + GAP)
        if title_h:
            blocks = panel.blocks
            name = (f"Block {blocks[0]}" if len(blocks) == 1 else
                    "Blocks " + ", ".join(map(str, blocks)))
            canvas.text(px, py + 8, name, SMALL + 2, palette.INK, "start",
                        {"font-weight": "bold"})
        gx, gy = px + head_w, py + title_h + 16
        canvas.text(px + head_w / 2, gy - 8, f"{first}\\{second}", SMALL, palette.INK)
        step = _step(cols, cell_w, SMALL)
        for col in range(0, cols, step):
            canvas.text(gx + (col + 0.5) * cell_w, gy - 8, str(col), SMALL, palette.INK)
        step = _step(rows, cell_h * 2.5, SMALL)
        for row in range(0, rows, step):
            canvas.text(gx - 4, gy + (row + 0.5) * cell_h, str(row), SMALL, palette.INK, "end")
        for (row, col), found in sorted(panel.cells.items()):
            held = _copies(found)
            height = cell_h / len(held)
            for at, (loc, elems) in enumerate(held):
                pic.shapes.append(Shape(gx + col * cell_w, gy + row * cell_h + at * height,
                                        cell_w, height, loc, elems, _register_labels(loc),
                                        shared[loc] > len(elems)))
            if len(held) > 1:
                pic.frames.append((gx + col * cell_w, gy + row * cell_h, cell_w, cell_h))
        canvas.rect(gx, gy, cols * cell_w, rows * cell_h, "none",
                    {"stroke": palette.INK, "stroke-width": 1.2})
    count = len(panels)
    lines = -(-count // per_row)
    pic.width = max(pic.width, 2 * MARGIN + min(count, per_row) * (panel_w + GAP) - GAP)
    pic.height = top + lines * (panel_h + GAP) - GAP


# ---- the matrix view (-M)

def _element_labels(inst: mc.Instruction, elems: tuple[mc.Element, ...]) -> list[list[str]]:
    """Label variants of a matrix-view cell, richest first: A[5][6] (or A[5] over [6]
    in a narrow, tall cell), [5][6]; "+n" counts the other elements of the slot."""
    name = mc.element_text(inst, elems[0])
    short = name[len(elems[0].matrix):]
    split = name.index("]") + 1
    if len(elems) == 1:
        return [[name], [name[:split], name[split:]], [short]]
    more = f"+{len(elems) - 1}"
    return [[f"{name} {more}"], [name, more], [name[:split], name[split:] + more],
            [f"{short}{more}"], [more]]


def _matrix_view(pic: Picture, inst: mc.Instruction, slots: list[mc.Slot], lanes: int,
                 registers: int, transpose: bool, top: float) -> None:
    bits = max([registers * 32] + [s.location.register * 32 + s.location.bits[1] + 1
                                   for s in slots])
    labels = [_element_labels(inst, s.elements) for s in slots]
    span = [s.location.bits[1] - s.location.bits[0] + 1 for s in slots]
    pic.empty = sum(span) < lanes * bits
    need = [text_width(lab[0][0], FONT) + 6
            + MARK_ROOM * (len(s.location.registers) > 1 or len(s.elements) > 1)
            for s, lab in zip(slots, labels)]
    line_h = FONT * 1.2 + 5
    if transpose:  # registers down, lanes across
        along = max(14.0, min(max(need), MAX_WIDTH / lanes))
        rows = 1 if along >= max(need) else 2  # too narrow: labels on two lines
        per_bit = max((rows * FONT * 1.2 + 5) / min(span), 22 / 32)
    else:
        along = line_h
        per_bit = max(26 / 32, min(max(n / w for n, w in zip(need, span)), MAX_WIDTH / bits))
    head_along = text_width(str(lanes - 1), SMALL) + 10 if not transpose else 18.0
    head_bits = 30.0 if not transpose else (text_width(f"v{registers - 1}", SMALL + 1)
                                            + text_width("[63:32]", SMALL - 1) + 16)
    gx, gy = MARGIN + head_bits * transpose + head_along * (not transpose), top + 28.0
    if transpose:
        gy = top + 18.0

    def box(lane: int, lo: int, hi: int) -> tuple[float, float, float, float]:
        a, b = lane * along, lo * per_bit
        if transpose:
            return gx + a, gy + b, along, (hi - lo) * per_bit
        return gx + b, gy + a, (hi - lo) * per_bit, along

    canvas = pic.canvas
    full_w, full_h = (lanes * along, bits * per_bit) if transpose else (bits * per_bit,
                                                                       lanes * along)
    canvas.rect(gx, gy, full_w, full_h, palette.EMPTY)
    step = _step(lanes, along if transpose else along * 2.5, SMALL)
    axis = {"font-weight": "bold"}
    if transpose:  # the axis names: lanes along one side, VGPRs along the other
        canvas.text(gx - 4, gy - 8, "lane", SMALL, palette.INK, "end", axis)
    else:
        canvas.text(gx - 4, gy - 20, "lane", SMALL, palette.INK, "end", axis)
    for lane in range(0, lanes, step):
        x, y, w, h = box(lane, 0, 0)
        if transpose:
            canvas.text(x + along / 2, gy - 8, str(lane), SMALL, palette.INK)
        else:
            canvas.text(gx - 4, y + along / 2, str(lane), SMALL, palette.INK, "end")
    for reg in range(-(-bits // 32)):
        x, y, w, h = box(0, reg * 32, reg * 32 + 32)
        name = f"v{reg}"
        if transpose:
            canvas.text(MARGIN + 4, y + h / 2, name, SMALL + 1, palette.INK, "start",
                        {"font-weight": "bold"})
        elif text_width(name, SMALL + 1) < w:
            canvas.text(x + w / 2, gy - 20, name, SMALL + 1, palette.INK, "middle",
                        {"font-weight": "bold"})
    _bit_headers(canvas, slots, box, transpose, gx, gy)
    for slot, label in zip(slots, labels):
        loc = slot.location
        x, y, w, h = box(loc.lane, loc.register * 32 + loc.bits[0],
                         loc.register * 32 + loc.bits[1] + 1)
        pic.shapes.append(Shape(x, y, w, h, loc, slot.elements, label, len(slot.elements) > 1))
    for reg in range(1, -(-bits // 32)):
        x, y, w, h = box(0, reg * 32, reg * 32)
        if transpose:
            canvas.line(gx, y, gx + full_w, y, palette.INK, 1.6, {"class": "border"})
        else:
            canvas.line(x, gy, x, gy + full_h, palette.INK, 1.6, {"class": "border"})
    canvas.rect(gx, gy, full_w, full_h, "none", {"stroke": palette.INK, "stroke-width": 1.2})
    pic.width = max(pic.width, gx + full_w + MARGIN)
    pic.height = gy + full_h


def _bit_headers(canvas: Canvas, slots: list[mc.Slot],
                 box: Callable[[int, int, int], tuple[float, float, float, float]],
                 transpose: bool, gx: float, gy: float) -> None:
    """The bit range of each sub-column, where it fits and ranges do not overlap."""
    spans = sorted({(s.location.register * 32 + s.location.bits[0],
                     s.location.register * 32 + s.location.bits[1] + 1,
                     s.location.register, s.location.bits) for s in slots
                    if s.location.bits != (0, 31) and s.location.bits != (0, 63)})
    end = -1
    for lo, hi, _reg, (first, last) in spans:
        if lo < end:
            continue
        text = f"[{last}:{first}]"
        x, y, w, h = box(0, lo, hi)
        if transpose:
            if h >= SMALL * 1.1:
                canvas.text(gx - 4, y + h / 2, text, SMALL - 1, palette.INK, "end")
                end = hi
        elif text_width(text, SMALL - 1) <= w - 1:
            canvas.text(x + w / 2, gy - 8, text, SMALL - 1, palette.INK)
            end = hi


# ---- cells, marks and legend

def _draw_shapes(pic: Picture, inst: mc.Instruction, colouring: Colouring) -> None:
    canvas = pic.canvas
    level, size = _label_level(pic.shapes)
    if level is None:
        pic.label_note = "cells too small for labels: point at one (HTML) or hover"
    elif pic.shapes:
        first = pic.shapes[0]
        shown = " over ".join(first.labels[min(level, len(first.labels) - 1)])
        full = " ".join(mc.element_text(inst, e) for e in first.elements)
        full += " in " + _marked(first.location.text, first.location)
        pic.label_note = f"label {shown!r} is {full}"
    for shape in pic.shapes:
        loc, elem = shape.location, shape.elements[0]
        fill = colouring.fill(elem, loc)
        names = [mc.element_text(inst, e) for e in shape.elements]
        where = _marked(loc.text, loc)
        canvas.cell(shape.x, shape.y, shape.w, shape.h, fill,
                    {"e": " ".join(names), "v": where, "lane": loc.lane,
                     "reg": _registers(loc), "bits": _bits(loc)},
                    f"{', '.join(names)} = {where}")
        _marks(canvas, shape)
        if level is not None:
            lines = shape.labels[min(level, len(shape.labels) - 1)]
            canvas.lines(shape.x + shape.w / 2, shape.y + shape.h / 2, lines, size,
                         palette.text_on(fill))
    for x, y, w, h in pic.frames:  # the copies of one element, framed together
        canvas.rect(x, y, w, h, "none", {"class": "mark", "stroke": palette.INK,
                                         "stroke-width": 1.4})


READABLE = 7.0  # the richest labels that fit at this size (or larger) are chosen


def _label_level(shapes: list[Shape]) -> tuple[int | None, float]:
    """(variant, font size) of the labels: one variant and one size for every cell of
    the picture, the richest that reads at READABLE size, else the richest that fits at
    all; (None, 0) when no label fits, and cells show their colour only."""
    if not shapes:
        return None, 0.0
    levels = max(len(shape.labels) for shape in shapes)
    fitting: list[tuple[int, float]] = []
    kinds = {(tuple(tuple(label) for label in shape.labels), shape.w, shape.h,
              _mark_room(shape)) for shape in shapes}  # cells alike fit alike
    for level in range(levels):
        size = min(fit_font(labels[min(level, len(labels) - 1)], w, h, FONT, room)
                   for labels, w, h, room in kinds)
        if size >= READABLE:
            return level, size
        if size:
            fitting.append((level, size))
    return fitting[0] if fitting else (None, 0.0)


def _notch(shape: Shape) -> float:
    return min(shape.w, shape.h) * 0.3


def _dot(shape: Shape) -> float:
    return max(1.5, min(shape.w, shape.h) * 0.1)


def _mark_room(shape: Shape) -> float:
    """Room the marks take on each side of a cell, which labels leave free."""
    room = 0.0
    if len(shape.location.registers) > 1:
        room = _notch(shape) * 0.6
    if shape.shared:
        room = max(room, 2 * _dot(shape) + 2)
    if shape.location.absolute:
        room = max(room, 2.5)
    return room


def _marks(canvas: Canvas, shape: Shape) -> None:
    loc, x, y, w, h = shape.location, shape.x, shape.y, shape.w, shape.h
    mark = {"class": "mark"}
    if loc.negated:
        canvas.rect(x, y, w, h, "url(#neg)", mark)
    if loc.absolute:
        for at in (x + 1.5, x + w - 1.5):
            canvas.line(at, y + 2, at, y + h - 2, palette.MARK, 1.6, mark)
    if len(loc.registers) > 1:
        size = _notch(shape)
        canvas.polygon([(x + w - size, y), (x + w, y), (x + w, y + size)], palette.MARK, mark)
    if shape.shared:
        r = _dot(shape)
        canvas.circle(x + r + 1.5, y + h - r - 1.5, r, "#FFFFFF",
                      {"class": "mark", "stroke": palette.MARK, "stroke-width": 0.6})


def _legend(pic: Picture, colouring: Colouring, top: float, view: str) -> None:
    canvas, count = pic.canvas, colouring.count
    canvas.text(MARGIN, top + 8, f"colour: {colouring.key} (0 to {count - 1})", SMALL + 1,
                palette.INK, "start", {"font-weight": "bold"})
    size = max(4.0, min(18.0, (max(pic.width, 720.0) - 180) / count))
    left = MARGIN + 150
    step = _step(count, size, SMALL - 1)
    for value in range(count):
        fill = palette.fill(value, count)
        canvas.rect(left + value * size, top, size, 14, fill, {"class": "swatch"})
        if value % step == 0:
            canvas.text(left + (value + 0.5) * size, top + 22, str(value), SMALL - 1,
                        palette.INK)
    pic.width = max(pic.width, left + count * size + MARGIN)
    y = top + 40
    limit = max(pic.width - MARGIN, 640.0)  # notes wrap within the picture
    x = MARGIN
    for sample, text in _notes(pic, view):
        indent = 0 if sample is _no_sample else 20
        width = indent + text_width(text, SMALL)
        if x > MARGIN and x + width > limit:
            x, y = MARGIN, y + 20
        sample(canvas, x, y)
        canvas.text(x + indent, y + 7, text, SMALL, palette.INK, "start")
        x += width + 16
        pic.width = max(pic.width, x - 16 + MARGIN)
    pic.height = y + 20


def _sample(loc_change: dict[str, object]) -> Callable[[Canvas, float, float], None]:
    def draw(canvas: Canvas, x: float, y: float) -> None:
        canvas.rect(x, y, 14, 14, palette.fill(3, 8), {"stroke": palette.INK,
                                                       "stroke-width": 0.5})
        base = mc.Location(0, (0, 1) if loc_change.get("two") else (0,), 0, (0, 31),
                           bool(loc_change.get("neg")), bool(loc_change.get("abs")))
        _marks(canvas, Shape(x, y, 14, 14, base, (), [], bool(loc_change.get("shared"))))
    return draw


def _notes(pic: Picture, view: str) -> list[tuple[Callable[[Canvas, float, float], None], str]]:
    shapes = pic.shapes
    notes: list[tuple[Callable[[Canvas, float, float], None], str]] = []
    if any(s.location.negated for s in shapes):
        notes.append((_sample({"neg": True}), "negated by a modifier"))
    if any(s.location.absolute for s in shapes):
        notes.append((_sample({"abs": True}), "absolute value taken"))
    if any(len(s.location.registers) > 1 for s in shapes):
        notes.append((_sample({"two": True}), "value spans two VGPRs"))
    if any(s.shared for s in shapes):
        notes.append((_sample({"shared": True}), "one slot read for several elements"))
    if view == "register" and _split(shapes):
        notes.append((_sample({}), "split cell: one element read from several lanes"))
    if pic.grouped:
        notes.append((_no_sample, "Blocks a, b, ...: blocks read from the same registers"))
    if pic.empty:
        notes.append((_empty_sample, "grey: no value"))
    notes.append((_no_sample, pic.label_note))
    if view == "matrix" and any(s.shared for s in shapes):
        notes.append((_no_sample, "+n: more elements read from the slot"))
    return notes


def _split(shapes: Iterable[Shape]) -> bool:
    seen: set[tuple[str, int, int, int]] = set()
    for shape in shapes:
        e = shape.elements[0]
        key = (e.matrix, e.row, e.col, e.block)
        if key in seen:
            return True
        seen.add(key)
    return False


def _no_sample(canvas: Canvas, x: float, y: float) -> None:
    pass


def _empty_sample(canvas: Canvas, x: float, y: float) -> None:
    canvas.rect(x, y, 14, 14, palette.EMPTY, {"stroke": palette.INK, "stroke-width": 0.5})


# ---- the document

STYLE = (".cell{stroke:#FFFFFF;stroke-width:0.6}text{pointer-events:none}"
         ".mark{pointer-events:none}"
         ".cell.hl{stroke:#000000;stroke-width:2.5}")
DEFS = ('<pattern id="neg" width="5" height="5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="5" '
        'stroke="#000000" stroke-width="1.4" stroke-opacity="0.5"/></pattern>')


def render(fmt: str, inst: mc.Instruction, matrix: str, mods: mc.ModifierValues,
           wave: int | None, view: str, transpose: bool = False,
           color_by: str | None = None) -> str:
    """The picture of `matrix` of `inst` as an SVG document (fmt "svg") or an HTML page
    (fmt "html"); `view` is "register" (-R) or "matrix" (-M)."""
    if fmt not in FORMATS:
        raise mc.CalcError(f"unknown picture format {fmt!r}; use {' or '.join(FORMATS)}")
    if view not in VIEWS:
        raise mc.CalcError(f"unknown picture view {view!r}; use {' or '.join(VIEWS)}")
    key = color_by or DEFAULT_COLOR[view]
    if key not in COLOR_KEYS:
        raise mc.CalcError(f"unknown colouring {color_by!r}; colour by "
                           f"{', '.join(COLOR_KEYS)}")
    mods = mc.modifiers(mods)
    entries = list(mc.layout(inst, matrix, mods=mods, wave=wave))
    if not entries:
        raise mc.CalcError(f"the {matrix} matrix of {inst.name} holds no value to draw")
    matrix = entries[0].element.matrix
    lanes = wave or mc.architecture_of(inst).waves[0]
    registers = mc.register_count(inst, matrix, mods=mods, wave=wave)
    colouring = _colouring(key, entries, matrix, lanes, registers)
    resolved = mc.with_formats(inst, mods)
    pic = Picture()
    title = _title(resolved, matrix, mods, lanes, view)
    pic.canvas.text(MARGIN, 16, title[0], 15, palette.INK, "start", {"font-weight": "bold"})
    pic.canvas.text(MARGIN, 36, title[1], SMALL + 1, palette.INK, "start")
    top = 58.0
    if view == "register":
        _register_view(pic, resolved, matrix, entries, colouring, transpose, top)
    else:
        slots = list(mc.slots(inst, matrix, mods=mods, wave=wave))
        _matrix_view(pic, resolved, slots, lanes, registers, transpose, top)
    _draw_shapes(pic, resolved, colouring)
    _legend(pic, colouring, pic.height + 20, view)
    pic.width = max(pic.width, text_width(title[0], 15) + 2 * MARGIN,
                    text_width(title[1], SMALL + 1) + 2 * MARGIN)
    pic.height += MARGIN
    svg = pic.canvas.document(pic.width, pic.height, " ".join(title), STYLE, DEFS,
                              standalone=fmt == "svg")
    return svg if fmt == "svg" else page(" ".join(title), svg)


def _title(inst: mc.Instruction, matrix: str, mods: mc.Modifiers, lanes: int,
           view: str) -> tuple[str, str]:
    facts = mc.facts(inst, lanes)
    what = "register layout (-R)" if view == "register" else "matrix layout (-M)"
    first, second = _axis_names(matrix)
    axes = (f"rows {first}, columns {second}" if view == "register"
            else "rows: lanes, columns: VGPRs (bits)")
    types = f"A {facts['types']['A']['name']}, B {facts['types']['B']['name']}"
    blocks = f", {inst.blocks} blocks" if inst.blocks > 1 else ""
    shape = f"{inst.m}x{inst.n}x{inst.k}{blocks}"
    return (f"{facts['architecture']} {inst.name}: {matrix} matrix, {what}",
            f"{shape}, {types}; wave{lanes}; modifiers: {_modifier_text(mods)}; {axes}")
