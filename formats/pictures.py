"""Layout pictures: SVG and HTML drawings of where every element of an operand lives.

Two views, drawn from the library's answer to -R or -M alone (`picture`, `drawn`: a
Layout whose layout is given in bulk, read as its entries or slots; no layout knowledge
here):

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

from _operator import itemgetter  # (the C module: operator itself loads more)
from itertools import chain

from instructions.record import Record, without_gc

from formats import COLOR_KEYS, palette
from formats.html_page import page
from formats.picture_matrix import around_straddlers, matrix_view
from formats.picture_register import register_view
from formats.picture_views import (
    FONT,
    MARGIN,
    READABLE,
    SMALL,
    Picture,
    Shape,
    axis_names,
    fields,
    index_step,
)
from formats.svg import LINE_HEIGHT, Canvas, escape, fit_size, number, text_width
from matrix_library import checks, queries
from matrix_library import request as matrix_request
from matrix_library.answers import Layout
from matrix_library.bulk import entries_of, slots_of
from matrix_library.checks import shown
from matrix_library.records import Element, Location

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from matrix_library.checks import ModifierValues

FORMATS = ("svg", "html")
VIEWS = ("register", "matrix")
DEFAULT_COLOR = {"register": "lane", "matrix": "row"}


def _modifier_text(mods: checks.Modifiers) -> str:
    shown = [f"{name.upper()}={value}" for name, value in mods._asdict().items() if value]
    return ", ".join(shown) if shown else "none"


# ---- colours

class Colouring(Record):
    key: str
    values: int  # how many colours
    on_location: bool  # the value is a field of the location, else of the first element
    pick: itemgetter[int]  # that field

    def value(self, element: Element, loc: Location) -> int:
        return int(self.pick(loc if self.on_location else element))

    def fill(self, element: Element, loc: Location) -> str:
        return palette.fill(self.value(element, loc) % self.values, self.values)


def _colouring(key: str, elements: Iterable[Element], matrix: str, lanes: int,
               registers: int) -> Colouring:
    """What colours a cell: every element of the picture (`elements`) is given a colour
    of `key` (by lane, register, block, row or k)."""
    if key == "lane":
        return Colouring(key, lanes, True, itemgetter(2))
    if key == "register":
        return Colouring(key, registers, True, itemgetter(0))
    if key == "k":
        elements = list(elements)
        if any(e.k is None for e in elements):
            raise checks.CalcError(f"--color-by k needs a matrix indexed by k; {matrix} is not: "
                               "colour it by lane, register, block or row")
    pick = itemgetter({"block": 4, "row": fields(matrix)[0], "k": 3}[key])
    return Colouring(key, 1 + max(map(pick, elements)), False, pick)


# ---- cells, marks and legend

def _draw_shapes(pic: Picture, inst: checks.Instruction, colouring: Colouring) -> None:
    """Every cell: its rectangle (Canvas.cell's markup), its marks, its label (Canvas.lines'
    markup), written here at once: a picture has thousands; then the VGPR borders and the
    frames."""
    canvas, shapes = pic.canvas, pic.shapes
    level, size = _label_level(shapes)
    pic.label_level, pic.label_size = level, size
    pic.label_note = _label_note(shapes, level, inst)
    count, pick, on_location = colouring.values, colouring.pick, colouring.on_location
    fills: dict[int, tuple[str, str]] = {}  # (fill, label ink) of each colour
    parts, shown, drop = canvas.parts, number(size), 0.35 * size
    # The texts of a cell's numbers: x, width and the labels' x per (x, w) - a column of
    # cells shares them -, y, height and the label lines' y per (y, h, lines) - a row
    across: dict[tuple[float, float], tuple[str, str, str]] = {}
    down: dict[tuple[float, float, int], tuple[str, str, list[str]]] = {}
    for shape in shapes:
        x, y, w, h, loc, elems, labels, shared, (names, text, regs, bits) = shape
        colour = pick(loc if on_location else elems[0]) % count
        inks = fills.get(colour)
        if inks is None:
            tone = palette.fill(colour, count)
            inks = fills[colour] = (tone, palette.text_on(tone))
        fill, ink = inks
        lines = labels[min(level, len(labels) - 1)]
        xs = across.get((x, w))
        if xs is None:
            xs = across[x, w] = (number(x), number(w), number(x + w / 2))
        ys = down.get((y, h, len(lines)))
        if ys is None:
            ys = down[y, h, len(lines)] = _rows_of(y, h, len(lines), size, drop)
        shown_e = escape(names)  # (the elements' names, a space apart: a name has none)
        listed = shown_e if len(elems) == 1 else shown_e.replace(" ", ", ")
        text = escape(text)  # (VGPRs and bits: v, digits, [:], nothing to escape)
        parts.append(
            f'<rect class="cell" x="{xs[0]}" y="{ys[0]}" width="{xs[1]}" height="{ys[1]}" '
            f'fill="{fill}" data-e="{shown_e}" data-v="{text}" '
            f'data-lane="{loc[2]}" data-reg="{regs}" data-bits="{bits}">'
            f'<title>{listed} = {text}</title></rect>')
        if loc[4] or loc[5] or shared or len(loc[1]) > 1:  # (negated, absolute, two VGPRs)
            _marks(canvas, shape)
        label_x = xs[2]
        for line, line_y in zip(lines, ys[2]):
            parts.append(
                f'<text class="l" x="{label_x}" y="{line_y}" font-size="{shown}" fill="{ink}" '
                f'text-anchor="middle">{escape(line)}</text>')
    for x1, y1, x2, y2 in around_straddlers(pic.borders, pic.shapes):  # VGPR borders,
        canvas.line(x1, y1, x2, y2, palette.INK, 1.6, {"class": "border"})  # over the cells
    for x, y, w, h in pic.frames:  # the copies of one element (and panels), framed
        canvas.rect(x, y, w, h, "none", {"class": "mark", "stroke": palette.INK,
                                         "stroke-width": 1.4})


def _rows_of(y: float, h: float, lines: int, size: float, drop: float
             ) -> tuple[str, str, list[str]]:
    """The texts of y, h and the y of each of `lines` label lines of `size` of a cell."""
    top = y + h / 2 - (lines - 1) * LINE_HEIGHT * size / 2 + drop
    return number(y), number(h), [number(top + at * LINE_HEIGHT * size) for at in range(lines)]


def _label_note(shapes: list[Shape], level: int, inst: checks.Instruction) -> str:
    """How to read the labels, from the first cell, where they leave something out (the
    matrix letter of an element, or a location's separators)."""
    if not shapes:
        return ""
    shape = shapes[0]
    lines = shape.labels[min(level, len(shape.labels) - 1)]
    full = " ".join(queries.element_text(inst, e) for e in shape.elements)
    text = shape.data[1]
    joined = "".join(lines).replace(".", "")
    if joined in (text.replace(".", ""), full.replace(" ", "")):
        return ""
    return f"label {' over '.join(lines)!r} is {full} in {text}"


def _label_level(shapes: list[Shape]) -> tuple[int, float]:
    """(variant, font size) of the labels: one variant and one size for every cell of
    the picture, the richest that reads at READABLE size or larger (the views make
    every cell large enough for its last variant at that size)."""
    if not shapes:
        return 0, FONT
    # A label's size falls with its longest line and with its number of lines, so the
    # smallest size of a level among cells of one size and mark room is that of their
    # longest line and their most lines (a cell without a line gets no label: size 0).
    alike = _alike(shapes)
    levels = max(max(map(len, group)) for group in alike.values())
    best = (levels - 1, READABLE)
    for level in range(levels):  # (each level measured only if the richer ones do not fit)
        worst = [(key, _worst(group, level)) for key, group in alike.items()]
        size = min(fit_size(*found, w, h, FONT, room) if found[1] else 0.0
                   for (w, h, room), found in worst)
        if size >= READABLE:
            return level, size
        if level == levels - 1 and size:
            best = (level, size)
    return best


def _alike(shapes: list[Shape]) -> dict[tuple[float, float, float], list[list[list[str]]]]:
    """The cells' label variants per (width, height, mark room) of a cell."""
    sizes = set(zip(map(itemgetter(2), shapes), map(itemgetter(3), shapes)))
    locations = list(map(itemgetter(4), shapes))
    if len(sizes) == 1 and not any(map(itemgetter(7), shapes)) and \
            not any(map(itemgetter(5), locations)) and \
            max(map(len, map(itemgetter(1), locations))) == 1:  # (one size, no marks)
        w, h = sizes.pop()
        return {(w, h, 0.0): list(map(itemgetter(6), shapes))}
    alike: dict[tuple[float, float, float], list[list[list[str]]]] = {}
    for shape in shapes:
        _, _, w, h, loc, _, labels, shared, _ = shape  # (unpacked: thousands of cells)
        room = _mark_room(shape) if shared or loc[5] or len(loc[1]) > 1 else 0.0
        group = alike.get((w, h, room))
        if group is None:
            alike[w, h, room] = [labels]
        else:
            group.append(labels)
    return alike


def _worst(group: list[list[list[str]]], level: int) -> tuple[int, int]:
    """(the longest line, the most lines) of label variant `level` (or the last one) of
    the cells of `group`; (0, 0) where one of them has no line."""
    if min(map(len, group)) > level:
        variant = list(map(itemgetter(level), group))
    else:
        variant = [labels[min(level, len(labels) - 1)] for labels in group]
    if not min(map(len, variant)):
        return 0, 0
    return max(map(len, chain.from_iterable(variant))), max(map(len, variant))


def _notch(shape: Shape) -> float:
    return min(shape.w, shape.h, 26.0) * 0.3  # at most 7.8 px: within the views' mark room


def _dot(shape: Shape) -> float:
    return max(1.5, min(shape.w, shape.h, 26.0) * 0.1)  # at most 2.6 px


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
    canvas, count = pic.canvas, colouring.values
    canvas.text(MARGIN, top + 8, f"colour: {colouring.key} (0 to {count - 1})", SMALL + 1,
                palette.INK, "start", {"font-weight": "bold"})
    size = max(4.0, min(18.0, (max(pic.width, 720.0) - 180) / count))
    left = MARGIN + 150
    step = index_step(count, size, SMALL)
    for value in range(count):
        fill = palette.fill(value, count)
        canvas.rect(left + value * size, top, size, 14, fill, {"class": "swatch"})
        if value % step == 0:
            canvas.text(left + (value + 0.5) * size, top + 22, str(value), SMALL,
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
        base = Location(0, (0, 1) if loc_change.get("two") else (0,), 0, (0, 31),
                           bool(loc_change.get("neg")), bool(loc_change.get("abs")))
        _marks(canvas, Shape(x, y, 14, 14, base, (), [], bool(loc_change.get("shared"))))
    return draw


def _notes(pic: Picture, view: str) -> list[tuple[Callable[[Canvas, float, float], None], str]]:
    shapes = pic.shapes
    locations = list(map(itemgetter(4), shapes))  # (C-level passes: thousands of cells)
    shared = any(map(itemgetter(7), shapes))
    notes: list[tuple[Callable[[Canvas, float, float], None], str]] = []
    if any(map(itemgetter(4), locations)):
        notes.append((_sample({"neg": True}), "negated by a modifier"))
    if any(map(itemgetter(5), locations)):
        notes.append((_sample({"abs": True}), "absolute value taken"))
    if locations and max(map(len, map(itemgetter(1), locations))) > 1:
        notes.append((_sample({"two": True}), "value spans two VGPRs"))
    if shared:
        notes.append((_sample({"shared": True}), "one slot read for several elements"))
    if view == "register" and _split(shapes):
        notes.append((_sample({}), "split cell: one element read from several lanes"))
    if pic.grouped:
        notes.append((_no_sample, "Blocks a, b, ...: blocks read from the same registers"))
    if pic.empty:
        notes.append((_empty_sample, "grey: no value"))
    if pic.label_note:
        notes.append((_no_sample, pic.label_note))
    if view == "matrix" and shared:
        notes.append((_no_sample, "+n: more elements read from the slot"))
    return notes


def _split(shapes: list[Shape]) -> bool:
    """Whether an element is drawn in several cells (read from several lanes)."""
    return len(set(map(itemgetter(0), map(itemgetter(5), shapes)))) < len(shapes)


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


def render(fmt: str, inst: checks.Instruction, matrix: str, mods: ModifierValues,
           wave: int | None, view: str, transpose: bool = False,
           color_by: str | None = None) -> str:
    """The picture of `matrix` of `inst` as an SVG document (fmt "svg") or an HTML page
    (fmt "html"); `view` is "register" (-R) or "matrix" (-M): picture() of the
    library's answer to that question, asked here once."""
    _known(fmt)
    return _document(fmt, *draw(inst, matrix, mods, wave, view, transpose, color_by))


def picture(fmt: str, found: Layout, transpose: bool = False,
            color_by: str | None = None) -> str:
    """The picture of a -R or -M answer whose layout is given in bulk (Layout.columns:
    the option ("document", "json")) as an SVG document or an HTML page."""
    _known(fmt)
    return _document(fmt, *drawn(found, transpose, color_by))


def _known(fmt: str) -> None:
    if fmt not in FORMATS:
        raise checks.CalcError(f"unknown picture format {shown(fmt)}; use "
                               f"{' or '.join(FORMATS)}")


@without_gc  # (thousands of cells' records and texts, none in a cycle)
def _document(fmt: str, pic: Picture, title: tuple[str, str]) -> str:
    svg = pic.canvas.document(pic.width, pic.height, " ".join(title), STYLE, DEFS,
                              standalone=fmt == "svg")
    return svg if fmt == "svg" else page(" ".join(title), svg)


def _colour_key(view: str, color_by: str | None) -> str:
    if view not in VIEWS:
        raise checks.CalcError(f"unknown picture view {shown(view)}; use "
                               f"{' or '.join(VIEWS)}")
    key = color_by or DEFAULT_COLOR[view]
    if key not in COLOR_KEYS:
        raise checks.CalcError(f"unknown colouring {shown(color_by)}; colour by "
                               f"{', '.join(COLOR_KEYS)}")
    return key


def draw(inst: checks.Instruction, matrix: str, mods: ModifierValues, wave: int | None,
         view: str, transpose: bool = False, color_by: str | None = None,
         measure: bool = False) -> tuple[Picture, tuple[str, str]]:
    """drawn() of the library's answer to -R (`view` "register") or -M ("matrix") of
    `matrix` of `inst`, asked here once."""
    _colour_key(view, color_by)
    query = "rlayout" if view == "register" else "mlayout"
    found = matrix_request.answer(matrix_request.Request(
        "query", inst=inst, matrix=matrix, mods=mods, wave=wave or 0,  # type: ignore[arg-type]
        options=(("query", query), ("document", "json"))))
    assert isinstance(found, Layout)  # (the answer of a layout query)
    return drawn(found, transpose, color_by, measure)


@without_gc
def drawn(found: Layout, transpose: bool = False, color_by: str | None = None,
          measure: bool = False) -> tuple[Picture, tuple[str, str]]:
    """The drawn picture of a -R or -M answer (its cells, with their label size) and its
    title; `measure`: lay out the cells and size their labels only, drawing nothing (for
    the tests)."""
    view = "register" if found.query == "rlayout" else "matrix"
    key = _colour_key(view, color_by)
    columns = found.columns
    if columns is None:
        raise checks.CalcError("a picture draws a layout given in bulk: ask for it with the "
                           "option (\"document\", \"json\")")
    if view == "register":  # (every element and each location it is read from)
        entries = list(entries_of(columns))
        elements: Iterator[Element] = map(itemgetter(0), entries)
    else:  # (every slot and the elements read from it)
        slots = list(slots_of(columns))
        elements = chain.from_iterable(map(itemgetter(1), slots))
    first = next(elements, None)
    if first is None:
        raise checks.CalcError(f"the {found.matrix} matrix of {found.inst.name} holds no value "
                           "to draw")
    matrix, mods, lanes, registers = first.matrix, found.mods, found.wave, found.register_count
    colouring = _colouring(key, chain((first,), elements), matrix, lanes, registers)
    resolved = found.resolved
    pic = Picture()
    title = _title(resolved, matrix, mods, lanes, view)
    pic.canvas.text(MARGIN, 16, title[0], 15, palette.INK, "start", {"font-weight": "bold"})
    pic.canvas.text(MARGIN, 36, title[1], SMALL + 1, palette.INK, "start")
    top = 58.0
    if view == "register":
        register_view(pic, matrix, resolved.blocks, entries, transpose, top)
    else:
        matrix_view(pic, resolved, slots, lanes, registers, transpose, top)
    if measure:
        pic.label_level, pic.label_size = _label_level(pic.shapes)
        return pic, title
    _draw_shapes(pic, resolved, colouring)
    _legend(pic, colouring, pic.height + 20, view)
    pic.width = max(pic.width, text_width(title[0], 15) + 2 * MARGIN,
                    text_width(title[1], SMALL + 1) + 2 * MARGIN)
    pic.height += MARGIN
    return pic, title


def _title(inst: checks.Instruction, matrix: str, mods: checks.Modifiers, lanes: int,
           view: str) -> tuple[str, str]:
    what = "register layout (-R)" if view == "register" else "matrix layout (-M)"
    first, second = axis_names(matrix)
    axes = (f"rows {first}, columns {second}" if view == "register"
            else "rows: lanes, columns: VGPRs (bits)")
    types = f"A {inst.a_type.label}, B {inst.b_type.label}"  # (as -d names them: facts())
    blocks = f", {inst.blocks} blocks" if inst.blocks > 1 else ""
    shape = f"{inst.m}x{inst.n}x{inst.k}{blocks}"
    return (f"{checks.architecture_of(inst).name} {inst.name}: {matrix} matrix, {what}",
            f"{shape}, {types}; wave{lanes}; modifiers: {_modifier_text(mods)}; {axes}")
