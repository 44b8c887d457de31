"""Code reads declared traits, never a family or architecture name.

Every product module outside instructions/ (the tables, where names are data) is read
with ast; a string literal that names a layout family, an architecture or one of its
aliases may not be compared with (==, !=, in, not in, match), used as a dict key or a
subscript, or be a member of a collection that is compared with. The names come from
the registry itself, so a new architecture is covered when it is added."""
import ast
from pathlib import Path

import pytest

from instructions import ARCHITECTURES

ROOT = Path(__file__).resolve().parents[2]
# Not product code: the tests, the table package, tools and benchmarks.
SKIPPED = ("tests", "instructions", "bench", "docs", ".ci", ".git", ".venv", "venv", "build")
# Files (or folders) that still key data by name, each with what mends it; the list is
# to be emptied, not grown:
PENDING = {
}


def pending(rel):
    return any(rel == p or rel.startswith(p + "/") or rel.startswith(p + ".")
               for p in PENDING)


def names():
    found = set()
    for arch in ARCHITECTURES:
        found |= {arch.name.lower(), arch.family.lower(), *(a.lower() for a in arch.aliases)}
    return found


NAMES = names()


def product_files(root=ROOT):
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in SKIPPED or any(p.startswith(".") for p in rel.parts):
            continue
        yield rel.as_posix(), path


def _named(node):
    """The family/architecture name a literal spells, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value.lower() in NAMES:
            return node.value
    return None


def _members(node):
    """The node, or the elements of a literal collection (tuple, list, set, dict keys)."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return list(node.elts)
    if isinstance(node, ast.Dict):
        return [k for k in node.keys if k is not None]
    return [node]


def violations(source, filename="<source>"):
    """(line, literal, how) of every name used as a key or in a comparison."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                found += [(m.lineno, _named(m), "compared") for m in _members(side) if _named(m)]
        elif isinstance(node, ast.Dict):
            found += [(k.lineno, _named(k), "dict key") for k in node.keys if k is not None
                      and _named(k)]
        elif isinstance(node, ast.Subscript) and _named(node.slice):
            found.append((node.lineno, _named(node.slice), "subscript"))
        elif isinstance(node, ast.MatchValue) and _named(node.value):
            found.append((node.lineno, _named(node.value), "match case"))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("get", "startswith", "endswith", "setdefault", "pop") \
                and _named(node.args[0]):
            found.append((node.lineno, _named(node.args[0]), f".{node.func.attr}()"))
        elif isinstance(node, ast.keyword) and node.arg in ("family", "arch") \
                and _named(node.value):
            pass  # constructing a record naming its family is declaring, not testing
    return found


def test_the_names_cover_every_family_and_architecture():
    assert {"cdna", "rdna3", "rdna4", "gfx1250", "cdna3", "gfx942", "mi300x"} <= NAMES


@pytest.mark.parametrize("source", [
    'if inst.family == "rdna3": pass',
    'x = inst.arch in ("CDNA3", "CDNA4")',
    'TABLE = {"gfx1250": 1}',
    'y = TABLE["rdna4"]',
    'z = TABLE.get("cdna")',
    'match inst.family:\n    case "gfx1250": pass',
    'ok = "gfx942" != name',
])
def test_the_scan_sees_a_name_test(source):
    assert violations(source)


@pytest.mark.parametrize("source", [
    'raise ValueError("--neg-lo is a gfx1250 modifier")',
    'if "opsel_cd_half" in family.traits: pass',
    'help = {"cbsz": "CBSZ (CDNA)"}',
    'x = f"{inst.arch} instructions"',
])
def test_the_scan_lets_text_and_traits_pass(source):
    assert not violations(source)


def test_no_product_code_tests_a_family_or_architecture_name():
    bad = {}
    for rel, path in product_files():
        found = violations(path.read_text(encoding="utf-8"), rel)
        if found and not pending(rel):
            bad[rel] = found
    assert not bad, bad


def test_the_scan_reads_the_product_modules():
    read = {rel for rel, _ in product_files()}
    assert {"matrix_library/api.py", "matrix_frontends/cli/command.py", "layouts/__init__.py",
            "formats/detail.py", "layouts/family.py"} <= read
    assert not any(rel.startswith(("tests/", "instructions/")) for rel in read)
