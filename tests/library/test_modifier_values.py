"""What each modifier value does: matrix_library.modifier_values reads it off
the modifier table, the instruction's rule and the engine; docs/usage.md holds the
family table it writes, -d prints it beyond the reference's architectures, -d --json for
all."""
import json
from pathlib import Path

from matrix_library import api as mc
from matrix_library.modifier_values import family_rows, family_table
from tests.helpers import call

ROOT = Path(__file__).resolve().parents[2]


def test_docs_usage_holds_the_generated_table():
    page = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    begin = "<!-- modifier values: written by scripts/write_modifier_table.py -->\n"
    section = page.split(begin, 1)[1].split("<!-- end of modifier values -->", 1)[0]
    assert section == family_table(), "run python3 scripts/write_modifier_table.py"


def test_every_family_and_every_tabled_modifier_has_rows():
    rows = family_rows()
    assert {row[0] for row in rows} == {"cdna", "rdna3", "rdna4", "gfx1250"}
    labels = {(row[0], row[1]) for row in rows}
    assert {("cdna", "CBSZ"), ("cdna", "ABID"), ("cdna", "BLGP"), ("rdna3", "OPSEL"),
            ("rdna4", "OPSEL"), ("rdna3", "NEG"), ("rdna4", "NEG_HI")} <= labels


def test_the_meanings_are_the_engines():
    """BLGP 3 rotates B by 16 lanes, as the engine reads B's lanes; RDNA4 wave64 OPSEL 2
    picks bits [23:16] of the index VGPR, where the engine puts that index set; CDNA4's
    OPSEL_A 1 puts the A scales in bits [15:8]."""
    inst = mc.find_instruction("cdna1", "v_mfma_f32_32x32x1f32")
    blgp = dict(mc.value_meanings(inst, 64)["blgp"])
    assert blgp[3] == "B lanes 0-15 read 16-31, 16-31 read 32-47, 32-47 read 48-63, " \
                      "48-63 read 0-15"
    plain = mc.locate(inst, "B", k=0, j=0)[0].lane
    assert [loc.lane for loc in mc.locate(inst, "B", k=0, j=0, mods=mc.Modifiers(blgp=3))] \
        == [(plain + 16) % 64]  # (lane `plain` reads its B from 16 lanes on: put it there)
    sparse = mc.find_instruction("rdna4", "v_swmmac_f32_16x16x32_f16")
    assert dict(mc.value_meanings(sparse, 64)["opsel"])[2] == \
        "K: the index set in bits [23:16] of the index VGPR"
    found = mc.locate(sparse, "K", i=0, k=0, mods=mc.Modifiers(opsel=2), wave=64)[0]
    assert found.bits[0] >= 16 and found.bits[1] <= 23
    scaled = mc.find_instruction("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4")
    assert dict(mc.value_meanings(scaled, 64)["opsel_a"])[1] == \
        "SA: its entries in bits [15:8] of its VGPRs"
    negation = dict(mc.value_meanings(mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16"),
                                      32)["neg_hi"])
    assert negation[4] == "takes the absolute value of C"


def test_detail_prints_them_beyond_the_reference_and_json_everywhere():
    out = call(["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-d"])[1]
    assert "Modifier values:" in out and "OPSEL_A 3: SA: its entries in bits [31:24]" in out
    assert "Modifier values" not in call(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16",
                                          "-d"])[1]  # (the reference's bytes)
    doc = json.loads(call(["-a", "cdna1", "-i", "v_mfma_f32_32x32x1f32", "-d", "--json"])[1])
    assert doc["modifier_values"]["64"]["cbsz"][1] == {
        "value": 1, "meaning": "A: aligned groups of 2 blocks read the A of block ABID"}
