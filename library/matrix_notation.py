"""Text notation of registers and matrix elements, as the reference tool prints them: the
library's (matrix_api's) names of places and elements, in single queries and in bulk
(register_texts, slot_texts: whole -R / -M tables without a Place per element). The
layout engine (layouts/) computes places only; formats/notation.py re-exports these for
the renderers.

v3{17}.[15:0]  VGPR 3, lane 17, bits 15..0     v[1:0]{5}  a 64-bit register pair
v[1:0]{3}.[35:30]  a value straddling two VGPRs (bits counted across the pair)
A[1][2].B4  element A[i=1][k=2] of block 4 (blocks are shown only when there are several)
"""
from __future__ import annotations

from amd_matrix_calculator.instructions.record import TYPE_CHECKING
from amd_matrix_calculator.layouts.core import Place

if TYPE_CHECKING:
    from collections.abc import Callable

    from amd_matrix_calculator.layouts import Operand
    from amd_matrix_calculator.layouts.core import Elem


def register(place: Place, lane: bool = True, whole: bool = False) -> str:
    """`whole`: print the full register even for a sub-dword value (sparse A on CDNA)."""
    reg, at, lo, width = place  # (a Place: unpacked at once, tables name thousands)
    name, bits = slot_parts(reg, lo, width)
    if lane:
        name = f"{name}{{{at}}}"
    return name if whole else name + bits


# (reg, lo, width) -> its text: tables name the same few slots in every lane
_SLOTS: dict[tuple[int, int, int], tuple[str, str]] = {}


def slot_parts(reg: int, lo: int, width: int) -> tuple[str, str]:
    """(register name, bits suffix) of the slot of `width` bits at bit `lo` of VGPR
    `reg`: v3 / v[1:0], and .[15:0] or nothing (a whole register or pair). A place's
    text is the name, its lane in braces, then the suffix: v3{17}.[15:0]."""
    try:
        return _SLOTS[reg, lo, width]
    except KeyError:
        pass
    place = Place(reg, 0, lo, width)
    last = place.regs[-1]
    name = f"v{reg}" if last == reg else f"v[{last}:{reg}]"
    whole = width % 32 == 0 and lo == 0
    parts = _SLOTS[reg, lo, width] = name, "" if whole else f".[{place.hi}:{lo}]"
    return parts


def element(matrix: str, elem: Elem, blocks: int) -> str:
    row, col, block = elem
    return f"{matrix}[{row}][{col}].B{block}" if blocks > 1 else f"{matrix}[{row}][{col}]"


# What a negation / absolute-value mark puts before and after a name
_MARKS = {"": ("", ""), "-": ("-", ""), "|": ("|", "|"), "-|": ("-|", "|")}


def mark_parts(mark: str) -> tuple[str, str]:
    """(before, after) a name that `mark` ("", "-", "|" or "-|") decorates."""
    return _MARKS[mark]


def marked(text: str, mark: str) -> str:
    """Decorate a register or element name with a negation / absolute-value mark."""
    before, after = _MARKS[mark]
    return f"{before}{text}{after}"


# ---- whole tables in bulk

def register_texts(operand: Operand, block: int = 0) -> list[list[list[str]]]:
    """The marked text of every place of every element of one block, as rows of
    cells (cell [r][c] names the places of element (r, c, block), as block_places()
    lists them; each text as notation.marked(register(place), mark_of(place))):
    an -R table's cells, without a Place per element."""
    if operand.block_source:
        block = operand.block_source(block)
    rows, cols, (lb, bb) = operand.layout.block_offsets(block)
    layout, lane_of = operand.layout, operand.lane_source
    parts, copies = _SlotTexts(layout.width, operand.mark_of, True), layout.copies
    if copies == [0] and lane_of is None:  # one place per element, as laid out
        return [[[f"{pre}{lr + lc + lb}{post}"]
                 for lc, bc in cols for pre, post in (parts[br + bc + bb],)]
                for lr, br in rows]
    read = lane_of or (lambda lane: lane)
    return [[[f"{pre}{read(lr + lc + lb + copy)}{post}" for copy in copies]
             for lc, bc in cols for pre, post in (parts[br + bc + bb],)]
            for lr, br in rows]


