"""The calculator as a library: find instructions, read their facts, and map matrix
elements to registers and back with the layout engine the command line uses.

    >>> import matrix_api as mc
    >>> inst = mc.find_instruction("mi300x", "V_MFMA_F32_32X32X8_F16")
    >>> [str(loc) for loc in mc.locate(inst, "A", i=5, k=6)]
    ['v1{37}.[15:0]']

Elements are named by the coordinates of the product D = A x B + C: A[i][k], B[k][j],
C and D[i][j], the compression indices of a sparse instruction K[i][k], and the block
scales of CDNA4's v_mfma_scale_* SA[i][k] and SB[k][j] (there k counts blocks of 32 K
values). A location is a lane and a bit range of the operand's registers, counted from
its first VGPR (v0). Every function checks its arguments and raises CalcError (a
ValueError) whose message says what is allowed.
"""
from __future__ import annotations

from _operator import itemgetter  # (operator's C module, loaded with Python)

import instructions as _registry
from instructions import ARCHITECTURES, Architecture
from instructions.model import Instruction
from instructions.record import TYPE_CHECKING, Record
from layouts import (
    COORDINATES,
    MATRICES,
    Modifiers,
    Operand,
    check_matrix,
    check_modifiers,
    family_facts,
)
from layouts import operand as _cached_operand
from layouts.core import CalcError, Elem, Place
from matrix_notation import element as _element_name
from matrix_notation import register as _register_name
from matrix_notation import register_texts, slot_texts

if TYPE_CHECKING:  # (typing is not imported at run time: point queries start faster)
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import Any

    from instructions.types import DataType
    ModifierValues = Modifiers | Mapping[str, int] | None

__all__ = ["Architecture", "CalcError", "Calculation", "Element", "Entry", "FILTERS",
           "Instruction", "Location", "Modifiers", "Product", "Slot", "architecture_of",
           "architectures", "calculation", "calculations_at", "catalog", "element_of",
           "element_text", "elements_at", "facts", "find_architecture", "find_instruction",
           "formulas", "instructions", "layout", "layout_rows", "locate", "matrices", "modifiers",
           "parse_filters", "register_count", "register_grid", "slot_grid", "slots",
           "supported_modifiers", "with_formats"]


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
        value = self[_AT.get(self.matrix, (1, 2))[0]]
        assert isinstance(value, int)
        return value

    @property
    def col(self) -> int:
        value = self[_AT.get(self.matrix, (1, 2))[1]]
        assert isinstance(value, int)
        return value

    def __str__(self) -> str:
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
        return _register_name(self.place)

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


# ---- architectures and instructions

def architectures() -> tuple[Architecture, ...]:
    """Every supported architecture, including ones the reference tool lacks (CDNA4)."""
    return ARCHITECTURES


def _names() -> str:
    return ", ".join(a.name.lower() for a in ARCHITECTURES)


def find_architecture(name: str | Architecture) -> Architecture:
    """The architecture called `name`: its name or a gfx/product alias, in any case."""
    if isinstance(name, Architecture):
        return name
    if not isinstance(name, str):
        raise CalcError(f"an architecture is named by a string, not {name!r}; choose one "
                        f"of {_names()}")
    arch = _registry.find_architecture(name)
    if arch is None:
        raise CalcError(f"unknown architecture {name!r}; choose one of {_names()} "
                        "(or one of their gfx/product aliases)")
    return arch


def find_instruction(arch: str | Architecture, mnemonic: str) -> Instruction:
    """The instruction `mnemonic` (any case) of architecture `arch` (name or alias)."""
    found = find_architecture(arch)
    if not isinstance(mnemonic, str):
        raise CalcError(f"an instruction is named by a string, not {mnemonic!r}; "
                        f"instructions({found.name.lower()!r}) lists them")
    inst = found.find(mnemonic)
    if inst is None:
        raise CalcError(f"{found.name} has no instruction {mnemonic!r}; "
                        f"instructions({found.name.lower()!r}) lists them")
    return inst


def instructions(arch: str | Architecture | None = None) -> tuple[Instruction, ...]:
    """The instructions of `arch`, or of every architecture when it is None."""
    if arch is None:
        return tuple(inst for a in ARCHITECTURES for inst in a.instructions)
    return tuple(find_architecture(arch).instructions)


