"""The two views of a layout picture, laid out as cells (formats/pictures.py draws them).

* "register" (-R): the matrix as a grid of panels (formats/picture_register.py), built on
  what is shared here: the cells (Shape), the picture (Picture), the names of locations.
* "matrix" (-M): lanes x registers (formats/picture_matrix.py), built on the same.

Every cell is made large enough for a label of at least READABLE pixels: cells grow,
labels wrap over two or three lines, and wide matrices split into panels.
"""

from __future__ import annotations

from _operator import itemgetter  # (the C module: operator itself loads more)

from instructions.record import Record

from formats.svg import LINE_HEIGHT, Canvas, text_width
from matrix_library import queries
from matrix_library.records import Element, Location, element_name, slot_parts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

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
    location: Location
    elements: tuple[Element, ...]
    labels: list[list[str]]  # label variants, richest first
    shared: bool = False  # the slot feeds other elements too
    # the cell's data: its elements' names, its location's text (marked), VGPRs and bits
    data: tuple[str, str, str, str] = ("", "", "", "")


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

def registers_of(loc: Location) -> str:
    first, last = loc.registers[0], loc.registers[-1]
    return f"v{first}" if first == last else f"v[{last}:{first}]"


def marked(text: str, loc: Location) -> str:
    if loc.absolute:
        text = f"|{text}|"
    return "-" + text if loc.negated else text


# The texts of a slot whatever its lane (a picture has a few slots in many lanes): before
# and after the name (the marks), the name, the bits suffix, the VGPRs, the VGPRs marked,
# the bits.
_SLOTS: dict[tuple[object, ...], tuple[str, str, str, str, str, str, str]] = {}


def slot_texts(loc: Location) -> tuple[str, str, str, str, str, str, str]:
    """A location's texts that do not name its lane, kept per slot (marked(loc.text) is
    before + name + {lane} + suffix + after: loc.text is name{lane}suffix)."""
    key = loc[:2] + loc[3:]  # (register, registers, bits, negated, absolute)
    found = _SLOTS.get(key)
    if found is None:
        lo, hi = loc.bits
        name, suffix = slot_parts(loc.register, lo, hi - lo + 1)
        before, after = marked("\0", loc).split("\0")
        reg = registers_of(loc)
        found = _SLOTS[key] = (before, after, name, suffix, reg, marked(reg, loc), f"{hi}:{lo}")
    return found


def positions(matrix: str) -> itemgetter[tuple[int, int, int]]:
    """(row, column, block) of an Element (matrix, i, j, k, block) of `matrix`: what
    queries.element_text names and Element.row/.col read, without their checks (per cell)."""
    return itemgetter(*fields(matrix), 4)


def namer(matrix: str, blocks: int) -> Callable[[Element], str]:
    """An element's name (as queries.element_text spells it) for the elements of `matrix` of
    an instruction of `blocks` blocks, without its checks (per cell)."""
    place = positions(matrix)

    def name(elem: Element) -> str:
        return element_name(matrix, place(elem), blocks)
    return name


def fields(matrix: str) -> tuple[int, int]:
    """Where an Element of `matrix` holds its row and its column."""
    row, col = (Element._fields.index(name[0]) for name in axis_names(matrix))
    return row, col


def axis_names(matrix: str) -> tuple[str, str]:
    """The coordinate names (i, j, k; kb for block scales) of the matrix's rows and
    columns, read from the library's element naming."""
    probe = queries.element_of(matrix, i=1, j=2, k=3)
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
