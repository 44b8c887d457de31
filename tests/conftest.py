"""The suite's fixtures (its helpers are tests/helpers/), and the `external` marker put on
every test of tests/external/ (the live checks against installed programs)."""
from pathlib import Path

import pytest

import matrix_calculator
from tests.helpers import RECORDING_ENV

EXTERNAL = Path(__file__).resolve().parent / "external"


def pytest_collection_modifyitems(items):
    for item in items:
        if EXTERNAL in item.path.resolve().parents:
            item.add_marker(pytest.mark.external)


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
