#!/usr/bin/env python3
"""Regenerate the recorded LLVM answers for gfx1250 / gfx1251 matrix instructions.

    python3 tests/data/regen_gfx1250_llvm.py [--mc llvm-mc-22] [--mca llvm-mca-22]

writes, beside this script,
  gfx1250_llvm_mc.txt   one probe a line: the assembler input, a tab, LLVM's answer
                        ("enc [0x..,..]" plus "asm <text>" when LLVM prints the line
                        differently, or "error: <message>")
  gfx1250_llvm_mca.txt  the scheduling model's latency, reciprocal throughput and
                        resource of every instruction (and f8f6f4 format pair)

The probes are built here from this file's own list of instructions and their expected
operand widths (the fact sheet's §A.3); the answers are LLVM's, so a wrong expectation
shows up as rejected lines. Width probes vary one operand over WIDTHS while the others
keep their expected widths; modifier probes add one modifier set to the baseline line.
Everything is in a fixed order, so two runs with the same LLVM give identical files.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
WIDTHS = (1, 2, 4, 8, 12, 16)          # VGPR tuple sizes tried for each operand
FORMATS = ("FP8", "BF8", "FP6", "BF6", "FP4")  # MATRIX_FMT_*, codes 0..4
FORMAT_WIDTH = {"FP8": 16, "BF8": 16, "FP6": 12, "BF6": 12, "FP4": 8}
# First VGPR of each operand in the probes (far enough apart for 16-wide tuples).
# -mattr of the wave64 probes (+wavefrontsize64 alone leaves wave32 on: both are set).
WAVE64 = "-wavefrontsize32,+wavefrontsize64"
BASE = {"D": 0, "A": 32, "B": 64, "C": 96, "SA": 128, "SB": 136}


class Spec(NamedTuple):
    """An instruction and the operand widths the fact sheet expects (VGPRs; 0 = absent).

    kind: "wmma", "swmmac" (src2 is the sparse index, C tied to D), "scale" (two extra
    32-bit scale sources) or "scale16" (64-bit scale sources)."""
    mnemonic: str
    mcpu: str
    d: int
    a: int
    b: int
    c: int
    kind: str = "wmma"


def _dense() -> list[Spec]:
    specs = [Spec("v_wmma_f32_16x16x4_f32", "gfx1250", 8, 2, 2, 8),
             Spec("v_wmma_f32_16x16x32_f16", "gfx1250", 8, 8, 8, 8),
             Spec("v_wmma_f16_16x16x32_f16", "gfx1250", 4, 8, 8, 4),
             Spec("v_wmma_f32_16x16x32_bf16", "gfx1250", 8, 8, 8, 8),
             Spec("v_wmma_bf16_16x16x32_bf16", "gfx1250", 4, 8, 8, 4),
             Spec("v_wmma_bf16f32_16x16x32_bf16", "gfx1250", 4, 8, 8, 8)]
    for k, ab in ((64, 8), (128, 16)):
        for out, cd in (("f32", 8), ("f16", 4)):
            for a in ("fp8", "bf8"):
                for b in ("fp8", "bf8"):
                    specs.append(Spec(f"v_wmma_{out}_16x16x{k}_{a}_{b}", "gfx1250", cd, ab, ab, cd))
        if k == 64:
            specs.append(Spec("v_wmma_i32_16x16x64_iu8", "gfx1250", 8, 8, 8, 8))
    specs += [Spec("v_wmma_f32_16x16x128_f8f6f4", "gfx1250", 8, 16, 16, 8),
              Spec("v_wmma_f32_32x16x128_f4", "gfx1250", 16, 16, 8, 16)]
    return specs


def _scaled() -> list[Spec]:
    return [Spec("v_wmma_scale_f32_16x16x128_f8f6f4", "gfx1250", 8, 16, 16, 8, "scale"),
            Spec("v_wmma_scale16_f32_16x16x128_f8f6f4", "gfx1250", 8, 16, 16, 8, "scale16"),
            Spec("v_wmma_scale_f32_32x16x128_f4", "gfx1250", 16, 16, 8, 16, "scale"),
            Spec("v_wmma_scale16_f32_32x16x128_f4", "gfx1250", 16, 16, 8, 16, "scale16")]


def _sparse() -> list[Spec]:
    specs = [Spec(f"v_swmmac_{name}_16x16x64_{ab}", "gfx1250", d, 8, 16, 1, "swmmac")
             for name, ab, d in (("f32", "f16", 8), ("f32", "bf16", 8), ("f16", "f16", 4),
                                 ("bf16", "bf16", 4), ("bf16f32", "bf16", 8))]
    for out, d in (("f32", 8), ("f16", 4)):
        for a in ("fp8", "bf8"):
            for b in ("fp8", "bf8"):
                specs.append(Spec(f"v_swmmac_{out}_16x16x128_{a}_{b}", "gfx1250", d, 8, 16, 2,
                                  "swmmac"))
    specs.append(Spec("v_swmmac_i32_16x16x128_iu8", "gfx1250", 8, 8, 16, 2, "swmmac"))
    return specs


SPECS = _dense() + _scaled() + _sparse() + [
    Spec("v_wmma_f64_16x16x4_f64", "gfx1251", 16, 4, 4, 16)]


def vreg(base: int, width: int) -> str:
    return f"v{base}" if width == 1 else f"v[{base}:{base + width - 1}]"


def sreg(width: int) -> str:
    return "s0" if width == 1 else f"s[0:{width - 1}]"


def scale_width(spec: Spec) -> int:
    return 2 if spec.kind == "scale16" else 1


Override = dict[str, "int | str"]


def line(spec: Spec, mods: str = "", over: Override | None = None) -> str:
    """The assembler line of `spec`; `over` overrides operands (a width or a text)."""
    def operand(name: str, width: int) -> str:
        given = (over or {}).get(name, width)
        return given if isinstance(given, str) else vreg(BASE[name], given)
    ops = [operand("D", spec.d), operand("A", spec.a), operand("B", spec.b),
           operand("C", spec.c)]
    if spec.kind in ("scale", "scale16"):
        ops += [operand("SA", scale_width(spec)), operand("SB", scale_width(spec))]
    text = f"{spec.mnemonic} {', '.join(ops)}"
    return f"{text} {mods}" if mods else text


NEG = ["neg_lo:[1,0,0]", "neg_lo:[0,1,0]", "neg_lo:[0,0,1]",
       "neg_hi:[1,0,0]", "neg_hi:[0,1,0]", "neg_hi:[0,0,1]",
       "neg_lo:[1,0,0] neg_hi:[1,0,0]", "neg_lo:[0,1,0] neg_hi:[0,1,0]",
       "neg_lo:[0,0,1] neg_hi:[0,0,1]", "neg_lo:[1,1,0]"]
OTHER = ["clamp", "matrix_a_reuse", "matrix_b_reuse", "matrix_a_reuse matrix_b_reuse",
         "index_key:0", "index_key:1", "index_key:2", "index_key:3",
         "op_sel:[1,0,0]", "op_sel_hi:[0,0,0]",
         "matrix_a_fmt:MATRIX_FMT_FP8", "matrix_b_fmt:MATRIX_FMT_FP8",
         "matrix_a_scale:MATRIX_SCALE_ROW0", "matrix_a_scale:MATRIX_SCALE_ROW1",
         "matrix_b_scale:MATRIX_SCALE_ROW1", "matrix_a_scale:1",
         "matrix_a_scale_fmt:MATRIX_SCALE_FMT_E8", "matrix_a_scale_fmt:MATRIX_SCALE_FMT_E5M3",
         "matrix_a_scale_fmt:MATRIX_SCALE_FMT_E4M3", "matrix_b_scale_fmt:MATRIX_SCALE_FMT_E5M3",
         "matrix_b_scale_fmt:MATRIX_SCALE_FMT_E4M3", "matrix_a_scale_fmt:3"]


def format_pairs() -> list[tuple[str, str]]:
    return [(a, b) for a in FORMATS for b in FORMATS]


def fmt_line(spec: Spec, fa: str, fb: str, mods: str = "", over: Override | None = None) -> str:
    """A line of an f8f6f4 instruction with A in format fa and B in fb."""
    mod = " ".join(x for x in (f"matrix_a_fmt:MATRIX_FMT_{fa}" if fa != "FP8" else "",
                               f"matrix_b_fmt:MATRIX_FMT_{fb}" if fb != "FP8" else "", mods) if x)
    return line(spec._replace(a=FORMAT_WIDTH[fa], b=FORMAT_WIDTH[fb]), mod, over)


Probe = tuple[str, str, str]


def _base_probes(spec: Spec) -> list[Probe]:
    """The line in wave32 and wave64, one VGPR up, on the other processor."""
    cpu = spec.mcpu
    out = [(cpu, "", line(spec)), (cpu, WAVE64, line(spec))]
    # GPR alignment: every operand one VGPR up (odd first registers)
    widths = {"D": spec.d, "A": spec.a, "B": spec.b, "C": spec.c,
              "SA": scale_width(spec), "SB": scale_width(spec)}
    out.append((cpu, "", line(spec, over={n: vreg(BASE[n] + 1, w)
                                          for n, w in widths.items()})))
    if spec.mcpu == "gfx1251":
        out.append(("gfx1250", "", line(spec)))
    else:  # gfx1251 shares the gfx1250 set
        out.append(("gfx1251", "", line(spec)))
    return out


def _operand_probes(spec: Spec) -> list[Probe]:
    """Other register widths, scale and C operands, an SGPR A, every modifier."""
    cpu = spec.mcpu
    out: list[Probe] = []
    for name, width in (("D", spec.d), ("A", spec.a), ("B", spec.b), ("C", spec.c)):
        out += [(cpu, "", line(spec, over={name: w})) for w in WIDTHS if w != width]
    if spec.kind in ("scale", "scale16"):
        for name in ("SA", "SB"):
            for alt in ("v1", "v[2:3]", "v[4:6]", "s1", "s[2:3]", "1", "1.0"):
                out.append((cpu, "", line(spec, over={name: alt})))
    if spec.kind != "swmmac":
        for c in ("1.0", "1", "3.0", "128", sreg(spec.c)):
            out.append((cpu, "", line(spec, over={"C": c})))
    out.append((cpu, "", line(spec, over={"A": sreg(spec.a)})))
    out += [(cpu, "", line(spec, mods)) for mods in NEG + OTHER]
    return out


def _format_probes(spec: Spec) -> list[Probe]:
    """An f8f6f4 instruction's format codes, format pairs and their operand widths."""
    cpu = spec.mcpu
    out: list[Probe] = []
    for code in range(6):
        width = FORMAT_WIDTH[FORMATS[code]] if code < 5 else 16
        out.append((cpu, "", line(spec, f"matrix_a_fmt:{code}", {"A": width})))
        out.append((cpu, "", line(spec, f"matrix_b_fmt:{code}", {"B": width})))
    for fa, fb in format_pairs():
        out.append((cpu, "", fmt_line(spec, fa, fb)))
        if spec.kind != "wmma" and fa != fb:
            continue  # widths of every pair once (unscaled); scaled: the diagonal
        for name in ("A", "B"):
            want = FORMAT_WIDTH[fa if name == "A" else fb]
            out += [(cpu, "", fmt_line(spec, fa, fb, over={name: w}))
                    for w in WIDTHS if w != want]
    return out


