"""The element <-> register queries: where an element lives, what a register holds and
how an output element is computed (-g, -m, -o), and the checked operand they and the
whole layouts (matrix_library/bulk.py: -R, -M, the documents) read."""
from __future__ import annotations

from functools import lru_cache

from instructions.model import Instruction
from layouts import COORDINATES, check_modifiers
from layouts import operand as cached_operand
from layouts.core import CalcError
from layouts.modifiers import Modifiers

from matrix_library.answers import Held, Point
from matrix_library.checks import (
    in_range,
    instruction,
    matrices,
    matrix_name,
    modifiers,
    operand,
    shown,
    wave_size,
    whole,
    with_formats,
)
from matrix_library.records import (
    AT,
    Calculation,
    Element,
    Entry,
    Location,
    Product,
    element,
    element_name,
    entry,
    location,
    named,
    new,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from layouts import Operand
    from layouts.core import Elem

    from matrix_library.checks import ModifierValues


def element_of(matrix: str, i: int = 0, j: int = 0, k: int = 0, block: int = 0) -> Element:
    """The element (i, j, k) of `block` names in `matrix` (the coordinates it has), each
    a whole number >= 0 (those the matrix does not have are checked too, and dropped)."""
    name = matrix_name(None, matrix)
    first, second = COORDINATES[name]
    values = {axis: whole(axis, value, axis) for axis, value in (("i", i), ("j", j), ("k", k))}
    return named(name, values[first], values[second], whole("block", block, "block"))


def element_text(inst: Instruction, element: Element) -> str:
    """The element as the command line prints it: blocks shown when there are several."""
    blocks = instruction(inst).blocks
    if type(element) is Element and element[0] in AT:  # (the library's own: checked fast)
        first, second = AT[element[0]]
        row, col, block = element[first], element[second], element[4]
        if type(row) is int and type(col) is int and type(block) is int \
                and row >= 0 and col >= 0 and block >= 0:
            return element_name(element[0], (row, col, block), blocks)
    if not isinstance(element, Element):
        raise CalcError(f"expected an Element (element_of makes one), not {shown(element)}")
    i, j, k = (0 if c is None else c for c in (element.i, element.j, element.k))
    checked = element_of(element.matrix, i, j, k, element.block)
    return element_name(checked.matrix, (checked.row, checked.col, checked.block), blocks)


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


def _reads(operand: Operand, elems: Iterable[Elem]) -> list[Entry]:
    """_read of each element (the K reads of an output element, in one loop)."""
    if operand.remapped:
        return [_read(operand, elem) for elem in elems]
    places = operand.layout.places  # (no remap: the layout's own places)
    return [entry(operand, places(*elem)[0], elem) for elem in elems]


def _calculation(operands: dict[str, Operand], elem: Elem) -> Calculation:
    row, col, block = elem
    a, b, d = operands["A"], operands["B"], operands["D"]
    ks = range(a.inst.k)
    products = tuple(new(Product, pair) for pair in zip(
        _reads(a, [(row, k, block) for k in ks]), _reads(b, [(k, col, block) for k in ks])))
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
                 numbers: dict[str, int], output_calc: bool = False) -> Point | Held:
    """The answer of query mode `query` ("get" or "entry") on `matrix`, checked here once;
    `numbers` holds i, j, k, block, register and lane (whole layouts, "rlayout" and
    "mlayout": matrix_library.bulk.layout_answer)."""
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
    raise CalcError(f"unknown query {shown(query)}: get, entry, rlayout or mlayout")
