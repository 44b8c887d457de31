"""LDS facts per architecture, as data: size, banks, the load instructions an operand
fragment can be read with, and the phase models (which lanes the LDS serves together
for a load of each width).

Every fact carries its source and confidence, as tagged in the project's fact sheet
(docs/facts/lds_and_lane_moves.md): [SRC] primary AMD or LLVM text, [SEC] secondary
(compiler and library code, measurements), [INF] an inference or an assumption. Where
sources disagree an architecture lists several models, the default first; where no
source states a grouping the model says so (`assumed`) and names the assumption.

The layouts.lds engine reads this table; nothing here computes a layout.
"""
from __future__ import annotations

from instructions.record import Record


class Load(Record):
    """One LDS load instruction.

    name: LLVM mnemonic; bits: bits each lane reads (and writes into its VGPRs);
    transpose: element bits of a transpose load (0: a plain load); lane_map: the key of
    a transpose load's lane map (layouts.lds.LANE_MAPS; "" when none is known);
    at: the bit of the VGPR a narrow (d16) load writes from: 0 or 16;
    odd_vgpr: the first destination VGPR may be odd even where wide loads need even
    ones; waves: the wave sizes it runs in (() = every one of the architecture);
    source: where the instruction and its semantics are stated.
    """
    name: str
    bits: int
    transpose: int = 0
    lane_map: str = ""
    at: int = 0
    odd_vgpr: bool = False
    waves: tuple[int, ...] = ()
    source: str = ""

    @property
    def bytes(self) -> int:
        return self.bits // 8

    @property
    def phase_bits(self) -> int:
        """The width whose phase row applies: the source side of a transpose load reads
        like a plain load of its width [SEC] L18; a d16 load like a b32 [INF]."""
        return max(32, self.bits)


class PhaseRow(Record):
    """The lanes served together for loads of `bits` per lane: `groups` are the phases
    (lane sets, for the architecture's widest wave) over `banks` banks of 4 bytes."""
    bits: int
    banks: int
    groups: tuple[tuple[int, ...], ...]
    note: str = ""


class PhaseModel(Record):
    """A phase model: `key` selects it (--lds-model); `assumed` marks a model no source
    states (an assumption, labelled as such)."""
    key: str
    title: str
    source: str
    confidence: str
    rows: tuple[PhaseRow, ...]
    assumed: bool = False

    def row(self, bits: int) -> PhaseRow:
        for row in self.rows:
            if row.bits == bits:
                return row
        widest = max(self.rows, key=lambda r: r.bits)
        return widest if bits > widest.bits else min(
            (r for r in self.rows if r.bits >= bits), key=lambda r: r.bits)


class LdsFacts(Record):
    """The LDS of one architecture (named as in instructions.ARCHITECTURES)."""
    arch: str
    lds_bytes: int
    banks: int
    size_source: str
    loads: tuple[Load, ...]
    models: tuple[PhaseModel, ...]
    even_vgpr_tuples: bool      # loads of 64 bits or more need an even first VGPR
    even_source: str
    triton_banks: int           # numBanks in Triton's swizzle formula [SEC] L21

    def model(self, key: str | None) -> PhaseModel | None:
        if not key:
            return self.models[0]
        for model in self.models:
            if model.key == key:
                return model
        return None

    def load(self, name: str) -> Load | None:
        key = name.lower()
        for load in self.loads:
            if load.name == key:
                return load
        # LLVM accepts the gfx9 spellings ds_read_* on gfx11+ (ds_load_*) and back
        other = key.replace("ds_read_", "ds_load_") if "ds_read_" in key \
            else key.replace("ds_load_", "ds_read_")
        for load in self.loads:
            if load.name == other:
                return load
        return None


# ---- lane groups -------------------------------------------------------------------

def _runs(size: int, lanes: int = 64) -> tuple[tuple[int, ...], ...]:
    """Phases of `size` consecutive lanes."""
    return tuple(tuple(range(start, start + size)) for start in range(0, lanes, size))


