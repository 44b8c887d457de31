"""matrix_api: the README's examples run, the two directions of the mapping agree for
every instruction, the facts are the numbers -d prints, and bad arguments raise
CalcError with a message that says what is allowed."""
import contextlib
import doctest
import io
import re
from pathlib import Path

import pytest

import matrix_calculator
from instructions import ARCHITECTURES
from layouts import Modifiers
from matrix_library import api
from tests.helpers import documentation, sampled, swept

ROOT = Path(__file__).resolve().parents[2]


def readme_examples():
    """The ```python blocks of README.md that hold doctest examples."""
    text = documentation()
    return [block for block in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
            if ">>>" in block]


def test_the_readme_has_api_examples():
    assert len(readme_examples()) >= 3


def test_readme_examples_run():
    """The blocks in order, as one session: later ones use names the first defines."""
    names, out = {}, io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(readme_examples()):
        test = doctest.DocTestParser().get_doctest(block, names, f"README[{number}]",
                                                   "README.md", 0)
        runner.run(test, out=out.write, clear_globs=False)
        names = test.globs  # a DocTest runs in a copy of the names it was given
    assert runner.tries and runner.failures == 0, out.getvalue()


def test_module_docstring_examples_run():
    failures, tests = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert tests and not failures


# ---- the two directions of the mapping, over every instruction

INSTRUCTIONS = [(inst, wave) for arch in ARCHITECTURES for inst in swept(arch)
                for wave in arch.waves if wave in inst.wave_sizes or arch.vendor == "amd"]


@pytest.mark.parametrize("inst, wave", sampled(
    INSTRUCTIONS, [f"{i.arch}-{i.mnemonic}-w{w}" for i, w in INSTRUCTIONS]))
def test_layout_and_slots_are_inverse(inst, wave):
    for matrix in api.matrices(inst):
        entries = list(api.layout(inst, matrix, wave=wave))
        by_element = {}
        for element, location in entries:
            by_element.setdefault(element, []).append(location)
        rows, cols, blocks = api.operand(inst, matrix, wave=wave).shape
        assert len(by_element) == rows * cols * blocks  # every element, once
        held = {}
        for location, elements in api.slots(inst, matrix, wave=wave):
            for element in elements:
                held.setdefault(element, []).append(location)
        assert {e: sorted(locs, key=str) for e, locs in held.items()} == \
            {e: sorted(locs, key=str) for e, locs in by_element.items()}
        count = api.register_count(inst, matrix, wave=wave)
        assert max(r for locs in by_element.values() for loc in locs
                   for r in loc.registers) < max(count, 1) or matrix == "K"


def expected_grids(inst, matrix, mods, wave):
    """register_grid() of every block and slot_grid(), rebuilt from the records of
    layout() and slots()."""
    from matrix_library.records import marked, register_name
    cells = {}
    for element, location in api.layout(inst, matrix, mods=mods, wave=wave):
        cells.setdefault((element.row, element.col, element.block), []).append(
            marked(location.text, location.mark))
    rows, cols, blocks = (1 + max(key[n] for key in cells) for n in range(3))
    grids = [[[cells[r, c, b] for c in range(cols)] for r in range(rows)]
             for b in range(blocks)]
    slots = list(api.slots(inst, matrix, mods=mods, wave=wave))
    columns = sorted({(s.location.register, s.location.bits) for s in slots})
    width = slots[0].location.bits[1] - slots[0].location.bits[0] + 1
    names = [register_name(api.Place(reg, 0, lo, width), lane=False) for reg, (lo, _) in columns]
    by_lane = {}
    for s in slots:
        by_lane.setdefault(s.location.lane, {})[s.location.register, s.location.bits] = [
            marked(api.element_text(inst, e), s.location.mark) for e in s.elements]
    table = [(lane, [by_lane[lane].get(column, []) for column in columns])
             for lane in sorted(by_lane)]
    return grids, (names, table)


