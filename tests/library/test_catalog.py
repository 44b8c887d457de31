"""The instruction catalog (--catalog, -L -a all): every instruction of every registered
architecture, one row each, in every output format, filtered by --filter."""
import csv
import io
import json

import pytest

from formats.catalog import HEADER
from instructions import ARCHITECTURES, find_architecture
from matrix_library import api
from tests.helpers import call


def rows(argv):
    """The catalog as CSV records (dicts keyed by the header)."""
    status, out, err = call(list(argv) + ["--csv"])
    assert (status, err) == (0, ""), err
    return list(csv.DictReader(io.StringIO(out)))


ALL = rows(["--catalog"])


def test_every_instruction_of_every_architecture_is_listed_once():
    expected = [(a.name, inst.mnemonic) for a in ARCHITECTURES for inst in a.instructions]
    assert [(r["architecture"], r["instruction"]) for r in ALL] == expected
    assert {a.name for a in ARCHITECTURES if not a.public} <= {r["architecture"] for r in ALL}


def test_the_columns():
    assert list(ALL[0]) == HEADER
    for name in ("M", "N", "K", "blocks", "A type", "B type", "C type", "D type", "cycles",
                 "FLOPs", "FLOPs/unit/cycle", "A regs", "B regs", "C regs", "D regs",
                 "modifiers"):
        assert name in HEADER


def test_the_numbers_are_the_facts():
    facts = api.catalog()
    for row, fact in zip(ALL, facts):
        assert row["instruction"] == fact["mnemonic"]
        assert [int(row[c]) for c in ("M", "N", "K", "blocks")] == \
            [fact[c] for c in ("m", "n", "k", "blocks")]
        inst = find_architecture(row["architecture"]).find(row["instruction"])
        assert int(row["FLOPs"]) == fact["flops"] == 2 * fact["m"] * fact["n"] * fact["k"] \
            * fact["blocks"] * inst.products  # (ldmatrix/stmatrix multiply nothing)
        if fact["flops_per_cycle"] is None:  # gfx1250: no ISA cycle counts
            assert row["FLOPs/unit/cycle"] == "" and row["cycles"] == str(fact["cycles"] or "")
        else:
            assert int(row["FLOPs/unit/cycle"]) == fact["flops"] * 4 // int(row["cycles"])
        assert row["unit"] == find_architecture(row["architecture"]).unit
        assert row["sparse"] == ("yes" if fact["sparse"] else "no")
        assert (row["C type"] == "") == fact["sparse"] == (row["K regs"] != "")
        # (no C registers where C is not a register operand, as wgmma's is D's; a sparse
        # instruction's C is the tied accumulator its vdst field names)
        assert (row["C regs"] == "") == ("C" not in (inst.matrices or "C") and
                                         not (fact["sparse"] and fact["fields"][row["wave"]]))
        if fact["sparse"] and row["C regs"]:
            assert int(row["C regs"]) == fact["fields"][row["wave"]]["vdst"]
        counts = fact["registers"][row["wave"]]
        assert {m: int(row[f"{m} regs"]) for m in counts} == counts
        assert row["modifiers"].split() == fact["modifiers"]


def test_every_format_has_one_row_per_instruction():
    count = len(ALL)
    status, grid, _ = call(["--catalog"])
    assert status == 0 and grid.count("\n| ") == count + 1  # the header and the rows
    status, markdown, _ = call(["--catalog", "--markdown"])
    assert status == 0 and len(markdown.splitlines()) == count + 2
    status, asciidoc, _ = call(["--catalog", "--asciidoc"])
    assert status == 0 and asciidoc.startswith("[cols=") and asciidoc.count("\n|") >= count
    status, out, _ = call(["--catalog", "--json"])
    assert status == 0 and json.loads(out)["count"] == count


def test_list_all_is_the_catalog():
    for fmt in ([], ["--csv"], ["--json"]):
        assert call(["-L", "-a", "all"] + fmt) == call(["--catalog"] + fmt)
        assert call(["-L", "-a", "ALL"] + fmt) == call(["--catalog", "-a", "all"] + fmt)


