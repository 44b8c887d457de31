"""The two views of a layout picture, laid out as cells (formats/pictures.py draws them).

* "register" (-R): the matrix as a grid, one panel per block (blocks reading identical
  registers, as CBSZ broadcasts make them, share one) and per run of columns where the
  matrix is too wide; a cell names its register, lane and bits; an element read from
  several lanes (RDNA3's replicated A and B) is split into one stripe per copy.
* "matrix" (-M): lanes x registers, each register divided by bit position (values in two
  VGPRs cross the border); VGPRs (transposed: lanes) split into panels where too wide.

Every cell is made large enough for a label of at least READABLE pixels: cells grow,
labels wrap over two or three lines, and wide matrices split into panels.
"""
from __future__ import annotations

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
        found = _WHERE[loc] = _texts(loc, loc.text, registers_of(loc))
    return found


def _texts(loc: mc.Location, text: str, reg: str) -> tuple[str, str, str]:
    return marked(text, loc), reg, f"{loc.bits[1]}:{loc.bits[0]}"


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


def _fits(lines: list[str], size: float, room: float) -> tuple[float, int]:
    """(width, lines) a label needs at `size` with `room` for marks on each side."""
    return max(text_width(line, size) for line in lines) + 2 * (PAD + room) + 1, len(lines)


def _height(lines: int, size: float) -> float:
    return lines * LINE_HEIGHT * size + 2 * PAD + 2  # lines at size, padded


def _chunk(count: int, cell: float) -> int:
    """How many cells of `cell` pixels one panel holds across (a power of two, so that
    panels split K or lanes at natural boundaries), or all of them."""
    if count * cell <= MAX_WIDTH:
        return count
    fit = 1
    while fit * 2 * cell <= MAX_WIDTH and fit * 2 < count:
        fit *= 2
    return fit


# ---- the register view (-R)

class Panel(Record):
    blocks: list[int]
    cells: dict[tuple[int, int], list[mc.Entry]]  # (row, col) -> entries, copies in order


def _panels(entries: list[mc.Entry], transpose: bool) -> list[Panel]:
    """One panel per block; consecutive blocks whose cells read the same locations
    share one (a CBSZ broadcast)."""
    by_block: dict[int, dict[tuple[int, int], list[mc.Entry]]] = {}
    for entry in entries:
        e = entry.element
        cells = by_block.get(e.block)
        if cells is None:
            cells = by_block[e.block] = {}
        cell = (e.col, e.row) if transpose else (e.row, e.col)
        found = cells.get(cell)
        if found is None:
            cells[cell] = [entry]
        else:
            found.append(entry)
    panels: list[Panel] = []
    for block in sorted(by_block):  # (each block's lists are its panel's own)
        cells = by_block[block]
        if panels and _same_locations(panels[-1].cells, cells):
            panels[-1].blocks.append(block)
            for key, found in cells.items():
                panels[-1].cells[key].extend(found)
        else:
            panels.append(Panel([block], cells))
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


_REGISTER_LABELS: dict[mc.Location, list[list[str]]] = {}


def register_labels(loc: mc.Location) -> list[list[str]]:
    """Label variants of a register-view cell, richest first; every variant names the
    register and the lane, and the bits where the register holds more than one value."""
    found = _REGISTER_LABELS.get(loc)
    if found is not None:
        return found
    reg, lane, text = registers_of(loc), f"{{{loc.lane}}}", loc.text
    full = (_WHERE.get(loc) or _WHERE.setdefault(loc, _texts(loc, text, reg)))[0]
    if text.endswith("}"):  # no bit range: the whole register (or pair)
        variants = [[full], [marked(reg, loc), lane]]
    else:
        bits = text[text.index("}") + 2:]
        variants = [[full], [marked(reg + lane, loc), bits],
                    [marked(reg, loc), lane, bits]]
    _REGISTER_LABELS[loc] = variants
    return variants


def _cell_size(labels: dict[mc.Location, list[list[str]]],
               cols: int, copies: int, is_marked: bool) -> tuple[float, float]:
    """(width, height) of a register-view cell: the richest labels at FONT where the
    picture stays within MAX_WIDTH, never less than the last variant at READABLE."""
    room = MARK_ROOM / 2 * is_marked
    variants = labels.values()  # (_fits of the longest line: widths grow with lengths)
    widest = _fits(["x" * max(max(map(len, v[1])) for v in variants)], FONT, room)[0]
    longest, least_lines = max((max(map(len, v[-1])), len(v[-1])) for v in variants)
    least = _fits(["x" * longest], READABLE, room)[0]
    cell_w = max(least, min(widest, MAX_WIDTH / cols))
    lines = max(len(v[1]) for v in variants) if cell_w >= widest else least_lines
    return cell_w, max(_height(lines, FONT), _height(least_lines, READABLE)) * copies


def _panel_title(panel: Panel, single: bool, chunk: int, cols: int, start: int, end: int,
                 axis: str) -> str:
    blocks = panel.blocks
    name = "" if single else (f"Block {blocks[0]}" if len(blocks) == 1 else
                              "Blocks " + ", ".join(map(str, blocks)))
    if chunk < cols:
        name += (", " if name else "") + f"{axis} {start}-{end - 1}"
    return name


