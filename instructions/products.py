"""Products as data: the AMD GPUs of every supported architecture, one line each, and the
per-architecture limits a kernel's budget reads (SIMDs, register files and their
allocation granules, wave slots, LDS). Every figure names its source (SOURCES keys);
where sources disagree, the `notes` say so and which one the figure follows.
docs/budget.md explains the choices."""
from __future__ import annotations

from instructions.record import Record

# Where the figures come from. Keys are used by the records below.
SOURCES = {
    "rocm-specs": "AMD GPU specifications, ROCm/rocm-docs @2b48ffc7 "
                  "docs/reference/gpu-specs.rst (CUs, VRAM, LDS per CU, VGPR file)",
    "rocm-mi350": "AMD Instinct MI350 Series microarchitecture, ROCm/rocm-docs @002654d6 "
                  "docs/reference/gpu-arch/mi350.rst (peaks, 8 TB/s, 288 GB)",
    "rocm-mi300": "AMD Instinct MI300 series microarchitecture, ROCm/legacy-rocm-build "
                  "@089d7513 docs/conceptual/gpu-arch/mi300.md (FLOPS/clock/CU, peaks, 5.3 TB/s)",
    "rocm-mi250": "AMD Instinct MI250 microarchitecture, ROCm/legacy-rocm-build @089d7513 "
                  "docs/conceptual/gpu-arch/mi250.md (1.7 GHz, peaks, 3.2 TB/s)",
    "rocm-mi100": "AMD Instinct MI100 microarchitecture, ROCm/legacy-rocm-build @089d7513 "
                  "docs/conceptual/gpu-arch/mi100.md (1.5 GHz, peaks, 1.228 TB/s, 10 waves)",
    "amd-page": "AMD's product specification page for the part (amd.com/en/products): peak "
                "engine (boost) clock, memory bandwidth; reproduced by the peak test",
    "amd-mi400": "AMD's MI400-series announcement (432 GB HBM4, 19.6 TB/s; CUs and clocks "
                 "not published)",
    "origami": "AMD origami's rocjitsu device tables, ROCm/rocm-libraries @fe629788 "
               "shared/origami/data/hardware/rocjitsu/*.json",
    "llvm22": "LLVM 22 (clang-22 22.1.8) AMDGPU: AMDGPUBaseInfo.cpp getTotalNumVGPRs, "
              "getVGPRAllocGranule, getMaxWavesPerEU, getMaxWorkGroupsPerCU, "
              "getAddressableLocalMemorySize; measured with -Rpass-analysis="
              "kernel-resource-usage (tests/data/llvm_occupancy.txt)",
}


class Limits(Record):
    """One architecture's per-CU and per-SIMD limits, as LLVM 22 models them for occupancy.
    unit: what the occupancy counts in (the CU; RDNA: the WGP, two CUs, in WGP mode);
    simds: SIMDs per unit; waves: wave slots per SIMD; vgprs: (wave size, VGPRs per SIMD,
    allocation granule) per wave size; agprs: "separate" (their own file, the same size and
    granule), "unified" (one file: AGPRs after the ArchVGPRs rounded to 4) or "none";
    addressable: the most VGPRs (ArchVGPRs + AGPRs) one wave may use; lds: LDS bytes per
    unit; lds_group: the most LDS one workgroup may take; barriers: the most workgroups
    of more than one wave per unit."""
    arch: str
    unit: str
    simds: int
    waves: int
    vgprs: tuple[tuple[int, int, int], ...]
    agprs: str
    addressable: int
    lds: int
    lds_group: int
    barriers: int
    cus_per_unit: int = 1
    notes: str = ""

    def vgpr_file(self, wave: int) -> tuple[int, int]:
        """(VGPRs per SIMD, allocation granule) for `wave`."""
        for size, total, granule in self.vgprs:
            if size == wave:
                return total, granule
        raise KeyError(wave)


