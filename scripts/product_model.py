"""An independent host model of the gfx1250 / gfx1251 WMMA, scaled WMMA and SWMMAC
arithmetic, for scripts/check_products.py: it takes the raw register contents of every
lane (A, B, C, the sparse index, the scales) and computes D's registers.

It does not read the calculator's layouts. Each operand's placement is written out here
from the sources' own statements of the operation (the formulas as each source writes
them; docs/gfx1250.md names them):
  * C/D, 16 x 16: D[i][j] in VGPR i mod 8 (32-bit; 16-bit: VGPR (i mod 8)/2, half
    i mod 2; 64-bit: the VGPR pair 2*(i mod 8)) of lane 16*floor(i/8) + j (FlyDSL,
    Triton, the CDNA5 ISA quoted by fact sheet S19); a 32-row C/D holds rows 16q.. in
    VGPRs 8q.. (aiter's epilogue);
  * dense A/B: lane mn + 16*g; the tables the fact sheet quotes (S19) and
    composable_kernel's NumAccess split: fp8/bf8/iu8 k = 32*floor(e/16) + 16*g + e mod 16
    for byte e, 16-bit k = 16*floor(e/8) + 8*g + e mod 8, fp6 k = 64*s + 32*g + i,
    fp4 k = 64*floor(e/32) + 32*g + e mod 32, f32/f64 k = 2*g + value (FlyDSL);
  * SWMMAC (composable_kernel's sparse specialisations and sparse_transforms.hpp): lane
    half g of A holds the stored pairs of dense K K/2*g .. K/2*g + K/2 - 1 in order, the
    index holds a 2-bit position per stored value at bit 2*s of the lane's operand (a
    32-bit VGPR, the 8-bit forms a 64-bit pair), B's lane half g holds those K/2 dense K
    contiguously; index_key 1 reads the operand's upper half as the first entries
    (rocjitsu read_swmmac_index_set; LLVM 22 selects it for index >> 16 / >> 32), the
    later entries read 0;
  * scales: one byte per K block (32 K; scale16: 16 K, a 64-bit operand) of row / column
    mn in lane mn + 16*matrix_*_scale (32-row A scale: lane = row);
  * v_swmmac_bf16f32: C is 8 VGPRs of f32, D is bf16 packed into the first 4 (the decision of
    docs/gfx1250.md), the other 4 keep C.
Arithmetic: exact (the check places small integers), D rounded once to its format
(round to nearest even).
"""
from __future__ import annotations

import struct
from collections.abc import Sequence

WAVE = 32
Regs = list[list[int]]  # [register][lane] of 32-bit words


# ---- number formats (raw bits <-> value)

MINI = {"fp8": (4, 3, 7), "bf8": (5, 2, 15), "fp6": (2, 3, 1), "bf6": (3, 2, 3),
        "fp4": (2, 1, 1)}  # exponent bits, mantissa bits, bias (OCP: no inf/NaN in range)
BITS = {"f4": 4, "f64": 64, "f32": 32, "i32": 32, "f16": 16, "bf16": 16, "fp8": 8, "bf8": 8,
        "iu8": 8, "fp6": 6, "bf6": 6, "fp4": 4}


ALIASES = {"f4": "fp4", "f6": "fp6", "f8": "fp8", "i8": "iu8"}


def _mini(raw: int, fmt: str) -> float:
    e_bits, m_bits, bias = MINI[fmt]
    sign = raw >> (e_bits + m_bits) & 1
    exp, man = raw >> m_bits & ((1 << e_bits) - 1), raw & ((1 << m_bits) - 1)
    value = (man / (1 << m_bits)) * 2.0 ** (1 - bias) if exp == 0 else \
        (1 + man / (1 << m_bits)) * 2.0 ** (exp - bias)
    return -value if sign else value


