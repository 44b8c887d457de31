"""The long arrays of the -R and -M documents (an element's locations, a register slot's
elements: thousands of records of one shape), written by a %-template per record from
the library's flat rows (matrix_api.layout_rows, slot_rows) instead of a dict per record
walked by the encoder: the same text (json_text.Written), in a third of the time.
`plain()` builds the records from matrix_api.layout()/slots(), the records path, and
tests/test_json.py compares the two texts byte for byte, indented and on one line."""
from __future__ import annotations

from itertools import groupby
from operator import itemgetter

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
    # a location's slot: (register, lo, hi, negated, absolute, registers)
    Shape = tuple[int, int, int, bool, bool, tuple[int, ...]]

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


class _Texts(dict["Shape", str]):
    """The texts of one document's records at one indentation (`newline`, that of the
    array; None: on one line). What a location's text shares with every lane of its
    slot, and an element's with every element of its matrix, is written once into a
    template of the rest (register names, element names and keys hold no `%`): this
    dict maps a slot's (register, lo, hi, negated, absolute, registers) to the template
    of its locations, whose lane goes in twice."""

    def __init__(self, inst: Instruction, newline: str | None, location_at: int,
                 element_at: int) -> None:
        super().__init__()
        # (the levels below the array's: its records at 1, their values at 2, ...)
        levels = [None if newline is None else newline + "  " * step for step in range(5)]
        self.levels = levels
        self.location = record_format(LOCATION, levels[location_at])
        self.element = record_format(ELEMENT, levels[element_at])
        self.numbers_at = levels[location_at + 1]
        self.blocks = inst.blocks

    def numbers(self, values: tuple[int, ...]) -> str:
        return array_text([str(v) for v in values], self.numbers_at)

    def __missing__(self, shape: Shape) -> str:
        reg, lo, hi, negated, absolute, regs = shape
        name, bits = slot_parts(reg, lo, hi - lo + 1)
        template = self[shape] = self.location % (
            reg, self.numbers(regs), "%d", self.numbers((lo, hi)), _BOOL[negated],
            _BOOL[absolute], leaf(f"{name}{{%d}}{bits}"))
        return template

    def element_form(self, matrix: str) -> tuple[str, Callable[[Fields], tuple[int, ...]]]:
        """(template, fields): an element of `matrix` is `template % fields(element)`, its
        name and missing coordinate written in."""
        row, col = (1 + "ijk".index(c) for c in api.COORDINATES[matrix])
        values = [leaf(matrix), "null", "null", "null", "%d",
                  leaf(element_name(matrix, ("%d", "%d", "%d"), self.blocks))]  # type: ignore[arg-type]
        values[row] = values[col] = "%d"
        picked = [min(row, col), max(row, col), 4, row, col] + ([4] if self.blocks > 1 else [])
        return self.element % tuple(values), itemgetter(*picked)


_LOCATION_OF_SLOT = itemgetter(0, 3, 4, 5, 6, 1)  # a slot_rows row's location shape
_LOCATION_OF_ROW = itemgetter(5, 8, 9, 10, 11, 6)  # a layout_rows row's


def slots(inst: Instruction, matrix: str, mods: Modifiers, wave: int
          ) -> tuple[list[int], Written]:
    """The -M document's `lanes` and `slots`."""
    rows = list(api.slot_rows(inst, matrix, mods=mods, wave=wave))

    def write(newline: str | None) -> str:
        if not rows:
            return "[]"
        texts = _Texts(inst, newline, 2, 3)
        at, shape_of = texts.levels[2], _LOCATION_OF_SLOT
        slot = record_format(("location", "elements"), texts.levels[1])
        single = slot % ("%s", array_text(["%s"], at))  # (a slot holding one element)
        form, fields = texts.element_form(rows[0][7][0][0])
        return array_text([single % (texts[shape_of(row)] % (row[2], row[2]),
                                     form % fields(row[7][0])) if len(row[7]) == 1 else
                           slot % (texts[shape_of(row)] % (row[2], row[2]),
                                   array_text([form % fields(e) for e in row[7]], at))
                           for row in rows], newline)

    def plain() -> object:
        return [{"location": location(slot.location),
                 "elements": [element(inst, e) for e in slot.elements]}
                for slot in api.slots(inst, matrix, mods=mods, wave=wave)]
    return sorted({row[2] for row in rows}), Written(write, plain)


def elements(inst: Instruction, matrix: str, mods: Modifiers, wave: int) -> Written:
    """The -R document's `elements`: each element with its locations."""
    rows = list(api.layout_rows(inst, matrix, mods=mods, wave=wave))
    first_five: Callable[[api.LayoutRow], Fields] = itemgetter(0, 1, 2, 3, 4)

    def write(newline: str | None) -> str:
        if not rows:
            return "[]"
        texts = _Texts(inst, newline, 3, 2)
        at, shape_of = texts.levels[2], _LOCATION_OF_ROW
        pair = record_format(("element", "locations"), texts.levels[1])
        form, fields = texts.element_form(rows[0][0])
        return array_text([pair % (form % fields(key), array_text(
            [texts[shape_of(row)] % (row[7], row[7]) for row in group], at))
            for key, group in groupby(rows, first_five)], newline)

    def plain() -> object:
        grouped: dict[api.Element, list[Json]] = {}
        for pair in api.layout(inst, matrix, mods=mods, wave=wave):
            grouped.setdefault(pair.element, []).append(location(pair.location))
        return [{"element": element(inst, e), "locations": locs} for e, locs in grouped.items()]
    return Written(write, plain)
