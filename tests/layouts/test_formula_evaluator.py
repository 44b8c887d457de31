"""The one formula evaluator: every mapping formula derived from the layouts
(layouts/formulas.py, what matrix_api.formulas and -d --json give) is parsed and
evaluated for every element of every matrix of every instruction of every architecture,
in each wave size, and under every modifier value that changes a layout (the sparse
index set CBSZ/ABID selects, OPSEL's halves and index slices, CDNA4's scale bytes,
gfx1250's scale lane halves, the A/B formats of f8f6f4), and compared with the engine
(matrix_api.operand: the places matrix_api.locate and layout report). Both directions:
element -> lane, bit offset and VGPR bits, and (lane, GPR_num, GPR_bits) -> element.
(The reference's own texts, which -d prints for the architectures it knows, are checked
by tests/formats/test_reference_formulas.py.)
"""
import re

import pytest

from instructions import ARCHITECTURES
from layouts.core import CalcError
from layouts.formulas import LABELS, NOTE, formula_sections
from matrix_library import api
from tests.helpers import swept
from tests.helpers.formula_eval import (
    compile_formula,
    compile_function,
    compile_gpr,
    compile_values,
)

# Modifier values tried on every instruction that takes them; those the engine accepts
# and that change a matrix's layout (not only which slot a lane reads: CBSZ/ABID broadcasts and BLGP
# lane swizzles of dense operands are remaps after the layout) are evaluated.
CANDIDATES = ([{"opsel": n} for n in range(1, 8)]
              + [{"abid": a} for a in range(1, 16)]  # CDNA3 sparse: the index set
              + [{"cbsz": c, "abid": a} for c in range(1, 5) for a in range(c + 1)]
              + [{"opsel_a": n, "opsel_b": 3 - n} for n in range(4)]
              + [{"matrix_a_scale": a, "matrix_b_scale": 1 - a} for a in range(2)])


def _key(layout):
    return (layout.shape, layout.width, layout.factors, layout.base_bit,
            getattr(layout, "base_lane", 0))


def _accepted(inst, matrix, mods, wave):
    try:
        return api.operand(inst, matrix, mods=mods, wave=wave)
    except CalcError:
        return None


def _format_choices(inst):
    """Every combination of the instruction's format modifiers ({} when it has none)."""
    fields = inst.format_fields
    if not fields:
        return [{}]
    return [dict(zip(fields, (a, b))) for a in range(5) for b in range(5)]


def cases():
    """(instruction, wave, modifiers, matrices whose layout to check) for every
    instruction of every architecture: each format pair with no other modifier, then
    each candidate the instruction takes that moves a layout."""
    for arch in ARCHITECTURES:
        for inst in swept(arch):
            for wave in inst.wave_sizes:
                matrices = api.matrices(inst)
                for formats in _format_choices(inst):
                    yield inst, wave, formats, matrices
                plain = {m: _key(api.operand(inst, m, wave=wave).layout) for m in matrices}
                for mods in CANDIDATES:
                    if not all(inst.takes(name) for name in mods):
                        continue
                    moved = [m for m in matrices
                             if (op := _accepted(inst, m, mods, wave)) is not None
                             and _key(op.layout) != plain[m]]
                    if moved:
                        yield inst, wave, mods, tuple(moved)


def _lines(inst, wave, mods):
    """The library's formulas of one wave size: ({label: text} of each direction, the
    element -> register lines in order)."""
    given = api.formulas(inst, mods=mods, wave=wave)
    assert {f["wave"] for f in given} == {wave}
    forward = [(f["label"], f["text"]) for f in given if f["direction"] == "element_to_register"]
    backward = [(f["label"], f["text"]) for f in given if f["direction"] == "register_to_element"]
    return dict(forward), dict(backward), forward


def _names(matrix, forward, blocks):
    """(element label, short label) of the matrix's formula lines."""
    short, elem, _ = LABELS[matrix]
    tail = ".block" if blocks > 1 else ""
    if f"{elem}{tail} Lane" not in forward and matrix in ("C", "D"):
        short, elem = "C or D", "C or D[i][j]"
    return f"{elem}{tail}", short


