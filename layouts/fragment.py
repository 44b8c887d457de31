"""A lane's fragment read off the operand's layout value (layouts/values.py): which memory
element each value slot of a lane holds, as digit terms of (lane, v), for code emitters
and their tests; a function of the value alone (fragment_of), its modes and its parts.

Every mode of the value (a Factor of the generator's Layout) is one digit. A LANE digit
is `(lane / stride) % size`; the BIT digits, sorted by stride, number the values of one
lane (`v`, the loop index of the emitted code): digit i is `(v / P_i) % size_i` with P_i
the product of the sizes of the BIT digits below it, and it moves the value `stride_i`
bits. A coordinate (row, col, block) is the sum of its digits times their weights (the
product of the sizes of the coordinate's earlier digits). So each printed index term is
one digit.

Sparse operands store fewer values than the matrix has: a NONE digit (four K values
sharing one slot) stands for a compressed coordinate. In memory the compressed matrix
is kept (sparse A: M x K/2, two values of a group of four per slot; the indices K:
M x K/4, one 4-bit code per group), so the NONE digit becomes a BIT digit of
`width / bits` values (2 for A, 1 for K).

A layout whose lanes start above 0 (gfx1250's scales in the upper lane half,
matrix_a_scale/matrix_b_scale = row1) gives `base_lane`: the digits read lane - base_lane.

The modifier maps composed in the value (CBSZ/ABID's block broadcast, BLGP's lane
pattern) become a `guard` (lanes or blocks outside the map's image, which the
hardware does not read, load nothing) and a `lane_source` (the lane whose elements a lane
holds: the map's right inverse); tests/formats/test_hip.py checks both against the
engine, element by element.
"""


from __future__ import annotations

from instructions.model import Instruction
from instructions.record import Record

from layouts import Operand
from layouts.core import BIT, BLOCK, COL, COPY, LANE, NONE, ROW
from layouts.values import OperandValue, value

# A load guard: (coordinate, modulus, value): lanes load only if coordinate % modulus
# == value ("block" under CBSZ/ABID, "lane" under BLGP).
Guard = tuple[str, int, int]

COORDS = (ROW, COL, BLOCK)


class Digit(Record):
    """One digit: `coord` gains `weight * d` where d = (var / div) % size; var is the
    lane (dest LANE) or the value index v (dest BIT); `stride` is lanes or bits per unit."""
    coord: str
    size: int
    dest: str
    stride: int
    weight: int
    div: int


class Fragment(Record):
    """The values one lane holds of an operand, as digits (see the module text)."""
    matrix: str
    wave: int
    bits: int              # bits of one value in memory and in the register
    values: int            # values per lane (v = 0 .. values-1)
    registers: int         # VGPRs of the operand
    base_bit: int          # bit offset of v = 0 (OPSEL / index set)
    shape: tuple[int, ...]  # (rows, cols, blocks) of the matrix in memory (compressed)
    digits: tuple[Digit, ...]  # every Digit that moves a coordinate or a bit
    lane_digits: tuple[Digit, ...]  # LANE digits (COPY included: they replicate, move nothing)
    lanes: int             # lanes that hold values (lane < lanes), before copies
    guard: Guard | None    # load only if coord % modulus == value (Guard)
    lane_source: str | None  # BLGP: name of the lane remap (formats.hip spells it)
    base_lane: int = 0     # the values sit in lanes base_lane .. base_lane + lanes - 1


def value_bits(inst: Instruction, matrix: str) -> int:
    """Bits of one element of `matrix` as it sits in memory."""
    if matrix == "A":
        return int(inst.a_type.bits)
    if matrix == "B":
        return int(inst.b_type.bits)
    if matrix == "K":
        return 4
    if matrix in ("SA", "SB"):
        return 8
    return int((inst.c_type if matrix == "C" else inst.out_type).bits)  # (bf16f32: f32 C)


