"""The explorer's page in a real browser: Playwright for Python driving the
system's Chromium. Skipped where Chromium or Playwright is missing, except under CI=true
(conftest.missing), where they must be installed: tests/install_browser.sh does it.

Every expectation comes from the command line itself (its --json, --format svg, -d and
--emit hip output for the same query), never from the page's own script."""
import json
import re
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

from matrix_frontends.explorer import app as matrix_explorer
from tests.helpers import call, missing, need_module
from tests.helpers.browser import (
    CHROMIUM_ARGS,
    OWN_REFERENCES,
    SETTLED,
    Recorder,
    chromium_path,
    wait_until,
)

M32 = "v_mfma_f32_32x32x8_f16"
M4 = "v_mfma_f32_4x4x4_16b_f16"
WMMA = "v_wmma_f32_16x16x16_f16"


@pytest.fixture(scope="module")
def server():
    found = matrix_explorer.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=found.serve_forever, daemon=True)
    thread.start()
    yield matrix_explorer.url_of(found)
    found.shutdown()
    found.server_close()


@pytest.fixture(scope="module")
def browser():
    sync_api = need_module("playwright.sync_api", "the explorer's browser tests drive "
                           "Chromium with it (pip install -r requirements-dev.txt)")
    path = chromium_path()
    if path is None:
        missing("Chromium is not installed (bash tests/install_browser.sh installs it)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Page:
    """A browser tab on the explorer that records console errors and page errors."""

    def __init__(self, browser, server):
        self.base = server
        # (under the page's own Content-Security-Policy: a console error it causes fails)
        self.context = browser.new_context(viewport={"width": 1500, "height": 1000})
        self.tab = self.context.new_page()
        self.tab.set_default_timeout(20000)
        self.errors = Recorder(self.tab).errors

    def open(self, query=""):
        self.tab.goto(self.base + ("?" + query if query else ""))
        self.settle()
        return self.tab

    def settle(self):
        wait_until(self.tab, SETTLED)

    def state(self):
        return {k: v[0] for k, v in parse_qs(urlsplit(self.tab.url).query,
                                             keep_blank_values=True).items()}

    def readout(self, pane=""):
        box = self.tab.locator(f"#readout{pane}")
        return {name: box.locator(f".r-{name}").text_content()
                for name in ("element", "register", "lane", "bits", "location", "copies")}


@pytest.fixture
def page(browser, server):
    opened = Page(browser, server)
    yield opened
    opened.context.close()


def clean(page):
    assert page.errors == []


def cli(argv):
    status, out, err = call(argv)
    assert status == 0 and err == "", err
    return out


def svg_title(svg):
    return re.search(r"<title>([^<]*)</title>", svg).group(1)


def test_a_state_url_shows_that_layout(page):
    tab = page.open(f"arch=cdna3&inst={M32}&matrix=A&view=R")
    svg = cli(["-a", "cdna3", "-i", M32, "-R", "-A", "--format", "svg"])
    assert tab.locator("#picture svg > title").text_content() == svg_title(svg)
    assert tab.locator("#picture rect.cell").count() == svg.count('<rect class="cell"') == 256
    assert [tab.locator(f"#{name}").input_value() for name in ("arch", "inst", "matrix", "view")] \
        == ["cdna3", M32, "A", "R"]
    assert tab.locator("#command").text_content().split()[1:] == \
        ["-a", "cdna3", "-i", M32, "-R", "-A", "--format", "svg"]
    assert tab.locator("#detail").text_content() == cli(["-a", "cdna3", "-i", M32, "-d"])
    assert tab.locator("#hip").text_content() == cli(["-a", "cdna3", "-i", M32, "-A",
                                                      "--emit", "hip"])
    assert tab.locator("#error").is_hidden()
    # (the server's page: its answers come from /api; run() is the static site's)
    assert tab.evaluate("matrixCalculator.engine") == "server"
    assert "answers in the static site" in tab.evaluate(
        "matrixCalculator.run(['-a', 'cdna3', '-L']).catch((problem) => problem.message)")
    assert tab.locator("#engine-status").is_hidden()
    clean(page)


@pytest.mark.parametrize("arch, inst, matrix, view, element, argv", [
    ("cdna3", M32, "A", "R", "A[5][6]", ["-I", "5", "-K", "6"]),
    ("cdna3", M32, "C", "M", "C[17][3]", ["-I", "17", "-J", "3"]),
    ("rdna4", WMMA, "B", "R", "B[7][12]", ["-K", "7", "-J", "12"]),
])
def test_the_hover_read_out_agrees_with_get(page, arch, inst, matrix, view, element, argv):
    tab = page.open(f"arch={arch}&inst={inst}&matrix={matrix}&view={view}")
    tab.locator(f'#picture rect.cell[data-e="{element}"]').first.hover()
    shown = page.readout()
    found = json.loads(cli(["-a", arch, "-i", inst, "-g", f"-{matrix}", *argv, "--json"]))
    first = found["locations"][0]
    assert shown["element"] == found["element"]["text"] == element
    assert (shown["register"], shown["lane"], shown["bits"]) == \
        (f"v{first['register']}", str(first["lane"]), f"{first['bits'][1]}:{first['bits'][0]}")
    copies = tab.locator(f'#picture rect.cell[data-e~="{element}"]').count()
    assert tab.locator("#picture rect.cell.hl").count() == copies == int(shown["copies"])
    if view == "M":
        assert {loc["text"] for loc in found["locations"]} == set(tab.locator(
            "#picture rect.cell.hl").evaluate_all("cells => cells.map(c => c.dataset.v)"))
    clean(page)


def test_every_copy_is_highlighted(page):
    """In wave32, RDNA3 keeps each A value in two lanes: both light up."""
    tab = page.open(f"arch=rdna3&inst={WMMA}&matrix=A&view=M&wave=32")
    tab.locator('#picture rect.cell[data-e="A[3][5]"]').first.hover()
    found = json.loads(cli(["-a", "rdna3", "-i", WMMA, "-g", "-A", "-I", "3", "-K", "5",
                            "-w", "32", "--json"]))
    lit = tab.locator("#picture rect.cell.hl").evaluate_all(
        "cells => cells.map(c => c.dataset.v)")
    assert len(lit) == len(found["locations"]) == 2
    assert sorted(lit) == sorted(loc["text"] for loc in found["locations"])
    assert page.readout()["copies"] == "2"
    clean(page)


def test_the_modifiers_offered_are_the_instructions_and_changing_one_redraws(page):
    tab = page.open(f"arch=cdna3&inst={M4}&matrix=A&view=R")
    offered = tab.locator("#modifiers input, #modifiers select").evaluate_all(
        "controls => controls.map(c => c.name)")
    facts = json.loads(cli(["-a", "cdna3", "-i", M4, "-d", "--json"]))["facts"]
    assert offered == [m.replace("_", "-") for m in facts["modifiers"]] == \
        ["cbsz", "abid", "blgp"]
    tab.locator("#cbsz").fill("2")
    tab.locator("#cbsz").dispatch_event("change")
    page.settle()
    tab.locator("#abid").fill("1")
    tab.locator("#abid").dispatch_event("change")
    page.settle()
    assert page.state() == {"arch": "cdna3", "inst": M4, "matrix": "A", "view": "R",
                            "cbsz": "2", "abid": "1"}
    svg = cli(["-a", "cdna3", "-i", M4, "-R", "-A", "--cbsz", "2", "--abid", "1",
               "--format", "svg"])
    assert tab.locator("#picture svg > title").text_content() == svg_title(svg)
    assert "CBSZ=2, ABID=1" in svg_title(svg)
    wmma = page.open(f"arch=rdna3&inst={WMMA}&matrix=A")
    names = wmma.locator("#modifiers input, #modifiers select").evaluate_all(
        "controls => controls.map(c => c.name)")
    assert "cbsz" not in names and "neg-hi" in names
    clean(page)


def test_named_modifier_values_are_chosen_by_name(page):
    inst = "v_wmma_f32_16x16x128_f8f6f4"
    tab = page.open(f"arch=gfx1250&inst={inst}&matrix=A&view=R")
    tab.locator("#matrix-a-fmt").select_option("fp4")
    page.settle()
    assert page.state()["matrix-a-fmt"] == "fp4"
    svg = cli(["-a", "gfx1250", "-i", inst, "-R", "-A", "--matrix-a-fmt", "fp4",
               "--format", "svg"])
    assert tab.locator("#picture svg > title").text_content() == svg_title(svg)
    assert tab.locator("#picture rect.cell").count() == svg.count('<rect class="cell"')
    clean(page)


def test_the_url_round_trips(page, browser, server):
    tab = page.open()
    tab.locator("#arch").select_option("rdna4")
    page.settle()
    tab.locator("#inst").select_option(WMMA)
    page.settle()
    tab.locator("#matrix").select_option("B")
    page.settle()
    tab.locator("#view").select_option("M")
    page.settle()
    tab.locator("#wave").select_option("64")
    page.settle()
    tab.locator("#neg-hi").fill("1")
    tab.locator("#neg-hi").dispatch_event("change")
    page.settle()
    state = page.state()
    assert state == {"arch": "rdna4", "inst": WMMA, "matrix": "B", "view": "M", "wave": "64",
                     "neg-hi": "1"}
    title = tab.locator("#picture svg > title").text_content()
    again = Page(browser, server)
    try:
        other = again.open(urlsplit(tab.url).query)
        assert again.state() == state
        assert other.locator("#picture svg > title").text_content() == title
        assert [other.locator(f"#{n}").input_value() for n in
                ("arch", "inst", "matrix", "view", "wave", "neg-hi")] == \
            ["rdna4", WMMA, "B", "M", "64", "1"]
        clean(again)
    finally:
        again.context.close()
    clean(page)


def test_filters_narrow_the_instructions_as_the_catalog_does(page):
    tab = page.open("arch=cdna3&type=fp8&shape=16x16x*")
    shown = tab.locator("#inst option").evaluate_all("options => options.map(o => o.value)")
    rows = json.loads(cli(["-a", "cdna3", "--catalog", "--filter", "type=fp8", "--filter",
                           "shape=16x16x*", "--json"]))["instructions"]
    assert shown == [row["mnemonic"].lower() for row in rows] and len(shown) >= 2
    assert page.state()["inst"] == shown[0]
    clean(page)


def test_two_panes_side_by_side(page):
    tab = page.open(f"arch=cdna3&inst={M4}&matrix=A&view=R&cbsz=2&abid=1&compare=cbsz%3D%26abid%3D")
    left = tab.locator("#picture svg > title").text_content()
    right = tab.locator("#picture-2 svg > title").text_content()
    assert "CBSZ=2, ABID=1" in left and "modifiers: none" in right
    box1, box2 = tab.locator("#pane").bounding_box(), tab.locator("#pane-2").bounding_box()
    assert box2["x"] >= box1["x"] + box1["width"] - 1 and abs(box1["y"] - box2["y"]) < 2
    tab.locator("#cbsz-2").fill("1")
    tab.locator("#cbsz-2").dispatch_event("change")
    page.settle()
    assert parse_qs(page.state()["compare"], keep_blank_values=True) == \
        {"cbsz": ["1"], "abid": [""]}
    assert "CBSZ=1" in tab.locator("#picture-2 svg > title").text_content()
    tab.locator("#compare-toggle").click()
    assert tab.locator("#pane-2").count() == 0 and "compare" not in page.state()
    tab.locator("#compare-toggle").click()
    page.settle()
    assert tab.locator("#picture-2 svg > title").text_content() == left
    clean(page)




@pytest.mark.parametrize("query, argv", [
    (f"arch=rdna3&inst={WMMA}&matrix=A&view=M&wave=64&neg-hi=1",
     ["-a", "rdna3", "-i", WMMA, "-M", "-A", "-w", "64", "--neg-hi", "1"]),
    (f"arch=rdna4&inst={WMMA}&matrix=A&view=R&neg=1&compare=neg%3D2",
     ["-a", "rdna4", "-i", WMMA, "-R", "-A", "--neg", "1"]),
    ("arch=cdna3&inst=v_mfma_f64_16x16x4_f64&matrix=C&view=M&blgp=4",
     ["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-M", "-C", "--blgp", "4"]),
], ids=["rdna3-neg-hi", "rdna4-two-panes", "cdna3-blgp"])
def test_negation_is_hatched_on_every_family_and_every_id_is_once(page, query, argv):
    """The negated cells' hatching resolves to the pattern of their own picture (not to
    the page's --neg field, nor to another pane's picture), as the command line's SVG
    draws them; -M labels start with -."""
    tab = page.open(query)
    found = tab.evaluate(OWN_REFERENCES)
    svg = cli([*argv, "--format", "svg"])
    assert found["twice"] == [] and found["wrong"] == []
    assert tab.locator("#picture [fill^='url(#']").count() == svg.count('fill="url(#neg)"') > 1
    if "-M" in argv:
        negated = cli(argv).count(" -" + argv[argv.index("-M") + 1][1])
        assert tab.locator("#picture text.l").filter(has_text=re.compile(r"^-")).count() \
            == negated > 0
    clean(page)


def test_compare_mode_keeps_pictures_and_command_lines_readable(page):
    """Two panes: a 16-block picture keeps its own size (it scrolls in its pane), and a
    command line wraps between its words, never inside an option."""
    tab = page.open(f"arch=cdna3&inst={M4}&matrix=A&view=M&cbsz=2&abid=1"
                    "&compare=cbsz%3D4%26abid%3D3%26matrix-a-fmt%3D")
    for picture in ("#picture", "#picture-2"):
        svg = tab.locator(f"{picture} svg")
        width = float(svg.get_attribute("width"))
        assert abs(svg.bounding_box()["width"] - width) < 1 and width > 600
    broken = tab.evaluate("""[...document.querySelectorAll(".command code .word")]
        .filter((word) => word.getClientRects().length > 1).map((word) => word.textContent)""")
    words = tab.locator("#command .word").all_text_contents()
    assert broken == [] and words == tab.locator("#command").text_content().split()
    assert "--cbsz" in words and words[words.index("--cbsz") + 1] == "2"
    clean(page)


@pytest.mark.parametrize("query, argv", [
    ("arch=cdna3&inst=v_mfma_nope&matrix=A", ["-a", "cdna3", "-i", "v_mfma_nope", "-d"]),
    (f"arch=cdna3&inst={M4}&matrix=A&cbsz=9",
     ["-a", "cdna3", "-i", M4, "-R", "-A", "--cbsz", "9", "--format", "svg"]),
    ("arch=cdna3&type=fp8&shape=16x", ["-a", "cdna3", "--catalog", "--filter", "type=fp8",
                                       "--filter", "shape=16x"]),
])
def test_bad_input_shows_the_command_lines_message(page, query, argv):
    tab = page.open(query)
    status, out, err = call(argv)
    assert status == 2 and out == ""
    assert tab.locator("#error").is_visible()
    assert tab.locator("#error").text_content() == err.rstrip("\n")
    # the only console lines are the browser's notes of the 400 answers
    assert page.errors and all("status of 400" in e for e in page.errors), page.errors


def test_the_keyboard_reaches_everything(page):
    tab = page.open(f"arch=cdna3&inst={M32}&matrix=A&view=R")
    reached = []
    for _ in range(40):
        tab.keyboard.press("Tab")
        reached.append(tab.evaluate("document.activeElement.id"))
        if reached[-1] == "picture":
            break
    assert {"arch", "inst", "matrix", "view", "wave", "picture"} <= set(reached)
    assert page.readout()["element"] == "A[0][0]"
    tab.keyboard.press("ArrowRight")
    tab.keyboard.press("ArrowDown")
    assert page.readout()["element"] == "A[1][1]"
    found = json.loads(cli(["-a", "cdna3", "-i", M32, "-g", "-A", "-I", "1", "-K", "1",
                            "--json"]))
    assert page.readout()["location"] == found["locations"][0]["text"]
    tab.locator("#view").focus()
    tab.keyboard.press("ArrowDown")
    page.settle()
    assert page.state()["view"] == "M"
    assert "matrix layout" in tab.locator("#picture svg > title").text_content()
    clean(page)


def test_the_facts_follow_the_modifiers_that_pick_formats(page):
    inst = "v_mfma_f32_16x16x128_f8f6f4"
    tab = page.open(f"arch=cdna4&inst={inst}&matrix=A&cbsz=4&blgp=2")
    detail = cli(["-a", "cdna4", "-i", inst, "-d", "--cbsz", "4", "--blgp", "2"])
    assert "Src0: FP4" in detail and tab.locator("#detail").text_content() == detail
    clean(page)


def test_a_new_instruction_without_the_matrix_falls_back_to_its_first(page):
    tab = page.open("arch=cdna3&inst=v_smfmac_f32_16x16x32_f16&matrix=K&view=R")
    assert "K matrix" in tab.locator("#picture svg > title").text_content()
    tab.locator("#inst").select_option(M32)
    page.settle()
    assert page.state()["matrix"] == "A" and tab.locator("#error").is_hidden()
    clean(page)


M16 = "v_mfma_f32_16x16x16_f16"


@pytest.mark.parametrize("into, kind", [("B", "in-lane"), ("A", "cross-lane")])
def test_a_state_url_with_a_conversion_shows_its_plan(page, into, kind):
    tab = page.open(f"arch=cdna3&inst={M16}&matrix=D&convert={M16}:{into}")
    argv = ["-a", "cdna3", "--convert", f"{M16}:D", f"{M16}:{into}"]
    plan = json.loads(cli(argv + ["--json"]))
    assert plan["class"] == kind
    assert tab.locator("#convert-class").text_content() == kind
    assert tab.locator("#convert-plan").text_content() == cli(argv)
    assert tab.locator("#convert-command").text_content().split()[1:] == argv
    assert tab.locator("#convert-hip").text_content() == cli(argv + ["--emit", "hip"])
    steps = tab.locator("#convert-steps tr").evaluate_all(
        "rows => rows.slice(1).map(r => [...r.cells].map(c => c.textContent))")
    assert steps == [[s["instruction"], str(s["count"]), s["purpose"]] for s in plan["steps"]]
    assert [tab.locator(f"#{n}").input_value() for n in ("convert-inst", "convert-matrix")] \
        == [M16, into]
    tab.locator("#convert-moves-box > summary").click()
    # (the table is built by the details' toggle event, which fires after the click
    # returns: wait for its last row, header included)
    tab.locator("#convert-moves tr").nth(len(plan["moves"])).wait_for(state="attached")
    rows = tab.locator("#convert-moves tr").evaluate_all(
        "rows => rows.slice(1).map(r => [...r.cells].map(c => c.textContent))")
    assert len(rows) == len(plan["moves"])
    first = plan["moves"][0]
    assert rows[0] == [first["element"], f"#{first['fragment']}", str(first["lane"]),
                       f"v{first['register']}", f"{first['bits'][1]}:{first['bits'][0]}",
                       f"#{first['from']['fragment']}", str(first["from"]["lane"]),
                       f"v{first['from']['register']}",
                       f"{first['from']['bits'][1]}:{first['from']['bits'][0]}"]
    clean(page)


def test_choosing_a_conversion_writes_it_in_the_address(page):
    tab = page.open(f"arch=cdna3&inst={M16}&matrix=D")
    assert tab.locator("#convert-result").is_hidden()
    tab.locator("#convert-inst").select_option(M16)
    page.settle()
    assert page.state()["convert"] == f"{M16}:A"
    assert tab.locator("#convert-class").text_content() == "cross-lane"
    tab.locator("#transpose").check()
    page.settle()
    assert page.state()["transpose"] == "1"
    argv = ["-a", "cdna3", "--convert", f"{M16}:D", f"{M16}:A", "--transpose"]
    assert tab.locator("#convert-class").text_content() == \
        json.loads(cli(argv + ["--json"]))["class"] == "in-lane"
    tab.locator("#convert-matrix").select_option("B")
    page.settle()
    assert page.state()["convert"] == f"{M16}:B"
    tab.locator("#matrix").select_option("A")
    page.settle()
    assert tab.locator("#convert-result").is_hidden()
    assert "C or D" in tab.locator("#convert-note").text_content()
    clean(page)


def test_a_bad_conversion_shows_the_command_lines_message(page):
    tab = page.open(f"arch=cdna3&inst={M16}&matrix=D&convert={M32}:A")
    status, out, err = call(["-a", "cdna3", "--convert", f"{M16}:D", f"{M32}:A", "--json"])
    assert status == 2 and out == ""
    assert tab.locator("#convert-error").text_content() == err.rstrip("\n")
    assert tab.locator("#convert-error").is_visible() and tab.locator("#error").is_hidden()
    assert page.errors and all("status of 400" in e for e in page.errors), page.errors


def test_the_explorer_opens_on_a_plain_f16_instruction(page):
    """Opened without an instruction, the explorer shows a one-block dense f16 MFMA (the
    kind most kernels start from), not the table's first line (an xf32 MFMA)."""
    tab = page.open("")
    assert tab.locator("#inst").input_value() == "v_mfma_f32_32x32x8_f16"
    assert "V_MFMA_F32_32X32X8_F16" in tab.locator("#picture svg > title").text_content()
    clean(page)


def test_wide_pictures_scroll_within_their_pane_side_by_side(page):
    """In compare mode a wide picture (gfx1250's 32x16x128 f4 A) keeps its size, so its
    labels stay readable, and scrolls within its pane instead of running under the other
    pane."""
    tab = page.open("arch=gfx1250&inst=v_wmma_f32_32x16x128_f4&matrix=A&view=M"
                    "&compare=matrix%3DB")
    for pane, picture in (("#pane", "#picture"), ("#pane-2", "#picture-2")):
        frame = tab.locator(pane).bounding_box()
        box = tab.locator(picture)
        holder = box.bounding_box()
        assert holder["x"] + holder["width"] <= frame["x"] + frame["width"] + 1, pane
        svg = box.locator("svg")
        assert abs(svg.bounding_box()["width"] - float(svg.get_attribute("width"))) < 1
        assert box.evaluate("node => node.scrollWidth > node.clientWidth")
    clean(page)


# ---- the plan panels: every field, answer, picture and
# command line shown is checked against the command line's own output for the same words
SCALE = "v_mfma_scale_f32_16x16x128_f8f6f4"


def enter(page, selector, value):
    page.tab.locator(selector).fill(value)
    page.tab.locator(selector).dispatch_event("change")
    page.settle()


def shown_command(tab, selector):
    return tab.locator(selector).text_content().split()[1:]


def test_the_lds_panel_plans_the_loads_the_copy_and_the_search(page):
    tab = page.open(f"arch=cdna3&inst={M16}&matrix=A")
    assert tab.locator("#lds-panel").get_attribute("open") is None
    tab.locator("#lds-panel > summary").click()
    # (the note is written by the panel's toggle event, after the click returns)
    wait_until(tab, "document.querySelector('#lds-note').textContent !== ''")
    page.settle()
    assert "--lds-tile ROWSxCOLS" in tab.locator("#lds-note").text_content()
    assert tab.locator("#lds-result").is_hidden()
    enter(page, "#lds-lds-tile", "16x64")
    offered = tab.locator("#lds-load").get_attribute("list")
    assert "ds_read_b64" in tab.locator(f"#{offered} option").evaluate_all(
        "options => options.map(o => o.value)")
    enter(page, "#lds-load", "ds_read_b64")
    enter(page, "#lds-copy", "global_load_dwordx4+ds_write_b64")
    argv = ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--load", "ds_read_b64",
            "--copy", "global_load_dwordx4+ds_write_b64"]
    assert page.state() == {"arch": "cdna3", "inst": M16, "matrix": "A", "view": "R",
                            "lds-tile": "16x64", "load": "ds_read_b64",
                            "copy": "global_load_dwordx4+ds_write_b64"}
    assert shown_command(tab, "#lds-command") == argv
    text = cli(argv)
    assert tab.locator("#lds-plan").text_content() == text
    assert "Route: register: global_load_dwordx4" in text
    svg = cli(argv + ["--format", "svg"])
    assert shown_command(tab, "#lds-picture-command") == argv + ["--format", "svg"]
    assert tab.locator("#lds-picture svg > title").text_content() == svg_title(svg)
    assert tab.locator("#lds-picture svg rect").count() == svg.count("<rect") > 64
    # the tile's trip: copied into LDS (above), then read from it (the plan without --copy)
    read = argv[:-2] + ["--format", "svg"]
    assert shown_command(tab, "#lds-picture-without-copy-command") == read
    assert tab.locator("#lds-picture-without-copy svg > title").text_content() == \
        svg_title(cli(read)) != svg_title(svg)
    tab.locator("#lds-json-box > summary").click()
    wait_until(tab, "document.querySelector('#lds-json').textContent !== ''")
    assert tab.locator("#lds-json").text_content() == cli(argv + ["--json"])
    # the copy's own options sit with --copy; a swizzle, then the search
    assert tab.locator("#lds-copy-options #lds-waves").count() == 1
    enter(page, "#lds-lds-swizzle", "4,1,16")
    swizzled = argv[:7] + ["--lds-swizzle", "4,1,16"] + argv[7:]
    assert shown_command(tab, "#lds-command") == swizzled
    assert tab.locator("#lds-plan").text_content() == cli(swizzled)
    wait_until(tab, "document.querySelector('#lds-json').textContent !== ''")
    assert tab.locator("#lds-json").text_content() == cli(swizzled + ["--json"])  # (open: anew)
    tab.locator("#lds-lds-search").check()
    page.settle()
    search = swizzled + ["--lds-search"]
    assert page.state()["lds-search"] == "1"
    assert tab.locator("#lds-plan").text_content() == cli(search)
    status, out, err = call(search + ["--format", "svg"])  # (no picture: the CLI says why)
    assert status == 2 and out == ""
    assert tab.locator("#lds-picture-note").text_content() == err.rstrip("\n")
    assert tab.locator("#lds-picture svg").count() == 0
    # the only console lines are the browser's notes of those 400 answers (both pictures)
    assert len(page.errors) == 2 and all("status of 400" in e for e in page.errors), \
        page.errors


