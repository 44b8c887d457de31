"""Mixed-radix layouts: matrix coordinates -> (lane, bit offset) and back.

A layout splits each coordinate of an element (row, col, block) into digits, least
significant first, and sends every digit to a lane offset or a bit offset inside the
lane's register tuple (a 'none' digit is dropped: several elements share the slot,
as the four K values of a sparse group do). A 'copy' digit replicates the element
over several lanes. Register numbers follow from bit offsets (bit // 32), so packed
formats of any width, register pairs and values straddling two VGPRs need no special
cases. Both directions derive from this one forward map; the inverse is built by
enumeration (the largest operand has a few thousand elements).
"""

from __future__ import annotations

from functools import cached_property
from itertools import product

from instructions.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

# An element of a matrix in the engine's coordinates: (row, col, block).
Elem = tuple[int, int, int]
Offsets = tuple[int, int]  # (lane, bit)

ROW, COL, BLOCK, COPY = "row", "col", "block", "copy"
LANE, BIT, NONE = "lane", "bit", "none"


# Records are named tuples (instructions.record.Record, typing.NamedTuple to a type
# checker) rather than dataclasses: a point query then needs neither the dataclasses
# module (which imports inspect) nor typing at start-up.

class Factor(Record):
    """One digit of a coordinate: coord is ROW, COL, BLOCK or COPY; size the values of the
    digit; dest LANE, BIT or NONE; stride the lanes or bits per unit of the digit."""
    coord: str
    size: int
    dest: str
    stride: int


def copy_offsets(factors: Iterable[Factor]) -> list[int]:
    """The lane offsets of the copies of every value of a layout's digits ([0]: one)."""
    copies = [0]
    for f in factors:
        if f.coord == COPY:
            copies = [c + d * f.stride for c in copies for d in range(f.size)]
    return copies


