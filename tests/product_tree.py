"""The product's modules as the package names them, read from the tree (shared by the
structure tests: layering, import cycles, module size, family names, packaging).

The package `amd_matrix_calculator` is library/ itself, and instructions/, layouts/,
formats/ and cli/ are its subpackages (library/__init__.py); matrix_calculator.py is the
script. Names here drop the package prefix: library/matrix_api.py is "matrix_api",
library/matrix_library/checks.py "matrix_library.checks", cli/matrix_cli.py
"cli.matrix_cli", layouts/core.py "layouts.core".
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "amd_matrix_calculator"
# folder -> the name its modules get under the package ("" for the package's own folder)
FOLDERS = {"instructions": "instructions", "layouts": "layouts", "library": "",
           "formats": "formats", "cli": "cli"}
SCRIPT = "matrix_calculator.py"


def module_name(rel):
    """The unprefixed module name of a product file, from its path relative to the root
    (a Path or 'folder/x.py'); None for a file that is no product module."""
    parts = list(Path(rel).with_suffix("").parts)
    if parts == [SCRIPT[:-3]]:
        return parts[0]
    if len(parts) < 2 or parts[0] not in FOLDERS:
        return None
    parts = ([FOLDERS[parts[0]]] if FOLDERS[parts[0]] else []) + parts[1:]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def product_modules(root=ROOT):
    """{unprefixed module name: path} of every product module below `root` (the
    package's own __init__ is named "")."""
    found = {}
    paths = [root / SCRIPT] if (root / SCRIPT).is_file() else []
    for folder in FOLDERS:
        if (root / folder).is_dir():
            paths += sorted((root / folder).rglob("*.py"))
    for path in paths:
        if "__pycache__" in path.parts:
            continue
        name = module_name(path.relative_to(root))
        if name is not None:
            found[name] = path
    return found


def unprefixed(module):
    """A module's name without the package prefix ("" for the package itself)."""
    return "" if module == PACKAGE else module.removeprefix(PACKAGE + ".")
