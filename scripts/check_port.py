#!/usr/bin/env python3
"""Run the emitted HIP of porting plans (NVIDIA fragment -> AMD operand) in the
host emulation of a wavefront (scripts/check_convert.py's harness: each lane a thread,
every lane move and LDS access meeting the other lanes at a barrier) and compare every
lane's every destination word with the layouts; with --clang, also compile each plan's HIP
for its target.

    python3 scripts/check_port.py [--cc gcc] [--clang clang-22] [-q]

The plans: A, B, C and D of mma.m16n8k16 (f16 -> f32) and A, B of m16n8k8 (f16, tf32) and
of m16n8k32 (s8) onto the WMMA / MFMA of the same matrix on RDNA3 and RDNA4 (wave32 and
wave64), gfx1250 and CDNA3, where the types hold the same values. Expected values come
from the layout engine and the tile rule (matrix_plans/convert/port.py port_tile), never from the
plan.
Exit status 1 on any failure.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import check_convert as cc  # (this folder: the script's own directory is on sys.path)
import check_convert_types as types_c
from check_lane_moves import DPP_HOST, checked_programs, clang_asm

from formats import hip
from formats.hip import convert as hip_convert
from instructions import TARGETS
from matrix_library import api as mc
from matrix_plans.convert.port import port_tile

# (NVIDIA instruction, matrix, AMD architecture, AMD instruction, matrix, wave)
PLANS = [
    *(("mma.m16n8k16.f32.f16.f16.f32", m, arch, "v_wmma_f32_16x16x16_f16", m, wave)
      for arch in ("gfx1100", "gfx1200") for wave in (32, 64) for m in "ABCD"),
    *(("mma.m16n8k16.f32.f16.f16.f32", m, "gfx1250", "v_wmma_f32_16x16x32_f16", m, 32)
      for m in "CD"),
    *(("mma.m16n8k16.f32.f16.f16.f32", m, "gfx942", "v_mfma_f32_16x16x16_f16", m, 64)
      for m in "ABCD"),
    *(("mma.m16n8k8.f32.f16.f16.f32", m, "gfx1100", "v_wmma_f32_16x16x16_f16", m, 32)
      for m in "AB"),
    *(("mma.m16n8k8.f32.tf32.tf32.f32", m, "gfx942", "v_mfma_f32_16x16x8_xf32", m, 64)
      for m in "AB"),
    *(("mma.m16n8k32.s32.s8.s8.s32", m, "gfx942", "v_mfma_i32_16x16x32_i8", m, 64)
      for m in "ABCD"),
]


def plans() -> list[Any]:
    out = []
    for name, matrix, arch, amd, dst_matrix, wave in PLANS:
        src = mc.find_instruction("sm80", name)
        dst = mc.find_instruction(arch, amd)
        out.append(mc.port(src, matrix, dst, dst_matrix, wave=wave))
    return out


def expected_words(conv: Any) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """(source words, expected destination words, care masks), each per lane: source
    element (i, j) of tile fragment s holds the identity s * 4096 + i * 64 + j + 1."""
    src_op = mc.operand(conv.source, conv.source_matrix, wave=conv.source.wave_sizes[0],
                        output_calc=conv.source_matrix == "D")
    dst_op = mc.operand(conv.destination, conv.destination_matrix, wave=conv.wave,
                        output_calc=conv.destination_matrix == "D")
    plan, wave = conv.plan, conv.wave
    warps = wave // src_op.wave
    bits = src_op.layout.width
    mask = (1 << min(bits, 16)) - 1

    def ident(s: int, i: int, j: int) -> int:
        return cc._expected((s * 4096 + i * 64 + j + 1) & mask, False, 0, bits)

    s_words = [[0x5A5A5A5A] * (plan.source_fragments * plan.source_registers)
               for _ in range(wave)]
    sources, _, pairs = port_tile(src_op, dst_op, warps)
    for s in range(sources):
        for i in range(src_op.shape[0]):
            for j in range(src_op.shape[1]):
                for place in src_op.places(i, j):
                    cc.put(s_words, plan.source_registers, s // warps,
                           place._replace(lane=place.lane + src_op.wave * (s % warps)),
                           ident(s, i, j), bits)
    d_words = [[0] * (plan.fragments * plan.registers) for _ in range(wave)]
    care = [[0] * (plan.fragments * plan.registers) for _ in range(wave)]
    for t, r, c, s, i, j in pairs:
        for place in dst_op.places(r, c):
            cc.put(d_words, plan.registers, t, place, ident(s, i, j), bits)
            cc.put(care, plan.registers, t, place, (1 << bits) - 1, bits)
    return s_words, d_words, care


def harness(convs: list[Any]) -> str:
    parts = [cc.HOST, DPP_HOST, types_c.c_text(), hip.PRELUDE, hip_convert.CONVERT_PRELUDE]
    parts += checked_programs("mc_p", [(conv, f"mc_p{index}", *expected_words(conv))
                                       for index, conv in enumerate(convs)])
    return "\n".join(parts)


def emulate(convs: list[Any], compiler: str, folder: str) -> tuple[int, str]:
    path = os.path.join(folder, "port.c")
    with open(path, "w") as handle:
        handle.write(harness(convs))
    built = subprocess.run([compiler, "-O1", "-w", "-pthread", "-o", path[:-2], path],
                           capture_output=True, text=True, check=False)
    if built.returncode:
        return len(convs), built.stderr[:2000]
    done = subprocess.run([path[:-2]], capture_output=True, text=True, check=False)
    return done.returncode, done.stdout


def compile_hip(conv: Any, clang: str, folder: str) -> str | None:
    """None when clang compiles the plan's HIP for its target, else the error."""
    path = os.path.join(folder, "port.hip")
    with open(path, "w") as handle:
        handle.write(hip_convert.emit_conversion(conv))
    done = clang_asm(clang, TARGETS[conv.architecture], path, False, wave64=conv.wave == 64
                     and TARGETS[conv.architecture].startswith("gfx1"))
    return None if done.returncode == 0 else done.stderr[:2000]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cc", default=None, help="host C compiler (default: gcc)")
    parser.add_argument("--clang", default=None, help="also compile each plan's HIP")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    convs = plans()
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        compiler = args.cc or cc.compiler()
        if compiler is None:
            print("no host C compiler")
            return 1
        bad, out = emulate(convs, compiler, folder)
        failures += bad
        if bad or not args.quiet:
            print(out.strip())
        for conv in convs if args.clang else ():
            error = compile_hip(conv, args.clang, folder)
            if error:
                failures += 1
                print(f"clang failed: {hip_convert.conversion_name(conv)}: {error}")
    print(f"{len(convs)} ports emulated{' and compiled' if args.clang else ''}: "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
