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

The source and confidence of each placement: instructions/gfx1250_provenance.py; with
the marks, the neg_lo / neg_hi range and the facts with their sources, this is the
module of the layout family "gfx1250" (layouts/family.py).
"""
from __future__ import annotations

from instructions.gfx1250 import ORIGAMI_CYCLES, ORIGAMI_F8F6F4
from instructions.model import Instruction
from instructions.modifiers import Modifiers, ModifierSpec, Rule

from layouts.core import BIT, COL, LANE, NONE, ROW, Factor, Layout, Place

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from instructions import gfx1250_provenance as sources

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


def _provenance_records() -> ModuleType:
    """instructions/gfx1250_provenance.py, loaded where a source is read (-d, --json, the
    probe's other readings): the provenance's lazy boundary, so that a layout query loads
    no provenance record (docs/internals.md)."""
    return __import__("instructions.gfx1250_provenance", fromlist=["SOURCES"])


class Sourced:
    """A layout with the provenance of its placement: `source` names the Provenance
    record of instructions/gfx1250_provenance.py, which is read when asked for (the
    provenance's lazy boundary: -d and --json read it, a layout query does not)."""
    __slots__ = ("layout", "source")

    def __init__(self, layout: Layout, source: str) -> None:
        self.layout, self.source = layout, source

    @property
    def provenance(self) -> sources.Provenance:
        found: sources.Provenance = getattr(_provenance_records(), self.source)
        return found

    def __repr__(self) -> str:
        return f"Sourced({self.layout.shape}, {self.source})"


class LaneShifted(Layout):
    """A Layout whose lanes start at `base_lane` (a scale operand in the upper lane
    half): the offset rides on `lane_coord`, the coordinate whose digit picks the lane."""

    def __init__(self, shape: tuple[int, int, int], width: int, factors: tuple[Factor, ...],
                 base_lane: int = 0, lane_coord: str = ROW) -> None:
        super().__init__(shape, width, factors)
        self.base_lane, self.lane_coord = base_lane, lane_coord

    def _offsets(self, coord: str) -> tuple[tuple[int, int], ...]:
        offsets = super()._offsets(coord)
        if coord != self.lane_coord:
            return offsets
        return tuple((lane + self.base_lane, bit) for lane, bit in offsets)


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
    """B (K x 16) of a SWMMAC: lane half g holds K values K/2*g .. K/2*g + K/2 - 1,
    packed from bit 0 (composable_kernel; see sources.SPARSE_B)."""
    factors = (Factor(COL, HALF, LANE, 1),) + _chunks(ROW, k, k // 2, bits)
    return Layout((k, 16, 1), bits, factors)


def sparse_b_chunked(k: int, bits: int) -> Layout:
    """The alternative SWMMAC B of rocjitsu and S19:
    256-bit chunks alternate between the lane halves."""
    factors = (Factor(COL, HALF, LANE, 1),) + _chunks(ROW, k, SPARSE_B_CHUNK_BITS // bits, bits)
    return Layout((k, 16, 1), bits, factors)


def index_bits(k: int) -> int:
    """Width of the sparse index operand per lane: a 2-bit field per stored A value
    (32 bits for the 16-bit forms' K = 64, 64 bits for the 8-bit forms' K = 128)."""
    return k // 2


def sparse_index(k: int, key: int = 0) -> Layout:
    """The sparsity index K[i][k] (16 x K): one 4-bit field (pos0 | pos1 << 2) per group
    of four K, placed as sparse_a places the group's pair; index_key 1 reads the fields
    from the operand's upper half (INDEX_KEY_NOTE), i.e. half the width higher."""
    groups = k // 4
    factors = (Factor(ROW, HALF, LANE, 1), Factor(COL, 4, NONE, 0),
               Factor(COL, groups // 2, BIT, 4), Factor(COL, 2, LANE, HALF))
    return Layout((16, k, 1), 4, factors, base_bit=key * index_bits(k) // 2)


def sparse_index_exchanged(k: int, key: int = 0) -> Layout:
    """The index as rocjitsu's reading has the hardware read it, beside this A and B:
    sparse_index with lane i's upper half of the operand exchanged with lane i+16's lower
    half (bits [31:16] with [15:0]; 8-bit forms: the second VGPR with the first), i.e.
    the two digits of the group that pick the lane half and the operand half swapped."""
    groups = k // 4
    factors = (Factor(ROW, HALF, LANE, 1), Factor(COL, 4, NONE, 0),
               Factor(COL, groups // 4, BIT, 4), Factor(COL, 2, LANE, HALF),
               Factor(COL, 2, BIT, index_bits(k) // 2))
    return Layout((16, k, 1), 4, factors, base_bit=key * index_bits(k) // 2)


def sparse_a_chunked(k: int, bits: int) -> Layout:
    """rocjitsu's sparse A (the alternative in sources.SPARSE_A_RJ): the stored values in the
    dense rule, 128-bit chunks of pairs alternating between the lane halves."""
    groups, per = k // 4, CHUNK_BITS // (2 * bits)
    factors = (Factor(ROW, HALF, LANE, 1), Factor(COL, 4, NONE, 0),
               Factor(COL, per, BIT, 2 * bits), Factor(COL, 2, LANE, HALF),
               Factor(COL, groups // (2 * per), BIT, per * 2 * bits))
    return Layout((16, k, 1), 2 * bits, factors)


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

def _dedicated_fp8(inst: Instruction) -> bool:
    """One of the 16x16x128 fp8/bf8 opcodes (not f8f6f4)."""
    return bool(inst.k == 128 and not inst.sparse and not inst.f8f6f4
                and inst.a_type.bits == 8 and not inst.a_type.is_int)


def _ab_provenance(inst: Instruction, matrix: str) -> str:
    bits = inst.a_type.bits if matrix == "A" else inst.b_type.bits
    if matrix == "A" and inst.m > HALF:
        return "A_32X16"
    if inst.f8f6f4 and mixed_pair(inst) and not inst.scale_k and bits < 8:
        return "F8F6F4_MIXED"
    if inst.f8f6f4 or inst.m > HALF:
        return "F8F6F4_TABLE"
    if _dedicated_fp8(inst):
        return "FP8_DEDICATED"
    if bits == 64:
        return "F64_K_ORDER"
    if bits == 32:
        return "F32_K_ORDER"
    return "DENSE_K_ORDER"


def _ab_operand(inst: Instruction, matrix: str) -> Sourced:
    """operand() of A or B."""
    bits = inst.a_type.bits if matrix == "A" else inst.b_type.bits
    if inst.sparse:
        if matrix == "A":
            return Sourced(sparse_a(inst.k, bits),
                           "SPARSE_16" if bits == 16 else "SPARSE_8_A")
        return Sourced(sparse_b(inst.k, bits), "SPARSE_B")
    rows = inst.m if matrix == "A" else inst.n
    return Sourced(dense_ab(matrix, inst.k, bits, rows), _ab_provenance(inst, matrix))


def _cd_operand(inst: Instruction, matrix: str) -> Sourced:
    """operand() of C or D."""
    bits = inst.c_type.bits if matrix == "C" else inst.out_type.bits
    if inst.m > HALF:
        return Sourced(cd(bits, inst.m), "CD_32X16")
    if bits == 64:
        return Sourced(cd(bits), "CD_F64")
    if matrix == "D" and inst.sparse and bits < inst.c_type.bits:
        return Sourced(cd(bits), "CD_BF16F32_SPARSE")  # (packed into C's first VGPRs)
    return Sourced(cd(bits), "CD_SOURCE")


def operand(inst: Instruction, matrix: str, select: int = 0) -> Sourced:
    """The layout of `matrix` (A, B, C, D, K, SA, SB) of a gfx1250/gfx1251 instruction
    (formats already chosen: inst.with_formats), with the provenance of its placement;
    `select` is matrix_a_scale for SA, matrix_b_scale for SB (0 = row0, 1 = row1) and
    index_key for K."""
    if matrix in ("A", "B"):
        return _ab_operand(inst, matrix)
    if matrix in ("C", "D"):
        return _cd_operand(inst, matrix)
    if matrix == "K":
        if not inst.sparse:
            raise ValueError("a dense instruction has no sparsity index")
        return Sourced(sparse_index(inst.k, select),
                       "INDEX_16" if inst.a_type.bits == 16 else "INDEX_8")
    if matrix in ("SA", "SB"):
        if not inst.scale_k:
            raise ValueError("an unscaled instruction has no scale operands")
        rows = inst.m if matrix == "SA" else inst.n
        layout = scale(matrix, inst.k, inst.scale_k, select, rows)
        if matrix == "SA" and rows > HALF:
            return Sourced(layout, "SCALE_32X16_A")
        return Sourced(layout, "SCALE_32" if inst.scale_k == 32 else "SCALE_16")
    raise ValueError(f"matrix {matrix!r}: allowed A, B, C, D, K, SA, SB")


# ---- the engine's view: instructions and modifiers of the gfx1250 layout family
# (layouts/family.py FAMILIES["gfx1250"]; the instruction tables are
# instructions/gfx1250.py and gfx1251.py).

# Modifier names, ranges and legality: the modifier table (instructions/modifiers.py),
# checked by layouts/legality.py (neg_lo / neg_hi bits: neg_masks below).
VALUE_NAMES = {"matrix_a_fmt": FORMATS, "matrix_b_fmt": FORMATS,
               "matrix_a_scale": SCALE_SELECTS, "matrix_b_scale": SCALE_SELECTS,
               "matrix_a_scale_fmt": SCALE_FORMATS, "matrix_b_scale_fmt": SCALE_FORMATS}


def layout(inst: Instruction, matrix: str, _wave: int, mods: Modifiers) -> Layout:
    """FAMILIES["gfx1250"]: the layout of `matrix` (the reuse hints move nothing)."""
    return sourced(inst, matrix, mods).layout


def sourced(inst: Instruction, matrix: str, mods: Modifiers | None = None) -> Sourced:
    select = 0
    if mods is not None and matrix in ("SA", "SB"):
        select = mods.matrix_a_scale if matrix == "SA" else mods.matrix_b_scale
    elif mods is not None and matrix == "K":
        select = mods.index_key
    return operand(inst, matrix, select)


def mixed_subbyte_rj(matrix: str, bits: int) -> Layout:
    """rocjitsu's sub-byte operand of a mixed f8f6f4 pair (the alternative in
    sources.MIXED_RJ): lane half = bit 5 of k; the value's slot in the lane takes k's
    bits 0, 1, 3, 4, 2, 6 from the lowest; packed from bit 0."""
    mn, kc = (ROW, COL) if matrix == "A" else (COL, ROW)
    factors = (Factor(mn, HALF, LANE, 1), Factor(kc, 4, BIT, bits),
               Factor(kc, 2, BIT, 16 * bits), Factor(kc, 4, BIT, 4 * bits),
               Factor(kc, 2, LANE, HALF), Factor(kc, 2, BIT, 32 * bits))
    return Layout((16, 128, 1) if matrix == "A" else (128, 16, 1), bits, factors)


def mixed_pair(inst: Instruction) -> bool:
    """An f8f6f4 form (formats chosen) with one 8-bit and one sub-byte operand."""
    return bool(inst.f8f6f4) and (inst.a_type.bits == 8) != (inst.b_type.bits == 8)


def alternative_layouts(inst: Instruction, matrix: str) -> list[tuple[str, Layout]]:
    """(source, layout) of each contested alternative that places `matrix` differently
    (SPARSE_B, SPARSE_16 / SPARSE_8_A and F8F6F4_MIXED of
    instructions/gfx1250_provenance.py): the other sources' answers, element by element.
    rocjitsu's SWMMAC is its A and B here with the index as the calculator places it."""
    sources = _provenance_records()
    if matrix not in ("A", "B"):
        return []
    bits = inst.a_type.bits if matrix == "A" else inst.b_type.bits
    if mixed_pair(inst) and not inst.scale_k and bits < 8:
        return [(sources.MIXED_RJ[0], mixed_subbyte_rj(matrix, bits))]
    if not inst.sparse:
        return []
    if matrix == "B":
        return [(sources.SPARSE_B_CHUNKED[0], sparse_b_chunked(inst.k, bits))]
    return [(sources.SPARSE_A_RJ[0], sparse_a_chunked(inst.k, bits))]


def index_readings(inst: Instruction, mods: Modifiers) -> list[tuple[str, str, Layout]]:
    """(name, statement, layout) of each other reading of a SWMMAC's index that a source gives, as
    the layout the hardware would read the index through with the calculator's A and B
    (the probe checks which one a GPU follows). rocjitsu's reading defines both index
    keys (read_swmmac_index_set: key 1 reads bits [31:16], or the second VGPR, as the
    lane's first entries and its later entries as 0): under key 1 it is the exchanged
    index moved up by half the operand, as sparse_index is under key 1, the fields moved
    past the operand's end being the ones it reads as 0."""
    sources = _provenance_records()
    if not inst.sparse:
        return []
    return [(*sources.INDEX_READING_RJ, sparse_index_exchanged(inst.k, mods.index_key))]


def neg_masks(inst: Instruction) -> tuple[int, int]:
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


def mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    """The mark of every C value: neg_lo[2] negates C, neg_hi[2] takes its absolute value."""
    if matrix != "C" or inst.sparse or inst.a_type.is_int:
        return ""
    return ("-" if mods.neg_lo & 4 else "") + ("|" if mods.neg_hi & 4 else "")


def half_mark(inst: Instruction, matrix: str, mods: Modifiers, place: Place) -> str:
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


INPUTS = ("A", "B", "C", "K", "SA", "SB")  # every matrix but D


def llvm_neg(spec: ModifierSpec, inst: Instruction, _mods: Modifiers,
             _wave: int) -> Rule | None:
    """neg_lo / neg_hi: the bits LLVM's assembler accepts (neg_masks); integer
    instructions: neg_lo[0/1] are the signedness of A and B."""
    if spec.name not in ("neg_lo", "neg_hi") or not inst.takes("neg_lo"):
        return None
    lo, hi = neg_masks(inst)
    return Rule(7, INPUTS, mask=lo if spec.name == "neg_lo" else hi,
                meaning="signed" if inst.is_int else "negate")


RANGES = {"neg": llvm_neg}


# ---- facts with their sources (-d, --json): the source and confidence of every fact
# and layout (instructions/gfx1250_provenance.py) and each source's latency

if TYPE_CHECKING:  # (typing_extensions, for Python 3.10's typing, loads only for mypy)
    from instructions.gfx1250_provenance import SourceDoc
    from instructions.model import FamilyFacts
    from typing_extensions import NotRequired, TypedDict

    class Latency(TypedDict):
        """One source's latency of an instruction (None: the source has no figure)."""
        source: str
        cycles: int | None
        where: str

    class ProductNames(SourceDoc):
        names: str

    class LatencyDoc(SourceDoc):
        values: list[Latency]

    class IndexWidth(SourceDoc):
        operand_bits: int
        bits_read: dict[str, str]

    class Provenance(TypedDict):
        """Source and confidence of each fact and layout (matrix_api.provenance)."""
        product_names: ProductNames
        encoding: SourceDoc
        latency: LatencyDoc
        layouts: dict[str, SourceDoc]
        clamp: NotRequired[SourceDoc]
        index_width: NotRequired[IndexWidth]


def provenance(inst: Instruction) -> Provenance:
    """Source and confidence of each fact and layout of `inst` (formats as chosen)."""
    sources = _provenance_records()
    mats = ["A", "B"] + (["K"] if inst.sparse else ["C"]) + ["D"]
    mats += ["SA", "SB"] if inst.scaled else []
    known = bool(inst.cycles)
    product: SourceDoc = sources.PRODUCT_SOURCE.as_dict()
    latency: SourceDoc = (sources.LATENCY if known else sources.F64_FACTS).as_dict()
    out: Provenance = {
        "product_names": {"names": sources.PRODUCT_NAMES[inst.arch], **product},
        "encoding": (sources.LLVM_FACTS if known else sources.F64_FACTS).as_dict(),
        "latency": {**latency, "values": latencies(inst)},
        "layouts": {m: sourced(inst, m, Modifiers()).provenance.as_dict() for m in mats},
    }
    if inst.a_type.is_int:
        out["clamp"] = sources.CLAMP.as_dict()
    if inst.sparse:
        width = index_bits(inst.k)
        read: SourceDoc = (sources.INDEX_WIDTH if width > 32 else sources.INDEX_WIDTH_16).as_dict()
        out["index_width"] = {**read,
                              "operand_bits": width,
                              "bits_read": {"index_key 0": f"[{width - 1}:0]",
                                            "index_key 1": f"[{width - 1}:{width // 2}]"}}
    return out


def latencies(inst: Instruction) -> list[Latency]:
    """Each source's latency of `inst` (formats as chosen), labelled: LLVM's scheduling
    model as llvm-mca-22 reports it and AMD origami's table (None: no figure)."""
    origami = ORIGAMI_CYCLES.get(inst.mnemonic)
    if inst.f8f6f4:
        origami = ORIGAMI_F8F6F4.get((inst.a_type.key, inst.b_type.key))
    return [{"source": "LLVM sched model", "cycles": inst.cycles or None,
             "where": "llvm-mca-22 (LLVM 22.1.8), tests/data/gfx1250_llvm_mca.txt"},
            {"source": "AMD origami", "cycles": origami,
             "where": "ROCm/rocm-libraries shared/origami/include/origami/hardware.hpp "
                      "@0192efda (tests/data/gfx1250_sources.txt)"}]


def facts(inst: Instruction) -> FamilyFacts:
    """What matrix_api.facts adds or replaces for this family: the latency of LLVM's
    model as `cycles` (None when LLVM 22 has none), no FLOPs per cycle (no ISA cycle
    counts), the first opcode of a 128-bit pair, and the provenance of everything."""
    return {"cycles": inst.cycles or None, "flops_per_cycle": None,
            "prefix_opcode": inst.prefix_opcode, "provenance": provenance(inst)}
