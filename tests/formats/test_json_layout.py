"""The -R and -M documents' long arrays, written by template from the library's flat rows
(formats/json_layout), are byte for byte what json.dumps writes of the records built from
matrix_api.layout() and slots() (the records path), indented at any depth and on one
line, for every instruction of every architecture and its modifiers' values."""
from __future__ import annotations

import csv
import io
import json

import pytest

from formats import documents, json_layout, json_text, templated
from matrix_library import api
from matrix_library.notation import key_order
from tests.helpers import sampled


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
WIDEST = ("SM90", "wgmma.mma_async.m64n256k32.f32.e5m2.e4m3")


def _answer(inst, matrix, modifiers, wave, query):
    """The library's JSON answer to -R (rlayout) or -M (mlayout)."""
    return api.answer(api.Request("query", inst=inst, matrix=matrix, mods=modifiers, wave=wave,
                                  options=(("query", query), ("document", "json"))))


def _documents(arch: str, mnemonic: str, mods: dict[str, int]):
    inst = api.find_instruction(arch, mnemonic)
    wave = inst.wave_sizes[0]
    modifiers = api.Modifiers(**mods)
    written = 0
    for matrix in api.matrices(inst):
        try:
            lanes, slots = json_layout.slots(_answer(inst, matrix, modifiers, wave, "mlayout"))
        except api.CalcError:  # (a modifier of another matrix: the records path refuses too)
            with pytest.raises(api.CalcError):
                list(api.slots(inst, matrix, mods=modifiers, wave=wave))
            continue
        elements = json_layout.elements(_answer(inst, matrix, modifiers, wave, "rlayout"))
        written += 1
        yield matrix, lanes, slots, elements
    assert written, "no matrix takes these modifiers"


@pytest.mark.parametrize(("arch", "mnemonic", "mods"), sampled(
    CASES, [f"{a}-{m}-{'-'.join(f'{k}{v}' for k, v in o.items())}" for a, m, o in CASES]))
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


def _engine_keys(operand):
    """What layout_keys() holds, from the engine's places element by element."""
    keyed, slot = [], {}
    for elem, places in operand.placed():
        for place in places:
            bit = place.reg * 32 + place.lo
            keyed.append(((place.lane << 16) + bit, elem))
            mark = operand.mark_of(place)
            slot[bit] = (place.reg, place.regs, place.lo, place.hi, "-" in mark, "|" in mark)
    return keyed, slot


@pytest.mark.parametrize(("arch", "mnemonic", "mods"), sampled(
    [*CASES, (*WIDEST, {})], [f"{a}-{m}-{'-'.join(f'{k}{v}' for k, v in o.items())}"
                              for a, m, o in [*CASES, (*WIDEST, {})]]))
def test_layout_keys_are_the_engines_places(arch, mnemonic, mods):
    """layout_keys() (what the library's layout(), slots() and the documents are built
    from) holds every place of every element the engine gives, in its order, with the
    slot of each key's bits."""
    inst = api.find_instruction(arch, mnemonic)
    wave = inst.wave_sizes[0]
    for matrix in api.matrices(inst):
        try:
            found = api.layout_keys(inst, matrix, mods=mods, wave=wave)
        except api.CalcError:
            continue
        keyed, slot = _engine_keys(api.operand(inst, matrix, mods=mods, wave=wave))
        assert found.keyed == keyed, matrix
        assert {bit: found.slot[bit] for bit in slot} == slot, matrix
        assert len(keyed) == found.copies * len({elem for _, elem in keyed}), matrix
        # the same locations as columns (what the documents are written from)
        columns = api.layout_columns(inst, matrix, mods=mods, wave=wave)
        assert columns.keys == [key for key, _ in keyed], matrix
        assert list(zip(columns.rows, columns.cols, columns.blocks)) == [e for _, e in keyed]
        assert (columns.matrix, columns.copies) == (found.matrix, found.copies)
        assert {bit: columns.slot[bit] for bit in slot} == slot, matrix
        # and their key order: the -M view's, or None where a slot holds several
        order = key_order(columns.keys)
        keys = [key for key, _ in keyed]
        if len(set(keys)) < len(keys):
            assert order is None, matrix
        else:
            assert [keys[at] for at in order] == sorted(keys), matrix


def test_the_widest_operands_are_written_as_their_records_are():
    """SM90's m64n256 accumulator (16,384 slots), -M and -R, indented and on one line,
    against json.dumps of its records, and against the engine slot by slot."""
    inst = api.find_instruction(*WIDEST)
    (_, lanes, slots, elements), = [d for d in _documents(*WIDEST, {}) if d[0] == "D"]
    records, pairs = slots.plain(), elements.plain()
    assert len(records) == len(pairs) == 16384 and lanes == list(range(128))
    document = {"slots": slots, "elements": elements}
    expected = {"slots": records, "elements": pairs}
    assert json_text.indented(document) == json.dumps(expected, indent=2)
    token = json_text.COMPACT.set(True)
    try:
        assert json_text.text(document) == json.dumps(expected, separators=(",", ":")) + "\n"
    finally:
        json_text.COMPACT.reset(token)
    operand = api.operand(inst, "D", wave=128)
    for pair in pairs[::97]:
        element = pair["element"]
        places = operand.places(element["i"], element["j"], element["block"])
        assert [(loc["register"], loc["lane"], loc["bits"][0]) for loc in pair["locations"]] \
            == [(p.reg, p.lane, p.lo) for p in places]


