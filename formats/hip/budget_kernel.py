"""The HIP kernel skeleton of a budget (--budget --emit hip): the fragment functions of
--emit hip for A and B (read from LDS, K-major rows of the tile's pitch) and D (stored
column-major to global memory), composed into a block-tile kernel whose accumulators
stay live across the K loop, each LDS stage filled from global memory by 16-byte copies
through VGPRs into `lds_buffers` stages. scripts/check_budget.py compiles it with
clang-22 and compares the register and LDS report with the budget."""
from __future__ import annotations

from formats.hip.calls import call_text, operand_type
from formats.hip.common import PRELUDE, Options, compile_command, fragment_of, memory_type, typedefs
from formats.hip.loads import device_function
from matrix_library.api import CalcError, Modifiers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

    from matrix_library.api import Budget


def skeleton(inst: Instruction, mods: Modifiers, wave: int, result: Budget,
             name: str = "mc_budget_kernel") -> str:
    """HIP source of the block-tile kernel `name` of the budget `result` (of its tile)
    for a dense single-block instruction whose A and B values are whole bytes. Block
    (x, y) computes D[x*BM.., y*BN..] = A x B^T with A row-major (M x K, lda) and Bt
    row-major (N x K, ldb), K a multiple of the stage's."""
    if inst.sparse or inst.scaled or inst.blocks > 1:
        raise CalcError(f"the budget's HIP skeleton covers dense single-block instructions "
                        f"without block scales, not {inst.name}")
    tile = result.tile
    (tm, tn), (wm, wn) = tile.wave_tile, tile.waves
    ks, buffers, pad = tile.k_steps, tile.buffers, tile.pad
    if tile.order != "k":
        raise CalcError("the budget's HIP skeleton stores K-major LDS rows: drop "
                        "--lds-order mn")
    frags = {m: fragment_of(inst, m, mods, wave) for m in ("A", "B", "D")}
    if frags["A"].bits % 8 or frags["B"].bits % 8:
        raise CalcError(f"the budget's HIP skeleton copies whole bytes: {inst.name}'s A and "
                        "B values here are narrower")
    threads = result.threads
    bm, bn, bk = result.block
    pitch = bk + pad
    a_bytes, b_bytes = frags["A"].bits // 8, frags["B"].bits // 8
    a_row, b_row = bk * a_bytes, bk * b_bytes
    if a_row % 16 or b_row % 16 or pitch * a_bytes % 16 or pitch * b_bytes % 16:
        raise CalcError(f"the skeleton copies 16-byte chunks: a stage's rows of {a_row} and "
                        f"{b_row} bytes (pitch with --lds-pad included) must be multiples "
                        "of 16: raise --k-steps or change --lds-pad")
    a_stage, stage = bm * pitch * a_bytes, bm * pitch * a_bytes + bn * pitch * b_bytes
    types = [operand_type(inst, m, wave) for m in ("A", "B", "D")]
    opts = {"A": Options(ld=pitch, lds=True, prefix=f"{name}_f"),
            "B": Options(ld=pitch, order="col", lds=True, prefix=f"{name}_f"),
            "D": Options(order="col", prefix=f"{name}_f")}
    parts = [device_function(inst, frags[m], opts[m], t, f"{name}_f_{m.lower()}")
             for m, t in zip(("A", "B", "D"), types)]
    mem = {m: memory_type(inst, m, frags[m].bits) for m in ("A", "B", "D")}
    at, bt, dt = (t.name for t in types)
    call = call_text(inst, mods, wave, {"A": "a[s][i]", "B": "b[s][j]", "C": "acc[i][j]"},
                     " " * 20)
    target, flags = compile_command(inst, wave)
    lines = [
        f"// The block tile of matrix-calculator --budget: {bm}x{bn}, K {bk} per stage, "
        f"{buffers} LDS stage(s), {threads} threads ({wm}x{wn} waves of {tm}x{tn} "
        f"{inst.name} tiles).",
        f"// Target: {target}, wave{wave}. clang -x hip --cuda-device-only -nogpulib "
        f"-nogpuinc -nostdinc {flags} -O3 -S -Rpass-analysis=kernel-resource-usage FILE.hip",
        "#define MC_TILES_ALIGNED", PRELUDE, *typedefs(types), *parts,
        "typedef unsigned int mc_chunk __attribute__((ext_vector_type(4)));",
        f"extern \"C\" __global__ void __attribute__((amdgpu_flat_work_group_size({threads}, "
        f"{threads}))) {name}(",
        f"        const {mem['A']}* A, const {mem['B']}* Bt, {mem['D']}* D, long lda, "
        "long ldb, long ldd, long K) {",
        f"    __shared__ __attribute__((aligned(16))) unsigned char lds[{buffers}][{stage}];",
        "    const int tid = MC_THREAD_X;",
        f"    const int wave = tid / {wave}, wm = wave % {wm}, wn = wave / {wm};",
        f"    const long m0 = (long)__builtin_amdgcn_workgroup_id_x() * {bm};",
        f"    const long n0 = (long)__builtin_amdgcn_workgroup_id_y() * {bn};",
        f"    {dt} acc[{tm}][{tn}] = {{}};",
        f"    for (long k0 = 0, s = 0; k0 < K; k0 += {bk}, ++s) {{",
        f"        unsigned char* st = lds[s % {buffers}];",
        *_copy("A", bm, a_row // 16, threads, "0", pitch * a_bytes, "m0", "lda"),
        *_copy("Bt", bn, b_row // 16, threads, str(a_stage), pitch * b_bytes, "n0", "ldb"),
        "        MC_SYNC();",
        f"        {at} a[{ks}][{tm}];",
        f"        {bt} b[{ks}][{tn}];",
        f"        for (int s = 0; s < {ks}; ++s) {{",
        f"            for (int i = 0; i < {tm}; ++i)",
        f"                a[s][i] = {name}_f_a_load((const {mem['A']}*)(st + "
        f"((wm * {tm} + i) * {inst.m} * {pitch} + s * {inst.k}) * {a_bytes}));",
        f"            for (int j = 0; j < {tn}; ++j)",
        f"                b[s][j] = {name}_f_b_load((const {mem['B']}*)(st + {a_stage} + "
        f"((wn * {tn} + j) * {inst.n} * {pitch} + s * {inst.k}) * {b_bytes}));",
        "        }",
        f"        for (int s = 0; s < {ks}; ++s)",
        f"            for (int i = 0; i < {tm}; ++i)",
        f"                for (int j = 0; j < {tn}; ++j)",
        f"                    acc[i][j] = {call};",
        *(["        MC_SYNC();  // one stage: wait before it is refilled"] if buffers == 1
          else []),
        "    }",
        f"    for (int i = 0; i < {tm}; ++i)",
        f"        for (int j = 0; j < {tn}; ++j)",
        f"            {name}_f_d_store(D + (n0 + (wn * {tn} + j) * {inst.n}) * ldd + m0 + "
        f"(wm * {tm} + i) * {inst.m}, ldd, acc[i][j]);",
        "}"]
    return "\n".join(lines) + "\n"


def _copy(src: str, rows: int, chunks: int, threads: int, base: str, pitch: int, row0: str,
          ld: str) -> list[str]:
    """The loop copying a stage's `rows` rows of `chunks` 16-byte chunks from global
    memory (row row0 + r, from column k0) to LDS (at base + r * pitch)."""
    return [f"        for (int c = tid; c < {rows * chunks}; c += {threads}) {{  "
            f"// {src}: {rows} rows of {chunks} x 16 bytes",
            f"            const int r = c / {chunks}, q = c % {chunks};",
            "            mc_chunk v;",
            f"            __builtin_memcpy(&v, (const unsigned char*)({src} + ({row0} + r) * "
            f"{ld} + k0) + q * 16, 16);",
            f"            __builtin_memcpy(st + {base} + r * {pitch} + q * 16, &v, 16);",
            "        }"]
