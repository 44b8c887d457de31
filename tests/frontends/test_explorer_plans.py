"""The explorer's plan panels: mode=lds (LDS read and copy plans, --lds-search),
mode=preshuffle and mode=store answer what the command line prints for the same words,
byte for byte (text, --json, --format svg, --emit hip), and a bad value gets 400 with the
command line's own one-line message. The command lines are
written out here, as a user would type them, so that the translation is checked too."""
import json
import shlex
from urllib.parse import urlencode

import pytest

from matrix_frontends.cli import completion as cli_complete
from matrix_frontends.cli import modes as cli_modes
from matrix_frontends.cli import options as cli_options
from matrix_frontends.explorer import app as matrix_explorer
from matrix_frontends.explorer import plans as explorer_plans
from tests.helpers import call
from tests.helpers.explorer_client import get, serving

M16 = "v_mfma_f32_16x16x16_f16"
SCALE = "v_mfma_scale_f32_16x16x128_f8f6f4"
BF16 = "v_mfma_f32_16x16x32_bf16"


@pytest.fixture(scope="module")
def server():
    yield from serving()


def api(server, endpoint, query):
    return get(server, f"/api/{endpoint}?{urlencode(query)}")


# (query, the command line, the kinds it answers besides text and json)
PLANS = [
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
      "load": "ds_read_b64"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--load", "ds_read_b64"],
     ("svg", "hip")),
    ({"arch": "cdna3", "inst": M16, "matrix": "B", "mode": "lds", "lds-tile": "64x16",
      "lds-order": "mn", "lds-pad": "4", "lds-base": "256", "k-steps": "2",
      "lds-model": "rocroller"},
     ["-a", "cdna3", "-i", M16, "-B", "--lds-tile", "64x16", "--lds-order", "mn",
      "--lds-pad", "4", "--lds-base", "256", "--k-steps", "2", "--lds-model", "rocroller"],
     ("svg",)),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
      "copy": "global_load_dwordx4+ds_write_b64", "load": "ds_read_b64"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--load", "ds_read_b64",
      "--copy", "global_load_dwordx4+ds_write_b64"], ("svg", "hip")),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "32x128",
      "copy": "global_load_dwordx4+ds_write_b128", "lds-swizzle": "xor:4^8,5^9,7^10",
      "global-order": "row", "ld": "256", "waves": "2", "wave-split": "interleave"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "32x128", "--ld", "256", "--lds-swizzle",
      "xor:4^8,5^9,7^10", "--copy", "global_load_dwordx4+ds_write_b128", "--global-order",
      "row", "--waves", "2", "--wave-split", "interleave"], ("svg",)),
    ({"arch": "gfx950", "inst": SCALE, "matrix": "A", "mode": "lds", "cbsz": "4",
      "lds-type": "bf16", "lds-tile": "16x128", "copy": "buffer_load_dwordx4",
      "load": "ds_read_b128"},
     ["-a", "gfx950", "-i", SCALE, "-A", "--lds-tile", "16x128", "--load", "ds_read_b128",
      "--copy", "buffer_load_dwordx4", "--lds-type", "bf16", "--cbsz", "4"], ("svg",)),
    ({"arch": "gfx1250", "inst": "v_wmma_f32_16x16x32_f16", "matrix": "A", "mode": "lds",
      "lds-tile": "16x32", "copy": "tensor_load_to_lds", "tdm-pad-interval": "16",
      "tdm-pad-amount": "4", "lds-pad": "8"},
     ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-A", "--lds-tile", "16x32",
      "--lds-pad", "8", "--copy", "tensor_load_to_lds", "--tdm-pad-interval", "16",
      "--tdm-pad-amount", "4"],
     ("svg",)),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
      "lds-search": "1"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--lds-search"], ()),
    ({"arch": "cdna4", "inst": SCALE, "matrix": "B", "mode": "preshuffle", "blgp": "4"},
     ["-a", "cdna4", "-i", SCALE, "-B", "--preshuffle", "--blgp", "4"], ("svg", "hip")),
    ({"arch": "cdna4", "inst": SCALE, "matrix": "SB", "mode": "preshuffle",
      "supertile": "2x2"},
     ["-a", "cdna4", "-i", SCALE, "--B-scale", "--preshuffle", "--supertile", "2x2"],
     ("svg",)),
    ({"arch": "cdna4", "inst": SCALE, "matrix": "B", "mode": "preshuffle", "blgp": "4",
      "preset": "seed-b"},
     ["-a", "cdna4", "-i", SCALE, "-B", "--preshuffle", "--preset", "seed-b", "--blgp", "4"],
     ("svg",)),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "preshuffle", "load-width": "8",
      "order": "col", "ld": "64"},
     ["-a", "cdna3", "-i", M16, "-A", "--preshuffle", "--ld", "64", "--order", "col",
      "--load-width", "8"], ("svg",)),
    ({"arch": "cdna4", "inst": BF16, "mode": "store", "store-type": "bf16"},
     ["-a", "cdna4", "-i", BF16, "--store-d", "--store-type", "bf16"], ("hip",)),
    ({"arch": "cdna4", "inst": BF16, "mode": "store", "store-type": "bf16", "route": "lds"},
     ["-a", "cdna4", "-i", BF16, "--store-d", "--store-type", "bf16", "--route", "lds"],
     ("hip",)),
    ({"arch": "cdna4", "inst": BF16, "mode": "store", "store-type": "bf16", "order": "col",
      "ld": "64"},
     ["-a", "cdna4", "-i", BF16, "--store-d", "--ld", "64", "--order", "col",
      "--store-type", "bf16"], ()),
]


