"""LLVM's AMDGPU targets with matrix instructions, as users type them: one record per
processor or generic target (the architecture it answers with, its members, products,
the LLVM source and confidence of each fact), and the reading of a name a user types:
a target ID with features (`gfx942:sramecc+:xnack-`, as rocminfo and --offload-arch
print them, with or without `amdgcn-amd-amdhsa--`), a generic target, a product name.

Sources (docs/sources.md, "LLVM targets"): llvm/llvm-project llvm/docs/AMDGPUUsage.rst
(the processor and generic processor tables) @f5c8b0a9, llvm/include/llvm/BinaryFormat/
ELF.h (EF_AMDGPU_MACH_*) @60fce12c, the MC tests named per record and the pull
requests named in the notes. Confidence: SRC read in LLVM; INF our reading where LLVM
is silent (the note says what rests on what).
"""
from __future__ import annotations

from instructions.record import Record

# Where the target facts come from (keys of Target.source).
SOURCES = {
    "llvm-usage": "llvm/llvm-project @f5c8b0a9 llvm/docs/AMDGPUUsage.rst (processors, "
                  "generic processors, target features)",
    "llvm-elf": "llvm/llvm-project @60fce12c llvm/include/llvm/BinaryFormat/ELF.h "
                "(EF_AMDGPU_MACH_* numbers)",
    "llvm-mc-gfx1170": "llvm/llvm-project @5eeef8d5 llvm/test/MC/AMDGPU/"
                       "gfx1170_asm_wmma_w32.s (PR #180731: RDNA4's WMMA and SWMMAC with "
                       "the gfx12 encodings; recorded in tests/data/gfx1170_llvm_mc.txt)",
    "llvm-pr": "llvm/llvm-project pull requests (named in the note)",
}

# The target features a target ID may carry, each with + or - (AMDGPUUsage.rst, "Target
# Features"): sramecc and xnack on the CDNA processors; none on RDNA or gfx12.5.
CDNA_FEATURES = ("sramecc", "xnack")


class Target(Record):
    """One LLVM AMDGPU target: name (its --offload-arch spelling); arch: the canonical
    name of the architecture whose matrix instructions it has ("" for none: a generic
    target of processors without matrix instructions); members: a generic target's
    processors (() for a processor); elf: its EF_AMDGPU_MACH number (0: not recorded
    here); products: its products ("" none recorded, "TBA" as LLVM says); features: the
    target features its target ID may name; source: SOURCES keys; confidence: SRC or INF;
    provisional: LLVM says its matrix set is for now another target's; note: what rests
    on what."""
    name: str
    arch: str
    members: tuple[str, ...] = ()
    elf: int = 0
    products: str = ""
    features: tuple[str, ...] = ()
    source: tuple[str, ...] = ("llvm-usage",)
    confidence: str = "SRC"
    provisional: bool = False
    note: str = ""

    @property
    def generic(self) -> bool:
        return bool(self.members)

    def summary(self) -> str:
        """One line: what the target is and where that comes from."""
        if not self.arch:
            return (f"{self.name}: a generic target of {', '.join(self.members)}, which "
                    "have no matrix instructions")
        what = (f"generic target of {', '.join(self.members)}; answered with the "
                f"instructions every member has ({self.arch})" if self.generic
                else f"answered as {self.arch}")
        extra = "; PROVISIONAL" if self.provisional else ""
        note = f"; {self.note}" if self.note else ""
        return f"{self.name}: {what}{extra}{note} [{self.confidence}: " \
               f"{', '.join(self.source)}]"


_GFX11 = ("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152",
          "gfx1153", "gfx1154")
_GFX117 = ("gfx1170", "gfx1171", "gfx1172")
_RDNA4M = ("GFX11.7 ('RDNA 4m', APUs; products TBA): LLVM PRs #180185, #187735 define "
           "them; PR #180731 gives them RDNA4's WMMA and SWMMAC with the gfx12 "
           "encodings (its MC test's opcodes and operand widths are RDNA4's)")
_GFX1310 = ("LLVM PR #177355 (2026-01) defines gfx1310 'for now identical to gfx1250': "
            "its matrix set is gfx1250's until LLVM says otherwise; PR #208416 removed the "
            "F4/F6 transpose loads from GFX13 (no matrix instruction); wave64 on gfx13 "
            "(PR #198629) has no matrix instruction of its own in LLVM's tests: answered "
            "for wave32, as gfx1250")

