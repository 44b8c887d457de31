"""Named preshuffle schemes (instructions.preshuffles) against the instruction's layout:
where a scheme puts each item of the stored matrix, and whether each lane's loads then
hold what the instruction reads (matrix_plans.preshuffle.planner), or where they do not.
"""

from __future__ import annotations

from math import lcm, prod

from instructions.preshuffles import SCHEMES, Scheme
from instructions.record import Record
from layouts.core import CalcError, shown

from matrix_plans.preshuffle.planner import Preshuffle


def scheme(key: str) -> Scheme:
    for found in SCHEMES:
        if found.key == key:
            return found
    raise CalcError(f"--preset {shown(key)}: use one of " + ", ".join(s.key for s in SCHEMES))


class Verdict(Record):
    """How a scheme compares with a plan: `agrees` (item for item), `k_only` (the
    items differ only by a permutation of K, the same for every M/N index: A loaded
    with the same K order keeps the product right), and the first difference."""
    agrees: bool
    k_only: bool
    first: str
    items: tuple[int, int]   # the region compared (outer, inner items)


def sizes(s: Scheme, item_bytes: int, tile: tuple[int, int]) -> tuple[list[int], list[int]]:
    """The scheme's row and column factors for items of `item_bytes` and an instruction
    tile of (M/N, K items) (the names CK's chain is written with)."""
    item = max(1, 16 // item_bytes)
    mn, k = tile
    lanes_k = 64 // mn if mn in (16, 32) else 1
    names = {"item": item, "N_warp": mn, "K_warp_lanes": lanes_k,
             "K_per_lane": max(1, k // lanes_k)}
    return ([int(names.get(r, 0) or r) for r in s.rows],
            [int(names.get(c, 0) or c) for c in s.cols])


def scheme_map(s: Scheme, outer: int, inner: int, item_bytes: int,
               tile: tuple[int, int]) -> list[int]:
    """Buffer item of each stored item (row-major over outer x inner items)."""
    rows, cols = sizes(s, item_bytes, tile)
    if outer % prod(rows) or inner % prod(cols):
        raise CalcError(f"{s.key}: the region {outer} x {inner} does not fit its blocks")
    dims = [outer // prod(rows), *rows, inner // prod(cols), *cols]
    order = [dims[p] for p in s.perm]
    out = []
    for o in range(outer):
        for i in range(inner):
            index = _split(o, [dims[0], *rows]) + _split(i, [dims[len(rows) + 1], *cols])
            pos = 0
            for axis, size in zip(s.perm, order):
                pos = pos * size + index[axis]
            out.append(pos)
    return out


def _split(value: int, sizes: list[int]) -> list[int]:
    digits = []
    for size in reversed(sizes):
        digits.append(value % size)
        value //= size
    return digits[::-1]


def plan_map(plan: Preshuffle, outer: int, inner: int, item_bits: int) -> list[int]:
    """Buffer item of each stored item under the plan, blocks row-major over a region of
    outer x inner items (inner: items of item_bits)."""
    bo, bi = plan.block
    block_items = bo * bi * plan.bits // item_bits
    bi_items = bi * plan.bits // item_bits
    at: dict[tuple[int, int], int] = {}
    for slot in plan.slots:
        item, rest = divmod(slot.inner * plan.bits, item_bits)
        at[(slot.outer, item)] = slot.offset // item_bits
        del rest
    out = []
    per_row = inner // bi_items
    for o in range(outer):
        for i in range(inner):
            block = (o // bo) * per_row + i // bi_items
            out.append(block * block_items + at[(o % bo, i % bi_items)])
    return out


def compare(plan: Preshuffle, s: Scheme, tile_items: tuple[int, int]) -> Verdict:
    item_bits = max(8, plan.bits)
    bo, bi = plan.block
    bi_items = bi * plan.bits // item_bits
    rows, cols = sizes(s, item_bits // 8, tile_items)
    outer, inner = lcm(bo, prod(rows)), lcm(bi_items, prod(cols))
    mine = plan_map(plan, outer, inner, item_bits)
    theirs = scheme_map(s, outer, inner, item_bits // 8, tile_items)
    if mine == theirs:
        return Verdict(True, False, "", (outer, inner))
    where = {pos: n for n, pos in enumerate(theirs)}   # buffer item -> stored item
    k_map: dict[int, int] = {}
    k_only = True
    first = ""
    for n, pos in enumerate(mine):
        got = where.get(pos)
        if got is None:
            return Verdict(False, False, f"the scheme leaves buffer item {pos} empty",
                           (outer, inner))
        want_o, want_i = divmod(n, inner)
        got_o, got_i = divmod(got, inner)
        if got != n and not first:
            first = (f"buffer item {pos} holds stored item ({got_o}, {got_i}) where the "
                     f"instruction reads ({want_o}, {want_i})")
        if got_o != want_o or k_map.setdefault(want_i, got_i) != got_i:
            k_only = False
    return Verdict(False, k_only and plan.k_inner, first, (outer, inner))
