"""Layout pictures (--format svg|html): every drawn cell agrees with the library's answers.

The pictures are checked against matrix_api.layout (-R) and matrix_api.slots (-M): one
cell shape per entry or slot, carrying the element and location it draws, a label that
spells that location or element, one colour per lane, and a mark on every negated value
and every value spanning two VGPRs. The HTML page must be self-contained, the CLI must
route --format to the renderer and reject it elsewhere, and every -R/-M query must draw.
"""
from __future__ import annotations

import importlib
import os
import random
import re
import shutil
import struct
import sys
import time
import xml.etree.ElementTree as ET
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from formats import palette, pictures
from matrix_library import api as mc
from tests.helpers import REPO, swept
from tests.helpers import call as _untyped_call

SVG = "{http://www.w3.org/2000/svg}"

# (arch, instruction, matrix, modifiers, wave): a sample of every architecture and of
# every feature the pictures draw.
SAMPLES = [
    ("cdna1", "v_mfma_f32_32x32x1f32", "D", {}, None),  # 2 blocks
    ("cdna1", "v_mfma_f32_32x32x1f32", "B", {"blgp": 3}, None),  # BLGP lane source
    ("cdna1", "v_mfma_f32_4x4x1f32", "A", {"cbsz": 3, "abid": 5}, None),  # 16 blocks
    ("cdna2", "v_mfma_f64_16x16x4f64", "A", {}, None),  # 64-bit pairs
    ("cdna2", "v_mfma_f64_16x16x4f64", "D", {}, None),
    ("cdna3", "v_mfma_f64_16x16x4_f64", "C", {"blgp": 4}, None),  # BLGP negates f64 C
    ("cdna3", "v_mfma_f32_32x32x8_f16", "A", {}, None),
    ("cdna3", "v_mfma_f32_4x4x4_16b_f16", "A", {"cbsz": 2, "abid": 1}, None),
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "K", {}, None),  # sparse index
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "A", {}, None),
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", {"cbsz": 2}, None),  # fp6
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", {"cbsz": 4}, None),  # fp4
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "SA", {"opsel_a": 1}, None),
    ("cdna4", "v_mfma_scale_f32_32x32x64_f8f6f4", "SB", {}, None),
    ("cdna4", "v_mfma_f32_32x32x16_f16", "C", {}, None),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "A", {"neg": 1}, 32),  # copies, negation
    ("rdna3", "v_wmma_f32_16x16x16_f16", "B", {}, 64),  # four copies per element
    ("rdna3", "v_wmma_f16_16x16x16_f16", "D", {"opsel": 4}, 32),
    ("rdna4", "v_wmma_f32_16x16x16_f16", "D", {}, 64),
    ("rdna4", "v_wmma_f32_16x16x16_f16", "C", {"neg": 4, "neg_hi": 4}, 32),  # NEG marks
    ("rdna4", "v_swmmac_f32_16x16x32_f16", "K", {}, 32),
]


def test_every_sample_is_legal() -> None:
    """Each sample draws something (a sample the engine rejected would test nothing)."""
    for arch, name, matrix, mods, wave in SAMPLES:
        inst = mc.find_instruction(arch, name)
        assert mc.register_count(inst, matrix, mods=mods, wave=wave) > 0
    assert {c[0] for c in SAMPLES} == {"cdna1", "cdna2", "cdna3", "cdna4", "rdna3", "rdna4"}


CASES = SAMPLES
Case = tuple[str, str, str, dict[str, int], int | None]


def _cells(svg: str) -> tuple[ET.Element, list[ET.Element]]:
    root = ET.fromstring(svg)
    return root, [el for el in root.iter(f"{SVG}rect") if el.get("class", "") == "cell"]


def _labels(root: ET.Element) -> list[list[str]]:
    """The label lines drawn after each cell (up to the next cell), by cell order."""
    out: list[list[str]] = []
    current: list[str] = []
    for el in root.iter():
        if el.tag == f"{SVG}rect" and el.get("class", "") == "cell":
            current = []
            out.append(current)
        elif el.tag == f"{SVG}text" and el.get("class", "") == "l":
            current.append(el.text or "")
    return out


def _marked(text: str, loc: mc.Location) -> str:
    text = f"|{text}|" if loc.absolute else text
    return "-" + text if loc.negated else text


