"""An operand's layout as one value (layouts/algebra.py): the map (row, col, block,
copy) -> (lane, slot) from each element of the matrix, with its copy number, to the lane
and value slot the hardware reads it from, modifiers composed in.

The slots of a lane number its values in (VGPR, bit) order: slot s is bit s * unit of
the operand's registers, counted from bit 0 of its first VGPR, where `unit` is the
greatest common divisor of the value's width and its bit strides (the value's width
but for sparse groups and straddling values). The value is composed of

    lanes . shift . base . blocks

`base` the family generator's digits (layouts/core.py) with no bit offset; `shift` the
bit offset a modifier selects (OPSEL's half of a 16-bit C/D, an index set, a scale
byte) as a move of the slot; `lanes` BLGP's lane pattern of B (the lane each lane's
value is read from) and `blocks` CBSZ/ABID's broadcast of A's blocks, the maps of
layouts/modifiers.py. RDNA's NEG/NEG_HI and FP64's BLGP negate values and move none,
so they are marks (Operand.mark_of), not maps. The right inverse of the value, (lane,
slot) -> element, is what a lane holds; the planners compose one operand's value with
another's inverse (matrix_plans/convert). The value keeps its parts (OperandValue), and
the engine's other readings are functions of it: the Fragment (layouts/fragment.py), the
linear-layout bases (layouts/linear.py, through `stored` for sparse operands) and the
mapping formulas (layouts/formulas.py).
"""

from __future__ import annotations

from functools import lru_cache, reduce
from math import gcd

from instructions.record import Record

from layouts import Operand
from layouts.algebra import LayoutMap, on_axis, permuted, shifted
from layouts.core import BIT, BLOCK, COL, NONE, ROW, Factor, Place, copy_offsets


class OperandValue(Record):
    """An operand's layout value: `map` (row, col, block, copy) -> (lane, slot); a
    slot is `unit` bits, a value `width` bits from its slot's first bit. Its parts, as
    CuTe's composed layouts keep theirs: `modes` the base's digits as the generator
    factors them (its shape:stride, in the generator's order, layouts/core.py's
    Factors), `shift` the bit offset of slot 0 (OPSEL's half, an index set, a scale
    byte), `base_lane` the first lane of a layout in the upper lanes, and the modifier
    maps composed with them, `lane_map` after (BLGP) and `block_map` before (CBSZ/ABID)."""
    map: LayoutMap
    unit: int
    width: int
    modes: tuple[Factor, ...] = ()
    shift: int = 0
    base_lane: int = 0
    lane_map: LayoutMap | None = None
    block_map: LayoutMap | None = None

    def __repr__(self) -> str:  # (its map in one short line: _asdict() has it whole)
        return f"OperandValue(map={self.map!r}, unit={self.unit}, width={self.width})"

    def place(self, index: int) -> Place:
        """The Place of flat codomain index `index` (lane * slots + slot)."""
        lane, slot = divmod(index, self.map.codomain[1])
        bit = slot * self.unit
        return Place(bit >> 5, lane, bit & 31, self.width)

    def places(self, row: int, col: int, block: int = 0) -> list[Place]:
        """The element's places, one per copy (Operand.places)."""
        rows, cols, blocks, copies = self.map.domain
        start = ((row * cols + col) * blocks + block) * copies
        return [self.place(y) for y in self.map.table[start:start + copies]]

    def slots(self) -> tuple[tuple[int, int, int, int], ...]:
        """(lane, register, lo, width) of every flat codomain index (made once per shape)."""
        (lanes, slots), unit, width = self.map.codomain, self.unit, self.width
        return _slots(lanes, slots, unit, width)

    def copies(self, transposed: bool = False) -> tuple[tuple[tuple[int, int, int, int], ...],
                                                         ...]:
        """The projection element -> places of block 0 (row-major; `transposed`: of the
        transpose, the value composed after the swap of rows and columns), each place
        as slots() gives it."""
        smap = self.map
        if transposed:  # element (i, j) sits where the layout has (j, i)
            rows, cols, blocks, copies = smap.domain
            smap = smap.compose(permuted((cols, rows, blocks, copies), (1, 0, 2, 3)))
        rows, cols, blocks, copies = smap.domain
        table, slots, step = smap.table, self.slots(), blocks * copies
        return tuple(tuple(map(slots.__getitem__, table[at:at + copies]))
                     for at in range(0, rows * cols * step, step))

    def held(self) -> dict[Place, tuple[int, int, int]]:
        """The projection place -> element: each place with the first element it holds
        (the right inverse: sparse groups share a place, broadcasts share an element)."""
        rows, cols, blocks, copies = self.map.domain
        inverse = self.map.inverse().table
        out = {}
        for y, x in enumerate(inverse):
            if x >= 0:
                rest, _ = divmod(x, copies)
                rest, block = divmod(rest, blocks)
                out[self.place(y)] = (*divmod(rest, cols), block)
        return out

    def copy_offsets(self) -> list[int]:
        """The lane offsets of the copies of each value ([0]: one place), from its modes."""
        return copy_offsets(self.modes)


