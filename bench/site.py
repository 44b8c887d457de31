"""The static site's speed (matrix-calculator --export-site, docs/explorer.md): Chromium
(Playwright) opens the exported site, with a local Pyodide, from a static server on the
loopback, and this prints

  cold       seconds from navigation to the page's first answer drawn (the engine loaded,
             the pane's picture, facts and HIP code shown), in a fresh browser context
             (no cache, no service worker), and the engine's own timings: Pyodide loaded,
             the calculator imported; goal: 10 s
  queries    for each query of QUERIES, matrixCalculator.run(argv) in the loaded page
             (wall time in the page, the median of --runs) against the command line's
             own CPU time for the same words (a fresh process's user+system time, the
             median of --runs); goal: within 200 ms of it

    python3 bench/site.py --pyodide ~/.cache/matrix-calculator/pyodide-314.0.8.tgz

The machine's load average is printed with them (the figures of docs/explorer.md were
taken on the 2-core machine the project is built on).
"""
import argparse
import functools
import http.server
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.browser import CHROMIUM_ARGS, SETTLED, chromium_path, wait_until  # noqa: E402

QUERIES = [
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "5", "-K", "6"],
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d"],
    ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A"],
    ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-M", "-A", "--neg", "1", "--format", "svg"],
    ["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-R", "-A", "--json"],
    ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-A", "--emit", "hip"],
    ["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16:D", "v_mfma_f32_16x16x16_f16:A"],
    ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x64"],
]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def cli_cpu(argv, runs):
    """The median user+system CPU seconds of the command line for `argv`."""
    found = []
    for _ in range(runs):
        before = os.times()
        subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py"), *argv],
                       capture_output=True, check=False)
        after = os.times()
        found.append(after.children_user - before.children_user
                     + after.children_system - before.children_system)
    return statistics.median(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyodide", required=True, help="a local copy of Pyodide")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py"), "--export-site",
                        folder, "--pyodide", options.pyodide], check=True,
                       capture_output=True)
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        print(f"load average {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(),
                                                 args=CHROMIUM_ARGS)
            for attempt in range(2):
                context = browser.new_context()
                tab = context.new_page()
                started = time.monotonic()
                tab.goto(url + "?arch=cdna3&inst=v_mfma_f32_32x32x8_f16&matrix=A")
                wait_until(tab, SETTLED, 300)
                cold = time.monotonic() - started
                timings = tab.evaluate("matrixCalculator.timings")
                print(f"cold load {attempt + 1}: first answer drawn after {cold:.1f} s "
                      f"(Pyodide loaded {timings['pyodide'] / 1000:.1f} s, the calculator "
                      f"imported {timings['ready'] / 1000:.1f} s; goal 10 s)")
                if attempt == 0:
                    context.close()
            for argv in QUERIES:
                tab.evaluate("(argv) => matrixCalculator.run(argv)", argv)  # (warm: loaded)
                page = []
                for _ in range(options.runs):
                    page.append(tab.evaluate("async (argv) => { const t = performance.now(); "
                                             "await matrixCalculator.run(argv); "
                                             "return performance.now() - t; }", argv) / 1000)
                cpu = cli_cpu(argv, options.runs)
                ms = statistics.median(page) * 1000
                verdict = "ok" if ms <= cpu * 1000 + 200 else "OVER"
                print(f"{ms:8.1f} ms in the page, {cpu * 1000:6.1f} ms CPU on the command line "
                      f"({verdict}): {' '.join(argv)}")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
