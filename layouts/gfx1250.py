"""Layout generators of the gfx1250 / gfx1251 ("CDNA 5") WMMA, scaled WMMA and SWMMAC
operands (wave32 only), each with the source and confidence of its placement.

Element coordinates as elsewhere: A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] ->
(i, j), the sparse index K[i][k] -> (i, k), the block scales SA[i][kb] -> (i, kb) and
SB[kb][j] -> (kb, j) (kb = K block of `scale_block` values); one block.

Lane l of a wave32 is row (A, C/D: column) `l mod 16` of its lane half g = floor(l/16).
The operands differ in how a row's K values are shared between the two lane halves,
which every generator below expresses with one rule (`_chunks`): the row is cut into
chunks of `chunk` values that go alternately to lane half 0 and 1, and a lane packs its
values densely, lowest bit first, over its VGPRs (values of 6 bits may straddle two).

Sources and confidence (keys of the fact sheet ../shared/facts/gfx1250_rdna4.md):
  SRC  read in a primary source (LLVM, an AMD code base)
  SEC  a secondary source that claims to reproduce the CDNA5 ISA tables (S19), with
       corroboration where noted
  CONV a layout AMD code uses for dense WMMA; the ISA table was not found; any K order
       shared by A and B gives the same product
  INF  our inference or choice where no source pins the layout (the note says which)
"""
from __future__ import annotations

from .core import BIT, COL, LANE, NONE, ROW, Factor, Layout

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not loaded at run time: start-up)
    from typing import Any

WAVE = 32
HALF = 16          # lanes per lane half; lane l holds row/column l mod 16
CHUNK_BITS = 128   # dense A/B: each lane half takes alternating 128-bit chunks of a row
SPARSE_B_CHUNK_BITS = 256  # SWMMAC B: alternating 256-bit chunks (S19, 16-bit form)
FP6_CHUNK = 32     # 6-bit values: 32-value (192-bit) chunks (S19)

# f8f6f4 formats: matrix_a_fmt / matrix_b_fmt codes (LLVM MATRIX_FMT_*) and their bits.
FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")
FORMAT_BITS = {"fp8": 8, "bf8": 8, "fp6": 6, "bf6": 6, "fp4": 4}
# Scale formats: matrix_a_scale_fmt / matrix_b_scale_fmt codes (LLVM MATRIX_SCALE_FMT_*);
# all three are one byte, so the format changes no layout.
SCALE_FORMATS = ("e8", "e5m3", "e4m3")
SCALE_SELECTS = ("row0", "row1")  # matrix_a_scale / matrix_b_scale: lanes 0-15 / 16-31


class Provenance:
    """Where a fact or layout comes from: a source key (see SOURCES), a confidence
    (SRC, SEC, CONV, INF) and a note saying what rests on what."""
    __slots__ = ("confidence", "note", "source")

    def __init__(self, source: str, confidence: str, note: str = "") -> None:
        if confidence not in CONFIDENCES:
            raise ValueError(f"confidence {confidence!r}: allowed {', '.join(CONFIDENCES)}")
        self.source, self.confidence, self.note = source, confidence, note

    def __repr__(self) -> str:
        return f"Provenance({self.source!r}, {self.confidence!r}, {self.note!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and self.as_tuple() == other.as_tuple()

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def as_tuple(self) -> tuple[str, str, str]:
        return (self.source, self.confidence, self.note)

    def as_dict(self) -> dict[str, str]:
        return {"source": self.source, "confidence": self.confidence, "note": self.note}


CONFIDENCES = ("SRC", "SEC", "CONV", "INF")