class Place(Record):
    """Where one value lives: bits [lo, lo+width) of a lane's registers, from VGPR `reg`."""
    reg: int
    lane: int
    lo: int
    width: int

    @property
    def hi(self) -> int:
        return self.lo + self.width - 1

    @property
    def regs(self) -> tuple[int, ...]:
        """The VGPRs touched, first to last (two for 64-bit values and straddlers)."""
        return tuple(range(self.reg, self.reg + (self.lo + self.width + 31) // 32))


_new = tuple.__new__  # builds a Place without calling its Python-level __new__


class Layout:
    """(row, col, block) -> places; `shape` is (rows, cols, blocks); `base_bit` is added
    to every bit offset (index-set selection)."""

    def __init__(self, shape: tuple[int, int, int], width: int, factors: Iterable[Factor],
                 base_bit: int = 0) -> None:
        self.shape, self.width, self.base_bit = shape, width, base_bit
        self.factors = tuple(factors)
        for coord, extent in zip((ROW, COL, BLOCK), self.shape):
            covered = 1
            for f in self.factors:
                covered *= f.size if f.coord == coord else 1
            if covered != extent:
                raise ValueError(f"{coord} digits cover {covered} values, shape says {extent}")

    def _offsets(self, coord: str) -> tuple[Offsets, ...]:
        """The (lane, bit) offsets of every value of one coordinate (as many as the shape
        says: __init__ checks it), in order: the contributions of its digits, lowest
        first, each added to those of the digits below it."""
        offsets = [(0, 0)]
        for f in self.factors:
            if f.coord != coord:
                continue
            lane = f.stride if f.dest == LANE else 0
            bit = f.stride if f.dest == BIT else 0
            offsets = [(low + digit * lane, bits + digit * bit) for digit in range(f.size)
                       for low, bits in offsets]
        return tuple(offsets)

    @cached_property
    def _tables(self) -> tuple[tuple[Offsets, ...], ...]:
        """Per coordinate, the offsets of each of its values: places() then only adds."""
        return tuple(self._offsets(coord) for coord in (ROW, COL, BLOCK))

    @cached_property
    def _copies(self) -> list[int]:
        return copy_offsets(self.factors)

    @cached_property
    def _single(self) -> bool:
        return self._copies == [0]

    def places(self, row: int, col: int, block: int = 0) -> list[Place]:
        rows, cols, blocks = self._tables
        (lr, br), (lc, bc), (lb, bb) = rows[row], cols[col], blocks[block]
        return self._at(lr + lc + lb, br + bc + bb + self.base_bit)

    def _at(self, lane: int, bit: int) -> list[Place]:
        """The places of a value at lane and bit offset (one per copy)."""
        if self._single:
            return [_new(Place, (bit >> 5, lane, bit & 31, self.width))]
        return [_new(Place, (bit >> 5, lane + c, bit & 31, self.width)) for c in self._copies]

    def block_places(self, block: int = 0) -> list[list[list[Place]]]:
        """places() of every element of one block as rows of cells: the same sums,
        without a call per element (for whole tables)."""
        rows, cols, blocks = self._tables
        lb, bb = blocks[block]
        at, bb = self._at, bb + self.base_bit
        if self._single:  # _at() inlined: one place per element
            width = self.width
            return [[[_new(Place, ((bit := b + bc) >> 5, lane + lc, bit & 31, width))]
                     for lc, bc in cols]
                    for lane, b in ((lr + lb, br + bb) for lr, br in rows)]
        return [[at(lr + lc + lb, br + bc + bb) for lc, bc in cols] for lr, br in rows]

    def block_offsets(self, block: int = 0) -> tuple[tuple[Offsets, ...],
                                                     tuple[Offsets, ...], Offsets]:
        """(row offsets, column offsets, block offset) of one block: element (r, c) sits
        at lane rows[r][0] + cols[c][0] + lane0 (plus each of `copies`) and bit offset
        rows[r][1] + cols[c][1] + bit0, where (lane0, bit0) is the block offset with
        base_bit included: the sums places() makes, for callers that walk whole
        blocks without a Place per element."""
        rows, cols, blocks = self._tables
        lb, bb = blocks[block]
        return rows, cols, (lb, bb + self.base_bit)

    def bit_span(self) -> tuple[int, int]:
        """(lowest, highest) bit that any value occupies, counted from bit 0 of the
        operand's first VGPR: the sums places() makes, at their extremes."""
        low = high = self.base_bit
        for table in self._tables:
            bits = [bit for _, bit in table]
            low, high = low + min(bits), high + max(bits)
        return low, high + self.width - 1

    @property
    def copies(self) -> list[int]:
        """Lane offsets of the copies of every value ([0]: a single place)."""
        return self._copies

    def places_in_lane(self, lane: int) -> Iterator[tuple[Elem, Place]]:
        """(element, place) of every value held in `lane`, block-major then row-major:
        the same sums as places(), without visiting the elements of the other lanes
        (the columns are found by their lane offset)."""
        (rows, cols, blocks), copies = self._tables, self._copies
        by_lane: dict[int, list[tuple[int, int]]] = {}
        for c, (lc, bc) in enumerate(cols):
            by_lane.setdefault(lc, []).append((c, bc))
        for b, (lb, bb) in enumerate(blocks):
            for r, (lr, br) in enumerate(rows):
                found = [(c, bc) for copy in copies
                         for c, bc in by_lane.get(lane - lr - lb - copy, ())]
                if len(copies) > 1:  # (a column's copies sit in distinct lanes: one matches)
                    found.sort()
                for c, bc in found:
                    bit = br + bc + bb + self.base_bit
                    yield (r, c, b), Place(bit // 32, lane, bit % 32, self.width)

    def elements(self) -> Iterator[Elem]:
        """Every element, block-major then row-major."""
        rows, cols, blocks = self.shape
        for b, r, c in product(range(blocks), range(rows), range(cols)):
            yield (r, c, b)

    @cached_property
    def register_count(self) -> int:
        """VGPRs spanned: the digits are independent, so the highest bit offset is the
        one with every bit digit at its largest value."""
        top = self.base_bit + sum((f.size - 1) * f.stride for f in self.factors if f.dest == BIT)
        return (top + self.width + 31) // 32


class CalcError(ValueError):
    """A request the calculator cannot answer; the message says why and what is allowed.
    `argument` names the argument at fault when it is one of the query's numbers (i, j,
    k, block, register, lane, wave), so that the command line can name its option."""

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


def shown(value: object, limit: int = 60, *, quote: bool = True) -> str:
    """`value` for a CalcError's message: repr() (or the text itself when not `quote`),
    with control characters escaped (a message never writes raw terminal control bytes)
    and cut to about `limit` characters (a caller's value of megabytes comes back as its
    start)."""
    if isinstance(value, int) and value.bit_length() > 192:
        text = f"a number of {value.bit_length()} bits"  # (repr may refuse such a number)
    elif isinstance(value, str) and not quote:
        text = value
    else:
        try:
            text = repr(value)
        except Exception:  # (a caller's object whose repr fails)
            text = f"a {type(value).__name__}"
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."
