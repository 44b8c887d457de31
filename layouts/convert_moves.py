"""The lane moves of the register route of a conversion (issue 20): which of the
architecture's lane moves (instructions/lane_moves.py) serve which lanes (`_fits`), a
cover of every lane of a move by the cheapest parts (`_cover`), and the ops that make
the moved word (`move_value`). layouts/convert_program.py builds the program with them."""
from __future__ import annotations

from amd_matrix_calculator.instructions.lane_moves import SELECT, ArchMoves
from amd_matrix_calculator.instructions.record import TYPE_CHECKING

from .convert_model import Op

if TYPE_CHECKING:
    from collections.abc import Iterable


class Builder:
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


def lane_mask(lanes: Iterable[int]) -> int:
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


def _gather(b: Builder, var: str, kind: str, part: dict[int, int]) -> str:
    """move_value's word of a gather part (half+gather: of the other half's word)."""
    source, table = var, dict(part)
    if kind == "half+gather":
        source = b.add("move", (var,), ("half", None), (b.by_kind["half"].mnemonic,))
        table = {ln: s ^ 32 for ln, s in part.items()}
    sources = tuple(table.get(ln, -1) for ln in range(b.wave))
    return b.add("move", (source,), ("gather", sources), (b.by_kind["gather"].mnemonic,))


def move_value(b: Builder, var: str, sigma: dict[int, int]) -> str:
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
    masks = tuple(lane_mask(lanes) for _, lanes in made)
    return b.add("select", tuple(v for v, _ in made), masks, (SELECT,) * (len(made) - 1))
