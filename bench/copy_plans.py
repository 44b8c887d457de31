#!/usr/bin/env python3
"""CPU time of copy plans, in process: the best of five runs of each sample
(the plan's own work: the read plan, the copy, its replay; the tables already loaded).
Budget: 100 ms of a plan's own work (docs/speed.md).

    python3 bench/copy_plans.py
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from matrix_library import api as mc

SEED = ("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", "A",
        {"tile": "16x128", "mods": {"cbsz": 4}, "lds_type": "bf16",
         "copy": "buffer_load_dwordx4", "load": "ds_read_b128", "swizzle": "xor:4^8,5^9,7^10"})
CASES = [
    SEED,
    ("gfx942", "v_mfma_f32_16x16x16_f16", "A",
     {"tile": "16x64", "copy": "global_load_dwordx4+ds_write_b128", "load": "ds_read_b64"}),
    ("gfx942", "v_mfma_f32_32x32x8_f16", "A",
     {"tile": "128x64", "copy": "global_load_dwordx4", "swizzle": "8,1,8", "waves": 4}),
    ("gfx942", "v_mfma_f32_32x32x8_f16", "A",
     {"tile": "128x64", "copy": "buffer_load_dword", "swizzle": "xor:4^8,5^9,6^10"}),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "A",
     {"tile": "64x64", "copy": "tensor_load_to_lds", "pad": 8, "waves": 4}),
]


def main() -> int:
    over = 0
    for arch, name, matrix, options in CASES:
        inst = mc.find_instruction(arch, name)
        best = float("inf")
        for _ in range(6):
            start = time.process_time()
            mc.lds_copy(inst, matrix, **options)  # type: ignore[arg-type]
            best = min(best, time.process_time() - start)
        over += best > 0.1
        shown = ", ".join(f"{k}={v}" for k, v in options.items() if k != "mods")
        print(f"{best * 1000:7.1f} ms  {arch} {name} -{matrix} {shown}")
    print(f"{over} of {len(CASES)} plans over 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
