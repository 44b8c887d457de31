"""The library's contract: every argument is checked at the door, eagerly, in
constant time; bad input raises CalcError only, with a message naming the value (control
characters escaped, length bounded) and what is allowed."""
import time

import pytest

from matrix_library import api
from matrix_library.api import CalcError, Element

CDNA3 = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
RDNA4 = api.find_instruction("rdna4", "v_wmma_f32_16x16x16_f16")
F8F6F4 = api.find_instruction("cdna4", "v_mfma_f32_32x32x64_f8f6f4")
A00 = api.element_of("A", 0, 0, 0)


def clean(message):
    """A message a terminal shows as it is: one line, no control characters, bounded."""
    return message.isprintable() and len(message) < 600


# Each probe, and what the message must name.
PROBES = [
    ("element_text(None, el)", lambda: api.element_text(None, A00), ["Instruction", "None"]),
    ("element_text(inst, Element(Z))",
     lambda: api.element_text(CDNA3, Element("Z", 0, 0, None)), ["'Z'", "A, B"]),
    ("element_text(inst, Element(A, True, ...))",  # (built by hand: checked as element_of)
     lambda: api.element_text(CDNA3, Element("A", True, None, 0)), ["i", "True"]),
    ("element_text(inst, Element(A, -1, ...))",
     lambda: api.element_text(CDNA3, Element("A", -1, None, 0)), ["i", "-1"]),
    ("element_text(inst, Element(B, ..., block -2))",
     lambda: api.element_text(CDNA3, Element("B", None, 1, 0, -2)), ["block", "-2"]),
    ("str(element_of(A, None, 0, 2))", lambda: str(api.element_of("A", None, 0, 2)),
     ["i", "None"]),
    ("catalog('arch=cdna3')", lambda: api.catalog("arch=cdna3"), ["mapping", "parse_filters"]),
    ("catalog({'arch': None})", lambda: api.catalog({"arch": None}), ["arch", "None"]),
    ("parse_filters(None)", lambda: api.parse_filters(None), ["key=value", "None"]),
    ("catalog({'m': '²'})", lambda: api.catalog({"m": "²"}), ["m=", "'²'", "whole number"]),
    ("element_of('Q', -1, 'x', 2.5)", lambda: api.element_of("Q", -1, "x", 2.5), ["'Q'"]),
    ("element_of('A', -1, 0, 0)", lambda: api.element_of("A", -1, 0, 0), ["i", "-1"]),
    ("element_of('A', 0, 0, 2.5)", lambda: api.element_of("A", 0, 0, 2.5), ["k", "2.5"]),
    ("wave_size(inst, 0.0)", lambda: api.wave_size(CDNA3, 0.0), ["wave", "0.0"]),
    ("facts(inst, mods='garbage')", lambda: api.facts(CDNA3, mods="garbage"),
     ["modifiers", "'garbage'"]),
    ("catalog({'type': 5})", lambda: api.catalog({"type": 5}), ["type=", "5"]),
    ("locate cbsz 10**30", lambda: api.locate(CDNA3, "A", mods={"cbsz": 10**30}),
     ["cbsz", "100 bits", "only 0"]),
    ("modifiers cbsz 10**30", lambda: api.modifiers({"cbsz": 10**30}),
     ["cbsz", "1" + "0" * 30, "255"]),
    ("locate cbsz 2**63", lambda: api.locate(CDNA3, "A", mods={"cbsz": 2**63}), ["cbsz"]),
    ("locate cbsz 10**10", lambda: api.locate(CDNA3, "A", mods={"cbsz": 10**10}),
     ["cbsz", "10000000000"]),
    ("locate i 10**5000", lambda: api.locate(CDNA3, "A", 10**5000), ["i", "bits"]),
    ("catalog({'m': 10**5000})", lambda: api.catalog({"m": 10**5000}), ["m=", "bits"]),
    ("catalog(wave=32.0)", lambda: api.catalog(wave=32.0), ["wave", "32.0"]),
    ("catalog({'type': '\\x1b]0;x\\x07'}, strict)",
     lambda: api.catalog({"type": "\x1b]0;x\x07"}, strict=True), ["type=", "\\x1b"]),
    ("find_architecture('\\x1b[2J')", lambda: api.find_architecture("\x1b[2J"), ["\\x1b"]),
    ("locate(inst, 5)", lambda: api.locate(CDNA3, 5), ["matrix", "5"]),
    ("with_formats(f8f6f4, cbsz=5)", lambda: api.with_formats(F8F6F4, {"cbsz": 5}), ["5"]),
    # (values a caller gives back in a message, cut: a long one once came back whole)
    ("compare(inst, inst, '1' * 5000)", lambda: api.compare(CDNA3, CDNA3, "1" * 5000),
     ["A, B, C or D", "'111"]),
    ("lds_plan lds_type 'x' * 5000", lambda: api.lds_plan(CDNA3, "A", tile="32x8",
                                                          lds_type="x" * 5000),
     ["--lds-type", "'xxx"]),
    ("lds_copy copy 'x' * 5000", lambda: api.lds_copy(CDNA3, "A", tile="32x8",
                                                      copy="x" * 5000), ["copy", "'xxx"]),
    ("port route 'x' * 5000", lambda: api.port(
        api.find_instruction("sm80", "mma.m16n8k16.f32.f16.f16.f32"), "A", RDNA4, "A",
        route="x" * 5000), ["route", "'xxx"]),
    ("find_product 'x' * 5000", lambda: api.find_product("x" * 5000), ["product", "'xxx"]),
    ("preshuffle order 'x' * 5000", lambda: api.preshuffle(CDNA3, "A", order="x" * 5000),
     ["row- or col-major", "'xxx"]),
]