def test_all_is_no_architecture_elsewhere():
    for argv in (["-a", "all", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"],
                 ["-a", "all", "-i", "v_mfma_f32_32x32x8_f16", "-d"]):
        status, out, err = call(argv)
        assert status == 2 and out == "" and "'all'" in err


def test_an_architecture_narrows_the_catalog():
    assert rows(["--catalog", "-a", "mi300x"]) == rows(["--catalog", "--filter", "arch=cdna3"])
    assert {r["architecture"] for r in rows(["-L", "-a", "all", "--filter", "arch=gfx1100"])} \
        == {"RDNA3"}


def matching(*filters):
    argv = ["--catalog"]
    for text in filters:
        argv += ["--filter", text]
    return rows(argv)


def test_type_filter_matches_any_operand():
    found = matching("type=fp8")
    assert found and all(any(t in " ".join(r[f"{m} type"] for m in "AB") for t in ("fp8", "e4m3"))
                         for r in found)
    assert {r["instruction"] for r in found} >= {"v_mfma_f32_16x16x32_fp8_bf8",
                                                 "v_wmma_f32_16x16x16_bf8_fp8"}
    assert all(r["D type"] in ("i32", "s32") or "i32" in r["C type"]
               for r in matching("type=i32"))
    assert {r["instruction"] for r in matching("type=fp16")} == \
        {r["instruction"] for r in matching("type=f16")}
    assert all("iu4" in r["A type"] for r in matching("type=iu4"))


def test_shape_sparse_kind_and_size_filters():
    assert all((r["M"], r["N"], r["K"]) == ("16", "16", "32")
               for r in matching("shape=16x16x32"))
    assert all((r["M"], r["N"]) == ("32", "32") for r in matching("shape=32x32x*"))
    assert matching("shape=32x32") == matching("shape=32x32x*")
    assert all(r["sparse"] == "yes" for r in matching("sparse=yes"))
    assert len(matching("sparse=yes")) + len(matching("sparse=no")) == len(ALL)
    assert all(r["instruction"].startswith("v_swmmac") for r in matching("kind=swmmac"))
    assert all(r["M"] == "4" for r in matching("m=4"))
    assert all(int(r["blocks"]) == 16 for r in matching("blocks=16"))


def test_filters_combine():
    both = matching("arch=cdna3", "type=bf16")
    assert both and all(r["architecture"] == "CDNA3" and "bf16" in r["A type"] for r in both)
    either = matching("arch=cdna1,cdna2")
    assert either == matching("arch=cdna1", "arch=cdna2")
    assert {r["architecture"] for r in either} == {"CDNA1", "CDNA2"}


def test_wave_size():
    wave32 = rows(["--catalog", "-w", "32"])
    assert wave32 and {r["wave"] for r in wave32} == {"32"}
    assert {r["architecture"] for r in wave32} == {a.name for a in ARCHITECTURES
                                                   if 32 in a.waves}
    assert {r["wave"] for r in rows(["--catalog", "-w", "64"])} == {"64"}
    assert {r["wave"] for r in ALL} == {str(i.wave_sizes[0]) for a in ARCHITECTURES
                                        for i in a.instructions}


@pytest.mark.parametrize("argv, text", [
    (["--catalog", "--filter", "colour=red"], "'colour'"),
    (["--catalog", "--filter", "type"], "key=value"),
    (["--catalog", "--filter", "arch=rdna9"], "'rdna9'"),
    (["--catalog", "--filter", "m=x"], "'x'"),
    (["--catalog", "--filter"], "--filter"),
    (["--catalog", "-w", "16"], "16"),
    (["--catalog", "-a", "cdna3", "-w", "32"], "32"),
    (["--catalog", "--csv", "--markdown"], "--csv"),
    (["-a", "cdna3", "-L", "--filter", "type=fp8"], "--catalog"),
    (["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "--filter", "m=4"],
     "--catalog"),
])
def test_bad_catalog_requests_are_one_line_errors(argv, text):
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and text in err, err


def test_empty_result_is_a_header_only():
    """Values that exist, in a combination no instruction has: an empty table."""
    narrow = ["--catalog", "--filter", "arch=cdna1", "--filter", "kind=wmma"]
    assert rows(narrow) == []
    status, out, _ = call(narrow + ["--json"])
    assert json.loads(out)["instructions"] == []


@pytest.mark.parametrize("value, named", [
    ("type=fp9", "fp8"), ("type=f8", "fp8"), ("kind=xyz", "wmma"), ("shape=1x1x1", "16x16x16"),
    ("m=3", "32"), ("blocks=7", "16")])
def test_a_filter_value_no_instruction_has_is_an_error_naming_those_that_exist(value, named):
    for extra in ([], ["--json"]):
        status, out, err = call(["--catalog", "--filter", value] + extra)
        assert status == 2 and out == "" and err.count("\n") == 1, err
        assert value in err and named in err.split(": ")[-1], err


# ---- one set of type names and filter keys

def test_fp8_and_bf8_find_every_vendors_names():
    """fp8 is OCP E4M3 (NVIDIA's e4m3) and bf8 E5M2 (e5m2), whichever vendor names it."""
    for name, ptx in (("fp8", "e4m3"), ("bf8", "e5m2")):
        found = api.catalog({"type": name})
        nvidia = [f for f in found if find_architecture(f["architecture"]).vendor == "nvidia"]
        assert nvidia and all(ptx in f["mnemonic"] for f in nvidia)
        assert {f["mnemonic"] for f in api.catalog({"type": ptx})} <= \
            {f["mnemonic"] for f in found}
        assert api.catalog({"type": name, "vendor": "nvidia"}) == nvidia
    every_nvidia = [f for f in api.catalog({"vendor": "nvidia"})
                    if any(t in f["mnemonic"] for t in ("e4m3", "e5m2"))]
    both = api.catalog({"type": ["fp8", "bf8"], "vendor": "nvidia"})
    assert len(both) == len(every_nvidia) > 0


def test_a_type_has_the_same_names_in_a_filter_and_a_store_type():
    inst = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    for name, key in (("fp16", "f16"), (" F16", "f16"), ("fp32", "f32"), ("e4m3", "fp8"),
                      ("e5m2", "bf8")):
        assert api.store_plan(inst, store_type=name).store_type == key, name
    assert api.catalog({"type": "fp16"}) == api.catalog({"type": "f16"})


def test_the_filter_keys_are_one_list():
    """-h, completion and docs/formats.md name the catalog's own keys, in its order."""
    import re

    from matrix_frontends.cli.options import BY_DEST
    from tests.helpers import REPO
    keys = api.FILTERS
    option = BY_DEST["filter"]
    assert option.choices == tuple(f"{k}=" for k in keys)
    assert ", ".join(keys[:-1]) + " or " + keys[-1] in " ".join(option.help.split())
    text = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    sentence = " ".join(text.split("Keys: ", 1)[1].split(").\n\n", 1)[0].split())
    named = re.findall(r"(?:^|\), |, | and )`(\w+)`(?= \(|,| and|$)", sentence)
    assert [k for k in named if k in keys] == list(keys), named