_K = 1024
LIMITS = (
    Limits("CDNA1", "CU", 4, 10, ((64, 256, 4),), "separate", 512, 64 * _K, 64 * _K, 16,
           notes="ArchVGPRs and AccVGPRs: two 256-register files, each with granule 4"),
    Limits("CDNA2", "CU", 4, 8, ((64, 512, 8),), "unified", 512, 64 * _K, 64 * _K, 16),
    Limits("CDNA3", "CU", 4, 8, ((64, 512, 8),), "unified", 512, 64 * _K, 64 * _K, 16,
           notes="origami's rocjitsu MI300X table agrees: 8 waves/SIMD, 512 VGPRs, 64 KB"),
    Limits("CDNA4", "CU", 4, 8, ((64, 512, 8),), "unified", 512, 160 * _K, 160 * _K, 16),
    Limits("GFX9-4-GENERIC", "CU", 4, 8, ((64, 512, 8),), "unified", 512, 64 * _K, 64 * _K, 16,
           notes="what both members have: CDNA3's (gfx942's LDS, 64 KB; gfx950 has 160)"),
    Limits("RDNA3", "WGP", 4, 16, ((32, 1536, 24), (64, 768, 12)), "none", 256, 128 * _K,
           64 * _K, 32, cus_per_unit=2,
           notes="gfx1102/gfx1103 have 1024 (wave32) VGPRs, granule 16: see VGPR_OVERRIDES"),
    Limits("RDNA4", "WGP", 4, 16, ((32, 1536, 24), (64, 768, 12)), "none", 256, 128 * _K,
           64 * _K, 32, cus_per_unit=2),
    Limits("GFX1250", "CU", 4, 16, ((32, 1024, 16),), "none", 1024, 320 * _K, 320 * _K, 16,
           notes="origami's rocjitsu gfx1250 table (a copy of its MI350X row) says 20 "
                 "waves/SIMD and 160 KB LDS; LLVM 22 says 16 and 320 KB: LLVM followed"),
    Limits("GFX1251", "CU", 4, 16, ((32, 1024, 16),), "none", 1024, 320 * _K, 320 * _K, 16),
)

# gfx targets whose VGPR file differs from their architecture's (LLVM: no 1.5x VGPRs).
VGPR_OVERRIDES = {"gfx1102": ((32, 1024, 16), (64, 512, 8)),
                  "gfx1103": ((32, 1024, 16), (64, 512, 8))}


class GpuProduct(Record):
    """One product: name, the architecture it belongs to and its LLVM target, compute
    units, peak engine clock (MHz; None: not published), memory (GB, kind), memory
    bandwidth (GB/s), and the sources of those figures (SOURCES keys)."""
    name: str
    arch: str
    target: str
    cus: int | None
    clock: int | None
    memory: int
    memory_kind: str
    bandwidth: float
    sources: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    notes: str = ""


def _p(name: str, arch: str, target: str, cus: int | None, clock: int | None, memory: int,
       kind: str, bandwidth: float, *sources: str, aliases: tuple[str, ...] = (),
       notes: str = "") -> GpuProduct:
    """A product line; its CUs and memory size are rocm-specs' unless it is not there
    (the MI400 parts)."""
    listed = () if cus is None else ("rocm-specs",)
    return GpuProduct(name, arch, target, cus, clock, memory, kind, bandwidth,
                      listed + sources, aliases, notes)


