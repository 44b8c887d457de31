"""The two views of a layout picture, laid out as cells (formats/pictures.py draws them).

* "register" (-R): the matrix as a grid of panels (formats/picture_register.py), built on
  what is shared here: the cells (Shape), the picture (Picture), the names of locations.
* "matrix" (-M): lanes x registers, each register divided by bit position (values in two
  VGPRs cross the border); VGPRs (transposed: lanes) split into panels where too wide.

Every cell is made large enough for a label of at least READABLE pixels: cells grow,
labels wrap over two or three lines, and wide matrices split into panels.
"""
from __future__ import annotations

from _operator import itemgetter  # (the C module: operator itself loads more)

from amd_matrix_calculator import matrix_api as mc
from amd_matrix_calculator.instructions.record import Record

from . import palette
from .svg import LINE_HEIGHT, Canvas, text_width

MAX_WIDTH = 2400.0  # pixels the cells of one panel may take across
FONT = 11.0  # label size when there is room
SMALL = 9.0  # index and legend size
READABLE = 9.0  # the smallest label size: every cell's label is at least this large
MARGIN = 16.0
GAP = 24.0  # between panels
MARK_ROOM = 16.0  # extra cell width where marks (notch, dot) share a cell with its label
PAD = 2.0  # fit_font's padding on each side of a label


class Shape(Record):
    """One drawn cell: a location and the elements read from it."""
    x: float
    y: float
    w: float
    h: float
    location: mc.Location
    elements: tuple[mc.Element, ...]
    labels: list[list[str]]  # label variants, richest first
    shared: bool = False  # the slot feeds other elements too


class Picture:
    """Everything drawn, before it becomes text (a plain class: dataclasses would load
    inspect, re and collections with the pictures)."""
    def __init__(self) -> None:
        self.canvas = Canvas()
        self.shapes: list[Shape] = []
        self.width = self.height = 0.0
        self.frames: list[tuple[float, float, float, float]] = []
        self.borders: list[tuple[float, float, float, float]] = []
        self.grouped = False  # a panel shows several blocks reading the same registers
        self.empty = False  # the matrix view has lanes or bits that hold nothing
        self.label_note = ""  # how the labels read, where they abbreviate
        self.label_level = 0  # which label variant every cell shows
        self.label_size = 0.0  # the font size of every cell's label


# ---- names

def registers_of(loc: mc.Location) -> str:
    first, last = loc.registers[0], loc.registers[-1]
    return f"v{first}" if first == last else f"v[{last}:{first}]"


def marked(text: str, loc: mc.Location) -> str:
    if loc.absolute:
        text = f"|{text}|"
    return "-" + text if loc.negated else text


_WHERE: dict[mc.Location, tuple[str, str, str]] = {}


def where(loc: mc.Location) -> tuple[str, str, str]:
    """The location's text with its marks (-v3{17}.[15:0]), its VGPRs (v3, v[1:0]) and
    its bits (15:0), kept per location: labels and a cell's data name them, and each
    spelling of the text costs a Place."""
    found = _WHERE.get(loc)
    if found is None:
        found = keep_texts(loc, marked(loc.text, loc), registers_of(loc),
                           f"{loc.bits[1]}:{loc.bits[0]}")
    return found


def keep_texts(loc: mc.Location, text: str, reg: str, bits: str) -> tuple[str, str, str]:
    """Keep `text` (the marked location), `reg` (its VGPRs) and `bits` for where()."""
    found = _WHERE[loc] = (text, reg, bits)
    return found


def positions(matrix: str) -> itemgetter[tuple[int, int, int]]:
    """(row, column, block) of an Element (matrix, i, j, k, block) of `matrix`: what
    mc.element_text names and Element.row/.col read, without their checks (per cell)."""
    row, col = (mc.Element._fields.index(name[0]) for name in axis_names(matrix))
    return itemgetter(row, col, 4)


def axis_names(matrix: str) -> tuple[str, str]:
    """The coordinate names (i, j, k; kb for block scales) of the matrix's rows and
    columns, read from the library's element naming."""
    probe = mc.element_of(matrix, i=1, j=2, k=3)
    names = ["i", "j", "kb" if matrix in ("SA", "SB") else "k"]
    return names[probe.row - 1], names[probe.col - 1]


def index_step(count: int, room: float, size: float) -> int:
    """Label every n-th index so that the labels of `count` slots of `room` pixels
    never touch."""
    widest = text_width(str(max(count - 1, 0)), size) + 3
    step = 1
    while step * room < widest and step < count:
        step *= 2
    return step


def fits(lines: list[str], size: float, room: float) -> tuple[float, int]:
    """(width, lines) a label needs at `size` with `room` for marks on each side."""
    return max(text_width(line, size) for line in lines) + 2 * (PAD + room) + 1, len(lines)


def label_height(lines: int, size: float) -> float:
    return lines * LINE_HEIGHT * size + 2 * PAD + 2  # lines at size, padded


def chunk_of(count: int, cell: float) -> int:
    """How many cells of `cell` pixels one panel holds across (a power of two, so that
    panels split K or lanes at natural boundaries), or all of them."""
    if count * cell <= MAX_WIDTH:
        return count
    fit = 1
    while fit * 2 * cell <= MAX_WIDTH and fit * 2 < count:
        fit *= 2
    return fit


