"""A new layout family through the registries alone (docs/contributing.md): one table
module, one family module, one Architecture line and one Family line, and the
command line answers -g, -m, -R and -M for it, the modifier check included. Nothing
else in the calculator learns the toy's name."""
import sys
import types

import pytest

import instructions
import matrix_library
import matrix_library.catalog
import matrix_library.checks
from instructions import Architecture
from instructions.model import WmmaBuiltins, table_block
from layouts import family as registry
from layouts.core import BIT, COL, LANE, ROW, Factor, Layout
from layouts.modifiers import rdna_c_mark, rdna_half_mark
from tests.helpers import call

# ---- the table module (instructions/toy.py)
TABLE = types.ModuleType("instructions.toy")
wmma = table_block(arch="TOY", encoding="VOP3P", align=4, coexec=False, modifiers=("neg",))
TABLE.INSTRUCTIONS = (wmma("v_wmma_f32_16x16x16_f16", 0x40, 16),)

# ---- the family module (layouts/toy.py): wave32; lane l holds row (A) or column
# (B, C/D) l mod 16; A/B: K in 16-bit halves over 8 VGPRs, lane halves split K;
# C/D: rows 0-7 in VGPRs 0-7 of lanes 0-15, rows 8-15 in lanes 16-31.
GENERATOR = types.ModuleType("toy_layouts")


def _layout(_inst, matrix, _wave, _mods):
    if matrix in ("A", "B"):
        mn, k = (ROW, COL) if matrix == "A" else (COL, ROW)
        factors = (Factor(mn, 16, LANE, 1), Factor(k, 8, BIT, 16), Factor(k, 2, LANE, 16))
        return Layout((16, 16, 1) if matrix == "A" else (16, 16, 1), 16, factors)
    factors = (Factor(COL, 16, LANE, 1), Factor(ROW, 8, BIT, 32), Factor(ROW, 2, LANE, 16))
    return Layout((16, 16, 1), 32, factors)


GENERATOR.layout = _layout
GENERATOR.mark, GENERATOR.half_mark = rdna_c_mark, rdna_half_mark  # RDNA's NEG / NEG_HI

TOY = Architecture("TOY", "toy", ("gfx9999",), "toy", "WGP", waves=(32,), public=False,
                   target="gfx1200")
# (its clang builtins follow gfx12's conventions: the names end in _w32_gfx12)
FAMILY = registry.Family("toy", "toy_layouts", detail="wmma",
                         builtins=WmmaBuiltins("_gfx12", False))


@pytest.fixture
def toy(monkeypatch):
    """The toy registered: the modules importable, its Architecture line and its
    Family line added (undone after the test)."""
    monkeypatch.setitem(sys.modules, "instructions.toy", TABLE)
    monkeypatch.setitem(sys.modules, "toy_layouts", GENERATOR)
    archs = (*instructions.ARCHITECTURES, TOY)
    monkeypatch.setattr(instructions, "ARCHITECTURES", archs)
    for module in (matrix_library.checks, matrix_library.catalog):  # (the library's copies)
        monkeypatch.setattr(module, "ARCHITECTURES", archs)
    monkeypatch.setitem(instructions._BY_NAME, "TOY", TOY)
    monkeypatch.setitem(registry.FAMILIES, "toy", FAMILY)
    monkeypatch.setattr(instructions, "_TABLES", dict(instructions._TABLES))
    return ["-a", "gfx9999", "-i", "v_wmma_f32_16x16x16_f16"]


def test_get_register(toy):
    status, out, err = call(toy + ["-g", "-A", "-I", "3", "-K", "9"])
    assert (status, err) == (0, "")
    assert out.endswith("A[3][9] = v0{19}.[31:16]\n"), out  # k 9: lane 3 + 16, VGPR 0 high


def test_matrix_entry_and_negation_mark(toy):
    status, out, err = call(toy + ["-m", "-C", "-r", "2", "-l", "17", "--neg", "4"])
    assert (status, err) == (0, ""), err
    assert out.endswith("v2{17} = -C[10][1]\n"), out


def test_register_layout_covers_every_element(toy):
    status, out, err = call(toy + ["-R", "-D", "--csv"])
    assert (status, err) == (0, "")
    rows = out.strip().splitlines()
    assert "v7{15}" in rows[-9] and "v7{31}" in rows[-1], rows[-9:]


def test_matrix_layout(toy):
    status, out, err = call(toy + ["-M", "-B", "--csv"])
    assert (status, err) == (0, "") and "B[9][0]" in out


def test_formulas_are_derived_from_the_toy_layout(toy):
    status, out, err = call(toy + ["-d"])
    assert (status, err) == (0, ""), err
    assert "floor(lane / 16)" in out  # the lane halves split K (A/B) and rows (C/D)


def test_modifier_check_reads_the_table(toy):
    status, out, err = call(toy + ["-g", "-A", "--cbsz", "1"])
    assert (status, out) == (2, "") and "CBSZ is not a TOY modifier" in err
    status, out, err = call(toy + ["-g", "-A", "--neg", "8"])
    assert (status, out) == (2, "") and "0 to 7" in err


@pytest.mark.usefixtures("toy")
def test_the_registry_refuses_a_second_line_or_an_unknown_trait():
    with pytest.raises(ValueError, match="registered already"):
        registry.register(FAMILY)
    with pytest.raises(ValueError, match="unknown traits"):
        registry.register(FAMILY._replace(name="toy2", traits=frozenset(("flying",))))


def test_emit_hip_reads_the_registry_line(toy):
    """The HIP example: the builtin conventions of the Family line and the clang target of
    the Architecture line, nothing else."""
    status, out, err = call(toy + ["--emit", "hip"])
    assert (status, err) == (0, ""), err
    assert "Target: gfx1200, wave32" in out
    assert "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(" in out
