"""No import cycles between product modules, counting the imports made inside
functions too (only those under `if TYPE_CHECKING:` are left out: they never run)."""
import ast
from pathlib import Path

from layouts.family import FAMILIES
from tests.helpers.product_tree import product_modules, unprefixed

ROOT = Path(__file__).resolve().parents[2]


def module_files(root=ROOT):
    """{module name: path} of the product modules (tests/helpers/product_tree.py)."""
    return {name: path for name, path in product_modules(root).items() if name}


def _type_checking_only(tree):
    """The nodes under `if TYPE_CHECKING:`."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for inner in node.body:
                skipped |= {id(n) for n in ast.walk(inner)}
    return skipped


def imports(name, path, modules):
    """The product modules `name` imports (a `from X import Y` of a submodule Y counts
    as importing X.Y)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    targets = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + [node.module or ""])
                base = base.rstrip(".")
            else:
                base = node.module
            base = _unprefixed(base)
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                targets.add(sub if sub in modules else base)
    targets = {_unprefixed(t) for t in targets}
    return {t for t in targets if t in modules and t != name}


def _unprefixed(module):
    """The module's name without the package prefix: `from matrix_library import
    matrix_api` imports matrix_api."""
    return unprefixed(module)


def graph(root=ROOT):
    modules = module_files(root)
    return {name: imports(name, path, modules) for name, path in modules.items()}


def _pop_component(stack, on, node):
    """The modules of a strongly connected component, popped off Tarjan's stack down to
    its root `node`."""
    part = []
    while True:
        top = stack.pop()
        on.discard(top)
        part.append(top)
        if top == node:
            return part


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = _pop_component(stack, on, node)
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_function_level_imports():
    edges = graph()
    assert "layouts.legality" in edges["layouts"]
    assert "layouts.core" in edges["layouts.cdna"]


def test_the_graph_holds_every_product_module():
    """The planners', the library's and the front ends' modules too: a cycle between any
    two of them is seen."""
    modules = set(module_files())
    assert {"matrix_library.api", "matrix_library.request", "matrix_library.lds",
            "matrix_library.conversion", "matrix_library.checks", "matrix_library.catalog",
            "matrix_plans.lds.reads", "matrix_frontends.cli.command",
            "matrix_frontends.cli.lds_mode", "matrix_frontends.cli.options",
            "matrix_frontends.cli.modes", "matrix_frontends.cli.inputs",
            "matrix_frontends.cli.respond", "matrix_frontends.explorer.app",
            "matrix_calculator"} <= modules
    edges = graph()
    assert "matrix_frontends.cli.options" in edges["matrix_frontends.cli.modes"]
    assert "matrix_library.request" in edges["matrix_frontends.cli.modes"]


def test_the_check_finds_a_cycle(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "__init__.py").write_text("")
    (tmp_path / "layouts" / "a.py").write_text("def f():\n    from .b import g\n")
    (tmp_path / "layouts" / "b.py").write_text("from . import a\n")
    assert cycles(graph(tmp_path)) == [["layouts.a", "layouts.b"]]


def test_the_check_finds_a_cycle_of_top_level_modules(tmp_path):
    """A library door and a module it re-exports that imports the door back inside a
    function, a `from package import module` form."""
    (tmp_path / "matrix_library").mkdir()
    (tmp_path / "matrix_library" / "__init__.py").write_text("")
    (tmp_path / "matrix_library" / "api.py").write_text(
        "from matrix_library.request import answer\n")
    (tmp_path / "matrix_library" / "request.py").write_text(
        "def answer():\n    from matrix_library import api\n")
    assert cycles(graph(tmp_path)) == [["matrix_library.api", "matrix_library.request"]]


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_the_shared_modules_import_no_family_module():
    """The marks and range functions several families share, the registry and the Operand import
    no family's module (not even for type checking): a family module is loaded only by
    the registry (layouts/family.py module_hooks), when its family is queried."""
    families = {f.module for f in FAMILIES.values()}
    for shared in ("modifiers", "family", "legality", "__init__", "core"):
        tree = ast.parse((ROOT / "layouts" / f"{shared}.py").read_text(encoding="utf-8"))
        named = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        named |= {f"{node.module}.{alias.name}" for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) for alias in node.names}
        named |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                  for alias in node.names}
        assert not named & families, (shared, named & families)


def test_the_engine_imports_at_the_top_of_its_modules():
    """instructions/ and layouts/ import nothing inside a function: their lazy boundaries
    (an architecture's table module, the target and product tables, a family's module,
    gfx1250's provenance records) are loaded by __import__ at one place each
    (instructions/__init__.py _module and resolve, layouts/family.py module_hooks,
    layouts/gfx1250.py _provenance_records)."""
    places = [("instructions/__init__.py", "_module"), ("instructions/__init__.py", "resolve"),
              ("instructions/__init__.py", "resolve"), ("layouts/family.py", "module_hooks"),
              ("layouts/gfx1250.py", "_provenance_records")]
    loaders, inside = [], []
    for folder in ("instructions", "layouts"):
        for path in sorted((ROOT / folder).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        inside.append(f"{folder}/{path.name}:{node.lineno}")
                    elif isinstance(node, ast.Call) and \
                            getattr(node.func, "id", None) == "__import__":
                        loaders.append((f"{folder}/{path.name}", function.name))
    assert sorted(loaders) == places, loaders
    assert not inside, inside
