"""The layout algebra (layouts/algebra.py) and the operands' layout values
(layouts/values.py): the laws of composition, right inverse and product on random maps,
and every operand's value, modifiers composed in, against the engine's places for every
instruction, operand and modifier value that moves values (OPSEL, index sets, scale
bytes, BLGP, CBSZ/ABID)."""
from math import prod

import pytest
from hypothesis import given
from hypothesis import strategies as st

from instructions import ARCHITECTURES
from layouts import CalcError, Modifiers, Operand, check_modifiers
from layouts.algebra import LayoutMap, blocked, flat, on_axis, permuted, point, points, shifted
from layouts.fragment import bit_of, element, fragment
from layouts.linear import bases_of
from layouts.modifiers import BLGP_LANES
from layouts.values import value
from matrix_library.api import matrices
from tests.helpers import sampled, swept
from tests.helpers.modifier_values import moving_values

shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


@st.composite
def maps(draw, domain=None, codomain=None, partial=True):
    domain = domain or draw(shapes)
    codomain = codomain or draw(shapes)
    low = -1 if partial else 0
    table = draw(st.lists(st.integers(low, prod(codomain) - 1), min_size=prod(domain),
                          max_size=prod(domain)))
    return LayoutMap(domain, codomain, tuple(table))


@st.composite
def chains(draw):
    """Three composable maps h: A -> B, g: B -> C, f: C -> D."""
    a, b, c, d = (draw(shapes) for _ in range(4))
    return draw(maps(c, d)), draw(maps(b, c)), draw(maps(a, b))


@given(shapes)
def test_points_and_flat_indices_are_inverse(shape):
    assert [flat(shape, p) for p in points(shape)] == list(range(prod(shape)))
    assert all(point(shape, flat(shape, p)) == p for p in points(shape))


@given(chains())
def test_composition_applies_the_inner_map_first_and_is_associative(fgh):
    f, g, h = fgh
    fg = f.compose(g)
    for x in points(g.domain):
        y = g(x)
        assert fg(x) == (None if y is None else f(y))
    assert f.compose(g).compose(h) == f.compose(g.compose(h))
    assert f.compose(LayoutMap.identity(f.domain)) == f
    assert LayoutMap.identity(f.codomain).compose(f) == f


@given(maps())
def test_the_inverse_is_a_right_inverse_on_the_image(f):
    back = f.inverse()
    round_trip = f.compose(back)
    image = f.image()
    for y in range(prod(f.codomain)):
        assert round_trip.table[y] == (y if y in image else -1)
    # each point of the image goes back to its first preimage
    for y, xs in f.preimages().items():
        assert back.table[y] == xs[0]
    assert sorted(x for xs in f.preimages().values() for x in xs) == \
        [x for x, y in enumerate(f.table) if y >= 0]


@given(maps(partial=False))
def test_an_injective_map_is_inverted_on_its_domain(f):
    if f.injective():
        assert f.inverse().compose(f) == LayoutMap.identity(f.domain)
        if f.surjective():  # a bijection: the inverse is two-sided
            assert f.compose(f.inverse()) == LayoutMap.identity(f.codomain)


@given(maps(), maps())
def test_the_product_maps_each_part(f, g):
    fg = f.product(g)
    assert fg.domain == f.domain + g.domain and fg.codomain == f.codomain + g.codomain
    for a in points(f.domain):
        for b in points(g.domain):
            fa, gb = f(a), g(b)
            assert fg(a + b) == (None if fa is None or gb is None else fa + gb)


def test_compose_refuses_maps_that_do_not_meet():
    with pytest.raises(ValueError, match="cannot compose"):
        LayoutMap.identity((2,)).compose(LayoutMap.identity((3,)))


def test_the_small_maps_do_what_they_say():
    assert shifted((2, 4), 1, 2)((1, 1)) == (1, 3) and shifted((2, 4), 1, 2)((1, 2)) is None
    assert permuted((2, 3), (1, 0))((1, 2)) == (2, 1)
    assert on_axis((4, 2), 0, lambda x: 3 - x)((0, 1)) == (3, 1)
    tiles = blocked((2, 3), (4, 5))  # 2 x 3 fragments of 4 x 5, row-major
    assert tiles.codomain == (8, 15) and tiles.injective() and tiles.surjective()
    assert tiles((4, 1, 2)) == (4 + 1, 5 + 2)  # fragment 4: second row, second column