# Source keys a Provenance names; the descriptions are printed with them.
SOURCES = {
    "LLVM": "LLVM's AMDGPU assembler (llvm-mc-22, LLVM 22.1.8; tests/data/gfx1250_llvm_mc.txt)"
            " and VOP3PInstructions.td (fact sheet S1-S4)",
    "LLVM sched model": "LLVM's gfx1250 scheduling model (llvm-mca-22; SISchedule.td, fact "
                        "sheet S7): the compiler's model, not the ISA's",
    "AMD code": "AMD code bases: FlyDSL gfx1250 WMMA layouts (S16), Triton WMMA v3 linear "
                "layouts (S13)",
    "fact sheet S19 (secondary)": "a third-party harness quoting the CDNA5 ISA's WMMA tables "
                                  "(fact sheet S19), corroborated by CK (S18) and Triton "
                                  "(S13, S15)",
    "fact sheet S20 (secondary)": "a third-party analysis citing CDNA5 ISA line numbers "
                                  "(fact sheet S20)",
    "secondary (product names)": "community and AMD repository statements mapping gfx1250 "
                                 "to MI450/MI455X and gfx1251 to MI430X (fact sheet S9-S11)",
    "our choice": "not pinned by any source found; chosen by this project (see the note)",
}


class Sourced:
    """A layout with the provenance of its placement."""
    __slots__ = ("layout", "provenance")

    def __init__(self, layout: Layout, provenance: Provenance) -> None:
        self.layout, self.provenance = layout, provenance

    def __repr__(self) -> str:
        return f"Sourced({self.layout.shape}, {self.provenance!r})"


class LaneShifted(Layout):
    """A Layout whose lanes start at `base_lane` (a scale operand in the upper lane
    half): the offset rides on `lane_coord`, the coordinate whose digit picks the lane."""

    def __init__(self, shape: tuple[int, int, int], width: int, factors: tuple[Factor, ...],
                 base_lane: int = 0, lane_coord: str = ROW) -> None:
        super().__init__(shape, width, factors)
        self.base_lane, self.lane_coord = base_lane, lane_coord

    def _offsets(self, coord: str, value: int) -> tuple[int, int]:
        lane, bit = super()._offsets(coord, value)
        return (lane + self.base_lane, bit) if coord == self.lane_coord else (lane, bit)


# ---- provenance of each family of placements (the fact sheet's §A.6-A.8)

CD_SOURCE = Provenance("AMD code", "SRC", "16x16 C/D: row 8*g + VGPR (32-bit) or 8*g + "
                       "2*VGPR + half (16-bit), column lane mod 16 (S13, S16; S19 agrees)")
CD_32X16 = Provenance("our choice", "INF", "32x16 C/D of *_32x16x128_f4: not found; chosen "
                      "as two stacked 16x16 tiles (rows 16q..16q+15 in VGPRs 8q..8q+7), as "
                      "for its A operand; FlyDSL's provisional alternative is row 16*g + "
                      "VGPR (S17)")
CD_F64 = Provenance("our choice", "INF", "f64 C/D (gfx1251): not found; chosen as the 32-bit "
                    "C/D rule with one VGPR pair per value (row 8*g + pair)")
CD_BF16F32_SPARSE = Provenance("our choice", "INF", "v_swmmac_bf16f32 D: LLVM models it as "
                               "8 VGPRs of f32 (v8f32, tied to C); the meaning of its bf16 "
                               "output was not found: shown as the 32-bit C/D layout")
DENSE_K_ORDER = Provenance("our choice", "CONV", "dense A/B K order: the ISA table was not "
                           "found; chosen as the fact sheet's recommended order (128-bit "
                           "chunks alternate between the lane halves, the rule of the "
                           "f8f6f4 tables; FlyDSL/Triton use it for 16-bit); any K order "
                           "shared by A and B gives the same product")
F32_K_ORDER = Provenance("AMD code", "CONV", "16x4 f32 A/B: k = 2*g + VGPR (FlyDSL S16; the "
                         "S19 load order agrees); the ISA table was not found")
F64_K_ORDER = Provenance("our choice", "INF", "16x4 f64 A/B (gfx1251): not found; chosen as "
                         "the f32 rule, k = 2*g + value, one VGPR pair per value")