def decode(raw: int, fmt: str) -> float:
    fmt = ALIASES.get(fmt, fmt)
    if fmt in MINI:
        return _mini(raw, fmt)
    if fmt == "f16":
        return float(struct.unpack("<e", struct.pack("<H", raw & 0xFFFF))[0])
    if fmt == "bf16":
        return float(struct.unpack("<f", struct.pack("<I", (raw & 0xFFFF) << 16))[0])
    if fmt == "f32":
        return float(struct.unpack("<f", struct.pack("<I", raw & 0xFFFFFFFF))[0])
    if fmt == "f64":
        return float(struct.unpack("<d", struct.pack("<Q", raw))[0])
    if fmt == "i32":
        return float(raw - (1 << 32) if raw >> 31 & 1 else raw)
    if fmt == "iu8":
        return float(raw & 0xFF)  # unsigned: neg_lo 0
    raise ValueError(f"format {fmt!r}")


_CODES: dict[str, dict[float, int]] = {}


def encode(value: float, fmt: str) -> int:
    """Raw bits of `value` (exact in `fmt`; D rounds to nearest even)."""
    fmt = ALIASES.get(fmt, fmt)
    if fmt in MINI:
        if fmt not in _CODES:
            table: dict[float, int] = {}
            for raw in range(1 << BITS[fmt]):
                table.setdefault(_mini(raw, fmt), raw)
            table[0.0] = 0
            _CODES[fmt] = table
        return _CODES[fmt][value]
    if fmt == "f16":
        return int(struct.unpack("<H", struct.pack("<e", value))[0])
    if fmt == "bf16":
        word = int(struct.unpack("<I", struct.pack("<f", value))[0])
        return ((word + 0x7FFF + (word >> 16 & 1)) >> 16) & 0xFFFF
    if fmt == "f32":
        return int(struct.unpack("<I", struct.pack("<f", value))[0])
    if fmt == "f64":
        return int(struct.unpack("<Q", struct.pack("<d", value))[0])
    if fmt in ("i32", "iu8"):
        return int(value) & ((1 << BITS[fmt]) - 1)
    raise ValueError(f"format {fmt!r}")


