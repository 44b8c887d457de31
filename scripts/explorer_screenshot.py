#!/usr/bin/env python3
"""Take the explorer's screenshot for the documentation (docs/images/explorer.png).

    python3 scripts/explorer_screenshot.py              # rewrite docs/images/explorer.png
    python3 scripts/explorer_screenshot.py --out x.png  # somewhere else

It serves the explorer on a free loopback port, opens two panes side by side (CDNA3's
v_mfma_f32_4x4x4_16b_f16, A, with CBSZ=2 ABID=1 against no modifiers), hovers one cell
and photographs the window with Playwright driving the system's Chromium
(tests/install_browser.sh installs both).
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import matrix_calculator  # noqa: E402,F401  (the clone's package, without installing)
from amd_matrix_calculator.cli import matrix_explorer  # noqa: E402  (after the path line above)

STATE = ("arch=cdna3&inst=v_mfma_f32_4x4x4_16b_f16&matrix=A&view=R&cbsz=2&abid=1"
         "&compare=cbsz%3D%26abid%3D")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "explorer.png")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = matrix_explorer.make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            page.goto(matrix_explorer.url_of(server) + "?" + STATE)
            page.wait_for_function(
                "document.body.dataset.ready === 'yes' && [...document.querySelectorAll("
                "'.pane')].every(p => p.dataset.busy === 'no')")
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