F8F6F4_TABLE = Provenance("fact sheet S19 (secondary)", "SEC", "f8f6f4 A/B: the tables S19 "
                          "quotes (fp8/bf8 16-byte chunks, fp6/bf6 32-value chunks, fp4 "
                          "16-byte chunks), corroborated by CK's kAKNumAccess (S18) and "
                          "Triton's scaled fp4 operand (S13, S15)")
FP8_DEDICATED = Provenance("our choice", "INF", "v_wmma_*_16x16x128_{fp8,bf8}_*: same size "
                           "as f8f6f4 with FP8/BF8; assumed to share its table (S19); their "
                           "own ISA table was not found")
A_32X16 = Provenance("our choice", "INF", "32x16x128 f4 A: 'two consecutive 16x128 FP4 "
                     "blocks' (S20); chosen: rows 16q..16q+15 in VGPRs 8q..8q+7, each with "
                     "the FP4 table; low confidence")
SPARSE_16 = Provenance("fact sheet S19 (secondary)", "SEC", "16-bit SWMMAC A (pairs of each "
                       "group of 4 K), B and index: the tables S19 quotes")
SPARSE_8_A = Provenance("our choice", "INF", "8-bit SWMMAC A: not found; chosen as the "
                        "16-bit rule (each lane half holds one contiguous half of the "
                        "stored row), one 16-bit pair per group of 4 K")
SPARSE_8_B = Provenance("our choice", "INF", "8-bit SWMMAC B: not found; chosen as the "
                        "16-bit rule (256-bit chunks alternate between the lane halves)")
INDEX_16 = Provenance("fact sheet S19 (secondary)", "SEC", "index of the 16-bit SWMMAC: "
                      "group G of row i in lane i + 16*floor(G/8), bits 4*(G mod 8) (S19); "
                      "what index_key=1 selects was not found: key 1 is shown as key 0")
INDEX_8 = Provenance("our choice", "INF", "64-bit index of the 8-bit SWMMAC: not found; "
                     "chosen as the 16-bit rule (one nibble per group, each lane half one "
                     "contiguous half of the row: lane i + 16*floor(G/16), bits 4*(G mod "
                     "16)); index_key=1 is shown as key 0")
SCALE_32 = Provenance("fact sheet S19 (secondary)", "SEC", "scale operands: row/column in "
                      "lane (mn + 16*matrix_*_scale), byte kb = K block of 32 (S19); lane "
                      "half select also in Triton (S14, S15)")
SCALE_16 = Provenance("our choice", "INF", "scale16: byte kb (K block of 16) of the 64-bit "
                      "operand, low dword = blocks 0-3; the block order was not found")
SCALE_32X16_A = Provenance("fact sheet S20 (secondary)", "SEC", "32x16x128 f4 A scales: row "
                           "r in lane r (all 32 lanes), one byte per K block (S20); "
                           "matrix_a_scale is accepted by LLVM but moves nothing we can place")


# ---- generators

def _chunks(coord: str, extent: int, chunk: int, bits: int) -> tuple[Factor, ...]:
    """Digits of a row of `extent` values cut into chunks of `chunk` values that go to
    the lane halves in turn; each lane packs its values densely from bit 0."""
    rounds = extent // (2 * chunk)
    return (Factor(coord, chunk, BIT, bits), Factor(coord, 2, LANE, HALF),
            Factor(coord, rounds, BIT, chunk * bits))