@pytest.mark.parametrize("query, argv, kinds", PLANS, ids=[str(n) for n in range(len(PLANS))])
def test_a_plan_is_what_the_command_line_prints(server, query, argv, kinds):
    for kind, extra in [("text", []), ("json", ["--json"]), ("svg", ["--format", "svg"]),
                        ("hip", ["--emit", "hip"])]:
        if kind not in ("text", "json", *kinds):
            continue
        status, out, err = call(argv + extra)
        assert status == 0 and err == "", (kind, err)
        code, headers, body = api(server, kind, query)
        assert (code, body) == (200, out), kind
        assert shlex.split(headers["X-Command-Line"])[1:] == argv + extra
    document = json.loads(api(server, "json", query)[2])
    wanted = {"lds": ("lds", "lds_search", "lds_copy"), "preshuffle": ("preshuffle",),
              "store": ("store",)}[query["mode"]]
    assert document["mode"] in wanted


# (query, the command line: a plan the command line refuses, and the explorer with it)
REFUSED = [
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x6x4"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x6x4"]),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
      "lds-swizzle": "4,1"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--lds-swizzle", "4,1"]),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
      "copy": "global_load_dwordx9"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--copy", "global_load_dwordx9"]),
    ({"arch": "gfx1250", "inst": "v_wmma_f32_16x16x32_f16", "matrix": "A", "mode": "lds",
      "lds-tile": "16x32", "copy": "tensor_load_to_lds", "tdm-pad-interval": "12",
      "tdm-pad-amount": "4"},
     ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-A", "--lds-tile", "16x32",
      "--copy", "tensor_load_to_lds", "--tdm-pad-interval", "12", "--tdm-pad-amount", "4"]),
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
      "lds-pad": "-3"},
     ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--lds-pad=-3"]),
    ({"arch": "cdna4", "inst": SCALE, "matrix": "B", "mode": "preshuffle",
      "preset": "nope"},
     ["-a", "cdna4", "-i", SCALE, "-B", "--preshuffle", "--preset", "nope"]),
    ({"arch": "cdna4", "inst": SCALE, "matrix": "B", "mode": "preshuffle",
      "load-width": "5"},
     ["-a", "cdna4", "-i", SCALE, "-B", "--preshuffle", "--load-width", "5"]),
    ({"arch": "cdna4", "inst": BF16, "mode": "store", "route": "diag"},
     ["-a", "cdna4", "-i", BF16, "--store-d", "--route", "diag"]),
    ({"arch": "cdna4", "inst": BF16, "mode": "store", "store-type": "bf17"},
     ["-a", "cdna4", "-i", BF16, "--store-d", "--store-type", "bf17"]),
    ({"arch": "sm_90", "inst": BF16, "mode": "store"},
     ["-a", "sm_90", "-i", BF16, "--store-d"]),
]


@pytest.mark.parametrize("query, argv", REFUSED, ids=[str(n) for n in range(len(REFUSED))])
def test_a_bad_plan_gets_400_and_the_command_lines_message(server, query, argv):
    for kind, extra in [("text", []), ("json", ["--json"])]:
        status, out, err = call(argv + extra)
        assert status == 2 and out == "" and err.count("\n") == 1, (kind, out, err)
        code, headers, body = api(server, kind, query)
        assert (code, body) == (400, err.rstrip("\n")), kind
        assert headers["Content-Type"].startswith("text/plain")
        assert shlex.split(headers["X-Command-Line"])[1:] == argv + extra


