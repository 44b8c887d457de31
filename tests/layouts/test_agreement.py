"""For every operand of every instruction (every matrix, every wave size), the point
queries -g (element -> locations) and -m (register, lane -> elements) agree slot for
slot, and so do the three ways of asking them: the library, the JSON documents and
the text. Text applies the reference's named quirks (formats/quirks.py) and only them.

The library's -R and -M views are compared in full (each element's locations are
exactly the slots that list it); -g and -m through the library, text and JSON on a
spread of elements and slots of each operand, in process (matrix_cli.run), as a
command line would ask.
"""
import json

import pytest

from formats import quirks
from instructions import ARCHITECTURES
from matrix_frontends.cli import command as matrix_cli
from matrix_library import api
from tests.helpers import swept

FLAGS = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k", "SA": "--A-scale",
         "SB": "--B-scale"}
SAMPLES = 6


def operands(arch):
    for inst in swept(arch):
        for matrix in api.matrices(inst):
            for wave in inst.wave_sizes:
                yield inst, matrix, wave


def spread(items, count=SAMPLES):
    items = list(items)
    if len(items) <= count:
        return items
    return [items[n * (len(items) - 1) // (count - 1)] for n in range(count)]


def run(inst, *words):
    args = ["-a", inst.arch, "-i", inst.mnemonic, *words]
    return matrix_cli.run(matrix_cli.parse_args(args))


def pairs_of_text(lines, element_first):
    """{(element text, location text)} of `X = Y` lines."""
    found = set()
    for line in lines:
        left, right = line.split(" = ")
        found.add((left, right) if element_first else (right, left))
    return found


def check_library(inst, matrix, wave):
    """Every location of every element is a slot that lists it (-M's slots), and
    nothing more."""
    where = {"wave": wave}
    by_element = {(e.element, e.location) for e in api.layout(inst, matrix, **where)}
    in_slots = {(e, s.location) for s in api.slots(inst, matrix, **where) for e in s.elements}
    assert in_slots == by_element, (inst.mnemonic, matrix, wave)
    return by_element


def check_get(inst, matrix, wave, element, locations):
    """-g on one element through text and JSON: the library's locations."""
    numbers = ["-I", str(element.i or 0), "-J", str(element.j or 0), "-K", str(element.k or 0),
               "-b", str(element.block)]
    words = ["-g", FLAGS[matrix], "-w", str(wave), *numbers]
    name = api.element_text(inst, element)
    text = run(inst, *words).splitlines()[2:]
    assert pairs_of_text(text, True) == {(name, loc.text) for loc in locations}
    doc = json.loads(run(inst, *words, "--json"))
    assert [tuple(loc["bits"]) for loc in doc["locations"]] == [loc.bits for loc in locations]
    assert [loc["text"] for loc in doc["locations"]] == [loc.text for loc in locations]


def check_entry(inst, matrix, wave, reg, lane, pairs):
    """-m on one register and lane through text and JSON: the library's elements (text:
    after the reference's quirks)."""
    entries = api.elements_at(inst, matrix, reg, lane, wave=wave)
    assert {(e.element, e.location) for e in entries if e.location.register == reg} == \
        {(e, loc) for e, loc in pairs if loc.register == reg and loc.lane == lane}
    words = ["-m", FLAGS[matrix], "-w", str(wave), "-r", str(reg), "-l", str(lane)]
    doc = json.loads(run(inst, *words, "--json"))
    assert [(e["element"]["text"], e["location"]["text"]) for e in doc["entries"]] == \
        [(api.element_text(inst, e.element), e.location.text) for e in entries]
    shown = entries
    if matrix == "K":
        operand = api.operand(inst, matrix, wave=wave)
        shown = quirks.index_entry_first_register(inst, entries, operand.layout.base_bit)
    text = run(inst, *words).splitlines()[2:]
    assert pairs_of_text(text, False) == {(api.element_text(inst, e.element), e.location.text)
                                          for e in shown}
    return shown != entries


@pytest.mark.slow
@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_get_and_entry_agree_everywhere(arch):
    filtered = 0
    for inst, matrix, wave in operands(arch):
        pairs = check_library(inst, matrix, wave)
        locations = {}
        for element, location in pairs:
            locations.setdefault(element, []).append(location)
        for element in spread(sorted(locations, key=lambda e: (e.block, e.row, e.col))):
            check_get(inst, matrix, wave, element, api.locate(
                inst, matrix, element.i or 0, element.j or 0, element.k or 0, element.block,
                wave=wave))
        slots = sorted({(loc.register, loc.lane) for _, loc in pairs})
        for reg, lane in spread(slots):
            filtered += check_entry(inst, matrix, wave, reg, lane, pairs)
    if "index_entry_first_register" in arch.quirks:
        assert filtered  # the quirk was met (and text differed from JSON only by it)
