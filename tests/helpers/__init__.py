"""Shared helpers of the test suite (`from tests.helpers import call, missing`); the
fixtures are tests/conftest.py's.

`DATA` is tests/data: everything the tests read lies in the repository (its README says
where each file came from), so a lone clone runs every test. A test that needs an
optional dependency (a package, a compiler) skips, saying so, only when it is absent,
and only outside CI: under CI=true a missing dependency fails the test (`missing`).
"""
import contextlib
import gzip
import importlib
import io
import json
import os
import re
from functools import cache
from pathlib import Path

import pytest

import matrix_calculator
from instructions import ARCHITECTURES

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"

# The environment the golden corpus was recorded in (argparse wraps help at COLUMNS).
RECORDING_ENV = {"COLUMNS": "80", "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}


def call(argv):
    """(status, stdout, stderr) of one in-process matrix_calculator.main(argv) call; usable
    at import time, where the capsys-based `run` fixture is not available."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = matrix_calculator.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def body(out):
    """stdout without the two header lines."""
    lines = out.splitlines()
    assert lines[0].startswith("Architecture: ") and lines[1].startswith("Instruction: ")
    return lines[2:]


def documentation():
    """README.md and docs/*.md, joined: the user documentation whose examples tests run."""
    paths = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in paths)


def notes_only(err):
    """Whether stderr holds nothing but -d's notes on the reference's known-wrong formula
    lines (stdout keeps the reference's bytes: tests/formats/test_reference_formulas.py)."""
    return all(re.fullmatch(r"matrix[-_]calculator(\.py)?: note: -d's line .*", line)
               for line in err.splitlines())


def missing(reason):
    """Skip the calling test for `reason`; under CI=true fail it instead (CI must run it)."""
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"{reason} (CI=true: a missing test dependency is a failure)",
                    pytrace=False)
    pytest.skip(reason)


def need_module(name, reason):
    """The module `name`, imported; missing(reason) when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"{name} is not installed: {reason}")


def data_file(*parts):
    """The path of a file below tests/data (it is part of the repository: a missing one is
    a broken checkout, and fails the calling test)."""
    path = DATA.joinpath(*parts)
    if not path.is_file():
        pytest.fail(f"tests/data/{'/'.join(parts)} is missing from the checkout", pytrace=False)
    return path


# The quick run (-m "not slow") visits one case in QUICK_SAMPLE of each long sweep; the
# full run every case.
QUICK_SAMPLE = 8


def sampled(cases, ids=None, every=QUICK_SAMPLE):
    """The cases of a long sweep (each a tuple of the test's arguments) as pytest.param:
    every `every`-th one, spread over the sweep in its order, unmarked and the others
    marked slow, so that the quick run visits a sample and the full run every case."""
    ids = list(ids) if ids is not None else [None] * len(cases)
    return [pytest.param(*case, id=name, marks=() if n % every == 0 else pytest.mark.slow)
            for n, (case, name) in enumerate(zip(cases, ids))]


# Arch labels of the golden records that must pass (tests/golden/test_golden.py); 'none'
# labels commands without -a.
ENABLED_ARCHS = frozenset({"cdna1", "cdna2", "cdna3", "rdna3", "rdna4", "none"})


@cache
def golden_records():
    """Every record of tests/data/golden/public.jsonl.gz (a tuple): AMD's calculator's
    recorded outputs (tests/data/README.md)."""
    with gzip.open(data_file("golden", "public.jsonl.gz"), "rt", encoding="utf-8") as handle:
        return tuple(json.loads(line) for line in handle if line.strip())


@cache
def data_text(*parts):
    """Text of a file below tests/data."""
    return data_file(*parts).read_text(encoding="utf-8")


@cache
def reference_examples():
    """The examples of AMD's calculator's README, (line, arguments, output) each: the
    command's arguments after `./matrix_calculator.py` and its output lines, as the README
    prints them at that line (tests/data/reference/readme_examples.txt)."""
    found = []
    for block in data_text("reference", "readme_examples.txt").split("@@ line ")[1:]:
        number, command, *output = block.split("\n")
        args = command.split("./matrix_calculator.py ", 1)[1]
        found.append((int(number), args, "\n".join(output).rstrip("\n") + "\n"))
    return tuple(found)


@cache
def swept(arch):
    """The instructions of `arch` that the per-instruction sweeps visit: all of an AMD
    architecture's; of NVIDIA's (instructions/nvidia.py), each line once (on its first
    architecture: sm89 and sm90 repeat sm80's lines) and of each wgmma type N = 8, 24 and
    256 only (the other Ns' layouts differ in one digit's size; tests/layouts/test_nvidia.py
    checks every N against CuTe), so that 626 table lines do not double the suite."""
    if arch.vendor == "amd":
        return arch.instructions
    earlier = {i.mnemonic for a in ARCHITECTURES[:ARCHITECTURES.index(arch)]
               if a.family == arch.family for i in a.instructions}
    return tuple(i for i in arch.instructions if i.mnemonic not in earlier
                 and (i.m != 64 or i.n in (8, 24, 256)))