def probes() -> list[tuple[str, str, str]]:
    """(mcpu, -mattr, line) of every probe, in a fixed order."""
    out: list[tuple[str, str, str]] = []
    for spec in SPECS:
        out += _base_probes(spec) + _operand_probes(spec)
        if "f8f6f4" in spec.mnemonic:
            out += _format_probes(spec)
    # Standalone scale loads (the first half of every scaled WMMA) and, for the record,
    # the RDNA4 16x16x16 forms, which the gfx1250 assembler also accepts.
    for text in ("v_wmma_ld_scale_paired_b32 v1, v2",
                 "v_wmma_ld_scale_paired_b32 v1, v2 matrix_a_scale:MATRIX_SCALE_ROW1",
                 "v_wmma_ld_scale16_paired_b64 v[2:3], v[4:5]",
                 "v_wmma_f32_16x16x16_f16 v[8:15], v[0:3], v[4:7], v[8:15]",
                 "v_swmmac_f32_16x16x32_f16 v[12:19], v[0:3], v[4:11], v20"):
        out.append(("gfx1250", "", text))
    return out


ENC = re.compile(r"^\s*(.*?)\s*; encoding: (\[.*\])\s*$")
DIAG = re.compile(r"^[^:]*:(\d+):\d+: (error|warning): (.*)$")


