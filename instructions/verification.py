"""What each instruction's layouts and facts are checked against, as data.

A `Source` is one kind of check (the reference calculator's recorded outputs, LLVM 22,
the probe in the lane emulation, AMD's own code, Triton, a run on a GPU); an
instruction's record is the list of (source key, detail) its checks found, read from
verification_checks.checks_of (written by scripts/record_verification.py from the
repository's recorded data), plus the points where sources disagree (DISAGREEMENTS and
the alternatives the recorded sources give). No hardware run is recorded yet: the probe
(`--emit probe`) is how a GPU owner adds one, and REPORT says where.
"""


from __future__ import annotations

from instructions import ISSUES
from instructions import verification_checks as record
from instructions.record import Record


class Source(Record):
    """key: the catalog's `checked=` value; title: how -d names it; what: what was
    compared; where: the code, data or tool (repository, commit, path)."""
    key: str
    title: str
    what: str
    where: str


SOURCES: tuple[Source, ...] = (
    Source("reference", "AMD's Matrix Instruction Calculator",
           "its recorded outputs (layouts -R/-M/-g/-m and -d) replayed byte for byte",
           "ROCm/amd_matrix_instruction_calculator v1.3.2 (2ef9189), outputs recorded in "
           "tests/data/golden/public.jsonl.gz (about a quarter of its command space)"),
    Source("llvm", "LLVM 22",
           "clang-22 compiles the builtin call of --emit hip (every operand through the "
           "fragment code) to the instruction with the modifiers asked "
           "(scripts/check_hip.py); gfx1250/gfx1251: llvm-mc-22 encodings and operand "
           "widths (tests/data/gfx1250_llvm_mc.txt)",
           "Debian clang-22 / llvm-mc-22 22.1.8"),
    Source("emulation", "the probe in the lane emulation",
           "--emit probe runs every variant in a gcc wavefront emulation whose model of the "
           "instruction reads the layout engine's places; every variant passes",
           "scripts/check_probe.py"),
    Source("composable_kernel", "composable_kernel", "its gfx1250 layouts",
           "ROCm/composable_kernel @0324c72d, @219f222c (docs/gfx1250.md)"),
    Source("rocjitsu", "rocjitsu (AMD's emulator)", "its gfx1250 operand placement",
           "ROCm/rocm-systems @6ceb4b42 emulation/rocjitsu (docs/gfx1250.md)"),
    Source("aiter", "aiter", "its gfx1250 MXFP4 GEMM's fragments",
           "ROCm/aiter @e4048607 (docs/gfx1250.md)"),
    Source("flydsl", "FlyDSL", "its gfx1250 scaled MMA atom",
           "ROCm/FlyDSL @11c4174d (docs/gfx1250.md)"),
    Source("triton", "Triton", "its gfx950 scale layouts (docs/cdna4.md)",
           "triton-lang/triton (commit not recorded)"),
    Source("hardware", "a run on the GPU", "none yet: run the probe and report it",
           "--emit probe (docs/verification.md)"),
)

SOURCE_KEYS = tuple(source.key for source in SOURCES)

# Where a GPU owner reports a probe run.
REPORT = (f"open an issue at {ISSUES} titled 'probe: <target>' with the "
          "command, the full output and rocminfo's marketing name of the GPU")


class Disagreement(Record):
    """Where sources disagree about one instruction: the architecture, mnemonics, what
    they disagree on and what the calculator follows."""
    arch: str
    mnemonics: tuple[str, ...]
    text: str


DISAGREEMENTS: tuple[Disagreement, ...] = (
    Disagreement("CDNA1", ("v_mfma_i32_16x16x16i8",),
                 "opcode: the reference prints 0x54/0x14, LLVM's MC tests 0x55/0x15; LLVM "
                 "is followed"),
    Disagreement("CDNA2", ("v_mfma_i32_16x16x16i8",),
                 "opcode: the reference prints 0x54/0x14, LLVM's MC tests 0x55/0x15; LLVM "
                 "is followed"),
    Disagreement("CDNA3", ("v_mfma_i32_32x32x16_i8",),
                 "opcode: the reference prints 0x54/0x14, LLVM's MC tests and the CDNA4 ISA "
                 "0x56/0x16; LLVM is followed"),
    Disagreement("CDNA3", ("v_mfma_i32_16x16x32_i8",),
                 "opcode: the reference prints 0x54/0x14, LLVM's MC tests and the CDNA4 ISA "
                 "0x57/0x17; LLVM is followed"),
    Disagreement("CDNA4", ("v_mfma_f64_4x4x4_4b_f64",),
                 "cycles: the ISA's section 12.10 and LLVM's model say 16, its Table 28 "
                 "says 32; 16 is kept"),
)


def disagreements(arch: str, mnemonic: str) -> tuple[str, ...]:
    """The disagreement texts recorded for one instruction (hand-kept and recorded)."""
    found = [d.text for d in DISAGREEMENTS if d.arch == arch and mnemonic in d.mnemonics]
    return (*found, *record.alternatives_of(arch).get(mnemonic, ()))


def checks(arch: str, mnemonic: str) -> tuple[tuple[str, str], ...]:
    """(source key, detail) of every check recorded for one instruction, in SOURCES
    order; a hardware run is ("hardware", "none yet")."""
    found = dict(record.checks_of(arch).get(mnemonic, ()))
    found.setdefault("hardware", "none yet")
    return tuple((key, found[key]) for key in SOURCE_KEYS if key in found)