def _copies(lines, elem):
    """The copy offsets c of the note after the element's GPR line (or [0])."""
    labels = [label for label, _ in lines]
    at = labels.index(f"{elem} GPR") + 1
    if at < len(lines) and lines[at][0] == NOTE and lines[at][1].startswith("c = "):
        return [int(n) for n in re.findall(r"\d+", lines[at][1].split(":")[0])]
    return [0]


def check_matrix(inst, wave, mods, matrix, forward, backward, lines, seen):
    """Evaluate the matrix's formulas for each of its elements; return how many (0 when
    the same placement and texts were checked before: instructions, waves and formats
    share layouts)."""
    op = api.operand(inst, matrix, mods=mods, wave=wave)
    layout = op.layout
    assert not op.remapped  # the formulas describe the layout, before remaps
    elem, short = _names(matrix, forward, op.blocks)
    axes = LABELS[matrix][2]
    coords = [axes["row"], axes["col"]] + (["block"] if op.blocks > 1 else [])
    texts = (forward[f"{elem} Lane"], forward[f"{elem} bit offset b"], forward[f"{elem} GPR"],
             *(backward[f"{short} {var}"] for var in coords))
    assert texts[2] == f"floor(b / 32), bits [b % 32 + {layout.width - 1} : b % 32]"
    if (_key(layout), texts) in seen:
        return 0
    seen.add((_key(layout), texts))
    names = [axes["row"], axes["col"], "block"]
    lane_of = compile_function(texts[0], [*names, "c"])
    bit_of = compile_function(texts[1], names)
    back = [compile_function(text, ["lane", "b", "p"]) for text in texts[3:]]
    copies = _copies(lines, elem)
    grouped = any("p" in text.split() for text in texts[3:])
    count = 0
    for row, col, block in op.elements():
        places = op.places(row, col, block)
        lanes = {lane_of(row, col, block, c) for c in copies}
        assert lanes == {p.lane for p in places}, (matrix, (row, col, block), lanes)
        b = bit_of(row, col, block)
        p = col % 4 if grouped else 0
        for place in places:
            assert (b, layout.width) == (32 * place.reg + place.lo, place.width), \
                (matrix, (row, col, block), b)
            got = tuple(f(place.lane, b, p) for f in back)
            assert got == (row, col, block)[:len(back)], (matrix, (row, col, block), got)
        count += 1
    return count


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_every_derived_formula_agrees_with_the_engine(arch):
    checked, seen = set(), set()
    elements = 0
    for inst, wave, mods, matrices in cases():
        if inst.arch != arch.name:
            continue
        forward, backward, lines = _lines(inst, wave, mods)
        for matrix in matrices:
            elements += check_matrix(inst, wave, mods, matrix, forward, backward, lines, seen)
            checked.add((inst.mnemonic, wave, matrix))
    # every matrix of every instruction in every wave size
    assert checked == {(i.mnemonic, w, m) for i in swept(arch) for w in i.wave_sizes
                       for m in api.matrices(i)}
    assert elements > 1000


def test_modifier_cases_cover_every_layout_changing_modifier():
    """The cases include index sets, OPSEL slices and halves, scale bytes and lane halves,
    and formats (so the formulas are evaluated with the modifiers that move values)."""
    names = {name for _, _, mods, _ in cases() for name in mods}
    assert {"opsel", "cbsz", "abid", "opsel_a", "opsel_b", "matrix_a_scale",
            "matrix_b_scale", "matrix_a_fmt", "matrix_b_fmt", "blgp"} <= names


