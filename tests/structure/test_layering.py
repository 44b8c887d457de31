"""Layers import only downwards: instruction tables, layouts, the engine/library
(matrix_api), renderers (formats), the command line. Every import statement of every
product module is read (ast), including those made inside functions and for type
checking only."""
import ast
from pathlib import Path

import pytest

from tests.helpers import missing
from tests.helpers.product_tree import product_modules, unprefixed

ROOT = Path(__file__).resolve().parents[2]
# The layer of each top-level package (docs/internals.md): the folders are the layers.
LAYERS = {
    "instructions": 0,
    "layouts": 1,
    "matrix_plans": 2,
    "matrix_library": 3,
    "formats": 4,
    "matrix_frontends": 5,
    "matrix_calculator": 6,
}


def layer_of(module):
    return LAYERS.get(unprefixed(module).split(".")[0])


def test_every_library_module_has_its_layer():
    """A top folder added to the product is named here, so that its layer is checked."""
    top = {name.split(".")[0] for name in product_modules() if name}
    assert top <= set(LAYERS), top - set(LAYERS)


def product_modules_named():
    for name, path in sorted(product_modules().items()):
        if name and layer_of(name) is not None:
            yield name, path


def imported(name, path):
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.module


def test_every_layer_is_known():
    names = {name for name, _ in product_modules_named()}
    assert {"instructions.model", "layouts.core", "matrix_plans.lds.reads",
            "matrix_library.api", "formats.queries", "matrix_frontends.cli.command",
            "matrix_calculator"} <= names


def test_no_module_imports_upwards():
    upward = []
    for name, path in product_modules_named():
        for target in imported(name, path):
            if layer_of(target) is not None and layer_of(target) > layer_of(name):
                upward.append(f"{name} imports {target}")
    assert upward == []


def test_the_check_finds_an_upward_import(tmp_path):
    """(the test above can fail: an upward import in a layouts module is seen)"""
    path = tmp_path / "core.py"
    path.write_text("def f():\n    from formats.queries import header\n")
    assert list(imported("layouts.core", path)) == ["formats.queries"]
    assert layer_of("formats.queries") > layer_of("layouts.core")


def test_no_code_tests_an_architecture_name():
    """Code reads traits; architecture names appear only in the instruction tables."""
    import re
    pattern = re.compile(r"""["'](?:RDNA[34]|CDNA[1-4])["']""")
    found = []
    for name, path in product_modules_named():
        if layer_of(name) == 0:  # the tables name their architecture
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert found == []


def test_missing_dependencies_fail_under_ci(monkeypatch):
    """tests.helpers.missing: a skip outside CI, a failure under CI=true."""
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        missing("tabulate is not installed")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        missing("tabulate is not installed")


def test_layouts_build_no_register_text():
    """The engines compute places; register and element names (v3{17}.[15:0], A[1][2])
    are the library's (matrix_library.notation) and the renderers'."""
    import re
    pattern = re.compile(r"""f?["']v[\[{]|\}\.\[|["'][A-D]\[\{""")
    found = [f"{path.name}:{n}: {line.strip()}"
             for name, path in product_modules_named()
             if layer_of(name) == 1 and "formulas" not in name  # (the formula texts)
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line) and not line.lstrip().startswith("#")]
    assert found == []
