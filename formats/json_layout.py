"""The long arrays of the -R and -M documents (an element's locations, a register slot's
elements: thousands of records of one shape), written by a %-template per record from
the library's flat rows (matrix_api.layout_rows, slot_rows) instead of a dict per record
walked by the encoder: the same text (json_text.Written), in a third of the time.
`plain()` builds the records from matrix_api.layout()/slots(), the records path, and
tests/test_json.py compares the two texts byte for byte, indented and on one line."""
from __future__ import annotations

from itertools import groupby

from amd_matrix_calculator import matrix_api as api
from amd_matrix_calculator.instructions.record import TYPE_CHECKING

from .json_text import Written, array_text, leaf, record_format
from .notation import element as element_name
from .notation import slot_parts

if TYPE_CHECKING:
    from collections.abc import Callable

    from amd_matrix_calculator.instructions.model import Instruction
    from amd_matrix_calculator.matrix_api import Modifiers

    Json = dict[str, object]
    Fields = tuple[str, int | None, int | None, int | None, int]

LOCATION = ("register", "registers", "lane", "bits", "negated", "absolute", "text")
ELEMENT = ("matrix", "i", "j", "k", "block", "text")
_BOOL = {True: "true", False: "false"}


def element(inst: Instruction, elem: api.Element) -> Json:
    return {"matrix": elem.matrix, "i": elem.i, "j": elem.j, "k": elem.k,
            "block": elem.block, "text": api.element_text(inst, elem)}


def location(loc: api.Location) -> Json:
    return {"register": loc.register, "registers": list(loc.registers), "lane": loc.lane,
            "bits": list(loc.bits), "negated": loc.negated, "absolute": loc.absolute,
            "text": loc.text}


class _Texts:
    """The texts of one document's records at one indentation (`newline`, that of the
    array; None: on one line). What a location's text shares with every lane of its
    slot, and an element's with every element of its matrix, is written once into a
    template of the rest (register names, element names and keys hold no `%`)."""

    def __init__(self, inst: Instruction, newline: str | None, location_at: int,
                 element_at: int) -> None:
        # (the levels below the array's: its records at 1, their values at 2, ...)
        levels = [None if newline is None else newline + "  " * step for step in range(5)]
        self.levels = levels
        self.location = record_format(LOCATION, levels[location_at])
        self.element = record_format(ELEMENT, levels[element_at])
        self.numbers_at = levels[location_at + 1]
        self.slots: dict[tuple[int, int, int, bool, bool], str] = {}
        self.matrices: dict[str, tuple[str, int, int]] = {}
        self.blocks = inst.blocks

    def numbers(self, values: tuple[int, ...]) -> str:
        return array_text([str(v) for v in values], self.numbers_at)

    def of_location(self, reg: int, regs: tuple[int, ...], lane: int, lo: int, hi: int,
                    negated: bool, absolute: bool) -> str:
        shape = reg, lo, hi, negated, absolute
        template = self.slots.get(shape)
        if template is None:
            name, bits = slot_parts(reg, lo, hi - lo + 1)
            template = self.slots[shape] = self.location % (
                reg, self.numbers(regs), "%d", self.numbers((lo, hi)), _BOOL[negated],
                _BOOL[absolute], leaf(f"{name}{{%d}}{bits}"))
        return template % (lane, lane)

    def of_element(self, fields: Fields) -> str:
        matrix = fields[0]
        found = self.matrices.get(matrix)
        if found is None:  # the matrix and its missing coordinate written in
            row, col = (1 + "ijk".index(c) for c in api.COORDINATES[matrix])
            values = [leaf(matrix), "null", "null", "null", "%d", "%s"]
            values[row] = values[col] = "%d"
            found = self.matrices[matrix] = self.element % tuple(values), row, col
        template, row, col = found
        block = fields[4]
        name = element_name(matrix, (fields[row], fields[col], block), self.blocks)  # type: ignore[arg-type]
        if row < col:  # (the template's coordinates in i, j, k order)
            return template % (fields[row], fields[col], block, leaf(name))
        return template % (fields[col], fields[row], block, leaf(name))


def slots(inst: Instruction, matrix: str, mods: Modifiers, wave: int
          ) -> tuple[list[int], Written]:
    """The -M document's `lanes` and `slots`."""
    rows = list(api.slot_rows(inst, matrix, mods=mods, wave=wave))

    def write(newline: str | None) -> str:
        texts = _Texts(inst, newline, 2, 3)
        slot = record_format(("location", "elements"), texts.levels[1])
        at, where, what = texts.levels[2], texts.of_location, texts.of_element
        return array_text([slot % (where(*row[:7]), array_text([what(e) for e in row[7]], at))
                           for row in rows], newline)

    def plain() -> object:
        return [{"location": location(slot.location),
                 "elements": [element(inst, e) for e in slot.elements]}
                for slot in api.slots(inst, matrix, mods=mods, wave=wave)]
    return sorted({row[2] for row in rows}), Written(write, plain)


def elements(inst: Instruction, matrix: str, mods: Modifiers, wave: int) -> Written:
    """The -R document's `elements`: each element with its locations."""
    rows = list(api.layout_rows(inst, matrix, mods=mods, wave=wave))
    first_five: Callable[[api.LayoutRow], Fields] = lambda row: row[:5]  # noqa: E731

    def write(newline: str | None) -> str:
        texts = _Texts(inst, newline, 3, 2)
        pair = record_format(("element", "locations"), texts.levels[1])
        at, where, what = texts.levels[2], texts.of_location, texts.of_element
        return array_text([pair % (what(fields), array_text([where(*row[5:]) for row in group], at))
                           for fields, group in groupby(rows, first_five)], newline)

    def plain() -> object:
        grouped: dict[api.Element, list[Json]] = {}
        for pair in api.layout(inst, matrix, mods=mods, wave=wave):
            grouped.setdefault(pair.element, []).append(location(pair.location))
        return [{"element": element(inst, e), "locations": locs} for e, locs in grouped.items()]
    return Written(write, plain)
