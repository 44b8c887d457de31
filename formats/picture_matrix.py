"""The matrix view of a layout picture (-M), laid out as cells (formats/pictures.py draws
them; formats/picture_views.py holds what both views share).

Lanes x registers, each register divided by bit position (values in two VGPRs cross the
border); VGPRs (transposed: lanes) split into panels where too wide.
"""
from __future__ import annotations

from amd_matrix_calculator import matrix_api as mc
from amd_matrix_calculator.instructions.record import Record

from . import palette
from .picture_views import (
    FONT,
    GAP,
    MARGIN,
    MARK_ROOM,
    MAX_WIDTH,
    READABLE,
    SMALL,
    Picture,
    Shape,
    chunk_of,
    fits,
    index_step,
    label_height,
)
from .svg import Canvas, text_width


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