def _quads(*starts: int) -> tuple[int, ...]:
    """The lanes of four-lane runs starting at `starts`."""
    return tuple(lane for start in starts for lane in range(start, start + 4))


# gfx942 ds_read_b128: 8 lanes per phase, not contiguous [SEC] L12, L13, L14 agree
# (phase 0 = span(l0, l1, l2^l4); the others are its cosets by l5, l2, l3).
_B128_CDNA3 = (_quads(0, 20), _quads(32, 52), _quads(4, 16), _quads(36, 48),
               _quads(8, 28), _quads(40, 60), _quads(12, 24), _quads(44, 56))
# gfx950 ds_read_b128: 16 lanes per phase over 64 banks [SEC] L12, L13, L15 (measured).
_B128_CDNA4 = (_quads(0, 12, 20, 24), _quads(32, 44, 52, 56),
               _quads(4, 8, 16, 28), _quads(36, 40, 48, 60))

_L12 = ("nod-ai/shark-ai docs/amdgpu_kernel_optimization_guide.md (L12), Triton PR #11365 "
        "(L13), CK lds_bank_conflicts.rst (L14)")
_L15 = ("nod-ai/shark-ai optimization guide (L12), Triton PR #11365 (L13), HipKittens "
        "phase measurements on MI350-class hardware (L15)")
_L16 = "rocRoller LDSBankModel.cpp (L16, rocm-libraries PR #2157); IREE PR #24471 (L17)"

CDNA3_MEASURED = PhaseModel(
    "default", "32 banks; b32 32 lanes, b64 16 lanes, b128 8 non-contiguous lanes",
    _L12, "[SEC] three sources agree on b128; L24's 2-way b64 table supports 16 lanes",
    (PhaseRow(32, 32, _runs(32)), PhaseRow(64, 32, _runs(16)),
     PhaseRow(96, 32, _B128_CDNA3, "[INF] no source for b96: the b128 groups assumed"),
     PhaseRow(128, 32, _B128_CDNA3)))
CDNA3_ROCROLLER = PhaseModel(
    "rocroller", "rocRoller: 32 banks, contiguous groups of 16 (b32), 8 (b64), 4 (b96, b128)",
    _L16, "[SEC] one source (a library's model)",
    (PhaseRow(32, 32, _runs(16)), PhaseRow(64, 32, _runs(8)), PhaseRow(96, 32, _runs(4)),
     PhaseRow(128, 32, _runs(4))))
_CDNA12 = PhaseModel(
    "default", CDNA3_MEASURED.title + " (assumed equal to gfx942)", _L12,
    "[INF] no source for CDNA1/2: the gfx942 model assumed (same 32 banks and 64 KiB; "
    "IREE uses one CDNA1-3 model, L17)", CDNA3_MEASURED.rows, assumed=True)
_CDNA12_ROCROLLER = CDNA3_ROCROLLER._replace(
    confidence="[INF] rocRoller's gfx942 model assumed for CDNA1/2", assumed=True)
CDNA4_MEASURED = PhaseModel(
    "default", "64 banks; b32 64 lanes, b64 32 lanes, b96 8 lanes, b128 16 lanes",
    _L15, "[SEC] b128 measured (L15) and stated (L12, L13); b64 measured (L15)",
    (PhaseRow(32, 64, _runs(64)), PhaseRow(64, 64, _runs(32)),
     PhaseRow(96, 64, _B128_CDNA3, "[SEC] L15 measured; L16: b96 keeps gfx942's rate"),
     PhaseRow(128, 64, _B128_CDNA4)))
