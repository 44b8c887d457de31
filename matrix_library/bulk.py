"""Whole layouts in bulk: every element and place of an operand as records, rows, keys,
columns, register grids and slot grids, for the -R and -M answers (layout_answer), the
documents of --format and library callers that want a whole layout at once, without a
record per element where they need none."""
from __future__ import annotations

from _operator import itemgetter  # (operator's C module, loaded with Python)

from instructions.model import Instruction
from instructions.record import Record, short_repr
from layouts.core import Place
from layouts.modifiers import Modifiers

from matrix_library.answers import Layout
from matrix_library.checks import in_range, instruction
from matrix_library.notation import (
    BIT_MASK,
    LANE_SHIFT,
    held_slots,
    keyed_columns,
    register_texts,
    slot_texts,
)
from matrix_library.queries import checked_operand
from matrix_library.records import AT, Element, Entry, Location, Slot, new, register_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from layouts import Operand

    from matrix_library.checks import ModifierValues
    from matrix_library.typed import LayoutRow as Row
    from matrix_library.typed import SlotRow


class KeyedLayout(Record):
    """layout() in bulk, for writers of whole documents (matrix_api.layout_keys): `keyed`
    holds (key, (row, col, block)) for every location of every element of `matrix`, in
    layout()'s order (each element's `copies` locations one after the other), the
    element's row and column as Element.row and .col count them; a key is (lane << 16) +
    bit, bit the location's first bit counted from bit 0 of the operand's first VGPR
    (register * 32 + bit_lo), so that sorted keys are the order of slots(). `slot[bit]`
    is that location's (register, registers, bit_lo, bit_hi, negated, absolute)."""
    matrix: str
    keyed: list[tuple[int, tuple[int, int, int]]]
    slot: Mapping[int, tuple[int, tuple[int, ...], int, int, bool, bool]]
    copies: int

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


class LayoutColumns(Record):
    """KeyedLayout's locations as columns (matrix_api.layout_columns), for writers of whole
    documents that sort or pick them by column without a tuple per location: keys[n] is
    the key of location n (layout()'s order, as in KeyedLayout.keyed), and rows[n],
    cols[n], blocks[n] are its element's row, column and block; `slot` and `copies` as in
    KeyedLayout."""
    matrix: str
    keys: list[int]
    rows: list[int]
    cols: list[int]
    blocks: list[int]
    slot: Mapping[int, tuple[int, tuple[int, ...], int, int, bool, bool]]
    copies: int

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def layout(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
           wave: int | None = None) -> Iterator[Entry]:
    """(element, location) for every element of `matrix` and every location it is read
    from: block by block, then by the M or N index, then K (the -R/-M order)."""
    return entries_of(_columns(checked_operand(inst, matrix, mods, wave)))


def layout_rows(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                wave: int | None = None) -> Iterator[Row]:
    """layout() as flat tuples, one per element location, in the same order: (matrix, i,
    j, k, block, register, registers, lane, bit_lo, bit_hi, negated, absolute), the
    fields of its Element and Location (the rows of --format long-csv and jsonl)."""
    return _rows(checked_operand(inst, matrix, mods, wave))


def _rows(operand: Operand) -> Iterator[Row]:
    return _rows_of(_columns(operand))


def _rows_of(found: LayoutColumns) -> Iterator[Row]:
    named_ = found.matrix
    first, second = AT.get(named_, (1, 2))
    slot = found.slot
    for key, row, col, block in zip(found.keys, found.rows, found.cols, found.blocks):
        ijk: list[int | None] = [None, None, None]
        ijk[first - 1], ijk[second - 1] = row, col
        reg, regs, lo, hi, negated, absolute = slot[key & BIT_MASK]
        yield (named_, ijk[0], ijk[1], ijk[2], block, reg, regs, key >> LANE_SHIFT, lo, hi, negated,
               absolute)


def layout_keys(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                wave: int | None = None) -> KeyedLayout:
    """layout() in bulk, as integer keys (see KeyedLayout): for writers of whole
    documents, which sort or group thousands of locations without a tuple per field."""
    return _keyed_layout(checked_operand(inst, matrix, mods, wave))


def _keyed_layout(operand: Operand) -> KeyedLayout:
    return _keyed_of(_columns(operand))


def _keyed_of(found: LayoutColumns) -> KeyedLayout:
    return new(KeyedLayout, (found.matrix, list(zip(found.keys, zip(
        found.rows, found.cols, found.blocks))), found.slot, found.copies))


def layout_columns(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                   wave: int | None = None) -> LayoutColumns:
    """layout_keys() as columns (see LayoutColumns): the keys of every location, and the
    rows, columns and blocks of their elements, each a list in layout()'s order."""
    return _columns(checked_operand(inst, matrix, mods, wave))


def _columns(operand: Operand) -> LayoutColumns:
    """The operand's LayoutColumns (what layout_keys, layout_rows and slot_rows read)."""
    return new(LayoutColumns, (operand.matrix, *keyed_columns(operand), _SlotFacts(operand),
                               len(operand.layout.copies)))


def register_grid(inst: Instruction, matrix: str, block: int = 0, *,
                  mods: ModifierValues = None, wave: int | None = None
                  ) -> list[list[list[str]]]:
    """One block of layout() in bulk, as the -R table shows it: rows of cells, cell
    [row][col] the texts of the locations element (row, col) of `block` is read from
    (rows and columns as Element.row and .col count them), each marked as the command
    line marks it: -v1{37}.[15:0] for a negated value, |v0{3}| for an absolute one.
    The same locations in the same order as layout()'s entries, without building a
    record per element (for whole tables)."""
    found = checked_operand(inst, matrix, mods, wave)
    in_range("block", block, found.blocks, f"the {found.matrix} matrix")
    return register_texts(found, block)


