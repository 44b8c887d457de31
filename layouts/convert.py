"""Conversions between instructions: the D (or C) fragments of one matrix instruction
moved into the A or B fragments of the next, planned from the two layouts (issue 20).

The tile rule. D (M x N) feeds A (M x K) along N: A[i][k] of destination fragment t is
D[i][j] of source fragment s where t*K + k = s*N + j; it feeds B (K x N) along M:
B[k][j] of fragment t is D[i][j] of fragment s where t*K + k = s*M + i. The fragment
counts are the smallest that cover one common tile (lcm(N, K) or lcm(M, K) wide).
With `transposed`, the source instruction computed D^T = B^T A^T (its operands swapped),
so its registers hold D[j][i] where they would hold D[i][j].

The plan has two parts, both read off the layouts given (never a layout of its own):
  - the moves: for every slot of every destination fragment, the source fragment, lane,
    register and bits of its element, classed `none` (same fragment, lane, register
    and bits), `in-lane` (same lane) or `cross-lane`;
  - the program: a straight-line list of word operations (`Op`) that builds every
    destination register from the source registers with the architecture's
    instructions (instructions/lane_moves.py): packs (type conversion or in-lane
    repacking), lane moves (permlane swaps, permlane16/x16/64, ds_bpermute) and
    per-lane selections; each op names the instructions it issues, so the count is
    the sum. formats/hip_convert.py renders the same program as HIP.

Per destination register the planner compares two strategies and keeps the cheaper:
pack in the source lane, then move the packed word (possible when every piece of the
register comes from one source lane), or move every source word, then pack in place.
"""
from __future__ import annotations

from math import lcm

from amd_matrix_calculator.instructions.lane_moves import (
    LOAD_BITS,
    REPACK,
    SELECT,
    STORE_BITS,
    WAIT,
    ArchMoves,
    arch_moves,
)
from amd_matrix_calculator.instructions.record import TYPE_CHECKING, Record

from .core import CalcError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from amd_matrix_calculator.instructions.model import Instruction

    from . import Operand

    _Word = list[tuple[int, int]]  # per lane: (packed word, source lane) it holds
    _Swap = tuple[int, tuple[int, int], int | None]  # (bit, operand order, result picked)
    _Recipe = tuple[tuple[int, int, int, int, int, int], ...]

CLASSES = ("none", "in-lane", "cross-lane")
# Source types that convert into narrower operand types with a Pack (`Pack.to`).
CONVERTS = {"f32": ("f16", "bf16", "fp8", "bf8", "fp8_fnuz", "bf8_fnuz")}
SAME = {("f32", "xf32")}  # different names, the same 32-bit values


class Slot(Record):
    """Bits lo .. lo+width-1 of register `reg` (counted from the operand's first VGPR)
    of lane `lane` of fragment `fragment`."""
    fragment: int
    lane: int
    reg: int
    lo: int
    width: int

    @property
    def hi(self) -> int:
        return self.lo + self.width - 1


class Move(Record):
    """One destination slot, the element it receives (row, col of the destination
    matrix), the slot of the source that holds it, the source element (row, col of D)
    and the class of the move."""
    to: Slot
    element: tuple[int, int]
    source: Slot
    source_element: tuple[int, int]
    kind: str


class Op(Record):
    """One operation of the program on 32-bit words, in every lane at once.

    op "pack": out = the pieces (var, source lo, width, destination lo) placed in one
      word, converted to `info` (a type key) when it is not "" (else copied bits);
    op "move": out = var `args[0]` read from another lane: `info` is (kind, detail)
      with kind a LaneMove kind: swap32/swap16 (detail: the builtin's result index),
      row/xrow (detail: the 16 lane selectors), half (None), gather (detail: the
      source lane of every lane, -1 where any will do);
    op "select": out = args[i] in the lanes of mask info[i] (the last: every other lane);
    op "store": LDS store of args (one word, or the two of a 64-bit value): info is
      (bits, the byte address of every lane, -1 where the lane stores nothing);
    op "sync": the wave waits for its LDS stores before loading;
    op "load": out = the LDS word at byte info + lane * (the bytes of a lane's words).
    `issues`: the instructions the op issues (an empty tuple: a renaming)."""
    op: str
    out: str
    args: tuple[str, ...]
    info: object
    issues: tuple[str, ...]