def _guards(held: OperandValue) -> tuple[Guard | None, str | None]:
    """(guard, lane_source) read off the value's modifier maps: under CBSZ/ABID only
    the blocks in the image of the block map are loaded; under BLGP only the lanes in
    the image of the lane map, each with the elements of the lane that reads it (its
    right inverse, a lane that reads itself first): a rotation where that is not the
    lane itself."""
    guard: Guard | None = None
    lane_source: str | None = None
    if held.block_map is not None:
        read = sorted(held.block_map.image())
        guard = ("block", read[1] - read[0] if len(read) > 1 else held.map.domain[2], read[0])
    lanes = held.lane_map
    if lanes is not None:
        back, read = lanes.inverse().table, sorted(lanes.image())
        if len(read) < len(lanes.table):  # (an aligned group of lanes)
            guard = ("lane", len(read), read[0] // len(read))
        if any(lanes.table[x] != x and back[x] != x for x in read):
            lane_source = f"rotate{back[0] % len(back)}"
    return guard, lane_source


def fragment(operand: Operand) -> Fragment:
    """The Fragment of a layouts.Operand: of its layout value (fragment_of)."""
    return fragment_of(value(operand), operand.matrix,
                       value_bits(operand.inst, operand.matrix), operand.register_count)


def fragment_of(held: OperandValue, matrix: str, bits: int, registers: int) -> Fragment:
    """The Fragment of a layout value: its modes as digits, its modifier maps as guards;
    `bits` are an element's bits in memory, `registers` the operand's VGPRs."""
    sub = held.width // bits
    rows, cols, blocks, _ = held.map.domain
    shape = [rows, cols, blocks]
    weights = {ROW: 1, COL: 1, BLOCK: 1}
    digits = []
    lane_digits = []
    for f in held.modes:
        if f.coord == COPY:
            lane_digits.append(Digit(COPY, f.size, LANE, f.stride, 0, f.stride))
            continue
        size, dest, stride = f.size, f.dest, f.stride
        if dest == NONE:  # compressed: `sub` values share the slot of the group
            if weights[f.coord] != 1:
                raise ValueError("a NONE digit must be the lowest digit of its coordinate")
            at = COORDS.index(f.coord)
            shape[at] = shape[at] * sub // size
            size, dest, stride = sub, BIT, bits
        d = Digit(f.coord, size, dest, stride, weights[f.coord], 1)
        weights[f.coord] *= size
        if size == 1:
            continue
        digits.append(d)
        if dest == LANE:
            lane_digits.append(d)
    # v numbers the BIT digits by increasing stride.
    bit_digits = sorted((d for d in digits if d.dest == BIT), key=lambda d: d.stride)
    div = 1
    placed = {}
    for d in bit_digits:
        placed[id(d)] = d._replace(div=div)
        div *= d.size
    digits = [placed.get(id(d), d if d.dest != LANE else d._replace(div=d.stride))
              for d in digits]
    lane_digits = [d if d.dest != LANE or d.coord == COPY else d._replace(div=d.stride)
                   for d in lane_digits]
    lanes = max([1] + [d.stride * d.size for d in lane_digits if d.coord != COPY])
    guard, lane_source = _guards(held)
    return Fragment(matrix, held.map.codomain[0], bits, div, registers, held.shift,
                    tuple(shape), tuple(digits), tuple(lane_digits), lanes, guard,
                    lane_source, held.base_lane)


def digit_value(d: Digit, lane: int, v: int) -> int:
    var = lane if d.dest == LANE else v
    return int((var // d.div) % d.size)


def coordinate(frag: Fragment, coord: str, lane: int, v: int) -> int:
    return sum(digit_value(d, lane, v) * d.weight for d in frag.digits if d.coord == coord)


def bit_of(frag: Fragment, v: int) -> int:
    """Bit offset (from bit 0 of the operand's first VGPR) of value v."""
    return frag.base_bit + sum(digit_value(d, 0, v) * d.stride
                               for d in frag.digits if d.dest == BIT)


def source_lane(frag: Fragment, lane: int) -> int:
    """The lane the digits read for `lane` (BLGP rotation, base lane)."""
    if frag.lane_source == "rotate48":
        return (lane + 48) % 64
    return lane - frag.base_lane


def guarded(frag: Fragment, lane: int, v: int) -> bool:
    """True when the lane's value v is loaded (not skipped by a modifier's guard)."""
    if frag.guard is None:
        return True
    what, modulus, value = frag.guard[0], frag.guard[1], frag.guard[2]
    if what == "block":
        return bool(coordinate(frag, BLOCK, lane, v) % modulus == value)
    return bool((lane // modulus) % (64 // modulus) == value)


def element(frag: Fragment, lane: int, v: int) -> tuple[int, int, int] | None:
    """(row, col, block) in memory (compressed for sparse operands) of the lane's value
    v, or None when the lane holds nothing there. The same sums the emitted code makes."""
    if not frag.base_lane <= lane < frag.base_lane + frag.lanes and \
            not any(d.coord == COPY for d in frag.lane_digits):
        return None
    if not guarded(frag, lane, v):
        return None
    src = source_lane(frag, lane)
    row, col, block = (coordinate(frag, c, src, v) for c in COORDS)
    return row, col, block
