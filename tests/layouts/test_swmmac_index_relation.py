"""rocjitsu's gfx1250 SWMMAC reading against the calculator's, exactly: its A and B are
the calculator's up to one K relabelling shared by both (the lane halves of the K
quarters 2 and 3, counted from 1, exchanged), and the whole difference is the index:
rocjitsu's is the calculator's with lane i's index bits [31:16] exchanged with lane
i+16's bits [15:0] (8-bit forms: lane i's second VGPR with lane i+16's first).
rocjitsu's reading is the alternatives -d names for it (layouts/gfx1250.py
alternative_layouts, the index where the calculator places it), which its recorded
answers pass (tests/data/gfx1250_products_rocjitsu.txt.gz, 0 mismatches)."""
import gzip

import pytest

import matrix_calculator as mc
from layouts import gfx1250 as engine
from tests.helpers import DATA

SWMMACS = [inst for inst in mc.instructions("gfx1250") if inst.sparse]


def _rocjitsu(inst, matrix):
    return next(layout for source, layout in engine.alternative_layouts(inst, matrix)
                if "rocjitsu" in source)


def relabelled(group, groups):
    """The calculator's group of four K that rocjitsu's `group` is: 1-based K quarters 2
    and 3 exchange lane halves (groups of the second and third quarter swap)."""
    quarter, rest = divmod(group, groups // 4)
    return {1: 2, 2: 1}.get(quarter, quarter) * (groups // 4) + rest


def exchanged(place, operand_bits):
    """(lane, bit) of the index with lane i's upper half exchanged with lane i+16's lower."""
    bit, half = 32 * place.reg + place.lo, operand_bits // 2
    if place.lane < 16 and bit >= half:
        return place.lane + 16, bit - half
    if place.lane >= 16 and bit < half:
        return place.lane - 16, bit + half
    return place.lane, bit


@pytest.mark.parametrize("inst", SWMMACS, ids=lambda i: i.mnemonic)
def test_rocjitsu_is_the_calculator_relabelled_with_the_index_exchanged(inst):
    groups = inst.k // 4
    a, a_rj = mc.operand(inst, "A", wave=32), _rocjitsu(inst, "A")
    b, b_rj = mc.operand(inst, "B", wave=32), _rocjitsu(inst, "B")
    index = mc.operand(inst, "K", wave=32)  # rocjitsu reads its index where this places it
    for group in range(groups):
        mine = relabelled(group, groups)
        for i in range(16):
            assert a_rj.places(i, 4 * group) == a.places(i, 4 * mine)
            (theirs,), (ours,) = index.places(i, 4 * group), index.places(i, 4 * mine)
            assert (theirs.lane, 32 * theirs.reg + theirs.lo) == \
                exchanged(ours, engine.index_bits(inst.k))
        for r in range(4):
            for j in range(16):
                assert b_rj.places(4 * group + r, j) == b.places(4 * mine + r, j)


def test_the_exchange_is_a_real_difference():
    # relabelling alone (no exchange) would give the calculator's products: it does not
    inst = mc.find_instruction("gfx1250", "v_swmmac_f32_16x16x128_fp8_fp8")
    index = mc.operand(inst, "K", wave=32)
    (theirs,), (ours,) = index.places(0, 4 * 8), index.places(0, 4 * relabelled(8, 32))
    assert (theirs.lane, theirs.reg) == (0, 1) and (ours.lane, ours.reg) == (16, 0)


def test_rocjitsus_recorded_answers_pass_with_its_reading():
    with gzip.open(DATA / "gfx1250_products_rocjitsu.txt.gz", "rt") as file:
        heads = [line.split() for line in file if line.startswith("case ")]
    swmmac = [h for h in heads if "swmmac" in h[1] and h[2] == "rocjitsu"]
    assert len(swmmac) == 2 * len(SWMMACS)  # both index keys of every SWMMAC
    assert {h[4] for h in swmmac} == {"0"}  # mismatches: none
