"""The LDS route of a conversion: every source lane stores its values,
converted first, at the destination's byte positions in a lane-major copy of the
destination fragments (adjacent values merged into wider stores), the wave waits, and
every lane loads its registers with the widest loads."""


from __future__ import annotations

from instructions.lane_moves import LOAD_BITS, REPACK, STORE_BITS, WAIT, ArchMoves, Pack
from instructions.record import Record

from matrix_plans.convert.model import Field, Move, Op, pack_issues, svar
from matrix_plans.convert.register_route import issued


class _Item(Record):
    """A store of the LDS route: its 32-bit words (each a list of parts: var, source lo,
    source width, destination lo, destination width), its bits and lane addresses."""
    words: list[list[Field]]
    bits: int
    table: tuple[int, ...]


def _merge(items: list[_Item]) -> list[_Item]:
    """Pairs of stores to adjacent bytes become one store of twice the width (values
    packed into one register, or registers side by side), up to 128 bits."""
    changed = True
    while changed:
        changed = False
        starts: dict[tuple[int, tuple[int, ...]], int] = {}
        for index, item in enumerate(items):
            starts.setdefault((item.bits, item.table), index)
        used: set[int] = set()
        out = []
        for index, item in enumerate(items):
            if index in used:
                continue
            if item.bits < 128:
                size = item.bits // 8
                nxt = tuple([x + size if x >= 0 else -1 for x in item.table])
                partner = starts.get((item.bits, nxt))  # (its bytes right after this one's)
                if partner is not None and partner not in used and partner != index \
                        and all(x % (2 * size) == 0 for x in item.table if x >= 0):
                    other = items[partner]
                    if item.bits < 32:  # pack into one register
                        moved = [(v, lo, w, dlo + item.bits, dw)
                                 for v, lo, w, dlo, dw in other.words[0]]
                        words = [item.words[0] + moved]
                    else:
                        words = item.words + other.words
                    out.append(_Item(words, 2 * item.bits, item.table))
                    used.update((index, partner))
                    changed = True
                    continue
            used.add(index)
            out.append(item)
        items = out
    return items


def _lds_pack_issues(parts: list[Field], convert: str, pack: Pack | None
                     ) -> tuple[str, ...]:
    """Instructions building one stored register: the Pack's conversions of its values
    (model.pack_issues), or in-lane repacking."""
    if convert and pack is not None:
        return pack_issues(pack, parts)
    if len(parts) == 1:
        return (REPACK,) if parts[0][1] else ()
    return (REPACK,) * (len(parts) - 1)


# {source value (fragment, register, lo, width): {source lane: the LDS bytes it is
# stored at, in the order of the moves}}
_Tables = dict[tuple[int, int, int, int], dict[int, list[int]]]


def _store_tables(moves: list[Move], lane_bytes: int, registers: int) -> _Tables | None:
    """The LDS bytes every source value is stored at in lds_program, or None when a slot
    is not byte-aligned."""
    tables: _Tables = {}
    for to, _, src, _, _ in moves:
        fragment, lane, reg, lo, width = to
        if width not in STORE_BITS or lo % 8:
            return None
        address = lane * lane_bytes + (fragment * registers + reg) * 4 + lo // 8
        sfragment, slane, sreg, slo, swidth = src
        tables.setdefault((sfragment, sreg, slo, swidth), {}).setdefault(slane, []).append(
            address)
    return tables


def _store_items(tables: _Tables, wave: int, convert: str, dbits: int) -> list[_Item]:
    """The stores of lds_program (before merging), one per copy of each source value."""
    items: list[_Item] = []
    for (f, reg, lo, width), by_lane in sorted(tables.items()):
        for c in range(max(map(len, by_lane.values()))):
            table = tuple([a[c] if (a := by_lane.get(lane)) is not None and len(a) > c
                           else -1 for lane in range(wave)])
            if width == 64 and not convert:
                halves = [[(svar(f, reg), 0, 32, 0, 32)], [(svar(f, reg + 1), 0, 32, 0, 32)]]
                items.append(_Item(halves, 64, table))
            else:
                items.append(_Item([[(svar(f, reg), lo, width, 0, dbits)]], dbits, table))
    return items


def _loads(arch: ArchMoves, words: int, registers: int) -> list[Op]:
    """The widest LDS loads that fill every destination register of lds_program."""
    ops: list[Op] = []
    at = 0
    while at < words:
        n = max(b for b in LOAD_BITS if b // 32 <= words - at) // 32
        for k in range(n):
            t, reg = divmod(at + k, registers)
            ops.append(Op("load", f"d{t}_{reg}", (), 4 * (at + k),
                          (arch.lds(32 * n, load=True),) if k == 0 else ()))
        at += n
    return ops


def lds_program(moves: list[Move], arch: ArchMoves, wave: int, convert: str,
                pack: Pack | None, fragments: int, registers: int
                ) -> tuple[list[Op], list[tuple[str, int]], int] | None:
    """The round trip through LDS: every source lane stores each value (converted
    first) at the byte its destination slot has in a lane-major copy of the destination
    fragments (`registers` each), then every lane loads its registers. None when a slot
    is not byte-aligned. Returns (ops, counts, LDS bytes per wave)."""
    words = fragments * registers
    lane_bytes = 4 * words
    tables = _store_tables(moves, lane_bytes, registers)
    if tables is None:
        return None
    items = _merge(_store_items(tables, wave, convert, moves[0].to.width))
    ops: list[Op] = []
    count = 0
    shapes = set()  # (the lane addresses of each store, from its first)
    for item in items:
        first = next(a for a in item.table if a >= 0)
        shapes.add(tuple([a - first if a >= 0 else -1 for a in item.table]))
        args = []
        for parts in item.words:
            if not convert and len(parts) == 1 and parts[0][1:3] == (0, 32):
                args.append(parts[0][0])
                continue
            count += 1
            issues = _lds_pack_issues(parts, convert, pack)
            ops.append(Op("pack", f"t{count}", tuple(p[0] for p in parts),
                          (convert, tuple(p[1:] for p in parts)), issues))
            args.append(f"t{count}")
        ops.append(Op("store", "", tuple(args), (item.bits, item.table),
                      (arch.lds(item.bits),)))
    ops.append(Op("sync", "", (), None, (WAIT,)))
    ops += _loads(arch, words, registers)
    ops.append(Op("sync", "", (), None, (WAIT,)))
    counts = dict(issued(ops))
    counts["v_and/v_lshl (lane addresses)"] = len(shapes) + 1
    return ops, sorted(counts.items()), wave * lane_bytes
