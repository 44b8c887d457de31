"""Conversions between instructions: the D (or C) fragments of one matrix instruction
moved into the A or B fragments of the next, planned from the two layouts.

The tile rule. D (M x N) feeds A (M x K) along N: A[i][k] of destination fragment t is
D[i][j] of source fragment s where t*K + k = s*N + j; it feeds B (K x N) along M:
B[k][j] of fragment t is D[i][j] of fragment s where t*K + k = s*M + i. The fragment
counts are the smallest that cover one common tile (lcm(N, K) or lcm(M, K) wide).
With `transposed`, the source instruction computed D^T = B^T A^T (its operands swapped),
so its registers hold D[j][i] where they would hold D[i][j].

The plan has two parts, both read off the layouts given (never a layout of its own):
  - the moves: the tile rule is two tilings (layouts.algebra.blocked) of the fragments
    onto the common tile, and every slot of every destination fragment receives the
    source place of its element, the source's layout value (layouts/values.py) composed
    after the source tiling's inverse after the destination tiling (composed_moves);
    each move is classed off that pair of places: `none` (same fragment, lane,
    register and bits), `in-lane` (same lane) or `cross-lane`;
  - the program: a straight-line list of word operations (`Op`) that builds every
    destination register from the source registers with the architecture's
    instructions (instructions/lane_moves.py): packs (type conversion or in-lane
    repacking), lane moves (permlane swaps, permlane16/x16/64, ds_bpermute) and
    per-lane selections; each op names the instructions it issues, so the count is
    the sum. formats/hip/convert.py renders the same program as HIP.

The register program is matrix_plans/convert/register_route.py (over the strategies of
matrix_plans/convert/strategies.py), the LDS round trip matrix_plans/convert/lds_route.py,
both for a wide pack matrix_plans/convert/wide_route.py; a cross-lane plan takes the one
with fewer instructions, an s_waitcnt weighed as three (route_program, register_route.weight).
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from math import lcm

from instructions.lane_moves import WAIT_COST, ArchMoves, Pack, arch_moves
from instructions.model import Instruction
from layouts import Operand
from layouts.algebra import LayoutMap, blocked
from layouts.core import CalcError, shown
from layouts.values import value

from matrix_plans.convert.lds_route import lds_program
from matrix_plans.convert.model import CLASSES, Move, Op, Plan, Slot, Trips
from matrix_plans.convert.register_route import bounded_program, total, weight
from matrix_plans.convert.wide_route import wide_lds, wide_program

__all__ = ["CLASSES", "CONVERTS", "SAME", "Move", "Op", "Plan", "Slot", "Trips", "overall",
           "plan", "plan_within", "slot_moves", "tile"]

# Source types that convert into narrower operand types with a Pack (`Pack.to`), on
# the architectures whose records (instructions/lane_moves.py) have that Pack.
CONVERTS = {"f32": ("f16", "bf16", "fp8", "bf8", "fp8_fnuz", "bf8_fnuz", "fp6", "bf6", "fp4",
                    "f4"),
            "f16": ("fp8", "bf8"), "bf16": ("fp8", "bf8"),
            "i32": ("i8", "iu8", "iu4")}
SAME = {("f32", "xf32")}  # different names, the same 32-bit values
# The Pack kind an operand type needs (fp8 covers fp8_fnuz); iu8/iu4 are signed or
# unsigned by the destination's modifiers (see _signed).
_TARGETS = {"fp8_fnuz": "fp8", "bf8_fnuz": "bf8", "f4": "fp4", "iu8": "8", "iu4": "4"}


# ---- the tile rule


def _dims(operand: Operand) -> tuple[int, int]:
    rows, cols, blocks = operand.shape
    if blocks != 1:
        raise CalcError(f"{operand.inst.name} has {blocks} blocks; conversions are planned "
                        "between single-block instructions (each block is a product of its "
                        "own, and which block feeds which is the kernel's choice)")
    return rows, cols


def _rule(src: Operand, dst: Operand, transposed: bool
          ) -> tuple[int, tuple[int, int], tuple[int, int], int]:
    """(the destination's K axis, D's dims, the destination's dims, the common width)
    of tile(), its checks made."""
    m, n = _dims(src)
    if transposed and m != n:
        raise CalcError(f"{src.inst.name} computes a {m} x {n} D; its transpose D^T is "
                        f"{n} x {m}, another tile")
    have, want = (m, n), _dims(dst)
    axis = 1 if dst.matrix == "A" else 0        # the destination's K axis
    fixed = 1 - axis
    if have[fixed] != want[fixed]:
        kept, along, word = ("M", "N", "rows") if axis else ("N", "M", "columns")
        raise CalcError(f"D of {src.inst.name} has {kept} = {have[fixed]} {word} but "
                        f"{dst.matrix} of {dst.inst.name} has {kept} = {want[fixed]}: D "
                        f"feeds {dst.matrix} along {along}, so the {kept} dimensions must "
                        "agree")
    return axis, have, want, lcm(have[axis], want[axis])


def tile(src: Operand, dst: Operand, transposed: bool = False
         ) -> tuple[int, int, list[tuple[int, int, int, int, int, int]]]:
    """(source fragments S, destination fragments T, [(t, row, col, s, i, j)]): the
    destination element (row, col) of fragment t is D[i][j] of source fragment s.

    One rule for both operands: the destination's K axis (A: its columns, B: its rows)
    runs along the same axis of D (N for A, M for B); the other axis must agree."""
    return tiled(*_tiles(src, dst, transposed))


def _tiles(src: Operand, dst: Operand, transposed: bool) -> tuple[LayoutMap, LayoutMap]:
    """The tile rule as two maps onto the common tile: (t, row, col) of the destination
    fragments and (s, i, j) of the source fragments, stacked along the K axis."""
    axis, have, want, width = _rule(src, dst, transposed)
    grid = (1, width // want[1]) if axis else (width // want[0], 1)
    held = (1, width // have[1]) if axis else (width // have[0], 1)
    return blocked(grid, want), blocked(held, have)


def tiled(into: LayoutMap, held: LayoutMap
          ) -> tuple[int, int, list[tuple[int, int, int, int, int, int]]]:
    """(S, T, [(t, row, col, s, i, j)]) of two tilings (into: T destination fragments,
    held: S source fragments): held's inverse composed with into."""
    (fragments, rows, cols), (sources, m, n) = into.domain, held.domain
    found = []
    for x, y in enumerate(_composed(into, held)):
        (t, cell), (s, q) = divmod(x, rows * cols), divmod(y, m * n)
        found.append((t, *divmod(cell, cols), s, *divmod(q, n)))
    return sources, fragments, found


# ---- which conversion


def _signed(operand: Operand) -> bool:
    """Whether an iu8/iu4 operand reads signed values: its NEG (RDNA) or neg_lo
    (gfx1250) bit, bit 0 for A and bit 1 for B (0: unsigned)."""
    mods = operand.mods
    bits = mods.neg | mods.neg_lo
    return bool(bits & (1 if operand.matrix == "A" else 2))


def _choose(moves: ArchMoves, src: Instruction, dst: Instruction, matrix: str,
            signed: bool = True) -> tuple[str, Pack | None]:
    """("" or the conversion's key, the Pack) for the types involved. The key is the
    destination type the values become (iu8/iu4 as i8/u8/i4/u4), with the source type
    appended when it is not f32, and `_via_f32` when the pack widens to f32 first."""
    have = src.out_type.key
    want = (dst.a_type if matrix == "A" else dst.b_type).key
    if have == want or (have, want) in SAME:
        return "", None
    if want in CONVERTS.get(have, ()):
        target = _TARGETS.get(want, want)
        if target in ("8", "4"):
            target = ("i" if signed else "u") + target
        for pack in moves.packs:
            if pack.to == target and pack.frm == have:
                key = want if want in ("fp8_fnuz", "bf8_fnuz") else target
                if have not in ("f32", "i32"):  # 16-bit sources name themselves
                    key += f"_{have}" + ("_via_f32" if pack.each and pack.step else "")
                return key, pack
        raise CalcError(f"{src.arch} has no instruction that packs {have} into {want}"
                        f"{'' if target == want else f' ({target})'}")
    allowed = "; ".join(f"{a} -> {', '.join(b)}" for a, b in CONVERTS.items())
    raise CalcError(f"no conversion of {have} values (D of {src.name}) into {want} "
                    f"operands ({matrix} of {dst.name}) is planned ({_why(src, dst, matrix)}); "
                    f"planned are the same type, f32 -> xf32 and {allowed} (where the "
                    "architecture packs them)")


def _why(src: Instruction, dst: Instruction, matrix: str) -> str:
    """What a refused pair of types lacks, in a few words."""
    have, want = src.out_type, dst.a_type if matrix == "A" else dst.b_type
    if have.is_int != want.is_int:
        return "integer and floating-point values: the chain would change number kind"
    if want.bits > have.bits:
        return f"a widening: the {want.key} operand is wider than the {have.key} values"
    if have.bits == want.bits:
        return f"{have.key} and {want.key} are different {have.bits}-bit formats: no " \
               "instruction converts one into the other directly"
    return f"no pack from {have.key} into {want.key} on any architecture"


# ---- the moves


def slot_moves(src: Operand, dst: Operand, transposed: bool = False, converted: bool = False
               ) -> tuple[int, int, list[Move]]:
    """(S, T, the move of every destination slot) for the two operands, in the order of
    tile()'s pairs. `converted`: the values change type, so never stay in their bits (no
    move of class none)."""
    into, held = _tiles(src, dst, transposed)
    return held.domain[0], into.domain[0], composed_moves(
        dst, into, src, held, transposed=transposed, converted=converted)


def composed_moves(dst: Operand, into: LayoutMap, src: Operand, held: LayoutMap, *,
                   transposed: bool = False, warps: int = 1, near: bool = False,
                   converted: bool = False) -> list[Move]:
    """The move of every destination place: the source's layout value (layouts/values.py)
    composed after the source tiling's inverse after the destination tiling (`into`,
    `held`: (fragment, row, col) -> the common tile), read at each place of the
    destination's value, in its order (fragment, row, col, copy). Source fragment s
    sits in warp s % `warps` (lanes shifted by the source's wave), register set s //
    warps. An element the source holds in several lanes comes from its first place, or
    (`near`) from the copy in the destination place's lane where it has one. The class
    of each move is read off the pair of places: none (the same slot, unless
    `converted`), in-lane or cross-lane."""
    targets = _places(dst, into.domain[0], False, 1)
    origins = _places(src, held.domain[0], transposed, warps)
    elements, sources = _cells(*into.domain[1:]), _cells(*held.domain[1:])
    cells, per = len(elements), len(sources)
    new = tuple.__new__  # (records built directly: a plan has thousands)
    out: list[Move] = []
    append = out.append
    for x, y in enumerate(_composed(into, held)):
        copies, element, source = origins[y], elements[x % cells], sources[y % per]
        for to in targets[x]:
            origin = copies[0]
            if near:
                origin = next((o for o in copies if o[1] == to[1]), origin)
            if to[1] != origin[1]:
                kind = "cross-lane"
            elif to == origin and not converted:  # (the same fragment and bits)
                kind = "none"
            else:
                kind = "in-lane"
            append(new(Move, (to, element, origin, source, kind)))
    return out


@lru_cache(maxsize=256)
def _composed(into: LayoutMap, held: LayoutMap) -> tuple[int, ...]:
    """held's inverse after into: the source tile point of each destination one."""
    return held.inverse().compose(into).table


@lru_cache(maxsize=64)
def _cells(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """(row, col) of every element of a rows x cols matrix, row-major."""
    return tuple(divmod(cell, cols) for cell in range(rows * cols))


@lru_cache(maxsize=512)  # (as many as layouts.operand keeps)
def _places(operand: Operand, fragments: int, transposed: bool, warps: int
            ) -> list[tuple[Slot, ...]]:
    """The Slots of every element's copies (OperandValue.copies) in `fragments`
    fragments, fragment f in warp f % warps (lanes shifted by the operand's wave),
    register set f // warps: made once per operand."""
    new, each = tuple.__new__, value(operand).copies(transposed)
    return [tuple(new(Slot, (f // warps, lane + f % warps * operand.wave, *rest))
                  for lane, *rest in copies) for f in range(fragments) for copies in each]


def overall(moves: Iterable[Move]) -> str:
    """The class of a plan: its worst move's."""
    return CLASSES[max(map(CLASSES.index, {m.kind for m in moves}), default=0)]


def plan(src: Operand, dst: Operand, transposed: bool = False, route: str | None = None,
         trips: Trips | None = None) -> Plan:
    """The conversion of `src` (C or D) into `dst` (A or B): moves and program. `route`
    "registers" or "lds" forces that route of a cross-lane plan (None: the cheaper).
    `trips`: a dict kept over the plans of one answer (the plan and its advice's), in
    which plans that move the same slots share their LDS round trip (_slots)."""
    found = plan_within(src, dst, transposed, CLASSES[-1], route, trips=trips)
    assert found is not None
    return found


def plan_within(src: Operand, dst: Operand, transposed: bool = False,
                within: str = "cross-lane", route: str | None = None,
                most: int | None = None, trips: Trips | None = None) -> Plan | None:
    """plan(), or None, before any program is made, when the plan's class is worse than
    `within` (one of CLASSES): the advice of a conversion looks for better plans only.
    With `most`, None too as soon as a plan of class `within` is sure to issue more
    than `most` instructions (the advice keeps one of the same class only in at most
    3/4 of the plan's instructions)."""
    if route not in (None, "registers", "lds"):
        raise CalcError(f"the route of a conversion is registers or lds, not {shown(route)}")
    if src.wave != dst.wave:
        raise CalcError(f"both sides run in one wavefront: wave {src.wave} vs {dst.wave}")
    if src.inst.arch != dst.inst.arch:
        raise CalcError(f"{src.inst.name} is a {src.inst.arch} and {dst.inst.name} a "
                        f"{dst.inst.arch} instruction: a conversion stays on one architecture")
    arch = arch_moves(src.inst.arch)
    convert, pack = _choose(arch, src.inst, dst.inst, dst.matrix, _signed(dst))
    issues = pack.mnemonics if pack else ()
    # (a converted value is never in the same bits)
    sources, fragments, moves = slot_moves(src, dst, transposed, bool(convert))
    kind = overall(moves)
    if CLASSES.index(kind) > CLASSES.index(within):
        return None
    shared = None if trips is None else (
        trips, (_slots(src, dst, transposed), convert, pack, fragments, dst.register_count))
    program = route_program(moves, arch, src.wave, convert, pack, kind, route, fragments,
                            dst.register_count, most if kind == within else None, shared)
    if program is None:
        return None
    ops, counts, chosen, lds_bytes = program
    return Plan(kind, fragments, sources, tuple(moves), tuple(ops), tuple(counts),
                src.wave, src.register_count, dst.register_count, " + ".join(issues),
                chosen, lds_bytes, _types(src.inst, dst, convert, pack))


def _slots(src: Operand, dst: Operand, transposed: bool) -> tuple[object, ...]:
    """What the slots a plan moves are read from, alike for plans that move the same
    slots in another order: the source operand, the destination's places seen as A's
    (B's transposed) and the source's orientation for them. D into A moves what D^T
    into B moves where B's places are A's transposed (and D^T into A what D into B
    does): A's element (r, c) and B's (c, r) receive the same D value. The LDS round
    trip stores each source value at its destination slots in the order of their
    places, whatever the order of the moves, so such plans share one."""
    grid = dst.block_grid()
    if dst.matrix == "B":
        return id(src), tuple(zip(*grid)), not transposed
    return id(src), grid, transposed


def route_program(moves: list[Move], arch: ArchMoves, wave: int, convert: str,
                  pack: Pack | None, kind: str, route: str | None, fragments: int,
                  registers: int, most: int | None = None,
                  shared: tuple[Trips, object] | None = None, stored: list[Move] | None = None
                  ) -> tuple[list[Op], list[tuple[str, int]], str, int] | None:
    """(ops, counts, route, LDS bytes) of a plan: the register route, or the LDS round
    trip of a cross-lane plan where `route` allows it and it weighs less (the register
    route is abandoned as soon as it is sure to weigh more). With `most`, None where the
    register route is abandoned as soon as it is sure to issue more than `most`
    instructions, and the round trip (if any) issues more too: either way the plan
    does. `shared`: (the dict of round trips made for other plans of the answer, this
    plan's key in it); `stored`: the moves the round trip makes, where they are others
    (a port's: each element from its first place)."""
    trip = None
    if kind == "cross-lane" and route != "registers":
        if shared is not None and shared[1] in shared[0]:
            trip = shared[0][shared[1]]
        elif pack is not None and pack.span:
            trip = wide_lds(moves, arch, wave, convert, pack, fragments, registers)
        else:
            trip = lds_program(stored or moves, arch, wave, convert, pack, fragments, registers)
        if shared is not None:
            shared[0][shared[1]] = trip
    found = None  # the register route, unless the LDS round trip is sure to be lighter
    if trip is None or route != "lds":
        above = None if trip is None else weight(trip[1])
        drop = most is not None and (trip is None or total(trip[1]) > most)
        if drop:
            assert most is not None
            # (a register program's weight: its instructions, its one wait (if any)
            # weighed as WAIT_COST)
            limit = most + WAIT_COST - 1
            above = limit if above is None else min(above, limit)
        if pack is not None and pack.span:
            found = wide_program(moves, arch, wave, convert, pack)
        else:
            found = bounded_program(moves, arch, wave, convert,
                                    pack.mnemonics if pack else (), above)
        if found is None and drop:
            return None
    if trip is not None and (found is None or route == "lds"
                             or weight(trip[1]) < weight(found[1])):
        return trip[0], trip[1], "lds", trip[2]
    assert found is not None
    return found[0], found[1], "registers", 0


# How each kind of conversion rounds or saturates (docs/chaining.md says why).
_SEMANTICS = {"i8": "saturated to -128..127", "u8": "saturated to 0..255",
              "i4": "saturated to -8..7", "u4": "saturated to 0..15",
              "fp4": "scale 1.0, round to nearest even", "fp6": "scale 1.0, round to "
              "nearest even", "bf6": "scale 1.0, round to nearest even"}


def _types(src: Instruction, dst: Operand, convert: str, pack: Pack | None) -> str:
    """The Types line of a plan: the types, how values round, the instructions."""
    if not convert or pack is None:
        return ""
    want = (dst.inst.a_type if dst.matrix == "A" else dst.inst.b_type).key
    how = _SEMANTICS.get(pack.to, "round to nearest even")
    per = f"per {pack.span} registers" if pack.span > 1 else "per register"
    return (f"{src.out_type.key} -> {want} ({pack.to if pack.to != want else ''}"
            f"{', ' if pack.to != want else ''}{how}) with {' + '.join(pack.mnemonics)} {per}")
