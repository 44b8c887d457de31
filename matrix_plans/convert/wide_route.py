"""The routes of a conversion whose pack is wide: one instruction converts a whole group
of values into one or more destination registers at once (fp4 and fp6/bf6: `Pack.span`
registers, `Pack.values` values; instructions/lane_moves.py), in registers
(wide_program) or through LDS (wide_lds).

The design. A destination lane's registers are a bit stream; group g of a fragment is
its registers g*span .. g*span+span-1, and value p of the group sits at bit
p*width of that stream (a 6-bit value may straddle two registers). The pack's
instruction reads the group's values as 32-bit words, value p from word p, so the
program first brings to every lane, for every position p, the source word holding
the value that lane needs there (the lane moves of matrix_plans/convert/moves.py: no
instruction where the lane already holds it), then issues one op `packw` per group:

    Op("packw", "w<n>", (word of value 0, ..., word of value values-1),
       (conversion key, span, width, the Pack's builtin), the Pack's step instructions)

whose result `w<n>` is `span` registers (`w<n>[k]`), renamed into the destination
registers `d<t>_<reg>` without an instruction. Groups whose words are the same are
packed once.

The LDS route (wide_lds): the slots are not byte-aligned, so the values travel
unconverted. Each source lane stores its f32 words at the positions they take in a
lane-major staging copy of the destination's value words
(matrix_plans/convert/lds_route.py's round trip, with one 32-bit "register" per value),
every lane loads its words back, and packs them in place (the same `packw` ops).
"""
from __future__ import annotations

from instructions.lane_moves import ArchMoves, Pack

from matrix_plans.convert.lds_route import lds_program
from matrix_plans.convert.model import Move, Op, Slot, svar
from matrix_plans.convert.moves import Builder, lane_mask, move_value
from matrix_plans.convert.register_route import issued


def _groups(moves: list[Move], pack: Pack
            ) -> dict[tuple[int, int], dict[int, dict[str, dict[int, int]]]]:
    """{(fragment, group): {position: {source word: {lane: source lane}}}}."""
    width, stream = moves[0].to.width, pack.span * 32
    out: dict[tuple[int, int], dict[int, dict[str, dict[int, int]]]] = {}
    for to, _, src, _, _ in moves:
        group, position = divmod(to.reg * 32 + to.lo, stream)
        out.setdefault((to.fragment, group), {}).setdefault(position // width, {}).setdefault(
            svar(src.fragment, src.reg), {})[to.lane] = src.lane
    return out


def wide_program(moves: list[Move], arch: ArchMoves, wave: int, convert: str, pack: Pack
                 ) -> tuple[list[Op], list[tuple[str, int]]]:
    """The ops of a wide pack's register route and the count of each instruction."""
    shared: dict[tuple[object, ...], str] = {}
    b = Builder(arch, wave, convert, pack.mnemonics, shared)
    width = moves[0].to.width
    for (t, group), positions in sorted(_groups(moves, pack).items()):
        words = []
        for p in range(pack.values):
            made = [(move_value(b, var, sigma), lane_mask(sigma))
                    for var, sigma in sorted(positions.get(p, {}).items())]
            words.append(b.select(made) if made else "0")
        key = ("packw", tuple(words), (convert, pack.span))
        wide = shared.get(key)
        if wide is None:
            b.count += 1
            wide = shared[key] = f"w{b.count}"
            b.ops.append(_packw(wide, tuple(words), convert, pack, width))
        b.ops += _renames(wide, t, group, pack.span)
    return b.ops, issued(b.ops)


def _packw(wide: str, words: tuple[str, ...], convert: str, pack: Pack, width: int) -> Op:
    """The wide pack of one group's value words into the `span` registers of `wide`."""
    return Op("packw", wide, words, (convert, pack.span, width, pack.builtin),
              pack.step * (pack.values // pack.per))


def _renames(wide: str, fragment: int, group: int, span: int) -> list[Op]:
    """The registers of `wide` as the destination registers of its group (no instruction)."""
    return [Op("pack", f"d{fragment}_{group * span + k}", (f"{wide}[{k}]",),
               ("", ((0, 32, 0, 32),)), ()) for k in range(span)]


def wide_lds(moves: list[Move], arch: ArchMoves, wave: int, convert: str, pack: Pack,
             fragments: int, registers: int
             ) -> tuple[list[Op], list[tuple[str, int]], int] | None:
    """The round trip through LDS of a wide pack: (ops, counts, LDS bytes per wave)."""
    width = moves[0].to.width
    values = registers * 32 // width       # value words of one destination fragment
    staged = []
    new = tuple.__new__  # (records built directly: a plan has thousands)
    for to, element, src, source, kind in moves:
        fragment, lane, reg, lo, _ = to
        staged.append(new(Move, (new(Slot, (fragment, lane, (reg * 32 + lo) // width, 0, 32)),
                                 element, src, source, kind)))
    trip = lds_program(staged, arch, wave, "", None, fragments, values)
    if trip is None:
        return None
    ops, counts, lds_bytes = trip
    lane_bytes = 4 * fragments * values
    out: list[Op] = []
    for op in ops:
        if op.op == "load":
            op = op._replace(out="u" + op.out[1:], info=(op.info, lane_bytes))
        out.append(op)
    groups = registers // pack.span
    for t in range(fragments):
        for g in range(groups):
            words = tuple(f"u{t}_{g * pack.values + p}" for p in range(pack.values))
            out += [_packw(f"w{t}_{g}", words, convert, pack, width),
                    *_renames(f"w{t}_{g}", t, g, pack.span)]
    total = dict(counts)
    for name in pack.step * (pack.values // pack.per):  # (each packw's)
        total[name] = total.get(name, 0) + fragments * groups
    return out, sorted(total.items()), lds_bytes
