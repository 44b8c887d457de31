"""Linear-layout bases of an operand, as Triton writes them.

A layout is linear over GF(2) when the element a lane's value holds is the XOR of one
basis vector per set bit of the value index (in-dim "register") and of the lane
(in-dim "lane"). The out-dims are dim0 = row and dim1 = column of the matrix (for
multi-block operands dim0 = block, dim1 = row, dim2 = column, as Triton puts a batch
first). Sparse operands are given for the compressed matrix that sits in memory
(layouts.values.stored). The bases are read off the operand's layout value: its right
inverse, (lane, slot) -> element, at lane 2^b and at the slot of value 2^b (a lane's
values are its used slots in order), and then checked against every (register, lane):
any mismatch (a BLGP rotation, lanes without values, a count that is not a power of
two) means there is no linear layout, and `reason` says why (read off the value's
fragment, layouts.fragment).
"""


from __future__ import annotations

from instructions.record import Record

from layouts import Operand
from layouts.algebra import point
from layouts.fragment import Fragment, fragment
from layouts.modifiers import Modifiers
from layouts.values import OperandValue, stored, value


class LinearLayout(Record):
    """`bases` maps in-dim names to lists of out-dim vectors; `out_dims` names them.
    When the layout is not linear, `bases` is None and `reason` says why."""
    in_dims: tuple[str, ...]
    out_dims: tuple[str, ...]
    bases: dict[str, list[list[int]]] | None
    reason: str
    note: str


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


class _Held:
    """What a lane's values hold, off a layout value: `values` the slots in use (value v
    is slot values[v] of every lane), `element(lane, v)` the out-dim vector of the
    element there (None: nothing)."""

    def __init__(self, held: OperandValue) -> None:
        self.domain, self.slots = held.map.domain, held.map.codomain[1]
        self.back = held.map.inverse().table
        self.values = sorted({y % self.slots for y in held.map.table if y >= 0})

    def element(self, lane: int, v: int) -> tuple[int, ...] | None:
        x = self.back[lane * self.slots + self.values[v]]
        if x < 0:
            return None
        row, col, block, _ = point(self.domain, x)
        return (block, row, col) if self.domain[2] > 1 else (row, col)


def _note(frag: Fragment, sparse: bool) -> str:
    """What the dims of a linear layout mean where that is not plain."""
    note = ""
    if frag.bits == 6:
        note = ("register r is value r of the lane; fp6 values are packed 6 bits apart, so "
                "value r sits at bit 6r of the VGPRs, straddling VGPRs for some r")
    if frag.matrix == "K" or (frag.matrix == "A" and sparse):
        note = "dims of the compressed matrix held in memory (see --emit hip)"
    return note


def _refusal(frag: Fragment, mods: Modifiers) -> str:
    """Why the fragment cannot have a linear layout, before its bases are tried ('':
    it may have one)."""
    if frag.lane_source is not None:
        return (f"BLGP {mods.blgp} rotates the B lanes by 16 (lane L reads lane "
                "(L + 16) % 64), which is not linear over GF(2)")
    if frag.guard is not None:
        what = (f"CBSZ {mods.cbsz}/ABID {mods.abid}" if frag.guard[0] == "block"
                else f"BLGP {mods.blgp}")
        return (f"{what} leaves lanes whose values the hardware does not read: a "
                "broadcast has no linear layout over the lanes")
    if not _power_of_two(frag.values):
        return f"a lane holds {frag.values} values, not a power of two"
    for name, extent in zip(("rows", "columns", "blocks"), frag.shape):
        if not _power_of_two(extent):
            return f"the matrix has {extent} {name}, not a power of two"
    if frag.lanes < frag.wave and not any(d.coord == "copy" for d in frag.lane_digits):
        return (f"only lanes {frag.base_lane}-{frag.base_lane + frag.lanes - 1} of the "
                f"wave{frag.wave} hold values")
    return ""


def _xor(got: tuple[int, ...], index: int, bases: list[tuple[int, ...]]) -> tuple[int, ...]:
    """`got` XOR the bases of the set bits of `index`."""
    for b, vec in enumerate(bases):
        if index >> b & 1:
            got = tuple(x ^ y for x, y in zip(got, vec))
    return got


def _mismatch(held: _Held, wave: int, registers: list[tuple[int, ...]],
              lanes: list[tuple[int, ...]], zero: tuple[int, ...]) -> str:
    """The first (lane, value) whose element is not the XOR of the bases ('': none)."""
    for lane in range(wave):
        for v in range(len(held.values)):
            want = held.element(lane, v)
            got = _xor(_xor(zero, v, registers), lane, lanes)
            if want != got:
                return (f"lane {lane} value {v} holds {want}, not the XOR of the "
                        f"bases {got}: the digits are not powers of two apart")
    return ""


def bases_of(operand: Operand) -> LinearLayout:
    """The linear layout of a layouts.Operand, or the reason it has none."""
    frag = fragment(operand)
    blocks = frag.shape[2] > 1
    out_dims = ("dim0", "dim1", "dim2") if blocks else ("dim0", "dim1")
    in_dims = ("register", "lane")
    note = _note(frag, operand.inst.sparse)
    refused = _refusal(frag, operand.mods)
    if refused:
        return LinearLayout(in_dims, out_dims, None, refused, note)
    zero = (0,) * len(out_dims)
    held = _Held(stored(value(operand), frag.bits))
    registers = [held.element(0, 1 << b) or zero
                 for b in range(len(held.values).bit_length() - 1)]
    lanes = [held.element(1 << b, 0) or zero for b in range(frag.wave.bit_length() - 1)]
    refused = _mismatch(held, frag.wave, registers, lanes, zero)
    if refused:
        return LinearLayout(in_dims, out_dims, None, refused, note)
    return LinearLayout(in_dims, out_dims,
                        {"register": [list(b) for b in registers],
                         "lane": [list(b) for b in lanes]}, "", note)


