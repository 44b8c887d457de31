"""Mapping formulas derived from an operand's layout, for every layout family (-d, --json,
matrix_api.formulas).

The layout's digits (the generator's Factors, layouts/core.py, which are the modes of the
operand's layout value, layouts/values.py) send each digit of an element's coordinates to
a lane or bit offset, so both directions are sums over them:
  element -> place: lane = sum of stride * digit over the lane digits (plus every copy
  offset c), bit offset b = sum over the bit digits, counted from bit 0 of the
  operand's first VGPR; the value is in VGPR floor(b / 32), bits [b % 32 + width - 1 :
  b % 32] (a value may continue into the next VGPR);
  place -> element: each coordinate = sum of (values below the digit) * (floor(lane or
  b / stride) % size) over its digits, with b = 32 * GPR_num + GPR_bits; a digit that
  no place keeps (the position of a stored value in a sparse group of four K) is `p`.
The digit of a coordinate x with `below` values under it and `size` values is
floor(x / below) % size (the `% size` left out for its top digit, the division for its
bottom one). The same digits give the engine's answers, so a formula cannot disagree
with the layout it describes; tests/layouts/test_formula_evaluator.py evaluates every one.
No display text beyond the formulas themselves: the reference tool's own texts, which
-d prints for the architectures it knows, are a text-only overlay (formats/quirks.py).
"""
from __future__ import annotations

from instructions.model import Instruction

from layouts import operand
from layouts.core import BIT, BLOCK, COL, LANE, ROW, Layout, copy_offsets
from layouts.modifiers import Modifiers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    # A formula line: (label, text); a range of K (the reference's texts) is (high, low).
    Text = str | tuple[str, ...]
    Lines = Sequence[tuple[str, Text]]
    Section = tuple[Lines, Lines]  # (element -> register lines, register -> element lines)
    Terms = list[tuple[int, str]]  # (factor, term); a term "" is the constant 1

NOTE = "note"  # the label of a free line

# matrix -> (its name in register -> element lines, in element -> register lines, the
# variable of each coordinate)
LABELS = {"A": ("A", "A[i][k]", {ROW: "i", COL: "k"}), "B": ("B", "B[k][j]", {ROW: "k", COL: "j"}),
          "C": ("C", "C[i][j]", {ROW: "i", COL: "j"}), "D": ("D", "D[i][j]", {ROW: "i", COL: "j"}),
          "K": ("index", "index[i][k]", {ROW: "i", COL: "k"}),
          "SA": ("A scale", "SA[i][kb]", {ROW: "i", COL: "kb"}),
          "SB": ("B scale", "SB[kb][j]", {ROW: "kb", COL: "j"})}


def _digit(var: str, below: int, size: int, top: bool) -> str:
    """Digit of `var` with `below` values under it and `size` values: floor(var / below)
    % size (parts left out where they do nothing)."""
    text = var if below == 1 else f"floor({var} / {below})"
    return text if top else f"({text} % {size})"


def _sum(terms: Terms) -> str:
    parts = [str(f) if not t else t if f == 1 else f"{f} * {t}" for f, t in terms if f]
    return " + ".join(parts) or "0"


def _forward(layout: Layout, coords: Mapping[str, str]) -> tuple[str, str]:
    """(lane, bit offset) of an element as sums of its coordinates' digits."""
    lane: Terms = []
    bit: Terms = []
    for coord, var in coords.items():
        digits = [f for f in layout.factors if f.coord == coord and f.size > 1]
        below = 1
        for n, f in enumerate(digits):
            term = _digit(var, below, f.size, n == len(digits) - 1)
            if f.dest == LANE:
                lane.append((f.stride, term))
            elif f.dest == BIT:
                bit.append((f.stride, term))
            below *= f.size
    lane.append((_base_lane(layout), ""))
    if copy_offsets(layout.factors) != [0]:
        lane.append((1, "c"))
    return _sum(lane), _sum(bit + [(layout.base_bit, "")])