def read_bits(regs: Regs, lane: int, bit: int, width: int) -> int:
    """`width` bits from bit offset `bit` of a lane's registers (straddling allowed)."""
    word = 0
    for n, reg in enumerate(range(bit // 32, (bit + width + 31) // 32)):
        word |= (regs[reg][lane] if reg < len(regs) else 0) << (32 * n)
    return word >> (bit % 32) & ((1 << width) - 1)


def write_bits(regs: Regs, lane: int, bit: int, width: int, value: int) -> None:
    for n in range(width):
        reg, at = divmod(bit + n, 32)
        word = regs[reg][lane] & ~(1 << at)
        regs[reg][lane] = word | ((value >> n & 1) << at)


# ---- where each source puts a value: (lane, bit offset in the operand)

def cd_place(i: int, j: int, bits: int) -> tuple[int, int]:
    """C/D[i][j]: rows 8*g + v of a 16-row tile; rows 16q.. in VGPRs 8q.."""
    tile, r = divmod(i, 16)
    lane = 16 * (r // 8) + j
    v = r % 8
    bit = v * bits if bits != 16 else 32 * (v // 2) + 16 * (v % 2)
    return lane, bit + tile * 8 * 32 * max(1, bits // 32)


def dense_place(mn: int, k: int, bits: int, kdim: int) -> tuple[int, int]:
    """A[mn][k] / B[k][mn] of a dense 16 x K operand (lane mn + 16 g)."""
    tile, mn = divmod(mn, 16)
    if bits >= 32:                       # f32 / f64, K = 4: k = 2 g + value
        g, e = divmod(k, 2)
    elif bits == 16:                     # k = 16 floor(e/8) + 8 g + e mod 8
        g, e = (k // 8) % 2, 8 * (k // 16) + k % 8
    elif bits == 8:                      # k = 32 floor(e/16) + 16 g + e mod 16
        g, e = (k // 16) % 2, 16 * (k // 32) + k % 16
    else:                                # fp6 / fp4: k = 64 s + 32 g + i
        g, e = (k // 32) % 2, 32 * (k // 64) + k % 32
    per_row = kdim * bits // 2            # bits a lane holds of one 16-row tile
    return mn + 16 * g, e * bits + tile * per_row


def sparse_b_place(k: int, mn: int, bits: int, kdim: int) -> tuple[int, int]:
    g, e = divmod(k, kdim // 2)
    return mn + 16 * g, e * bits


# ---- the model

class Case:
    """What the model is told: the shape and formats, the modifiers, the registers."""

    def __init__(self, m: int, n: int, k: int, formats: Sequence[str], sparse: bool,
                 mods: dict[str, int], d_regs: int, regs: dict[str, Regs]) -> None:
        self.m, self.n, self.k = m, n, k
        self.a_fmt, self.b_fmt, self.c_fmt, self.d_fmt = formats
        self.sparse, self.mods, self.d_regs, self.regs = sparse, mods, d_regs, regs


def _scale(case: Case, which: str, mn: int, kb: int) -> float:
    regs = case.regs[which]
    rows = case.m if which == "SA" else case.n
    select = case.mods.get("matrix_a_scale" if which == "SA" else "matrix_b_scale", 0)
    lane = mn if rows > 16 else mn + 16 * select
    fmt = case.mods.get("matrix_a_scale_fmt" if which == "SA" else "matrix_b_scale_fmt", 0)
    raw = read_bits(regs, lane, 8 * kb, 8)
    if fmt == 0:
        return float(2.0 ** (raw - 127))
    return decode(raw, "fp8")  # e4m3 (fmt 2); e5m3 (fmt 1) is not placed by the check


def _operands(case: Case) -> tuple[list[list[float]], list[list[float]]]:
    """A as the instruction reads it (M x K; a SWMMAC's dense A from its stored pairs and
    index) and B (K x N), scales folded into A's and B's K blocks."""
    ab, bb = BITS[case.a_fmt], BITS[case.b_fmt]
    b = case.regs["B"]
    if case.sparse:
        bmat = [[decode(read_bits(b, *sparse_b_place(k, j, bb, case.k), bb), case.b_fmt)
                 for j in range(case.n)] for k in range(case.k)]
        return _sparse_a(case, ab), bmat
    a = case.regs["A"]
    amat = [[decode(read_bits(a, *dense_place(i, k, ab, case.k), ab), case.a_fmt)
             for k in range(case.k)] for i in range(case.m)]
    bmat = [[decode(read_bits(b, *dense_place(j, k, bb, case.k), bb), case.b_fmt)
             for j in range(case.n)] for k in range(case.k)]
    block = case.mods.get("scale_block", 0)
    if block:
        for i in range(case.m):
            for k in range(case.k):
                amat[i][k] *= _scale(case, "SA", i, k // block)
        for k in range(case.k):
            for j in range(case.n):
                bmat[k][j] *= _scale(case, "SB", j, k // block)
    return amat, bmat


def _index_entries(case: Case, lane: int) -> int:
    """The lane's index operand as the instruction reads it (index_key 1: the upper
    half as the first entries, the rest 0)."""
    width = case.k // 2
    word = read_bits(case.regs["K"], lane, 0, width)
    if case.mods.get("index_key", 0):
        word >>= width // 2
    return word


def _sparse_a(case: Case, bits: int) -> list[list[float]]:
    """The dense A a SWMMAC reads: each stored value added at the K its index names."""
    a = case.regs["A"]
    amat = [[0.0] * case.k for _ in range(case.m)]
    per_half = case.k // 8                     # groups per lane half
    for i in range(case.m):
        for group in range(case.k // 4):
            g, at = divmod(group, per_half)
            lane, s = i + 16 * g, 2 * at
            entries = _index_entries(case, lane)
            for t in (0, 1):
                value = decode(read_bits(a, lane, (s + t) * bits, bits), case.a_fmt)
                amat[i][4 * group + (entries >> 2 * (s + t) & 3)] += value
    return amat


def run(case: Case) -> Regs:
    """D's registers."""
    c = case.regs["C"]
    d: Regs = [list(c[r]) if r < len(c) else [0] * WAVE for r in range(case.d_regs)]
    cb, db = BITS[case.c_fmt], BITS[case.d_fmt]
    amat, bmat = _operands(case)
    for i in range(case.m):
        row = amat[i]
        for j in range(case.n):
            lane, bit = cd_place(i, j, cb)
            acc = decode(read_bits(c, lane, bit, cb), case.c_fmt)
            acc += sum(row[k] * bmat[k][j] for k in range(case.k) if row[k])
            lane, bit = cd_place(i, j, db)
            write_bits(d, lane, bit, db, encode(acc, case.d_fmt))
    return d
