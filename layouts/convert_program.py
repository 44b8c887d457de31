"""The register route of a conversion (issue 20): a straight-line program of word
operations (`Op`) that builds every destination register from the source registers in
registers, with the architecture's lane moves and packs (instructions/lane_moves.py).

Per destination register it tries three strategies and keeps the cheapest: pack in the
source lane, then move the packed word (possible when every piece of the register comes
from one source lane); move every source word, then pack in place; or pack two words and
exchange their lanes with one or two two-register permlane swaps.
"""
from __future__ import annotations

from amd_matrix_calculator.instructions.lane_moves import REPACK, SELECT, WAIT, ArchMoves
from amd_matrix_calculator.instructions.record import TYPE_CHECKING

from .convert_model import Move, Op, svar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    _Word = list[tuple[int, int]]  # per lane: (packed word, source lane) it holds
    _Swap = tuple[int, tuple[int, int], int | None]  # (bit, operand order, result picked)
    _Recipe = tuple[tuple[int, int, int, int, int, int], ...]


# A piece of one destination word: (dest lo, width, source fragment, source lane,
# source register, source lo, source width).
Piece = tuple[int, int, int, int, int, int, int]


def _pieces(moves: list[Move]) -> dict[tuple[int, int], dict[int, list[Piece]]]:
    """{(fragment, register): {lane: pieces}} of every destination register. 64-bit
    values are two 32-bit pieces; a converted value reads its whole 32-bit source."""
    words: dict[tuple[int, int], dict[int, list[Piece]]] = {}
    for move in moves:
        to, src = move.to, move.source
        if to.width == 64:
            parts = [(to.reg + h, 0, 32, src.reg + h, 0, 32) for h in (0, 1)]
        else:
            parts = [(to.reg, to.lo, to.width, src.reg, src.lo, src.width)]
        for reg, lo, width, sreg, slo, swidth in parts:
            lane = words.setdefault((to.fragment, reg), {}).setdefault(to.lane, [])
            lane.append((lo, width, src.fragment, src.lane, sreg, slo, swidth))
    for lanes in words.values():
        for pieces in lanes.values():
            pieces.sort()
    return words


class _Builder:
    """Collects the ops of a program; names temporaries."""

    def __init__(self, moves: ArchMoves, wave: int, convert: str,
                 pack_issues: tuple[str, ...], made: dict[tuple[object, ...], str] | None = None
                 ) -> None:
        self.moves, self.wave, self.convert = moves, wave, convert
        self.pack_issues = pack_issues
        self.ops: list[Op] = []
        self.count = 0
        self.by_kind = {m.kind: m for m in moves.moves}
        # ops of earlier registers by (op, args, info): a value made once is reused
        self.made = made if made is not None else {}

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def add(self, op: str, args: tuple[str, ...], info: object, issues: tuple[str, ...],
            out: str | None = None) -> str:
        key = (op, args, repr(info))
        if out is None and op != "select" and key in self.made:
            return self.made[key]
        name = out or self.temp()
        self.ops.append(Op(op, name, args, info, issues))
        return name


def _mask(lanes: Iterable[int]) -> int:
    return sum(1 << lane for lane in lanes)


