"""Shared helpers of the test suite.

`SHARED` is the project's shared data folder beside the repository (../shared): the golden
corpus, the reference CLI notes and the README seed. Tests that need it (or an optional
test dependency such as tabulate) skip, saying so, only when it is absent, and only
outside CI: under CI=true a missing dependency fails the test (`missing`).
"""
import gzip
import json
import os
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import matrix_calculator  # (needs the repository on sys.path)

# The environment the golden corpus was recorded in (argparse wraps help at COLUMNS).
RECORDING_ENV = {"COLUMNS": "80", "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}


def call(argv):
    """(status, stdout, stderr) of one in-process matrix_calculator.main(argv) call; usable
    at import time, where the capsys-based `run` fixture is not available."""
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = matrix_calculator.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def documentation():
    """README.md and docs/*.md, joined: the user documentation whose examples tests run."""
    paths = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in paths)


def missing(reason):
    """Skip the calling test for `reason`; under CI=true fail it instead (CI must run it)."""
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"{reason} (CI=true: a missing test dependency is a failure)",
                    pytrace=False)
    pytest.skip(reason)


def need_module(name, reason):
    """The module `name`, imported; missing(reason) when it is not installed."""
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"{name} is not installed: {reason}")


def shared_file(*parts):
    """Path of a file below ../shared, or None when it is not there."""
    path = SHARED.joinpath(*parts)
    return path if path.is_file() else None


def absent_reason(*parts):
    return (f"../shared/{'/'.join(parts)} is absent (looked in {SHARED}); "
            "this test needs the project's shared reference data")


def require_shared(*parts):
    """The path of a ../shared file; skips the calling test when it is absent."""
    path = shared_file(*parts)
    if path is None:
        missing(absent_reason(*parts))
    return path


@cache
def golden_records():
    """Every record of ../shared/golden/public.jsonl.gz (a tuple), or None if absent."""
    path = shared_file("golden", "public.jsonl.gz")
    if path is None:
        return None
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return tuple(json.loads(line) for line in handle if line.strip())


@cache
def shared_text(*parts):
    """Text of a ../shared file, or None if absent."""
    path = shared_file(*parts)
    return None if path is None else path.read_text(encoding="utf-8")


@pytest.fixture
def run(capsys, monkeypatch):
    """run(argv) -> (rc, stdout, stderr) of one in-process matrix_calculator.main call."""
    for name, value in RECORDING_ENV.items():
        monkeypatch.setenv(name, value)

    def call(argv):
        capsys.readouterr()  # drop anything printed before this call
        rc = matrix_calculator.main(list(argv))
        out, err = capsys.readouterr()
        return rc, out, err
    return call
