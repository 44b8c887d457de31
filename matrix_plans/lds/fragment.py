"""The fragment an LDS plan loads, as the layout engine lays it out: every lane's register
slots over the K steps, their tile positions and addresses (read by
matrix_plans/lds/reads.py), and the lane maps of the transpose loads."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from itertools import repeat
from math import gcd
from operator import add

from layouts import COORDINATES, Operand
from layouts.core import CalcError

from matrix_plans.lds.tile import Tile

LaneMap = Callable[[int, int], tuple[int, int]]


# ---- transpose-load lane maps: (dest lane, dest element) -> (source lane, source element)

def _tr16_gfx950(lane: int, e: int) -> tuple[int, int]:
    # [SEC] rocjitsu PR #10175 and Triton's diagram agree (fact sheet A.3)
    return (lane & ~15) + 4 * e + ((lane >> 2) & 3), lane & 3


def _tr8_gfx1250(lane: int, e: int) -> tuple[int, int]:
    # [SEC] ROCm blog's lane bases (L18), formula [INF] (fact sheet A.3)
    return (16 * ((lane >> 4) & 1) + 8 * ((e >> 2) & 1) + 4 * ((lane >> 3) & 1) + (e & 3),
            lane & 7)


def _tr8_gfx950(lane: int, e: int) -> tuple[int, int]:
    # [INF] the gfx1250 rule in every 16-lane group
    source, elem = _tr8_gfx1250(lane & 31, e)
    return (lane & ~15) + (source & 15), elem


def _tr16_gfx1250(lane: int, e: int) -> tuple[int, int]:
    # [SEC] L18: 8x8 transposes in groups of 8 lanes
    return (lane & ~7) + e, lane & 7


LANE_MAPS: dict[str, LaneMap] = {
    "tr16_gfx950": _tr16_gfx950, "tr8_gfx950": _tr8_gfx950,
    "tr16_gfx1250": _tr16_gfx1250, "tr8_gfx1250": _tr8_gfx1250,
}

# ---- the fragment as the layout engine lays it out

def _placed(operand: Operand) -> list[list[tuple[int, tuple[int, int, int]]]]:
    """Every lane's (bit, (row, col, block)) slots, in bit order (the layout's places in
    bulk, lane by lane)."""
    layout = operand.layout
    placed: list[list[tuple[int, tuple[int, int, int]]]] = [[] for _ in range(operand.wave)]
    for block in range(layout.shape[2]):
        for row, cells in enumerate(layout.block_places(block)):
            for col, places in enumerate(cells):
                for p in places:
                    placed[p.lane].append((p.reg * 32 + p.lo, (row, col, block)))
    for held in placed:
        held.sort()
    return placed


def _restored(placed: list[list[tuple[int, tuple[int, int, int]]]], width: int, bits: int
              ) -> list[list[tuple[int, tuple[int, int, int]]]]:
    """The slots with every element `bits` wide instead of `width` (the registers a lane
    holds after reading a tile of another type, before converting)."""
    if any(bit * bits % width for held in placed for bit, _ in held):
        raise CalcError(f"the tile's {bits}-bit elements cannot stand for the operand's "
                        f"{width}-bit ones slot for slot")
    return [[(bit * bits // width, elem) for bit, elem in held] for held in placed]


def _share(placed: list[list[tuple[int, tuple[int, int, int]]]]) -> int:
    """How many elements a slot holds (those of the first lane's first slot)."""
    for held in placed:
        if held:
            return sum(1 for bit, _ in held if bit == held[0][0])
    return 1


class Fragment:
    """Every lane's register slots over `steps` K steps: slots[lane] = [(bit, element,
    step, (tile row, tile col))], bit counted from the first VGPR of step 0."""

    def __init__(self, operand: Operand, tile: Tile, steps: int, stored_bits: int = 0) -> None:
        """`stored_bits`: the tile stores the elements at this width (--lds-type: a bf16
        tile each lane converts after its read); the slots are the operand's, each as wide
        as a stored element (0: the operand's width)."""
        coords = COORDINATES.get(operand.matrix, ())
        if "k" not in coords:
            raise CalcError(f"an LDS plan loads an input operand (A, B, K, SA or SB), "
                            f"not {operand.matrix}")
        self.operand, self.tile, self.steps = operand, tile, steps
        layout = operand.layout
        width = layout.width
        self.bits = stored_bits or width
        self.k_axis = coords.index("k")  # 0: the layout's rows are K (B, SB); 1: columns
        rows, cols, blocks = layout.shape
        self.k = (rows, cols)[self.k_axis]
        self.mn_per_block = (rows, cols)[1 - self.k_axis]
        self.mn = self.mn_per_block * blocks
        self.registers = operand.register_count
        placed = _placed(operand)
        if self.bits != width:
            placed = _restored(placed, width, self.bits)
            self.registers = -(-self.registers * self.bits // width)
        # A slot holding several elements stores one value: a sparse A slot holds the
        # values kept of `share` = 4 K (the tile holds A compressed), an index slot the
        # index of 4 K; the tile's K column counts slots, k // share.
        self.share = _share(placed)
        if self.share > 1:
            placed = [held[::self.share] for held in placed]
            self.k //= self.share
        # (bit, element, k, mn) of every slot: k in slots (K // share), blocks one after
        # another along M/N
        k_axis, mn_axis, share, per_block = self.k_axis, 1 - self.k_axis, self.share, \
            self.mn_per_block
        lanes = [[(bit, elem, elem[k_axis] // share, elem[2] * per_block + elem[mn_axis])
                  for bit, elem in held] for held in placed]
        self.k_run = self._k_run(lanes)
        self._chunks: dict[int, list[int]] = {}
        self._within: dict[tuple[int, int], list[range]] = {}
        self._chunk: dict[tuple[int, int], tuple[list[int], list[int],
                                                 list[tuple[int, int, int]]]] = {}
        self._addressed: Tile | None = None  # (the tile of _flat, of _addresses)
        self._lane_addressed: Tile | None = None
        self._flat: list[int] = []
        self._addresses: list[list[int]] = []
        step_bits, run, order_k = self.registers * 32, self.k_run, tile.order == "k"
        # every lane's slots as columns (the rows, `slots`, made only when asked for):
        # the slot bits in bit order, the elements of one step (each step's are the
        # same), the tile positions lane after lane, and where each lane's begin
        self._bits: list[list[int]] = []
        self._elements = [[elem for _, elem, _, _ in mine] for mine in lanes]
        self._wheres: list[tuple[int, int]] = []
        self._firsts = [0]
        self._rows: list[list[tuple[int, tuple[int, int, int], int, tuple[int, int]]]] = []
        self._numbers: dict[int, list[int]] = {}  # (step_numbers by slots a step)
        step_one: list[int] | None = None  # (the last lane's first step's bits)
        bits: list[int] = []
        for mine in lanes:  # (the K steps of a lane made a step at a time, in bulk)
            # the tile column of step s: (k // run) * run * steps + s * run + k % run
            columns = [(k // run) * run * steps + k % run for _, _, k, _ in mine]
            mns = [mn for _, _, _, mn in mine]
            for s in range(steps):
                shifted = map(add, columns, repeat(s * run))
                self._wheres += zip(mns, shifted) if order_k else zip(shifted, mns)
            first = [bit for bit, _, _, _ in mine]
            if first != step_one:  # (lanes that hold the same bits share one list of them)
                step_one = first
                bits = [bit + s * step_bits for s in range(steps) for bit in first]
            self._bits.append(bits)
            self._firsts.append(self._firsts[-1] + len(bits))
        # (a step's bits follow the last step's: sorted when the first step's are)
        if any(bits[:len(mine)] != sorted(bits[:len(mine)])
               for bits, mine in zip(self._bits, lanes)):  # (never: the layout sorts them)
            raise AssertionError("a lane's slots are not in bit order")

    @property
    def slots(self) -> list[list[tuple[int, tuple[int, int, int], int, tuple[int, int]]]]:
        """slots[lane] = [(bit, element, step, (tile row, tile col))]: columns() as rows."""
        if not self._rows:
            self._rows = [list(zip(bits, elements * self.steps, steps, wheres))
                          for bits, elements, steps, wheres, _ in self.columns()]
        return self._rows

    def columns(self) -> Iterator[tuple[list[int], list[tuple[int, int, int]], list[int],
                                        list[tuple[int, int]], list[int]]]:
        """Every lane's slots as columns, without a tuple per slot: (their bits, the
        elements of one step (every step's are these, in this order), their steps, tile
        positions and bit addresses in the current tile)."""
        addresses, firsts, wheres = self.addresses(), self._firsts, self._wheres
        for lane, (bits, elements) in enumerate(zip(self._bits, self._elements)):
            yield (bits, elements, self.step_numbers(len(elements)),
                   wheres[firsts[lane]:firsts[lane + 1]], addresses[lane])

    def step_numbers(self, count: int) -> list[int]:
        """The step of each slot of a lane that holds `count` slots a step."""
        found = self._numbers.get(count)
        if found is None:
            found = self._numbers[count] = [s for s in range(self.steps) for _ in range(count)]
        return found

    def chunks(self, width: int) -> list[int]:
        """The loads j of `width` bits whose bits [j*width, (j+1)*width) hold anything."""
        if width not in self._chunks:
            count = self.registers * 32 * self.steps // width
            used = set().union(*self._bits)
            last = self.bits - 1  # (the chunks a slot's bits bit .. bit+last fall in)
            if last < width:  # (at most two: the first bit's and the last bit's)
                found = {bit // width for bit in used}
                found.update([(bit + last) // width for bit in used])
            else:
                found = {j for bit in used for j in range(bit // width, (bit + last) // width + 1)}
            self._chunks[width] = sorted(j for j in found if 0 <= j < count)
        return self._chunks[width]

    def within(self, lo: int, hi: int) -> list[range]:
        """Per lane, the indices of its slots (as `slots` lists them) that hold any of
        the bits lo .. hi-1: a range, as a lane's slots are in bit order."""
        found = self._within.get((lo, hi))
        if found is None:
            after = lo - self.bits  # slots beginning after this bit and before hi
            found = self._within[(lo, hi)] = [
                range(bisect_right(bits, after), bisect_left(bits, hi))
                for bits in self._bits]
        return found

    def chunk(self, lo: int, hi: int) -> tuple[list[int], list[int], list[tuple[int, int, int]]]:
        """The slots holding any of the bits lo .. hi-1, lane after lane: (their indices in
        flat_addresses(), their first bit minus lo, and (lane, first, end) of each lane
        that has any: its part of the two lists)."""
        found = self._chunk.get((lo, hi))
        if found is None:
            indices: list[int] = []
            offsets: list[int] = []
            spans = []
            for lane, (part, bits) in enumerate(zip(self.within(lo, hi), self._bits)):
                if part:
                    first = self._firsts[lane]
                    spans.append((lane, len(indices), len(indices) + len(part)))
                    indices += range(first + part.start, first + part.stop)
                    offsets += [bit - lo for bit in bits[part.start:part.stop]]
            found = self._chunk[(lo, hi)] = (indices, offsets, spans)
        return found

    def _k_run(self, lanes: list[list[tuple[int, tuple[int, int, int], int, int]]]) -> int:
        """The largest kw dividing the start and the length of every run of consecutive
        K values in consecutive slots of a lane (K itself when no lane breaks it)."""
        run, width = 0, self.bits
        for held in lanes:
            start = length = 0
            last_bit = last_k = last_mn = -2
            for bit, _, k, mn in held:
                if bit == last_bit + width and k == last_k + 1 and mn == last_mn:
                    length += 1
                else:
                    if length:
                        run = gcd(run, gcd(start, length))
                    start, length = k, 1
                last_bit, last_k, last_mn = bit, k, mn
            if length:
                run = gcd(run, gcd(start, length))
        return run or self.k

    def addresses(self) -> list[list[int]]:
        """The bit address of every slot (as `slots` lists them) in the current tile."""
        if self._lane_addressed is not self.tile:
            flat, firsts = self.flat_addresses(), self._firsts
            self._addresses = [flat[firsts[lane]:firsts[lane + 1]]
                               for lane in range(len(self._bits))]
            self._lane_addressed = self.tile
        return self._addresses

    def flat_addresses(self) -> list[int]:
        """The bit address of every slot in the current tile, lane after lane."""
        tile = self.tile
        if self._addressed is not tile:
            start, bits, stride = tile.base * 8, self.bits, tile.cols + tile.pad
            if tile.xor:
                at = tile.bit_offset
                self._flat = [start + at(r, c, bits) for r, c in self._wheres]
            elif tile.swizzle:  # (Tile.offset, inlined: a search asks for every slot)
                vec, per_phase, max_phase = tile.swizzle
                self._flat = [
                    start + (r * stride + ((c // vec) ^ ((r // per_phase) % max_phase)) * vec
                             + c % vec) * bits for r, c in self._wheres]
            else:
                self._flat = [start + (r * stride + c) * bits for r, c in self._wheres]
            self._addressed = tile
        return self._flat