def assemble(tool: str, mcpu: str, mattr: str, lines: list[str]) -> list[str]:
    """LLVM's answer for each line, in one llvm-mc run (errors name their line)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.s"
        src.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
        cmd = [tool, "-triple=amdgcn", f"-mcpu={mcpu}", "-show-encoding", str(src)]
        if mattr:
            cmd.insert(3, f"-mattr={mattr}")
        done = subprocess.run(cmd, capture_output=True, text=True, check=False,
                              env={**os.environ, "LC_ALL": "C"})
    errors: dict[int, str] = {}
    for text in done.stderr.splitlines():
        found = DIAG.match(text)
        if found and found.group(2) == "error":
            errors.setdefault(int(found.group(1)), "error: " + found.group(3))
    encodings = [m.groups() for m in map(ENC.match, done.stdout.splitlines()) if m]
    answers, it = [], iter(encodings)
    for number, source in enumerate(lines, 1):
        if number in errors:
            answers.append(errors[number])
            continue
        asm, enc = next(it)
        canonical = " ".join(asm.split())
        answers.append(f"enc {enc}" + ("" if canonical == source else f" asm {canonical}"))
    if next(it, None) is not None:
        raise SystemExit(f"{tool}: more encodings than accepted lines")
    return answers


def mca(tool: str, mcpu: str, lines: list[str]) -> list[str]:
    """Latency, reciprocal throughput and resource of each line (llvm-mca, one run)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.s"
        src.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
        done = subprocess.run([tool, "-mtriple=amdgcn", f"-mcpu={mcpu}", "-iterations=1",
                               "-instruction-info", "-resource-pressure", str(src)],
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "LC_ALL": "C"})
    text = done.stdout
    resources = dict(re.findall(r"^\[(\d+)\]\s+- (\w+)$", text, re.MULTILINE))
    info = text.split("Instructions:\n", 2)[1].split("\n\n")[0].splitlines()
    pressure = text.split("Resource pressure by instruction:\n")[1].splitlines()[1:]
    answers = []
    for row, used in zip(info, pressure):
        cols = row.split()
        cells = used.split()[:len(resources)]
        busy = [f"{resources[str(i)]}={c}" for i, c in enumerate(cells) if c != "-"]
        answers.append(f"latency {cols[1]}\trthroughput {cols[2]}\t{' '.join(busy)}")
    if len(answers) != len(lines):
        raise SystemExit(f"{tool}: {len(answers)} answers for {len(lines)} lines")
    return answers


