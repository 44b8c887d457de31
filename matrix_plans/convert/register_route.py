"""The register route of a conversion as a whole: the strategies of
matrix_plans/convert/strategies.py tried for every destination register, the whole program
built with each strategy preferred in turn (the builds that have chosen alike share their
work) and the cheapest kept, and the instructions it issues."""
from __future__ import annotations

from instructions.lane_moves import WAIT, WAIT_COST, ArchMoves

from matrix_plans.convert.model import Move, Op
from matrix_plans.convert.moves import Builder
from matrix_plans.convert.strategies import (
    Piece,
    move_then_pack,
    move_then_perm,
    pack_then_move,
    pair_swaps,
    pieces_of,
    selector_cost,
)

SWAPS = ("swap32", "swap16", "swap32x", "swap16x")


def _cost(ops: list[Op], weight: dict[str, int], paid: set[object] | None = None) -> int:
    """The weight of a trial's ops: their instructions (the two results of one swap:
    one instruction), a lane move weighed at its LaneMove.cost (`weight`, by mnemonic; a
    ds_bpermute: with its lane address and wait)."""
    seen: set[object] = set()
    made: set[object] = set()  # per-lane selectors made here (`paid`: by earlier registers)
    total = 0
    for op in ops:
        if op.op == "move":
            total += sum(weight.get(name, 1) - 1 for name in op.issues)
        elif op.op == "perm" and isinstance(op.info, tuple) and op.info not in made and (
                paid is None or op.info not in paid):
            made.add(op.info)
            total += selector_cost(op.info)
        total += len(_once(op, seen))
    return total


def _once(op: Op, swaps: set[object]) -> tuple[str, ...]:
    """The instructions `op` issues: none for the second result of a two-register
    swap whose instruction `swaps` holds already (it is added there)."""
    if op.op == "move" and isinstance(op.info, tuple) and op.info[0] in SWAPS:
        key = (op.args, op.info[0])
        if key in swaps:
            return ()
        swaps.add(key)
    return op.issues


def bounded_program(moves: list[Move], arch: ArchMoves, wave: int, convert: str,
                    pack_issues: tuple[str, ...], above: int | None = None
                    ) -> tuple[list[Op], list[tuple[str, int]]] | None:
    """The ops that build every destination register (`d<t>_<reg>`) and the count of
    each instruction they issue (plus one s_waitcnt when any ds_bpermute is used).

    Values made for one register are reused by later ones, which the choice per
    register cannot see (a packed word moved once may serve two registers): the whole
    program is built with each strategy preferred in turn, too, and the cheapest kept.
    With `above`, None as soon as every build's program so far weighs more than
    `above` (weight() of its counts; a program only grows, so the whole one would too):
    the planner's LDS round trip then wins without the rest."""
    pieces = sorted(pieces_of(moves).items())
    base = Builder(arch, wave, convert, pack_issues)
    built = _build(pieces, base, above)
    if built is None:
        return None
    costs = {id(ops): _cost(ops, base.weights) for ops in built.values()}
    best = min((built[prefer] for prefer in PREFERRED), key=lambda ops: costs[id(ops)])
    return best, issued(best)


STRATEGIES = (pair_swaps, pack_then_move, move_then_pack, move_then_perm)
PREFERRED = (None, *STRATEGIES)  # the builds: the cheapest per register first


class _Build:
    """One build of the program under way: the builds that preferred strategies have made
    the same choices so far share one (their ops, the values made, the selectors paid
    for and the temporaries' serial number). `floor`: what issued() of its ops would
    weigh, at least (its instructions, a swap's two results once, the lane addresses
    and wait of its gathers, the selectors paid for), `swaps` and `gathers` its keys."""

    def __init__(self, prefers: tuple[object, ...], ops: list[Op],
                 shared: dict[tuple[object, ...], str], paid: set[object], serial: int,
                 floor: int = 0, swaps: set[object] | None = None,
                 gathers: set[object] | None = None) -> None:
        self.prefers, self.ops, self.shared, self.paid = prefers, ops, shared, paid
        self.serial, self.floor = serial, floor
        self.swaps = swaps if swaps is not None else set()
        self.gathers = gathers if gathers is not None else set()

    def copy(self, prefers: tuple[object, ...], serial: int) -> _Build:
        return _Build(prefers, list(self.ops), dict(self.shared), set(self.paid), serial,
                      self.floor, set(self.swaps), set(self.gathers))


