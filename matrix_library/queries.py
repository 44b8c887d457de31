"""The element <-> register queries: where an element lives, what a register holds,
whole layouts (as records or in bulk) and how an output element is computed."""
from __future__ import annotations

from _operator import itemgetter  # (operator's C module, loaded with Python)
from functools import lru_cache

from instructions.model import Instruction
from layouts import COORDINATES, check_modifiers
from layouts import operand as cached_operand
from layouts.core import CalcError, Place
from layouts.modifiers import Modifiers

from matrix_library.answers import Held, Layout, Point, QueryAnswer
from matrix_library.checks import (
    element_of,
    in_range,
    instruction,
    matrices,
    modifiers,
    operand,
    shown,
    wave_size,
    with_formats,
)
from matrix_library.notation import (
    BIT_MASK,
    LANE_SHIFT,
    held_slots,
    keyed_columns,
    register_texts,
    slot_texts,
)
from matrix_library.records import (
    AT,
    Calculation,
    Element,
    Entry,
    KeyedLayout,
    LayoutColumns,
    Location,
    Product,
    Slot,
    element,
    entry,
    location,
    new,
    register_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from layouts import Operand
    from layouts.core import Elem

    from matrix_library.checks import ModifierValues
    from matrix_library.typed import LayoutRow as Row
    from matrix_library.typed import SlotRow


def coordinates(operand: Operand, i: int, j: int, k: int, block: int) -> Elem:
    """(row, col, block) of element (i, j, k) of the operand's matrix, range-checked like
    the command line's -g: every coordinate against M, N, K and the block count."""
    inst = operand.inst
    if type(i) is int and type(j) is int and type(k) is int and type(block) is int \
            and 0 <= i < inst.m and 0 <= j < inst.n and 0 <= k < inst.k \
            and 0 <= block < inst.blocks:  # (plain and in range: the matrix's own bounds left)
        first, second = COORDINATES.get(operand.matrix, ("i", "j"))
        plain = {"i": i, "j": j, "k": k}
        row, col = plain[first], plain[second]
        rows, cols, _ = operand.shape
        if row < rows and col < cols:
            return (row, col, block)
    for name, value, limit in (("i", i, inst.m), ("j", j, inst.n), ("k", k, inst.k),
                               ("block", block, inst.blocks)):
        in_range(name, value, limit, inst.mnemonic)
    found = element_of(operand.matrix, i, j, k, block)
    rows, cols, _ = operand.shape
    what = f"the {operand.matrix} matrix"
    first, second = COORDINATES.get(operand.matrix, ("i", "j"))
    in_range(f"{operand.matrix} row {first}", found.row, rows, what, first)
    in_range(f"{operand.matrix} column {second}", found.col, cols, what, second)
    return (found.row, found.col, block)


def checked_operand(inst: Instruction, matrix: str, mods: ModifierValues, wave: int | None,
                    output_calc: bool = False) -> Operand:
    if type(inst) is Instruction and type(matrix) is str and type(mods) is Modifiers \
            and type(wave) is int and type(output_calc) is bool \
            and set(map(type, mods)) == _INT:
        return _plain_operand(inst, matrix, mods, wave, output_calc)
    return operand(inst, matrix, mods=mods, wave=wave, output_calc=output_calc)


_INT = {int}


@lru_cache(maxsize=1024)
def _plain_operand(inst: Instruction, matrix: str, mods: Modifiers, wave: int,
                   output_calc: bool) -> Operand:
    """operand() of plain values (no bool for an int, no subclass), which compare equal
    only where they are the same question: checked once per distinct question."""
    return operand(inst, matrix, mods=mods, wave=wave, output_calc=output_calc)


def locate(inst: Instruction, matrix: str, i: int = 0, j: int = 0, k: int = 0,
           block: int = 0, *, mods: ModifierValues = None, wave: int | None = None,
           output_calc: bool = False) -> list[Location]:
    """Every location the hardware reads element (i, j, k) of `block` of `matrix` from
    (several where a value is replicated over lanes, as RDNA3's A and B are)."""
    found = checked_operand(inst, matrix, mods, wave, output_calc)
    elem = coordinates(found, i, j, k, block)
    return [location(found, p) for p in found.places(*elem)]


def elements_at(inst: Instruction, matrix: str, register: int, lane: int, *,
                mods: ModifierValues = None, wave: int | None = None,
                output_calc: bool = False) -> list[Entry]:
    """(element, location) pairs held by VGPR `register` (counted from the operand's
    first) in `lane`, lowest bits first; every element whose value the hardware reads
    there (a broadcast slot lists several). Empty when nothing is read there."""
    found = checked_operand(inst, matrix, mods, wave, output_calc)
    in_range("register", register, found.register_count, f"the {found.matrix} matrix")
    in_range("lane", lane, found.wave, f"wave{found.wave}")
    return [entry(found, p, e) for p, e in found.entries(register, lane)]


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


def register_count(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                   wave: int | None = None, output_calc: bool = False) -> int:
    """VGPRs the operand occupies (per lane)."""
    return checked_operand(inst, matrix, mods, wave, output_calc).register_count


def calculation(inst: Instruction, i: int = 0, j: int = 0, block: int = 0, *,
                mods: ModifierValues = None, wave: int | None = None) -> Calculation:
    """How D[i][j] of `block` is computed: the A and B values read for each k (after
    CBSZ/ABID and BLGP, which may make the hardware read another element's slot), and C."""
    operands = _calc_operands(inst, mods, wave)
    d = operands["D"]
    elem = coordinates(d, i, j, 0, block)
    return _calculation(operands, elem)


def _calc_operands(inst: Instruction, mods: ModifierValues,
                   wave: int | None) -> dict[str, Operand]:
    inst = instruction(inst)
    mods, wave = modifiers(mods), wave_size(inst, wave)
    if inst.matrices and not {"A", "B", "D"} <= set(inst.matrices):
        raise CalcError(f"{inst.name} has only {' and '.join(inst.matrices)} in registers: "
                        "the output calculation (-o) reads A, B and C registers")
    check_modifiers(inst, "D", mods, True, "get", wave)
    resolved = with_formats(inst, mods)
    return {m: cached_operand(resolved, m, mods, wave) for m in matrices(inst) if m != "K"}


def _read(operand: Operand, elem: Elem) -> Entry:
    """The element whose slot the hardware reads for `elem`, and that (first) slot."""
    return entry(operand, operand.places(*elem)[0], operand.source(elem))


def _calculation(operands: dict[str, Operand], elem: Elem) -> Calculation:
    row, col, block = elem
    a, b, d = operands["A"], operands["B"], operands["D"]
    products = tuple(Product(_read(a, (row, k, block)), _read(b, (k, col, block)))
                     for k in range(a.inst.k))
    c = _read(operands["C"], elem) if "C" in operands else None
    scales: tuple[Product, ...] = ()
    if "SA" in operands:
        sa, sb = operands["SA"], operands["SB"]
        scales = tuple(Product(_read(sa, (row, kb, 0)), _read(sb, (kb, col, 0)))
                       for kb in range(sa.shape[1]))
    return Calculation(entry(d, d.places(*elem)[0], elem), products, c, scales)


def calculations_at(inst: Instruction, register: int, lane: int, *,
                    mods: ModifierValues = None,
                    wave: int | None = None) -> list[Calculation]:
    """The calculation of every D element held by D's VGPR `register` in `lane`."""
    operands = _calc_operands(inst, mods, wave)
    d = operands["D"]
    in_range("register", register, d.register_count, "the D matrix")
    in_range("lane", lane, d.wave, f"wave{d.wave}")
    return [_calculation(operands, elem) for _, elem in d.entries(register, lane)]


# ---- the answers of the query modes (matrix_library.answers), each computed once

def query_answer(inst: Instruction, matrix: str, mods: Modifiers, wave: int, query: str,
                 numbers: dict[str, int], output_calc: bool = False,
                 document: str = "text") -> QueryAnswer:
    """The answer of query mode `query` ("get", "entry", "rlayout" or "mlayout") on
    `matrix`, checked here once; `numbers` holds i, j, k, block, register and lane.
    `document` says which form a layout is given in: "text" (the default), its tables
    (each block's register grid, or the slot grid), which text and the table documents
    of --format draw; "json", in bulk (columns), which JSON, the long forms and the
    pictures read."""
    found = checked_operand(inst, matrix, mods, wave, output_calc)
    mods, wave, count = found.mods, found.wave, found.register_count
    if query == "get":
        i, j, k, block = numbers["i"], numbers["j"], numbers["k"], numbers["block"]
        elem = coordinates(found, i, j, k, block)
        calc = calculation(inst, i, j, block, mods=mods, wave=wave) if output_calc else None
        return Point(inst, found.matrix, mods, wave, count, element(found, elem),
                     tuple(location(found, p) for p in found.places(*elem)), calc)
    if query == "entry":
        register, lane = numbers["register"], numbers["lane"]
        in_range("register", register, count, f"the {found.matrix} matrix")
        in_range("lane", lane, found.wave, f"wave{found.wave}")
        entries = tuple(entry(found, p, e) for p, e in found.entries(register, lane))
        calcs = tuple(calculations_at(inst, register, lane, mods=mods, wave=wave)) \
            if output_calc else ()
        used = () if entries else tuple(n for n in range(found.wave)
                                        if found.entries(register, n))
        return Held(inst, found.matrix, mods, wave, count, register, lane, entries, calcs,
                    bool(found.remapped), found.layout.base_bit, used)
    if query not in ("rlayout", "mlayout"):
        raise CalcError(f"unknown query {shown(query)}: get, entry, rlayout or mlayout")
    grids = slots_ = columns = None
    if document == "json":
        columns = _columns(found)
    elif query == "rlayout":
        grids = tuple(register_texts(found, b) for b in range(found.blocks))
    else:
        names, rows = slot_texts(found, instruction(inst).blocks)
        slots_ = ([register_name(Place(reg, 0, lo, width), lane=False)
                   for reg, lo, width in names], rows)
    return Layout(inst, found.matrix, mods, wave, count, query, found.blocks, grids, slots_,
                  columns, found.inst)