def register_view(pic: Picture, matrix: str, entries: list[mc.Entry], transpose: bool,
                  top: float) -> None:
    panels = _panels(entries, transpose)
    rows = 1 + max(r for p in panels for r, _ in p.cells)
    cols = 1 + max(c for p in panels for _, c in p.cells)
    copies = max(len(found) > 1 and len(_copies(found)) for p in panels
                 for found in p.cells.values()) or 1
    shared: dict[mc.Location, int] = {}
    for e in entries:
        shared[e.location] = shared.get(e.location, 0) + 1
    is_marked = any(len(e.location.registers) > 1 or shared[e.location] > 1 for e in entries)
    labels = {e.location: register_labels(e.location) for e in entries}
    cell_w, cell_h = _cell_size(labels, cols, copies, is_marked)
    first, second = axis_names(matrix)
    if transpose:
        first, second = second, first
    chunk = _chunk(cols, cell_w)
    head_w = text_width(str(rows - 1), SMALL) + 10
    drawn = [(panel, start) for panel in panels for start in range(0, cols, chunk)]
    title_h = 18.0 if len(drawn) > 1 else 0.0
    panel_w = head_w + min(chunk, cols) * cell_w
    panel_h = title_h + 16 + rows * cell_h
    pic.grouped = any(len(panel.blocks) > 1 for panel in panels)
    per_row = max(1, min(len(drawn), int((MAX_WIDTH + GAP) // (panel_w + GAP))))
    canvas = pic.canvas
    for number_, (panel, start) in enumerate(drawn):
        end = min(cols, start + chunk)
        px = MARGIN + (number_ % per_row) * (panel_w + GAP)
        py = top + (number_ // per_row) * (panel_h + GAP)
        if title_h:
            canvas.text(px, py + 8, _panel_title(panel, len(panels) == 1, chunk, cols, start,
                                                 end, second),
                        SMALL + 2, palette.INK, "start", {"font-weight": "bold"})
        gx, gy = px + head_w, py + title_h + 16
        canvas.text(px + head_w / 2, gy - 8, f"{first}\\{second}", SMALL, palette.INK)
        for col in range(start, end, index_step(end - start, cell_w, SMALL)):
            canvas.text(gx + (col - start + 0.5) * cell_w, gy - 8, str(col), SMALL, palette.INK)
        for row in range(0, rows, index_step(rows, cell_h * 2.5, SMALL)):
            canvas.text(gx - 4, gy + (row + 0.5) * cell_h, str(row), SMALL, palette.INK, "end")
        _panel_cells(pic, panel, labels, shared, (gx, gy, cell_w, cell_h), start, end)
        canvas.rect(gx, gy, (end - start) * cell_w, rows * cell_h, "none",
                    {"stroke": palette.INK, "stroke-width": 1.2})
    count = len(drawn)
    pic.width = max(pic.width, 2 * MARGIN + min(count, per_row) * (panel_w + GAP) - GAP)
    pic.height = top + -(-count // per_row) * (panel_h + GAP) - GAP


def _panel_cells(pic: Picture, panel: Panel, labels: dict[mc.Location, list[list[str]]],
                 shared: dict[mc.Location, int], grid: tuple[float, float, float, float],
                 start: int, end: int) -> None:
    """The shapes of the panel's columns start..end-1 (a cell split into one stripe per
    copy of its element)."""
    gx, gy, cell_w, cell_h = grid
    shapes, new = pic.shapes, tuple.__new__  # (Shape's fields in order: thousands of cells)
    for (row, col), found in sorted(panel.cells.items()):
        if not start <= col < end:
            continue
        x = gx + (col - start) * cell_w
        if len(found) == 1:  # (one entry: one shape, the whole cell)
            loc = found[0].location
            shapes.append(new(Shape, (x, gy + row * cell_h, cell_w, cell_h, loc,
                                      (found[0].element,), labels[loc], shared[loc] > 1)))
            continue
        held = _copies(found)
        height = cell_h / len(held)
        for at, (loc, elems) in enumerate(held):
            shapes.append(Shape(x, gy + row * cell_h + at * height, cell_w, height,
                                loc, elems, labels[loc], shared[loc] > len(elems)))
        if len(held) > 1:
            pic.frames.append((x, gy + row * cell_h, cell_w, cell_h))


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
    rich = [_fits(lab[0], FONT, room)[0] for lab, room in zip(labels, rooms)]
    least = [_fits(lab[-1], READABLE, room)[0] for lab, room in zip(labels, rooms)]
    two = _height(2, READABLE)
    if transpose:  # registers down, lanes across
        along = max(max(least), min(max(rich), MAX_WIDTH / lanes))
        lines = 1 if along >= max(rich) else 2
        per_bit = max(max(_height(lines, FONT), two) / min(span), 22 / 32)
        group = _chunk(lanes, along)  # lanes per panel
        panels = -(-lanes // group)
        gx = MARGIN + text_width(f"v{regs - 1}", SMALL + 1) + text_width("[63:32]", SMALL) + 16
        head_h, full = 18.0, bits * per_bit
    else:
        per_bit = max(26 / 32, min(max(n / w for n, w in zip(rich, span)), MAX_WIDTH / bits),
                      max(n / w for n, w in zip(least, span)))
        one_line = all(per_bit * w >= n for n, w in zip(rich, span))
        along = _height(1, FONT) if one_line else max(_height(2, FONT), two)
        group = _chunk(regs, 32 * per_bit)  # registers per panel
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
