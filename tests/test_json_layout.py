"""The -R and -M documents' long arrays, written by template from the library's flat rows
(formats/json_layout), are byte for byte what json.dumps writes of the records built from
matrix_api.layout() and slots() (the records path), indented at any depth and on one
line, for every instruction of every architecture and its modifiers' values."""
from __future__ import annotations

import json

import pytest

from amd_matrix_calculator import matrix_api as api
from amd_matrix_calculator.formats import json_layout, json_text


def _cases() -> list[tuple[str, str, dict[str, int]]]:
    """(architecture, instruction, modifiers): of every architecture, every twelfth
    instruction with its defaults and the first with several blocks; and for every
    modifier, the first two instructions that take it, at its largest value (ABID
    with the largest CBSZ). Operands of up to 4,096 elements (the largest AMD's; SM90's
    wgmma reach 16,384: the records path takes seconds)."""
    cases = []
    for arch in api.architectures():
        taken: dict[str, int] = {}
        blocks = False
        sized = [inst for inst in arch.instructions
                 if max(inst.m * inst.k, inst.k * inst.n, inst.m * inst.n) * inst.blocks <= 4096]
        for index, inst in enumerate(sized):
            if index % 12 == 0 or inst.blocks > 1 and not blocks:
                blocks = blocks or inst.blocks > 1
                cases.append((arch.name, inst.mnemonic, {}))
            meanings = api.value_meanings(inst, inst.wave_sizes[0])
            for name, values in meanings.items():
                largest = max(value for value, _ in values)
                if not largest or taken.get(name, 0) == 2 or name == "cbsz":
                    continue
                taken[name] = taken.get(name, 0) + 1
                mods = {name: largest}
                if name == "abid":
                    mods["cbsz"] = max(value for value, _ in meanings["cbsz"])
                cases.append((arch.name, inst.mnemonic, mods))
    return cases


CASES = _cases()


def _documents(arch: str, mnemonic: str, mods: dict[str, int]):
    inst = api.find_instruction(arch, mnemonic)
    wave = inst.wave_sizes[0]
    modifiers = api.Modifiers(**mods)
    written = 0
    for matrix in api.matrices(inst):
        try:
            lanes, slots = json_layout.slots(inst, matrix, modifiers, wave)
        except api.CalcError:  # (a modifier of another matrix: the records path refuses too)
            with pytest.raises(api.CalcError):
                list(api.slots(inst, matrix, mods=modifiers, wave=wave))
            continue
        elements = json_layout.elements(inst, matrix, modifiers, wave)
        written += 1
        yield matrix, lanes, slots, elements
    assert written, "no matrix takes these modifiers"


@pytest.mark.parametrize(("arch", "mnemonic", "mods"), CASES,
                         ids=[f"{a}-{m}-{'-'.join(f'{k}{v}' for k, v in o.items())}"
                              for a, m, o in CASES])
def test_written_arrays_are_what_json_dumps_writes_of_the_records(arch, mnemonic, mods):
    for matrix, lanes, slots, elements in _documents(arch, mnemonic, mods):
        records, pairs = slots.plain(), elements.plain()
        assert lanes == sorted({slot["location"]["lane"] for slot in records}), matrix
        document: dict[str, object] = {"mode": "x", "slots": slots, "elements": elements}
        expected: dict[str, object] = {"mode": "x", "slots": records, "elements": pairs}
        if matrix == "A":  # nested deeper and inside an array: other indentations
            document["deeper"] = {"still": [slots, {"elements": elements}]}
            expected["deeper"] = {"still": [records, {"elements": pairs}]}
        assert json_text.indented(document) == json.dumps(expected, indent=2), matrix
        token = json_text.COMPACT.set(True)
        try:
            one_line = json_text.text(document)
        finally:
            json_text.COMPACT.reset(token)
        assert one_line == json.dumps(expected, separators=(",", ":")) + "\n", matrix


def test_the_cases_cover_blocks_negation_and_remapped_lanes():
    """The sample holds what changes a record's fields: several blocks (element names with
    .B), negated and absolute values, and CBSZ/ABID and BLGP (remapped places)."""
    names = {name for _, _, mods in CASES for name in mods}
    assert {"cbsz", "abid", "blgp", "neg", "neg_lo", "neg_hi"} <= names
    assert any(api.find_instruction(a, m).blocks > 1 for a, m, _ in CASES)


def test_a_written_array_beside_its_stand_in_in_a_string_falls_back_to_the_records():
    """The compact writer marks a Written's place with a string; a document whose own
    text holds that string is written from the records instead, the same bytes."""
    inst = api.find_instruction("cdna3", "v_mfma_f32_4x4x1_16b_f32")
    lanes, slots = json_layout.slots(inst, "A", api.Modifiers(), 64)
    document = {"note": "\x00written\x00", "slots": slots}
    token = json_text.COMPACT.set(True)
    try:
        one_line = json_text.text(document)
    finally:
        json_text.COMPACT.reset(token)
    assert one_line == json.dumps(json_text.plain(document), separators=(",", ":")) + "\n"
