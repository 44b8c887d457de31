"""No product module over 600 lines (modules split by job).

Product modules: every .py below instructions/, layouts/, library/, formats/ and cli/, and
matrix_calculator.py (tests/helpers/product_tree.py); not tests/, scripts/ or bench/.
"""
from pathlib import Path

import pytest

from tests.helpers.product_tree import product_modules as tree_modules

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600


def product_modules() -> list[Path]:
    return sorted(tree_modules().values())


def lines(path: Path) -> int:
    with path.open(encoding="utf-8") as f:
        return sum(1 for _ in f)


def test_the_modules_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in product_modules()}
    assert {"matrix_calculator.py", "matrix_library/api.py", "matrix_frontends/cli/options.py",
            "matrix_plans/lds/reads.py",
            "formats/hip/kernel.py", "instructions/modifiers.py",
            "matrix_library/facts.py"} <= names
    assert not any(name.startswith(("tests/", "scripts/", "bench/")) for name in names)
    assert len(names) > 60


@pytest.mark.parametrize("path", product_modules(),
                         ids=lambda path: path.relative_to(ROOT).as_posix())
def test_module_is_at_most_600_lines(path):
    name = path.relative_to(ROOT).as_posix()
    assert lines(path) <= LIMIT, f"{name} has {lines(path)} lines: split it by job"