def _instruction(inst: object) -> Instruction:
    """`inst` when it is an Instruction; CalcError otherwise (a mnemonic string, ...)."""
    if not isinstance(inst, Instruction):
        hint = " (look it up with find_instruction(arch, name))" if isinstance(inst, str) else ""
        raise CalcError(f"expected an Instruction, not {inst!r}{hint}")
    return inst


def architecture_of(inst: Instruction) -> Architecture:
    return _instruction(inst).architecture


def matrices(inst: Instruction) -> tuple[str, ...]:
    """The matrices of `inst`: A, B, C (dense) or K (sparse), D, and SA, SB (scaled)."""
    _instruction(inst)
    present = []
    for matrix in MATRICES:
        try:
            check_matrix(inst, matrix)
        except CalcError:
            continue
        present.append(matrix)
    return tuple(present)


# ---- arguments: every check of the library's (and the command line's) input

def _whole(name: str, value: object, argument: str | None = None) -> int:
    """`value` when it is a whole number >= 0 (not a bool, float or string)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CalcError(f"{name} takes a whole number >= 0, not {value!r}", argument)
    return value


def modifiers(mods: ModifierValues = None, **values: int) -> Modifiers:
    """Modifiers from None, a Modifiers value, or a mapping of names (cbsz, abid, blgp,
    opsel, neg, neg_hi, ...) to whole numbers; keyword arguments add to them. Every
    value is checked (a Modifiers value too): whole numbers >= 0, not bools."""
    if isinstance(mods, Modifiers):
        given: dict[object, object] = dict(mods._asdict().items())
    elif mods is None or hasattr(mods, "items"):
        given = dict(mods.items()) if mods else {}
    else:
        raise CalcError(f"modifiers are given as Modifiers(...) or a mapping of names to "
                        f"whole numbers, not {mods!r}")
    given.update(values)
    names = list(Modifiers._fields)
    chosen = {}
    for key, value in given.items():
        name = str(key).lower().replace("-", "_")
        if name not in names:
            raise CalcError(f"unknown modifier {key!r}; the modifiers are {', '.join(names)}")
        chosen[name] = _whole(f"modifier {name}", value)
    result = Modifiers(**chosen)
    return mods if result == mods and isinstance(mods, Modifiers) else result


def wave_size(inst: Instruction, wave: int | None = None) -> int:
    """The wave size of a query: `wave` when `inst` runs in it, its default for None/0."""
    sizes = _instruction(inst).wave_sizes
    if wave is None or wave == 0 and not isinstance(wave, bool):
        return sizes[0]
    _whole("wave", wave, "wave")
    if wave not in sizes:
        allowed = " or ".join(map(str, sizes))
        raise CalcError(f"wave size {wave} is not available for {inst.name} on {inst.arch}; "
                        f"use {allowed}", "wave")
    return wave


_wave = wave_size


def _matrix(inst: Instruction, matrix: str) -> str:
    name = matrix.upper() if isinstance(matrix, str) else None
    if name not in MATRICES:
        raise CalcError(f"unknown matrix {matrix!r}; {inst.name} has "
                        f"{', '.join(matrices(inst))}")
    assert name is not None
    return name


def operand(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
            wave: int | None = None, output_calc: bool = False) -> Operand:
    """The engine's checked operand (layouts.Operand) of `matrix`: the instruction,
    matrix, modifiers and wave size validated here, the one place that does it.
    `output_calc`: check the modifiers as for an output calculation (-o), which lets
    D take the modifiers of the inputs."""
    inst = _instruction(inst)
    name, checked, size = _matrix(inst, matrix), modifiers(mods), wave_size(inst, wave)
    check_modifiers(inst, name, checked, bool(output_calc), "get", size)
    check_matrix(inst, name)
    return _cached_operand(with_formats(inst, checked), name, checked, size)


def _operand(inst: Instruction, matrix: str, mods: ModifierValues, wave: int | None,
             output_calc: bool = False) -> Operand:
    return operand(inst, matrix, mods=mods, wave=wave, output_calc=output_calc)


def with_formats(inst: Instruction, mods: ModifierValues = None) -> Instruction:
    """`inst` with the A/B formats its format modifiers select (CBSZ/BLGP on CDNA4's
    f8f6f4, matrix_a_fmt/matrix_b_fmt on gfx1250's): types, register counts and cycles
    follow; other instructions as is."""
    fields = _instruction(inst).format_fields
    if not fields:
        return inst
    checked = modifiers(mods)
    codes = {name: getattr(checked, name) for name in fields}
    check_modifiers(inst, "A", Modifiers(**codes), False)
    return inst.with_formats(*codes.values())


def _in_range(name: str, value: object, limit: int, what: str,
              argument: str | None = None) -> None:
    argument = argument or name
    _whole(name, value, argument)
    assert isinstance(value, int)
    if value >= limit:
        raise CalcError(f"{name} = {value!r} is out of range for {what}: "
                        f"use 0 to {limit - 1}.", argument)


# ---- conversions from the engine's (row, col, block) and places

# Positions of the row and column coordinates of each matrix in an Element (matrix, i, j,
# k, block); records are built with tuple.__new__ on the hot paths (a table names
# thousands of elements), skipping the keyword handling of their __new__.
_AT = {matrix: tuple(1 + "ijk".index(c) for c in coords)
       for matrix, coords in COORDINATES.items()}
_new = tuple.__new__


def _named(matrix: str, row: int, col: int, block: int) -> Element:
    values: list[object] = [matrix, None, None, None, block]
    first, second = _AT.get(matrix, (1, 2))
    values[first], values[second] = row, col
    return _new(Element, values)


def element_of(matrix: str, i: int = 0, j: int = 0, k: int = 0, block: int = 0) -> Element:
    """The element (i, j, k) of `block` names in `matrix` (the coordinates it has)."""
    matrix = str(matrix).upper()
    first, second = COORDINATES.get(matrix, ("i", "j"))
    values = {"i": i, "j": j, "k": k}
    return _named(matrix, values[first], values[second], block)


def _element(operand: Operand, elem: Elem) -> Element:
    return _named(operand.matrix, *elem)


def _location(operand: Operand, place: Place) -> Location:
    mark = operand.mark_of(place)
    reg, lane, lo, width = place
    return _new(Location, (reg, place.regs, lane, (lo, lo + width - 1), "-" in mark,
                           "|" in mark))


def _entry(operand: Operand, place: Place, elem: Elem) -> Entry:
    return _new(Entry, (_element(operand, elem), _location(operand, place)))


def element_text(inst: Instruction, element: Element) -> str:
    """The element as the command line prints it: blocks shown when there are several."""
    return _element_name(element.matrix, (element.row, element.col, element.block),
                         inst.blocks)


def _coordinates(operand: Operand, i: int, j: int, k: int, block: int) -> Elem:
    """(row, col, block) of element (i, j, k) of the operand's matrix, range-checked like
    the command line's -g: every coordinate against M, N, K and the block count."""
    inst = operand.inst
    for name, value, limit in (("i", i, inst.m), ("j", j, inst.n), ("k", k, inst.k),
                               ("block", block, inst.blocks)):
        _in_range(name, value, limit, inst.mnemonic)
    named = element_of(operand.matrix, i, j, k, block)
    rows, cols, _ = operand.shape
    what = f"the {operand.matrix} matrix"
    first, second = COORDINATES.get(operand.matrix, ("i", "j"))
    _in_range(f"{operand.matrix} row {first}", named.row, rows, what, first)
    _in_range(f"{operand.matrix} column {second}", named.col, cols, what, second)
    return (named.row, named.col, block)


# ---- queries

def locate(inst: Instruction, matrix: str, i: int = 0, j: int = 0, k: int = 0,
           block: int = 0, *, mods: ModifierValues = None, wave: int | None = None,
           output_calc: bool = False) -> list[Location]:
    """Every location the hardware reads element (i, j, k) of `block` of `matrix` from
    (several where a value is replicated over lanes, as RDNA3's A and B are)."""
    operand = _operand(inst, matrix, mods, wave, output_calc)
    elem = _coordinates(operand, i, j, k, block)
    return [_location(operand, p) for p in operand.places(*elem)]


def elements_at(inst: Instruction, matrix: str, register: int, lane: int, *,
                mods: ModifierValues = None, wave: int | None = None,
                output_calc: bool = False) -> list[Entry]:
    """(element, location) pairs held by VGPR `register` (counted from the operand's
    first) in `lane`, lowest bits first; every element whose value the hardware reads
    there (a broadcast slot lists several). Empty when nothing is read there."""
    operand = _operand(inst, matrix, mods, wave, output_calc)
    _in_range("register", register, operand.register_count, f"the {operand.matrix} matrix")
    _in_range("lane", lane, operand.wave, f"wave{operand.wave}")
    return [_entry(operand, p, e) for p, e in operand.entries(register, lane)]


def layout(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
           wave: int | None = None) -> Iterator[Entry]:
    """(element, location) for every element of `matrix` and every location it is read
    from: block by block, then by the M or N index, then K (the -R/-M order)."""
    new = _new
    for matrix_, i, j, k, block, reg, regs, lane, lo, hi, negated, absolute in \
            layout_rows(inst, matrix, mods=mods, wave=wave):
        yield new(Entry, (new(Element, (matrix_, i, j, k, block)),
                          new(Location, (reg, regs, lane, (lo, hi), negated, absolute))))


def layout_rows(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                wave: int | None = None) -> Iterator[tuple[Any, ...]]:
    """layout() as flat tuples, one per element location, in the same order: (matrix, i,
    j, k, block, register, registers, lane, bit_lo, bit_hi, negated, absolute), the
    fields of its Element and Location (the rows of --format long-csv and jsonl)."""
    operand = _operand(inst, matrix, mods, wave)
    named = operand.matrix
    first, second = _AT.get(named, (1, 2))
    # (a table walks thousands of places: a slot's VGPRs and a mark's flags are worked
    # out once per distinct value)
    registers: dict[tuple[int, int, int], tuple[int, ...]] = {}
    flags: dict[str, tuple[bool, bool]] = {}
    for (row, col, block), place, mark in _placements(operand):
        values: list[Any] = [named, None, None, None, block]
        values[first], values[second] = row, col
        reg, lane, lo, width = place
        regs = registers.get((reg, lo, width))
        if regs is None:
            regs = registers[reg, lo, width] = place.regs
        flag = flags.get(mark)
        if flag is None:
            flag = flags[mark] = ("-" in mark, "|" in mark)
        yield (*values, reg, regs, lane, lo, lo + width - 1, *flag)


def register_grid(inst: Instruction, matrix: str, block: int = 0, *,
                  mods: ModifierValues = None, wave: int | None = None
                  ) -> list[list[list[str]]]:
    """One block of layout() in bulk, as the -R table shows it: rows of cells, cell
    [row][col] the texts of the locations element (row, col) of `block` is read from
    (rows and columns as Element.row and .col count them), each marked as the command
    line marks it: -v1{37}.[15:0] for a negated value, |v0{3}| for an absolute one.
    The same locations in the same order as layout()'s entries, without building a
    record per element (for whole tables)."""
    operand = _operand(inst, matrix, mods, wave)
    _in_range("block", block, operand.blocks, f"the {operand.matrix} matrix")
    return register_texts(operand, block)


def slot_grid(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
              wave: int | None = None
              ) -> tuple[list[str], list[tuple[int, list[list[str]]]]]:
    """slots() in bulk, as the -M table shows them: (names, rows). `names` are the
    register slots that hold a value in some lane (v3.[15:0], v[1:0]), in register
    then bit order; `rows` has, for every lane that holds a value, in lane order,
    (lane, cells) with cells[s] the element_text() of the elements slot s holds in
    that lane, marked as the command line marks them (-A[0][1]), or [] for none.
    The same slots and elements as slots(), without building a record per element."""
    operand = _operand(inst, matrix, mods, wave)
    slots, rows = slot_texts(operand, inst.blocks)
    return [_register_name(Place(reg, 0, lo, width), lane=False)
            for reg, lo, width in slots], rows


def _placements(operand: Operand) -> Iterator[tuple[Elem, Place, str]]:
    """(element, place, mark) of every element and every place it is read from, in the
    order of layout() (matrix_notation.register_texts() walks the same places in bulk)."""
    if operand.marks_vary:  # (neg_lo/neg_hi: each half of a packed value has its own)
        mark_of = operand.mark_of
        for elem, places in operand.placed():
            for place in places:
                yield elem, place, mark_of(place)
        return
    mark = operand.mark
    for elem, places in operand.placed():
        for place in places:
            yield elem, place, mark


def slots(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
          wave: int | None = None) -> Iterator[Slot]:
    """Every register slot of `matrix` that holds a value, lane by lane, then by
    register and bit, with the elements it holds (the -M view)."""
    operand = _operand(inst, matrix, mods, wave)
    named = operand.matrix
    for place, elems in _slot_places(operand):
        yield _new(Slot, (_location(operand, place),
                          tuple([_named(named, *elem) for elem in elems])))


def _slot_places(operand: Operand) -> Iterator[tuple[Place, list[Elem]]]:
    """(place, elements) of every register slot that holds a value, in the order of
    slots() (matrix_notation.slot_texts() groups the same places in bulk)."""
    # Lane by lane, register by register, lowest bits first, as entries() lists them
    # (a value straddling two VGPRs is listed once, under its first): the places of
    # every element grouped, then sorted stably, so that places at the same bits keep
    # the order of elements() as entries() keeps it.
    held: dict[Place, list[Elem]] = {}
    for elem, places in operand.placed():
        for place in places:
            if place in held:
                held[place].append(elem)
            else:
                held[place] = [elem]
    for place in sorted(held, key=_SLOT_ORDER):
        yield place, held[place]


_SLOT_ORDER = itemgetter(1, 0, 2)  # a Place's (lane, reg, lo)


def register_count(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                   wave: int | None = None, output_calc: bool = False) -> int:
    """VGPRs the operand occupies (per lane)."""
    return _operand(inst, matrix, mods, wave, output_calc).register_count


def calculation(inst: Instruction, i: int = 0, j: int = 0, block: int = 0, *,
                mods: ModifierValues = None, wave: int | None = None) -> Calculation:
    """How D[i][j] of `block` is computed: the A and B values read for each k (after
    CBSZ/ABID and BLGP, which may make the hardware read another element's slot), and C."""
    operands = _calc_operands(inst, mods, wave)
    d = operands["D"]
    elem = _coordinates(d, i, j, 0, block)
    return _calculation(operands, elem)


def _calc_operands(inst: Instruction, mods: ModifierValues,
                   wave: int | None) -> dict[str, Operand]:
    inst = _instruction(inst)
    mods, wave = modifiers(mods), _wave(inst, wave)
    check_modifiers(inst, "D", mods, True, "get", wave)
    resolved = with_formats(inst, mods)
    return {m: _cached_operand(resolved, m, mods, wave) for m in matrices(inst) if m != "K"}


def _read(operand: Operand, elem: Elem) -> Entry:
    """The element whose slot the hardware reads for `elem`, and that (first) slot."""
    return _entry(operand, operand.places(*elem)[0], operand.source(elem))


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
    return Calculation(_entry(d, d.places(*elem)[0], elem), products, c, scales)


def calculations_at(inst: Instruction, register: int, lane: int, *,
                    mods: ModifierValues = None,
                    wave: int | None = None) -> list[Calculation]:
    """The calculation of every D element held by D's VGPR `register` in `lane`."""
    operands = _calc_operands(inst, mods, wave)
    d = operands["D"]
    _in_range("register", register, d.register_count, "the D matrix")
    _in_range("lane", lane, d.wave, f"wave{d.wave}")
    return [_calculation(operands, elem) for _, elem in d.entries(register, lane)]


# ---- facts

def _type(data_type: DataType) -> dict[str, Any]:
    return {"key": data_type.key, "name": data_type.label, "bits": data_type.bits,
            "integer": data_type.is_int, "description": data_type.description}


def _formats(inst: Instruction) -> list[dict[str, Any]]:
    """The A/B formats CBSZ/BLGP can select (CDNA4 f8f6f4 instructions), else []."""
    if not getattr(inst, "format_fields", ()):
        return []
    from instructions.model import F8F6F4_FORMATS
    return [_type(inst.with_formats(code, code).a_type)
            for code in range(len(F8F6F4_FORMATS))]


def supported_modifiers(inst: Instruction) -> tuple[str, ...]:
    """The modifiers `inst` takes, as its table line declares them, in the order of
    the Modifiers fields (some need a companion: ABID needs CBSZ on a multi-block MFMA)."""
    _instruction(inst)
    return tuple(name for name in Modifiers._fields if inst.takes(name))


def facts(inst: Instruction, wave: int | None = None,
          mods: ModifierValues = None) -> dict[str, Any]:
    """The facts -d prints, as data: encoding, shape, types, speed, register counts (for
    `wave`, or for every wave size of the architecture) and the supported modifiers.
    `mods` matters only to CDNA4's f8f6f4 instructions, whose CBSZ/BLGP pick the
    formats (by default those `inst` already has: fp8)."""
    if mods is not None:
        inst = with_formats(inst, mods)
    arch = architecture_of(inst)
    waves = inst.wave_sizes if wave is None else (_wave(inst, wave),)
    cycles = getattr(inst, "effective_cycles", inst.cycles)
    found = {
        "architecture": arch.name,
        "instruction": inst.name,
        "mnemonic": inst.mnemonic,
        "kind": inst.kind,
        "encoding": inst.encoding,
        "opcode": inst.opcode,
        "mai_opcode": inst.mai_opcode,
        "m": inst.m, "n": inst.n, "k": inst.k, "blocks": inst.blocks,
        "sparse": inst.sparse,
        "types": {"A": _type(inst.a_type), "B": _type(inst.b_type),
                  "C": None if inst.sparse else _type(inst.c_type),
                  "D": _type(inst.out_type)},
        "formats": _formats(inst),
        "flops": inst.flops,
        "flops_kind": "Ops" if inst.a_type.is_int else "FLOPs",
        "cycles": cycles,
        "flops_per_cycle": inst.flops * 4 // cycles if cycles else None,
        "compute_unit": inst.unit,
        "coexec": bool(inst.coexec_cycles),
        "coexec_cycles": inst.coexec_cycles,
        "gpr_alignment": inst.align,
        "cd_arch_vgprs": inst.cd_arch_vgpr,
        "waves": list(inst.wave_sizes),
        "registers": {str(w): {m: Operand(inst, m, wave=w).register_count
                               for m in matrices(inst)} for w in waves},
        "modifiers": list(supported_modifiers(inst)),
    }
    found.update(family_facts(inst))  # gfx1250: latency, prefix opcode, provenance
    return found


def formulas(inst: Instruction) -> list[dict[str, Any]]:
    """The mapping formulas of -d, one dict per line: wave, direction
    (element_to_register or register_to_element), label and text."""
    from layouts import formula_sections
    from layouts.formulas_rdna import LANES_0_31
    table = formula_sections(_instruction(inst))
    out = []
    for wave, sides in table.items():
        for direction, lines in zip(("element_to_register", "register_to_element"), sides):
            for label, text in lines:
                if isinstance(text, tuple):
                    high, low = [t for t in text if t != LANES_0_31][:2]
                    prefix = "(lanes 0-31 only) " if LANES_0_31 in text else ""
                    text = f"{prefix}{high} through {low}"
                out.append({"wave": wave, "direction": direction, "label": label,
                            "text": text})
    return out


# ---- the catalog

FILTERS = ("arch", "type", "shape", "sparse", "kind", "m", "n", "k", "blocks")


def _type_keys(fact: dict[str, Any]) -> set[str]:
    """Every spelling a type filter may match: keys (f16, fp8_fnuz), their family (fp8)
    and printed names (FP16, int8), lower case."""
    types = [t for t in fact["types"].values() if t] + fact["formats"]
    keys = set()
    for t in types:
        keys |= {t["key"], t["key"].split("_")[0], t["name"].lower()}
    return keys


def _yes_no(value: str) -> bool:
    text = value.lower()
    if text in ("yes", "true", "1", "y"):
        return True
    if text in ("no", "false", "0", "n"):
        return False
    raise CalcError(f"sparse= takes yes or no, not {value!r}")


def _number(key: str, value: str) -> int:
    if not value.isdigit():
        raise CalcError(f"{key}= takes a whole number, not {value!r}")
    return int(value)


def _shape(value: str) -> tuple[int | None, ...]:
    parts = value.lower().split("x")
    if len(parts) not in (2, 3) or not all(p == "*" or p.isdigit() for p in parts):
        raise CalcError(f"shape= takes MxNxK or MxN (a part may be *), e.g. 16x16x32, "
                        f"not {value!r}")
    return tuple(None if p == "*" else int(p) for p in parts)


def _matcher(key: str, value: str) -> Callable[[dict[str, Any]], bool]:
    """A test of one instruction's facts for one filter value."""
    if key == "arch":
        name = find_architecture(value).name
        return lambda f: bool(f["architecture"] == name)
    if key == "type":
        return lambda f: value.lower() in _type_keys(f)
    if key == "shape":
        dims = _shape(value)
        return lambda f: all(w is None or w == f[c] for w, c in zip(dims, "mnk"))
    if key == "sparse":
        sparse = _yes_no(value)
        return lambda f: bool(f["sparse"] == sparse)
    if key == "kind":
        return lambda f: bool(f["kind"] == value.lower())
    number = _number(key, value)
    return lambda f: bool(f[key] == number)


def parse_filters(texts: Iterable[str]) -> dict[str, list[str]]:
    """{key: [values]} from strings 'key=value' (a value may list alternatives: a,b)."""
    found: dict[str, list[str]] = {}
    for text in texts:
        key, sep, value = str(text).partition("=")
        key = key.strip().lower()
        if not sep or not value.strip():
            raise CalcError(f"a filter is written key=value (e.g. type=fp8), not {text!r}")
        if key not in FILTERS:
            raise CalcError(f"unknown filter {key!r}; filter by {', '.join(FILTERS)}")
        found.setdefault(key, []).extend(v.strip() for v in value.split(",") if v.strip())
    return found


def catalog(filters: Mapping[str, Any] | None = None,
            wave: int | None = None) -> list[dict[str, Any]]:
    """The facts of every instruction of every architecture that passes `filters`:
    {key: value or [values]}, keys as in FILTERS; alternatives of one key are ORed,
    different keys ANDed. With `wave`, register counts are for that wave size and
    architectures without it are left out; otherwise each architecture's default."""
    tests = []
    for key, values in (filters or {}).items():
        if key not in FILTERS:
            raise CalcError(f"unknown filter {key!r}; filter by {', '.join(FILTERS)}")
        values = [values] if isinstance(values, (str, int)) else list(values)
        tests.append([_matcher(key, str(v)) for v in values])
    sizes = sorted({size for inst in instructions() for size in inst.wave_sizes})
    if wave is not None and wave != 0 or isinstance(wave, bool):
        _whole("wave", wave)
        if wave not in sizes:
            raise CalcError(f"wave size {wave!r} is not available on any architecture; "
                            f"use {' or '.join(map(str, sizes))}")
    rows = []
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            if wave and wave not in inst.wave_sizes:
                continue
            fact = facts(inst, wave or inst.wave_sizes[0])
            if all(any(t(fact) for t in alternatives) for alternatives in tests):
                rows.append(fact)
    return rows


# ---- linear layouts (issue 14: code for kernel writers) --------------------------------

def linear_layout(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                  wave: int | None = None) -> dict[str, Any]:
    """The operand's layout as Triton-style linear-layout bases: {"in_dims": ["register",
    "lane"], "out_dims": ["dim0", "dim1"(, "dim2")], "bases": {"register": [[row, col],
    ...], "lane": [...]} or None, "reason": why there are none, "note": ...}. Register
    bit b is value 2^b of the lane; dims are (row, col), or (block, row, col) for
    multi-block operands; sparse operands are given for their compressed matrix."""
    from layouts.linear import bases_of
    result = bases_of(operand(inst, matrix, mods=mods, wave=wave))
    return {"in_dims": list(result.in_dims), "out_dims": list(result.out_dims),
            "bases": result.bases, "reason": result.reason, "note": result.note}


__all__.append("linear_layout")

__all__ += ["Request", "answer"]; from matrix_request import Request, answer  # noqa: E402, E702, I001