def test_the_blgp_lane_maps_are_the_isa_patterns():
    """CDNA's BLGP: 0 as is, 1/2 one half broadcast, 3 a rotation by 16 lanes, 4-7 one
    group of 16 lanes broadcast."""
    for lane in range(64):
        assert [m.table[lane] for m in BLGP_LANES] == [
            lane, lane % 32, 32 + lane % 32, (lane + 16) % 64,
            lane % 16, 16 + lane % 16, 32 + lane % 16, 48 + lane % 16]
    assert BLGP_LANES[3].injective() and BLGP_LANES[3].surjective()
    assert all(len(m.image()) == 32 for m in BLGP_LANES[1:3])
    assert all(len(m.image()) == 16 for m in BLGP_LANES[4:])


def _cases():
    for arch in ARCHITECTURES:
        for inst in swept(arch):
            for wave in inst.wave_sizes:
                for matrix in matrices(inst):
                    yield (inst, matrix, wave), f"{arch.name}-{inst.mnemonic}-w{wave}-{matrix}"


CASES, CASE_IDS = zip(*_cases())


def _same_places(op):
    held = value(op)
    rows, cols, blocks, copies = held.map.domain
    assert (rows, cols, blocks) == op.shape and copies == len(op.layout.copies)
    for elem in op.layout.elements():
        assert held.places(*elem) == op.places(*elem), (op.inst.name, op.matrix, op.mods, elem)
    # the projection place -> element holds each place's element
    for place, elem in held.held().items():
        assert place in op.places(*elem)


@pytest.mark.parametrize("case", sampled([(c,) for c in CASES], CASE_IDS))
def test_the_layout_value_is_the_engines_layout_under_every_modifier(case):
    inst, matrix, wave = case
    _same_places(Operand(inst, matrix, wave=wave))
    moved = 0
    for mods in moving_values(inst, wave):
        try:
            check_modifiers(inst, matrix, mods, False, wave=wave)
        except CalcError:
            continue
        _same_places(Operand(inst, matrix, mods, wave))
        moved += 1
    if matrix == "B" and inst.blgp and inst.out_type.bits != 64:
        assert moved >= 7  # (every BLGP pattern)


def test_blgp_and_cbsz_are_maps_composed_with_the_base_layout():
    """B under BLGP is the lane map after B's value; A under CBSZ/ABID is A's value after
    the block map: the same composition the engine's places make."""
    inst = next(i for a in ARCHITECTURES for i in a.instructions
                if i.family == "cdna" and i.cbsz and i.blocks == 16 and not i.sparse)
    base = value(Operand(inst, "B")).map
    for blgp in range(1, 8):
        lanes = on_axis(base.codomain, 0, BLGP_LANES[blgp].table.__getitem__)
        assert value(Operand(inst, "B", Modifiers(blgp=blgp))).map == lanes.compose(base)
    a = value(Operand(inst, "A")).map
    broadcast = value(Operand(inst, "A", Modifiers(cbsz=2, abid=3))).map
    blocks = on_axis(a.domain, 2, lambda b: b // 4 * 4 + 3)
    assert broadcast == a.compose(blocks)
    assert len(broadcast.image()) == len(a.image()) // 4  # one block of four is read


DENSE = [(case,) for case in CASES if not (case[0].sparse and case[1] in ("A", "K"))]


@pytest.mark.parametrize("case", sampled(DENSE, [CASE_IDS[CASES.index(c)] for c, in DENSE]))
def test_fragments_and_linear_bases_hold_what_the_inverse_says(case):
    """For every operand but the sparse ones (whose fragments read the compressed
    matrix), with no modifiers, the fragment's element of each lane's value v
    (layouts/fragment.py) and the XOR of its linear-layout bases (layouts/linear.py)
    are the element the value's right inverse gives at that lane and slot: three
    readings of one layout."""
    inst, matrix, wave = case
    op = Operand(inst, matrix, wave=wave)
    held, frag, bases = value(op), fragment(op), bases_of(op).bases
    back, slots, blocks = held.map.inverse(), held.map.codomain[1], held.map.domain[2]
    checked = 0
    for lane in range(wave):
        for v in range(frag.values):
            got = element(frag, lane, v)
            if got is None:
                continue
            want = point(held.map.domain, back.table[lane * slots + bit_of(frag, v) // held.unit])
            assert got == want[:3], (lane, v)
            if bases is not None:
                vec = [0] * (3 if blocks > 1 else 2)
                for b, base in enumerate(bases["register"]):
                    vec = [p ^ q for p, q in zip(vec, base)] if v >> b & 1 else vec
                for b, base in enumerate(bases["lane"]):
                    vec = [p ^ q for p, q in zip(vec, base)] if lane >> b & 1 else vec
                assert tuple(vec) == ((want[2], *want[:2]) if blocks > 1 else want[:2])
            checked += 1
    assert checked