def _fits(kind: str, sigma: dict[int, int], wave: int, reach: int) -> dict[int, int] | None:
    """The lanes of sigma that one move of `kind` serves: {lane: source lane}; for
    row/xrow only the lanes agreeing with the most common selector of their position."""
    if kind in ("swap32", "half"):
        return {ln: s for ln, s in sigma.items() if s == ln ^ 32} if wave == 64 else {}
    if kind == "swap16":
        return {ln: s for ln, s in sigma.items() if s == ln ^ 16}
    if kind in ("row", "xrow"):
        flip = 1 if kind == "xrow" else 0
        votes: dict[int, dict[int, int]] = {}
        for ln, s in sigma.items():
            if s // 16 == (ln // 16) ^ flip and (kind == "row" or ln // 32 == s // 32):
                position = votes.setdefault(ln % 16, {})
                position[s % 16] = position.get(s % 16, 0) + 1
        chosen = {p: max(v, key=lambda k: v[k]) for p, v in votes.items()}
        return {ln: s for ln, s in sigma.items()
                if s // 16 == (ln // 16) ^ flip and chosen.get(ln % 16) == s % 16
                and ln // 32 == s // 32}
    if kind == "gather":
        return {ln: s for ln, s in sigma.items() if reach >= wave or ln // reach == s // reach}
    return {}


_ORDER = ("swap32", "swap16", "half", "row", "xrow")


def _cover(sigma: dict[int, int], moves: ArchMoves, wave: int
           ) -> list[tuple[str, dict[int, int]]]:
    """Parts [(kind, {lane: source lane})] that together serve every lane of sigma:
    the cheaper of (special moves greedily, then gathers) and (gathers only); "id"
    is the lanes that already hold their value."""
    ident = {ln: s for ln, s in sigma.items() if ln == s}
    rest = {ln: s for ln, s in sigma.items() if ln != s}
    kinds = {m.kind: m for m in moves.moves}
    gather = kinds["gather"]

    def gathers(left: dict[int, int]) -> list[tuple[str, dict[int, int]]]:
        out: list[tuple[str, dict[int, int]]] = []
        near = _fits("gather", left, wave, gather.reach) or {}
        if near:
            out.append(("gather", near))
        far = {ln: s for ln, s in left.items() if ln not in near}
        if far:  # across the wave64 halves: permlane64 first, then a gather
            out.append(("half+gather", far))
        return out

    def cost(parts: list[tuple[str, dict[int, int]]]) -> int:
        return sum(2 if k == "half+gather" else 1 for k, _ in parts) + len(parts) - 1

    plain = ([("id", ident)] if ident else []) + gathers(rest)
    special: list[tuple[str, dict[int, int]]] = [("id", ident)] if ident else []
    left = dict(rest)
    while left:
        best = max(((len(_fits(k, left, wave, 64) or {}), k) for k in _ORDER if k in kinds),
                   default=(0, ""))
        if best[0] == 0:
            special += gathers(left)
            break
        part = _fits(best[1], left, wave, 64) or {}
        special.append((best[1], part))
        left = {ln: s for ln, s in left.items() if ln not in part}
    return special if cost(special) < cost(plain) else plain


def _gather(b: _Builder, var: str, kind: str, part: dict[int, int]) -> str:
    """_move's word of a gather part (half+gather: of the other half's word)."""
    source, table = var, dict(part)
    if kind == "half+gather":
        source = b.add("move", (var,), ("half", None), (b.by_kind["half"].mnemonic,))
        table = {ln: s ^ 32 for ln, s in part.items()}
    sources = tuple(table.get(ln, -1) for ln in range(b.wave))
    return b.add("move", (source,), ("gather", sources), (b.by_kind["gather"].mnemonic,))


def _move(b: _Builder, var: str, sigma: dict[int, int]) -> str:
    """A word holding, in every lane ln of sigma, `var` of lane sigma[ln]."""
    parts = _cover(sigma, b.moves, b.wave)
    made: list[tuple[str, dict[int, int]]] = []
    for kind, part in parts:
        if kind == "id":
            made.append((var, part))
        elif kind in ("swap32", "swap16"):
            bit = 32 if kind == "swap32" else 16
            # lanes with the bit set read result 0 (the VDST side), the others result 1
            for index, lanes in ((0, {ln: s for ln, s in part.items() if ln & bit}),
                                 (1, {ln: s for ln, s in part.items() if not ln & bit})):
                if lanes:
                    mnemonic = b.by_kind[kind].mnemonic
                    made.append((b.add("move", (var,), (kind, index), (mnemonic,)), lanes))
        elif kind in ("row", "xrow"):
            selectors = [0] * 16
            for ln, s in part.items():
                selectors[ln % 16] = s % 16
            made.append((b.add("move", (var,), (kind, tuple(selectors)),
                               (b.by_kind[kind].mnemonic,)), part))
        elif kind == "half":
            made.append((b.add("move", (var,), ("half", None), (b.by_kind["half"].mnemonic,)),
                         part))
        else:
            made.append((_gather(b, var, kind, part), part))
    if len(made) == 1:
        return made[0][0]
    masks = tuple(_mask(lanes) for _, lanes in made)
    return b.add("select", tuple(v for v, _ in made), masks, (SELECT,) * (len(made) - 1))


def _pack_issues(b: _Builder, parts: list[tuple[str, int, int, int, int]]) -> tuple[str, ...]:
    """Instructions of a pack of (var, source lo, source width, dest lo, width) parts."""
    if b.convert:
        pack = next((p for p in b.moves.packs if p.mnemonics == b.pack_issues), None)
        if pack is None:
            return b.pack_issues
        # a step reading a pair from one register's halves: other pairs repack first
        unpaired = sum(1 for a, c in zip(parts[::2], parts[1::2])
                       if pack.paired and (a[0] != c[0] or (a[1], c[1]) != (0, 16)))
        return (REPACK,) * unpaired + pack.issues(len(parts))
    if len(parts) == 1 and parts[0][1] == parts[0][3]:
        return () if parts[0][2] == 32 or parts[0][1] == 0 and parts[0][4] == 32 else (REPACK,)
    return (REPACK,) * max(1, len(parts) - 1)


def _pack(b: _Builder, parts: list[tuple[str, int, int, int, int]], out: str | None = None
          ) -> str:
    if not b.convert and len(parts) == 1 and parts[0][1] == 0 and parts[0][3] == 0 \
            and parts[0][2] == 32 and out is None:
        return parts[0][0]  # the whole source word: no instruction
    info = b.convert
    return b.add("pack", tuple(p[0] for p in parts), (info, tuple(p[1:] for p in parts)),
                 _pack_issues(b, parts), out)



def _pack_then_move(b: _Builder, lanes: dict[int, list[Piece]]) -> str | None:
    """Pack in the source lane, then move: None when the pieces of a lane come from
    more than one source lane."""
    Recipe = tuple[tuple[int, int, int, int, int, int], ...]
    groups: dict[Recipe, dict[int, int]] = {}
    for lane, pieces in lanes.items():
        origins = {p[3] for p in pieces}
        if len(origins) != 1:
            return None
        recipe: Recipe = tuple((p[2], p[4], p[5], p[6], p[0], p[1]) for p in pieces)
        groups.setdefault(recipe, {})[lane] = origins.pop()
    made = []
    for recipe, sigma in groups.items():
        parts = [(svar(f, reg), lo, width, dlo, dwidth)
                 for f, reg, lo, width, dlo, dwidth in recipe]
        packed = _pack(b, parts)
        made.append((_move(b, packed, sigma), sigma))
    if len(made) == 1:
        return made[0][0]
    return b.add("select", tuple(v for v, _ in made), tuple(_mask(s) for _, s in made),
                 (SELECT,) * (len(made) - 1))


def _select_then_move(b: _Builder, sources: dict[tuple[int, int, int, int], dict[int, int]]
                      ) -> str | None:
    """When every source lane sends at most one value to this position, the source lane
    picks the register to send by its own lane, then one move delivers it: None
    otherwise (or when it would not save a move)."""
    if len(sources) < 2:
        return None
    chooser: dict[int, str] = {}
    sigma: dict[int, int] = {}
    for (f, reg, _, _), lanes in sources.items():
        for lane, src_lane in lanes.items():
            if chooser.setdefault(src_lane, svar(f, reg)) != svar(f, reg):
                return None
            sigma[lane] = src_lane
    by_var: dict[str, list[int]] = {}
    for src_lane, var in chooser.items():
        by_var.setdefault(var, []).append(src_lane)
    names = list(by_var)
    chosen = b.add("select", tuple(names), tuple(_mask(by_var[v]) for v in names),
                   (SELECT,) * (len(names) - 1))
    return _move(b, chosen, sigma)


def _move_then_pack(b: _Builder, lanes: dict[int, list[Piece]]) -> str:
    """Move every source word to the lanes that need it, then pack in place."""
    positions: dict[tuple[int, int], dict[tuple[int, int, int, int], dict[int, int]]] = {}
    for lane, pieces in lanes.items():
        for lo, width, f, src_lane, reg, slo, swidth in pieces:
            positions.setdefault((lo, width), {}).setdefault((f, reg, slo, swidth), {})[lane] \
                = src_lane
    parts = []
    for (lo, width), sources in sorted(positions.items()):
        common = {(slo, swidth) for _, _, slo, swidth in sources}
        first = _select_then_move(b, sources) if len(common) == 1 else None
        if first is not None:
            parts.append((first,) + next(iter(common)) + (lo, width))
            continue
        made = []
        for (f, reg, slo, swidth), sigma in sources.items():
            word = _move(b, svar(f, reg), sigma)
            if len(common) > 1:  # different bits per lane: bring them to bit 0 first
                word = b.add("pack", (word,), ("", ((slo, swidth, 0, swidth),)), (REPACK,))
            made.append((word, sigma))
        if len(made) == 1:
            value = made[0][0]
        else:
            value = b.add("select", tuple(v for v, _ in made), tuple(_mask(s) for _, s in made),
                          (SELECT,) * (len(made) - 1))
        slo, swidth = (0, next(iter(common))[1]) if len(common) > 1 else next(iter(common))
        parts.append((value, slo, swidth, lo, width))
    return _pack(b, parts)


SWAPS = ("swap32", "swap16", "swap32x", "swap16x")


def _cost(ops: list[Op]) -> int:
    """Instructions of a trial's ops (the two results of one swap: one instruction)."""
    seen = set()
    total = 0
    for op in ops:
        if op.op == "move" and isinstance(op.info, tuple) and op.info[0] in SWAPS:
            key = (op.args, op.info[0])
            if key in seen:
                continue
            seen.add(key)
        total += len(op.issues)
    return total


def _swap2(x: list[tuple[int, int]], y: list[tuple[int, int]], bit: int
           ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The two results of a permlane swap with VDST x and SRC0 y (lanes l and l^bit
    trade: result 0 keeps x where the bit is clear, result 1 keeps y where it is set)."""
    first = [x[ln] if not ln & bit else y[ln ^ bit] for ln in range(len(x))]
    second = [x[ln ^ bit] if not ln & bit else y[ln] for ln in range(len(x))]
    return first, second


def _swap_groups(lanes: dict[int, list[Piece]]) -> dict[_Recipe, dict[int, int]] | None:
    """{recipe of a packed word: {lane: the source lane it reads}}, or None when a lane
    reads several source lanes."""
    groups: dict[_Recipe, dict[int, int]] = {}
    for lane, pieces in lanes.items():
        origins = {p[3] for p in pieces}
        if len(origins) != 1:
            return None
        recipe = tuple((p[2], p[4], p[5], p[6], p[0], p[1]) for p in pieces)
        groups.setdefault(recipe, {})[lane] = origins.pop()
    return groups


def _second_swap(bits: list[int], r: tuple[_Word, _Word],
                 fits: Callable[[_Word], bool]) -> _Swap | None:
    for second in bits:
        for order2 in ((0, 1), (1, 0)):
            r2 = _swap2(r[order2[0]], r[order2[1]], second)
            for index in (0, 1):
                if fits(r2[index]):
                    return (second, order2, index)
    return None


def _network(bits: list[int], start: tuple[_Word, _Word], fits: Callable[[_Word], bool]
             ) -> tuple[_Swap, ...] | None:
    """One swap, or two (the second on the first's two results), either order: the first
    network whose result fits."""
    for first in bits:
        for order in ((0, 1), (1, 0)):
            r = _swap2(start[order[0]], start[order[1]], first)
            for index in (0, 1):
                if fits(r[index]):
                    return ((first, order, index),)
            second = _second_swap(bits, r, fits)
            if second:
                return ((first, order, None), second)
    return None


def _pair_swaps(b: _Builder, lanes: dict[int, list[Piece]]) -> str | None:
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
    words = []
    for recipe in recipes:
        parts = [(svar(f, reg), lo, width, dlo, dwidth)
                 for f, reg, lo, width, dlo, dwidth in recipe]
        words.append(_pack(b, parts))
    values: tuple[str, ...] = (words[0], words[1])
    for bit, order, pick in found:
        kind = f"swap{bit}x"
        mnemonic = b.by_kind[f"swap{bit}"].mnemonic
        args = (values[order[0]], values[order[1]])
        outs = tuple(b.add("move", args, (kind, i), (mnemonic,)) for i in (0, 1))
        if pick is not None:
            return outs[pick]
        values = outs
    return None


def program(moves: list[Move], arch: ArchMoves, wave: int, convert: str,
            pack_issues: tuple[str, ...]) -> tuple[list[Op], list[tuple[str, int]]]:
    """The ops that build every destination register (`d<t>_<reg>`) and the count of
    each instruction they issue (plus one s_waitcnt when any ds_bpermute is used)."""
    ops: list[Op] = []
    shared: dict[tuple[object, ...], str] = {}
    serial = 0
    for (t, reg), lanes in sorted(_pieces(moves).items()):
        trials = []
        for strategy in (_pair_swaps, _pack_then_move, _move_then_pack):
            b = _Builder(arch, wave, convert, pack_issues, shared)
            b.count = serial
            made = strategy(b, lanes)
            if made is not None:
                trials.append((_cost(b.ops), b, made))
        _, best, made = min(trials, key=lambda x: x[0])
        serial = max(serial, max(b.count for _, b, _ in trials))
        target = f"d{t}_{reg}"
        if best.ops and best.ops[-1].out == made:
            best.ops[-1] = best.ops[-1]._replace(out=target)
        else:
            best.add("pack", (made,), ("", ((0, 32, 0, 32),)), (), target)
        for op in best.ops:
            shared.setdefault((op.op, op.args, repr(op.info)), op.out)
        ops += best.ops
    return ops, _issued(ops)


def _issued(ops: list[Op]) -> list[tuple[str, int]]:
    """The count of each instruction `ops` issue (plus one s_waitcnt when any ds_bpermute
    is used), by name."""
    counts: dict[str, int] = {}
    swaps = set()
    for op in ops:
        issues = op.issues
        if op.op == "move" and isinstance(op.info, tuple) and op.info[0] in SWAPS:
            key = (op.args, op.info[0])  # both results of one swap: one instruction
            if key in swaps:
                issues = ()
            swaps.add(key)
        for name in issues:
            counts[name] = counts.get(name, 0) + 1
    gathers = {op.info[1] for op in ops if op.op == "move" and isinstance(op.info, tuple)
               and op.info[0] == "gather"}
    if gathers:
        counts["v_and/v_lshl (lane addresses)"] = len(gathers)
        counts[WAIT] = 1
    return sorted(counts.items())


def total(counts: list[tuple[str, int]]) -> int:
    return sum(n for _, n in counts)