def check_grids(inst, matrix, mods, wave):
    grids, slot_table = expected_grids(inst, matrix, mods, wave)
    assert [api.register_grid(inst, matrix, b, mods=mods, wave=wave)
            for b in range(len(grids))] == grids
    assert api.slot_grid(inst, matrix, mods=mods, wave=wave) == slot_table


@pytest.mark.parametrize("inst, wave", sampled(
    INSTRUCTIONS, [f"{i.arch}-{i.mnemonic}-w{w}" for i, w in INSTRUCTIONS]))
def test_bulk_grids_are_layout_and_slots(inst, wave):
    """register_grid() and slot_grid() (what -R and -M draw) hold exactly the locations
    and elements of layout() and slots(), marked, in the same order."""
    for matrix in api.matrices(inst):
        check_grids(inst, matrix, None, wave)


# Modifiers that move, broadcast or mark values: CBSZ/ABID, BLGP, CDNA3's FP64 negation,
# RDNA's NEG/NEG_HI (halves marked apart), gfx1250's neg_lo/neg_hi and index_key
GRID_MODIFIERS = [
    ("cdna1", "v_mfma_f32_32x32x1f32", {"cbsz": 1, "abid": 1}),
    ("cdna2", "v_mfma_f32_4x4x1f32", {"cbsz": 4, "abid": 3}),
    ("cdna2", "v_mfma_f32_4x4x1f32", {"blgp": 3}),
    ("cdna3", "v_mfma_f32_4x4x4_16b_f16", {"blgp": 5}),
    ("cdna3", "v_mfma_f32_32x32x2_f32", {"blgp": 3}),
    ("cdna3", "v_mfma_f64_16x16x4_f64", {"blgp": 7}),
    ("cdna3", "v_smfmac_f32_32x32x16_bf16", {"abid": 1}),
    ("cdna4", "v_mfma_f32_32x32x64_f8f6f4", {"cbsz": 2, "blgp": 4}),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", {"blgp": 4}),
    ("rdna3", "v_wmma_f32_16x16x16_f16", {"neg": 3, "neg_hi": 7}),
    ("rdna3", "v_wmma_f16_16x16x16_f16", {"neg": 1, "neg_hi": 2}),
    ("rdna4", "v_wmma_f32_16x16x16_f16", {"neg": 5, "neg_hi": 4}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", {"neg_lo": 3, "neg_hi": 3}),
    ("gfx1250", "v_swmmac_f32_16x16x64_f16", {"neg_lo": 1, "index_key": 1}),
]


@pytest.mark.parametrize("arch, mnemonic, mods", GRID_MODIFIERS)
def test_bulk_grids_follow_the_modifiers(arch, mnemonic, mods):
    inst = api.find_instruction(arch, mnemonic)
    checked = 0
    for wave in api.find_architecture(arch).waves:
        for matrix in api.matrices(inst):
            try:
                api.operand(inst, matrix, mods=mods, wave=wave)
            except api.CalcError:  # a modifier that is not for this matrix
                continue
            check_grids(inst, matrix, mods, wave)
            checked += 1
    assert checked


SAMPLE = [("cdna1", "v_mfma_f32_32x32x1f32", {"cbsz": 1, "abid": 1}),
          ("cdna2", "v_mfma_f64_4x4x4f64", {}),
          ("cdna3", "v_mfma_f32_4x4x4_16b_f16", {"blgp": 5}),
          ("cdna3", "v_smfmac_f32_32x32x16_bf16", {"abid": 1}),
          ("rdna3", "v_wmma_bf16_16x16x16_bf16", {"opsel": 4}),
          ("rdna4", "v_swmmac_i32_16x16x64_iu4", {}),
          ("rdna4", "v_wmma_f32_16x16x16_fp8_bf8", {})]


@pytest.mark.parametrize("arch, mnemonic, mods", SAMPLE)
def test_locate_and_elements_at_agree(arch, mnemonic, mods):
    inst = api.find_instruction(arch, mnemonic)
    for wave in api.find_architecture(arch).waves:
        for matrix in api.matrices(inst):
            try:
                entries = list(api.layout(inst, matrix, mods=mods, wave=wave))
            except api.CalcError:  # the modifier is not for this matrix
                continue
            for element, location in entries[::37]:
                coords = {c: getattr(element, c) for c in "ijk" if getattr(element, c)
                          is not None}
                assert location in api.locate(inst, matrix, **coords, block=element.block,
                                              mods=mods, wave=wave)
                found = api.elements_at(inst, matrix, location.register, location.lane,
                                        mods=mods, wave=wave)
                assert (element, location) in found


def test_calculation_reads_what_the_modifiers_select():
    inst = api.find_instruction("cdna3", "v_mfma_f32_4x4x4_16b_f16")
    calc = api.calculation(inst, i=1, j=2, block=5, mods={"cbsz": 2, "abid": 3})
    assert calc.d.element == api.Element("D", 1, 2, None, 5)
    assert [p.a.element.block for p in calc.products] == [7] * inst.k  # block 4 + ABID 3
    assert [p.b.element.block for p in calc.products] == [5] * inst.k
    assert calc.c.element == api.Element("C", 1, 2, None, 5)
    sparse = api.find_instruction("cdna3", "v_smfmac_f32_16x16x32_f16")
    assert api.calculation(sparse, 3, 4).c is None
    at = api.calculations_at(inst, register=0, lane=0)
    assert [c.d.element for c in at] == [e for e, _ in api.elements_at(inst, "D", 0, 0)]


# ---- facts are the numbers -d prints

def detail_text(inst):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert matrix_calculator.main(["-a", inst.arch, "-i", inst.mnemonic, "-d"]) == 0
    return out.getvalue()


def number(text, label):
    return int(re.search(rf"^\s+{re.escape(label)}: (\d+)$", text, re.M).group(1))


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_facts_are_what_detail_prints(arch):
    # (AMD's -d text; NVIDIA's -d, with its sources, is tests/layouts/test_nvidia.py's)
    for inst in arch.instructions if arch.vendor == "amd" else ():
        text, facts = detail_text(inst), api.facts(inst)
        ops, unit = facts["flops_kind"], facts["compute_unit"]
        assert number(text, ops) == facts["flops"]
        if facts["flops_per_cycle"] is None:  # gfx1250: no ISA cycles; LLVM's latency
            assert facts["cycles"] is None or \
                f"Latency in LLVM's scheduling model: {facts['cycles']} cycles\n" in text
        else:
            assert number(text, "Execution cycles") == facts["cycles"]
            assert number(text, f"{ops}/{unit}/cycle") == facts["flops_per_cycle"]
        assert (f"VOP3P Opcode: {facts['opcode']:#x}") in text
        assert f"Encoding: {facts['encoding']}\n" in text
        assert (number(text, "M"), number(text, "N"), number(text, "K")) == \
            (facts["m"], facts["n"], facts["k"])
        sections = re.split(r"^    (?:Wave(\d+) )?[Rr]egister usage:$", text, flags=re.M)
        for wave, body in zip(sections[1::2], sections[2::2]):
            counts = dict(re.findall(r"GPRs required for ([A-D]): (\d+)", body))
            registers = facts["registers"][wave or "64"]
            assert {m: int(n) for m, n in counts.items()} == \
                {m: registers[m] for m in counts}
        if inst.family == "cdna":
            assert ("cbsz" in facts["modifiers"]) == ("CBSZ and ABID bits supported: True"
                                                      in text or facts["formats"] != [])
            assert ("blgp" in facts["modifiers"]) == ("BLGP bits supported: True" in text
                                                      or facts["formats"] != [])


def test_rdna_modifiers_are_rdna_ones():
    for inst in api.instructions("rdna3") + api.instructions("rdna4"):
        supported = set(api.supported_modifiers(inst))
        assert supported <= {"opsel", "neg", "neg_hi"}, (inst.mnemonic, supported)
        assert ("opsel" in supported) == inst.opsel
        assert ("neg" in supported) == inst.neg


def _legal(inst, matrix, mods, wave):
    from layouts import check_modifiers
    try:
        check_modifiers(inst, matrix, api.Modifiers(**mods), True, "get", wave)
    except api.CalcError:
        return False
    return True


@pytest.mark.slow
def test_declared_modifiers_are_the_ones_the_checks_accept():
    """Every modifier a table line declares takes a non-zero value on some matrix at
    some wave size (ABID may need CBSZ), and no undeclared one does."""
    names = api.Modifiers._fields
    for inst in api.instructions():
        present = api.matrices(inst)
        waves = inst.wave_sizes
        for name in names:
            trials = [{name: value} for value in (1, 2, 4)]  # RDNA3's OPSEL takes only 4
            trials += [{name: 1, other: 1} for other in names if other != name]
            accepted = any(_legal(inst, m, t, w) for t in trials for m in present
                           for w in waves)
            assert accepted == inst.takes(name), (inst.arch, inst.mnemonic, name)


# ---- lookups and errors

def test_lookups_accept_any_alias_and_case():
    assert api.find_architecture("GFX90A").name == "CDNA2"
    assert api.find_architecture(api.find_architecture("rdna4")).name == "RDNA4"
    assert api.find_instruction("Aldebaran", "V_MFMA_F64_4X4X4F64").arch == "CDNA2"
    assert len(api.instructions()) == sum(len(a.instructions) for a in ARCHITECTURES)
    assert api.architectures() == ARCHITECTURES
    assert api.modifiers({"NEG-HI": 2}, neg=1) == Modifiers(neg=1, neg_hi=2)


@pytest.mark.parametrize("call, texts", [
    (lambda: api.find_architecture("rdna9"), ["'rdna9'", "cdna3"]),
    (lambda: api.find_instruction("cdna3", "v_bogus"), ["v_bogus", "instructions("]),
    (lambda: api.locate(DENSE, "A", i=32), ["i = 32", "0 to 31"]),
    (lambda: api.locate(DENSE, "A", k=-1), ["k takes a whole number >= 0", "-1"]),
    (lambda: api.locate(DENSE, "E"), ["'E'", "A, B, C, D"]),
    (lambda: api.locate(DENSE, "K"), ["dense", "A, B, C or D"]),
    (lambda: api.locate(DENSE, "A", wave=32), ["32", "64"]),
    (lambda: api.locate(DENSE, "A", mods={"cbsz": 1}), ["CBSZ", "only 0"]),
    (lambda: api.locate(DENSE, "A", mods={"bogus": 1}), ["'bogus'", "cbsz"]),
    (lambda: api.locate(DENSE, "A", mods={"neg": -1}), ["neg", "-1"]),
    (lambda: api.elements_at(DENSE, "D", 16, 0), ["register = 16", "0 to 15"]),
    (lambda: api.elements_at(DENSE, "D", 0, 64), ["lane = 64", "0 to 63"]),
    (lambda: api.locate(api.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16"), "A",
                        mods={"opsel_a": 1}), ["OPSEL_A", "CDNA"]),
    (lambda: api.catalog({"colour": "red"}), ["'colour'", "arch"]),
    (lambda: api.catalog({"shape": "16by16"}), ["16by16", "MxNxK"]),
    (lambda: api.catalog({"sparse": "maybe"}), ["maybe", "yes or no"]),
    (lambda: api.parse_filters(["type"]), ["key=value", "'type'"]),
])
def test_errors_say_what_is_allowed(call, texts):
    with pytest.raises(api.CalcError) as info:
        call()
    for text in texts:
        assert text in str(info.value), str(info.value)


DENSE = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
