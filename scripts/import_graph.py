#!/usr/bin/env python3
"""The product's import graph, read from the code, written into docs/internals.md.

Every import statement of every product module is read (ast), those inside functions
included and those under `if TYPE_CHECKING:` left out (they never run). The modules are
grouped by package (a top folder, or a subfolder for the planners, HIP and the front
ends), and each arrow says how many module-to-module imports go from one group to
another. The result replaces the text between the two markers of docs/internals.md.

    python3 scripts/import_graph.py           # rewrite docs/internals.md
    python3 scripts/import_graph.py --check   # exit 1 if docs/internals.md is stale
"""
from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "internals.md"
BEGIN = "<!-- import graph: written by scripts/import_graph.py -->"
END = "<!-- end of import graph -->"
# The product's packages, bottom layer first, and the door.
PACKAGES = ("instructions", "layouts", "matrix_plans", "matrix_library", "formats",
            "matrix_frontends")
DOOR = "matrix_calculator"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """{module name: path}: the name follows from the path."""
    found = {DOOR: root / f"{DOOR}.py"}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for inner in node.body:
                skipped |= {id(n) for n in ast.walk(inner)}
    return skipped


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The product modules a module imports (`from package import module` counts as an
    import of package.module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
    return {name for name in found if name in known}


def group(module: str) -> str:
    """The box a module is drawn in: its top package, or its subpackage where the
    package has subpackages (matrix_plans.lds, formats.hip, matrix_frontends.cli, ...)."""
    parts = module.split(".")
    if len(parts) >= 3 or (len(parts) == 2 and (ROOT / parts[0] / parts[1]).is_dir()):
        return ".".join(parts[:2])
    return parts[0]


def graph(root: Path = ROOT) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    known = modules(root)
    arrows: Counter[tuple[str, str]] = Counter()
    sizes: Counter[str] = Counter(group(name) for name in known)
    for name, path in known.items():
        for target in imports(path, known):
            if group(target) != group(name):
                arrows[group(name), group(target)] += 1
    return arrows, sizes


def order(name: str) -> tuple[int, str]:
    top = name.split(".")[0]
    return (PACKAGES.index(top) if top in PACKAGES else len(PACKAGES), name)


def text(root: Path = ROOT) -> str:
    arrows, sizes = graph(root)
    boxes = sorted(sizes, key=order)
    ids = {name: name.replace(".", "_") for name in boxes}
    lines = [BEGIN, "", "```mermaid", "graph TD"]
    lines += [f'    {ids[name]}["{name} ({sizes[name]})"]' for name in boxes]
    lines += [f"    {ids[a]} -->|{count}| {ids[b]}"
              for (a, b), count in sorted(arrows.items(), key=lambda i: (order(i[0][0]),
                                                                         order(i[0][1])))]
    lines += ["```", "", "| from | imports (module-to-module arrows) |", "|---|---|"]
    for name in boxes:
        out = [f"{b} ({count})" for (a, b), count in sorted(arrows.items(),
                                                              key=lambda i: order(i[0][1]))
               if a == name]
        lines.append(f"| `{name}` ({sizes[name]} modules) | {', '.join(out) or 'nothing'} |")
    lines += ["", END]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/internals.md does not hold the current graph")
    args = parser.parse_args()
    doc = DOC.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        print(f"{DOC}: the markers {BEGIN!r} and {END!r} are missing", file=sys.stderr)
        return 1
    head, rest = doc.split(BEGIN, 1)
    new = head + text() + rest.split(END, 1)[1]
    if args.check:
        if new != doc:
            print("docs/internals.md: the import graph is stale; run "
                  "python3 scripts/import_graph.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
