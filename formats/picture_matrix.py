"""The matrix view of a layout picture (-M), laid out as cells (formats/pictures.py draws
them; formats/picture_views.py holds what both views share).

Lanes x registers, each register divided by bit position (values in two VGPRs cross the
border, which is cut around them: around_straddlers); VGPRs (transposed: lanes) split
into panels where too wide.
"""

from __future__ import annotations

from _operator import itemgetter  # (the C module: operator itself loads more)
from itertools import chain

from instructions.record import Record

from formats import palette
from formats.picture_views import (
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
    namer,
    slot_texts,
)
from formats.svg import Canvas, text_width
from matrix_library import checks
from matrix_library.records import Element, Location, Slot


def element_labels(name: str, matrix: str, more: int) -> list[list[str]]:
    """Label variants of a matrix-view cell whose first element is `name` (of `matrix`),
    richest first: A[5][6], A[5] over [6], [5][6], [5] over [6]; "+n" counts the `more`
    other elements of the slot."""
    short = name[len(matrix):]
    cut = short.index("]") + 1
    split = len(matrix) + cut
    if not more:
        return [[name], [name[:split], name[split:]], [short], [short[:cut], short[cut:]]]
    plus = f"+{more}"
    return [[f"{name} {plus}"], [name, plus], [name[:split], name[split:] + plus],
            [f"{short}{plus}"], [short[:cut], short[cut:] + plus]]


def _marked_lines(lines: list[str], loc: Location) -> list[str]:
    """A label's lines with the location's marks: `-` (negated) before the first line,
    `|` around the whole (absolute value)."""
    before, after = slot_texts(loc)[:2]
    if len(lines) == 1:
        return [before + lines[0] + after]
    return [before + lines[0], *lines[1:-1], lines[-1] + after]