def _register_label_forms(loc: mc.Location) -> set[str]:
    """Every way the register view may label a location (as the joined lines)."""
    first, last = loc.registers[0], loc.registers[-1]
    reg = f"v{first}" if first == last else f"v[{last}:{first}]"
    lane = f"{{{loc.lane}}}"
    bits = loc.text[len(reg) + len(lane):].lstrip(".")
    return {_marked(loc.text, loc), _marked(reg + lane, loc) + bits, _marked(reg + lane, loc),
            _marked(reg, loc) + lane, _marked(reg, loc)}


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c[1:3])) + str(c[3]))
def test_register_view_draws_every_entry_once(case: Case) -> None:
    arch, name, matrix, mods, wave = case
    inst = mc.find_instruction(arch, name)
    entries = list(mc.layout(inst, matrix, mods=mods, wave=wave))
    root, cells = _cells(pictures.render("svg", inst, matrix, mods, wave, "register"))
    drawn: Counter[tuple[str, str]] = Counter()
    for cell in cells:
        for element in cell.get("data-e", "").split():
            drawn[element, cell.get("data-v", "")] += 1
    resolved = mc.with_formats(inst, mods)
    wanted = Counter((mc.element_text(resolved, e.element), _marked(e.location.text, e.location))
                     for e in entries)
    assert drawn == wanted  # each (element, location) in exactly one shape
    by_location = {_marked(e.location.text, e.location): e.location for e in entries}
    labels = _labels(root)
    assert len(labels) == len(cells)
    labelled = 0
    for cell, lines in zip(cells, labels):
        if lines:
            labelled += 1
            assert "".join(lines) in _register_label_forms(by_location[cell.get("data-v", "")])
    assert labelled in (0, len(cells))  # all cells labelled alike, or colour only


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c[1:3])) + str(c[3]))
def test_matrix_view_draws_every_slot_once(case: Case) -> None:
    arch, name, matrix, mods, wave = case
    inst = mc.find_instruction(arch, name)
    resolved = mc.with_formats(inst, mods)
    slots = list(mc.slots(inst, matrix, mods=mods, wave=wave))
    root, cells = _cells(pictures.render("svg", inst, matrix, mods, wave, "matrix"))
    drawn = sorted((c.get("data-v", ""), c.get("data-e", "")) for c in cells)
    wanted = sorted((_marked(s.location.text, s.location),
                     " ".join(mc.element_text(resolved, e) for e in s.elements)) for s in slots)
    assert drawn == wanted
    by_location = {_marked(s.location.text, s.location): s.location for s in slots}
    for cell, lines in zip(cells, _labels(root)):
        if lines:
            names = cell.get("data-e", "").split()
            first, more = names[0], len(names) - 1
            short = first[len(first.split("[")[0]):]
            forms = {first, short} if not more else {
                f"{first} +{more}", f"{first}+{more}", f"{short}+{more}", f"+{more}"}
            # (a negated value's label starts with -, an absolute one's is within |...|,
            # as the -M text table spells it)
            loc = by_location[cell.get("data-v", "")]
            assert "".join(lines) in {_marked(form, loc) for form in forms}


@pytest.mark.parametrize("view", ["register", "matrix"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c[1:3])) + str(c[3]))
def test_marks_and_lane_colours(case: Case, view: str) -> None:
    """Cells of one lane share one fill and other lanes' fills differ; every negated
    value is hatched and every value in two VGPRs has its notch."""
    arch, name, matrix, mods, wave = case
    inst = mc.find_instruction(arch, name)
    root, cells = _cells(pictures.render("svg", inst, matrix, mods, wave, view, color_by="lane"))
    fills: defaultdict[str, set[str]] = defaultdict(set)
    for cell in cells:
        fills[cell.get("data-lane", "")].add(cell.get("fill", ""))
    assert all(len(f) == 1 for f in fills.values())
    assert len({next(iter(f)) for f in fills.values()}) == len(fills)
    hatched = [el for el in root.iter(f"{SVG}rect") if el.get("fill", "") == "url(#neg)"]
    negated = [c for c in cells if c.get("data-v", "").startswith("-")]
    legend = 1 if negated else 0
    assert len(hatched) == len(negated) + legend
    notches = list(root.iter(f"{SVG}polygon"))
    two = [c for c in cells if c.get("data-reg", "").startswith("v[")]
    assert len(notches) == len(two) + (1 if two else 0)


def test_palette_colours_are_distinct_and_readable() -> None:
    for count in (1, 2, 4, 8, 16, 32, 64, 128):
        fills = [palette.fill(i, count) for i in range(count)]
        assert len(set(fills)) == count
        # black or white text: WCAG AA contrast (4.5) on every fill
        assert min(palette.contrast(f, palette.text_on(f)) for f in fills) >= 4.5


