"""Text notation of whole layouts in bulk, as the reference tool prints it: the places and
elements of -R / -M tables without a Place per element (register_texts, slot_texts),
and the keys the JSON and CSV documents group places by; one place's or element's
name: matrix_library/records.py (register_name, element_name, marked), which these
spell alike. The renderers of formats/ write with both; the layout engine (layouts/)
computes places only.

v3{17}.[15:0]  VGPR 3, lane 17, bits 15..0     v[1:0]{5}  a 64-bit register pair
v[1:0]{3}.[35:30]  a value straddling two VGPRs (bits counted across the pair)
A[1][2].B4  element A[i=1][k=2] of block 4 (blocks are shown only when there are several)
"""
from __future__ import annotations

from _operator import add, and_, rshift  # (operator's C module, loaded with Python)
from itertools import chain, repeat

from layouts.core import Place

from matrix_library.records import mark_parts, slot_parts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import TypeVar

    from layouts import Operand

    T = TypeVar("T", str, tuple[int, ...])
    L = TypeVar("L")


# ---- whole tables in bulk

def register_texts(operand: Operand, block: int = 0) -> list[list[list[str]]]:
    """The marked text of every place of every element of one block, as rows of
    cells (cell [r][c] names the places of element (r, c, block), as block_places()
    lists them; each text as records.marked(register_name(place), mark_of(place))):
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


LANE_SHIFT = 16  # a place's key (keyed()): (lane << LANE_SHIFT) + bit
BIT_MASK = (1 << LANE_SHIFT) - 1  # key & BIT_MASK: the bit


def split_keys(keys: list[int]) -> tuple[list[int], list[int]]:
    """(lanes, bits) of keyed()'s keys, as two columns."""
    return (list(map(rshift, keys, repeat(LANE_SHIFT))),
            list(map(and_, keys, repeat(BIT_MASK))))


def keyed(operand: Operand, head: Callable[[int], T], end: Callable[[int, int], T]
          ) -> list[tuple[int, T]]:
    """(key, head(row) + end(col, block)) of every location of every element, in the order
    of layout(): elements() order, an element's copies in the order of its places. The key
    of a place is (lane << LANE_SHIFT) + bit, bit its offset counted from bit 0 of the operand's
    first VGPR (register * 32 + lo): sorted keys are the -M view's order (lane, then
    register, then bits). `head` and `end` label rows and columns (strings or tuples:
    anything `+` joins), each called once per row or column of a block."""
    found: list[tuple[int, T]] = []
    for block, heads, ends in _blocks(operand):
        # (the labels of a block's rows and columns, each with its key's part)
        rows = [(head(r), key) for r, key in enumerate(heads)]
        cols = [(end(c, block), key) for c, key in enumerate(ends)]
        if operand.column_major:  # the order of elements()
            found += [(hk + ek, h + e) for e, ek in cols for h, hk in rows]
        else:
            found += [(hk + ek, h + e) for h, hk in rows for e, ek in cols]
    keys = _copied(operand, (key for key, _ in found))
    if keys is None:
        return found
    each = len(operand.layout.copies)
    return list(zip(keys, chain.from_iterable(map(repeat, [label for _, label in found],
                                                  repeat(each)))))


def keyed_columns(operand: Operand) -> tuple[list[int], list[int], list[int], list[int]]:
    """keyed() as four columns, (keys, rows, cols, blocks): the key of every location of
    every element, in keyed()'s order, and the row, column and block of its element
    (for writers of whole documents: no tuple per location)."""
    keys: list[int] = []
    rows: list[int] = []
    cols: list[int] = []
    blocks: list[int] = []
    for block, heads, ends in _blocks(operand):
        height, width = len(heads), len(ends)
        if operand.column_major:  # (rows change fastest)
            keys += [hk + ek for ek in ends for hk in heads]
            rows += list(range(height)) * width
            cols += chain.from_iterable(map(repeat, range(width), repeat(height)))
        else:
            keys += [hk + ek for hk in heads for ek in ends]
            rows += chain.from_iterable(map(repeat, range(height), repeat(width)))
            cols += list(range(width)) * height
        blocks += repeat(block, height * width)
    copied = _copied(operand, keys)
    if copied is None:
        return keys, rows, cols, blocks
    each = len(operand.layout.copies)  # (an element's fields for each of its copies)
    rows, cols, blocks = (list(chain.from_iterable(map(repeat, column, repeat(each))))
                          for column in (rows, cols, blocks))
    return copied, rows, cols, blocks


def _blocks(operand: Operand) -> Iterator[tuple[int, list[int], list[int]]]:
    """(block, row keys, column keys) of each block: a place's key is its row's key plus
    its column's (the lane and bit offsets add up as they are: a bit offset stays below
    1 << LANE_SHIFT), before copies and lane sources (_copied)."""
    layout, block_of = operand.layout, operand.block_source
    for block in range(operand.blocks):
        rows, cols, (lb, bb) = layout.block_offsets(block_of(block) if block_of else block)
        yield (block, [(lane << LANE_SHIFT) + bit for lane, bit in rows],
               [(lane + lb << LANE_SHIFT) + bit + bb for lane, bit in cols])


