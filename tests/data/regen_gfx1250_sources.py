#!/usr/bin/env python3
"""Regenerate the LLVM 22 instruction-selection part of gfx1250_sources.txt.

    python3 tests/data/regen_gfx1250_sources.py [--clang clang-22] [--llc llc-22]

gfx1250_sources.txt holds, one fact a line, what each weighed source says
says about the sparse B, the sparse index and index_key, the bf16f32 SWMMAC's D, the
mixed f8f6f4 pairs, the 32x16x128 f4 forms and the latencies, beside the commit and
path (code read) or the command (tools run) that gave
it. The code-read rows are kept as written (the repositories are not needed to run the
tests); this script rewrites the rows of kind `isel` from the installed clang-22 and
llc-22: which index operand and index_key LLVM selects for an index shifted right by
half its width. Run it after upgrading LLVM and review the diff.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "gfx1250_sources.txt"

HIP = """typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef _Float16 v32h __attribute__((ext_vector_type(32)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v16i __attribute__((ext_vector_type(16)));
#define GLOBAL __attribute__((global))
#define LANE __builtin_amdgcn_workitem_id_x()
GLOBAL void f16_key0(v16h* a, v32h* b, v8f* c, int* x) {
  c[LANE] = __builtin_amdgcn_swmmac_f32_16x16x64_f16(0, a[LANE], 0, b[LANE], c[LANE], x[LANE], 0, 0);
}
GLOBAL void f16_high(v16h* a, v32h* b, v8f* c, int* x) {
  c[LANE] = __builtin_amdgcn_swmmac_f32_16x16x64_f16(0, a[LANE], 0, b[LANE], c[LANE],
                                                     (int)((unsigned)x[LANE] >> 16), 0, 0);
}
typedef __bf16 v16bf __attribute__((ext_vector_type(16)));
typedef __bf16 v32bf __attribute__((ext_vector_type(32)));
GLOBAL void bf16f32(v16bf* a, v32bf* b, v8f* c, int* x) {
  c[LANE] = __builtin_amdgcn_swmmac_bf16f32_16x16x64_bf16(0, a[LANE], 0, b[LANE], c[LANE], x[LANE], 0, 0);
}
GLOBAL void fp8_int(v8i* a, v16i* b, v8f* c, int* x) {
  c[LANE] = __builtin_amdgcn_swmmac_f32_16x16x128_fp8_fp8(a[LANE], b[LANE], c[LANE], x[LANE], 0, 0);
}
"""  # noqa: E501
LL = """target triple = "amdgcn-amd-amdhsa"
declare <8 x float> @llvm.amdgcn.swmmac.f32.16x16x128.fp8.fp8.v8f32.v8i32.v16i32.i64(<8 x i32>, <16 x i32>, <8 x float>, i64, i1, i1)
define amdgpu_ps void @fp8_i64_key0(<8 x i32> %A, <16 x i32> %B, <8 x float> %C, i64 %I, ptr addrspace(1) %out) {
  %r = call <8 x float> @llvm.amdgcn.swmmac.f32.16x16x128.fp8.fp8.v8f32.v8i32.v16i32.i64(<8 x i32> %A, <16 x i32> %B, <8 x float> %C, i64 %I, i1 false, i1 false)
  store <8 x float> %r, ptr addrspace(1) %out
  ret void
}
define amdgpu_ps void @fp8_i64_high(<8 x i32> %A, <16 x i32> %B, <8 x float> %C, i64 %I, ptr addrspace(1) %out) {
  %s = lshr i64 %I, 32
  %r = call <8 x float> @llvm.amdgcn.swmmac.f32.16x16x128.fp8.fp8.v8f32.v8i32.v16i32.i64(<8 x i32> %A, <16 x i32> %B, <8 x float> %C, i64 %s, i1 false, i1 false)
  store <8 x float> %r, ptr addrspace(1) %out
  ret void
}
"""  # noqa: E501


def _run(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True,
                          env={**os.environ, "LC_ALL": "C"}).stdout


def selected(asm: str) -> dict[str, str]:
    """{function: what its v_swmmac reads as the index}: the operand's VGPR count, the
    index_key it selects and, for a pair, whether the function writes the second VGPR."""
    out: dict[str, str] = {}
    name, body = "", []
    for line in asm.splitlines():
        label = re.match(r"^(\w+):", line)
        if label:
            name, body = label.group(1), []
            continue
        text = " ".join(line.split())
        if not text.startswith("v_swmmac"):
            body.append(text)
            continue
        index = text.split(", ")[3].split()[0]
        regs = [int(x) for x in re.findall(r"\d+", index)]
        count = regs[-1] - regs[0] + 1
        key = "index_key:1" if "index_key:1" in text else "index_key:0"
        facts = [f"index {count} VGPR{'s' if count > 1 else ''}", key]
        if "bf16f32" in name:  # The builtin's D is the tied f32 C (v8f32)
            dst = [int(x) for x in re.findall(r"\d+", text.split()[1])]
            facts.append(f"vdst {dst[-1] - dst[0] + 1} VGPRs, returned as 8 floats")
        if count == 2 and name.startswith("_Z"):  # HIP: is the pair's high VGPR set?
            hi = regs[1]
            dest = re.compile(rf"^\S+ (v{hi}|v\[\d+:{hi}\]|v\[{hi}:\d+\])[, ]")
            written = any(dest.match(b) for b in body)
            facts.append("the function sets its second VGPR" if written else
                         "the function never sets its second VGPR")
        out[name] = "; ".join(facts)
    return out


def isel(clang: str, llc: str) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        hip, ll = Path(tmp) / "p.hip", Path(tmp) / "p.ll"
        hip.write_text(HIP, encoding="utf-8")
        ll.write_text(LL, encoding="utf-8")
        asm = _run([clang, "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc",
                    "--offload-arch=gfx1250", "-O2", "-S", "-o", "-", str(hip)])
        asm += _run([llc, "-mtriple=amdgcn", "-mcpu=gfx1250", "-o", "-", str(ll)])
    found = selected(asm)
    rows = []
    for key, text in sorted(found.items()):
        name = re.sub(r"^_Z\d+", "", key).split("P")[0]
        rows.append(f"isel\tLLVM 22 ISel\t{Path(clang).name} / {Path(llc).name}"
                    f"\tregen_gfx1250_sources.py:{name}\t{text}")
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--llc", default="llc-22")
    args = parser.parse_args(argv)
    kept = [r for r in DATA.read_text(encoding="utf-8").splitlines()
            if not r.startswith("isel\t")]
    DATA.write_text("\n".join(kept + isel(args.clang, args.llc)) + "\n", encoding="utf-8")
    print(f"{DATA.name}: isel rows rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
