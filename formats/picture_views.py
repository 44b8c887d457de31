"""The two views of a layout picture, laid out as cells (formats/pictures.py draws them).

* "register" (-R): the matrix as a grid of panels (formats/picture_register.py), built on
  what is shared here: the cells (Shape), the picture (Picture), the names of locations.
* "matrix" (-M): lanes x registers (formats/picture_matrix.py), built on the same.

Every cell is made large enough for a label of at least READABLE pixels: cells grow,
labels wrap over two or three lines, and wide matrices split into panels.
"""
from __future__ import annotations

from _operator import itemgetter  # (the C module: operator itself loads more)

from amd_matrix_calculator import matrix_api as mc
from amd_matrix_calculator.instructions.record import Record

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
