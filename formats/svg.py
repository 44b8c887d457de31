"""Drawing primitives of the layout pictures: an SVG document built as text.

Text is drawn in a monospace font, so its width is known in advance (CHAR_WIDTH em per
character): the pictures size their labels with `fit_font` and never let one spill out
of its cell. Nothing here knows about matrices.
"""
from __future__ import annotations

from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
CHAR_WIDTH = 0.6  # advance of one monospace character, in em
LINE_HEIGHT = 1.2  # distance of two label lines, in em
MIN_FONT = 5.5  # smaller labels are dropped: the cell shows its colour only


def escape(text: str) -> str:
    if "&" not in text and "<" not in text and ">" not in text and '"' not in text:
        return text
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def number(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    shown = NUMBERS.get(value)
    if shown is None:
        rounded = round(value, 2)
        shown = str(int(rounded)) if rounded == int(rounded) else repr(rounded)
        if len(NUMBERS) < 65536:  # (a picture's coordinates repeat: its grid's lines)
            NUMBERS[value] = shown
    return shown


NUMBERS: dict[float, str] = {}  # number()'s texts so far


def text_width(text: str, size: float) -> float:
    return len(text) * CHAR_WIDTH * size


def fit_font(lines: Sequence[str], width: float, height: float, largest: float,
             side: float = 0.0, pad: float = 2.0) -> float:
    """The largest font size (at most `largest`) at which `lines` fit a width x height
    box with `pad` to spare on every side and `side` more on the left and right; 0
    when it is below MIN_FONT."""
    if not lines:
        return 0.0
    return fit_size(max(map(len, lines)), len(lines), width, height, largest, side, pad)


@lru_cache(maxsize=4096)
def fit_size(longest: int, count: int, width: float, height: float, largest: float,
             side: float = 0.0, pad: float = 2.0) -> float:
    """fit_font of `count` lines whose longest has `longest` characters."""
    by_width = (width - 2 * (pad + side)) / (longest * CHAR_WIDTH) if longest else largest
    by_height = (height - 2 * pad) / (count * LINE_HEIGHT)
    size = min(largest, by_width, by_height)
    return size if size >= MIN_FONT else 0.0


def attributes(values: Mapping[str, str | float]) -> str:
    out = []
    for key, value in values.items():
        shown = number(value) if isinstance(value, (int, float)) else escape(value)
        out.append(f' {key}="{shown}"')
    return "".join(out)


class Canvas:
    """An SVG document under construction: shapes are appended in drawing order."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, markup: str) -> None:
        self.parts.append(markup)

    def rect(self, x: float, y: float, w: float, h: float, fill: str,
             extra: Mapping[str, str | float] | None = None, title: str = "") -> None:
        attrs = attributes({"x": x, "y": y, "width": w, "height": h, "fill": fill,
                            **(extra or {})})
        if title:
            self.add(f"<rect{attrs}><title>{escape(title)}</title></rect>")
        else:
            self.add(f"<rect{attrs}/>")

    def text(self, x: float, y: float, content: str, size: float, fill: str = "#000000",
             anchor: str = "middle", extra: Mapping[str, str | float] | None = None) -> None:
        """Text whose box is centred vertically on y (middle) or starts at x."""
        attrs = attributes({"x": x, "y": y + 0.35 * size, "font-size": size, "fill": fill,
                            "text-anchor": anchor, **(extra or {})})
        self.add(f"<text{attrs}>{escape(content)}</text>")

    def lines(self, x: float, y: float, lines: Sequence[str], size: float,
              fill: str) -> None:
        """Several lines of class "l" centred on (x, y) (written directly: pictures have
        thousands of labels)."""
        top = y - (len(lines) - 1) * LINE_HEIGHT * size / 2 + 0.35 * size
        shown = number(size)
        for at, line in enumerate(lines):
            self.parts.append(
                f'<text class="l" x="{number(x)}" y="{number(top + at * LINE_HEIGHT * size)}" '
                f'font-size="{shown}" fill="{fill}" text-anchor="middle">{escape(line)}</text>')

    def cell(self, x: float, y: float, w: float, h: float, fill: str,
             data: Mapping[str, str | int], title: str) -> None:
        """A rectangle of class "cell" with data-* attributes and a tooltip."""
        shown = "".join(f' data-{key}="{escape(str(value))}"' for key, value in data.items())
        self.parts.append(
            f'<rect class="cell" x="{number(x)}" y="{number(y)}" width="{number(w)}" '
            f'height="{number(h)}" fill="{fill}"{shown}><title>{escape(title)}</title></rect>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str,
             width: float = 1.0, extra: Mapping[str, str | float] | None = None) -> None:
        shape: dict[str, str | float] = {'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2,
                                         'stroke': stroke, 'stroke-width': width}
        self.add(f"<line{attributes({**shape, **(extra or {})})}/>")

    def polygon(self, points: Sequence[tuple[float, float]], fill: str,
                extra: Mapping[str, str | float] | None = None) -> None:
        shown = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self.add(f"<polygon{attributes({'points': shown, 'fill': fill, **(extra or {})})}/>")

    def circle(self, x: float, y: float, r: float, fill: str,
               extra: Mapping[str, str | float] | None = None) -> None:
        shape: dict[str, str | float] = {'cx': x, 'cy': y, 'r': r, 'fill': fill}
        self.add(f"<circle{attributes({**shape, **(extra or {})})}/>")

    def document(self, width: float, height: float, title: str, style: str,
                 defs: str = "", standalone: bool = True) -> str:
        """The SVG element; `standalone` adds the XML namespace a separate file needs
        (an SVG inside HTML does without it)."""
        space = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
        head = (f'<svg{space} width="{number(width)}" height="{number(height)}" '
                f'viewBox="0 0 {number(width)} {number(height)}" font-family="{FONT}" '
                f'role="img">\n<title>{escape(title)}</title>\n<style>{style}</style>\n')
        body = "\n".join(self.parts)
        return head + (f"<defs>{defs}</defs>\n" if defs else "") + body + "\n</svg>\n"