def _copied(operand: Operand, keys: Iterable[int]) -> list[int] | None:
    """The keys of every copy of each place of `keys` (each place's copies one after the
    other), through the operand's lane source; None when each place is its own key."""
    copies, lane_of = operand.layout.copies, operand.lane_source
    if lane_of:
        return [(lane_of((key >> LANE_SHIFT) + copy) << LANE_SHIFT) + (key & BIT_MASK)
                for key in keys for copy in copies]
    if copies != [0]:
        return [key + (copy << LANE_SHIFT) for key in keys for copy in copies]
    return None


def _held(operand: Operand, element_blocks: int) -> dict[int, list[str]]:
    """{key: the names of the elements that slot holds} of slot_texts (grouped() of
    keyed()'s element names, in elements() order). Where each element has one place and
    no two share a slot, each name is built once, beside its key: no (key, name) pair
    per element."""
    matrix = operand.matrix

    def end(c: int, block: int) -> str:
        return f"{c}].B{block}" if element_blocks > 1 else f"{c}]"
    if operand.layout.copies == [0] and operand.lane_source is None:
        keys: list[int] = []
        names: list[list[str]] = []
        for block, heads, ends in _blocks(operand):
            rows = [f"{matrix}[{r}][" for r in range(len(heads))]
            cols = [end(c, block) for c in range(len(ends))]
            if operand.column_major:  # (the order of elements(), as keyed())
                keys += [hk + ek for ek in ends for hk in heads]
                names += [[h + e] for e in cols for h in rows]
            else:
                keys += [hk + ek for hk in heads for ek in ends]
                names += [[h + e] for h in rows for e in cols]
        held = dict(zip(keys, names))
        if len(held) == len(keys):
            return held
    return grouped(keyed(operand, lambda r: f"{matrix}[{r}][", end))


def grouped(keyed: list[tuple[int, L]]) -> dict[int, list[L]]:
    """{key: its labels} of keyed()'s list, each key's labels in the list's order."""
    held = {key: [label] for key, label in keyed}
    if len(held) < len(keyed):  # slots holding several elements
        held = {}
        for key, label in keyed:
            found = held.get(key)
            if found is None:
                held[key] = [label]
            else:
                found.append(label)
    return held


def held_slots(keyed: list[tuple[int, L]]) -> list[tuple[int, list[L]]]:
    """(key, labels) of every slot of keyed()'s list, in key order (that of slots() and
    the -M view), a slot's labels in the list's order (elements())."""
    held = grouped(keyed)
    return [(key, held[key]) for key in sorted(held)]


def key_order(keys: list[int]) -> list[int] | None:
    """The positions of `keys` in key order (that of slots() and the -M view) when no two
    keys are the same (every slot holds one location); None when some are."""
    if len(set(keys)) < len(keys):
        return None
    return sorted(range(len(keys)), key=keys.__getitem__)


def slot_texts(operand: Operand, element_blocks: int
               ) -> tuple[list[tuple[int, int, int]], list[tuple[int, list[list[str]]]]]:
    """The -M view in bulk: (slots, rows). `slots` are the register slots (reg, lo,
    width) that hold a value in any lane, in register then bit order; `rows` hold,
    for every lane that holds a value, in lane order, (lane, cells) with cells[s] the
    marked names of the elements slot s holds in that lane (in the order of
    elements(); [] for none): what entries() answers for every register and lane,
    without a Place per element. Elements are named as records.element_name()
    names them with `element_blocks` blocks."""
    layout = operand.layout
    held = _held(operand, element_blocks)
    bits = sorted(set(map(and_, held, repeat(BIT_MASK))))
    marks = _SlotTexts(layout.width, operand.mark_of, False)
    decorated = {bit: marks[bit] for bit in bits if marks[bit] != ("", "")}
    if decorated:  # a mark depends on the bits alone
        for key, cell in held.items():
            if (key & BIT_MASK) in decorated:
                before, after = decorated[key & BIT_MASK]
                cell[:] = [f"{before}{name}{after}" for name in cell]
    width = layout.width
    empty: list[str] = []
    slots = [(bit >> 5, bit & 31, width) for bit in bits]
    # (each lane's cells: held.get of its keys, (lane << LANE_SHIFT) + bit of every slot)
    return slots, [(lane, list(map(held.get, map(add, repeat(lane << LANE_SHIFT), bits),
                                   repeat(empty))))
                   for lane in sorted(set(map(rshift, held, repeat(LANE_SHIFT))))]


class _SlotTexts(dict[int, tuple[str, str]]):
    """{bit offset: (text before, text after)}, filled on first use: what a value at
    that bit offset of any lane puts around its lane number (lane_braces: "-v3{" and
    "}.[15:0]", so that the two around a lane spell records.marked(register_name(place),
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