def test_the_library_and_json_give_the_derived_formulas(run):
    """matrix_api.formulas and -d --json give the formulas derived from the layouts, in
    every architecture (the reference's hand-written texts are for -d text only)."""
    import json
    for arch in ARCHITECTURES:
        inst = arch.instructions[-1]
        derived = [(w, label, text) for w, (fwd, bwd) in formula_sections(inst).items()
                   for label, text in fwd + bwd]
        given = [(f["wave"], f["label"], f["text"]) for f in api.formulas(inst)]
        assert given == derived, arch.name
        rc, out, _ = run(["-a", arch.name, "-i", inst.mnemonic, "-d", "--json"])
        assert rc == 0
        shown = [(f["wave"], f["label"], f["text"]) for f in json.loads(out)["formulas"]]
        assert shown == derived, arch.name


def test_the_library_takes_modifiers_that_suit_some_matrix():
    """matrix_api.formulas(inst, mods=...): an index OPSEL moves the index formulas only;
    a modifier no matrix of the instruction takes is a CalcError."""
    inst = api.find_instruction("rdna4", "v_swmmac_f32_16x16x32_f16")
    plain, moved = api.formulas(inst), api.formulas(inst, mods={"opsel": 1})
    changed = {f["label"] for f, g in zip(plain, moved) if f != g}
    assert changed == {"index[i][k] bit offset b", "index k"}
    assert api.formulas(inst, mods={"opsel": 3}, wave=64)  # 4 index slices in wave64
    for bad in ({"opsel": 3}, {"opsel": 9}, {"cbsz": 1}, {"opsel_a": 1}):
        with pytest.raises(CalcError):
            api.formulas(inst, mods=bad)  # (wave32 has 2 slices)


def test_the_reference_defects_are_gone_from_the_library():
    """CDNA3 v_mfma_f64_16x16x4_f64's C/D row comes from the lane too (the reference's text
    `4 * floor(GPR_num / 2)` has no lane term), and every derived formula of every
    instruction has balanced parentheses (the reference's RDNA4
    v_swmmac_i32_16x16x32_iu4 texts do not)."""
    inst = api.find_instruction("cdna3", "v_mfma_f64_16x16x4_f64")
    rows = [f["text"] for f in api.formulas(inst) if f["label"] == "C or D i"]
    assert rows == ["(floor(lane / 16) % 4) + 4 * (floor(b / 64) % 4)"]
    for arch in ARCHITECTURES:
        for inst in swept(arch):
            for f in api.formulas(inst):
                depth = 0
                for char in f["text"]:
                    depth += {"(": 1, ")": -1}.get(char, 0)
                    assert depth >= 0, (inst.mnemonic, f)
                assert depth == 0, (inst.mnemonic, f)


def test_evaluator_on_known_texts():
    assert compile_formula("floor(k / 2) % 2")(k=7) == 1
    assert compile_formula("16 * floor(i / 4) + (i % 4) + 8 * block")(i=13, block=1) == 57
    assert compile_formula("(16 * floor(i / 4)) % 64")(i=21) == 16
    assert compile_formula("(8 * floor(GPR_num / 4) % 32)")(GPR_num=13) == 24
    assert compile_formula("(4 * GPR_num + 3)")(GPR_num=1) == 7
    assert compile_formula("floor(k / 4 + k / 4)")(k=2) == 1
    assert compile_formula("floor(3 * k / 4) * 2")(k=3) == 4
    assert compile_formula("(floor((b - 16) / 4) % 4) + p")(b=28, p=2) == 5
    assert compile_gpr("(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]")(k=3) == (48, 63)
    assert compile_gpr("[2*floor(i / 4)+1 : 2*floor(i / 4)]")(i=9) == (128, 191)
    assert compile_gpr("[1:0]")() == (0, 63)
    assert compile_gpr("0")() == (0, 31)
    assert compile_gpr("[2:0].[6*k+5 : 6*k]")(k=5) == (30, 35)
    assert compile_values(("8 * GPR_num + 3", "8 * GPR_num"))(GPR_num=1) == set(range(8, 12))
    for bad in ("k / 2", "floor(k / 2", "os.system", "k ** 2", "__import__", "x + 1", "k.real"):
        with pytest.raises(ValueError):
            compile_formula(bad)
