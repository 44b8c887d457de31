"""The static site in a real browser: `matrix-calculator --export-site DIR --pyodide COPY`
(a local copy of Pyodide: tests/install_pyodide.sh), served by a plain static server on
the loopback, opened in the system's Chromium with every other host unreachable, under
the page's own Content-Security-Policy; any console error fails.

`window.matrixCalculator.run(argv)` must answer what the installed command prints for
the same words, byte for byte (standard output, standard error, exit status), on a
sample of every architecture and mode; the page must show the command line's pictures,
facts and code, keep its state in the address, and work offline once loaded.

Skipped where Chromium, Playwright or the Pyodide copy is missing, except under CI=true
(tests.helpers.missing)."""
import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from matrix_frontends.cli.options import PYODIDE_VERSION
from matrix_library import api as mc
from tests.helpers import REPO, missing, need_module
from tests.helpers.browser import (
    CHROMIUM_ARGS,
    OWN_REFERENCES,
    SETTLED,
    Recorder,
    chromium_path,
    wait_until,
)

COMMAND = REPO / "matrix_frontends" / "matrix-calculator"  # (the installed command)
# Every host but the loopback is unreachable: the network is off for the page.
OFFLINE_ARGS = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
LOADED = 240.0  # seconds a cold load may take on a busy shared machine (bench/ says how long)
WMMA = "v_wmma_f32_16x16x16_f16"
STATE = f"arch=rdna3&inst={WMMA}&matrix=A&view=M&wave=64&neg-hi=1"


def pyodide_copy():
    """The local copy of Pyodide: $PYODIDE, or tests/install_pyodide.sh's cache."""
    cache = Path(os.environ.get("MATRIX_CALCULATOR_CACHE") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "matrix-calculator")
    for candidate in (os.environ.get("PYODIDE"), cache / f"pyodide-{PYODIDE_VERSION}.tgz"):
        if candidate and Path(candidate).exists():
            return Path(candidate)
    return missing(f"no local copy of Pyodide {PYODIDE_VERSION} (bash tests/install_pyodide.sh "
                   "fetches it)")


