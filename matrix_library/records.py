"""The records the library answers with, their construction from the engine's
(row, col, block) elements and places, and the notation of one place and one element
(register_name, element_name, marked: v3{17}.[15:0], A[1][2].B4, -v3{17}), as the
reference tool prints them."""


from __future__ import annotations

from instructions.record import Record, short_repr
from layouts import COORDINATES
from layouts.core import Place

TYPE_CHECKING = False
if TYPE_CHECKING:

    from layouts import Operand
    from layouts.core import Elem


class Element(Record):
    """One element of a matrix; the coordinates the matrix does not have are None.
    str() names it like A[5][6], with .B<n> from the second block on; element_text()
    gives the command line's spelling (which shows .B0 too on multi-block MFMAs)."""
    matrix: str
    i: int | None
    j: int | None
    k: int | None
    block: int = 0

    @property
    def row(self) -> int:
        return self._coordinate(0)

    @property
    def col(self) -> int:
        return self._coordinate(1)

    def _coordinate(self, which: int) -> int:
        value = self[AT.get(self.matrix, (1, 2))[which]]
        if not isinstance(value, int):
            from layouts.core import CalcError, shown
            raise CalcError(f"{shown(self, 120)} lacks a coordinate of its matrix "
                            "(element_of makes elements)")
        return value

    def __str__(self) -> str:
        if not isinstance(self[AT.get(self.matrix, (1, 2))[0]], int) or \
                not isinstance(self[AT.get(self.matrix, (1, 2))[1]], int):
            return repr(self)
        text = f"{self.matrix}[{self.row}][{self.col}]"
        return f"{text}.B{self.block}" if self.block else text


class Location(Record):
    """Where a value lives: bits `bits` = (lo, hi) of `lane`, counted from bit 0 of VGPR
    `register` (the operand's first VGPR is 0). `registers` lists every VGPR the value
    touches: two for 64-bit values and for values straddling a VGPR boundary.
    `negated` and `absolute` say whether a modifier negates the value or takes its
    absolute value."""
    register: int
    registers: tuple[int, ...]
    lane: int
    bits: tuple[int, int]
    negated: bool = False
    absolute: bool = False

    @property
    def mark(self) -> str:
        return ("-" if self.negated else "") + ("|" if self.absolute else "")

    @property
    def place(self) -> Place:
        lo, hi = self.bits
        return Place(self.register, self.lane, lo, hi - lo + 1)

    @property
    def text(self) -> str:
        """The calculator's notation, e.g. v1{37}.[15:0] or v[1:0]{5}."""
        lo, hi = self.bits
        return register_name(new(Place, (self.register, self.lane, lo, hi - lo + 1)))

    def __str__(self) -> str:
        return self.text


class Entry(Record):
    """A matrix element and one location holding it."""
    element: Element
    location: Location


class Slot(Record):
    """A register slot (a lane's bit range) and the elements it holds."""
    location: Location
    elements: tuple[Element, ...]


class Product(Record):
    """One term A[i][k] * B[k][j] of an output element: the values the hardware reads."""
    a: Entry
    b: Entry


class Calculation(Record):
    """How D[i][j] is computed: the sum of `products`, plus `c` (None when sparse).
    On CDNA4's v_mfma_scale_*, `scales` holds one Product (SA[i][kb], SB[kb][j]) per
    block kb of 32 K values, scaling that block's products; otherwise it is empty."""
    d: Entry
    products: tuple[Product, ...]
    c: Entry | None
    scales: tuple[Product, ...] = ()

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


# ---- conversions from the engine's (row, col, block) and places

# Positions of the row and column coordinates of each matrix in an Element (matrix, i, j,
# k, block); records are built with tuple.__new__ on the hot paths (a table names
# thousands of elements), skipping the keyword handling of their __new__.
AT = {matrix: tuple(1 + "ijk".index(c) for c in coords)
      for matrix, coords in COORDINATES.items()}
new = tuple.__new__


def named(matrix: str, row: int, col: int, block: int) -> Element:
    values: list[object] = [matrix, None, None, None, block]
    first, second = AT.get(matrix, (1, 2))
    values[first], values[second] = row, col
    return new(Element, values)


def element(operand: Operand, elem: Elem) -> Element:
    return named(operand.matrix, *elem)


def location(operand: Operand, place: Place) -> Location:
    mark = operand.mark_of(place)
    reg, lane, lo, width = place
    return new(Location, (reg, _registers(reg, lo, width), lane, (lo, lo + width - 1),
                          "-" in mark, "|" in mark))


# (reg, lo, width) -> the VGPRs a value touches (Place.regs): the same few slots recur
_REGISTERS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _registers(reg: int, lo: int, width: int) -> tuple[int, ...]:
    found = _REGISTERS.get((reg, lo, width))
    if found is None:
        found = _REGISTERS[reg, lo, width] = Place(reg, 0, lo, width).regs
    return found


def entry(operand: Operand, place: Place, elem: Elem) -> Entry:
    return new(Entry, (element(operand, elem), location(operand, place)))


# ---- the notation of one place and one element, as the reference tool prints them
# (v3{17}.[15:0], A[1][2].B4; whole tables in bulk: matrix_library/notation.py)

def register_name(place: Place, lane: bool = True, whole: bool = False) -> str:
    """`whole`: print the full register even for a sub-dword value (sparse A on CDNA)."""
    reg, at, lo, width = place  # (a Place: unpacked at once, tables name thousands)
    name, bits = slot_parts(reg, lo, width)
    if lane:
        name = f"{name}{{{at}}}"
    return name if whole else name + bits


# (reg, lo, width) -> its text: tables name the same few slots in every lane
_SLOTS: dict[tuple[int, int, int], tuple[str, str]] = {}


def slot_parts(reg: int, lo: int, width: int) -> tuple[str, str]:
    """(register name, bits suffix) of the slot of `width` bits at bit `lo` of VGPR
    `reg`: v3 / v[1:0], and .[15:0] or nothing (a whole register or pair). A place's
    text is the name, its lane in braces, then the suffix: v3{17}.[15:0]."""
    try:
        return _SLOTS[reg, lo, width]
    except KeyError:
        pass
    place = Place(reg, 0, lo, width)
    last = place.regs[-1]
    name = f"v{reg}" if last == reg else f"v[{last}:{reg}]"
    whole = width % 32 == 0 and lo == 0
    parts = _SLOTS[reg, lo, width] = name, "" if whole else f".[{place.hi}:{lo}]"
    return parts


def element_name(matrix: str, elem: Elem, blocks: int) -> str:
    row, col, block = elem
    return f"{matrix}[{row}][{col}].B{block}" if blocks > 1 else f"{matrix}[{row}][{col}]"


# What a negation / absolute-value mark puts before and after a name
_MARKS = {"": ("", ""), "-": ("-", ""), "|": ("|", "|"), "-|": ("-|", "|")}


def mark_parts(mark: str) -> tuple[str, str]:
    """(before, after) a name that `mark` ("", "-", "|" or "-|") decorates."""
    return _MARKS[mark]


def marked(text: str, mark: str) -> str:
    """Decorate a register or element name with a negation / absolute-value mark."""
    before, after = _MARKS[mark]
    return f"{before}{text}{after}"