def _long_csv_of_the_rows(inst, matrix, mods, wave):
    """long-csv as the csv writer writes layout_rows() (the rows' fields as they are)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(documents.LONG_HEADER)
    writer.writerows(["" if value is None else " ".join(map(str, value)) if type(value) is
                      tuple else str(value).lower() if type(value) is bool else value
                      for value in row]
                     for row in api.layout_rows(inst, matrix, mods=mods, wave=wave))
    return out.getvalue()


@pytest.mark.parametrize(("arch", "mnemonic", "mods"), sampled(
    [*CASES, (*WIDEST, {})], [f"{a}-{m}-{'-'.join(f'{k}{v}' for k, v in o.items())}"
                              for a, m, o in [*CASES, (*WIDEST, {})]]))
def test_the_long_forms_are_what_their_writers_write_of_the_rows(arch, mnemonic, mods):
    """--format long-csv and jsonl, written by a template per slot from layout_keys(),
    are what the csv writer and json.dumps write of layout_rows(), row by row, every
    matrix of the sample."""
    inst = api.find_instruction(arch, mnemonic)
    wave = inst.wave_sizes[0]
    modifiers = api.Modifiers(**mods)
    for matrix in api.matrices(inst):
        try:
            expected = _long_csv_of_the_rows(inst, matrix, modifiers, wave)
        except api.CalcError:
            continue
        query = documents.Query(api.answer(api.Request(
            "query", inst=inst, matrix=matrix, mods=modifiers, wave=wave,
            options=(("query", "rlayout"), ("document", documents.form("long-csv"))))))
        assert documents.long_csv(query) == expected, matrix
        fixed = {"architecture": inst.arch, "instruction": inst.name}
        assert documents.jsonl(query) == "".join(
            json.dumps({**fixed, **dict(zip(documents.LONG_HEADER, row))}) + "\n"
            for row in api.layout_rows(inst, matrix, mods=modifiers, wave=wave)), matrix


def test_filled_writes_what_a_template_per_record_writes():
    """json_text.filled: pieces shared by every template (a column's table) and a
    template's own, a column given twice, columns of one number (written into the
    templates), numbers below 0 (written by %), on one line."""
    templates = ["{%d, \"a%d\": %d}", "{%d, \"b%d\": %d}"] * 3
    for columns in ([[0, 1, 2, 3, 4, 5], [7, 7, 7, 0, 1, 2], [9, 8, 7, 6, 5, 4]],
                    [[5, 4, 3, 2, 1, 0]] * 3, [[0, -1, 2, 3, 4, 5], [1] * 6, [2] * 6],
                    [[3] * 6, [0, 1, 2, 3, 4, 5], [7] * 6], [[4] * 6] * 3):
        for newline in ("\n", "\n    ", None):
            expected = json_text.array_text(
                [t % v for t, v in zip(templates, zip(*columns))], newline)
            shapes = [templates.index(t) * 3 for t in templates]  # (numbers with gaps)
            assert "".join(json_text.filled(shapes, {n * 3: t for n, t in enumerate(
                templates)}, columns, newline)) == expected
    assert json_text.filled([], {}, [], "\n") == ["[]"]
    for columns in ([[0, 1], [2, 3]], [[0, -1], [2, 3]], [[5, 5], [2, 3]]):  # (another marker)
        texts = ["a\x00b\x00c", "d\x00e\x00"]
        expected = "<" + "|".join(t.replace("\x00", "{}").format(*v) for t, v in
                                  zip(texts, zip(*columns))) + ">"
        assert "".join(templated.joined([0, 1], dict(enumerate(texts)), columns, "<", "|", ">",
                                        "\x00")) == expected


def test_the_cases_cover_blocks_negation_and_remapped_lanes():
    """The sample holds what changes a record's fields: several blocks (element names with
    .B), negated and absolute values, and CBSZ/ABID and BLGP (remapped places)."""
    names = {name for _, _, mods in CASES for name in mods}
    assert {"cbsz", "abid", "blgp", "neg", "neg_lo", "neg_hi"} <= names
    assert any(api.find_instruction(a, m).blocks > 1 for a, m, _ in CASES)
    # and each way of writing an array: an element in several lanes (-R, one record per
    # element), slots holding several elements (-M, one record per slot)
    copies = shared = False
    for arch, mnemonic, mods in CASES:
        inst = api.find_instruction(arch, mnemonic)
        for matrix in api.matrices(inst):
            try:
                found = api.layout_keys(inst, matrix, mods=mods, wave=inst.wave_sizes[0])
            except api.CalcError:
                continue
            copies = copies or found.copies > 1
            shared = shared or key_order([key for key, _ in found.keyed]) is None
    assert copies and shared


def test_a_written_array_beside_its_stand_in_in_a_string_falls_back_to_the_records():
    """The compact writer marks a Written's place with a string; a document whose own
    text holds that string is written from the records instead, the same bytes."""
    inst = api.find_instruction("cdna3", "v_mfma_f32_4x4x1_16b_f32")
    lanes, slots = json_layout.slots(_answer(inst, "A", api.Modifiers(), 64, "mlayout"))
    document = {"note": "\x00written\x00", "slots": slots}
    token = json_text.COMPACT.set(True)
    try:
        one_line = json_text.text(document)
    finally:
        json_text.COMPACT.reset(token)
    assert one_line == json.dumps(json_text.plain(document), separators=(",", ":")) + "\n"
