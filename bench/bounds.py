#!/usr/bin/env python3
"""The work at the library's bounds (matrix_library/bounds.py): the CPU time and peak memory
of the largest LDS plan and search the bounds allow, and of the refusals of the
bounds' probes, each in a fresh process. tests/library/test_bounds.py holds them to 10 s
and 1 GB; this prints what they take on this machine.

    python3 bench/bounds.py
"""
import resource
import subprocess
import sys
from pathlib import Path

SCRIPT = str(Path(__file__).resolve().parent.parent / "matrix_calculator.py")
CASES = [
    ("32 KB f4 tile, 16 steps (256 VGPRs), text",
     "-a gfx1250 -i v_wmma_f32_32x16x128_f4 -A --lds-tile 32x2048 --k-steps 16"),
    ("largest plan: 1,024 VGPRs (32x16x128 f4 A, 64 steps), --json",
     "-a gfx1250 -i v_wmma_f32_32x16x128_f4 -A --lds-tile 32x8192 --k-steps 64 --json"),
    ("search near SEARCH_PLACEMENTS (fp4 A 16x128: 397 settings x 2,048)",
     "-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 -A --matrix-a-fmt fp4 --lds-tile 16x128 "
     "--lds-search"),
    ("search of f16 A 16x1024, 4 steps (297,984 placements)",
     "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --lds-tile 16x1024 --k-steps 4 --lds-search"),
    ("refused: 99999999x99999999 swizzled",
     "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --lds-tile 99999999x99999999 --lds-swizzle 1,1,2"),
    ("refused: 32x8320, 65 steps (1,040 VGPRs)",
     "-a gfx1250 -i v_wmma_f32_32x16x128_f4 -A --lds-tile 32x8320 --k-steps 65 --json"),
    ("refused: fp4 16x1024 search, 8 steps",
     "-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 -A --matrix-a-fmt fp4 --lds-tile 16x1024 "
     "--k-steps 8 --lds-search"),
]


def measure(words):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, SCRIPT, *words], capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done.returncode, cpu, after.ru_maxrss / 1024, len(done.stdout)


def main():
    print(f"{'case':70} status  CPU s  peak MB  output bytes")
    for name, line in CASES:
        status, cpu, peak, size = measure(line.split())
        print(f"{name:70} {status:6} {cpu:6.2f} {peak:8.0f} {size:13,}")


if __name__ == "__main__":
    main()
