#!/usr/bin/env python3
"""Render layout pictures: the documentation's images, and PNGs to look at.

    python3 scripts/render_pictures.py            # rewrite docs/images/*.svg
    python3 scripts/render_pictures.py --png DIR  # also screenshot a sample to DIR/*.png
    python3 scripts/render_pictures.py --screenshots  # docs/images/worst_*.png (Chromium)
    python3 scripts/render_pictures.py --check    # exit 1 if docs/images is out of date

PNGs are taken by headless Chromium (Debian's `chromium` package) from the HTML page of
each picture, at the picture's own size.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from formats import pictures  # noqa: E402
from matrix_library import api as mc  # noqa: E402  (after the path line above)

IMAGES = ROOT / "docs" / "images"


class Sample(NamedTuple):
    name: str
    arch: str
    instruction: str
    matrix: str
    mods: dict[str, int]
    wave: int | None
    view: str


# The README's pictures (docs/images/NAME.svg).
DOCUMENTED = (
    Sample("cdna3_32x32x8_f16_A", "cdna3", "v_mfma_f32_32x32x8_f16", "A", {}, None, "register"),
    Sample("rdna4_16x16x16_f16_D_w64_M", "rdna4", "v_wmma_f32_16x16x16_f16", "D", {}, 64,
           "matrix"),
    Sample("cdna3_4x4x4_16b_f16_A_cbsz2_abid1", "cdna3", "v_mfma_f32_4x4x4_16b_f16", "A",
           {"cbsz": 2, "abid": 1}, None, "register"),
)
# Looked at as PNGs: the documented ones and five more (wave64 D, sub-byte A, negated A and C).
SAMPLES = DOCUMENTED + (
    Sample("rdna4_16x16x16_f16_D_w64", "rdna4", "v_wmma_f32_16x16x16_f16", "D", {}, 64,
           "register"),
    Sample("cdna4_scale_16x16x128_fp4_A", "cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
           {"cbsz": 4}, None, "register"),
    Sample("cdna4_scale_16x16x128_fp6_A_M", "cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
           {"cbsz": 2}, None, "matrix"),
    Sample("rdna3_16x16x16_f16_A_w64_neg", "rdna3", "v_wmma_f32_16x16x16_f16", "A",
           {"neg": 1}, 64, "register"),
    Sample("rdna4_16x16x16_f16_C_neg_abs", "rdna4", "v_wmma_f32_16x16x16_f16", "C",
           {"neg": 4, "neg_hi": 4}, 32, "register"),
)


# The hardest pictures to read (sub-byte layouts, the widest matrices), screenshot for
# docs/pictures.md as PNGs of their top-left corner (docs/images/worst_NAME.png).
WORST = (
    Sample("cdna4_scale_fp6_A_cbsz2_R", "cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
           {"cbsz": 2}, None, "register"),
    Sample("gfx1250_f8f6f4_B_fp4_M", "gfx1250", "v_wmma_f32_16x16x128_f8f6f4", "B",
           {"matrix_b_fmt": 4}, None, "matrix"),
    Sample("gfx1250_32x16x128_f4_A_M", "gfx1250", "v_wmma_f32_32x16x128_f4", "A", {}, None,
           "matrix"),
)
SCREEN = (1200, 760)  # the part of a worst-case picture the PNG shows


def picture(sample: Sample, fmt: str) -> str:
    inst = mc.find_instruction(sample.arch, sample.instruction)
    return pictures.render(fmt, inst, sample.matrix, sample.mods, sample.wave, sample.view)


def size_of(svg: str) -> tuple[int, int]:
    found = re.search(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)"', svg)
    if not found:
        raise ValueError("no SVG size")
    return int(float(found.group(1))) + 1, int(float(found.group(2))) + 1


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _run_chromium(browser: str, html: str, *options: str) -> str:
    """Run headless Chromium on `html` (a private profile, no network services) with
    `options` ({work} in them names the temporary folder); its standard output."""
    with tempfile.TemporaryDirectory() as work:
        page = Path(work) / "page.html"
        page.write_text(html, encoding="utf-8")
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                   "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                   f"--user-data-dir={work}/profile",
                   *(option.format(work=work) for option in options), page.as_uri()]
        done = subprocess.run(command, check=True, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "HOME": work})
        return done.stdout


def screenshot(html: str, png: Path, size: tuple[int, int], browser: str) -> None:
    """Save a PNG of `html` (the read-out bar adds some height at the top)."""
    width, height = size
    _run_chromium(browser, html, f"--screenshot={png}", f"--window-size={width},{height + 40}")


def dump_dom(html: str, browser: str) -> str:
    """The page's DOM after its scripts ran (--dump-dom)."""
    return _run_chromium(browser, html, "--dump-dom")


def _shoot(samples: tuple[Sample, ...], folder: Path, name: str,
           size: tuple[int, int] | None) -> int:
    """PNG screenshots of `samples` (size None: each picture's own size)."""
    browser = chromium()
    if browser is None:
        print("chromium is not installed", file=sys.stderr)
        return 1
    folder.mkdir(parents=True, exist_ok=True)
    for sample in samples:
        html = picture(sample, "html")
        path = folder / name.format(sample.name)
        screenshot(html, path, size or size_of(html), browser)
        print(path)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", metavar="DIR", help="also write PNG screenshots here")
    parser.add_argument("--screenshots", action="store_true",
                        help="also write docs/images/worst_*.png with Chromium")
    parser.add_argument("--check", action="store_true",
                        help="only check that docs/images is current")
    args = parser.parse_args(argv)
    stale = []
    for sample in DOCUMENTED:
        path = IMAGES / f"{sample.name}.svg"
        text = picture(sample, "svg")
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
            continue
        IMAGES.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if stale:
        print("out of date (run scripts/render_pictures.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    status = _shoot(WORST, IMAGES, "worst_{}.png", SCREEN) if args.screenshots else 0
    if args.png and not status:
        status = _shoot(SAMPLES, Path(args.png), "{}.png", None)
    return status


if __name__ == "__main__":
    sys.exit(main())
