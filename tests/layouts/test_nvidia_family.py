"""NVIDIA as a family: its names live in its tables, its family module (the generator)
and its registry lines.

Every product module is read with ast; a string constant (not a docstring) or a name
that says NVIDIA's family, architectures or instruction kinds may appear only in NVIDIA's
own modules (the table instructions/nvidia*.py, the generator layouts/nvidia.py, the -d
renderer formats/detail_nvidia.py) and on the registry lines: the Architecture lines
(instructions/__init__.py), the rows of the type and encoding tables (instructions/
model.py), the Family line (layouts/family.py) and the -d renderer's entry
(formats/detail.py DETAILS). The generic pieces NVIDIA needed (a table line's own
parts and register operands, a table module's spelling function, an architecture's
vendor, ports and comparisons between architectures) name no vendor."""
import ast

import pytest

from tests.helpers.product_tree import product_modules

OWN = {"instructions.nvidia", "instructions.nvidia_sm80", "instructions.nvidia_sm89",
       "instructions.nvidia_sm90", "layouts.nvidia", "formats.detail_nvidia"}
ARCHS = ("SM80", "SM89", "SM90", "sm80", "sm89", "sm90", "sm_80", "sm_89", "sm_90", "nvidia")
REGISTRY = {"instructions": ARCHS,                     # the Architecture lines
            # the encodings table's row, the type table's rows (tf32, e4m3...)
            "instructions.model": ("ptx", "nvidia"),
            "layouts.family": ("nvidia", "ptx"),       # the Family line, DETAILS
            "formats.detail": ("ptx",)}                # the -d renderer's entry
# CuTe is also the layout language `--emit cute` writes for every vendor: its export
# modules and the option and tool descriptions that name it may say so.
LANGUAGE = ("cute::", "CuTe", "cutlass")
for _module in ("layouts.exports", "matrix_library.exports", "formats.exports",
                "matrix_frontends.cli.options", "matrix_frontends.mcp_server"):
    REGISTRY[_module] = REGISTRY.get(_module, ()) + LANGUAGE
WORDS = ("nvidia", "SM80", "SM89", "SM90", "sm80", "sm89", "sm90", "sm_80", "sm_89", "sm_90",
         "mma.", "wgmma", "ldmatrix", "stmatrix", "cute::", "CuTe", "cutlass", "ptx")


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def mentions(path):
    """The vendor words in the module's code: string constants (not docstrings) and names."""
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        else:
            continue
        found += [w for w in WORDS if w in text.lower() or w in text]
    return found


@pytest.mark.slow
def test_nvidia_lives_in_its_own_modules_and_registry_lines():
    modules = product_modules()
    assert OWN <= set(modules)
    stray = {}
    for name, path in modules.items():
        if name in OWN:
            continue
        words = [w for w in mentions(path)
                 if w not in REGISTRY.get(name, ()) and w.lower() not in REGISTRY.get(name, ())]
        if words:
            stray[name] = sorted(set(words))
    assert not stray, stray


def test_the_scan_sees_a_mention():
    """(the check can fail: NVIDIA's own generator names its kinds)"""
    assert "ldmatrix" in mentions(product_modules()["layouts.nvidia"])
