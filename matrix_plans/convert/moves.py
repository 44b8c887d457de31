"""The lane moves of the register route of a conversion: which of the
architecture's lane moves (instructions/lane_moves.py) serve which lanes (`_fits`), a
cover of every lane of a move by the cheapest parts (`_cover`), the ops that make the
moved word (`move_value`), and the Builder that collects a program's ops.
matrix_plans/convert/strategies.py builds each register with them."""
from __future__ import annotations

from collections.abc import Iterable

from instructions.dpp import CONTROLS, dpp_source
from instructions.lane_moves import SELECT, ArchMoves, LaneMove

from matrix_plans.convert.model import Op


class Builder:
    """Collects the ops of a program; names temporaries."""

    def __init__(self, moves: ArchMoves, wave: int, convert: str,
                 pack_issues: tuple[str, ...], made: dict[tuple[object, ...], str] | None = None
                 ) -> None:
        self.moves, self.wave, self.convert = moves, wave, convert
        self.pack_issues = pack_issues
        # the Pack whose mnemonics these are (None: none)
        self.pack = next((p for p in moves.packs if p.mnemonics == pack_issues), None)
        self.ops: list[Op] = []
        self.count = 0
        self.by_kind = {m.kind: m for m in moves.moves}
        self.weights = {m.mnemonic: m.cost for m in moves.moves}  # (LaneMove.cost)
        # ops of earlier registers by (op, args, info): a value made once is reused
        self.made = made if made is not None else {}
        self.local: dict[tuple[object, ...], str] = {}  # the same for this builder's ops

    def trial(self, made: dict[tuple[object, ...], str], count: int) -> Builder:
        """A new builder of this one's program (a strategy's trial): the values made so
        far (`made`), the temporaries numbered on from `count`."""
        b = object.__new__(Builder)
        b.__dict__.update(self.__dict__, made=made, count=count, ops=[], local={})
        return b

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def add(self, op: str, args: tuple[str, ...], info: object, issues: tuple[str, ...],
            out: str | None = None) -> str:
        key = (op, args, info)  # (every info is a tuple of numbers, names or None)
        if out is None and op != "select":
            found = self.made.get(key) or self.local.get(key)
            if found is not None:
                return found
        name = out or self.temp()
        self.ops.append(tuple.__new__(Op, (op, name, args, info, issues)))
        if out is None:
            self.local[key] = name
        return name

    def select(self, made: list[tuple[str, int]]) -> str:
        """The word holding made[i]'s word in the lanes of its mask (the one word, alone)."""
        if len(made) == 1:
            return made[0][0]
        return self.add("select", tuple(v for v, _ in made), tuple(m for _, m in made),
                        (SELECT,) * (len(made) - 1))


def lane_mask(lanes: Iterable[int]) -> int:
    return sum(map((1).__lshift__, lanes))  # (the sum of 1 << lane, without a generator)


# A part of a move: (kind, detail, {lane: source lane}) that one lane move (or, for
# "id", no move) serves; detail: the row selectors, the DPP control, ...
Part = tuple[str, object, dict[int, int]]


