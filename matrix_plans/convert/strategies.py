"""The strategies of a conversion's register route: the straight-line word operations
(`Op`) that build one destination register from the source registers, with the
architecture's lane moves and packs (instructions/lane_moves.py); the whole program is
matrix_plans/convert/register_route.py.

Per destination register there are four strategies (register_route keeps the cheapest):
pack in the source lane, then move the packed word (possible when every piece of the
register comes from one source lane); move every source word, then pack in place; move
each converted word once, then take each lane's bytes with v_perm_b32 and a per-lane
selector; or pack two words and exchange their lanes with one or two two-register
permlane swaps. The lane moves
themselves (which move serves which lanes, and their cover) are
matrix_plans/convert/moves.py.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from instructions.lane_moves import REPACK, SELECT

from matrix_plans.convert.model import Field, Move, pack_issues, svar
from matrix_plans.convert.moves import Builder, lane_mask, move_value

_Word = list[tuple[int, int]]  # per lane: (packed word, source lane) it holds
_Swap = tuple[int, tuple[int, int], int | None]  # (bit, operand order, result picked)
_Recipe = tuple[Field, ...]  # a packed word's parts (_pack)
R = TypeVar("R")


# A piece of one destination word: (dest lo, width, source fragment, source lane,
# source register, source lo, source width).
Piece = tuple[int, int, int, int, int, int, int]
_Lanes = dict[int, list[Piece]]  # a destination register's pieces by lane


def pieces_of(moves: list[Move]) -> dict[tuple[int, int], dict[int, list[Piece]]]:
    """{(fragment, register): {lane: pieces}} of every destination register. 64-bit
    values are two 32-bit pieces; a converted value reads its whole 32-bit source."""
    words: dict[tuple[int, int], dict[int, list[Piece]]] = {}
    for to, _, src, _, _ in moves:
        fragment, lane, reg, _, width = to
        if width == 64:
            for h in (0, 1):
                words.setdefault((fragment, reg + h), {}).setdefault(lane, []).append(
                    (0, 32, src[0], src[1], src[2] + h, 0, 32))
        else:
            words.setdefault((fragment, reg), {}).setdefault(lane, []).append(to[3:] + src)
    for lanes in words.values():
        for pieces in lanes.values():
            if len(pieces) > 1:
                pieces.sort()
    return words


def _pack_issues(b: Builder, parts: list[Field]) -> tuple[str, ...]:
    """Instructions of a pack of `parts` (model.Field)."""
    if b.convert:
        return b.pack_issues if b.pack is None else pack_issues(b.pack, parts)
    if len(parts) == 1 and parts[0][1] == parts[0][3]:
        return () if parts[0][2] == 32 or parts[0][1] == 0 and parts[0][4] == 32 else (REPACK,)
    return (REPACK,) * max(1, len(parts) - 1)


def _pack(b: Builder, parts: list[Field], out: str | None = None) -> str:
    if not b.convert and len(parts) == 1 and parts[0][1] == 0 and parts[0][3] == 0 \
            and parts[0][2] == 32 and out is None:
        return parts[0][0]  # the whole source word: no instruction
    info = b.convert
    return b.add("pack", tuple(p[0] for p in parts), (info, tuple(p[1:] for p in parts)),
                 _pack_issues(b, parts), out)


def _single_issues(b: Builder) -> tuple[str, ...]:
    """The instructions converting one value alone (the Pack's `single`)."""
    pack = b.pack
    if pack is not None:
        return pack.single or pack.mnemonics[:1]
    return b.pack_issues[:1]


def selector_cost(table: tuple[int, ...]) -> int:
    """Instructions making a per-lane v_perm_b32 selector: none for one value (a literal
    operand), else a v_mov and a v_cndmask per further value (an estimate, as the lane
    addresses are)."""
    values = {v for v in table if v >= 0}
    return len(values) if len(values) > 1 else 0


def move_then_perm(b: Builder, lanes: _Lanes) -> str | None:
    """Convert each source word in its own lane (a value alone), move it once to the
    lanes that need it from another lane, then let each lane take its bytes from two
    such words with one v_perm_b32 and a per-lane selector: None unless every lane reads
    at most one other lane per source word and two words serve the whole register."""
    found = _far_sources(b, lanes)
    if found is None:
        return None
    moved, widths = found
    words: dict[tuple[tuple[int, int, int, int], bool], tuple[str, int]] = {}

    def word(key: tuple[int, int, int, int], far: bool) -> tuple[str, int]:
        """(the word holding the value of `key`, its byte in it), own or moved."""
        if (key, far) not in words:
            f, reg, slo, swidth = key
            if far:
                name, at = word(key, False)
                words[(key, True)] = (move_value(b, name, moved[key]), at)
            elif b.convert:
                words[(key, False)] = (b.add("pack", (svar(f, reg),), (b.convert, (
                    (slo, swidth, 0, min(widths)),)), _single_issues(b)), 0)
            else:
                words[(key, False)] = (svar(f, reg), slo // 8)
        return words[(key, far)]

    picks: dict[int, list[tuple[tuple[str, int], int, int]]] = {}
    for lane, pieces in lanes.items():
        got = picks[lane] = []
        for lo, width, f, src, reg, slo, swidth in pieces:
            got.append((word((f, reg, slo, swidth), src != lane), lo, width))
    names = list(dict.fromkeys(name for got in picks.values() for (name, _), _, _ in got))
    if len(names) != 2:
        return None
    return b.add("perm", (names[0], names[1]), _selectors(picks, names[0], b.wave),
                 (REPACK,))


def _selectors(picks: dict[int, list[tuple[tuple[str, int], int, int]]], first: str,
               wave: int) -> tuple[int, ...]:
    """Every lane's v_perm_b32 selector (-1: a lane with nothing to take): the bytes of
    `picks` (word, its byte; destination lo, width), `first` the word of bytes 4-7."""
    table = [-1] * wave
    for lane, got in picks.items():
        sel = [12, 12, 12, 12]  # (12: a zero byte)
        for (name, at), lo, width in got:
            for k in range(width // 8):
                sel[lo // 8 + k] = at + k + (4 if name == first else 0)
        # (each selector below 256: the bytes' sum is their OR)
        table[lane] = sel[0] | sel[1] << 8 | sel[2] << 16 | sel[3] << 24
    return tuple(table)


def _far_sources(b: Builder, lanes: _Lanes
                 ) -> tuple[dict[tuple[int, int, int, int], dict[int, int]], set[int]] | None:
    """({source word: {lane: the other lane it reads it from}}, the piece width) for
    move_then_perm, or None when a piece is not whole bytes, a lane reads one source
    word from two other lanes, the pieces differ in width, or the v_perm_b32 would read
    more than two words: with a conversion one per source value and whether it comes
    from another lane (each is its own pack, or a move of it), else at least one per
    source register and the same (a register's values moved along different lanes may
    be one move or several)."""
    moved: dict[tuple[int, int, int, int], dict[int, int]] = {}
    widths = set()
    words = set()
    for lane, pieces in lanes.items():
        for lo, width, f, src, reg, slo, swidth in pieces:
            widths.add(width)
            if lo % 8 or width % 8 or (not b.convert and slo % 8):
                return None
            far = src != lane
            words.add((f, reg, slo, swidth, far) if b.convert else (f, reg, far))
            if len(words) > 2:
                return None
            if far and moved.setdefault((f, reg, slo, swidth), {}).setdefault(
                    lane, src) != src:
                return None
    if len(widths) != 1:
        return None
    return moved, widths


def pack_then_move(b: Builder, lanes: _Lanes) -> str | None:
    """Pack in the source lane, then move: None when the pieces of a lane come from
    more than one source lane."""
    groups = _swap_groups(lanes)
    if groups is None:
        return None
    return b.select([(move_value(b, _pack(b, list(recipe)), sigma), lane_mask(sigma))
                     for recipe, sigma in groups.items()])


def _chooser(sources: dict[tuple[int, int, int, int], dict[int, int]]
             ) -> tuple[tuple[str, ...], tuple[int, ...], dict[int, int]] | None:
    """move_then_pack's select-then-move: when every source lane sends at most one value
    to this position, the source lane picks the register to send by its own lane (a
    select of `names` by `masks` of source lanes), then one move (`sigma`) delivers it:
    None otherwise (or when it would not save a move)."""
    if len(sources) < 2:
        return None
    chooser: dict[int, str] = {}
    sigma: dict[int, int] = {}
    for (f, reg, _, _), lanes in sources.items():
        name = svar(f, reg)
        for src_lane in lanes.values():
            if chooser.setdefault(src_lane, name) != name:
                return None
        sigma.update(lanes)
    by_var: dict[str, list[int]] = {}
    for src_lane, var in chooser.items():
        by_var.setdefault(var, []).append(src_lane)
    names = tuple(by_var)
    return names, tuple(lane_mask(by_var[v]) for v in names), sigma


# a position of a register for move_then_pack: (dest lo, width, the select-then-move
# (_chooser) or None, [(source word, its lo, width, {lane: source lane}, the lanes'
# mask)], whether the words' bits differ, the source (lo, width) of the part)
_Position = tuple[int, int, tuple[tuple[str, ...], tuple[int, ...], dict[int, int]] | None,
                  list[tuple[str, int, int, dict[int, int], int]], bool, tuple[int, int]]


def _per_register(function: Callable[[_Lanes], R]) -> Callable[[_Lanes], R]:
    """`function` of a register's lanes, its last answer kept: the strategies of every
    build of one register ask alike (callers do not change the lanes)."""
    last: dict[int, tuple[_Lanes, R]] = {}

    def kept(lanes: _Lanes) -> R:
        found = last.get(0)  # (one read: another thread may replace it)
        if found is not None and found[0] is lanes:
            return found[1]
        answer = function(lanes)
        last[0] = (lanes, answer)
        return answer
    return kept


@_per_register
def _positions(lanes: _Lanes) -> list[_Position]:
    """move_then_pack's grouping of the register's pieces by destination position, in
    order."""
    positions: dict[tuple[int, int], dict[tuple[int, int, int, int], dict[int, int]]] = {}
    for lane, pieces in lanes.items():
        for lo, width, f, src_lane, reg, slo, swidth in pieces:
            positions.setdefault((lo, width), {}).setdefault((f, reg, slo, swidth), {})[
                lane] = src_lane
    found: list[_Position] = []
    for (lo, width), sources in sorted(positions.items()):
        common = {(slo, swidth) for _, _, slo, swidth in sources}
        words = [(svar(f, reg), slo, swidth, sigma, lane_mask(sigma))
                 for (f, reg, slo, swidth), sigma in sources.items()]
        spread = len(common) > 1  # different bits per lane: brought to bit 0 first
        first = next(iter(common))
        found.append((lo, width, None if spread else _chooser(sources), words, spread,
                      (0, first[1]) if spread else first))
    return found


def move_then_pack(b: Builder, lanes: _Lanes) -> str:
    """Move every source word to the lanes that need it, then pack in place."""
    parts = []
    for lo, width, select, words, spread, (slo, swidth) in _positions(lanes):
        if select is not None:
            names, masks, sigma = select
            chosen = b.add("select", names, masks, (SELECT,) * (len(names) - 1))
            parts.append((move_value(b, chosen, sigma), slo, swidth, lo, width))
            continue
        made = []
        for var, wlo, wwidth, sigma, mask in words:
            word = move_value(b, var, sigma)
            if spread:
                word = b.add("pack", (word,), ("", ((wlo, wwidth, 0, wwidth),)), (REPACK,))
            made.append((word, mask))
        parts.append((b.select(made), slo, swidth, lo, width))
    return _pack(b, parts)


def _swap2(x: list[tuple[int, int]], y: list[tuple[int, int]], bit: int
           ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The two results of a permlane swap with VDST x and SRC0 y (lanes l and l^bit
    trade: result 0 keeps x where the bit is clear, result 1 keeps y where it is set)."""
    first = [x[ln] if not ln & bit else y[ln ^ bit] for ln in range(len(x))]
    second = [x[ln ^ bit] if not ln & bit else y[ln] for ln in range(len(x))]
    return first, second


@_per_register
def _swap_groups(lanes: _Lanes) -> dict[_Recipe, dict[int, int]] | None:
    """{recipe of a packed word: {lane: the source lane it reads}}, or None when a lane
    reads several source lanes."""
    found: dict[_Recipe, dict[int, int]] = {}
    for lane, pieces in lanes.items():
        origin = pieces[0][3]
        if any(p[3] != origin for p in pieces):
            return None
        recipe = tuple([(svar(p[2], p[4]), p[5], p[6], p[0], p[1]) for p in pieces])
        found.setdefault(recipe, {})[lane] = origin
    return found


def _network(bits: list[int], start: tuple[_Word, _Word], fits: Callable[[_Word], bool],
             depth: int = 2) -> tuple[_Swap, ...] | None:
    """One swap, or two (the second on the first's two results), either order: the first
    network whose result fits."""
    for first in bits:
        for order in ((0, 1), (1, 0)):
            r = _swap2(start[order[0]], start[order[1]], first)
            for index in (0, 1):
                if fits(r[index]):
                    return ((first, order, index),)
            second = _network(bits, r, fits, depth - 1) if depth > 1 else None
            if second:
                return ((first, order, None), *second)
    return None


def pair_swaps(b: Builder, lanes: _Lanes) -> str | None:
    """Two packed words P0, P1 of the source lanes, brought together by one or two
    permlane swaps that exchange lanes between them (gfx950's way from transposed
    MFMA tiles to K-doubled operands): None when no such network gives the register."""
    bits = [bit for kind, bit in (("swap32", 32), ("swap16", 16)) if kind in b.by_kind
            and bit < b.wave]
    if not bits:
        return None
    groups = _swap_groups(lanes)
    if groups is None or len(groups) != 2:
        return None
    recipes = list(groups)
    want = {}
    for index, recipe in enumerate(recipes):
        for lane, src in groups[recipe].items():
            want[lane] = (index, src)
    start = ([(0, ln) for ln in range(b.wave)], [(1, ln) for ln in range(b.wave)])

    def fits(value: _Word) -> bool:
        return all(value[lane] == need for lane, need in want.items())

    found = _network(bits, start, fits)
    if found is None:
        return None
    values = tuple(_pack(b, list(recipe)) for recipe in recipes)
    for bit, order, pick in found:
        kind = f"swap{bit}x"
        mnemonic = b.by_kind[f"swap{bit}"].mnemonic
        args = (values[order[0]], values[order[1]])
        outs = tuple(b.add("move", args, (kind, i), (mnemonic,)) for i in (0, 1))
        if pick is not None:
            return outs[pick]
        values = outs
    return None