def test_the_lds_panel_shows_the_command_lines_message_for_a_bad_value(page):
    tab = page.open(f"arch=cdna3&inst={M16}&matrix=A&lds-tile=16x64&lds-swizzle=4,1")
    assert tab.locator("#lds-panel").get_attribute("open") is not None
    argv = ["-a", "cdna3", "-i", M16, "-A", "--lds-tile", "16x64", "--lds-swizzle", "4,1"]
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert tab.locator("#lds-error").text_content() == err.rstrip("\n")
    assert tab.locator("#lds-error").is_visible() and tab.locator("#lds-result").is_hidden()
    assert shown_command(tab, "#lds-command") == argv
    assert page.errors and all("status of 400" in e for e in page.errors), page.errors


def test_the_preshuffle_panel_follows_the_pane_and_its_fields(page):
    tab = page.open(f"arch=cdna4&inst={SCALE}&matrix=B&blgp=4")
    tab.locator("#preshuffle-panel > summary").click()
    # (the panel's toggle event, which sets preshuffle=1, fires after the click returns)
    wait_until(tab, "new URLSearchParams(location.search).get('preshuffle') === '1'")
    page.settle()
    assert page.state()["preshuffle"] == "1"
    argv = ["-a", "cdna4", "-i", SCALE, "-B", "--preshuffle", "--blgp", "4"]
    assert shown_command(tab, "#preshuffle-command") == argv
    assert tab.locator("#preshuffle-plan").text_content() == cli(argv)
    svg = cli(argv + ["--format", "svg"])
    assert tab.locator("#preshuffle-picture svg > title").text_content() == svg_title(svg)
    enter(page, "#preshuffle-preset", "seed-b")
    argv = argv[:6] + ["--preset", "seed-b"] + argv[6:]
    assert shown_command(tab, "#preshuffle-command") == argv
    assert tab.locator("#preshuffle-plan").text_content() == cli(argv)
    tab.locator("#preshuffle-hip-box > summary").click()
    wait_until(tab, "document.querySelector('#preshuffle-hip').textContent !== ''")
    assert tab.locator("#preshuffle-hip").text_content() == cli(argv + ["--emit", "hip"])
    tab.locator("#preshuffle-panel > summary").click()  # closed: the address forgets it
    wait_until(tab, "!new URLSearchParams(location.search).has('preshuffle')")
    page.settle()
    assert "preshuffle" not in page.state()
    clean(page)


