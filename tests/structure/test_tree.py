"""The tree is the import tree: each product module has one import name, the one its
path gives; each layer's banned imports fire; docs/internals.md holds the import graph
the code has."""
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import missing
from tests.helpers.product_tree import PACKAGES, ROOT, product_modules

DOOR = "matrix_calculator"


def path_names():
    """{import name the path gives: path} of every product module."""
    return product_modules()


def test_every_module_imports_under_the_name_its_path_gives_and_no_other():
    """Imported by the names their paths give, every product module is loaded once: no
    two names in sys.modules hold one file, and no package's search path reaches above
    its own folder (which would give its neighbours a second name)."""
    names = path_names()
    for name in names:
        module = importlib.import_module(name)
        assert Path(module.__file__).resolve() == names[name].resolve(), name
    product = {path.resolve() for path in names.values()}
    by_file = {}
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if where and Path(where).resolve() in product:
            by_file.setdefault(Path(where).resolve(), []).append(name)
    twice = {str(path): found for path, found in by_file.items() if len(found) > 1}
    assert twice == {}
    for name in names:
        module = sys.modules[name]
        for folder in getattr(module, "__path__", []):
            assert Path(folder).resolve() == names[name].parent.resolve(), (name, folder)
    assert "amd_matrix_calculator" not in sys.modules


def test_the_top_folders_that_are_not_product_hold_no_package():
    """scripts/, bench/ and docs/ are no import packages; tests/ is the suite's own
    package (its helpers), which the build does not install."""
    for folder in ("scripts", "bench", "docs"):
        assert not (ROOT / folder / "__init__.py").exists(), folder
    assert sorted(p.parent.name for p in ROOT.glob("*/__init__.py")) == \
        sorted((*PACKAGES, "tests"))
    assert '"tests' not in (ROOT / "pyproject.toml").read_text(encoding="utf-8").split(
        "packages = ", 1)[1].split("]", 1)[0]


def ruff():
    found = shutil.which("ruff", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                       os.environ.get("PATH", "")]))
    if found is None:
        missing("ruff is not installed (pip install -r requirements-dev.txt)")
    return found


# (layer, a module of a layer above it): each layer's ruff.toml must refuse the import
PLANTED = [("instructions", "layouts.core"), ("layouts", "matrix_plans.lds.reads"),
           ("matrix_plans", "matrix_library.request"), ("matrix_library", "formats.tables"),
           ("formats", "layouts.core"), ("formats", "matrix_plans.budget"),
           ("formats", "matrix_frontends.cli.options"),
           ("matrix_frontends", "matrix_calculator"), ("matrix_frontends", "layouts.core"),
           ("matrix_frontends", "matrix_plans.lds.reads")]


@pytest.mark.parametrize("layer, target", PLANTED, ids=[f"{a}-{b}" for a, b in PLANTED])
def test_a_planted_upward_import_is_refused_by_the_layers_ruff_rules(tmp_path, layer, target):
    """A copy of the layer's lint configuration with one upward import planted in a
    module of the layer: ruff reports the banned import by its real name (TID251), and
    the same module without it is clean."""
    command = ruff()
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / layer).mkdir()
    shutil.copy(ROOT / layer / "ruff.toml", tmp_path / layer / "ruff.toml")
    planted = tmp_path / layer / "planted.py"
    planted.write_text(f'"""A module of {layer}/."""\nfrom {target} import x\n\n'
                       "__all__ = ['x']\n", encoding="utf-8")
    found = subprocess.run([command, "check", "--no-cache", "--output-format", "concise",
                            str(planted)], capture_output=True, text=True, cwd=tmp_path)
    assert found.returncode == 1 and "TID251" in found.stdout, found.stdout + found.stderr
    assert f"`{target.split('.')[0]}" in found.stdout or f"`{target}" in found.stdout
    planted.write_text(f'"""A module of {layer}/."""\nfrom os import sep as x\n\n'
                       "__all__ = ['x']\n", encoding="utf-8")
    clean = subprocess.run([command, "check", "--no-cache", str(planted)],
                           capture_output=True, text=True, cwd=tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_every_layer_has_its_ruff_rules():
    for layer in PACKAGES:
        text = (ROOT / layer / "ruff.toml").read_text(encoding="utf-8")
        assert 'extend = "../pyproject.toml"' in text and "banned-api" in text, layer
        above = PACKAGES[PACKAGES.index(layer) + 1:] + (DOOR,)
        for name in above:
            assert f'"{name}".msg' in text, (layer, name)


def test_the_internals_page_holds_the_import_graph_of_the_code():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_graph.py"),
                           "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_graph_drawer_sees_an_arrow_planted_in_a_copy(tmp_path):
    """(the check above can fail: an import added to a module shows as an arrow)"""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import import_graph
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    for package in import_graph.PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "matrix_calculator.py").write_text("")
    (tmp_path / "formats" / "a.py").write_text("def f():\n    import layouts\n")
    arrows, sizes = import_graph.graph(tmp_path)
    assert arrows == {("formats", "layouts"): 1}
    assert sizes["formats"] == 2
