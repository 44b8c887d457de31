"""The product's modules as their paths name them (shared by the structure tests:
layering, import cycles, module size, family names, packaging). The tree is the import
tree: `layouts/core.py` is the module `layouts.core`, `matrix_calculator.py` the module
`matrix_calculator`."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The product's packages, bottom layer first (docs/internals.md), and the door.
PACKAGES = ("instructions", "layouts", "matrix_plans", "matrix_library", "formats",
            "matrix_frontends")
SCRIPT = "matrix_calculator.py"


def module_name(rel):
    """The module name of a product file, from its path relative to the root (a Path or
    'folder/x.py'); None for a file that is no product module."""
    parts = list(Path(rel).with_suffix("").parts)
    if parts == [SCRIPT[:-3]]:
        return parts[0]
    if len(parts) < 2 or parts[0] not in PACKAGES:
        return None
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def product_modules(root=ROOT):
    """{module name: path} of every product module below `root`."""
    found = {}
    paths = [root / SCRIPT] if (root / SCRIPT).is_file() else []
    for folder in PACKAGES:
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
    """A module's name (the tree names modules without a package prefix)."""
    return module
