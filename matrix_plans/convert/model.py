"""The records of a conversion plan, the leaf every module of matrix_plans/convert reads:
slots, moves, the program's word operations, the plan itself, and the shape of the
planner's cache of LDS round trips (Trips); and what every route names alike: a source
register's name, the instructions of a converting pack."""
from __future__ import annotations

from instructions.lane_moves import REPACK, Pack
from instructions.record import Record

CLASSES = ("none", "in-lane", "cross-lane")


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
    op "load": out = the LDS word at byte info + lane * (the bytes of a lane's words);
      info (offset, a lane's bytes) when the lanes' region is not the destination's
      registers (the f32 staging of a wide pack, matrix_plans/convert/wide_route.py);
    op "packw": out (`span` registers, out[k]) = the wide pack of args, one word per
      value: info (conversion key, span, width, builtin) (matrix_plans/convert/wide_route.py).
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
    types: str = ""           # what the conversion does, e.g. "i32 -> u8 (saturated ...)"

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)


# LDS round trips by what they are made of (the planner's slot keys): (ops, counts, LDS
# bytes) or None
Trips = dict[object, tuple[list[Op], list[tuple[str, int]], int] | None]


def svar(fragment: int, reg: int) -> str:
    """The program's name of source register `reg` of fragment `fragment`."""
    return f"s{fragment}_{reg}"


# A field of a packed word: (var, source lo, source width, destination lo, width)
Field = tuple[str, int, int, int, int]


def pack_issues(pack: Pack, parts: list[Field]) -> tuple[str, ...]:
    """The instructions of `pack` converting `parts` into one word (Pack.issues), a paired
    step whose two values are not one register's halves in order repacking them first."""
    unpaired = sum(1 for a, c in zip(parts[::2], parts[1::2])
                   if pack.paired and (a[0] != c[0] or (a[1], c[1]) != (0, 16)))
    return (REPACK,) * unpaired + pack.issues(len(parts))