# ---- the matrix view (-M)

def element_labels(inst: mc.Instruction, elems: tuple[mc.Element, ...]) -> list[list[str]]:
    """Label variants of a matrix-view cell, richest first: A[5][6], A[5] over [6],
    [5][6], [5] over [6]; "+n" counts the other elements of the slot."""
    name = mc.element_text(inst, elems[0])
    short = name[len(elems[0].matrix):]
    split = name.index("]") + 1
    cut = short.index("]") + 1
    if len(elems) == 1:
        return [[name], [name[:split], name[split:]], [short], [short[:cut], short[cut:]]]
    more = f"+{len(elems) - 1}"
    return [[f"{name} {more}"], [name, more], [name[:split], name[split:] + more],
            [f"{short}{more}"], [short[:cut], short[cut:] + more]]


def _straddles(slots: list[mc.Slot], bits: int) -> bool:
    """Whether a value crosses a multiple of `bits` (a panel border)."""
    return any((s.location.register * 32 + s.location.bits[0]) // bits !=
               (s.location.register * 32 + s.location.bits[1]) // bits for s in slots)


class Grid(Record):
    """The geometry of a matrix view: cell sizes and the panels the lanes (transposed)
    or the VGPRs are split into."""
    transpose: bool
    lanes: int
    regs: int
    bits: int
    along: float  # pixels per lane
    per_bit: float  # pixels per bit
    group: int  # lanes (transposed) or VGPRs per panel
    panels: int
    top: float
    gx: float  # where the cells start across
    title_h: float  # a panel's title
    head_h: float  # its lane/VGPR headers
    panel_h: float  # the whole panel

    def box(self, lane: int, lo: int, hi: int) -> tuple[float, float, float, float]:
        """x, y, w, h of bits lo..hi-1 of a lane."""
        if self.transpose:
            panel, local = divmod(lane, self.group)
            y0 = self.top + panel * (self.panel_h + GAP) + self.title_h + self.head_h
            return (self.gx + local * self.along, y0 + lo * self.per_bit, self.along,
                    (hi - lo) * self.per_bit)
        panel = lo // (32 * self.group)
        y0 = self.top + panel * (self.panel_h + GAP) + self.title_h + self.head_h
        base = panel * 32 * self.group
        return (self.gx + (lo - base) * self.per_bit, y0 + lane * self.along,
                (hi - lo) * self.per_bit, self.along)


def _grid(slots: list[mc.Slot], labels: list[list[list[str]]], lanes: int, bits: int,
          transpose: bool, top: float) -> Grid:
    """Cells large enough for every label at READABLE size or more, in panels at most
    MAX_WIDTH across."""
    regs = -(-bits // 32)
    span = [s.location.bits[1] - s.location.bits[0] + 1 for s in slots]
    rooms = [MARK_ROOM / 2 * (len(s.location.registers) > 1 or len(s.elements) > 1)
             for s in slots]
    rich = [fits(lab[0], FONT, room)[0] for lab, room in zip(labels, rooms)]
    least = [fits(lab[-1], READABLE, room)[0] for lab, room in zip(labels, rooms)]
    two = label_height(2, READABLE)
    if transpose:  # registers down, lanes across
        along = max(max(least), min(max(rich), MAX_WIDTH / lanes))
        lines = 1 if along >= max(rich) else 2
        per_bit = max(max(label_height(lines, FONT), two) / min(span), 22 / 32)
        group = chunk_of(lanes, along)  # lanes per panel
        panels = -(-lanes // group)
        gx = MARGIN + text_width(f"v{regs - 1}", SMALL + 1) + text_width("[63:32]", SMALL) + 16
        head_h, full = 18.0, bits * per_bit
    else:
        per_bit = max(26 / 32, min(max(n / w for n, w in zip(rich, span)), MAX_WIDTH / bits),
                      max(n / w for n, w in zip(least, span)))
        one_line = all(per_bit * w >= n for n, w in zip(rich, span))
        along = label_height(1, FONT) if one_line else max(label_height(2, FONT), two)
        group = chunk_of(regs, 32 * per_bit)  # registers per panel
        while group < regs and _straddles(slots, 32 * group):
            group += 1  # never cut a value that spans two VGPRs
        group = min(group, regs)
        panels = -(-regs // group)
        gx = MARGIN + text_width(str(lanes - 1), SMALL) + 10
        head_h, full = 28.0, lanes * along
    title_h = 18.0 if panels > 1 else 0.0
    return Grid(transpose, lanes, regs, bits, along, per_bit, group, panels, top, gx, title_h,
                head_h, title_h + head_h + full)


_AXIS = {"font-weight": "bold"}


def _lane_panel(pic: Picture, grid: Grid, panel: int) -> tuple[float, float]:
    """Draw the frame of panel `panel` of a transposed view (lanes across)."""
    canvas, gx = pic.canvas, grid.gx
    py = grid.top + panel * (grid.panel_h + GAP)
    gy = py + grid.title_h + grid.head_h
    first, count = panel * grid.group, min(grid.group, grid.lanes - panel * grid.group)
    width = count * grid.along
    if grid.title_h:
        canvas.text(MARGIN, py + 8, f"lanes {first}-{first + count - 1}", SMALL + 2,
                    palette.INK, "start", _AXIS)
    canvas.rect(gx, gy, width, grid.bits * grid.per_bit, palette.EMPTY)
    canvas.text(gx - 4, gy - 8, "lane", SMALL, palette.INK, "end", _AXIS)
    for lane in range(first, first + count, index_step(count, grid.along, SMALL)):
        canvas.text(gx + (lane - first + 0.5) * grid.along, gy - 8, str(lane), SMALL,
                    palette.INK)
    for reg in range(grid.regs):
        _, y, _, h = grid.box(first, reg * 32, reg * 32 + 32)
        canvas.text(MARGIN + 4, y + h / 2, f"v{reg}", SMALL + 1, palette.INK, "start", _AXIS)
        if reg:
            pic.borders.append((gx, y, gx + width, y))
    pic.frames.append((gx, gy, width, grid.bits * grid.per_bit))
    return width, gy


def _register_panel(pic: Picture, grid: Grid, panel: int) -> tuple[float, float]:
    """Draw the frame of panel `panel` of a view with lanes down and VGPRs across."""
    canvas, gx = pic.canvas, grid.gx
    py = grid.top + panel * (grid.panel_h + GAP)
    gy = py + grid.title_h + grid.head_h
    first, count = panel * grid.group, min(grid.group, grid.regs - panel * grid.group)
    width, height = count * 32 * grid.per_bit, grid.lanes * grid.along
    if grid.title_h:
        canvas.text(MARGIN, py + 8, f"v{first}-v{first + count - 1}", SMALL + 2, palette.INK,
                    "start", _AXIS)
    canvas.rect(gx, gy, width, height, palette.EMPTY)
    canvas.text(gx - 4, gy - 20, "lane", SMALL, palette.INK, "end", _AXIS)
    for lane in range(0, grid.lanes, index_step(grid.lanes, grid.along * 2.5, SMALL)):
        canvas.text(gx - 4, gy + (lane + 0.5) * grid.along, str(lane), SMALL, palette.INK,
                    "end")
    for reg in range(first, first + count):
        x, _, w, _ = grid.box(0, reg * 32, reg * 32 + 32)
        if text_width(f"v{reg}", SMALL + 1) < w:
            canvas.text(x + w / 2, gy - 20, f"v{reg}", SMALL + 1, palette.INK, "middle", _AXIS)
        if reg > first:
            pic.borders.append((x, gy, x, gy + height))
    pic.frames.append((gx, gy, width, height))
    return width, gy


def matrix_view(pic: Picture, inst: mc.Instruction, slots: list[mc.Slot], lanes: int,
                registers: int, transpose: bool, top: float) -> None:
    bits = max([registers * 32] + [s.location.register * 32 + s.location.bits[1] + 1
                                   for s in slots])
    labels = [element_labels(inst, s.elements) for s in slots]
    pic.empty = sum(s.location.bits[1] - s.location.bits[0] + 1 for s in slots) < lanes * bits
    grid = _grid(slots, labels, lanes, bits, transpose, top)
    for panel in range(grid.panels):
        draw = _lane_panel if transpose else _register_panel
        width, _ = draw(pic, grid, panel)
        pic.width = max(pic.width, grid.gx + width + MARGIN)
        if transpose:
            _bit_headers(pic.canvas, slots, grid, panel * grid.group)
    if not transpose:
        _bit_headers(pic.canvas, slots, grid, 0)
    for slot, label in zip(slots, labels):
        loc = slot.location
        x, y, w, h = grid.box(loc.lane, loc.register * 32 + loc.bits[0],
                              loc.register * 32 + loc.bits[1] + 1)
        pic.shapes.append(Shape(x, y, w, h, loc, slot.elements, label, len(slot.elements) > 1))
    pic.height = top + grid.panels * (grid.panel_h + GAP) - GAP


def _bit_headers(canvas: Canvas, slots: list[mc.Slot], grid: Grid, lane: int) -> None:
    """The bit range of each sub-column, where it fits and ranges do not overlap (`lane`:
    the first lane of the panel, transposed)."""
    spans = sorted({(s.location.register * 32 + s.location.bits[0],
                     s.location.register * 32 + s.location.bits[1] + 1,
                     s.location.register, s.location.bits) for s in slots
                    if s.location.bits != (0, 31) and s.location.bits != (0, 63)})
    end = -1
    for lo, hi, _reg, (first, last) in spans:
        if lo < end:
            continue
        text = f"[{last}:{first}]"
        x, y, w, h = grid.box(lane, lo, hi)
        if grid.transpose and h >= SMALL * 1.1:
            canvas.text(grid.gx - 4, y + h / 2, text, SMALL, palette.INK, "end")
            end = hi
        elif not grid.transpose and text_width(text, SMALL) <= w - 1:
            canvas.text(x + w / 2, y - 8, text, SMALL, palette.INK)
            end = hi
