"""The long arrays of the -R and -M documents (an element's locations, a register slot's
elements: thousands of records of one shape), written by a %-template per record from
the library's columns (matrix_api.layout_columns) instead of a dict per record
walked by the encoder: the same text (json_text.Written), in a third of the time.
`plain()` builds the records from matrix_api.layout()/slots(), the records path, and
tests/formats/test_json.py compares the two texts byte for byte, indented and on one line."""
from __future__ import annotations

from operator import itemgetter

from formats.json_text import Written, array_text, filled, leaf, record_format
from matrix_library import api
from matrix_library.api import CalcError
from matrix_library.notation import BIT_MASK, LANE_SHIFT, held_slots, key_order, split_keys
from matrix_library.records import element_name, slot_parts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from instructions.model import Instruction

    from matrix_library.answers import Elem, Layout, Point
    from matrix_library.bulk import LayoutColumns

    Json = dict[str, object]
    SlotFacts = tuple[int, tuple[int, ...], int, int, bool, bool]  # (LayoutColumns.slot)

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


class _Texts(dict[int, str]):
    """The texts of one document's records at one indentation (`newline`, that of the
    array; None: on one line). What a location's text shares with every lane of its
    slot, and an element's with every element of its matrix, is written once into a
    template of the rest (register names, element names and keys hold no `%`): this
    dict maps a slot's bit offset (a key's, LayoutColumns) to the template of its
    locations, whose lane goes in twice."""

    def __init__(self, inst: Instruction, slot: Mapping[int, SlotFacts], newline: str | None,
                 location_at: int, element_at: int) -> None:
        super().__init__()
        # (the levels below the array's: its records at 1, their values at 2, ...)
        levels = [None if newline is None else newline + "  " * step for step in range(5)]
        self.levels = levels
        self.location = record_format(LOCATION, levels[location_at])
        self.element = record_format(ELEMENT, levels[element_at])
        self.numbers_at = levels[location_at + 1]
        self.blocks, self.slot = inst.blocks, slot

    def numbers(self, values: tuple[int, ...]) -> str:
        return array_text([str(v) for v in values], self.numbers_at)

    def __missing__(self, bit: int) -> str:
        template = self[bit] = self.location_form(*self.slot[bit])
        return template

    def location_form(self, reg: int, regs: tuple[int, ...], lo: int, hi: int,
                      negated: bool, absolute: bool) -> str:
        """The template of a location of that slot, its lane a %d twice."""
        name, bits = slot_parts(reg, lo, hi - lo + 1)
        return self.location % (reg, self.numbers(regs), "%d", self.numbers((lo, hi)),
                                _BOOL[negated], _BOOL[absolute], leaf(f"{name}{{%d}}{bits}"))

    def element_form(self, matrix: str) -> tuple[str, list[int]]:
        """(template, picked): an element (row, col, block) of `matrix` is `template %
        itemgetter(*picked)(element)`, its name and missing coordinate written in."""
        row, col = (1 + "ijk".index(c) for c in api.COORDINATES[matrix])
        values = [leaf(matrix), "null", "null", "null", "%d",
                  leaf(element_name(matrix, ("%d", "%d", "%d"), self.blocks))]  # type: ignore[arg-type]
        values[row] = values[col] = "%d"
        picked = [0, 1] if row < col else [1, 0]
        return self.element % tuple(values), picked + [2, 0, 1] + [2] * (self.blocks > 1)


class PointForm:
    """The compact text of the -g documents of one operand (a --batch --json line each):
    what they share written once (`head`: the document up to its query, with the comma
    after it), the element by one template, and each location by its slot's template
    (_Texts.location_form, made on first use), filled with the point's own numbers."""

    __slots__ = ("texts", "start", "fields", "locations")

    def __init__(self, inst: Instruction, matrix: str, head: str) -> None:
        self.texts = _Texts(inst, {}, None, 0, 0)
        form, picked = self.texts.element_form(matrix)
        at = (*(1 + "ijk".index(c) for c in api.COORDINATES[matrix]), 4)  # (in an Element)
        self.start = (head.replace("%", "%%") + '"query":{"i":%d,"j":%d,"k":%d,"block":%d},'
                      '"element":' + form + ',"locations":[')
        self.fields = itemgetter(*(at[p] for p in picked))
        self.locations: dict[tuple[object, ...], str] = {}

    def text(self, point: Point, numbers: Mapping[str, int], calculation: str) -> str:
        """The document of `point` (`numbers`: the query's i, j, k and block; `calculation`:
        its text) on one line, with a final newline."""
        forms = self.locations
        locations = []
        for reg, regs, lane, bits, negated, absolute in point.locations:
            key = (reg, regs, bits, negated, absolute)
            form = forms.get(key)
            if form is None:
                form = forms[key] = self.texts.location_form(reg, regs, *bits, negated,
                                                             absolute)
            locations.append(form % (lane, lane))
        start = self.start % (numbers["i"], numbers["j"], numbers["k"], numbers["block"],
                              *self.fields(point.element))
        return f'{start}{",".join(locations)}],"calculation":{calculation}}}\n'


