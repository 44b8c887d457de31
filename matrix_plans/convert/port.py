"""Porting plans: the fragments of one architecture's instruction (NVIDIA's, as a
CUDA kernel indexes them) moved into the same matrix's operand of another architecture's
instruction (AMD's), on the destination architecture, with its lane moves.

The tile rule. The two operands hold the same matrix (A into A, B into B, C or D into C or
D): element (r, c) of the common tile, lcm(rows) x lcm(columns) of the two shapes, is
element (r mod R, c mod C) of fragment (r div R) * (tile columns / C) + (c div C) of a side
whose operand is R x C (fragments numbered row-major over the tile). A destination wave of
64 lanes holds two 32-thread warps (source fragment s sits in warp s mod 2, lanes + 32, as
register set s div 2): the tile is widened along its columns until the source fragments
fill whole waves. The moves are the two layout values composed with the tiling
(planner.composed_moves), the program the conversion planner's; values keep their
bits, so the two types must hold the same values (PORTABLE).
"""
from __future__ import annotations

from math import lcm

from instructions.lane_moves import arch_moves
from layouts import Operand
from layouts.algebra import LayoutMap, blocked
from layouts.core import CalcError, shown

from matrix_plans.convert.model import Plan
from matrix_plans.convert.planner import composed_moves, overall, route_program, tiled

# Types that hold the same values in the same bits (source key -> destination keys).
PORTABLE = {"f16": ("f16",), "bf16": ("bf16",), "f32": ("f32", "xf32"), "f64": ("f64",),
            "tf32": ("f32", "xf32"), "e4m3": ("fp8",), "e5m2": ("bf8",),
            "s8": ("i8", "iu8"), "u8": ("iu8",), "s4": ("iu4",), "u4": ("iu4",),
            "s32": ("i32",)}
SAME_ROLE = {"A": ("A",), "B": ("B",), "C": ("C", "D"), "D": ("C", "D")}


def _type_key(operand: Operand) -> str:
    inst = operand.inst
    return {"A": inst.a_type, "B": inst.b_type, "C": inst.c_type}.get(
        operand.matrix, inst.d_type).key


def port_tile(src: Operand, dst: Operand, warps: int
              ) -> tuple[int, int, list[tuple[int, int, int, int, int, int]]]:
    """(source fragments S, destination fragments T, [(t, row, col, s, i, j)]): element
    (row, col) of destination fragment t is element (i, j) of source fragment s."""
    return tiled(*_tiles(src, dst, warps))


def _tiles(src: Operand, dst: Operand, warps: int) -> tuple[LayoutMap, LayoutMap]:
    """The two sides' fragments tiled row-major over the common tile."""
    (r1, c1, b1), (r2, c2, b2) = src.shape, dst.shape
    if b1 != 1 or b2 != 1:
        raise CalcError(f"{(src if b1 != 1 else dst).inst.name} has several blocks (each a "
                        "product of its own): ports are planned between single-block "
                        "operands")
    rows, cols = lcm(r1, r2), lcm(c1, c2)
    while (rows // r1) * (cols // c1) % warps:
        cols *= 2
    return (blocked((rows // r2, cols // c2), (r2, c2)),
            blocked((rows // r1, cols // c1), (r1, c1)))


def port_plan(src: Operand, dst: Operand, route: str | None = None) -> Plan:
    """Moves and program of the port of `src` into `dst` (same matrix role and values)."""
    if route not in (None, "registers", "lds"):
        raise CalcError(f"the route of a port is registers or lds, not {shown(route)}")
    if dst.matrix not in SAME_ROLE[src.matrix]:
        raise CalcError(f"a port moves a matrix into the same matrix: {src.matrix} of "
                        f"{src.inst.name} goes into {' or '.join(SAME_ROLE[src.matrix])} "
                        f"of {dst.inst.name}, not {dst.matrix}")
    have, want = _type_key(src), _type_key(dst)
    if want not in PORTABLE.get(have, ()):
        raise CalcError(f"{src.matrix} of {src.inst.name} holds {have} values and "
                        f"{dst.matrix} of {dst.inst.name} takes {want}: a port keeps the "
                        f"values' bits, so the types must hold the same values ("
                        + "; ".join(f"{k} -> {', '.join(v)}" for k, v in PORTABLE.items())
                        + ")")
    if dst.wave % src.wave:
        raise CalcError(f"{src.inst.name} runs in {src.wave} lanes: a wave of {dst.wave} "
                        "cannot hold whole groups of them")
    warps = dst.wave // src.wave
    into, held = _tiles(src, dst, warps)
    sources, fragments = held.domain[0], into.domain[0]
    moves = composed_moves(dst, into, src, held, warps=warps, near=True)
    # (the round trip through LDS reads each element from one place: its first)
    once = composed_moves(dst, into, src, held, warps=warps)
    program = route_program(moves, arch_moves(dst.inst.arch), dst.wave, "", None,
                            overall(moves), route, fragments, dst.register_count, stored=once)
    assert program is not None  # (no bound on the instructions)
    ops, counts, chosen, lds_bytes = program
    if chosen == "lds":
        moves = once
    held_sets = -(-sources // warps)
    return Plan(overall(moves), fragments, held_sets, tuple(moves), tuple(ops), tuple(counts),
                dst.wave, src.register_count, dst.register_count, "", chosen, lds_bytes)