def _straddles(columns: set[tuple[int, tuple[int, int]]], bits: int) -> bool:
    """Whether a value of the (register, bits) `columns` crosses a multiple of `bits` (a
    panel border)."""
    return any((reg * 32 + lo) // bits != (reg * 32 + hi) // bits for reg, (lo, hi) in columns)


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
        x, y0, w, h = self.column(lo, hi)
        return x, y0 + lane * self.along, w, h

    def column(self, lo: int, hi: int) -> tuple[float, float, float, float]:
        """x, the top of lane 0, w, h of bits lo..hi-1 of every lane (lanes down: a lane's
        y is the top plus the lane times `along`)."""
        panel = lo // (32 * self.group)
        y0 = self.top + panel * (self.panel_h + GAP) + self.title_h + self.head_h
        base = panel * 32 * self.group
        return self.gx + (lo - base) * self.per_bit, y0, (hi - lo) * self.per_bit, self.along


def _grid(sizes: set[tuple[int, int, bool, int]], columns: set[tuple[int, tuple[int, int]]],
          lanes: int, bits: int, transpose: bool, top: float) -> Grid:
    """Cells large enough for every label at READABLE size or more, in panels at most
    MAX_WIDTH across; `sizes`: (the characters of the richest label, of the longest line
    of the last, whether marks share the cell, the bits) of every cell."""
    regs = -(-bits // 32)
    span = [width for _, _, _, width in sizes]
    rooms = [MARK_ROOM / 2 * marks for _, _, marks, _ in sizes]
    rich = [fits(["x" * n], FONT, room)[0] for (n, _, _, _), room in zip(sizes, rooms)]
    least = [fits(["x" * n], READABLE, room)[0] for (_, n, _, _), room in zip(sizes, rooms)]
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
        while group < regs and _straddles(columns, 32 * group):
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


TYPE_CHECKING = False
if TYPE_CHECKING:  # (a slot's location, elements, labels and its elements' names)
    _Cell = tuple[Location, tuple[Element, ...], list[list[str]], str]


def matrix_view(pic: Picture, inst: checks.Instruction, slots: list[Slot], lanes: int,
                registers: int, transpose: bool, top: float) -> None:
    cells, sizes, columns, held = _named(slots, inst.blocks)
    bits = max([registers * 32] + [reg * 32 + hi + 1 for reg, (_, hi) in columns])
    pic.empty = held < lanes * bits
    grid = _grid(sizes, columns, lanes, bits, transpose, top)
    for panel in range(grid.panels):
        draw = _lane_panel if transpose else _register_panel
        width, _ = draw(pic, grid, panel)
        pic.width = max(pic.width, grid.gx + width + MARGIN)
        if transpose:
            _bit_headers(pic.canvas, columns, grid, panel * grid.group)
    if not transpose:
        _bit_headers(pic.canvas, columns, grid, 0)
    _place(pic, grid, cells)
    pic.height = top + grid.panels * (grid.panel_h + GAP) - GAP


def _named(slots: list[Slot], blocks: int) -> (
        tuple[list[_Cell], set[tuple[int, int, bool, int]], set[tuple[int, tuple[int, int]]], int]):
    """Each slot's (location, elements, labels, elements' names), in one pass; what sizes
    the cells, per distinct (label lengths, marks, bits); the (VGPR, bits) columns; and
    the bits that hold a value, over all lanes."""
    matrix = slots[0].elements[0].matrix
    name = namer(matrix, blocks)
    cells: list[_Cell] = []
    sizes: set[tuple[int, int, bool, int]] = set()
    columns: set[tuple[int, tuple[int, int]]] = set()
    held = 0
    for loc, elems in slots:
        first = name(elems[0])
        labels = element_labels(first, matrix, len(elems) - 1)
        if loc[4] or loc[5]:  # (negated, absolute: -A[0][0] and |A[0][0]|, as the text says)
            labels = [_marked_lines(lines, loc) for lines in labels]
        lo, hi = loc[3]
        last = labels[-1]
        sizes.add((len(labels[0][0]), max(len(last[0]), len(last[1])),
                   len(loc[1]) > 1 or len(elems) > 1, hi - lo + 1))
        columns.add((loc[0], loc[3]))
        held += hi - lo + 1
        cells.append((loc, elems, labels, first if len(elems) == 1 else
                      " ".join(map(name, elems))))
    return cells, sizes, columns, held


def _place(pic: Picture, grid: Grid, cells: list[_Cell]) -> None:
    """The cells' shapes, in order."""
    shapes, new, box, along = pic.shapes, tuple.__new__, grid.box, grid.along
    # (per slot (VGPRs, bits, marks): its texts but the lane, and where it is, lanes down)
    known: dict[tuple[object, ...], tuple[str, str, str, str, tuple[float, ...]]] = {}
    for loc, elems, labels, names in cells:
        reg, _, lane, (lo, hi), _, _ = loc
        key = loc[:2] + loc[3:]
        found = known.get(key)
        if found is None:
            before, after, name, suffix, regs, _, bits_text = slot_texts(loc)
            found = known[key] = (before + name + "{", "}" + suffix + after, regs, bits_text,
                                  grid.column(reg * 32 + lo, reg * 32 + hi + 1))
        head, tail, regs, bits_text, (x, y0, w, h) = found
        if grid.transpose:
            x, y, w, h = box(lane, reg * 32 + lo, reg * 32 + hi + 1)
        else:
            y = y0 + lane * along
        shapes.append(new(Shape, (x, y, w, h, loc, elems, labels, len(elems) > 1,
                                  (names, f"{head}{lane}{tail}", regs, bits_text))))


def _bit_headers(canvas: Canvas, columns: set[tuple[int, tuple[int, int]]], grid: Grid,
                 lane: int) -> None:
    """The bit range of each sub-column, where it fits and ranges do not overlap (`lane`:
    the first lane of the panel, transposed)."""
    spans = sorted({(reg * 32 + lo, reg * 32 + hi + 1, reg, (lo, hi))
                    for reg, (lo, hi) in columns if (lo, hi) != (0, 31) and (lo, hi) != (0, 63)})
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


def around_straddlers(borders: list[tuple[float, float, float, float]],
                      shapes: list[Shape]) -> list[tuple[float, float, float, float]]:
    """The VGPR borders, each cut where a cell crosses it (a value that straddles two
    VGPRs, fp6/bf6): no border runs through that cell's label."""
    out = []
    # The cells' extents along the borders, per extent across them (a few hundred: the
    # cells of a column, or a row, share one), for horizontal and vertical borders
    extents: dict[bool, dict[tuple[float, float], list[tuple[float, float]]]] = {}
    for x1, y1, x2, y2 in borders:
        across = y1 == y2  # a horizontal border (VGPRs down), else a vertical one
        at, start, end = (y1, x1, x2) if across else (x1, y1, y2)
        by = extents.get(across)
        if by is None:
            by = extents[across] = {}
            for x, y, w, h in map(itemgetter(0, 1, 2, 3), shapes):
                key, along = ((y, y + h), (x, x + w)) if across else ((x, x + w), (y, y + h))
                found = by.get(key)
                if found is None:
                    by[key] = [along]
                else:
                    found.append(along)
        cuts = sorted(chain.from_iterable(found for (low, high), found in by.items()
                                          if low < at < high))
        for low, high in cuts:
            if low - start > 0.01:
                out.append((start, at, min(low, end), at) if across else
                           (at, start, at, min(low, end)))
            start = max(start, high)
        if end - start > 0.01:  # (cells that meet leave no sliver between their cuts)
            out.append((start, at, end, at) if across else (at, start, at, end))
    return out
