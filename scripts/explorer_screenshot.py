#!/usr/bin/env python3
"""Take the explorer's screenshots for the documentation (docs/images/explorer.png and
docs/images/explorer_lds.png).

    python3 scripts/explorer_screenshot.py              # rewrite docs/images/explorer.png
    python3 scripts/explorer_screenshot.py --lds        # rewrite docs/images/explorer_lds.png
    python3 scripts/explorer_screenshot.py --out x.png  # somewhere else

It serves the explorer on a free loopback port, opens two panes side by side (CDNA3's
v_mfma_f32_4x4x4_16b_f16, A, with CBSZ=2 ABID=1 against no modifiers), hovers one cell
and photographs the window with Playwright driving the system's Chromium
(tests/install_browser.sh installs both). With --lds it photographs the LDS panel of
CDNA3's v_mfma_f32_16x16x16_f16 A: a 16x64 tile copied by global_load_dwordx4 +
ds_write_b64 and read by ds_read_b64 (the tile's trip).
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from matrix_frontends.explorer import app as matrix_explorer  # noqa: E402  (after the path line above)

STATE = ("arch=cdna3&inst=v_mfma_f32_4x4x4_16b_f16&matrix=A&view=R&cbsz=2&abid=1"
         "&compare=cbsz%3D%26abid%3D")
LDS_STATE = ("arch=cdna3&inst=v_mfma_f32_16x16x16_f16&matrix=A&lds-tile=16x64"
             "&load=ds_read_b64&copy=global_load_dwordx4%2Bds_write_b64")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lds", action="store_true", help="photograph the LDS panel")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    options = parser.parse_args()
    if options.out is None:
        name = "explorer_lds.png" if options.lds else "explorer.png"
        options.out = ROOT / "docs" / "images" / name
    from playwright.sync_api import sync_playwright

    server = matrix_explorer.make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=ARGS)
            # (bypass_csp: the page's Content-Security-Policy forbids eval, which Playwright's
            # wait_for_function polls with; the page itself never evaluates strings)
            page = browser.new_page(viewport={"width": 1600, "height": 900}, bypass_csp=True)
            page.goto(matrix_explorer.url_of(server) + "?" + (LDS_STATE if options.lds
                                                              else STATE))
            page.wait_for_function(
                "document.body.dataset.ready === 'yes' && [...document.querySelectorAll("
                "'.pane')].every(p => p.dataset.busy === 'no')")
            if options.lds:
                page.locator("#lds-panel").screenshot(path=str(options.out))
            else:
                page.locator('#picture rect.cell[data-e~="A[2][1].B4"]').first.hover()
                page.screenshot(path=str(options.out))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(options.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
