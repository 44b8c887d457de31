"""The suite's own shape: its folders mirror the tree, each a package; no test module
imports another test module or conftest.py (what tests share lies in tests/helpers/);
the markers are registered, and every test of tests/external/ is marked external."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
# The folders of tests/ (docs/contributing.md): one a layer of the product, then the
# command-line and golden records, the structure checks and the live external checks.
FOLDERS = ("instructions", "layouts", "plans", "library", "formats", "frontends", "golden",
           "structure", "external")
NOT_CODE = ("data", "shims")  # recorded inputs, a stand-in module loaded by path


def suite_files():
    """Every Python file of the suite: tests, helpers and conftest.py."""
    return sorted(p for p in TESTS.rglob("*.py")
                  if p.relative_to(TESTS).parts[0] not in NOT_CODE)


def imported_names(tree):
    """(line, dotted name) of every module an import statement names, those inside
    functions included; `from a import b` names both a and a.b."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if node.module else base + alias.name


def names_a_test_module(name):
    return any(part.startswith("test_") or part == "conftest"
               for part in name.lstrip(".").split("."))


def test_no_test_module_imports_another_test_module_or_conftest():
    found = [f"{path.relative_to(ROOT)}:{line}: {name}"
             for path in suite_files()
             for line, name in imported_names(ast.parse(path.read_text(encoding="utf-8")))
             if names_a_test_module(name)]
    assert found == []


@pytest.mark.parametrize("source, bad", [
    ("from conftest import missing", True),
    ("import test_golden", True),
    ("from tests.golden.test_golden import ENABLED_ARCHS", True),
    ("from tests.golden import test_golden", True),
    ("from . import test_bounds", True),
    ("def f():\n    from test_cli_help import bash_complete", True),
    ("from tests.helpers import call, missing", False),
    ("from tests.helpers.bounds import CPU_SECONDS", False),
    ("import pytest", False),
])
def test_the_import_check_sees_test_modules_wherever_imported(source, bad):
    names = [name for _, name in imported_names(ast.parse(source))]
    assert any(names_a_test_module(name) for name in names) == bad, names


def test_the_folders_mirror_the_tree_and_are_packages():
    """No test module lies at the top of tests/; each folder is a package (so that its
    modules import as tests.<folder>.<module>, and two folders may hold one name)."""
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
    folders = sorted(p.name for p in TESTS.iterdir()
                     if p.is_dir() and p.name not in (*NOT_CODE, "helpers", "__pycache__"))
    assert folders == sorted(FOLDERS)
    for folder in (*FOLDERS, "helpers", "."):
        assert (TESTS / folder / "__init__.py").is_file(), folder
    for folder in FOLDERS:
        assert list((TESTS / folder).glob("test_*.py")), f"tests/{folder} holds no test"


def test_conftest_holds_fixtures_and_hooks_only():
    """conftest.py defines fixtures and pytest hooks; helpers are tests/helpers'."""
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert functions
    for node in functions:
        fixture = any("fixture" in ast.unparse(d) for d in node.decorator_list)
        assert fixture or node.name.startswith("pytest_"), node.name


def registered_markers():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[tool.pytest.ini_options]", 1)[1].split("\n[", 1)[0]
    return set(re.findall(r'^\s+"(\w+):', section, re.M))


def test_the_markers_are_registered():
    assert registered_markers() >= {"slow", "external"}


def test_every_test_of_the_external_folder_is_marked_external():
    """Collected with -m "not external", tests/external/ yields no test."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--collect-only", "-m", "not external", "tests/external",
                           "tests/structure/test_suite_layout.py"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert collected, done.stdout
    assert all(line.startswith("tests/structure/") for line in collected), collected


def test_every_test_path_the_documentation_and_the_suite_name_exists():
    """A path such as tests/plans/test_lds.py in the READMEs, docs/ or the suite names a
    file of the suite as it lies."""
    pattern = re.compile(r"\btests/[\w/]+\.py\b")
    pages = [ROOT / "README.md", TESTS / "data" / "README.md",
             *sorted((ROOT / "docs").rglob("*.md")), *suite_files()]
    stale = [f"{page.relative_to(ROOT)}: {name}" for page in pages
             for name in sorted(set(pattern.findall(page.read_text(encoding="utf-8"))))
             if not (ROOT / name).is_file()]
    assert stale == []