@lru_cache(maxsize=64)
def _slots(lanes: int, slots: int, unit: int, width: int
           ) -> tuple[tuple[int, int, int, int], ...]:
    return tuple((lane, bit >> 5, bit & 31, width) for lane in range(lanes)
                 for bit in range(0, slots * unit, unit))


def stored(held: OperandValue, bits: int) -> OperandValue:
    """The value over the matrix as memory holds it, elements of `bits` bits: a sparse
    operand's group of K values that share a slot (a NONE mode of size g, its
    coordinate's lowest) is the `width / bits` values the slot holds (sparse A: M x
    K/2, the indices: M x K/4), value s of the slot `s * bits` bits above its first
    bit (layouts/fragment.py reads the same digit); other values are themselves."""
    group = next((f for f in held.modes if f.dest == NONE), None)
    if group is None:
        return held
    sub, axis, unit = held.width // bits, (ROW, COL, BLOCK).index(group.coord), gcd(held.unit, bits)
    domain = list(held.map.domain)
    domain[axis] = domain[axis] * sub // group.size
    lanes, slots = held.map.codomain
    scale = held.unit // unit

    def at(x: tuple[int, ...]) -> tuple[int, int] | None:
        found = held.map(x[:axis] + (x[axis] // sub * group.size,) + x[axis + 1:])
        if found is None:
            return None
        return found[0], found[1] * scale + x[axis] % sub * bits // unit

    return held._replace(map=LayoutMap.of(tuple(domain), (lanes, slots * scale), at),
                         unit=unit, width=bits)


@lru_cache(maxsize=512)  # (as many as layouts.operand keeps)
def value(operand: Operand) -> OperandValue:
    """The operand's layout value (made once per operand)."""
    return _value(operand)


def _value(operand: Operand) -> OperandValue:
    layout = operand.layout
    rows, cols, blocks = layout.shape
    copies = layout.copies
    strides = [f.stride for f in layout.factors if f.dest == BIT and f.size > 1]
    unit = reduce(gcd, strides, gcd(layout.width, layout.base_bit))
    slots = -(-32 * operand.register_count // unit)
    domain, codomain = (rows, cols, blocks, len(copies)), (operand.wave, slots)
    row_offsets, col_offsets, _ = layout.block_offsets(0)
    # each coordinate's offsets as flat (lane, slot) steps, added: unit divides every bit
    # offset but the base bit, which the shift below adds
    rows_at = [lane * slots + (bit - layout.base_bit) // unit for lane, bit in row_offsets]
    cols_at = [lane * slots + bit // unit for lane, bit in col_offsets]
    blocks_at = [lane * slots + bit // unit
                 for lane, bit in (layout.block_offsets(b)[2] for b in range(blocks))]
    steps = [c * slots for c in copies]
    inner = [b + c for b in blocks_at for c in steps]
    table = [r + c + x for r in rows_at for c in cols_at for x in inner]
    made = LayoutMap(domain, codomain, tuple(table))
    if layout.base_bit:
        made = shifted(codomain, 1, layout.base_bit // unit).compose(made)
    if operand.lane_map is not None:
        made = on_axis(codomain, 0, operand.lane_map.table.__getitem__).compose(made)
    if operand.block_map is not None:
        made = made.compose(on_axis(domain, 2, operand.block_map.table.__getitem__))
    return OperandValue(made, unit, layout.width, layout.factors, layout.base_bit,
                        int(getattr(layout, "base_lane", 0)), operand.lane_map,
                        operand.block_map)
