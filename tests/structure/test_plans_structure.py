"""The planners' wing as a tree: matrix_plans/ and the library's doors to it
(matrix_library/lds.py, copies.py, preshuffle.py, epilogue.py, conversion.py, compare.py,
budget.py) import at the top of each module, share no private names between modules,
and each package's docstring says what each of its modules does."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLANS = ROOT / "matrix_plans"
DOORS = [ROOT / "matrix_library" / f"{name}.py" for name in
         ("lds", "copies", "preshuffle", "epilogue", "conversion", "compare", "budget")]
MODULES = sorted(PLANS.rglob("*.py")) + DOORS
PACKAGES = [PLANS, *sorted(p for p in PLANS.iterdir() if (p / "__init__.py").is_file())]


def _rel(path):
    return path.relative_to(ROOT).as_posix()


def _annotation_only(node):
    """An `if TYPE_CHECKING:` block (the doors name ModifierValues, an alias that
    matrix_library.checks defines for annotations only; lds/reads.py its TypeVar, so that
    a plan loads no typing)."""
    return isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_imports_are_at_the_top_of_the_module(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    for node in tree.body:
        if _annotation_only(node):
            top |= {id(inner) for inner in node.body}
            names = {alias.name for inner in node.body
                     if isinstance(inner, (ast.Import, ast.ImportFrom)) for alias in inner.names}
            assert names <= {"ModifierValues", "Section", "TypeVar"}, names
    inner = [node.lineno for node in ast.walk(tree)
             if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top]
    assert not inner, f"{_rel(path)} imports inside functions at lines {inner}"


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_no_private_name_is_imported_from_another_module(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    private = [(node.module, alias.name) for node in ast.walk(tree)
               if isinstance(node, ast.ImportFrom) for alias in node.names
               if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not private, f"{_rel(path)} imports private names {private}"


@pytest.mark.parametrize("package", PACKAGES, ids=_rel)
def test_each_package_docstring_names_its_modules(package):
    text = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    assert text, f"{_rel(package)} has no docstring"
    parts = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    parts |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    missing = sorted(name for name in parts if f"`{name}" not in text)
    assert not missing, f"{_rel(package)}'s docstring does not say what {missing} do"


# The conversion planners' whole size (every module of matrix_plans/convert, wc -l): they
# read the moves off the composed layout values, and stay shorter than this.
CONVERT_LINES = 1791


def test_the_conversion_planners_stay_under_their_line_budget():
    sizes = {_rel(path): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted((PLANS / "convert").glob("*.py"))}
    assert len(sizes) > 5, sizes
    assert sum(sizes.values()) < CONVERT_LINES, sizes