class _Joined(dict[int, str]):
    """{bit: the template of a record of one location at that bit and one element}, made
    on first use from `make(location template)`."""

    def __init__(self, texts: _Texts, make: Callable[[str], str]) -> None:
        super().__init__()
        self.texts, self.make = texts, make

    def __missing__(self, bit: int) -> str:
        template = self[bit] = self.make(self.texts[bit])
        return template


def _records(one: _Joined, split: tuple[list[int], list[int]], columns: list[list[int]],
             picked: list[int], lanes_first: bool, newline: str | None) -> list[str]:
    """The array of records of one location (key, given `split` into lanes and bits)
    and one element each (its row, column and block: `columns`), written by
    json_text.filled: the lane twice, then the element's fields, `picked` from
    `columns` (or the other way)."""
    lanes, bits = split
    fields = [columns[at] for at in picked]
    return filled(bits, {bit: one[bit] for bit in set(bits)},
                  [lanes, lanes, *fields] if lanes_first else [*fields, lanes, lanes], newline)


def _columns(layout: Layout) -> LayoutColumns:
    if layout.columns is None:
        raise CalcError("the JSON documents of -R and -M read the layout's columns")
    return layout.columns


def slots(layout: Layout) -> tuple[list[int], Written]:
    """The -M document's `lanes` and `slots`, from the library's answer (its columns)."""
    inst, matrix, mods, wave = layout.inst, layout.matrix, layout.mods, layout.wave
    found = _columns(layout)
    keys = found.keys
    order = key_order(keys)
    held: list[tuple[int, list[Elem]]] = []
    if order is None:  # (some slot holds several elements)
        held = held_slots(list(zip(keys, zip(found.rows, found.cols, found.blocks))))
        split = split_keys([key for key, _ in held])
    else:  # (the columns in key order)
        split = split_keys(list(map(keys.__getitem__, order)))

    def write(newline: str | None) -> list[str]:
        if not keys:
            return ["[]"]
        texts = _Texts(inst, found.slot, newline, 2, 3)
        at = texts.levels[2]
        slot = record_format(("location", "elements"), texts.levels[1])
        form, picked = texts.element_form(found.matrix)
        if order is not None:  # every slot holds one element: one template a slot
            one = _Joined(texts, lambda location: slot % (location, array_text([form], at)))
            columns = [found.rows, found.cols, found.blocks]
            for field in set(picked):  # (the fields written, in key order)
                columns[field] = list(map(columns[field].__getitem__, order))
            return _records(one, split, columns, picked, True, newline)
        fields = itemgetter(*picked)
        return [array_text([slot % (texts[key & BIT_MASK] % (key >> LANE_SHIFT,
                                                             key >> LANE_SHIFT),
                                    array_text([form % fields(e) for e in elems], at))
                            for key, elems in held], newline)]

    def plain() -> object:
        return [{"location": location(slot.location),
                 "elements": [element(inst, e) for e in slot.elements]}
                for slot in api.slots(inst, matrix, mods=mods, wave=wave)]
    return list(dict.fromkeys(split[0])), Written(write, plain)


def elements(layout: Layout) -> Written:
    """The -R document's `elements`: each element with its locations, from the library's
    answer (its columns)."""
    inst, matrix, mods, wave = layout.inst, layout.matrix, layout.mods, layout.wave
    found = _columns(layout)
    keys, copies = found.keys, found.copies

    def write(newline: str | None) -> list[str]:
        if not keys:
            return ["[]"]
        texts = _Texts(inst, found.slot, newline, 3, 2)
        at = texts.levels[2]
        pair = record_format(("element", "locations"), texts.levels[1])
        form, picked = texts.element_form(found.matrix)
        if copies == 1:  # one location per element: the pair in one template
            one = _Joined(texts, lambda location: pair % (form, array_text([location], at)))
            return _records(one, split_keys(keys), [found.rows, found.cols, found.blocks],
                            picked, False, newline)
        # (an element's locations one after the other)
        fields = itemgetter(*picked)
        elems = zip(found.rows[::copies], found.cols[::copies], found.blocks[::copies])
        return [array_text([pair % (form % fields(elem), array_text(
            [texts[key & BIT_MASK] % (key >> LANE_SHIFT, key >> LANE_SHIFT)
             for key in keys[first:first + copies]], at))
            for first, elem in zip(range(0, len(keys), copies), elems)], newline)]

    def plain() -> object:
        grouped: dict[api.Element, list[Json]] = {}
        for pair in api.layout(inst, matrix, mods=mods, wave=wave):
            grouped.setdefault(pair.element, []).append(location(pair.location))
        return [{"element": element(inst, e), "locations": locs} for e, locs in grouped.items()]
    return Written(write, plain)
