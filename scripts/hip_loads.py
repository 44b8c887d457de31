#!/usr/bin/env python3
"""Count the memory instructions clang-22 emits for the fragment loads and stores of a
sample of operands, and write them to tests/data/hip_loads.txt.

    python3 scripts/hip_loads.py [--clang clang-22] [--check]

Each sample is `--emit hip` of one matrix with a fixed --ld, plus a probe kernel that
hands the load (or the store) a tile, compiled with MC_TILES_ALIGNED defined (the
caller's promise of 16-byte-aligned tiles), so that the alignment check and its
fallback fold away and the assembly shows the vector path alone. A line of the data file
is `ARGS | TARGET | counts`, counts being `mnemonic=N` for every global/ds/flat memory
instruction of the probe kernel. --check compares with the file instead of writing it
(exit status 1 on a difference); tests/formats/test_hip_loads.py reads the file, and runs the
check where clang-22 is installed.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from formats import hip
from formats.hip.common import prefix_of
from formats.hip.loads import operand_name
from instructions import TARGETS
from matrix_library import api as mc

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                    "hip_loads.txt")

# (architecture, instruction, matrix, modifiers, order, ld, wave)
SAMPLES = (
    ("cdna3", "v_mfma_f32_32x32x8_f16", "A", {}, "row", 64, 64),
    ("cdna3", "v_mfma_f32_32x32x8_f16", "B", {}, "col", 64, 64),
    ("cdna3", "v_mfma_f32_32x32x8_f16", "B", {}, "row", 64, 64),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "D", {}, "col", 64, 64),
    ("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "A", {}, "row", 64, 64),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "A", {"cbsz": 4, "blgp": 4}, "row", 128, 64),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "B", {"cbsz": 4, "blgp": 4}, "col", 128, 64),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "A", {"cbsz": 2, "blgp": 2}, "row", 128, 64),
    ("cdna4", "v_mfma_f32_16x16x128_f8f6f4", "A", {}, "row", 128, 64),
    ("rdna4", "v_wmma_f32_16x16x16_f16", "A", {}, "row", 64, 32),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "A", {}, "row", 64, 32),
    ("gfx1250", "v_wmma_f32_16x16x128_f8f6f4", "A", {"matrix_a_fmt": 4}, "row", 128, 32),
)


def sample_args(arch: str, name: str, matrix: str, mods: dict[str, int], order: str,
                ld: int, wave: int) -> str:
    flag = {"A": "-A", "B": "-B", "C": "-C", "D": "-D"}[matrix]
    extra = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in mods.items())
    return (f"-a {arch} -i {name} -w {wave} {flag} --emit hip --order {order} --ld {ld}"
            + (f" {extra}" if extra else ""))


def probe_source(arch: str, name: str, matrix: str, mods: dict[str, int], order: str,
                 ld: int, wave: int) -> tuple[str, str]:
    """(target, HIP source with the operand's functions and a probe kernel)."""
    inst = mc.find_instruction(arch, name)
    options = hip.Options(ld=ld, order=order)
    code = hip.emit(inst, matrix, mods, wave, options)
    checked = mc.modifiers(mods)
    resolved = mc.with_formats(inst, checked)
    fn = operand_name(prefix_of(resolved, checked, wave, options), matrix)
    ctype = hip.operand_type(resolved, matrix, wave)
    mem = code.split(f"{fn}_load(const ", 1)[1].split("*", 1)[0]
    if matrix == "D":
        body = (f"    {ctype.name} f;\n    __builtin_memcpy(&f, io + MC_THREAD_X * "
                f"(sizeof f / 4), sizeof f);\n    {fn}_store(t, f);")
        tile = f"{mem}* tile"
        cast = f"({mem}*)"
    else:
        body = (f"    {ctype.name} f = {fn}_load(t);\n    __builtin_memcpy(io + MC_THREAD_X "
                f"* (sizeof f / 4), &f, sizeof f);")
        tile = f"const {mem}* tile"
        cast = f"(const {mem}*)"
    probe = (f'extern "C" __global__ void probe({tile}, int* io) {{\n'
             f"    {tile.replace('tile', 't')} = {cast}__builtin_assume_aligned(tile, 16);\n"
             f"{body}\n}}\n")
    return (TARGETS[mc.find_architecture(arch).name],
            "#define MC_TILES_ALIGNED\n" + code + "\n" + probe)


def counts(clang: str, target: str, source: str, wave: int, default_wave: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "probe.hip")
        with open(path, "w") as f:
            f.write(source)
        cmd = [clang, "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc",
               f"--offload-arch={target}", "-O3", "-S", "-o", "-", path]
        if wave != default_wave:
            cmd.insert(4, f"-mwavefrontsize{wave}")
        asm = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    found: dict[str, int] = {}
    inside = False
    for line in asm.splitlines():
        if line.startswith("probe:"):
            inside = True
        elif inside and line.startswith(".Lfunc_end"):
            break
        elif inside:
            word = line.strip().split(" ", 1)[0]
            if word.startswith(("global_load", "global_store", "ds_read", "ds_write",
                                "ds_load", "ds_store", "flat_load", "flat_store",
                                "buffer_load", "buffer_store")):
                found[word] = found.get(word, 0) + 1
    return " ".join(f"{k}={v}" for k, v in sorted(found.items()))


def lines(clang: str) -> list[str]:
    out = []
    for sample in SAMPLES:
        arch = mc.find_architecture(sample[0])
        target, source = probe_source(*sample)
        out.append(f"{sample_args(*sample)} | {target} | "
                   f"{counts(clang, target, source, sample[-1], arch.waves[0])}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    got = lines(args.clang)
    header = ["# Memory instructions clang-22 emits for the fragment loads/stores of",
              "# `matrix-calculator ARGS` (the vector path; see scripts/hip_loads.py).",
              f"# Regenerate: python3 scripts/hip_loads.py   ({shlex.quote(args.clang)})"]
    if args.check:
        with open(DATA) as f:
            recorded = [ln.rstrip("\n") for ln in f if not ln.startswith("#")]
        if recorded != got:
            for want, have in zip(recorded, got):
                if want != have:
                    print(f"recorded: {want}\nclang:    {have}")
            return 1
        print(f"{len(got)} samples as recorded")
        return 0
    with open(DATA, "w") as f:
        f.write("\n".join(header + got) + "\n")
    print("\n".join(got))
    return 0


if __name__ == "__main__":
    sys.exit(main())
