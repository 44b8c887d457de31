"""Colours of the layout pictures (formats.pictures), shared by every view.

The picture colours a cell by one number: its lane, register, block, matrix row or k.
Up to 64 values must stay apart, for readers with colour-vision deficiencies too, so a
colour is two things a reader can see separately:

* a hue family, taken from Okabe and Ito's palette for colour-blind readers
  (Okabe & Ito 2008, "Color Universal Design"; also Paul Tol's recommendations): blue,
  orange, bluish green, reddish purple, yellow, grey, vermillion and sky blue, ordered so
  that families 1, 2 and 4 apart (lanes 8, 16 and 32 apart: the strides of the
  layouts) differ in hue and lightness; the look-alikes blue and sky blue, orange and
  vermillion, are far apart;
* a lightness step inside the family, from dark to light.

`count` values are cut into at most eight families of consecutive values: 64 lanes give
8 families of 8 shades (lanes 0-7 are dark to light blue, 8-15 orange, ...), 32 lanes
8 families of 4, 8 registers 8 plain family colours. Neighbouring values therefore
differ in lightness and groups of them in hue, which is how lane groups of the layouts
are read; the picture's labels give the exact number. Text on a fill is black or white,
whichever has the higher WCAG contrast with the fill.
"""
from __future__ import annotations

import colorsys
from functools import lru_cache

# (name, hex) of the families, in the order they are handed out.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("blue", "#0072B2"),
    ("orange", "#E69F00"),
    ("bluish green", "#009E73"),
    ("reddish purple", "#CC79A7"),
    ("yellow", "#F0E442"),
    ("grey", "#999999"),
    ("vermillion", "#D55E00"),
    ("sky blue", "#56B4E9"),
)
DARKEST, LIGHTEST = 0.22, 0.86  # the HLS lightness range of the shades of a family
SPREAD = 0.32  # how far the shades of a family reach from its own lightness
EMPTY = "#F2F2F2"  # slots that hold nothing (unused lanes or bits)
INK = "#1A1A1A"  # lines and text off the cells
MARK = "#000000"  # negation hatching, the corner notch of two-register values


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    value = hex_colour.lstrip("#")
    r, g, b = (int(value[at:at + 2], 16) / 255 for at in (0, 2, 4))
    return r, g, b


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02X}" for c in rgb)


def shades_per_family(count: int) -> int:
    """How many consecutive values share one hue family when `count` are coloured."""
    return max(1, -(-count // len(FAMILIES)))


@lru_cache(maxsize=1024)
def fill(index: int, count: int) -> str:
    """The fill (#RRGGBB) of value `index` of `count` (0 <= index < count)."""
    shades = shades_per_family(count)
    family, shade = divmod(index, shades)
    base = FAMILIES[family % len(FAMILIES)][1]
    if shades == 1:
        return base
    hue, light, sat = colorsys.rgb_to_hls(*_rgb(base))
    low, high = max(DARKEST, light - SPREAD), min(LIGHTEST, light + SPREAD)
    step = low + (high - low) * shade / (shades - 1)
    return _hex(colorsys.hls_to_rgb(hue, step, sat))


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of a colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    a, b = sorted((luminance(first), luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


@lru_cache(maxsize=1024)
def text_on(fill_colour: str) -> str:
    """Black or white: whichever reads better on `fill_colour`."""
    black, white = "#000000", "#FFFFFF"
    return black if contrast(fill_colour, black) >= contrast(fill_colour, white) else white