CDNA4_ROCROLLER = PhaseModel(
    "rocroller", "rocRoller: contiguous groups of 16 (b32, 32 banks), 16 (b64, 64 banks), "
    "4 (b96, 32 banks), 8 (b128, 64 banks)",
    _L16, "[SEC] one source; b96 [INF] gfx942's rocRoller group with 32 banks",
    (PhaseRow(32, 32, _runs(16), "L16: non-b64/b128 loads act as if there were 32 banks"),
     PhaseRow(64, 64, _runs(16)), PhaseRow(96, 32, _runs(4)),
     PhaseRow(128, 64, _runs(8))))


def _per_cycle(key: str, banks: int, title: str, source: str) -> PhaseModel:
    """An assumed model: `banks` dwords served per cycle, lanes in contiguous groups (a
    b96 phase as large as a b128 one)."""
    return PhaseModel(
        key, title, source,
        "[INF] assumption: no source states the grouping (fact sheet, section D)",
        tuple(PhaseRow(bits, banks, _runs(banks * 32 // max(bits, 128 * (bits == 96))))
              for bits in (32, 64, 96, 128)),
        assumed=True)


_RDNA_NOTE = ("ISA guide 12.1 (L2/L3): 32 banks per SIMD pair, '32 ... load instructions, "
              "each nominally 32-bits' at once; Triton's WMMA swizzle uses 32 banks (L21)")
RDNA_ASSUMED = _per_cycle("default", 32, "assumed: 32 banks, 32 dwords per cycle, contiguous lanes",
                          _RDNA_NOTE)
RDNA_IREE64 = _per_cycle("banks64", 64, "assumed: 64 banks (IREE's count), 64 dwords per cycle, "
                         "contiguous lanes", "IREE KnownTargets.cpp (L17): 64 banks")
GFX1250_ASSUMED = _per_cycle("default", 64, "assumed: 64 banks, 64 dwords per cycle (256 B ports), "
                             "contiguous lanes",
                             "ROCm blog on MI450 LDS (L18): 256 B/cycle ports; IREE (L17): 64 "
                             "banks; no AMD text on banks")


# ---- loads -------------------------------------------------------------------------

_GFX9_PLAIN = (
    Load("ds_read_b128", 128, source="[SRC] ISA DS opcodes"),
    Load("ds_read_b96", 96, source="[SRC] ISA DS opcodes"),
    Load("ds_read_b64", 64, source="[SRC] ISA DS opcodes"),
    Load("ds_read_b32", 32, source="[SRC] ISA DS opcodes"),
    Load("ds_read_u16_d16", 16, source="[SRC] ISA DS opcodes (gfx9+)"),
    Load("ds_read_u16_d16_hi", 16, at=16, source="[SRC] ISA DS opcodes (gfx9+)"),
    Load("ds_read_u8_d16", 8, source="[SRC] ISA DS opcodes (gfx9+)"),
    Load("ds_read_u8_d16_hi", 8, at=16, source="[SRC] ISA DS opcodes (gfx9+)"),
)
_GFX950_TR = (
    Load("ds_read_b64_tr_b16", 64, 16, "tr16_gfx950",
         source="[SRC] CDNA4 ISA 11.4 (L1), LLVM gfx950_asm_read_tr.s (L6); lane map [SEC] "
                "rocjitsu PR #10175 and Triton (L19, L20) agree"),
    Load("ds_read_b64_tr_b8", 64, 8, "tr8_gfx950",
         source="[SRC] L1, L6; lane map [INF]: gfx1250's tr8 rule per 16-lane group, which "
                "L25's measured 'two interleaved 8x8 byte transposes per group' fits"),
    Load("ds_read_b64_tr_b4", 64, 4, source="[SRC] L1, L6; lane map not found"),
    Load("ds_read_b96_tr_b6", 96, 6, odd_vgpr=True,
         source="[SRC] L1 (odd first VGPR allowed), L9 PR #125169; lane map not found"),
)
_GFX11_PLAIN = tuple(load._replace(name=load.name.replace("ds_read_", "ds_load_"))
                     for load in _GFX9_PLAIN)
_GFX1250_TR = (
    Load("ds_load_tr16_b128", 128, 16, "tr16_gfx1250", waves=(32,),
         source="[SRC] LLVM PR #163900, gfx1250_asm_vflat.s (L8); lane map [SEC] ROCm blog "
                "(L18)"),
    Load("ds_load_tr8_b64", 64, 8, "tr8_gfx1250", waves=(32,),
         source="[SRC] L8, L9; lane map [SEC] L18 (lane bases), formula [INF]"),
    Load("ds_load_tr4_b64", 64, 4, waves=(32,), source="[SRC] L9; lane map not found"),
    Load("ds_load_tr6_b96", 96, 6, odd_vgpr=True, waves=(32,),
         source="[SRC] L8, L9; lane map not found"),
)

_SIZE_GFX9 = "[SRC] LLVM AMDGPU.td addressable LDS 65536 B (L5); [SEC] 32 banks (L17, L30)"
_EVEN = "[SRC] CDNA4 ISA 11.4 (L1): DS ops of 64 bits or more use an even-aligned VGPR"
_EVEN_GFX908 = "[INF] gfx908 has no even-VGPR-tuple rule (it came with gfx90a)"
_NO_EVEN = "[INF] no even-VGPR rule known for this architecture"

LDS = (
    LdsFacts("CDNA1", 65536, 32, _SIZE_GFX9, _GFX9_PLAIN, (_CDNA12, _CDNA12_ROCROLLER),
             False, _EVEN_GFX908, 32),
    LdsFacts("CDNA2", 65536, 32, _SIZE_GFX9, _GFX9_PLAIN, (_CDNA12, _CDNA12_ROCROLLER),
             True, _EVEN, 32),
    LdsFacts("CDNA3", 65536, 32, "[SEC] MI300 ISA as quoted in L35: 64 kB in 32 banks of 512 "
             "dwords; L5", _GFX9_PLAIN, (CDNA3_MEASURED, CDNA3_ROCROLLER), True, _EVEN, 32),
    LdsFacts("CDNA4", 163840, 64, "[SRC] CDNA4 ISA 2.2.1, 11.1 (L1): 160 kB, 64 banks of 640 "
             "dwords; L5", _GFX950_TR[:1] + _GFX9_PLAIN[:4] + _GFX950_TR[1:] + _GFX9_PLAIN[4:],
             (CDNA4_MEASURED, CDNA4_ROCROLLER), True, _EVEN, 64),
    LdsFacts("RDNA3", 65536, 32, "[SRC] RDNA3 ISA 12.1 (L2): 64 KiB per workgroup, 64 banks "
             "per WGP in two sets of 32", _GFX11_PLAIN, (RDNA_ASSUMED, RDNA_IREE64), False,
             _NO_EVEN, 32),
    LdsFacts("RDNA4", 65536, 32, "[SRC] RDNA4 ISA 12.1 (L3): as RDNA3", _GFX11_PLAIN,
             (RDNA_ASSUMED, RDNA_IREE64), False, _NO_EVEN, 32),
    LdsFacts("GFX1250", 327680, 64, "[SRC] L5: 327680 B; [SEC] 64 banks (IREE, L17), no AMD "
             "text", _GFX1250_TR[:1] + _GFX11_PLAIN[:4] + _GFX1250_TR[1:] + _GFX11_PLAIN[4:],
             (GFX1250_ASSUMED,), False, _NO_EVEN, 64),
    LdsFacts("GFX1251", 327680, 64, "[SRC] L5: 327680 B (as gfx1250); [SEC] 64 banks (L17)",
             _GFX1250_TR[:1] + _GFX11_PLAIN[:4] + _GFX1250_TR[1:] + _GFX11_PLAIN[4:],
             (GFX1250_ASSUMED,), False, _NO_EVEN, 64),
)


def lds_facts(arch: str) -> LdsFacts | None:
    """The LDS facts of the architecture named `arch` (canonical name), or None."""
    for facts in LDS:
        if facts.arch == arch:
            return facts
    return None
