"""An operand's layout as the objects other layout libraries write: a CuTe (thread, value)
-> element layout, Triton's linear-layout bases in Gluon's terms, and the per-lane counts
of a ck_tile warp-gemm attribute block. Pure functions of the engine's lane map (the
fragment's digits, layouts.fragment), each giving the reason where the operand is not
such an object.

CuTe, as CUTLASS writes an MMA atom's ALayout/BLayout/CLayout: (T, V) -> offset, T the
lane, V the value of the lane in increasing (VGPR, bit) order; A (and the index matrix K
and the A scales) give m + k*M, B (and the B scales) n + k*N, C and D m + n*M, and a
block of a multi-block operand adds block * (the block's size), so the blocks are the
outermost mode of the offsets. A lane digit of the fragment is one sub-mode of T (a copy
of the value in other lanes, stride 0), a value digit one sub-mode of V. Sparse operands
are given for the compressed matrix held in memory (see layouts.fragment). Where only an
aligned block of lanes holds values, both exports repeat it in the other lanes (a
stride 0, a zero lane basis), as Triton's own scale layouts do.
"""


from __future__ import annotations

from instructions.record import Record

from layouts import Operand
from layouts import operand as layouts_operand
from layouts.core import BIT, BLOCK, COL, COPY, LANE, ROW
from layouts.fragment import Digit, Fragment, element, fragment
from layouts.linear import bases_of

# A CuTe shape or stride: an int or a tuple of them (nested).
Nested = int | tuple["Nested", ...]

# The matrix dimension that runs fastest in the offset of each matrix (CuTe's atoms:
# A (M x K) m + k*M, B (N x K) n + k*N, C (M x N) m + n*M). The engine's B is K x N (rows
# are k), so its column runs fastest.
_FASTEST = {"A": ROW, "K": ROW, "SA": ROW, "B": COL, "SB": COL, "C": ROW, "D": ROW}
OFFSETS = {"A": "m + k*M", "K": "m + k*M", "SA": "m + kb*M", "B": "n + k*N",
           "SB": "n + kb*N", "C": "m + n*M", "D": "m + n*M"}


class CuteLayout(Record):
    """(T, V) -> offset: `shape` and `stride` as ((thread modes), (value modes)), a mode
    of one sub-mode written as that sub-mode; `extent` the (rows, cols, blocks) of the
    matrix the offsets index (compressed for sparse operands); `offset` how an offset is
    formed (OFFSETS); `reason`: why there is no such layout ('' when there is; when
    there is none, `shape` and `stride` are ()); `note`: which lanes the hardware reads,
    where the layout repeats them in the others (unread_note)."""
    shape: Nested
    stride: Nested
    extent: tuple[int, int, int]
    offset: str
    reason: str
    note: str = ""


def _mode(parts: list[int]) -> Nested:
    """A mode of sub-modes as CuTe writes it: one sub-mode alone, none as 1."""
    if not parts:
        return 1
    return parts[0] if len(parts) == 1 else tuple(parts)


def _refusal(frag: Fragment, operand: Operand) -> str:
    """Why the fragment's lanes are not one thread mode ('' when they are)."""
    mods = operand.mods
    if frag.lane_source is not None:
        return (f"BLGP {mods.blgp} rotates the B lanes (lane L reads lane (L + 16) % 64): "
                "a rotation is not a stride")
    if frag.guard is not None:
        what = (f"CBSZ {mods.cbsz}/ABID {mods.abid} broadcasts one block to others"
                if frag.guard[0] == "block" else f"BLGP {mods.blgp} broadcasts lanes")
        return (f"{what}: lanes whose values the hardware does not read, so lane to "
                "element is not a function of every (thread, value)")
    lanes = sorted(frag.lane_digits, key=lambda d: d.stride)
    reach = 1
    for d in lanes:
        if d.stride != reach:
            return (f"its lanes are not one mode: lane digit of stride {d.stride} where "
                    f"{reach} was next (lanes {frag.base_lane}-"
                    f"{frag.base_lane + frag.lanes - 1} of wave{frag.wave} hold values)")
        reach *= d.size
    if reach != frag.wave and (frag.wave % reach or frag.base_lane % reach):
        return (f"only lanes {frag.base_lane}-{frag.base_lane + reach - 1} of the "
                f"wave{frag.wave} hold values: the other lanes hold no element")
    return ""


