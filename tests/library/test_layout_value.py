"""matrix_api.layout_value: the operand's layout as a value of the layout algebra, the
same places as locate() (modifiers included), its inverse what a lane holds, and
CalcError for bad arguments."""
import pytest

from matrix_library import api as mc


def test_the_value_places_every_element_where_locate_does():
    inst = mc.find_instruction("cdna1", "v_mfma_f32_16x16x1f32")  # (4 blocks)
    for matrix, mods in (("A", mc.Modifiers(cbsz=1, abid=1)), ("B", mc.Modifiers(blgp=3)),
                         ("D", None)):
        held = mc.layout_value(inst, matrix, mods=mods)
        assert isinstance(held, mc.OperandValue) and isinstance(held.map, mc.LayoutMap)
        rows, cols, blocks, _ = held.map.domain
        for elem in [(r, c, b) for r in range(rows) for c in range(cols) for b in range(blocks)]:
            names = dict(zip(mc.COORDINATES[matrix], elem[:2]))
            want = [(loc.lane, loc.register, loc.bits[0]) for loc in
                    mc.locate(inst, matrix, **names, block=elem[2], mods=mods)]
            assert [(p.lane, p.reg, p.lo) for p in held.places(*elem)] == want


def test_the_inverse_is_what_each_lane_holds():
    inst = mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16")
    held = mc.layout_value(inst, "A", wave=32)  # (replicated over the two lane halves)
    assert held.map.domain == (16, 16, 1, 2) and held.map.codomain == (32, 16)
    back = held.map.inverse()
    assert held.map.compose(back).table == tuple(range(32 * 16))  # every slot is used
    for place, (row, col, _) in held.held().items():
        entries = mc.elements_at(inst, "A", register=place.reg, lane=place.lane, wave=32)
        assert (row, col) in [(e.element.i, e.element.k) for e in entries]


@pytest.mark.parametrize("args, kwargs", [
    (("nope", "A"), {}), (("INST", "Q"), {}), (("INST", "A"), {"wave": 7}),
    (("INST", "B"), {"mods": mc.Modifiers(blgp=9)}), (("INST", 3), {}),
    (("INST", "A"), {"mods": "blgp"})])
def test_bad_arguments_raise_calc_error(args, kwargs):
    inst = mc.find_instruction("cdna1", "v_mfma_f32_32x32x2f32")
    args = tuple(inst if a == "INST" else a for a in args)
    with pytest.raises(mc.CalcError):
        mc.layout_value(*args, **kwargs)
