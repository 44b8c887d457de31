"""Preshuffled operands: the permutation of a matrix in global memory that
makes every lane's fragment of an instruction operand one run of contiguous, aligned
loads, read off the layout engine.

The logical matrix is the operand's memory matrix (A: M x K, B: K x N, the scales
SA: M x K/32 and SB: K/32 x N, the sparse index: M x K/4 codes), stored row- or
column-major (`order`); by default K is the contiguous index, as weights are kept.
A block of R x C instruction tiles (a supertile: R along the M/N index, C along K) is
one run of the preshuffled buffer: lane q of the loading lanes finds its bytes of load t
at t * lanes * width + q * width. Within a lane the tiles follow each other with the
M/N tile fastest (tile t = ic * R + ir); where the operand has a selector (the scale
byte OPSEL of CDNA4's v_mfma_scale_*, the scale lane half of gfx1250's scaled WMMA,
the index set of a sparse index), tile t uses selector t % S in register group t // S.

Everything else (the index formula both ways, the reshape/permute chain of the NumPy
function and its inverse, the loads) is derived from the slots: each slot names the
element it receives, so a test checks them against the layout engine.
"""

from __future__ import annotations

from math import lcm

from instructions.model import Instruction
from instructions.modifiers import MODIFIERS, Modifiers
from instructions.record import Record
from layouts import COORDINATES, operand
from layouts.core import CalcError, shown
from layouts.fragment import Fragment, bit_of, element, fragment

WIDTHS = (16, 12, 8, 4, 2, 1)   # bytes one lane's global load can fetch


class Slot(Record):
    """One value a lane receives: `bit` in the lane's loaded bytes (from bit 0 of its
    first load's VGPR), the element at (outer, inner) of the block in storage order,
    its instruction tile, and `offset`, its bit in the block of the buffer."""
    lane: int
    bit: int
    outer: int
    inner: int
    tile: int
    offset: int


class Digit(Record):
    """One digit of the permutation: the storage axis (0 outer, 1 inner) index gains
    `size` values of `step` each, placed at buffer stride `stride` (in units)."""
    axis: int
    step: int
    size: int
    stride: int


class Tile(Record):
    """Tile t of the supertile: its place (row ir along M/N, col ic along K), the
    selector value it is read with, and its first VGPR in the lane's loaded registers."""
    ir: int
    ic: int
    select: int
    vgpr: int


class Preshuffle(Record):
    matrix: str
    wave: int
    bits: int                   # bits of one element
    order: str                  # "row" or "col": the storage order of the memory matrix
    k_inner: bool               # K is the contiguous (inner) storage index
    tile: tuple[int, int]       # (outer, inner) extents of one instruction tile
    supertile: tuple[int, int]  # (R, C): tiles along M/N and along K
    block: tuple[int, int]      # (outer, inner) extents of a supertile
    width: int                  # bytes per load
    loads: int                  # loads per lane
    lanes: tuple[int, ...]      # the loading lanes, in buffer order
    mirrors: tuple[tuple[int, int], ...]  # (lane, lane whose address it loads too)
    selector: str               # the modifier that picks a tile's values ("" for none)
    tiles: tuple[Tile, ...]
    slots: tuple[Slot, ...]
    registers: int              # VGPRs the lane's loads fill

    @property
    def lane_bytes(self) -> int:
        return self.loads * self.width

    @property
    def block_bytes(self) -> int:
        return len(self.lanes) * self.lane_bytes

    @property
    def unit(self) -> int:
        """Bits of the smallest run that both orders keep whole: an element, or the
        bytes holding a whole number of sub-byte elements (fp4: 8, fp6: 24)."""
        return lcm(self.bits, 8) if self.bits < 8 else self.bits


def selector_of(inst: Instruction, matrix: str) -> str:
    """The modifier whose values pick the place of this operand's values in the same
    registers (one per tile of a supertile): read off the modifier table."""
    for spec in MODIFIERS:
        if spec.shapes == (matrix,) and spec.top and inst.takes(spec.name):
            return str(spec.name)
    return ""