TARGETS = (
    Target("gfx908", "CDNA1", products="Instinct MI100", features=CDNA_FEATURES),
    Target("gfx90a", "CDNA2", products="Instinct MI210, MI250, MI250X",
           features=CDNA_FEATURES),
    Target("gfx940", "CDNA3", features=CDNA_FEATURES,
           note="an early CDNA3 processor: its matrix set is gfx942's"),
    Target("gfx941", "CDNA3", features=CDNA_FEATURES,
           note="an early CDNA3 processor: its matrix set is gfx942's"),
    Target("gfx942", "CDNA3", products="Instinct MI300A, MI300X, MI325X",
           features=CDNA_FEATURES),
    Target("gfx950", "CDNA4", products="Instinct MI350X, MI355X", features=CDNA_FEATURES),
    Target("gfx9-4-generic", "GFX9-4-GENERIC", ("gfx942", "gfx950"), 0x5F,
           features=CDNA_FEATURES, source=("llvm-usage", "llvm-elf"),
           note="CDNA3's set without the xf32 MFMAs (not on gfx950) and without the "
                "fp8/bf8 ones (FNUZ on gfx942, OCP on gfx950: LLVM 22 gives the generic "
                "target no fp8-insts, llvm-mc-22 -mcpu=gfx9-4-generic)"),
    *(Target(name, "RDNA3") for name in _GFX11[:8]),
    Target("gfx1154", "RDNA3", elf=0x57, products="TBA", source=("llvm-usage", "llvm-elf",
                                                                 "llvm-pr"),
           note="a GFX11.5 (RDNA 3.5) processor, LLVM PR #204816 (2026-06)"),
    Target("gfx11-generic", "RDNA3", _GFX11, 0x54, source=("llvm-usage", "llvm-elf")),
    Target("gfx1170", "RDNA4", elf=0x5D, products="TBA",
           source=("llvm-usage", "llvm-elf", "llvm-mc-gfx1170"), note=_RDNA4M),
    Target("gfx1171", "RDNA4", elf=0x5E, products="TBA",
           source=("llvm-usage", "llvm-elf", "llvm-pr"), note=_RDNA4M),
    Target("gfx1172", "RDNA4", elf=0x5C, products="TBA",
           source=("llvm-usage", "llvm-elf", "llvm-pr"), note=_RDNA4M),
    Target("gfx11-7-generic", "RDNA4", _GFX117, 0x62, source=("llvm-usage", "llvm-elf")),
    Target("gfx1200", "RDNA4", products="Radeon RX 9060, RX 9060 XT"),
    Target("gfx1201", "RDNA4", products="Radeon RX 9070, RX 9070 XT, RX 9070 GRE, "
                                        "AI PRO R9700"),
    Target("gfx12-generic", "RDNA4", ("gfx1200", "gfx1201"), 0x59,
           source=("llvm-usage", "llvm-elf")),
    Target("gfx1250", "GFX1250", products="TBA (secondary sources: Instinct MI450 series)"),
    Target("gfx1250-strict", "GFX1250", elf=0xEB, source=("llvm-elf", "llvm-pr"),
           note="LLVM PR #218543 (2026-08): gfx1250 with a feature that changes no "
                "instruction yet"),
    Target("gfx1251", "GFX1251", products="TBA (secondary sources: Instinct MI430X)"),
    Target("gfx12-5-generic", "GFX1250", ("gfx1250", "gfx1251"), 0x5B,
           source=("llvm-usage", "llvm-elf", "llvm-pr"),
           note="LLVM PR #183381: 'functionally equivalent to gfx1250'; gfx1251's "
                "v_wmma_f64_16x16x4_f64 is not in it"),
    Target("gfx1310", "GFX1250", elf=0x50, products="TBA", source=("llvm-pr",),
           provisional=True, note=_GFX1310),
    Target("gfx13-generic", "GFX1250", ("gfx1310",), 0x63, source=("llvm-elf", "llvm-pr"),
           provisional=True, note=_GFX1310),
    Target("gfx9-generic", "", ("gfx900", "gfx902", "gfx904", "gfx906", "gfx909",
                                "gfx90c")),
    Target("gfx10-1-generic", "", ("gfx1010", "gfx1011", "gfx1012", "gfx1013")),
    Target("gfx10-3-generic", "", ("gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034",
                                   "gfx1035", "gfx1036")),
)

_BY_NAME = {target.name: target for target in TARGETS}

TRIPLE = "amdgcn-amd-amdhsa--"


class TargetId(Record):
    """A name read as a target ID: the processor and its features ((name, "+"/"-"))."""
    processor: str
    features: tuple[tuple[str, str], ...]


def split_target_id(name: str) -> TargetId | str:
    """`name` (lower case) read as processor[:feature(+|-)]...; a string saying what is
    wrong when the features do not read so."""
    text = name[len(TRIPLE):] if name.startswith(TRIPLE) else name
    processor, *features = text.split(":")
    seen: list[tuple[str, str]] = []
    for feature in features:
        flag, sign = feature[:-1], feature[-1:]
        if sign not in ("+", "-") or not flag:
            return (f"target feature {feature!r} of {name!r}: write it as NAME+ or NAME- "
                    f"({' or '.join(CDNA_FEATURES)})")
        if flag in (f for f, _ in seen):
            return f"target feature {flag!r} given twice in {name!r}"
        seen.append((flag, sign))
    return TargetId(processor, tuple(seen))


def find_target(name: str) -> Target | None:
    """The target record called `name` (an --offload-arch name, lower case), or None."""
    return _BY_NAME.get(name)


def check_features(target: Target, features: tuple[tuple[str, str], ...]) -> str:
    """"" when `target` takes every feature of `features`; else what it takes."""
    for flag, _ in features:
        if flag not in target.features:
            takes = (f"takes {' and '.join(target.features)}" if target.features
                     else "takes no target features")
            return f"{target.name} has no target feature {flag!r} (it {takes})"
    return ""


def target_of(name: str) -> Target | None:
    """The target record a name typed for an architecture names (a target ID's
    processor), or None."""
    parsed = split_target_id(name.lower())
    return None if isinstance(parsed, str) else find_target(parsed.processor)
