"""The reference's output quirks (instructions.QUIRKS, applied by formats/quirks.py; the
formula texts in formats/reference_formulas_*.py) are what text output reproduces: for each one,
golden records of the reference show it, our text prints those records byte for byte,
and the same text with the quirk switched off differs from the reference on at least
one record, so the filter is needed and is the only difference from the correct
answer that JSON and the library give."""
import pytest

import instructions
from instructions import QUIRKS
from tests.helpers import call, golden_records


def _arch_of(argv):
    return instructions.find_architecture(argv[argv.index("-a") + 1])


SELECT = {  # quirk -> golden records that can show it
    "broadcast_skip_walk": lambda a: "-m" in a and ("--cbsz" in a or "--blgp" in a),
    "output_b_by_row": lambda a: "-o" in a,
    "index_entry_first_register": lambda a: "-m" in a and "-k" in a,
    "untitled_blocks": lambda a: "-R" in a,
    "reference_formulas": lambda a: "-d" in a,
    "transposed_lane_corner": lambda a: "-M" in a and "--transpose" in a,
}


def test_every_quirk_is_tested():
    assert set(SELECT) == set(QUIRKS)


def _without(quirk, monkeypatch):
    for name, arch in list(instructions._BY_NAME.items()):
        monkeypatch.setitem(instructions._BY_NAME, name,
                            arch._replace(quirks=arch.quirks - {quirk}))


@pytest.mark.parametrize("quirk", sorted(SELECT))
def test_the_quirk_is_the_references_behaviour(quirk, monkeypatch):
    records = golden_records()
    chosen = [r for r in records if r["rc"] == 0 and "-a" in r["args"]
              and _arch_of(r["args"]) is not None
              and quirk in _arch_of(r["args"]).quirks and SELECT[quirk](r["args"])]
    assert chosen, f"no golden record shows {quirk}"
    for rec in chosen:
        assert call(rec["args"])[1] == rec["stdout"], rec["args"]
    _without(quirk, monkeypatch)
    differ = [rec["args"] for rec in chosen if call(rec["args"])[1] != rec["stdout"]]
    assert differ, f"switching {quirk} off changes no golden record"


def test_json_does_not_apply_the_index_quirk():
    """The SWMMAC index quirk: -m -k text lists the reference's first groups of the
    lane's slice; JSON lists every index the lane holds, as -g finds them."""
    import json
    argv = ["-a", "rdna4", "-i", "v_swmmac_f32_16x16x32_f16", "-m", "-k", "-r", "0", "-l", "0"]
    text = call(argv)[1].splitlines()[2:]
    doc = json.loads(call(argv + ["--json"])[1])
    bits = sorted({e["location"]["bits"][0] for e in doc["entries"]})
    assert bits == list(range(0, 16, 4)) and len(text) == 4 < len(doc["entries"]) == 16
    assert call(["-a", "rdna4", "-i", "v_swmmac_f32_16x16x32_f16", "-g", "-k", "-K", "20"]
                )[1].endswith("= v0{0}.[15:12]\n")  # held, not listed by -m


def _listing(stdout):
    """(location text, element text) of each -m line."""
    return [tuple(line.split(" = ")) for line in stdout.splitlines()[2:]]


def test_the_index_quirk_rule_explains_every_golden_swmmac_listing():
    """quirks.listed_index_bits: for every golden -m -k record of an architecture with
    the quirk, the reference lists exactly the lane's index entries (the library's, in its
    order) whose bits start within that many bits of the OPSEL slice; the rule covers both
    data widths of the corpus and both wave sizes."""
    from formats import quirks
    from matrix_library import api
    records = golden_records()
    seen = set()
    for rec in records:
        argv = rec["args"]
        if rec["rc"] or "-m" not in argv or "-k" not in argv or _arch_of(argv) is None \
                or "index_entry_first_register" not in _arch_of(argv).quirks:
            continue
        inst = _arch_of(argv).find(argv[argv.index("-i") + 1])
        value = {o: int(argv[argv.index(o) + 1]) for o in ("-w", "-r", "-l", "--opsel")
                 if o in argv}
        wave, opsel = value.get("-w", 32), value.get("--opsel", 0)
        entries = api.elements_at(inst, "K", value.get("-r", 0), value.get("-l", 0),
                                  mods={"opsel": opsel}, wave=wave)
        base = api.operand(inst, "K", mods={"opsel": opsel}, wave=wave).layout.base_bit
        kept = [(e.location.text, api.element_text(inst, e.element)) for e in entries
                if e.location.bits[0] - base < quirks.listed_index_bits(inst)]
        assert _listing(rec["stdout"]) == kept, argv
        seen.add((inst.a_type.bits, wave, len(kept) < len(entries)))
    # 16- and 8-bit data in both waves; the quirk cuts the listing in some of them
    assert {(16, 32), (16, 64), (8, 32), (8, 64), (4, 64)} <= {s[:2] for s in seen}
    assert any(s[2] for s in seen)


def test_the_index_quirk_in_wave32_and_wave64_of_iu4():
    """v_swmmac_i32_16x16x64_iu4: the reference lists all 32 indices of lane 0 in wave32
    (K[0][16]..K[0][31] at v0{0}.[19:16]..[31:28]) and 16 in wave64."""
    base = ["-a", "rdna4", "-i", "v_swmmac_i32_16x16x64_iu4", "-m", "-k"]
    wave32 = _listing(call(base)[1])
    assert len(wave32) == 32 and wave32[16] == ("v0{0}.[19:16]", "K[0][16]")
    assert wave32[-1] == ("v0{0}.[31:28]", "K[0][31]")
    assert len(_listing(call(base + ["-w", "64"])[1])) == 16