def _build(pieces: list[tuple[tuple[int, int], dict[int, list[Piece]]]], base: Builder,
           above: int | None = None) -> dict[object, list[Op]] | None:
    """The program's ops with each strategy of PREFERRED preferred (None: none): each
    register by the preferred strategy where it applies, else the cheapest strategy for
    that register. Builds that have chosen alike so far are one build, which splits
    where their choices part: the strategies are tried once per register and build.
    None once every build weighs more than `above` (bounded_program)."""
    builds = [_Build(PREFERRED, [], {}, set(), 0)]
    for (t, reg), lanes in pieces:
        split = []
        for build in builds:
            trials = []
            for strategy in STRATEGIES:
                b = base.trial(build.shared, build.serial)
                made = strategy(b, lanes)
                if made is not None:
                    trials.append((strategy, _cost(b.ops, base.weights, build.paid), b, made))
            serial = max(build.serial, max(b.count for _, _, b, _ in trials))
            picks: dict[int, list[object]] = {}
            for prefer in build.prefers:
                index = min(range(len(trials)),
                            key=lambda n: (trials[n][0] is not prefer, trials[n][1]))
                picks.setdefault(index, []).append(prefer)
            for number, (index, prefers) in enumerate(picks.items()):
                # the first choice goes on in this build's records, the others in copies
                if number < len(picks) - 1:
                    after = build.copy(tuple(prefers), serial)
                else:
                    after, after.prefers, after.serial = build, tuple(prefers), serial
                chosen, made = trials[index][2], trials[index][3]
                _choose(after, chosen, made, f"d{t}_{reg}")
                split.append(after)
        builds = split
        if above is not None and all(build.floor > above for build in builds):
            return None
    return {prefer: build.ops for build in builds for prefer in build.prefers}


def _choose(build: _Build, chosen: Builder, made: str, target: str) -> None:
    """Add the chosen strategy's ops to the build, the last one writing `target`."""
    if chosen.ops and chosen.ops[-1].out == made:
        chosen.ops[-1] = chosen.ops[-1]._replace(out=target)
    else:
        chosen.add("pack", (made,), ("", ((0, 32, 0, 32),)), (), target)
    floor = build.floor
    for op in chosen.ops:
        build.shared.setdefault((op.op, op.args, op.info), op.out)
        issues = _once(op, build.swaps)
        if op.op == "perm":
            if op.info not in build.paid and isinstance(op.info, tuple):
                floor += selector_cost(op.info)
            build.paid.add(op.info)
        elif op.op == "move" and isinstance(op.info, tuple) and op.info[0] == "gather" \
                and op.info[1] not in build.gathers:
            # its lane addresses, and the one wait of all gathers (weighed as WAIT_COST)
            floor += 1 if build.gathers else 1 + WAIT_COST
            build.gathers.add(op.info[1])
        floor += sum(name != WAIT for name in issues)
    build.floor = floor
    build.ops += chosen.ops


def issued(ops: list[Op]) -> list[tuple[str, int]]:
    """The count of each instruction `ops` issue (plus one s_waitcnt when any ds_bpermute
    is used), by name."""
    counts: dict[str, int] = {}
    swaps: set[object] = set()
    for op in ops:
        for name in _once(op, swaps):
            counts[name] = counts.get(name, 0) + 1
    gathers = {op.info[1] for op in ops if op.op == "move" and isinstance(op.info, tuple)
               and op.info[0] == "gather"}
    if gathers:
        counts["v_and/v_lshl (lane addresses)"] = len(gathers)
        counts[WAIT] = 1
    selectors = sum(selector_cost(table) for table in {
        op.info for op in ops if op.op == "perm" and isinstance(op.info, tuple)})
    if selectors:
        counts["v_mov/v_cndmask (lane selectors)"] = selectors
    return sorted(counts.items())


def total(counts: list[tuple[str, int]]) -> int:
    return sum(n for _, n in counts)


def weight(counts: list[tuple[str, int]]) -> int:
    """What the choice between the register and LDS routes compares: the instructions,
    each s_waitcnt weighed at WAIT_COST (lane_moves.py)."""
    return total(counts) + sum(n for name, n in counts if name == WAIT) * (WAIT_COST - 1)
