"""The register route of a conversion whose pack is wide (issue 20): one instruction
converts a whole group of values into one or more destination registers at once
(fp4 and fp6/bf6: `Pack.span` registers, `Pack.values` values; instructions/lane_moves.py).

The design. A destination lane's registers are a bit stream; group g of a fragment is
its registers g*span .. g*span+span-1, and value p of the group sits at bit
p*width of that stream (a 6-bit value may straddle two registers). The pack's
instruction reads the group's values as 32-bit words, value p from word p, so the
program first brings to every lane, for every position p, the source word holding
the value that lane needs there (the lane moves of layouts/convert_program.py: no
instruction where the lane already holds it), then issues one op `packw` per group:

    Op("packw", "w<n>", (word of value 0, ..., word of value values-1),
       (conversion key, span, width, the Pack's builtin), the Pack's step instructions)

whose result `w<n>` is `span` registers (`w<n>[k]`), renamed into the destination
registers `d<t>_<reg>` without an instruction. Groups whose words are the same are
packed once. There is no LDS route for these: their slots are not byte-aligned.
"""
from __future__ import annotations

from amd_matrix_calculator.instructions.lane_moves import SELECT, ArchMoves, Pack

from .convert_model import Move, Op, svar
from .convert_program import _Builder, _issued, _mask, _move


def _groups(moves: list[Move], pack: Pack
            ) -> dict[tuple[int, int], dict[int, dict[str, dict[int, int]]]]:
    """{(fragment, group): {position: {source word: {lane: source lane}}}}."""
    width = moves[0].to.width
    stream = pack.span * 32
    out: dict[tuple[int, int], dict[int, dict[str, dict[int, int]]]] = {}
    for move in moves:
        to, src = move.to, move.source
        bit = to.reg * 32 + to.lo
        group, position = divmod(bit, stream)
        word = svar(src.fragment, src.reg)
        slots = out.setdefault((to.fragment, group), {}).setdefault(position // width, {})
        slots.setdefault(word, {})[to.lane] = src.lane
    return out


def wide_program(moves: list[Move], arch: ArchMoves, wave: int, convert: str, pack: Pack
                 ) -> tuple[list[Op], list[tuple[str, int]]]:
    """The ops of a wide pack's register route and the count of each instruction."""
    shared: dict[tuple[object, ...], str] = {}
    b = _Builder(arch, wave, convert, pack.mnemonics, shared)
    width = moves[0].to.width
    steps = pack.step * (pack.values // pack.per)
    for (t, group), positions in sorted(_groups(moves, pack).items()):
        words = []
        for p in range(pack.values):
            sources = positions.get(p, {})
            made = [(_move(b, var, sigma), sigma) for var, sigma in sorted(sources.items())]
            if not made:
                words.append("0")
            elif len(made) == 1:
                words.append(made[0][0])
            else:
                words.append(b.add("select", tuple(v for v, _ in made),
                                   tuple(_mask(s) for _, s in made),
                                   (SELECT,) * (len(made) - 1)))
        key = ("packw", tuple(words), repr((convert, pack.span)))
        wide = shared.get(key)
        if wide is None:
            b.count += 1
            wide = f"w{b.count}"
            b.ops.append(Op("packw", wide, tuple(words),
                            (convert, pack.span, width, pack.builtin), steps))
            shared[key] = wide
        for k in range(pack.span):
            b.ops.append(Op("pack", f"d{t}_{group * pack.span + k}", (f"{wide}[{k}]",),
                            ("", ((0, 32, 0, 32),)), ()))
    return b.ops, _issued(b.ops)
