"""Where each gfx1250 / gfx1251 fact and layout comes from: the `Provenance` record
(source key, confidence, note and, for a contested fact, each other source's answer),
the source keys and the provenance of every family of placements and facts that
layouts/gfx1250.py generates (docs/gfx1250.md).

Confidences (keys of the fact sheet docs/facts/gfx1250_rdna4.md):
  SRC  read in a primary source (LLVM, an AMD code base)
  SEC  a secondary source that claims to reproduce the CDNA5 ISA tables (S19), with
       corroboration where noted
  CONV a layout AMD code uses for dense WMMA; the ISA table was not found; any K order
       shared by A and B gives the same product
  INF  our inference or choice where no source pins the layout (the note says which)
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing_extensions, for Python 3.10's typing, loads only for mypy)
    from typing_extensions import NotRequired, TypedDict

    class Alternative(TypedDict):
        """What a conflicting source answers instead."""
        source: str
        answer: str

    class SourceDoc(TypedDict):
        """A Provenance as data (-d --json)."""
        source: str
        confidence: str
        note: str
        contested: bool
        alternatives: NotRequired[list[Alternative]]


class Provenance:
    """Where a fact or layout comes from: a source key (see SOURCES), a confidence
    (SRC, SEC, CONV, INF), a note saying what rests on what and, where sources conflict
    (the fact is contested), each alternative as (source, what it answers instead)."""
    __slots__ = ("alternatives", "confidence", "note", "source")

    def __init__(self, source: str, confidence: str, note: str = "",
                 alternatives: tuple[tuple[str, str], ...] = ()) -> None:
        if confidence not in CONFIDENCES:
            raise ValueError(f"confidence {confidence!r}: allowed {', '.join(CONFIDENCES)}")
        self.source, self.confidence, self.note = source, confidence, note
        self.alternatives = alternatives

    def __repr__(self) -> str:
        return f"Provenance({self.source!r}, {self.confidence!r}, {self.note!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and self.as_tuple() == other.as_tuple()

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    @property
    def contested(self) -> bool:
        return bool(self.alternatives)

    def as_tuple(self) -> tuple[str, str, str, tuple[tuple[str, str], ...]]:
        return (self.source, self.confidence, self.note, self.alternatives)

    def as_dict(self) -> SourceDoc:
        out: SourceDoc = {"source": self.source, "confidence": self.confidence,
                               "note": self.note, "contested": self.contested}
        if self.alternatives:
            out["alternatives"] = [{"source": s, "answer": a} for s, a in self.alternatives]
        return out


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
    "composable_kernel": "ROCm/composable_kernel ck_tile gfx1250 WMMA/SWMMAC specialisations "
                         "(amdgcn_mma_base K per lane and NumAccess; sparse_transforms.hpp)",
    "rocjitsu": "ROCm/rocm-systems emulation/rocjitsu shared/mma_exec.h @2aac5a1a (AMD's "
                "executable model of the matrix instructions); its answers to the product "
                "check (scripts/check_products.py) are recorded in "
                "tests/data/gfx1250_products_rocjitsu.txt.gz",
    "aiter": "ROCm/aiter @e4048607 aiter/ops/flydsl/kernels/mxfp4_preshuffle_gfx1250_tdm.py "
             "(production MXFP4 GEMM on v_wmma_scale_f32_32x16x128_f4)",
    "LLVM 22 ISel": "LLVM 22's instruction selection (clang-22 / llc-22 -mcpu=gfx1250, "
                    "recorded in tests/data/gfx1250_sources.txt)",
    "AMD origami": "AMD's analytical GEMM model, ROCm/rocm-libraries "
                   "shared/origami/include/origami/hardware.hpp @0192efda (cycles per "
                   "matrix instruction)",
}


CONFIDENCES = ("SRC", "SEC", "CONV", "INF")


# ---- provenance of each family of placements (the fact sheet's §A.6-A.8)

CD_SOURCE = Provenance("AMD code", "SRC", "16x16 C/D: row 8*g + VGPR (32-bit) or 8*g + "
                       "2*VGPR + half (16-bit), column lane mod 16 (S13, S16; S19 agrees)")
CD_32X16 = Provenance("aiter", "SRC", "32x16 C/D of *_32x16x128_f4: two stacked 16x16 tiles "
                      "(rows 16q..16q+15 in VGPRs 8q..8q+7): aiter's epilogue reads the "
                      "16-VGPR result as two 8-VGPR 16x16 fragments (acc[8 * fragment + i])",
                      (("FlyDSL lib/Dialect/FlyROCDL/GFX1250/MmaAtomScale.cpp (S17, marked "
                        "provisional)", "row 16*g + VGPR: D[i][j] in v(i mod 16){j + 16*"
                        "floor(i/16)}"),))
CD_F64 = Provenance("our choice", "INF", "f64 C/D (gfx1251): not found; chosen as the 32-bit "
                    "C/D rule with one VGPR pair per value (row 8*g + pair)")
CD_BF16F32_SPARSE = Provenance("rocjitsu", "SRC", "v_swmmac_bf16f32 D: bf16, packed as the "
                               "16-bit C/D rule into the first 4 of the 8 VGPRs its C (f32) "
                               "and D share; the other 4 keep C. rocjitsu writes it so (its "
                               "answers pass the product check); the name says D bf16, C f32 "
                               "as LLVM's dense v_wmma_bf16f32_16x16x32_bf16 (D v8bf16, 4 "
                               "VGPRs); an f32 D would be v_swmmac_f32_16x16x64_bf16 (0x66) "
                               "again",
                               (("LLVM 22 / clang-22 (recorded in "
                                 "tests/data/gfx1250_sources.txt)", "D is the tied operand's "
                                 "type, 8 VGPRs of f32: __builtin_amdgcn_swmmac_bf16f32_16x16x64"
                                 "_bf16 takes and returns 8 floats (SWMMAC's D is its C: LLVM "
                                 "gives both one type)"),))
DENSE_K_ORDER = Provenance("our choice", "CONV", "dense A/B K order: the ISA table was not "
                           "found; chosen as the fact sheet's recommended order (128-bit "
                           "chunks alternate between the lane halves, the rule of the "
                           "f8f6f4 tables; FlyDSL/Triton use it for 16-bit); any K order "
                           "shared by A and B gives the same product")
F32_K_ORDER = Provenance("AMD code", "CONV", "16x4 f32 A/B: k = 2*g + VGPR (FlyDSL S16; the "
                         "S19 load order agrees); the ISA table was not found")
F64_K_ORDER = Provenance("our choice", "INF", "16x4 f64 A/B (gfx1251): not found; chosen as "
                         "the f32 rule, k = 2*g + value, one VGPR pair per value")
MIXED_RJ = ("rocjitsu", "the sub-byte operand of a mixed pair in an order of its own "
            "(mma_exec.h wmma_f8f6f4_mixed_subbyte_input_loc): lane half = bit 5 of k, the "
            "value's slot in the lane k's bits 0, 1, 3, 4, 2, 6; with an fp4 A and an fp8 B, "
            "A[0][4] in v2{0}.[3:0] where composable_kernel gives v0{0}.[19:16]: another "
            "product, which "
            "no K relabelling of both operands gives (the 8-bit operand is read in this "
            "table's order); rocjitsu's own scaled WMMA, the same opcode 0x33 after a scale "
            "load, reads this table's order")
F8F6F4_NOTE = ("f8f6f4 A/B: fp8/bf8 in 16-byte "
                          "chunks, fp6/bf6 in 32-value chunks, fp4 in 16-byte chunks per "
                          "lane half (the tables S19 quotes); CK's scale_gfx125.hpp "
                          "(@219f222c) gives NumAccess 4 for an fp8 operand and 2 for the "
                          "f6/f4 one of every mixed pair (1/1 when both are 8-bit or both "
                          "sub-byte), the only split that lets A and B of different formats "
                          "meet; FlyDSL's fp8 x MXFP4 GEMM (@11c4174d kernels/gemm/"
                          "gemm_a8w4_mxscale_gfx1250.py) loads the fp8 operand's lane half g "
                          "as the 16-byte chunks 16g + 32j; Triton's scaled fp4 operand "
                          "(S13, S15) agrees. Product check (scripts/"
                          "check_products.py): composable_kernel's reading of every format "
                          "pair gives this table's products")
F8F6F4_TABLE = Provenance("composable_kernel", "SRC", F8F6F4_NOTE)
F8F6F4_MIXED = Provenance("composable_kernel", "SRC", F8F6F4_NOTE + "; rocjitsu reads "
                          "the sub-byte operand of a mixed unscaled pair otherwise: the two "
                          "AMD sources disagree, the calculator follows composable_kernel "
                          "and rocjitsu's scaled path", (MIXED_RJ,))
FP8_DEDICATED = Provenance("our choice", "INF", "v_wmma_*_16x16x128_{fp8,bf8}_*: same size "
                           "as f8f6f4 with FP8/BF8; assumed to share its table (S19); their "
                           "own ISA table was not found")
A_32X16 = Provenance("aiter", "SRC", "32x16x128 f4 A: rows 16q..16q+15 in VGPRs 8q..8q+7, "
                     "each with the FP4 table: aiter builds A as two 8-VGPR 16-row halves "
                     "(load_half(2*wn), load_half(2*wn + 1)); S20 says the same")
SPARSE_PRODUCT = ("Product check (scripts/check_products.py): composable_kernel's "
                  "A, index and B taken together give the calculator's products; rocjitsu "
                  "@2aac5a1a gives others. Its A' and B are the calculator's up to one K "
                  "relabelling shared by both (the 1-based K quarters 2 and 3 exchange "
                  "lane halves), so the whole disagreement is the index: see the index "
                  "layout (tests/layouts/test_swmmac_index_relation.py)")
SPARSE_A_RJ = ("rocjitsu", "stored A' in the dense rule (128-bit chunks of stored values "
               "alternate between the lane halves), B in 256-bit chunks (the B "
               "alternative), the index where the calculator places it: "
               "v_swmmac_f32_16x16x64_f16 A[0][32] in v4{0} (composable_kernel: v0{16}); "
               "A' and B are this A and B with the K quarters 2 and 3 exchanging lane "
               "halves, which alone changes no product: the difference is the index's")
SPARSE_B_CHUNKED = ("rocjitsu; fact sheet S19 (secondary)",
                    "256-bit chunks alternate between the lane halves: "
                    "v_swmmac_f32_16x16x64_f16 B[16][0] = v0{16}.[15:0] (composable_kernel: "
                    "v8{0}.[15:0]); 8-bit B[32][0] = v0{16}.[7:0] (composable_kernel: "
                    "v8{0}.[7:0]); with rocjitsu's A' (the A alternative), S19's with this "
                    "A: neither gives composable_kernel's products")
SPARSE_16 = Provenance("composable_kernel", "SRC", "16-bit SWMMAC A: lane half g stores the "
                       "pairs of K 32g..32g+31 (CK: 32 K per lane, one access; the S19 "
                       "table agrees). " + SPARSE_PRODUCT, (SPARSE_A_RJ,))
SPARSE_8_A = Provenance("composable_kernel", "SRC", "8-bit SWMMAC A: lane half g stores the "
                        "pairs of K 64g..64g+63 (CK: 64 K per lane, one access). "
                        + SPARSE_PRODUCT, (SPARSE_A_RJ,))
SPARSE_B = Provenance("composable_kernel", "SRC", "SWMMAC B: lane half g holds K/2 "
                      "contiguous K (32g.. for 16-bit, 64g.. for 8-bit), the K its A "
                      "pairs come from (CK: kABKPerLane 32/64, NumAccess 1). "
                      + SPARSE_PRODUCT, (SPARSE_B_CHUNKED,))
INDEX_KEY_NOTE = ("index_key 1 reads the upper half of the operand (bits [31:16] of the "
                  "16-bit forms' VGPR, the second VGPR of the 8-bit forms) as the lane's "
                  "first half of entries; the later entries, shown past the operand's end, "
                  "read as 0 (rocjitsu read_swmmac_index_set; LLVM 22 selects index_key:1 "
                  "for index >> 16 and index >> 32, the same reading)")
INDEX_ALTERNATIVES = (("LLVM VOP3PInstructions.td (IndexType 16/32), clang-22's 8-bit "
                       "builtins (a 32-bit int index; only the first of the two VGPRs is "
                       "loaded) and composable_kernel (passes one int32 index)",
                       "one instruction reads half the operand (16 bits / 32 bits), "
                       "index_key choosing the half; then a lane's 16 (8-bit: 32) stored "
                       "values cannot all have a 2-bit field: the sources are not "
                       "consistent with each other"),)
INDEX_RJ = ("rocjitsu (ROCm/rocm-systems swmmac_index_loc; #10521 and #10522, "
            "2026-08-21: FP8/BF8 TensileLite kernels that pass on hardware failed under PR "
            "#10447's ISA-derived order, merge d62e4b43d4, and pass with this one; PR #10707, "
            "2026-08-25, later changed the transpose loads they were validated with)",
            "with this A and B relabelled (K quarters 2 and 3 exchange lane halves), the "
            "index is this one with lane i's bits [31:16] exchanged with lane i+16's bits "
            "[15:0] (8-bit forms: lane i's second VGPR with lane i+16's first): "
            "v_swmmac_f32_16x16x128_fp8_fp8 K[0][64] in v1{0}.[3:0] where this layout "
            "gives v0{16}.[3:0]. The only hardware-linked evidence for either reading, "
            "for the 8-bit K=128 forms only; --emit probe runs both readings on a "
            "gfx1250 and says which one D follows")
INDEX_CK_TEST = ("composable_kernel's layout test (ROCm/rocm-libraries @0c0ab728 "
                 "projects/composablekernel/test/ck_tile/core/arch/mma/"
                 "test_amdgcn_mma_layout.inc, its gfx1250 SWMMAC cases commented out there)",
                 "the index of stored column p of row m in lane m + 16*(bit 3 of p), the "
                 "16-bit half by bit 4 of p: rocjitsu's reading (the exchange), beside "
                 "CK's A of 32 K a lane")
# The name and the statement of rocjitsu's reading of the index (--emit probe checks it).
INDEX_READING_RJ = ("rocjitsu's", "lane i's index bits [31:16] exchanged with lane i+16's "
                    "bits [15:0]; 8-bit forms: lane i's second VGPR with lane i+16's first")
INDEX_16 = Provenance("composable_kernel", "SRC", "index of the 16-bit SWMMAC: a 2-bit "
                      "position per stored A value in the lane's order, i.e. group G of row "
                      "i in lane i + 16*floor(G/8), bits 4*(G mod 8) (CK sparse_transforms "
                      "@0324c72d; rocjitsu and S19 place the fields so too, but rocjitsu "
                      "pairs them with its own A order: see A); CK's layout test places "
                      "them the other way (the alternative); no hardware-linked "
                      "evidence for the 16-bit forms; " + INDEX_KEY_NOTE,
                      (INDEX_RJ, INDEX_CK_TEST) + INDEX_ALTERNATIVES)
INDEX_8 = Provenance("composable_kernel", "SRC", "64-bit index of the 8-bit SWMMAC: a 2-bit "
                     "position per stored A value, group G of row i in lane i + "
                     "16*floor(G/16), bits 4*(G mod 16) (CK packs 32 fields in two words; "
                     "rocjitsu reads 32 entries from the two VGPRs, pairing them with its own "
                     "A order: see A); kept against rocjitsu's hardware-linked reading "
                     "(the alternative) while that evidence rests on kernels whose loads "
                     "changed after it (they load the index itself through ds_load_tr8_b64, "
                     "whose rocjitsu model PR #10707 changed; rocm-libraries #10472) and no "
                     "run of both readings is recorded; CK passes one 32-bit index for the "
                     "64-bit operand and says nothing on the lanes; "
                     + INDEX_KEY_NOTE, (INDEX_RJ,) + INDEX_ALTERNATIVES)
SCALE_32 = Provenance("aiter", "SRC", "scale operands: row/column in lane (mn + 16*"
                      "matrix_*_scale), byte kb = K block of 32 (S19; aiter selects the B "
                      "scale's lane half per 16-row tile with scaleBType; Triton S14, S15)")
SCALE_16 = Provenance("our choice", "INF", "scale16: byte kb (K block of 16) of the 64-bit "
                      "operand, low dword = blocks 0-3; the block order was not found")
SCALE_32X16_A = Provenance("aiter", "SRC", "32x16x128 f4 A scales: row r in lane r (all 32 "
                           "lanes), one byte per K block (aiter loads them per full lane; "
                           "S20 agrees); matrix_a_scale moves nothing we can place",
                           (("composable_kernel (ck amd_wmma, 'fix ScaleOpselA as 1')",
                             "passes matrix_a_scale = 1; FlyDSL's test "
                             "mma_scale_gfx1250.mlir and aiter pass 0 (row0)"),))


# ---- provenance of the facts (-d, --json)

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
INDEX_WIDTH_16 = Provenance("LLVM", "SRC", "16-bit SWMMAC index: 1 VGPR (LLVM 22); a 2-bit "
                            "field per stored A value fills its 32 bits")
INDEX_WIDTH = Provenance("LLVM", "SRC", "8-bit SWMMAC index: 2 VGPRs (v[n:n+1]) in LLVM 22, "
                         "which rejects one VGPR; older snapshots wrote one (S2, S2o)")