PRODUCTS = (
    _p("MI100", "CDNA1", "gfx908", 120, 1502, 32, "HBM2", 1228.8, "rocm-mi100", "amd-page",
       notes="rocm-mi100 rounds the clock to 1.5 GHz; its 184.6 TFLOPs FP16 needs 1502 MHz"),
    _p("MI210", "CDNA2", "gfx90a", 104, 1700, 64, "HBM2e", 1638.4, "amd-page"),
    _p("MI250", "CDNA2", "gfx90a", 208, 1700, 128, "HBM2e", 3276.8, "rocm-mi250"),
    _p("MI250X", "CDNA2", "gfx90a", 220, 1700, 128, "HBM2e", 3276.8, "rocm-mi250",
       "amd-page"),
    _p("MI300A", "CDNA3", "gfx942", 228, 2100, 128, "HBM3", 5300, "amd-page"),
    _p("MI300X", "CDNA3", "gfx942", 304, 2100, 192, "HBM3", 5300, "rocm-mi300", "amd-page",
       notes="origami's rocjitsu MI300X table: 1216 SIMDs (304 CUs), 2100 MHz"),
    _p("MI325X", "CDNA3", "gfx942", 304, 2100, 256, "HBM3E", 6000, "amd-page"),
    _p("MI350X", "CDNA4", "gfx950", 256, 2200, 288, "HBM3E", 8000, "rocm-mi350", "amd-page",
       notes="origami's rocjitsu MI350X table says 2700 MHz; AMD's 2.3 PF FP16 needs 2200"),
    _p("MI355X", "CDNA4", "gfx950", 256, 2400, 288, "HBM3E", 8000, "rocm-mi350", "amd-page"),
    _p("MI455X", "GFX1250", "gfx1250", None, None, 432, "HBM4", 19600, "amd-mi400",
       notes="CUs and clock not published; the gfx1250 name is from secondary sources"),
    _p("MI430X", "GFX1251", "gfx1251", None, None, 432, "HBM4", 19600, "amd-mi400",
       notes="CUs and clock not published; the gfx1251 name is from secondary sources"),
    _p("Radeon RX 7900 XTX", "RDNA3", "gfx1100", 96, 2500, 24, "GDDR6", 960, "amd-page"),
    _p("Radeon RX 7900 XT", "RDNA3", "gfx1100", 84, 2400, 20, "GDDR6", 800, "amd-page"),
    _p("Radeon RX 7900 GRE", "RDNA3", "gfx1100", 80, 2245, 16, "GDDR6", 576, "amd-page"),
    _p("Radeon RX 7800 XT", "RDNA3", "gfx1101", 60, 2430, 16, "GDDR6", 624, "amd-page"),
    _p("Radeon RX 7700 XT", "RDNA3", "gfx1101", 54, 2544, 12, "GDDR6", 432, "amd-page"),
    _p("Radeon RX 7600", "RDNA3", "gfx1102", 32, 2655, 8, "GDDR6", 288, "amd-page"),
    _p("Radeon PRO W7900", "RDNA3", "gfx1100", 96, 2495, 48, "GDDR6", 864, "amd-page"),
    _p("Radeon PRO W7800", "RDNA3", "gfx1100", 70, None, 32, "GDDR6", 576, "amd-page",
       notes="peak clock not recorded here"),
    _p("Radeon PRO W7700", "RDNA3", "gfx1101", 48, 2600, 16, "GDDR6", 576, "amd-page"),
    _p("Radeon RX 9070 XT", "RDNA4", "gfx1201", 64, 2970, 16, "GDDR6", 640, "amd-page"),
    _p("Radeon RX 9070", "RDNA4", "gfx1201", 56, 2520, 16, "GDDR6", 640, "amd-page"),
    _p("Radeon RX 9060 XT", "RDNA4", "gfx1200", 32, 3130, 16, "GDDR6", 320, "amd-page"),
    _p("Radeon AI PRO R9700", "RDNA4", "gfx1201", 64, 2920, 32, "GDDR6", 640, "amd-page"),
)


def key_of(name: str) -> str:
    """The spelling products are looked up by: lower case, letters and digits only, no
    "AMD", "Instinct" or "Radeon" ("rx7900xtx", "mi355x", "aipror9700")."""
    key = name.lower()
    for word in ("amd", "instinct", "radeon"):
        key = key.replace(word, "")
    return "".join(ch for ch in key if ch.isalnum())


def find_product(name: str) -> GpuProduct | None:
    """The product called `name`: any case, with or without spaces and brand words, or
    the end of one product's name alone ("7900xtx", "r9700"); None if none or several."""
    key = key_of(name)
    if not key:
        return None
    exact = [p for p in PRODUCTS if key == key_of(p.name) or key in p.aliases]
    found = exact or [p for p in PRODUCTS if key_of(p.name).endswith(key)]
    return found[0] if len(found) == 1 else None


def products_matching(name: str) -> tuple[GpuProduct, ...]:
    """The products `name` may mean: the one it names (any case, brand words or not, or
    an alias), else those whose names end with it ("7900xtx"), else those that start with
    it ("rx7900", at least three letters or digits)."""
    key = key_of(name)
    if not key:
        return ()
    for chosen in ([p for p in PRODUCTS if key == key_of(p.name) or key in p.aliases],
                   [p for p in PRODUCTS if key_of(p.name).endswith(key)],
                   [p for p in PRODUCTS if len(key) >= 3 and key_of(p.name).startswith(key)]):
        if chosen:
            return tuple(chosen)
    return ()


def limits_of(arch: str) -> Limits:
    """The limits of the architecture called `arch` (canonical name)."""
    for limits in LIMITS:
        if limits.arch == arch:
            return limits
    raise KeyError(arch)