def _keyed(operand: Operand, element_blocks: int) -> list[tuple[int, str]]:
    """(key, element name) of every element of slot_texts, in elements() order: a slot of
    a lane is keyed (lane << 16) + bit."""
    layout, matrix, block_of = operand.layout, operand.matrix, operand.block_source
    copies, lane_of = layout.copies, operand.lane_source
    # A slot of a lane is keyed (lane << 16) + bit: the lane and bit offsets of an
    # element's row and column digits then add up to its key as they are.
    keyed: list[tuple[int, str]] = []  # (key, element name), in elements() order
    for block in range(operand.blocks):
        rows, cols, (lb, bb) = layout.block_offsets(
            block_of(block) if block_of else block)
        tail = f".B{block}" if element_blocks > 1 else ""
        heads = [(f"{matrix}[{r}][", (lane << 16) + bit) for r, (lane, bit) in enumerate(rows)]
        ends = [(f"{c}]{tail}", (lane + lb << 16) + bit + bb)
                for c, (lane, bit) in enumerate(cols)]
        if operand.column_major:  # the order of elements()
            keyed += [(hk + ek, h + e) for e, ek in ends for h, hk in heads]
        else:
            keyed += [(hk + ek, h + e) for h, hk in heads for e, ek in ends]
    if lane_of:
        keyed = [((lane_of((key >> 16) + copy) << 16) + (key & 0xFFFF), name)
                 for key, name in keyed for copy in copies]
    elif copies != [0]:
        keyed = [(key + (copy << 16), name) for key, name in keyed for copy in copies]
    return keyed


def slot_texts(operand: Operand, element_blocks: int
               ) -> tuple[list[tuple[int, int, int]], list[tuple[int, list[list[str]]]]]:
    """The -M view in bulk: (slots, rows). `slots` are the register slots (reg, lo,
    width) that hold a value in any lane, in register then bit order; `rows` hold,
    for every lane that holds a value, in lane order, (lane, cells) with cells[s] the
    marked names of the elements slot s holds in that lane (in the order of
    elements(); [] for none): what entries() answers for every register and lane,
    without a Place per element. Elements are named as notation.element() names
    them with `element_blocks` blocks."""
    layout = operand.layout
    keyed = _keyed(operand, element_blocks)
    held = {key: [name] for key, name in keyed}
    if len(held) < len(keyed):  # slots holding several elements
        held = {}
        for key, name in keyed:
            if key in held:
                held[key].append(name)
            else:
                held[key] = [name]
    bits = sorted({key & 0xFFFF for key in held})
    marks = _SlotTexts(layout.width, operand.mark_of, False)
    decorated = {bit: marks[bit] for bit in bits if marks[bit] != ("", "")}
    if decorated:  # a mark depends on the bits alone
        for key, cell in held.items():
            if (key & 0xFFFF) in decorated:
                before, after = decorated[key & 0xFFFF]
                cell[:] = [f"{before}{name}{after}" for name in cell]
    width = layout.width
    empty: list[str] = []
    slots = [(bit >> 5, bit & 31, width) for bit in bits]
    return slots, [(lane, [held.get((lane << 16) + bit, empty) for bit in bits])
                   for lane in sorted({key >> 16 for key in held})]


class _SlotTexts(dict[int, tuple[str, str]]):
    """{bit offset: (text before, text after)}, filled on first use: what a value at
    that bit offset of any lane puts around its lane number (lane_braces: "-v3{" and
    "}.[15:0]", so that the two around a lane spell notation.marked(register(place),
    mark)) or around an element's name ("-" and ""): the same few slots name every
    cell of a table."""

    def __init__(self, width: int, mark_of: Callable[[Place], str],
                 lane_braces: bool) -> None:
        super().__init__()
        self.width, self.mark_of, self.lane_braces = width, mark_of, lane_braces

    def __missing__(self, bit: int) -> tuple[str, str]:
        reg, lo, width = bit >> 5, bit & 31, self.width
        before, after = mark_parts(self.mark_of(Place(reg, 0, lo, width)))
        if self.lane_braces:
            name, bits = slot_parts(reg, lo, width)
            before, after = f"{before}{name}{{", f"}}{bits}{after}"
        self[bit] = before, after
        return before, after