@pytest.mark.parametrize("name, probe, named", PROBES, ids=[p[0] for p in PROBES])
def test_every_probe_raises_a_clear_calc_error(name, probe, named):
    api.catalog()  # (the catalog's facts are built once, on first use: not timed)
    start = time.process_time()
    with pytest.raises(CalcError) as caught:
        probe()
    # (CPU time, far above the milliseconds it takes: a guard against 1 << 10**10, not a
    # measurement; bench/ measures)
    assert time.process_time() - start < 2.0, name
    message = str(caught.value)
    assert clean(message), message
    for part in named:
        assert part.lower() in message.lower(), (name, message)


@pytest.mark.parametrize("call", [
    lambda: api.layout(CDNA3, "Z"), lambda: api.slots(CDNA3, "A", wave=7),
    lambda: api.layout_rows(CDNA3, "A", mods={"cbsz": -1}),
    lambda: api.slot_rows(CDNA3, "Q"), lambda: api.slot_rows(CDNA3, "A", wave=7),
    lambda: api.layout(None, "A")],
    ids=["layout", "slots", "layout_rows", "slot_rows", "slot_rows-wave", "layout-None"])
def test_generators_check_before_the_first_item(call):
    """layout, slots, layout_rows and slot_rows refuse bad input when called, not when
    iterated."""
    with pytest.raises(CalcError):
        call()


def test_right_answers_are_kept():
    """(the checks refuse only what is wrong)"""
    assert str(api.element_of("a", 1, 99, 2)) == "A[1][2]"  # j is not A's: not read
    assert api.element_text(CDNA3, api.element_of("B", 0, 3, 5)) == "B[5][3]"
    assert api.element_text(CDNA3, Element("b", None, 3, 5)) == "B[5][3]"  # (any case)
    assert api.element_text(CDNA3, Element("A", 1, 99, 2)) == "A[1][2]"  # (j: not A's)
    assert api.wave_size(RDNA4, 0) == 32 and api.wave_size(RDNA4, 64) == 64
    assert api.facts(F8F6F4, mods={"cbsz": 4})["types"]["A"]["key"] == "fp4"
    assert api.facts(CDNA3, mods={})["mnemonic"] == CDNA3.mnemonic
    assert [f["mnemonic"] for f in api.catalog({"m": "32", "k": 8, "arch": "cdna3"})] == \
        [f["mnemonic"] for f in api.catalog({"shape": "32x32x8", "arch": ["CDNA3"]})]
    assert api.catalog({"sparse": True}) == api.catalog({"sparse": "yes"})
    assert api.catalog({"m": "12345"}) == []  # a number no instruction has: no rows


def test_catalog_rows_are_the_callers():
    """The catalog keeps its facts between calls; a caller changing a row changes only
    its copy."""
    first = api.catalog({"arch": "cdna3"})
    first[0]["types"]["A"]["key"] = "changed"
    first[0]["registers"].clear()
    assert api.catalog({"arch": "cdna3"})[0] == api.facts(CDNA3.architecture.instructions[0])


def test_a_thousand_filter_values_do_not_rebuild_the_catalog():
    """The filter engine builds the catalog once: 1,000 values (one filter key with 1,000
    alternatives, and 1,000 strict checks of one value each) take a few CPU seconds at
    most, where rebuilding the catalog per value would take minutes (a guard, not a
    measurement: bench/ measures)."""
    api.catalog()  # (the first catalog builds the facts: counted apart)
    shapes = [f"{m}x{n}x*" for m in range(1, 41) for n in range(1, 26)]
    start = time.process_time()
    rows = api.catalog({"shape": shapes})
    assert time.process_time() - start < 5.0
    assert {(f["m"], f["n"]) for f in rows} == \
        {(f["m"], f["n"]) for f in api.catalog() if f["m"] <= 40 and f["n"] <= 25}
    types = sorted({t for f in api.catalog() for t in [f["types"]["A"]["key"]]})
    start = time.process_time()
    for n in range(1000):
        api.check_filters({"type": types[n % len(types)]})
    assert time.process_time() - start < 5.0


def test_the_command_line_filter_of_a_thousand_values_is_fast():
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    argv = [sys.executable, str(root / "matrix_calculator.py"), "--catalog", "--csv"]
    for n in range(1000):
        argv += ["--filter", f"type={('f16', 'bf16', 'fp8', 'i8')[n % 4]}"]
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 0, proc.stderr
    # (the child's CPU time, the interpreter's start included: seconds at most, where a
    # catalog per value would take minutes)
    assert (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime) < 6.0
    assert proc.stdout.count("\n") > 50
