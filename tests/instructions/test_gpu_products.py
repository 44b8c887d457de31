"""GPU products and peaks: every product of every architecture listed with its
sources, and the peaks the calculator computes equal, to the digits printed, the figures
AMD publishes per product and data type (tests/data/product_peaks.txt, each row with the
document it comes from)."""
import csv
import io
import json

import pytest

from instructions.products import LIMITS, PRODUCTS, SOURCES
from matrix_library import api as mc
from tests.helpers import call, data_text

PEAKS = [line.split("\t") for line in data_text("product_peaks.txt").splitlines()
         if line and not line.startswith("#")]
SCALE = {"TF": 1e12, "PF": 1e15}


def test_every_architecture_has_products_and_limits():
    # AMD's products; NVIDIA's architectures are there for porting and have no budget.
    names = [a.name for a in mc.architectures() if a.vendor == "amd"]
    # a generic target's architecture has no product of its own
    assert {p.arch for p in PRODUCTS} == {a.name for a in mc.architectures()
                                          if a.vendor == "amd" and not a.members}
    assert [lim.arch for lim in LIMITS] == names
    for product in PRODUCTS:
        assert mc.find_architecture(product.target).name == product.arch, product
        assert product.sources and set(product.sources) <= set(SOURCES), product


def test_every_source_names_where_it_is():
    for key, text in SOURCES.items():
        assert "@" in text or "amd.com" in text or "LLVM" in text or "announcement" in text, key


@pytest.mark.parametrize("row", PEAKS, ids=[f"{r[0]}-{r[1]}" for r in PEAKS])
def test_peak_matches_the_datasheet(row):
    product, _, arch, name, mods, figure, unit, source = row
    assert source in SOURCES
    inst = mc.find_instruction(arch, name)
    chosen = None if mods == "-" else {
        key: int(value) for key, value in (m.split("=") for m in mods.split(","))}
    peak = mc.peak(inst, product, mods=chosen)
    digits = len(figure.split(".")[1]) if "." in figure else 0
    assert round(peak.flops / SCALE[unit], digits) == float(figure), peak


def test_the_peaks_cover_every_instinct_architecture_with_cycle_counts():
    archs = {row[2] for row in PEAKS}
    assert archs == {"CDNA1", "CDNA2", "CDNA3", "CDNA4"}  # (Radeon: see the data file)


def test_the_mi355x_bf16_peak():
    status, out, err = call(["-a", "gfx950", "-i", "v_mfma_f32_32x32x16_bf16", "-d",
                             "--product", "mi355x"])
    assert (status, err) == (0, "")
    assert "4096 x 256 x 2400 MHz = 2516.6 TFLOP/s (2.52 PFLOP/s)" in out
    assert "Sources: rocm-specs, rocm-mi350, amd-page" in out


def test_a_sparse_peak_is_effective():
    status, out, _ = call(["-a", "cdna3", "-i", "v_smfmac_f32_32x32x16_f16", "-d",
                           "--product", "mi300x"])
    assert status == 0 and "effective (sparse" in out and "2614.9 TFLOP/s" in out


def test_rdna_peaks_count_wgps():
    peak = mc.peak(mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16"), "7900xtx")
    assert (peak.unit, peak.units, peak.flops_per_cycle) == ("WGP", 48, 1024)


@pytest.mark.parametrize("argv, message", [
    (["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-d", "--product", "mi455x"],
     "no cycle count"),
    (["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d", "--product", "9070xt"],
     "not CDNA3"),
    (["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d", "--product"], "needs a value"),
    # NVIDIA's architectures (for porting) have no products, limits or budgets
    (["-a", "sm90", "-i", "mma.m16n8k16.f32.f16.f16.f32", "-d", "--product", "mi300x"],
     "SM90 has no products"),
    (["-a", "sm90", "-i", "mma.m16n8k16.f32.f16.f16.f32", "--budget"], "SM90 has no products"),
    (["--list-products", "-a", "sm80"], "SM80 has no products"),
])
def test_peaks_that_cannot_be_given(argv, message):
    status, out, err = call(argv)
    assert status == 2 and out == "" and message in err, err


def test_the_library_refuses_nvidia_budgets_with_calc_error():
    inst = mc.find_instruction("sm89", "mma.m16n8k16.f32.f16.f16.f32")
    for ask in (lambda: mc.products("sm89"), lambda: mc.architecture_limits("sm89"),
                lambda: mc.budget(inst), lambda: mc.peak(inst, "mi300x")):
        with pytest.raises(mc.CalcError, match="SM89 has no products"):
            ask()


def test_list_products_names_every_product_and_source():
    status, out, err = call(["--list-products"])
    assert (status, err) == (0, "")
    for product in PRODUCTS:
        assert product.name in out
    for key, text in SOURCES.items():
        assert f"{key}: {text}" in out
    assert "origami's rocjitsu gfx1250 table" not in out or "LLVM 22 says 16" in out


def test_list_products_json_and_csv():
    status, out, _ = call(["--list-products", "--json"])
    doc = json.loads(out)
    assert [p["name"] for p in doc["products"]] == [p.name for p in PRODUCTS]
    assert doc["sources"] == SOURCES and len(doc["limits"]) == len(LIMITS)
    status, out, _ = call(["--list-products", "--format", "csv", "-a", "cdna3"])
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:4] == ["product", "architecture", "target", "CUs"]
    assert [r[0] for r in rows[1:]] == ["MI300A", "MI300X", "MI325X"]
    assert rows[2][3:5] == ["304", "2100"]


def test_catalog_column_of_peaks():
    status, out, err = call(["--catalog", "-a", "cdna4", "--product", "mi355x", "--format",
                             "csv"])
    assert (status, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    peak = {r["instruction"]: r["peak on MI355X (TFLOP/s)"] for r in rows}
    assert peak["v_mfma_f32_32x32x16_bf16"] == "2516.6"
    assert peak["v_mfma_f64_16x16x4_f64"] == "78.6"


def test_products_are_found_by_short_names():
    assert mc.find_product("7900xtx").name == "Radeon RX 7900 XTX"
    assert mc.find_product("Radeon AI PRO R9700").target == "gfx1201"
    assert mc.find_product("MI300X").cus == 304
    with pytest.raises(mc.CalcError):
        mc.find_product("rx")  # the end of several names
    assert [p.name for p in mc.products("gfx942")] == ["MI300A", "MI300X", "MI325X"]


@pytest.mark.parametrize("name, says", [
    ("mi300", "ambiguous product 'mi300': it could mean MI300A; MI300X"),
    ("gfx942:sramecc+:xnack-", "'gfx942:sramecc+:xnack-' names the architecture CDNA3, not a "
     "product: name one of its products, MI300A, MI300X, MI325X"),
    ("sm90", "'sm90' names the architecture SM90, not a product: it has no products here")])
def test_a_name_that_is_no_one_product_says_what_it_could_mean(name, says):
    with pytest.raises(mc.CalcError) as refused:
        mc.find_product(name)
    assert str(refused.value) == says + " (--list-products)"
    status, out, err = call(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d",
                             "--product", name])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.endswith(f": {says}; --list-products lists them\n"), err