def version(tool: str) -> str:
    out = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"LLVM version (\S+)", out)
    return found.group(1) if found else "unknown"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mc", default="llvm-mc-22")
    parser.add_argument("--mca", default="llvm-mca-22")
    args = parser.parse_args(argv)
    groups: dict[tuple[str, str], list[str]] = {}
    order = probes()
    for cpu, mattr, text in order:
        groups.setdefault((cpu, mattr), []).append(text)
    answered = {key: dict(zip(lines, assemble(args.mc, key[0], key[1], lines)))
                for key, lines in groups.items()}
    head = (f"# Recorded by tests/data/regen_gfx1250_llvm.py with {Path(args.mc).name} "
            f"(LLVM {version(args.mc)}).\n# Columns: mcpu[+mattr] TAB assembler input TAB "
            "answer (enc [bytes] [asm printed form] | error: message)\n")
    rows = [f"{cpu}{' -mattr=' + mattr if mattr else ''}\t{text}\t{answered[(cpu, mattr)][text]}"
            for cpu, mattr, text in order]
    (HERE / "gfx1250_llvm_mc.txt").write_text(head + "\n".join(rows) + "\n", encoding="utf-8")
    # Scheduling model: every instruction once, every f8f6f4 form per format pair (only
    # what this LLVM's assembler accepts: llvm-mca stops at the first line it cannot parse).
    timed: list[tuple[str, str]] = []
    for spec in SPECS:
        timed.append((spec.mcpu, line(spec)))
        if "f8f6f4" in spec.mnemonic:
            timed += [(spec.mcpu, fmt_line(spec, fa, fb)) for fa, fb in format_pairs()
                      if (fa, fb) != ("FP8", "FP8")]
    timed = [(cpu, text) for cpu, text in timed
             if answered[(cpu, "")][text].startswith("enc ")]
    mca_rows = []
    for cpu in ("gfx1250", "gfx1251"):
        lines = [text for c, text in timed if c == cpu]
        if not lines:
            continue
        mca_rows += [f"{cpu}\t{t}\t{a}" for t, a in zip(lines, mca(args.mca, cpu, lines))]
    head = (f"# Recorded by tests/data/regen_gfx1250_llvm.py with {Path(args.mca).name} "
            f"(LLVM {version(args.mca)}): the compiler's scheduling model, not the ISA's.\n"
            "# Columns: mcpu TAB input TAB latency TAB reciprocal throughput TAB resources\n")
    (HERE / "gfx1250_llvm_mca.txt").write_text(head + "\n".join(mca_rows) + "\n",
                                               encoding="utf-8")
    print(f"{len(rows)} assembler probes, {len(mca_rows)} scheduling rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