def test_grouped_blocks_and_copies() -> None:
    """CBSZ=2 ABID=1 on a 16-block MFMA: four panels, each for four blocks reading the
    lanes of their ABID block; RDNA3 wave64 A: every element split into four copies."""
    inst = mc.find_instruction("cdna3", "v_mfma_f32_4x4x4_16b_f16")
    svg = pictures.render("svg", inst, "A", {"cbsz": 2, "abid": 1}, None, "register")
    titles = re.findall(r">(Blocks [\d, ]+)<", svg)
    assert titles == ["Blocks 0, 1, 2, 3", "Blocks 4, 5, 6, 7", "Blocks 8, 9, 10, 11",
                      "Blocks 12, 13, 14, 15"]
    inst = mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16")
    _, cells = _cells(pictures.render("svg", inst, "A", None, 64, "register"))
    assert len(cells) == 4 * 16 * 16
    assert Counter(c.get("data-e", "") for c in cells) == Counter(
        dict.fromkeys({c.get("data-e", "") for c in cells}, 4))


@pytest.mark.slow
def test_largest_pictures_keep_labels_apart() -> None:
    """The widest matrices still label every cell at 9 px or more, and no label is
    wider than its cell (monospace: 0.6 em per character)."""
    for arch, name, matrix, mods, view in [
            ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", {"cbsz": 4}, "register"),
            ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", {"cbsz": 2}, "register"),
            ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", {}, "matrix"),
            ("gfx1250", "v_wmma_f32_16x16x128_f8f6f4", "B", {"matrix_b_fmt": 4}, "matrix"),
            ("gfx1250", "v_wmma_f32_32x16x128_f4", "A", {}, "matrix"),
            ("cdna1", "v_mfma_f32_32x32x1f32", "D", {}, "register"),
            ("cdna1", "v_mfma_f32_32x32x1f32", "D", {}, "matrix"),
            ("cdna1", "v_mfma_f32_4x4x1f32", "D", {}, "register")]:
        inst = mc.find_instruction(arch, name)
        root, cells = _cells(pictures.render("svg", inst, matrix, mods, None, view))
        texts = _labels(root)
        sizes = {float(t.get("font-size", "")) for t in root.iter(f"{SVG}text")
                 if t.get("class", "") == "l"}
        assert all(texts), (name, matrix, view)
        assert min(sizes) >= 9 and max(sizes) <= 11
        for cell, lines in zip(cells, texts):
            width = float(cell.get("width", ""))
            assert max(len(line) for line in lines) * 0.6 * min(sizes) <= width, lines


def _picture_queries(arch: str) -> Iterator[tuple[mc.Instruction, str, dict[str, int], int]]:
    """Every instruction x operand x wave size of `arch`, with the default modifiers and
    with each f8f6f4 format (A and B in the same format)."""
    for inst in swept(mc.find_architecture(arch)):
        formats: list[dict[str, int]] = [{}]
        if inst.f8f6f4:
            first, second = inst.format_fields
            formats = [{first: code, second: code} for code in range(5)]
        for wave in inst.wave_sizes:
            for mods in formats:
                for matrix in mc.matrices(inst):
                    yield inst, matrix, mods, wave


@pytest.mark.slow
@pytest.mark.parametrize("arch", [a.name for a in mc.architectures()])
def test_every_picture_labels_every_cell_at_9px(arch: str) -> None:
    """Every cell of every -R and -M picture (and transposed) has a label of at
    least 9 px that fits inside it; where a VGPR holds several values the -R label shows
    the bits."""
    from formats.svg import CHAR_WIDTH, LINE_HEIGHT
    drawn = 0
    for inst, matrix, mods, wave in _picture_queries(arch):
        for view in pictures.VIEWS:
            for transpose in (False, True) if view == "matrix" and wave == 64 else (False,):
                try:
                    pic, _ = pictures.draw(inst, matrix, mods, wave, view, transpose,
                                           measure=True)
                except mc.CalcError:
                    continue  # a format the operand does not take (checked elsewhere)
                drawn += 1
                size = pic.label_size
                assert 9 <= size <= 11, (inst.name, matrix, mods, wave, view, size)
                for shape in pic.shapes:
                    lines = shape.labels[min(pic.label_level, len(shape.labels) - 1)]
                    assert max(map(len, lines)) * CHAR_WIDTH * size <= shape.w, lines
                    assert len(lines) * LINE_HEIGHT * size <= shape.h, lines
                    loc = shape.location
                    if view == "register" and not loc.text.endswith("}"):
                        bits = loc.text[loc.text.index("}") + 2:]
                        assert bits in lines, (inst.name, matrix, lines)
    assert drawn >= 20