def test_a_picture_the_command_line_does_not_draw_is_its_400():
    """A store plan has no picture, an LDS search neither: the command line says so."""
    for query, argv in [
            ({"arch": "cdna4", "inst": BF16, "mode": "store"},
             ["-a", "cdna4", "-i", BF16, "--store-d"]),
            ({"arch": "cdna3", "inst": M16, "matrix": "A", "mode": "lds", "lds-tile": "16x64",
              "lds-search": "1"},
             ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--lds-search"])]:
        status, out, err = call(argv + ["--format", "svg"])
        assert status == 2 and out == "" and err.count("\n") == 1
        code, body, command = matrix_explorer.answer("svg", query)
        assert (code, body) == (400, err.rstrip("\n"))
        assert shlex.split(command)[1:] == argv + ["--format", "svg"]


@pytest.mark.parametrize("path, wanted", [
    (f"/api/json?arch=cdna3&inst={M16}&matrix=A&mode=lds", "mode=lds needs lds-tile="),
    (f"/api/json?arch=cdna3&inst={M16}&mode=store&supertile=2x2",
     "unknown query name 'supertile'; mode=store takes"),
    (f"/api/json?arch=cdna3&inst={M16}&matrix=A&mode=preshuffle&copy=x",
     "unknown query name 'copy'; mode=preshuffle takes"),
    (f"/api/json?arch=cdna3&inst={M16}&matrix=A&mode=preshuffle&preshuffle=1",
     "unknown query name 'preshuffle'"),
    (f"/api/json?arch=cdna3&inst={M16}&matrix=A&mode=lds&lds-tile=16x64&lds-search=maybe",
     "lds-search= is a flag: 1 or 0, not 'maybe'"),
    (f"/api/svg?arch=cdna3&inst={M16}&matrix=Q&mode=lds&lds-tile=16x64",
     "matrix= takes A, B, C, D, K, SA, SB, not 'Q'"),
    ("/api/json?arch=cdna3&mode=plan", "mode= takes L, d, g, m, R, M, catalog, convert, "
     "budget, products, lds, preshuffle, store, not 'plan'"),
])
def test_plan_queries_the_explorer_cannot_translate(server, path, wanted):
    code, _, body = get(server, path)
    assert code == 400 and wanted in body and "\n" not in body


def test_the_plan_panels_fields_are_the_option_tables_rows(server):
    """/api/plans: each plan mode's fields are the options its mode row reads, with the
    option table's help, metavar and choices; every one is an option the command line
    takes, and the fields of one plan's flag (--preshuffle's) are not another's."""
    code, headers, body = get(server, "/api/plans")
    assert code == 200 and headers["Content-Type"].startswith("application/json")
    plans = {plan["mode"]: plan for plan in json.loads(body)}
    assert list(plans) == ["lds", "preshuffle", "store"]
    by_spelling = {s: o for o in cli_options.OPTIONS for s in o.spellings}
    rows = {mode.name: mode for mode in cli_modes.MODES}
    for name, plan in plans.items():
        assert plan["option"] == rows[name].flag
        for field in plan["fields"]:
            option = by_spelling[field["option"]]
            assert field["key"] == field["option"][2:]
            assert option.dest in rows[name].uses
            assert (field["help"], field["metavar"], field["choices"], field["flag"]) == \
                (option.help, option.metavar, list(option.choices), option.kind == "flag")
    keys = {name: [f["key"] for f in plan["fields"]] for name, plan in plans.items()}
    assert keys["lds"][0] == "lds-tile" and {"lds-swizzle", "copy", "global-order", "waves",
                                            "wave-split", "tdm-pad-interval", "lds-search",
                                            "lds-type", "lds-model", "load", "ld"} <= \
        set(keys["lds"])
    assert {"load-width", "supertile", "preset", "ld", "order"} <= set(keys["preshuffle"])
    assert "store-type" not in keys["preshuffle"] and "store-d" not in keys["preshuffle"]
    assert {"store-type", "route", "ld", "order", "global-order"} <= set(keys["store"])
    assert "route" not in keys["preshuffle"] and "route" not in keys["lds"]
    assert not {"load-width", "supertile", "preset", "preshuffle"} & set(keys["store"])
    assert (plans["lds"]["picture"], plans["preshuffle"]["picture"],
            plans["store"]["picture"]) == (True, True, False)
    assert plans["store"]["matrix"] is False and plans["lds"]["matrix"] is True
    assert [f["with"] for f in plans["lds"]["fields"] if f["key"] == "waves"] == ["--copy"]
    assert explorer_plans.PLAN_MODES == tuple(plans)
    offered = {f["key"]: f["offered"] for f in plans["lds"]["fields"]}
    words = cli_complete.offered()  # (what bash and zsh completion offer after the option)
    assert offered["load"] == words["load"] and "ds_read_b64_tr_b16" in offered["load"]
    assert offered["lds-model"] == words["lds_model"] and "rocroller" in offered["lds-model"]
    assert offered["lds-order"] == []  # (a select of its choices instead)