def test_the_store_panel_from_its_address(page):
    inst = "v_mfma_f32_16x16x32_bf16"
    tab = page.open(f"arch=cdna4&inst={inst}&matrix=A&store-d=1&store-type=bf16")
    assert tab.locator("#store-panel").get_attribute("open") is not None
    argv = ["-a", "cdna4", "-i", inst, "--store-d", "--store-type", "bf16"]
    assert shown_command(tab, "#store-command") == argv  # (no -A: a store plan is D's)
    assert tab.locator("#store-plan").text_content() == cli(argv)
    assert tab.locator("#store-picture").count() == 0  # (the command line draws none)
    assert tab.locator("#store-store-type").input_value() == "bf16"
    tab.locator("#store-order").select_option("col")
    page.settle()
    argv = argv[:5] + ["--order", "col"] + argv[5:]
    assert shown_command(tab, "#store-command") == argv
    assert tab.locator("#store-plan").text_content() == cli(argv)
    assert "lds-transpose" in cli(argv)
    enter(page, "#store-route", "direct")  # (--route: that route instead of the cheapest)
    argv += ["--route", "direct"]
    assert shown_command(tab, "#store-command") == argv
    assert tab.locator("#store-plan").text_content() == cli(argv)
    assert "  direct (chosen): " in cli(argv)
    clean(page)