def _backward(layout: Layout, coord: str) -> str:
    """A coordinate from the lane and the bit offset b = 32 * GPR_num + GPR_bits."""
    lane = f"(lane - {_base_lane(layout)})" if _base_lane(layout) else "lane"
    bit = f"(b - {layout.base_bit})" if layout.base_bit else "b"
    terms: Terms = []
    below = 1
    for f in (f for f in layout.factors if f.coord == coord and f.size > 1):
        if f.dest == LANE:
            terms.append((below, _digit(lane, f.stride, f.size, False)))
        elif f.dest == BIT:
            terms.append((below, _digit(bit, f.stride, f.size, False)))
        else:
            terms.append((below, "p"))
        below *= f.size
    return _sum(terms)


def _copies(layout: Layout) -> str:
    """The copy offsets c of a replicated operand: '0 or 16', '0, 16, 32 or 48'."""
    offsets = [str(c) for c in copy_offsets(layout.factors)]
    return f"{', '.join(offsets[:-1])} or {offsets[-1]}"


def matrix_lines(layout: Layout, matrix: str, name: str | None = None) -> Section:
    """(element -> register lines, register -> element lines) of one operand's
    layout; `name` replaces the matrix's name ("C or D" when both share the layout)."""
    short, elem, axes = LABELS[matrix]
    if name is not None:
        short, elem = name, f"{name}{elem[1:]}"
    coords = dict(axes)
    if layout.shape[2] > 1:
        coords[BLOCK] = "block"
        elem += ".block"
    lane, bit = _forward(layout, coords)
    forward: list[tuple[str, Text]] = [
        (f"{elem} Lane", lane), (f"{elem} bit offset b", bit),
        (f"{elem} GPR", f"floor(b / 32), bits [b % 32 + {layout.width - 1} : b % 32]")]
    if copy_offsets(layout.factors) != [0]:
        forward.append((NOTE, f"c = {_copies(layout)}: the value is held in each of "
                              "these lanes"))
    backward: list[tuple[str, Text]] = [(f"{short} {var}", _backward(layout, coord))
                                        for coord, var in coords.items()]
    return forward, backward


def _base_lane(layout: Layout) -> int:
    """The first lane of a layout in the upper lanes (0 for the others)."""
    return int(getattr(layout, "base_lane", 0))


def _same(a: Layout, b: Layout) -> bool:
    return (a.shape, a.width, a.factors, a.base_bit, _base_lane(a)) == \
        (b.shape, b.width, b.factors, b.base_bit, _base_lane(b))


def formula_sections(inst: Instruction, mods: Modifiers = Modifiers(),
                     waves: tuple[int, ...] = ()) -> dict[int, Section]:
    """{wave: (element -> register lines, register -> element lines)} of the mapping
    formulas of `inst`'s layouts under `mods` in `waves` (default: every wave size of
    `inst`), derived from the operands' layouts, for every layout family."""
    matrices = ["A", "B", "K" if inst.sparse else "C", "D"] + (["SA", "SB"] if inst.scaled else [])
    if inst.matrices:
        matrices = [m for m in matrices if m in inst.matrices]
    return derive(lambda matrix, wave: operand(inst, matrix, mods, wave).layout,
                  matrices, waves or inst.wave_sizes, inst.sparse)


def derive(layout_of: Callable[[str, int], Layout], matrices: Sequence[str],
           waves: Sequence[int], sparse: bool) -> dict[int, Section]:
    """{wave: (element -> register lines, register -> element lines)} of every matrix
    in each wave size; `layout_of(matrix, wave)` is the operand's layout (modifiers
    applied). C and D are printed once, as "C or D", when they share a
    layout."""
    out: dict[int, Section] = {}
    for wave in waves:
        forward: list[tuple[str, Text]] = []
        backward: list[tuple[str, Text]] = []
        layouts = {m: layout_of(m, wave) for m in matrices}
        shared = "C" in layouts and _same(layouts["C"], layouts["D"])
        for matrix, layout in layouts.items():
            if matrix == "C" and shared:
                continue
            lines = matrix_lines(layout, matrix, "C or D" if matrix == "D" and shared else None)
            forward += lines[0]
            backward += lines[1]
        backward.append((NOTE, "b = 32 * GPR_num + GPR_bits (bit offset in the operand)"))
        if sparse:
            backward.append((NOTE, "p = the position (0-3) of a stored A value in its group "
                                   "of four K, which the index gives"))
        out[wave] = (forward, backward)
    return out