def unread_note(frag: Fragment) -> str:
    """What an export says of the lanes that hold nothing ('': every lane holds values):
    it repeats the lanes that do there, as Triton's scale layouts do."""
    if frag.lanes >= frag.wave or any(d.coord == COPY for d in frag.lane_digits):
        return ""
    held = f"{frag.base_lane}-{frag.base_lane + frag.lanes - 1}"
    return (f"only lanes {held} hold values the hardware reads; the layout repeats them "
            f"in the other lanes of the wave{frag.wave} (a stride 0 / a zero lane basis)")


def _strides(frag: Fragment, matrix: str) -> dict[str, int]:
    """Offset per unit of each coordinate (CuTe's conventions, _FASTEST)."""
    rows, cols, _ = frag.shape[0], frag.shape[1], frag.shape[2]
    if _FASTEST[matrix] == ROW:
        return {ROW: 1, COL: rows, BLOCK: rows * cols}
    return {COL: 1, ROW: cols, BLOCK: rows * cols}


def cute_layout(operand: Operand) -> CuteLayout:
    """The operand as a CuTe (T, V) -> offset layout, or the reason it is not one."""
    frag = fragment(operand)
    extent = (int(frag.shape[0]), int(frag.shape[1]), int(frag.shape[2]))
    offset = OFFSETS[operand.matrix] + (" + block*(M*N)" if operand.matrix in ("C", "D")
                                        else " + block*(rows*cols)") * (extent[2] > 1)
    refused = _refusal(frag, operand)
    if refused:
        return CuteLayout((), (), extent, offset, refused)
    unit = _strides(frag, operand.matrix)

    def stride(d: Digit) -> int:
        return 0 if d.coord == COPY else d.weight * unit[d.coord]

    lanes = _coalesced([(d.size, stride(d)) for d in sorted(frag.lane_digits,
                                                             key=lambda d: d.stride)]
                       + [(frag.wave // frag.lanes, 0)] * bool(unread_note(frag)))
    values = _coalesced([(d.size, stride(d)) for d in sorted(
        (d for d in frag.digits if d.dest == BIT), key=lambda d: d.div)])
    shape = (_mode([n for n, _ in lanes]), _mode([n for n, _ in values]))
    strides = (_mode([s for _, s in lanes]), _mode([s for _, s in values]) if values else 0)
    return CuteLayout(shape, strides, extent, offset, "", unread_note(frag))


def _coalesced(modes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(size, stride) sub-modes with each run that continues the one before (stride =
    the previous stride times its size) merged into one, as CuTe's coalesce does."""
    merged: list[tuple[int, int]] = []
    for size, step in modes:
        if merged and step == merged[-1][0] * merged[-1][1] and step:
            merged[-1] = (merged[-1][0] * size, merged[-1][1])
        elif merged and merged[-1][1] == 0 and step == 0:
            merged[-1] = (merged[-1][0] * size, 0)
        else:
            merged.append((size, step))
    return merged


class GluonClass(Record):
    """A named layout of Triton Gluon that gives the operand's map: `parent` the class of
    ttgl.amd (the architecture's trait), its `version`, `instr_shape` (M, N, K),
    `element_bitwidth` of the accumulator (MFMA), and for A and B the DotOperandLayout
    over it (`operand_index` 0 or 1, -1 for the accumulator itself) with `k_width`, the
    K values each lane holds in a run."""
    parent: str
    version: int
    instr_shape: tuple[int, int, int]
    element_bitwidth: int
    operand_index: int
    k_width: int
    scale: str = ""        # a scale operand: the ttgl.amd function that gives its layout
    scale_factor: int = 0  # and the K values one scale covers


class GluonLayout(Record):
    """The operand as Triton's linear layout over the tensor Gluon holds it in: `shape`
    [rows, cols] (or [blocks, rows, cols]); `reg_bases` and `lane_bases` per bit of the
    register index and the lane; `packed`: values per tensor element (2 for fp4, which
    Triton keeps two to a byte along K, else 1); `reason` why there is none ('': there
    is one); `note` a remark on the dims."""
    shape: tuple[int, ...]
    reg_bases: tuple[tuple[int, ...], ...]
    lane_bases: tuple[tuple[int, ...], ...]
    packed: int
    reason: str
    note: str
    named: GluonClass | None = None


def _k_width(bases: tuple[tuple[int, ...], ...], dim: int) -> int:
    """The K values in a run of the lane's registers: 2^(the leading register bases
    that are steps of 1, 2, 4, ... along K)."""
    run = 0
    for b, vec in enumerate(bases):
        if vec != tuple(1 << b if d == dim else 0 for d in range(len(vec))):
            break
        run += 1
    return 1 << run


def _named(operand: Operand, layout: GluonLayout) -> GluonClass | None:
    """The architecture's named Gluon layout for a plain operand (one block, dense,
    A/B/C/D, its elements one to a tensor element, the wave the class is written for);
    scripts/check_exports.py checks with Triton that each gives the same map."""
    inst, matrix = operand.inst, operand.matrix
    parent, version, wave, scale = inst.architecture.gluon
    if not parent or wave != operand.wave or inst.sparse or inst.blocks != 1 \
            or matrix not in ("A", "B", "C", "D", "SA", "SB") or layout.packed != 1 \
            or matrix in ("SA", "SB") and not scale:
        return None
    bitwidth = 64 if inst.out_type.bits == 64 else 32
    shape = (inst.m, inst.n, inst.k)
    if matrix in ("SA", "SB"):  # (the DotOperandLayout of the matrix the scales scale)
        index = 0 if matrix == "SA" else 1
        scaled = gluon_layout(layouts_operand(inst, "AB"[index], operand.mods, operand.wave))
        return GluonClass(parent, version, shape, bitwidth, index,
                          _k_width(scaled.reg_bases, 1 - index), scale,
                          inst.k // layout.shape[1])
    if matrix in ("C", "D"):
        return GluonClass(parent, version, shape, bitwidth, -1, 0)
    index = 0 if matrix == "A" else 1
    return GluonClass(parent, version, shape, bitwidth, index,
                      _k_width(layout.reg_bases, 1 - index))


def _packed_k(operand: Operand) -> int:
    """The dim of the K index in the operand's tensor where Triton packs fp4 two to a
    byte (-1: not packed)."""
    inst, matrix = operand.inst, operand.matrix
    bits = (inst.a_type.bits if matrix == "A" else inst.b_type.bits if matrix == "B" else 0)
    if bits != 4:
        return -1
    return 1 if matrix == "A" else 0  # (A is M x K, B is K x N)


def _padded(frag: Fragment) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]] | None:
    """Linear bases of a fragment whose values sit in an aligned block of the lanes, the
    other lanes repeating them (zero lane bases), or None when its map is not linear."""
    top = frag.base_lane

    def vector(lane: int, v: int) -> tuple[int, ...]:
        row, col, block = element(frag, lane, v) or (0, 0, 0)
        return (block, row, col) if frag.shape[2] > 1 else (row, col)

    zero = vector(top, 0)
    regs = [vector(top, 1 << b) for b in range(frag.values.bit_length() - 1)]
    lanes = [vector(top + (1 << b), 0) if 1 << b < frag.lanes else tuple(0 for _ in zero)
             for b in range(frag.wave.bit_length() - 1)]
    if any(zero) or frag.values & (frag.values - 1):
        return None
    for lane in range(top, top + frag.lanes):
        for v in range(frag.values):
            got = list(zero)
            for index, bases in ((v, regs), (lane, lanes)):
                for b, vec in enumerate(bases):
                    if index >> b & 1:
                        got = [x ^ y for x, y in zip(got, vec)]
            if tuple(got) != vector(lane, v):
                return None
    return regs, lanes


def _swapped(b: tuple[int, ...]) -> tuple[int, ...]:
    """A shape or basis with its last two dims swapped (B's scales as Triton holds them,
    [N, K/scale block])."""
    return (*b[:-2], b[-1], b[-2])


def gluon_layout(operand: Operand) -> GluonLayout:
    """Triton's linear layout of the operand (registers in increasing bit order of the
    lane, as bases_of gives them; B's scales [N, K/scale block], as Triton holds them),
    or the reason there is none."""
    found = bases_of(operand)
    frag = fragment(operand)
    shape = tuple(int(n) for n in frag.shape[:2])
    if frag.shape[2] > 1:
        shape = (int(frag.shape[2]), *shape)
    note = "; ".join(filter(None, (found.note, unread_note(frag))))
    padded = _padded(frag) if found.bases is None and unread_note(frag) and \
        frag.guard is None and frag.lane_source is None and not _refusal(frag, operand) \
        else None
    if found.bases is None and padded is None:
        return GluonLayout(shape, (), (), 1, found.reason, found.note)
    if padded is not None:
        regs, lanes = padded
    else:
        assert found.bases is not None
        regs = [tuple(b) for b in found.bases["register"]]
        lanes = [tuple(b) for b in found.bases["lane"]]
    if operand.matrix == "SB":
        shape, regs, lanes = _swapped(shape), list(map(_swapped, regs)), list(map(_swapped, lanes))
    dim = _packed_k(operand)
    if dim < 0:
        plain = GluonLayout(shape, tuple(regs), tuple(lanes), 1, "", note)
        return plain._replace(named=_named(operand, plain))
    dim += len(shape) - 2
    pair = tuple(1 if d == dim else 0 for d in range(len(shape)))
    if not regs or regs[0] != pair or any(b[dim] % 2 for b in regs[1:] + lanes):
        return GluonLayout(shape, (), (), 2, "its fp4 values are not in pairs of adjacent "
                           "K values, as Triton packs fp4 two to a byte", note)

    def halve(b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(x // 2 if d == dim else x for d, x in enumerate(b))

    packed = tuple(n // 2 if d == dim else n for d, n in enumerate(shape))
    return GluonLayout(packed, tuple(map(halve, regs[1:])), tuple(map(halve, lanes)), 2, "",
                       note)


__all__ = ["CkTile", "CuteLayout", "GluonClass", "GluonLayout", "ck_tile", "cute_layout",
           "gluon_layout"]


class CkTile(Record):
    """The per-lane counts of a ck_tile warp-gemm attribute block (`counts`: (name,
    value) in ck_tile's order), or the reason they do not apply ('': they do); `note`
    where ck_tile's K order differs from the hardware's."""
    counts: tuple[tuple[str, int], ...]
    reason: str
    note: str = ""


def _sizes(frag: Fragment, coord: str, dest: str) -> int:
    total = 1
    for d in frag.digits:
        if d.coord == coord and d.dest == dest:
            total *= d.size
    return total


def _k_digits(frag: Fragment, k: str) -> list[tuple[str, int, int]]:
    """The K digits of an A/B fragment as (dest, size, divisor), by weight: A and B
    hold K alike when these are equal."""
    return [(d.dest, d.size, d.div) for d in sorted((d for d in frag.digits if d.coord == k),
                                                     key=lambda d: d.weight)]


def _lane_major(frag: Fragment, k: str) -> bool:
    """Whether the K index is (lane group) * (K per lane) + value, as ck_tile reads it."""
    order = [dest for dest, _, _ in _k_digits(frag, k)]
    return order == sorted(order, key=lambda dest: dest == LANE)


def _c_split(frag: Fragment) -> tuple[int, int, int] | str:
    """(kCM0PerLane, kCMLane, kCM1PerLane) of the accumulator's M index, read as
    m = cm0 * (kCMLane * kCM1PerLane) + cmlane * kCM1PerLane + cm1, or why not."""
    digits = sorted((d for d in frag.digits if d.coord == ROW), key=lambda d: d.weight)
    groups: list[list[Digit]] = [[], [], []]  # cm1 (bits), cmlane (lanes), cm0 (bits)
    at = 0
    for d in digits:
        want = LANE if at == 1 else BIT
        if d.dest != want:
            at += 1
            if at > 2 or d.dest != (LANE if at == 1 else BIT):
                return "the accumulator's M index is not bits, then lanes, then bits"
        groups[at].append(d)
    cm1, lane, cm0 = (1, 1, 1)
    for d in groups[0]:
        cm1 *= d.size
    for d in groups[1]:
        lane *= d.size
    for d in groups[2]:
        cm0 *= d.size
    return cm0, lane, cm1


def ck_tile(a: Operand, b: Operand, c: Operand) -> CkTile:
    """ck_tile's counts, read off the fragments of A, B and the accumulator: lanes along
    M (A) and N (B), the blocks across lanes (multi-block MFMA), the lane groups along K
    and the K values per lane (A and B alike; a WMMA's kRepeat copies of them across the
    lanes), and the accumulator's lanes along M and N with its M values per lane in two
    runs (kCM0PerLane runs of kCM1PerLane). ck_tile takes K lane-major; where the
    hardware interleaves K, the counts hold for A and B permuted alike along K (which a
    product does not see), and `note` says so."""
    fa, fb, fc = fragment(a), fragment(b), fragment(c)
    wmma = a.inst.kind in ("wmma", "swmmac")
    for frag, name in ((fa, "A"), (fb, "B"), (fc, "the accumulator")):
        if frag.guard is not None or frag.lane_source is not None:
            return CkTile((), f"a modifier moves the lanes of {name}")
    copies = [d.size for f in (fa, fb) for d in f.lane_digits if d.coord == COPY]
    if copies and not wmma:
        return CkTile((), "A and B are copied across lanes")
    if _sizes(fa, ROW, BIT) != 1 or _sizes(fb, COL, BIT) != 1:
        return CkTile((), "A's M (or B's N) index is not wholly in lanes")
    if _k_digits(fa, COL) != _k_digits(fb, ROW):
        what = "A holds the compressed K (sparse)" if a.inst.sparse else \
            "A and B hold K differently"
        return CkTile((), f"{what}: one count per lane does not describe both")
    if _sizes(fc, COL, BIT) != 1:
        return CkTile((), "the accumulator's N index is not wholly in lanes")
    split = _c_split(fc)
    if isinstance(split, str):
        return CkTile((), split)
    cm0, cm_lane, cm1 = split
    k_lane, k_value = _sizes(fa, COL, LANE), _sizes(fa, COL, BIT)
    per_lane = ((("kABK0PerLane", 1), ("kABKLane", k_lane), ("kABK1PerLane", k_value))
                if wmma else (("kABKLane", k_lane), ("kABKPerLane", k_value)))
    repeat = (("kRepeat", max([1, *copies[:1]])),) if wmma else ()
    counts = (("kAMBlock", _sizes(fa, BLOCK, LANE)), ("kBNBlock", _sizes(fb, BLOCK, LANE)),
              *repeat, ("kAMLane", _sizes(fa, ROW, LANE)), ("kBNLane", _sizes(fb, COL, LANE)),
              *per_lane, ("kCMLane", cm_lane), ("kCNLane", _sizes(fc, COL, LANE)),
              ("kCM0PerLane", cm0), ("kCM1PerLane", cm1))
    note = "" if _lane_major(fa, COL) else (
        "the hardware interleaves K between lanes and registers (-R); ck_tile's lane-major "
        "K is a permutation of it, the same for A and B")
    return CkTile(counts, "", note)