def _vote(sigma: dict[int, int], size: int, flip: int = 0, keep: int = 64
          ) -> tuple[tuple[int, ...], dict[int, int]]:
    """A gather inside groups of `size` lanes that uses one selector per position in
    the group for the whole wave, reading group g ^ flip (within blocks of `keep`
    lanes): (the selectors, the lanes of sigma it serves), by the most common selector
    of each position."""
    votes: dict[int, dict[int, int]] = {}
    for ln, s in sigma.items():
        if s // size == (ln // size) ^ flip and ln // keep == s // keep:
            position = votes.setdefault(ln % size, {})
            position[s % size] = position.get(s % size, 0) + 1
    chosen = [max(v, key=lambda k: v[k]) if (v := votes.get(p)) else 0 for p in range(size)]
    served = {ln: s for ln, s in sigma.items() if s // size == (ln // size) ^ flip
              and ln // keep == s // keep and chosen[ln % size] == s % size}
    return tuple(chosen), served


_INDEX: dict[tuple[str, int], dict[tuple[int, int], list[tuple[str, int]]]] = {}


def _dpp_index(moves: ArchMoves, wave: int) -> dict[tuple[int, int], list[tuple[str, int]]]:
    """{(lane, source lane): the fixed DPP controls (name, value) that move it} of the
    architecture's DPP controls (quad_perm is voted instead, as a row gather)."""
    key = (moves.arch, wave)
    if key not in _INDEX:
        index: dict[tuple[int, int], list[tuple[str, int]]] = {}
        for move in moves.moves:
            for name in move.controls if move.kind == "dpp" else ():
                if name == "quad_perm":
                    continue
                for value in CONTROLS[name].values:
                    for lane in range(wave):
                        src = dpp_source(name, value, lane, wave)
                        if src is not None and src != lane:
                            index.setdefault((lane, src), []).append((name, value))
        _INDEX[key] = index
    return _INDEX[key]


def _candidates(left: dict[int, int], moves: ArchMoves, wave: int) -> list[Part]:
    """One part per lane move that serves some lanes of `left`; in wave64 with
    v_permlane64, also the moves that serve lanes of the other half after it
    ("half+<kind>": two instructions, no wait)."""
    kinds = {m.kind: m for m in moves.moves}
    out = _direct(left, moves, wave, kinds)
    if wave == 64 and "half" in kinds:
        far = {ln: s ^ 32 for ln, s in left.items() if ln // 32 != s // 32 and s != ln ^ 32}
        for kind, detail, served in _direct(far, moves, wave, kinds):
            if kind in ("row", "xrow", "dpp", "dpp8"):
                out.append((f"half+{kind}", detail, {ln: left[ln] for ln in served}))
    return out


def _direct(left: dict[int, int], moves: ArchMoves, wave: int, kinds: dict[str, LaneMove]
            ) -> list[Part]:
    """_candidates of one lane move."""
    out: list[Part] = []
    if wave == 64:
        across = {ln: s for ln, s in left.items() if s == ln ^ 32}
        for kind in ("half", "swap32"):
            if across and kind in kinds:
                out.append((kind, None, across))
    pairs = {ln: s for ln, s in left.items() if s == ln ^ 16}
    if pairs and "swap16" in kinds:
        out.append(("swap16", None, pairs))
    for kind, size, flip, keep in (("row", 16, 0, 64), ("xrow", 16, 1, 32),
                                   ("dpp8", 8, 0, 64)):
        if kind in kinds:
            selectors, served = _vote(left, size, flip, keep)
            if served:
                out.append((kind, selectors, served))
    return out + _dpp_candidates(left, kinds["dpp"].controls if "dpp" in kinds else (),
                                 moves, wave)


def _dpp_candidates(left: dict[int, int], controls: tuple[str, ...], moves: ArchMoves,
                    wave: int) -> list[Part]:
    """The DPP parts: quad_perm voted per position, the fixed control serving most."""
    out: list[Part] = []
    if "quad_perm" in controls:
        selectors, served = _vote(left, 4)
        if served:
            code = sum(x << (2 * k) for k, x in enumerate(selectors))
            out.append(("dpp", ("quad_perm", code), served))
    if controls:
        index = _dpp_index(moves, wave)
        counts: dict[tuple[str, int], int] = {}
        for pair in left.items():
            for control in index.get(pair, ()):
                counts[control] = counts.get(control, 0) + 1
        if counts:
            best = max(counts, key=lambda c: counts[c])
            served = {ln: s for ln, s in left.items() if best in index.get((ln, s), ())}
            out.append(("dpp", best, served))
    return out


def _words(parts: list[Part]) -> int:
    """The words a cover makes (a one-register swap used on both sides: two)."""
    return sum(2 if kind in ("swap32", "swap16")
               and len({ln & int(kind[4:]) > 0 for ln in lanes}) == 2 else 1
               for kind, _, lanes in parts)


def _cost(parts: list[Part], moves: ArchMoves) -> int:
    """The weight of a cover: each part's move (LaneMove.cost; a gather across the
    wave64 halves also a permlane64) and the selects that join the words."""
    kinds = {m.kind: m.cost for m in moves.moves}
    return sum(kinds[k] for kind, _, _ in parts if kind != "id"
               for k in kind.split("+")) + _words(parts) - 1


def _gathers(left: dict[int, int], moves: ArchMoves, wave: int) -> list[Part]:
    """ds_bpermute parts for the lanes left (across the wave64 halves of a gather that
    reaches only its own half: a permlane64 first)."""
    reach = next(m.reach for m in moves.moves if m.kind == "gather")
    near = {ln: s for ln, s in left.items() if reach >= wave or ln // reach == s // reach}
    out: list[Part] = [("gather", None, near)] if near else []
    far = {ln: s for ln, s in left.items() if ln not in near}
    if far:
        out.append(("half+gather", None, far))
    return out


def _cover(sigma: dict[int, int], moves: ArchMoves, wave: int) -> list[Part]:
    """Parts that together serve every lane of sigma, the cheapest found ("id": the
    lanes that already hold their value): lane moves chosen greedily by lanes served
    per cost, the rest gathered, keeping the cheapest point to stop at."""
    ident = {ln: s for ln, s in sigma.items() if ln == s}
    left = {ln: s for ln, s in sigma.items() if ln != s}
    costs = {m.kind: m.cost for m in moves.moves}
    parts: list[Part] = [("id", None, ident)] if ident else []
    best = parts + _gathers(left, moves, wave)
    for _ in range(8):
        options = _candidates(left, moves, wave)
        if not left or not options:
            break
        part = max(options, key=lambda p: len(p[2]) / sum(costs[k] for k in p[0].split("+")))
        parts = parts + [part]
        left = {ln: s for ln, s in left.items() if ln not in part[2]}
        trial = parts + _gathers(left, moves, wave)
        if _cost(trial, moves) < _cost(best, moves):
            best = trial
    return _absorb(best, wave)


def _absorb(parts: list[Part], wave: int) -> list[Part]:
    """A DPP part whose control also leaves the "id" lanes their own value serves them,
    which saves the select between the two."""
    if not parts or parts[0][0] != "id":
        return parts
    ident = parts[0][2]
    for index, (kind, detail, lanes) in enumerate(parts[1:], 1):
        if kind == "dpp" and isinstance(detail, tuple) and all(
                dpp_source(detail[0], detail[1], ln, wave) == ln for ln in ident):
            merged = parts[1:]
            merged[index - 1] = (kind, detail, {**lanes, **ident})
            return merged
    return parts


# A step of move_value: (the lane move's kind, "id" for the lanes that hold their value
# already; its detail; whether a v_permlane64 comes first; the mask of the lanes served).
Step = tuple[str, object, bool, int]
_STEPS: dict[tuple[object, ...], list[Step]] = {}


def _steps(sigma: dict[int, int], moves: ArchMoves, wave: int) -> list[Step]:
    """The steps of move_value for sigma: its cover's parts, each a lane move's op (a
    swap's result per side), made once per distinct sigma."""
    key = (moves.arch, wave, tuple(sorted(sigma.items())))
    found = _STEPS.get(key)
    if found is not None:
        return found
    found = []
    for kind, detail, part in _cover(sigma, moves, wave):
        half = kind.startswith("half+")  # v_permlane64 first: lane l then holds l ^ 32's
        kind = kind.removeprefix("half+")
        if kind in ("swap32", "swap16"):
            bit = int(kind[4:])
            # lanes with the bit set read result 0 (the VDST side), the others result 1
            for index, side in ((0, bit), (1, 0)):
                if lanes := [ln for ln in part if ln & bit == side]:
                    found.append((kind, index, half, lane_mask(lanes)))
        elif kind == "gather":
            table = {ln: s ^ 32 for ln, s in part.items()} if half else part
            found.append((kind, tuple(map(table.get, range(wave), (-1,) * wave)), half,
                          lane_mask(part)))
        else:  # id; row, xrow, dpp, dpp8, half: the detail says what each lane reads
            found.append((kind, detail, half, lane_mask(part)))
    _STEPS[key] = found
    return found


def move_value(b: Builder, var: str, sigma: dict[int, int]) -> str:
    """A word holding, in every lane ln of sigma, `var` of lane sigma[ln]."""
    made: list[tuple[str, int]] = []
    for kind, detail, half, mask in _steps(sigma, b.moves, b.wave):
        if kind == "id":
            made.append((var, mask))
            continue
        source = var
        if half:
            source = b.add("move", (var,), ("half", None), (b.by_kind["half"].mnemonic,))
        made.append((b.add("move", (source,), (kind, detail), (b.by_kind[kind].mnemonic,)),
                     mask))
    return b.select(made)