class Plan(Record):
    """A planned conversion: `fragments` destination and `source_fragments` source
    fragments, every destination slot's move, the program and its instruction counts."""
    kind: str
    fragments: int
    source_fragments: int
    moves: tuple[Move, ...]
    ops: tuple[Op, ...]
    counts: tuple[tuple[str, int], ...]
    wave: int
    source_registers: int
    registers: int
    conversion: str  # "" or the Pack's mnemonics joined, e.g. "v_cvt_pk_f16_f32"
    route: str = "registers"  # or "lds": a round trip through LDS
    lds_bytes: int = 0        # LDS bytes per wave of an "lds" route

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)


# ---- the tile rule


def _dims(operand: Operand) -> tuple[int, int]:
    rows, cols, blocks = operand.shape
    if blocks != 1:
        raise CalcError(f"{operand.inst.name} has {blocks} blocks; conversions are planned "
                        "between single-block instructions")
    return rows, cols


def _tile_a(src: Operand, dst: Operand, m: int, n: int
            ) -> tuple[int, int, list[tuple[int, int, int, int, int, int]]]:
    """tile() into A: A is M x K; D's N runs along K."""
    rows, cols = _dims(dst)
    if rows != m:
        raise CalcError(f"D of {src.inst.name} has M = {m} rows but A of "
                        f"{dst.inst.name} has M = {rows}: D feeds A along N, so the "
                        "M dimensions must agree")
    pairs = []
    width = lcm(n, cols)
    for t in range(width // cols):
        for r in range(rows):
            for c in range(cols):
                s, j = divmod(t * cols + c, n)
                pairs.append((t, r, c, s, r, j))
    return width // n, width // cols, pairs


def tile(src: Operand, dst: Operand, transposed: bool = False
         ) -> tuple[int, int, list[tuple[int, int, int, int, int, int]]]:
    """(source fragments S, destination fragments T, [(t, row, col, s, i, j)]): the
    destination element (row, col) of fragment t is D[i][j] of source fragment s."""
    m, n = _dims(src)
    if transposed and m != n:
        raise CalcError(f"{src.inst.name} computes a {m} x {n} D; its transpose D^T is "
                        f"{n} x {m}, another tile")
    rows, cols = _dims(dst)
    if dst.matrix == "A":
        return _tile_a(src, dst, m, n)
    pairs = []
    if cols != n:  # B is K x N; D's M runs along K
        raise CalcError(f"D of {src.inst.name} has N = {n} columns but B of "
                        f"{dst.inst.name} has N = {cols}: D feeds B along M, so the N "
                        "dimensions must agree")
    width = lcm(m, rows)
    for t in range(width // rows):
        for r in range(rows):
            for c in range(cols):
                s, i = divmod(t * rows + r, m)
                pairs.append((t, r, c, s, i, c))
    return width // m, width // rows, pairs


# ---- which conversion


def _conversion(moves: ArchMoves, src: Instruction, dst: Instruction, matrix: str
                ) -> tuple[str, tuple[str, ...]]:
    """("" or the destination type key, the Pack's mnemonics) for the types involved."""
    have = src.out_type.key
    want = (dst.a_type if matrix == "A" else dst.b_type).key
    if have == want or (have, want) in SAME:
        return "", ()
    target = want.replace("_fnuz", "")
    if want in CONVERTS.get(have, ()):
        for pack in moves.packs:
            if pack.to == target:
                return want, pack.mnemonics
        raise CalcError(f"{src.arch} has no instruction that packs {have} into {want}")
    allowed = ", ".join(f"{a} -> {b}" for a, bs in CONVERTS.items() for b in bs)
    raise CalcError(f"no conversion of {have} values (D of {src.name}) into {want} "
                    f"operands ({matrix} of {dst.name}) is planned; planned are the same "
                    f"type, f32 -> xf32 and {allowed}")


# ---- the moves


def _slot(fragment: int, place: object) -> Slot:
    return Slot(fragment, place.lane, place.reg, place.lo, place.width)  # type: ignore[attr-defined]


def slot_moves(src: Operand, dst: Operand, transposed: bool = False
               ) -> tuple[int, int, list[Move]]:
    """(S, T, the move of every destination slot) for the two operands."""
    sources, fragments, pairs = tile(src, dst, transposed)
    out = []
    for t, r, c, s, i, j in pairs:
        held = src.places(j, i) if transposed else src.places(i, j)
        if not held:
            raise CalcError(f"no register of {src.inst.name}'s {src.matrix} holds row {i}, "
                            f"column {j}")
        origin = _slot(s, held[0])
        for place in dst.places(r, c):
            to = _slot(t, place)
            if to.lane != origin.lane:
                kind = "cross-lane"
            elif (t, to.reg, to.lo, to.width) == (s, origin.reg, origin.lo, origin.width):
                kind = "none"
            else:
                kind = "in-lane"
            out.append(Move(to, (r, c), origin, (i, j), kind))
    return sources, fragments, out


def overall(moves: Iterable[Move]) -> str:
    """The class of a plan: its worst move's."""
    return CLASSES[max((CLASSES.index(m.kind) for m in moves), default=0)]


# ---- the program

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
        values = 4 if b.convert.startswith(("fp8", "bf8")) else 2
        per = b.pack_issues
        if values == 4 and len(parts) <= 2:
            per = per[:1]
        return per
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


def _svar(fragment: int, reg: int) -> str:
    return f"s{fragment}_{reg}"


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
        parts = [(_svar(f, reg), lo, width, dlo, dwidth)
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
            if chooser.setdefault(src_lane, _svar(f, reg)) != _svar(f, reg):
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
            word = _move(b, _svar(f, reg), sigma)
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
        parts = [(_svar(f, reg), lo, width, dlo, dwidth)
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


def _total(counts: list[tuple[str, int]]) -> int:
    return sum(n for _, n in counts)


class _Item(Record):
    """A store of the LDS route: its 32-bit words (each a list of parts: var, source lo,
    source width, destination lo, destination width), its bits and lane addresses."""
    words: list[list[tuple[str, int, int, int, int]]]
    bits: int
    table: tuple[int, ...]


def _follows(a: _Item, b: _Item) -> bool:
    """b's bytes come right after a's in every lane, and a is aligned to both."""
    size = a.bits // 8
    for x, y in zip(a.table, b.table):
        if (x < 0) != (y < 0):
            return False
        if x >= 0 and (y != x + size or x % (2 * size)):
            return False
    return True


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
                nxt = tuple(x + size if x >= 0 else -1 for x in item.table)
                partner = starts.get((item.bits, nxt))
                if partner is not None and partner not in used and partner != index \
                        and _follows(item, items[partner]):
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


def _lds_pack_issues(parts: list[tuple[str, int, int, int, int]], convert: str,
                     pair: tuple[str, ...], single: tuple[str, ...]) -> tuple[str, ...]:
    """Instructions building one stored register: conversions by pairs of values
    (`pair`; `single` for an odd one), or in-lane repacking."""
    if convert:
        return pair * (len(parts) // 2) + single * (len(parts) % 2)
    if len(parts) == 1:
        return (REPACK,) if parts[0][1] else ()
    return (REPACK,) * (len(parts) - 1)


def _store_tables(moves: list[Move], lane_bytes: int, registers: int
                  ) -> dict[tuple[int, int, int, int], dict[int, list[int]]] | None:
    """{source value (fragment, register, lo, width): {source lane: the LDS bytes it is
    stored at}} of lds_program, or None when a slot is not byte-aligned."""
    tables: dict[tuple[int, int, int, int], dict[int, list[int]]] = {}
    for move in moves:
        to, src = move.to, move.source
        width = to.width
        if width not in STORE_BITS or to.lo % 8:
            return None
        address = to.lane * lane_bytes + (to.fragment * registers + to.reg) * 4 + to.lo // 8
        key = (src.fragment, src.reg, src.lo, src.width)
        tables.setdefault(key, {}).setdefault(src.lane, []).append(address)
    return tables


def _store_items(tables: dict[tuple[int, int, int, int], dict[int, list[int]]], wave: int,
                 convert: str, dbits: int) -> list[_Item]:
    """The stores of lds_program (before merging), one per copy of each source value."""
    items: list[_Item] = []
    for (f, reg, lo, width), by_lane in sorted(tables.items()):
        copies = max(len(a) for a in by_lane.values())
        for c in range(copies):
            table = tuple(by_lane[lane][c] if len(by_lane.get(lane, ())) > c else -1
                          for lane in range(wave))
            if width == 64 and not convert:
                halves = [[(_svar(f, reg), 0, 32, 0, 32)], [(_svar(f, reg + 1), 0, 32, 0, 32)]]
                items.append(_Item(halves, 64, table))
            else:
                items.append(_Item([[(_svar(f, reg), lo, width, 0, dbits)]], dbits, table))
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
                pair: tuple[str, ...], single: tuple[str, ...], fragments: int,
                registers: int
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
    for item in items:
        args = []
        for parts in item.words:
            if not convert and len(parts) == 1 and parts[0][1:3] == (0, 32):
                args.append(parts[0][0])
                continue
            count += 1
            issues = _lds_pack_issues(parts, convert, pair, single)
            ops.append(Op("pack", f"t{count}", tuple(p[0] for p in parts),
                          (convert, tuple(p[1:] for p in parts)), issues))
            args.append(f"t{count}")
        ops.append(Op("store", "", tuple(args), (item.bits, item.table),
                      (arch.lds(item.bits),)))
    ops.append(Op("sync", "", (), None, (WAIT,)))
    ops += _loads(arch, words, registers)
    ops.append(Op("sync", "", (), None, (WAIT,)))
    counts: dict[str, int] = {}
    for op in ops:
        for name in op.issues:
            counts[name] = counts.get(name, 0) + 1
    shapes = set()
    for op in ops:
        if op.op == "store":
            table = op.info[1]  # type: ignore[index]
            first = next(a for a in table if a >= 0)
            shapes.add(tuple(a - first if a >= 0 else -1 for a in table))
    counts["v_and/v_lshl (lane addresses)"] = len(shapes) + 1
    return ops, sorted(counts.items()), wave * lane_bytes


def plan(src: Operand, dst: Operand, transposed: bool = False, route: str | None = None
         ) -> Plan:
    """The conversion of `src` (C or D) into `dst` (A or B): moves and program. `route`
    "registers" or "lds" forces that route of a cross-lane plan (None: the cheaper)."""
    if route not in (None, "registers", "lds"):
        raise CalcError(f"the route of a conversion is registers or lds, not {route!r}")
    if src.wave != dst.wave:
        raise CalcError(f"both sides run in one wavefront: wave {src.wave} vs {dst.wave}")
    if src.inst.arch != dst.inst.arch:
        raise CalcError(f"{src.inst.name} is a {src.inst.arch} and {dst.inst.name} a "
                        f"{dst.inst.arch} instruction: a conversion stays on one architecture")
    arch = arch_moves(src.inst.arch)
    convert, issues = _conversion(arch, src.inst, dst.inst, dst.matrix)
    sources, fragments, moves = slot_moves(src, dst, transposed)
    if convert:  # a converted value is never in the same bits
        moves = [m._replace(kind="in-lane") if m.kind == "none" else m for m in moves]
    ops, counts = program(moves, arch, src.wave, convert, issues)
    kind = overall(moves)
    chosen, lds_bytes = "registers", 0
    if kind == "cross-lane" and route != "registers":
        pack = next((p for p in arch.packs if p.mnemonics == issues), None)
        single = (pack.single or pack.mnemonics[:1]) if pack else ()
        pair = pack.mnemonics[:len(pack.mnemonics) * 2 // pack.values] if pack else ()
        trip = lds_program(moves, arch, src.wave, convert, pair, single, fragments,
                           dst.register_count)
        if trip is not None and (route == "lds" or _total(trip[1]) < _total(counts)):
            ops, counts, lds_bytes = trip
            chosen = "lds"
    return Plan(kind, fragments, sources, tuple(moves), tuple(ops), tuple(counts),
                src.wave, src.register_count, dst.register_count, " + ".join(issues),
                chosen, lds_bytes)