def slot_grid(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
              wave: int | None = None
              ) -> tuple[list[str], list[tuple[int, list[list[str]]]]]:
    """slots() in bulk, as the -M table shows them: (names, rows). `names` are the
    register slots that hold a value in some lane (v3.[15:0], v[1:0]), in register
    then bit order; `rows` has, for every lane that holds a value, in lane order,
    (lane, cells) with cells[s] the element_text() of the elements slot s holds in
    that lane, marked as the command line marks them (-A[0][1]), or [] for none.
    The same slots and elements as slots(), without building a record per element."""
    found = checked_operand(inst, matrix, mods, wave)
    slots_, rows = slot_texts(found, instruction(inst).blocks)
    return [register_name(Place(reg, 0, lo, width), lane=False)
            for reg, lo, width in slots_], rows


def slots(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
          wave: int | None = None) -> Iterator[Slot]:
    """Every register slot of `matrix` that holds a value, lane by lane, then by
    register and bit, with the elements it holds (the -M view)."""
    return _slots(checked_operand(inst, matrix, mods, wave))


def _slots(operand: Operand) -> Iterator[Slot]:
    return slots_of(_columns(operand))


def entries_of(found: LayoutColumns) -> Iterator[Entry]:
    """layout()'s entries of a layout given in bulk (a Layout answer's `columns`)."""
    return (new(Entry, (new(Element, (matrix_, i, j, k, block)),
                        new(Location, (reg, regs, lane, (lo, hi), negated, absolute))))
            for matrix_, i, j, k, block, reg, regs, lane, lo, hi, negated, absolute
            in _rows_of(found))


def slots_of(found: LayoutColumns) -> Iterator[Slot]:
    """slots() of a layout given in bulk (a Layout answer's `columns`)."""
    for reg, regs, lane, lo, hi, negated, absolute, elems in _slot_rows_of(found):
        yield new(Slot, (new(Location, (reg, regs, lane, (lo, hi), negated, absolute)),
                         tuple([new(Element, elem) for elem in elems])))


_Shape = tuple[int, tuple[int, ...], int, int, bool, bool]


class _SlotFacts(dict[int, _Shape]):
    """{bit: (register, registers, bit_lo, bit_hi, negated, absolute)} of the slot at that
    bit offset of the operand's VGPRs (a key's bit), filled on first use: a document
    walks thousands of locations, and what a slot gives every lane is worked out once
    (a mark depends on the slot's bits only, Operand.mark_of)."""

    def __init__(self, operand: Operand) -> None:
        super().__init__()
        self.mark_of, self.width = operand.mark_of, operand.layout.width

    def __missing__(self, bit: int) -> _Shape:
        place = Place(bit >> 5, 0, bit & 31, self.width)
        mark = self.mark_of(place)
        found = self[bit] = (bit >> 5, place.regs, bit & 31, (bit & 31) + self.width - 1,
                             "-" in mark, "|" in mark)
        return found


def slot_rows(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
              wave: int | None = None) -> Iterator[SlotRow]:
    """slots() as flat tuples, in the same order: (register, registers, lane, bit_lo,
    bit_hi, negated, absolute, elements), the fields of its Location, with `elements` the
    (matrix, i, j, k, block) of its Elements (for writers of whole documents, as
    layout_rows() is for layout())."""
    return _slot_rows(checked_operand(inst, matrix, mods, wave))


def _slot_rows(operand: Operand) -> Iterator[SlotRow]:
    return _slot_rows_of(_columns(operand))


def _slot_rows_of(columns: LayoutColumns) -> Iterator[SlotRow]:
    # (an element's fields are picked by position from (matrix, None, row, col, block),
    # as named() fills them)
    first, second = AT.get(columns.matrix, (1, 2))
    order = [0, 1, 1, 1, 4]
    order[first], order[second] = 2, 3
    spread, head = itemgetter(*order), (columns.matrix, None)
    found = _keyed_of(columns)
    slot = found.slot
    for key, elems in held_slots(found.keyed):
        reg, regs, lo, hi, negated, absolute = slot[key & BIT_MASK]
        yield (reg, regs, key >> LANE_SHIFT, lo, hi, negated, absolute,
               [spread(head + elem) for elem in elems])


def layout_answer(inst: Instruction, matrix: str, mods: Modifiers, wave: int, query: str,
                  document: str = "text") -> Layout:
    """The answer of query mode `query` ("rlayout": -R, "mlayout": -M) on `matrix`,
    checked here once. `document` says which form the layout is given in: "text" (the
    default), its tables (each block's register grid, or the slot grid), which text and
    the table documents of --format draw; "json", in bulk (columns), which JSON, the long
    forms and the pictures read."""
    found = checked_operand(inst, matrix, mods, wave)
    grids = slots_ = columns = None
    if document == "json":
        columns = _columns(found)
    elif query == "rlayout":
        grids = tuple(register_texts(found, b) for b in range(found.blocks))
    else:
        names, rows = slot_texts(found, instruction(inst).blocks)
        slots_ = ([register_name(Place(reg, 0, lo, width), lane=False)
                   for reg, lo, width in names], rows)
    return Layout(inst, found.matrix, found.mods, found.wave, found.register_count, query,
                  found.blocks, grids, slots_, columns, found.inst)
