"""The reference's output quirks (instructions.QUIRKS, applied by formats/quirks.py and,
for formulas, layouts/formulas_cdna.py) are what text output reproduces: for each one,
golden records of the reference show it, our text prints those records byte for byte,
and the same text with the quirk switched off differs from the reference on at least
one record, so the filter is needed and is the only difference from the correct
answer that JSON and the library give."""
import pytest
from conftest import absent_reason, call, golden_records, missing

import instructions
from instructions import QUIRKS


def _arch_of(argv):
    return instructions.find_architecture(argv[argv.index("-a") + 1])


SELECT = {  # quirk -> golden records that can show it
    "broadcast_skip_walk": lambda a: "-m" in a and ("--cbsz" in a or "--blgp" in a),
    "output_b_by_row": lambda a: "-o" in a,
    "index_entry_first_register": lambda a: "-m" in a and "-k" in a,
    "untitled_blocks": lambda a: "-R" in a,
    "reference_formulas": lambda a: "-d" in a,
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
    if records is None:
        missing(absent_reason("golden", "public.jsonl.gz"))
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
    """The SWMMAC index bug of issue 10: -m -k text lists the first register's pairs, as
    the reference does; JSON lists every index the lane holds, as -g finds them."""
    import json
    argv = ["-a", "rdna4", "-i", "v_swmmac_i32_16x16x64_iu4", "-m", "-k", "-r", "0", "-l", "0"]
    text = call(argv)[1].splitlines()[2:]
    doc = json.loads(call(argv + ["--json"])[1])
    bits = sorted({e["location"]["bits"][0] for e in doc["entries"]})
    assert bits == list(range(0, 32, 4)) and len(text) < len(doc["entries"])
    assert call(["-a", "rdna4", "-i", "v_swmmac_i32_16x16x64_iu4", "-g", "-k", "-K", "20"]
                )[1].endswith("= v0{0}.[23:20]\n")