def test_matrix_view_draws_vgpr_borders_over_cells() -> None:
    inst = mc.find_instruction("gfx1250", "v_wmma_f32_16x16x128_f8f6f4")
    svg = pictures.render("svg", inst, "B", {"matrix_b_fmt": 4}, None, "matrix")
    last_cell = svg.rindex('class="cell"')
    borders = [m.start() for m in re.finditer('class="border"', svg)]
    registers = mc.register_count(inst, "B", mods={"matrix_b_fmt": 4})
    panels = svg.count('font-weight="bold">v') - registers  # "vA-vB" panel titles
    assert len(borders) == registers - max(panels, 1)  # between the VGPRs of each panel
    assert min(borders) > last_cell  # drawn after (over) the cells


def test_legend_explains_labels_only_where_they_abbreviate() -> None:
    inst = mc.find_instruction("cdna3", "v_mfma_f32_4x4x4_16b_f16")
    svg = pictures.render("svg", inst, "A", {"cbsz": 2, "abid": 1}, None, "register")
    assert "label " not in svg  # the labels spell the location in full
    assert "font-size=\"7\"" not in svg and min(
        float(x) for x in re.findall(r'class="l"[^>]*font-size="([\d.]+)"', svg)) >= 9


def test_html_page_zooms() -> None:
    inst = mc.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    page = pictures.render("html", inst, "A", None, None, "register")
    for needle in ('id="zin"', 'id="zout"', 'id="zfit"', "setAttribute('width'"):
        assert needle in page


def test_html_page_is_self_contained() -> None:
    inst = mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16")
    page = pictures.render("html", inst, "A", {"neg": 1}, 64, "register")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    lowered = page.lower()
    for external in ("http:", "https:", "//", "src=", "href=", "@import", "<link", "@font-face"):
        assert external not in lowered.replace("</", "<"), external
    assert re.findall(r"url\(([^)]*)\)", page) == ["#neg"] * len(re.findall(r"url\(", page))
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    root = ET.fromstring(svg)  # the embedded picture is well-formed
    assert sum(1 for el in root.iter("rect") if el.get("class", "") == "cell") == 4 * 256
    assert "<script>" in page and "mouseover" in page and 'id="readout"' in page


def call(argv: list[str]) -> tuple[int, str, str]:
    status, out, err = _untyped_call(argv)  # type: ignore[no-untyped-call]
    return int(status), str(out), str(err)


def _query(*extra: str) -> list[str]:
    return ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", *extra]


@pytest.mark.parametrize("fmt", ["svg", "html"])
@pytest.mark.parametrize("mode,view", [("-R", "register"), ("-M", "matrix")])
def test_cli_draws_pictures(fmt: str, mode: str, view: str) -> None:
    status, out, err = call(_query("-A", mode, "--format", fmt, "--color-by", "register",
                                   "--transpose"))
    inst = mc.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    assert (status, err) == (0, "")
    assert out == pictures.render(fmt, inst, "A", None, None, view, True, "register")


def test_cli_passes_modifiers_and_wave() -> None:
    status, out, err = call(["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-A",
                             "-R", "--cbsz", "4", "--format=svg"])
    inst = mc.find_instruction("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4")
    assert (status, err) == (0, "")
    assert out == pictures.render("svg", inst, "A", {"cbsz": 4}, None, "register")
    status, out, err = call(["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_f16", "-D", "-M",
                             "-w", "64", "--format", "html"])
    inst = mc.find_instruction("rdna4", "v_wmma_f32_16x16x16_f16")
    assert out == pictures.render("html", inst, "D", None, 64, "matrix")


@pytest.mark.parametrize("argv,message", [
    (_query("-A", "-g", "--format", "svg"), "use it with -R or -M, not -g"),
    (_query("-A", "-m", "--format", "html"), "use it with -R or -M, not -m"),
    (_query("-d", "--format", "svg"), "use it with -R or -M"),
    (["-a", "cdna3", "-L", "--format", "svg"], "use it with -R or -M"),
    (_query("-A", "-R", "--format", "png"), "unknown format 'png'"),
    (_query("-A", "-R", "--format"), "the --format option needs a value"),
    (_query("-A", "-R", "--format", "svg", "--color-by", "hue"),
     "--color-by takes lane, register, block, row, k, not 'hue'"),
    (_query("-A", "-R", "--color-by", "lane"), "use it with --format svg or --format html"),
    (_query("-A", "-R", "--format", "svg", "--csv"), "drop --csv"),
    (_query("-D", "-M", "--format", "svg", "--color-by", "k"), "needs a matrix indexed by k"),
])
def test_cli_picture_errors(argv: list[str], message: str) -> None:
    status, out, err = call(argv)
    assert (status, out) == (2, "")
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def _sweep(arch: str) -> Iterator[tuple[mc.Instruction, str, int]]:
    for inst in swept(mc.find_architecture(arch)):
        arch_of = mc.architecture_of(inst)
        for wave in arch_of.waves if arch_of.vendor == "amd" else inst.wave_sizes:
            for matrix in mc.matrices(inst):
                yield inst, matrix, wave


