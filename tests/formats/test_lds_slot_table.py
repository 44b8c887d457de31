"""The text LDS plan's slot table: the first lanes' register slots, element @ byte."""
import matrix_calculator as mc
from formats.lds import text
from matrix_library.api import element_text


def test_the_slot_table_shows_the_first_four_lanes_and_what_each_slot_receives():
    inst = mc.find_instruction("gfx1250", "v_wmma_f32_32x16x128_f4")
    plan = mc.lds_plan(inst, "A", tile="32x256", k_steps=2)
    lines = text(plan).splitlines()
    table = lines[lines.index("Slots (element @ byte) of the first lanes; every lane: --json")
                  + 1:]
    header, rows = table[0].split(), [line.split() for line in table[1:5]]
    assert [row[0] for row in rows] == ["0", "1", "2", "3"]
    for row in rows:  # every cell of a lane: its slot of that column, in column order
        lane = int(row[0])
        mine = sorted((s for s in plan.slots if s.lane == lane),
                      key=lambda s: (s.register, s.bits[0]))
        assert row[1:] == [f"{element_text(inst, s.element)}@{s.address}"
                           + (f"+{s.bit}b" if s.bit else "") for s in mine]
    first = min(plan.slots, key=lambda s: (s.register, s.bits[0]))
    assert header[1:3] == [f"v{first.register}.[{first.bits[1]}:{first.bits[0]}]",
                           f"s{first.step}"]