def dense_chunk(bits: int, k: int) -> int:
    """Values per chunk of a dense A/B row of K values of `bits` bits."""
    if bits == 6:
        return FP6_CHUNK
    return min(CHUNK_BITS // bits, k // 2)


def dense_ab(matrix: str, k: int, bits: int, rows: int = 16) -> Layout:
    """A (rows x K) or B (K x 16) of a dense WMMA; a 32-row A holds rows 16..31 in the
    VGPRs after rows 0..15."""
    mn, kc = (ROW, COL) if matrix == "A" else (COL, ROW)
    factors = (Factor(mn, HALF, LANE, 1),) + _chunks(kc, k, dense_chunk(bits, k), bits)
    if rows > HALF:
        factors += (Factor(mn, rows // HALF, BIT, k * bits // 2),)
    shape = (rows, k, 1) if matrix == "A" else (k, rows, 1)
    return Layout(shape, bits, factors)


def cd(bits: int, rows: int = 16) -> Layout:
    """C/D (rows x 16): column = lane mod 16; row 8*g + value (values packed from bit 0:
    one per VGPR at 32 bits, two at 16, one per VGPR pair at 64); a 32-row C/D holds
    rows 16..31 in the VGPRs after rows 0..15."""
    factors: tuple[Factor, ...] = (Factor(COL, HALF, LANE, 1), Factor(ROW, 8, BIT, bits),
                                   Factor(ROW, 2, LANE, HALF))
    if rows > HALF:
        factors += (Factor(ROW, rows // HALF, BIT, 8 * bits),)
    return Layout((rows, 16, 1), bits, factors)


def sparse_a(k: int, bits: int) -> Layout:
    """Sparse A (16 x K logical): two of every four K values are stored, as one pair of
    2*bits per group; each lane half holds one contiguous half of the row's groups."""
    groups = k // 4
    factors = (Factor(ROW, HALF, LANE, 1), Factor(COL, 4, NONE, 0),
               Factor(COL, groups // 2, BIT, 2 * bits), Factor(COL, 2, LANE, HALF))
    return Layout((16, k, 1), 2 * bits, factors)


def sparse_b(k: int, bits: int) -> Layout:
    """B (K x 16) of a SWMMAC: 256-bit chunks alternate between the lane halves."""
    factors = (Factor(COL, HALF, LANE, 1),) + _chunks(ROW, k, SPARSE_B_CHUNK_BITS // bits, bits)
    return Layout((k, 16, 1), bits, factors)


def sparse_index(k: int) -> Layout:
    """The sparsity index K[i][k] (16 x K): one 4-bit field (pos0 | pos1 << 2) per group
    of four K, placed as sparse_a places the group's pair."""
    groups = k // 4
    factors = (Factor(ROW, HALF, LANE, 1), Factor(COL, 4, NONE, 0),
               Factor(COL, groups // 2, BIT, 4), Factor(COL, 2, LANE, HALF))
    return Layout((16, k, 1), 4, factors)


def scale(matrix: str, k: int, block: int, select: int = 0, rows: int = 16) -> Layout:
    """Block scales: SA[i][kb] (rows x K/block) or SB[kb][j] (K/block x 16), one byte
    per K block, lowest block in the lowest byte; a 16-row operand sits in the lane half
    `select` (matrix_*_scale: 0 = lanes 0-15, 1 = lanes 16-31), a 32-row one in all."""
    blocks = k // block
    mn, kb = (ROW, COL) if matrix == "SA" else (COL, ROW)
    shape = (rows, blocks, 1) if matrix == "SA" else (blocks, rows, 1)
    factors = (Factor(mn, rows, LANE, 1), Factor(kb, blocks, BIT, 8))
    return LaneShifted(shape, 8, factors, 0 if rows > HALF else HALF * select, mn)


# ---- an instruction's operands

class Shape:
    """What the generators need of a gfx1250 instruction: M x N x K, the bits of the A
    and B values (per format for f8f6f4), of C and D, sparsity, the K values per scale
    (0: not scaled), whether it is one of the dedicated 16x16x128 fp8/bf8 opcodes, and
    whether it is a bf16f32 form (C f32, result bf16)."""
    __slots__ = (
        "a_bits",
        "b_bits",
        "bf16f32",
        "c_bits",
        "d_bits",
        "dedicated_fp8",
        "f8f6f4",
        "k",
        "m",
        "n",
        "scale_block",
        "sparse",
    )

    def __init__(self, m: int, n: int, k: int, a_bits: int, b_bits: int, c_bits: int,
                 d_bits: int, sparse: bool = False, scale_block: int = 0,
                 f8f6f4: bool = False, dedicated_fp8: bool = False,
                 bf16f32: bool = False) -> None:
        self.m, self.n, self.k = m, n, k
        self.a_bits, self.b_bits, self.c_bits, self.d_bits = a_bits, b_bits, c_bits, d_bits
        self.sparse, self.scale_block = sparse, scale_block
        self.f8f6f4, self.dedicated_fp8, self.bf16f32 = f8f6f4, dedicated_fp8, bf16f32

    def with_formats(self, fmt_a: str, fmt_b: str) -> Shape:
        """This f8f6f4 shape with A and B in the given formats (matrix_a/b_fmt)."""
        if not self.f8f6f4:
            raise ValueError("matrix_a_fmt/matrix_b_fmt apply to the f8f6f4 instructions")
        return Shape(self.m, self.n, self.k, FORMAT_BITS[fmt_a], FORMAT_BITS[fmt_b],
                     self.c_bits, self.d_bits, self.sparse, self.scale_block, True)


def _ab_provenance(shape: Shape, matrix: str) -> Provenance:
    bits = shape.a_bits if matrix == "A" else shape.b_bits
    if matrix == "A" and shape.m > HALF:
        return A_32X16
    if shape.f8f6f4 or shape.m > HALF:
        return F8F6F4_TABLE
    if shape.dedicated_fp8:
        return FP8_DEDICATED
    if bits == 64:
        return F64_K_ORDER
    if bits == 32:
        return F32_K_ORDER
    return DENSE_K_ORDER


def operand(shape: Shape, matrix: str, select: int = 0) -> Sourced:
    """The layout of `matrix` (A, B, C, D, K, SA, SB) of an instruction of this shape,
    with the provenance of its placement; `select` is matrix_a_scale for SA and
    matrix_b_scale for SB (0 = row0, 1 = row1)."""
    if matrix in ("A", "B"):
        bits = shape.a_bits if matrix == "A" else shape.b_bits
        if shape.sparse:
            if matrix == "A":
                return Sourced(sparse_a(shape.k, bits), SPARSE_16 if bits == 16 else SPARSE_8_A)
            return Sourced(sparse_b(shape.k, bits), SPARSE_16 if bits == 16 else SPARSE_8_B)
        rows = shape.m if matrix == "A" else shape.n
        return Sourced(dense_ab(matrix, shape.k, bits, rows), _ab_provenance(shape, matrix))
    if matrix in ("C", "D"):
        bits = shape.c_bits if matrix == "C" else shape.d_bits
        if shape.m > HALF:
            return Sourced(cd(bits, shape.m), CD_32X16)
        if bits == 64:
            return Sourced(cd(bits), CD_F64)
        if shape.sparse and shape.bf16f32:
            return Sourced(cd(bits), CD_BF16F32_SPARSE)
        return Sourced(cd(bits), CD_SOURCE)
    if matrix == "K":
        if not shape.sparse:
            raise ValueError("a dense instruction has no sparsity index")
        return Sourced(sparse_index(shape.k), INDEX_16 if shape.a_bits == 16 else INDEX_8)
    if matrix in ("SA", "SB"):
        if not shape.scale_block:
            raise ValueError("an unscaled instruction has no scale operands")
        rows = shape.m if matrix == "SA" else shape.n
        layout = scale(matrix, shape.k, shape.scale_block, select, rows)
        if matrix == "SA" and rows > HALF:
            return Sourced(layout, SCALE_32X16_A)
        return Sourced(layout, SCALE_32 if shape.scale_block == 32 else SCALE_16)
    raise ValueError(f"matrix {matrix!r}: allowed A, B, C, D, K, SA, SB")



# ---- the engine's view: instructions and modifiers of the gfx1250 layout family
# (layouts/__init__.py FAMILIES["gfx1250"]; the instruction tables are
# instructions/gfx1250.py and gfx1251.py).

# Product names: not in any LLVM or AMD document (LLVM says "TBA"); from secondary
# sources (fact sheet §A.1: S9 calculator issue, S10 AMD's FlyDSL, S11 press).
PRODUCT_NAMES = {"GFX1250": "CDNA 5, Instinct MI450 series (MI450X, MI455X)",
                 "GFX1251": "Instinct MI430X"}
PRODUCT_SOURCE = Provenance("secondary (product names)", "SEC",
                            "LLVM lists the product as TBA; AMD's ISA XML calls gfx1250 "
                            "'CDNA 5' (S12, secondhand); MI450/MI455X and MI430X from S9-S11")
LLVM_FACTS = Provenance("LLVM", "SRC", "opcodes, operand widths per format, modifier "
                        "legality and wave32-only: llvm-mc-22 (LLVM 22.1.8), recorded in "
                        "tests/data/gfx1250_llvm_mc.txt")
F64_FACTS = Provenance("LLVM", "SRC", "v_wmma_f64_16x16x4_f64: LLVM's gfx1251 MC test (fact "
                       "sheet S4); LLVM 22.1.8 does not know it yet (recorded: 'invalid "
                       "instruction'), so no scheduling-model latency")
LATENCY = Provenance("LLVM sched model", "SRC", "llvm-mca-22 latency of LLVM's gfx1250 "
                     "scheduling model (tests/data/gfx1250_llvm_mca.txt): the compiler's "
                     "model, not the ISA's; the CDNA5 ISA gives no WMMA cycle counts. "
                     "SISchedule.td (S7) gives f8f6f4 with an fp8/bf8 operand 16, which "
                     "llvm-mca (MC level) does not resolve: it reports 8 for every format")
CLAMP = Provenance("LLVM", "SRC", "clamp on iu8: LLVM 22 accepts it (WMMA and SWMMAC); an "
                   "older LLVM snapshot rejected it (S3e)")
INDEX_WIDTH = Provenance("LLVM", "SRC", "8-bit SWMMAC index: 2 VGPRs (v[n:n+1]) in LLVM 22, "
                         "which rejects one VGPR; older snapshots wrote one (S2, S2o)")

# Modifier names, ranges and legality: the modifier table (instructions/modifiers.py),
# checked by layouts/legality.py (neg_lo / neg_hi bits: neg_masks below).
VALUE_NAMES = {"matrix_a_fmt": FORMATS, "matrix_b_fmt": FORMATS,
               "matrix_a_scale": SCALE_SELECTS, "matrix_b_scale": SCALE_SELECTS,
               "matrix_a_scale_fmt": SCALE_FORMATS, "matrix_b_scale_fmt": SCALE_FORMATS}


def shape_of(inst: Any) -> Shape:
    """The Shape of an instruction record (formats already chosen: inst.with_formats)."""
    from instructions.model import parse_mnemonic
    parts = parse_mnemonic(inst.mnemonic)
    a_bits, b_bits = inst.a_type.bits, inst.b_type.bits
    return Shape(inst.m, inst.n, inst.k, a_bits, b_bits, inst.c_type.bits,
                 inst.out_type.bits, inst.sparse, inst.scale_k, f8f6f4=inst.f8f6f4,
                 dedicated_fp8=inst.k == 128 and parts.a in ("fp8", "bf8") and not inst.sparse,
                 bf16f32=parts.d != parts.c)


def family_layout(inst: Any, matrix: str, wave: int, mods: Any) -> Layout:
    """FAMILIES["gfx1250"]: the layout of `matrix` (index_key and reuse move nothing)."""
    return sourced(inst, matrix, mods).layout


def sourced(inst: Any, matrix: str, mods: Any = None) -> Sourced:
    select = 0
    if mods is not None and matrix in ("SA", "SB"):
        select = mods.matrix_a_scale if matrix == "SA" else mods.matrix_b_scale
    return operand(shape_of(inst), matrix, select)


def neg_masks(inst: Any) -> tuple[int, int]:
    """(legal neg_lo bits, legal neg_hi bits) of an instruction, as LLVM 22 accepts them:
    16/32-bit float inputs negate A/B (bits 0, 1) and C (bit 2: neg_lo = -C, neg_hi =
    |C|); 8/6/4-bit float inputs only C; iu8 neg_lo[0/1] = signedness; a SWMMAC has no
    C modifiers (src2 is its index)."""
    if not inst.takes("neg_lo"):
        return 0, 0
    if inst.a_type.is_int:
        return 3, 0
    ab = 3 if inst.a_type.bits >= 16 else 0
    c = 0 if inst.sparse else 4
    return ab | c, (ab | c) if inst.takes("neg_hi") else 0


def mark(inst: Any, matrix: str, mods: Any) -> str:
    """The mark of every C value: neg_lo[2] negates C, neg_hi[2] takes its absolute value."""
    if matrix != "C" or inst.sparse or inst.a_type.is_int:
        return ""
    return ("-" if mods.neg_lo & 4 else "") + ("|" if mods.neg_hi & 4 else "")


def half_mark(inst: Any, matrix: str, mods: Any, place: Any) -> str:
    """A/B of 16-bit data: neg_lo negates the low 16-bit halves, neg_hi the high ones
    (LLVM: set both to negate every value); 32-bit data: neg_lo negates (neg_hi[0/1]
    is accepted but not encoded)."""
    bit = 1 if matrix == "A" else 2
    if inst.a_type.is_int or inst.a_type.bits < 16 or not inst.takes("neg_lo"):
        return ""
    if place.width == 32:
        return "-" if mods.neg_lo & bit else ""
    mask = mods.neg_lo if place.lo % 32 == 0 else mods.neg_hi
    return "-" if mask & bit else ""


# ---- printed formulas, derived from the layouts' digits

def _digit(var: str, below: int, size: int, top: bool) -> str:
    """Digit of `var` with `below` values under it and `size` values: floor(var / below)
    % size (parts left out where they do nothing)."""
    text = var if below == 1 else f"floor({var} / {below})"
    return text if top else f"({text} % {size})"


def _sum(terms: list[tuple[int, str]]) -> str:
    parts = [t if f == 1 else f"{f} * {t}" for f, t in terms if f]
    return " + ".join(parts) or "0"


def _forward(layout: Layout, coords: dict[str, str]) -> tuple[str, str]:
    """(lane, bit offset) of an element as sums of its coordinates' digits."""
    lane: list[tuple[int, str]] = []
    bit: list[tuple[int, str]] = []
    for coord, var in coords.items():
        digits = [f for f in layout.factors if f.coord == coord and f.size > 1]
        below = 1
        for n, f in enumerate(digits):
            term = _digit(var, below, f.size, n == len(digits) - 1)
            if f.dest == LANE:
                lane.append((f.stride, term))
            elif f.dest == BIT:
                bit.append((f.stride, term))
            below *= f.size
    base_lane = getattr(layout, "base_lane", 0)
    if base_lane:
        lane.append((base_lane, "1"))
    return _sum(lane), _sum(bit + ([(layout.base_bit, "1")] if layout.base_bit else []))


def _backward(layout: Layout, coord: str) -> str:
    """A coordinate from lane and bit offset b = 32 * GPR_num + GPR_bits."""
    digits = [f for f in layout.factors if f.coord == coord and f.size > 1]
    terms: list[tuple[int, str]] = []
    below = 1
    for f in digits:
        if f.dest == LANE:
            terms.append((below, _digit("lane", f.stride, f.size, False)))
        elif f.dest == BIT:
            terms.append((below, _digit("b", f.stride, f.size, False)))
        else:
            terms.append((below, "p"))
        below *= f.size
    return _sum(terms)


LABELS = {"A": ("A", "A[i][k]", {ROW: "i", COL: "k"}), "B": ("B", "B[k][j]", {ROW: "k", COL: "j"}),
          "C": ("C", "C[i][j]", {ROW: "i", COL: "j"}), "D": ("D", "D[i][j]", {ROW: "i", COL: "j"}),
          "K": ("index", "index[i][k]", {ROW: "i", COL: "k"}),
          "SA": ("A scale", "SA[i][kb]", {ROW: "i", COL: "kb"}),
          "SB": ("B scale", "SB[kb][j]", {ROW: "kb", COL: "j"})}


def formulas(inst: Any) -> dict[int, tuple[list[tuple[str, str]], list[tuple[str, str]]]]:
    """{32: (element -> register lines, register -> element lines)}: each derived from
    the layout's digits (tests/test_gfx1250.py evaluates them element by element).
    Bit offsets b count from bit 0 of the operand's first VGPR: GPR = floor(b / 32),
    bits [b % 32 + width - 1 : b % 32] (a 6-bit value may continue in the next VGPR)."""
    from .modifiers import Modifiers
    mats = ["A", "B"] + (["K"] if inst.sparse else ["C"]) + ["D"]
    mats += ["SA", "SB"] if inst.scaled else []
    forward: list[tuple[str, str]] = []
    backward: list[tuple[str, str]] = []
    for matrix in mats:
        if matrix == "C" and inst.c_type == inst.out_type:
            continue  # printed once, as "C or D"
        layout = sourced(inst, matrix, Modifiers()).layout
        name, elem, coords = LABELS[matrix]
        if matrix == "D" and not inst.sparse and inst.c_type == inst.out_type:
            name, elem = "C or D", "C or D[i][j]"
        lane, bit = _forward(layout, coords)
        forward += [(f"{elem} Lane", lane), (f"{elem} bit offset b", bit),
                    (f"{elem} GPR", f"floor(b / 32), bits [b % 32 + {layout.width - 1} : b % 32]")]
        for coord, var in coords.items():
            backward.append((f"{name} {var}", _backward(layout, coord)))
    backward.append(("note", "b = 32 * GPR_num + GPR_bits (bit offset in the operand)"))
    if inst.sparse:
        backward.append(("note", ("p = the position (0-3) of a stored A value in its group "
                                 "of four K, which the index gives")))
    return {32: (forward, backward)}


# ---- facts with their sources (-d, --json, matrix_api.facts)

def provenance(inst: Any) -> dict[str, Any]:
    """Source and confidence of each fact and layout of `inst` (formats as chosen)."""
    from .modifiers import Modifiers
    mats = ["A", "B"] + (["K"] if inst.sparse else ["C"]) + ["D"]
    mats += ["SA", "SB"] if inst.scaled else []
    known = bool(inst.cycles)
    out: dict[str, Any] = {
        "product_names": {"names": PRODUCT_NAMES[inst.arch], **PRODUCT_SOURCE.as_dict()},
        "encoding": (LLVM_FACTS if known else F64_FACTS).as_dict(),
        "latency": (LATENCY if known else F64_FACTS).as_dict(),
        "layouts": {m: sourced(inst, m, Modifiers()).provenance.as_dict() for m in mats},
    }
    if inst.a_type.is_int:
        out["clamp"] = CLAMP.as_dict()
    if inst.sparse and inst.a_type.bits == 8:
        out["index_width"] = INDEX_WIDTH.as_dict()
    return out


def facts(inst: Any) -> dict[str, Any]:
    """What matrix_api.facts adds or replaces for this family: the latency of LLVM's
    model as `cycles` (None when LLVM 22 has none), no FLOPs per cycle (no ISA cycle
    counts), the first opcode of a 128-bit pair, and the provenance of everything."""
    return {"cycles": inst.cycles or None, "flops_per_cycle": None,
            "prefix_opcode": inst.prefix_opcode, "provenance": provenance(inst)}