def command_line(argv):
    """(status, stdout, stderr) of the installed command for `argv`, as bytes."""
    done = subprocess.run([sys.executable, str(COMMAND), *argv], capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"},
                          cwd=REPO, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    status, out, err = command_line(["--export-site", str(folder), "--pyodide",
                                     str(pyodide_copy())])
    assert status == 0 and err == b"" and b"Pyodide bundled from" in out, err
    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def opened(site):
    """A tab on the site, opened at STATE and waited for (one cold load for the module),
    with its console errors and the hosts it asked."""
    sync_api = need_module("playwright.sync_api", "the site's browser tests drive Chromium "
                           "with it (pip install -r requirements-dev.txt)")
    path = chromium_path()
    if path is None:
        missing("Chromium is not installed (bash tests/install_browser.sh installs it)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=OFFLINE_ARGS)
        context = browser.new_context(viewport={"width": 1500, "height": 1000})
        tab = context.new_page()
        tab.set_default_timeout(60000)
        asked = []
        tab.on("request", lambda request: asked.append(request.url))
        recorder = Recorder(tab)
        tab.goto(site + "?" + STATE)
        wait_until(tab, SETTLED, LOADED)
        yield tab, context, recorder.errors, asked
        context.close()
        browser.close()


def sample():
    """Command lines of every architecture (its first instruction) and every mode."""
    lines = [["--catalog", "--filter", "type=fp8"], ["-v"], ["--list-architectures"],
             ["-a", "cdna9", "-L"], []]
    for arch in mc.architectures():  # (its smallest instruction: wgmma's A is 128 lanes')
        name = arch.name.lower()
        inst = min(arch.instructions, key=lambda i: (mc.register_count(i, "D"), i.mnemonic))
        inst = inst.mnemonic.lower()
        at = ["-a", name, "-i", inst]
        lines += [["-a", name, "-L"], [*at, "-d"], [*at, "-g", "-A", "-I", "1", "-K", "1"],
                  [*at, "-m", "-B", "-r", "0", "-l", "1"], [*at, "-R", "-C"], [*at, "-M", "-D"],
                  [*at, "-R", "-A", "--json"], [*at, "-M", "-B", "--format", "svg"],
                  [*at, "-R", "-A", "--format", "markdown"], [*at, "-A", "--emit", "hip"],
                  [*at, "-g", "-A", "-I", "999", "-K", "0"]]
    cdna3 = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16"]
    lines += [["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16:D",
               "v_mfma_f32_16x16x16_f16:A", "--json"],
              [*cdna3, "-A", "--lds-tile", "16x64", "--load", "ds_read_b64", "--copy",
               "global_load_dwordx4+ds_write_b64"],
              [*cdna3, "-A", "--lds-tile", "16x64", "--lds-search"],
              ["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-B", "--blgp", "4",
               "--preshuffle", "--json"],
              ["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "--store-d", "--store-type",
               "bf16"],
              [*cdna3, "--budget", "--wave-tile", "2x2"],
              ["-a", "rdna3", "-i", WMMA, "-M", "-A", "--neg", "1", "--format", "html"],
              ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-R", "-A",
               "--matrix-a-fmt", "fp4"],
              ["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "-R", "-A", "--cbsz", "9"]]
    return lines


def test_run_answers_what_the_command_line_prints(opened):
    tab, _, errors, _ = opened
    lines = sample()
    answers = [tab.evaluate("(argv) => matrixCalculator.run(argv)", argv) for argv in lines]
    with ThreadPoolExecutor(2) as pool:
        expected = list(pool.map(command_line, lines))
    wrong = [(argv, answer["status"], status) for argv, answer, (status, out, err)
             in zip(lines, answers, expected)
             if (answer["status"], answer["stdout"].encode(), answer["stderr"].encode())
             != (status, out, err)]
    assert wrong == [], wrong
    assert {answer["status"] for answer in answers} == {0, 2}  # (answers and refusals)
    refused = [answer["stderr"] for answer in answers if answer["status"] == 2]
    assert all(text.startswith("matrix-calculator: ") and text.count("\n") == 1
               for text in refused)
    archs = {argv[1] for argv in lines if argv[:1] == ["-a"]}
    assert archs >= {arch.name.lower() for arch in mc.architectures()}
    assert errors == []


def test_run_refuses_what_is_not_a_command_line(opened):
    """Not a list of words: a TypeError; what starts a server or writes files: the
    command line's refusal (status 2, one line); -h: the command's help."""
    tab, _, errors, _ = opened
    for argv in (["--export-site", "DIR"], ["--mcp"], ["--serve"]):
        answer = tab.evaluate("(argv) => matrixCalculator.run(argv)", argv)
        assert answer["status"] == 2 and answer["stdout"] == ""
        assert answer["stderr"].startswith("matrix-calculator: error: ") and \
            answer["stderr"].count("\n") == 1
    helped = tab.evaluate("matrixCalculator.run(['-h'])")
    assert helped["status"] == 0 and helped["stdout"].startswith("usage: matrix-calculator")
    message = tab.evaluate("matrixCalculator.run('-a cdna3 -L').catch((e) => e.message)")
    assert "takes an array of strings" in message
    assert tab.evaluate("matrixCalculator.engine") == "pyodide"
    assert errors == []


def test_the_page_shows_the_command_lines_answers_and_keeps_its_state(opened):
    """The address's view (negation on RDNA3 -M, wave64) is the command line's picture,
    hatched in the page; the facts and the HIP code are the command line's; a control
    changed writes the address."""
    tab, _, errors, _ = opened
    argv = ["-a", "rdna3", "-i", WMMA, "-M", "-A", "-w", "64", "--neg-hi", "1"]
    svg = command_line([*argv, "--format", "svg"])[1].decode()
    assert tab.locator("#picture svg > title").text_content() in svg
    assert tab.locator("#picture rect.cell").count() == svg.count('<rect class="cell"')
    found = tab.evaluate(OWN_REFERENCES)
    assert found["twice"] == [] and found["wrong"] == []
    assert found["hatched"] == svg.count('fill="url(#neg)"') > 1
    assert tab.locator("#command").text_content().split() == [
        "matrix-calculator", *argv, "--format", "svg"]
    assert tab.locator("#detail").text_content() == command_line(
        ["-a", "rdna3", "-i", WMMA, "-w", "64", "--neg-hi", "1", "-d"])[1].decode()
    assert tab.locator("#hip").text_content() == command_line(
        [*argv[:4], "-A", "-w", "64", "--neg-hi", "1", "--emit", "hip"])[1].decode()
    tab.locator("#matrix").select_option("B")
    wait_until(tab, SETTLED, 60)
    state = {k: v[0] for k, v in parse_qs(urlsplit(tab.url).query).items()}
    assert state == {"arch": "rdna3", "inst": WMMA, "matrix": "B", "view": "M", "wave": "64",
                     "neg-hi": "1"}
    svg_b = command_line([*argv[:5], "-B", "-w", "64", "--neg-hi", "1", "--format", "svg"])
    assert tab.locator("#picture svg > title").text_content() in svg_b[1].decode()
    assert errors == []


def test_the_plan_panels_and_compare_mode_answer_in_the_page(opened):
    """The LDS panel (opened, given a tile) and the second pane answer in the page what
    the command line prints (after the state test: the pane shows rdna3's B)."""
    tab, _, errors, _ = opened
    tab.locator("#lds-panel > summary").click()
    wait_until(tab, "document.querySelector('#lds-note').textContent !== ''", 60)
    wait_until(tab, SETTLED, 60)
    tab.locator("#lds-lds-tile").fill("16x16")
    tab.locator("#lds-lds-tile").dispatch_event("change")
    wait_until(tab, SETTLED, 60)
    argv = ["-a", "rdna3", "-i", WMMA, "-B", "-w", "64", "--neg-hi", "1", "--lds-tile", "16x16"]
    assert tab.locator("#lds-plan").text_content() == command_line(argv)[1].decode()
    assert tab.locator("#lds-picture svg").count() == 1
    tab.locator("#compare-toggle").click()
    wait_until(tab, "document.querySelector('#picture-2 svg') !== null", 60)
    wait_until(tab, SETTLED, 60)
    assert tab.locator("#picture-2 svg > title").text_content() == \
        tab.locator("#picture svg > title").text_content()
    found = tab.evaluate(OWN_REFERENCES)
    assert found["twice"] == [] and found["wrong"] == []
    assert "compare=" in tab.url and "lds-tile=16x16" in tab.url
    assert errors == []


def test_the_page_asks_no_host_but_the_loopback(opened, site):
    _, _, errors, asked = opened
    assert asked and all(url.startswith(site) or url.startswith("data:") for url in asked)
    assert {urlsplit(url).path.rsplit("/", 1)[-1] for url in asked} >= {
        "pyodide.asm.wasm", "python_stdlib.zip", "calculator.zip", "engine.js"}
    assert errors == []


def test_the_site_works_offline_once_loaded(opened, site):
    """The service worker keeps the site's files: the page reloads and answers with the
    browser offline (last: it reloads the module's tab)."""
    tab, context, errors, _ = opened
    wait_until(tab, "navigator.serviceWorker.controller !== null", 60)
    kept = wait_until(tab, "caches.open('matrix-calculator-site').then((c) => c.keys())"
                      ".then((keys) => keys.length >= 12 && keys.length)", 60)
    listed = json.loads(tab.evaluate("fetch('files.json').then((r) => r.text())"))
    assert kept >= len(listed)
    context.set_offline(True)
    try:
        tab.goto(site + "?arch=cdna3&inst=v_mfma_f32_32x32x8_f16&matrix=A")
        wait_until(tab, SETTLED, LOADED)
        argv = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "5", "-K", "6"]
        answer = tab.evaluate("(argv) => matrixCalculator.run(argv)", argv)
        assert answer["stdout"].encode() == command_line(argv)[1] and answer["status"] == 0
        assert tab.locator("#picture rect.cell").count() == 256
    finally:
        context.set_offline(False)
    assert errors == []