SWEEP_SECONDS = 4.0  # per architecture; PICTURES_FULL_SWEEP=1 lifts the limit


@pytest.mark.slow
@pytest.mark.parametrize("arch", [a.name for a in mc.architectures()])
def test_every_layout_query_draws(arch: str) -> None:
    """Every instruction x matrix x wave size (default modifiers) draws. To stay fast,
    the queries are taken in a fixed shuffled order for SWEEP_SECONDS, the views
    alternate, and one picture in four is parsed as XML; PICTURES_FULL_SWEEP=1 draws
    both views of every query and parses them all."""
    full = os.environ.get("PICTURES_FULL_SWEEP") == "1"
    queries = list(_sweep(arch))
    random.Random(arch).shuffle(queries)
    started, count = time.perf_counter(), 0
    for at, (inst, matrix, wave) in enumerate(queries):
        if not full and at >= 8 and time.perf_counter() - started > SWEEP_SECONDS:
            break
        for view in pictures.VIEWS if full else [pictures.VIEWS[at % 2]]:
            svg = pictures.render("svg", inst, matrix, None, wave, view)
            if full or at % 4 == 0:
                _, cells = _cells(svg)
                assert cells, (inst.name, matrix, wave, view)
            else:
                assert svg.startswith("<svg") and 'class="cell"' in svg
            count += 1
    assert count >= min(8, len(queries))
    if full:
        assert count == 2 * len(queries)


def _script() -> Any:
    """scripts/render_pictures.py as a module."""
    if str(REPO / "scripts") not in sys.path:
        sys.path.insert(0, str(REPO / "scripts"))
    return importlib.import_module("render_pictures")


def test_documentation_images_are_current() -> None:
    render_pictures = _script()
    for sample in render_pictures.DOCUMENTED:
        path = render_pictures.IMAGES / f"{sample.name}.svg"
        assert path.read_text(encoding="utf-8") == render_pictures.picture(sample, "svg"), \
            f"{path} is out of date: run scripts/render_pictures.py"
    doc = (REPO / "docs" / "pictures.md").read_text(encoding="utf-8")
    for sample in render_pictures.DOCUMENTED:
        assert f"(images/{sample.name}.svg)" in doc
    for sample in render_pictures.WORST:
        assert f"(images/worst_{sample.name}.png)" in doc
        assert (render_pictures.IMAGES / f"worst_{sample.name}.png").stat().st_size > 10_000


def _png_pixels_vary(path: Path) -> bool:
    """Whether a PNG holds more than a blank page: its decoded scanlines (filter bytes
    and all) take many different values."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            chunks.append(data[at + 8:at + 8 + length])
        at += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    return len(set(raw)) > 64


@pytest.mark.external
@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
                    reason="chromium is not installed (the PNG check is a live check)")
def test_chromium_renders_a_picture(tmp_path: Path) -> None:
    render_pictures = _script()
    sample = render_pictures.DOCUMENTED[-1]  # the multi-block CBSZ/ABID picture
    html = render_pictures.picture(sample, "html")
    png = tmp_path / "picture.png"
    render_pictures.screenshot(html, png, render_pictures.size_of(html),
                               render_pictures.chromium() or "chromium")
    assert png.stat().st_size > 10_000
    assert _png_pixels_vary(png)


@pytest.mark.external
@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
                    reason="chromium is not installed (the hover check is a live check)")
def test_hover_readout_in_chromium() -> None:
    """Pointing at a cell (a mouseover event) fills the read-out and highlights all four
    copies of an RDNA3 wave64 A element."""
    render_pictures = _script()
    inst = mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16")
    page = pictures.render("html", inst, "A", None, 64, "register")
    probe = ("<script>document.querySelectorAll('.cell')[5].dispatchEvent("
             "new MouseEvent('mouseover', {bubbles: true}));</script>")
    dom = render_pictures.dump_dom(page.replace("</body>", probe + "</body>"),
                                   render_pictures.chromium() or "chromium")
    found = re.search(r'<div id="readout">([^<]*)</div>', dom)
    assert found and found.group(1).startswith("A[0][1]  =  v0{16}.[31:16]")
    assert "lane 16, bits 31:16; 4 places highlighted" in found.group(1)
    assert dom.count('class="cell hl"') == 4