def _storage(matrix: str, order: str | None) -> tuple[str, bool]:
    """(order, k_inner): K inner unless the caller asks otherwise."""
    k_col = COORDINATES[matrix][1] == "k"
    if order is None:
        order = "row" if k_col else "col"
    if order not in ("row", "col"):
        raise CalcError(f"storage order {shown(order)}: use row or col")
    return order, (order == "row") == k_col


def plan(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(), wave: int = 64,
         width: int | None = None, supertile: tuple[int, int] = (1, 1),
         order: str | None = None) -> Preshuffle:
    """The preshuffle of `matrix` of `inst` (modifiers and formats applied in `inst` and
    `mods`), each lane loading `width` bytes at a time (None: the widest that divides
    its bytes), for an R x C `supertile` of instruction tiles."""
    if matrix not in ("A", "B", "K", "SA", "SB"):
        raise CalcError(f"--preshuffle {matrix}: only the operands read from memory "
                        "(A, B, the sparse index K, the scales SA and SB) are preshuffled")
    rows_t, cols_t = supertile
    if rows_t < 1 or cols_t < 1 or rows_t * cols_t > 64:
        raise CalcError(f"--supertile {rows_t}x{cols_t}: each side 1 or more, 64 tiles at most")
    order, k_inner = _storage(matrix, order)
    selector = selector_of(inst, matrix)
    if selector and getattr(mods, selector):
        raise CalcError(f"--preshuffle picks {selector} for each tile; leave it out")
    picks = _tiles(inst, matrix, mods, wave, selector, rows_t * cols_t)
    frag0 = picks[0][1]
    shape = frag0.shape
    if shape[2] != 1:
        raise CalcError(f"{inst.name} has {shape[2]} blocks: preshuffles cover "
                        "single-block instructions")
    k_axis = 1 if COORDINATES[matrix][1] == "k" else 0   # memory axis holding K
    mn_ext, k_ext = shape[1 - k_axis], shape[k_axis]
    tile = (mn_ext, k_ext) if k_inner else (k_ext, mn_ext)
    block = ((mn_ext * rows_t, k_ext * cols_t) if k_inner
             else (k_ext * cols_t, mn_ext * rows_t))
    streams = _streams(picks, rows_t, k_axis, k_inner, (mn_ext, k_ext), wave)
    lanes, mirrors, lane_bits = _loaders(streams, frag0.bits, block[0] * block[1])
    if lane_bits % 8:
        raise CalcError(f"each lane holds {lane_bits} bits: not whole bytes")
    width = _width(width, lane_bits // 8)
    slots = []
    per = width * 8
    for q, lane in enumerate(lanes):
        for bit, (outer, inner, t) in sorted(streams[lane].items()):
            offset = (bit // per) * len(lanes) * per + q * per + bit % per
            slots.append(Slot(lane, bit, outer, inner, t, offset))
    registers = (lane_bits + 31) // 32
    tiles = tuple(Tile(t % rows_t, t // rows_t, sel, vgpr)
                  for t, (sel, _, vgpr) in enumerate(picks))
    return Preshuffle(matrix, wave, frag0.bits, order, k_inner, tile, supertile, block,
                      width, lane_bits // 8 // width, tuple(lanes), tuple(mirrors), selector,
                      tiles, tuple(slots), registers)


def _tiles(inst: Instruction, matrix: str, mods: Modifiers, wave: int, selector: str,
           count: int) -> list[tuple[int, Fragment, int]]:
    """(selector value, fragment, first VGPR) of each tile of the supertile."""
    values = 1
    if selector:
        spec = next(s for s in MODIFIERS if s.name == selector)
        values = int(spec.top) + 1
    out = []
    frags: dict[int, Fragment] = {}
    for t in range(count):
        select = t % values
        if select not in frags:
            picked = mods._replace(**{selector: select}) if selector else mods
            frags[select] = fragment(operand(inst, matrix, picked, wave))
        out.append((select, frags[select], (t // values) * frags[select].registers))
    return out


def _streams(picks: list[tuple[int, Fragment, int]], rows_t: int, k_axis: int,
             k_inner: bool, tile_ext: tuple[int, int],
             wave: int) -> dict[int, dict[int, tuple[int, int, int]]]:
    """Per lane, bit -> (outer, inner, tile) of every value it holds (the layout
    engine's fragment of each tile, with the tile's selector, at its VGPRs)."""
    mn_ext, k_ext = tile_ext
    streams: dict[int, dict[int, tuple[int, int, int]]] = {}
    held: dict[int, list[tuple[int, int, int, int]]] = {}   # per fragment: lane, v, mn, k
    for t, (_, frag, vgpr) in enumerate(picks):
        ir, ic = t % rows_t, t // rows_t
        if id(frag) not in held:   # (tiles read with one selector share the fragment)
            held[id(frag)] = [(lane, v, e[1 - k_axis], e[k_axis]) for lane in range(wave)
                              for v in range(frag.values)
                              if (e := element(frag, lane, v)) is not None]
        bits = [bit_of(frag, v) + 32 * vgpr for v in range(frag.values)]
        for lane, v, mn, k in held[id(frag)]:
            mn, k = mn + ir * mn_ext, k + ic * k_ext
            stream = streams.setdefault(lane, {})
            if bits[v] in stream:
                raise CalcError(f"tile {t} would share bit {bits[v]} of lane {lane} with tile "
                                f"{stream[bits[v]][2]}: the operand's selector values cannot "
                                "place this many tiles in its registers")
            stream[bits[v]] = ((mn, k, t) if k_inner else (k, mn, t))
    return streams


def _loaders(streams: dict[int, dict[int, tuple[int, int, int]]], bits: int,
             elements: int) -> tuple[list[int], list[tuple[int, int]], int]:
    """(the loading lanes, (lane, lane it copies) of lanes that hold the same values as an
    earlier one, bits per loading lane); CalcError when lanes do not hold the same
    number of contiguous bits from bit 0 or do not cover the block once."""
    lanes: list[int] = []
    mirrors: list[tuple[int, int]] = []
    seen: dict[tuple[tuple[int, tuple[int, int, int]], ...], int] = {}
    lane_bits = -1
    held: set[tuple[int, int]] = set()
    for lane in sorted(streams):
        stream = tuple(sorted(streams[lane].items()))
        if stream in seen:
            mirrors.append((lane, seen[stream]))
            continue
        seen[stream] = lane
        lanes.append(lane)
        starts = [bit for bit, _ in stream]
        if starts != list(range(0, bits * len(starts), bits)):
            raise CalcError(f"lane {lane}'s values are not contiguous from bit 0 (bits "
                            f"{starts[0]}..{starts[-1] + bits - 1}): no contiguous load "
                            "fills them (a tile that leaves part of its VGPRs empty, without "
                            "a selector of its place, cannot share a load with the next)")
        if lane_bits not in (-1, bits * len(starts)):
            raise CalcError("the lanes hold different numbers of values: no preshuffle "
                            "gives every lane the same loads")
        lane_bits = bits * len(starts)
        for _, (outer, inner, _t) in stream:
            if (outer, inner) in held:
                raise CalcError(f"two lanes hold element ({outer}, {inner}) in different "
                                "places: no single buffer serves both")
            held.add((outer, inner))
    if len(held) != elements:
        raise CalcError(f"the lanes hold {len(held)} of the {elements} elements of the "
                        "block (a modifier reads only part of the operand)")
    return lanes, mirrors, lane_bits


def _width(width: int | None, lane_bytes: int) -> int:
    if width is None:
        return next(w for w in WIDTHS if lane_bytes % w == 0)
    if width not in WIDTHS or lane_bytes % width:
        allowed = ", ".join(str(w) for w in WIDTHS if lane_bytes % w == 0)
        raise CalcError(f"--load-width {width}: each lane loads {lane_bytes} bytes; "
                        f"use {allowed}")
    return width
