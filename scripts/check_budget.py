#!/usr/bin/env python3
"""Compile what the budgets are checked against with clang-22, and record or
compare its answers:

    python3 scripts/check_budget.py [--clang clang-22] [--record] [--probes N]

1. The sample tiles (SAMPLES: every family): the HIP skeleton of `--budget --emit hip`
   compiled with -Rpass-analysis=kernel-resource-usage; clang's VGPRs, AGPRs, LDS bytes
   and occupancy go to tests/data/budget_clang.txt.
2. LLVM's occupancy model: N small kernels (seeded, reproducible) that clobber a chosen
   number of VGPRs and AGPRs and hold a chosen LDS array, for every target, wave size and
   workgroup size; what LLVM answers goes to tests/data/llvm_occupancy.txt, which
   tests/plans/test_budget.py compares with layouts/budget.occupancy row by row.

Without --record the answers are compared with the recorded files: a difference is
printed and the exit status is 1 (tests/plans/test_budget.py runs the tiles so where clang-22
is installed).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from formats.hip.budget_kernel import skeleton  # noqa: E402
from matrix_library import api as mc  # noqa: E402

DATA = os.path.join(HERE, "..", "tests", "data")
TILES = os.path.join(DATA, "budget_clang.txt")
PROBES = os.path.join(DATA, "llvm_occupancy.txt")

# architecture, instruction, wave, wave tile, waves, K steps, LDS stages, product
SAMPLES = (
    ("cdna1", "v_mfma_f32_32x32x8f16", 64, (2, 2), (2, 2), 1, 2, "mi100"),
    ("cdna1", "v_mfma_f32_16x16x16f16", 64, (2, 2), (2, 2), 2, 2, "mi100"),
    ("cdna2", "v_mfma_f32_32x32x8f16", 64, (2, 2), (2, 2), 1, 2, "mi250x"),
    ("cdna3", "v_mfma_f32_32x32x8_f16", 64, (2, 2), (2, 2), 1, 2, "mi300x"),
    ("cdna3", "v_mfma_f32_32x32x8_f16", 64, (2, 2), (2, 2), 2, 2, "mi300x"),
    ("cdna3", "v_mfma_f32_16x16x16_f16", 64, (4, 4), (2, 2), 1, 2, "mi300x"),
    ("cdna3", "v_mfma_f32_32x32x8_f16", 64, (1, 1), (2, 2), 1, 1, "mi300x"),
    ("cdna3", "v_mfma_f32_32x32x16_fp8_fp8", 64, (2, 2), (2, 2), 1, 2, "mi325x"),
    ("cdna4", "v_mfma_f32_16x16x32_bf16", 64, (4, 4), (2, 2), 1, 2, "mi355x"),
    ("cdna4", "v_mfma_f32_32x32x16_bf16", 64, (2, 2), (2, 2), 2, 3, "mi355x"),
    ("rdna3", "v_wmma_f32_16x16x16_f16", 32, (2, 2), (2, 2), 1, 2, "7900xtx"),
    ("rdna3", "v_wmma_f32_16x16x16_f16", 64, (2, 2), (2, 2), 1, 2, "7900xtx"),
    ("rdna4", "v_wmma_f32_16x16x16_f16", 32, (4, 2), (2, 2), 1, 2, "9070xt"),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", 32, (4, 4), (2, 2), 1, 2, None),
    ("gfx1251", "v_wmma_f32_16x16x32_bf16", 32, (2, 2), (2, 2), 1, 2, None),
)
# target, wave: the occupancy probes' targets (RDNA3's 1024-VGPR parts among them)
TARGETS = (("gfx908", 64), ("gfx90a", 64), ("gfx942", 64), ("gfx950", 64), ("gfx1100", 32),
           ("gfx1100", 64), ("gfx1102", 32), ("gfx1151", 32), ("gfx1200", 64),
           ("gfx1201", 32), ("gfx1250", 32), ("gfx1251", 32))
PROBE = """\
__attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(WG, WG)))
probe(float* out) {
  __attribute__((shared)) float lds[LDS / 4];
  lds[__builtin_amdgcn_workitem_id_x()] = 1.0f;
  __builtin_amdgcn_s_barrier();
  asm volatile("" ::: CLOBBER);
  out[0] = lds[__builtin_amdgcn_workitem_id_x() + 1];
}
"""
REMARKS = {"vgprs": "VGPRs", "agprs": "AGPRs", "lds": r"LDS Size \[bytes/block\]",
           "occupancy": r"Occupancy \[waves/SIMD\]"}


def clang_command(clang: str, target: str, wave: int, path: str) -> list[str]:
    """clang's device compile of `path` with the resource remarks; -nostdinc keeps ROCm's
    headers (where installed) out: the code declares what it uses."""
    cmd = [clang, "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-nostdinc",
           f"--offload-arch={target}", "-O3", "-S", "-o", os.devnull, path,
           "-Rpass-analysis=kernel-resource-usage"]
    if target.startswith("gfx1") and wave == 64:
        cmd.append("-mwavefrontsize64")
    return cmd


def remarks(cmd: list[str], refused: dict[str, int] | None = None) -> dict[str, int]:
    """clang's resource remarks; `refused` (the answer recorded instead) where LLVM finds
    no registers for a workgroup that cannot be resident (occupancy 0)."""
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if done.returncode and refused is not None and "no registers from class" in done.stderr:
        return refused
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: {done.stderr.strip()[-400:]}")
    found = {}
    for key, label in REMARKS.items():
        match = re.search(label + r": (\d+) \[", done.stderr)
        found[key] = int(match.group(1)) if match else 0
    return found


def tile_rows(clang: str, folder: str) -> list[str]:
    def one(at: int) -> str:
        arch, name, wave, wave_tile, waves, ks, buffers, product = SAMPLES[at]
        inst = mc.find_instruction(arch, name)
        result = mc.budget(inst, wave=wave, wave_tile=wave_tile, waves=waves, k_steps=ks,
                           lds_buffers=buffers)
        path = os.path.join(folder, f"tile{at}.hip")
        with open(path, "w") as f:
            f.write(skeleton(inst, mc.Modifiers(), wave, result))
        target = mc.architecture_of(inst).target
        got = remarks(clang_command(clang, target, wave, path))
        fields = [arch, name, str(wave), "x".join(map(str, wave_tile)),
                  "x".join(map(str, waves)), str(ks), str(buffers), product or "-", target]
        return "\t".join(fields + [str(got[k]) for k in REMARKS])
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, range(len(SAMPLES))))


def probe_rows(clang: str, folder: str, count: int) -> list[str]:
    path = os.path.join(folder, "probe.hip")
    with open(path, "w") as f:
        f.write(PROBE)
    rng = random.Random(35)
    cases = []
    for _ in range(count):
        target, wave = rng.choice(TARGETS)
        arch = mc.find_architecture(target)
        limits = mc.architecture_limits(arch.name)
        vgprs = rng.randint(1, 256)
        agprs = rng.choice([0, 0, rng.randint(1, 256)]) if limits.agprs != "none" else 0
        threads = rng.choice([wave, 2 * wave, 4 * wave, 8 * wave, 16 * wave, 256, 512, 1024])
        lds = rng.choice([4, 1024, 4096, 8192, 12288, 16384, 24576, 32768, 40960, 65536,
                          limits.lds_group])
        cases.append((target, wave, threads, lds, vgprs, agprs))

    def one(case: tuple[str, int, int, int, int, int]) -> str:
        target, wave, threads, lds, vgprs, agprs = case
        clobber = ",".join([f'"v{vgprs - 1}"'] + ([f'"a{agprs - 1}"'] if agprs else []))
        cmd = clang_command(clang, target, wave, path) + [
            f"-DWG={threads}", f"-DLDS={lds}", f"-DCLOBBER={clobber}"]
        got = remarks(cmd, {"vgprs": vgprs, "agprs": agprs, "lds": lds, "occupancy": 0})
        return "\t".join(map(str, (*case, *(got[k] for k in REMARKS))))
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, cases))


def version(clang: str) -> str:
    done = subprocess.run([clang, "--version"], check=False, capture_output=True, text=True)
    return done.stdout.splitlines()[0] if done.returncode == 0 else clang


def compare(path: str, rows: list[str]) -> list[str]:
    with open(path) as f:
        recorded = [line.rstrip("\n") for line in f if not line.startswith("#")]
    return [f"{path}: recorded {old!r}, now {new!r}"
            for old, new in zip(recorded, rows) if old != new] + \
        ([f"{path}: {len(recorded)} rows recorded, {len(rows)} now"]
         if len(recorded) != len(rows) else [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--record", action="store_true", help="write the data files")
    parser.add_argument("--probes", type=int, default=0,
                        help="also run N occupancy probes (--record: 400)")
    parser.add_argument("--tiles", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    probes = args.probes or (400 if args.record else 0)
    command = "python3 scripts/check_budget.py --record"
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        if args.tiles:
            rows = tile_rows(args.clang, folder)
            header = ["# The budget's sample tiles compiled by " + version(args.clang)
                      + f" (regenerate: {command}).",
                      "# architecture, instruction, wave, wave tile, waves, K steps, LDS "
                      "stages, product, target | clang: VGPRs, AGPRs, LDS bytes, "
                      "occupancy (waves/SIMD)"]
            if args.record:
                with open(TILES, "w") as f:
                    f.write("\n".join(header + rows) + "\n")
            else:
                failures += compare(TILES, rows)
            print(f"{len(rows)} tiles compiled")
        if probes:
            rows = probe_rows(args.clang, folder, probes)
            header = ["# LLVM's occupancy for small kernels, from " + version(args.clang)
                      + f" (regenerate: {command}; seed 35).",
                      "# target, wave, workgroup threads, LDS bytes, VGPRs clobbered, AGPRs "
                      "clobbered | clang: VGPRs, AGPRs, LDS bytes, occupancy (waves/SIMD)"]
            if args.record:
                with open(PROBES, "w") as f:
                    f.write("\n".join(header + rows) + "\n")
            else:
                failures += compare(PROBES, rows[:len(rows)])
            print(f"{len(rows)} occupancy probes compiled")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
