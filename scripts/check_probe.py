#!/usr/bin/env python3
"""Run the `--emit probe` program in a host emulation of a wavefront, with a model of
each instruction made from the layout engine, and check that every variant passes.

    python3 scripts/check_probe.py [-a ARCH [-i INST]] [-w WAVE] [--plant swap|half] [-q]
    python3 scripts/check_probe.py -a gfx1250 [-i INST] --reading rocjitsu
    python3 scripts/check_probe.py [-a ARCH [-i INST]] [-w WAVE] --clang clang-22 [--headers]

Without -a: one instruction of every family and kind (SAMPLES), each in every wave
size. The emulation (gcc, MC_EMULATION defined): each lane is a thread that runs the
probe's own lane function (the calculator's gather functions, the instruction, D's
scatter function); where the builtin stands, the lanes hand their operand words to a
model of the instruction and wait at a barrier. The model reads every element the
hardware reads from the places the layout engine gives (Operand.places: the CBSZ/ABID
broadcast and the BLGP lane pattern applied; sparse A's kept values in their halves of
a pair slot; the index codes of K), computes the same reference as the probe's host
code, and writes each D element to every place D's layout gives. So a PASS means the
emitted fragment code, the builtin's operand order and the host program agree with the
layout engine, element by element.

--reading rocjitsu models hardware that reads a sparse instruction's A and B as rocjitsu
does (the alternative layouts -d names) beside the calculator's index: the probe must
then say, for every variant whose index it reads both ways, that the hardware follows
rocjitsu's reading, as it says the calculator's without the option.

--plant makes a deliberate error in the first variant the error applies to and expects
that variant to FAIL naming an element the error moves: `swap` exchanges lanes 0 and 1
in A's load (its offset function), `half` flips the 16-bit half of D's (or K's) bits
in a variant with an OPSEL half or index set. Prints the probe's output; exit status
0 when every variant passes (with --plant: when the planted variant fails as expected
and the others pass).

--clang compiles the probe's device code instead (with -nogpuinc, or with the HIP
headers found, --headers) and checks that every variant's kernel issues its instruction
with the modifiers asked, as scripts/check_hip.py checks the examples.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from formats.hip import probe as probe_code
from matrix_library import api as mc
from matrix_library import drawing

# One instruction of every family and kind (dense, multi-block, sparse, scaled, f8f6f4).
SAMPLES = (
    ("cdna1", "v_mfma_f32_32x32x2bf16"), ("cdna1", "v_mfma_i32_32x32x4i8"),
    ("cdna2", "v_mfma_f64_4x4x4f64"), ("cdna2", "v_mfma_f32_16x16x4f32"),
    ("cdna3", "v_mfma_f32_32x32x1_2b_f32"), ("cdna3", "v_smfmac_f32_16x16x32_f16"),
    ("cdna3", "v_mfma_f64_16x16x4_f64"), ("cdna3", "v_mfma_f32_16x16x32_fp8_bf8"),
    ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4"), ("cdna4", "v_smfmac_f32_16x16x128_fp8_fp8"),
    ("cdna4", "v_mfma_f32_32x32x64_f8f6f4"),
    ("rdna3", "v_wmma_f16_16x16x16_f16"), ("rdna3", "v_wmma_i32_16x16x16_iu4"),
    ("rdna4", "v_swmmac_f32_16x16x32_f16"), ("rdna4", "v_wmma_f32_16x16x16_fp8_bf8"),
    ("gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4"), ("gfx1250", "v_swmmac_f32_16x16x64_f16"),
    ("gfx1250", "v_wmma_f32_16x16x4_f32"), ("gfx1250", "v_wmma_bf16f32_16x16x32_bf16"),
    ("gfx1251", "v_wmma_f32_32x16x128_f4"),
)

PRE = r"""
#define MC_EMULATION 1
#include <pthread.h>
struct mc_variant;
typedef void (*mc_lane_fn)(int, const void*, const void*, const void*, const void*,
                           const void*, const void*, void*);
static void mc_emulate_op(int n, int lane, const unsigned int* aw, const unsigned int* bw,
                          const unsigned int* cw, const unsigned int* kw,
                          const unsigned int* saw, const unsigned int* sbw, unsigned int* dw);
static void mc_emulate_launch(int wave, mc_lane_fn lane, unsigned char** t);
#define MC_PROBE_OP(n, f, aw, bw, cw, kw, saw, sbw, dw) \
    mc_emulate_op(n, lane, aw, bw, cw, kw, saw, sbw, dw)
#define MC_EMULATE(n, wave) \
    static void mc_p##n##_launch(const struct mc_variant* v, unsigned char** t) { \
        (void)v; mc_emulate_launch(wave, mc_p##n##_lane, t); }
"""

MODEL = ("struct mc_model { int words[MC_TILES]; const long* at[MC_TILES]; const long* d_at; "
         "long d_count; };")
POST = r"""
static unsigned int mc_regs[MC_TILES][64 * 128];
static pthread_barrier_t mc_barrier;
static int mc_current;
static mc_u64 mc_bits_at(const unsigned int* w, long pos, int bits) {
    mc_u64 x = 0;
    for (int k = 0; k < bits; k++) x |= (mc_u64)(w[(pos + k) / 32] >> ((pos + k) % 32) & 1) << k;
    return x;
}
static void mc_put_bits(unsigned int* w, long pos, int bits, mc_u64 x) {
    for (int k = 0; k < bits; k++) {
        unsigned int* p = &w[(pos + k) / 32];
        *p = (*p & ~(1u << ((pos + k) % 32))) | (unsigned)(x >> k & 1) << ((pos + k) % 32);
    }
}
static double mc_from_regs(void* ctx, int which, int r, int c, int b) {
    const int n = *(int*)ctx;
    const struct mc_tile* t = &mc_variants[n].tiles[which];
    const int format = which == MC_K ? MC_U4 : t->format;
    const long e = ((long)b * t->rows + r) * t->cols + c;
    return mc_decode(format, mc_bits_at(mc_regs[which], mc_models[n].at[which][e],
                                        mc_formats[format].bits));
}
static void mc_model_run(int n) {
    const struct mc_variant* v = &mc_variants[n];
    const struct mc_model* m = &mc_models[n];
    const struct mc_tile* d = &v->tiles[MC_D];
    memset(mc_regs[MC_D], 0, sizeof mc_regs[MC_D]);
    for (long p = 0; p < m->d_count; p++) {
        const long e = m->d_at[2 * p];
        const int b = (int)(e / ((long)d->rows * d->cols)), i = (int)(e / d->cols % d->rows);
        const int j = (int)(e % d->cols);
        const double value = mc_reference(v, mc_from_regs, &n, b, i, j);
        mc_put_bits(mc_regs[MC_D], m->d_at[2 * p + 1], mc_formats[d->format].bits,
                    mc_encode(d->format, value));
    }
}
static void mc_emulate_op(int n, int lane, const unsigned int* aw, const unsigned int* bw,
                          const unsigned int* cw, const unsigned int* kw,
                          const unsigned int* saw, const unsigned int* sbw, unsigned int* dw) {
    const unsigned int* in[6] = {aw, bw, cw, kw, saw, sbw};
    const struct mc_model* m = &mc_models[n];
    for (int t = 0; t < 6; t++)
        if (m->words[t]) memcpy(&mc_regs[t][lane * m->words[t]], in[t], 4 * (size_t)m->words[t]);
    pthread_barrier_wait(&mc_barrier);
    if (lane == 0) mc_model_run(n);
    pthread_barrier_wait(&mc_barrier);
    memcpy(dw, &mc_regs[MC_D][lane * m->words[MC_D]], 4 * (size_t)m->words[MC_D]);
}
struct mc_job { mc_lane_fn fn; unsigned char** t; int lane; };
static void* mc_run_lane(void* arg) {
    struct mc_job* job = (struct mc_job*)arg;
    unsigned char** t = job->t;
    job->fn(job->lane, t[0], t[1], t[2], t[3], t[4], t[5], t[6]);
    return 0;
}
static void mc_emulate_launch(int wave, mc_lane_fn lane, unsigned char** t) {
    pthread_t threads[64];
    struct mc_job jobs[64];
    pthread_barrier_init(&mc_barrier, 0, (unsigned)wave);
    for (int l = 0; l < wave; l++) {
        jobs[l].fn = lane; jobs[l].t = t; jobs[l].lane = l;
        pthread_create(&threads[l], 0, mc_run_lane, &jobs[l]);
    }
    for (int l = 0; l < wave; l++) pthread_join(threads[l], 0);
    pthread_barrier_destroy(&mc_barrier);
}
int main(void) {
    (void)mc_current;
    return mc_run_all(mc_variants, (int)(sizeof mc_variants / sizeof mc_variants[0]));
}
"""


def _operand(variant: Any, matrix: str, reading: str | None = None) -> Any:
    """The engine's operand the model reads `matrix` through; with `reading` (a source's
    name), a sparse A or B through that source's alternative layout
    (layouts/gfx1250.py alternative_layouts: rocjitsu's A' and B beside the calculator's
    index, which is rocjitsu's reading as its recorded answers show)."""
    if reading and variant.inst.sparse and matrix in ("A", "B"):
        from layouts.gfx1250 import alternative_layouts
        return next(layout for source, layout in alternative_layouts(variant.inst, matrix)
                    if reading in source)
    source = probe_code.source_matrix(variant.inst, matrix)
    from matrix_library.code import shaping as shaped
    shaping = shaped(variant.inst, source, variant.mods, variant.wave)
    if source == "C" and variant.inst.sparse:  # the tied C wider than D: C's own layout
        return drawing.engine_operand(variant.inst, "C", shaping, variant.wave)
    return mc.operand(variant.inst, source, mods=shaping, wave=variant.wave,
                      output_calc=source == "D")


def _read_at(variant: Any, matrix: str, op: Any, bits: int, elem: tuple[int, int, int]
             ) -> tuple[Any, int]:
    """(place, bit offset in it) the hardware reads tile element `elem` from: sparse A's
    kept value c % 2 from its half of the pair slot of group c // 2, K's code of group c
    from the place of the group's first K, the others from their own place."""
    r, c, b = elem
    if matrix == "A" and variant.inst.sparse:
        p = op.places(r, 4 * (c // 2), b)[0]
        assert p.width == 2 * bits
        return p, (c % 2) * bits
    if matrix == "K":
        return op.places(r, 4 * c, b)[0], 0
    return op.places(r, c, b)[0], 0


def model_tables(variant: Any, n: int, reading: str | None = None) -> tuple[list[str], str]:
    """(C arrays, the mc_model initializer) of variant n: for each input tile the bit
    (lane * words * 32 + VGPR * 32 + lo) the hardware reads each element from (with
    `reading`, a sparse A and B as that source reads them)."""
    ops = probe_code.operands(variant)
    words = {m: probe_code.words(frag, ctype) for m, (frag, ctype) in ops.items()}
    arrays, names = [], []
    for matrix in probe_code.TILES[:-1]:
        if matrix not in ops:
            names.append("0")
            continue
        frag = ops[matrix][0]
        rows, cols, blocks = frag.shape
        op = _operand(variant, matrix, reading)
        base = 32 * words[matrix]
        found = [_read_at(variant, matrix, op, frag.bits, (r, c, b))
              for b in range(blocks) for r in range(rows) for c in range(cols)]
        at = [p.lane * base + p.reg * 32 + p.lo + extra for p, extra in found]
        if matrix == "K":  # a field past the operand (index_key 1) reads as 0: a zero
            width = probe_code.index_width(variant.inst, variant.wave)  # word past the lanes
            at = [variant.wave * base if p.reg * 32 + p.lo >= width else bit
                  for (p, _), bit in zip(found, at)]
        name = f"mc_m{n}_{matrix.lower()}"
        arrays.append(f"static const long {name}[] = {{{','.join(map(str, at))}}};")
        names.append(name)
    d_op = _operand(variant, "D")
    rows, cols, blocks = ops["D"][0].shape
    pairs = []
    for b in range(blocks):
        for r in range(rows):
            for c in range(cols):
                for p in d_op.places(r, c, b):
                    pairs += [(b * rows + r) * cols + c,
                              p.lane * 32 * words["D"] + p.reg * 32 + p.lo]
    arrays.append(f"static const long mc_m{n}_d[] = {{{','.join(map(str, pairs))}}};")
    counts = ", ".join(str(words.get(m, 0)) for m in probe_code.TILES)
    init = (f"    {{{{{counts}}}, {{{', '.join(names)}, 0}}, mc_m{n}_d, "
            f"{len(pairs) // 2}}},")
    return arrays, init


def plant(text: str, variants: list[Any], kind: str) -> tuple[str, int, str]:
    """(text with the error, the variant it is in, the tile it moves)."""
    for n, variant in enumerate(variants):
        if kind == "swap":
            head = f"MC_FN long mc_p{n}_a_offset(int lane, int v) {{"
            assert head in text
            return text.replace(head, head + " lane = lane == 0 ? 1 : lane == 1 ? 0 : lane;"
                                ), n, "A"
        halves = [name for name, value in zip(variant.mods._fields, variant.mods)
                  if value and name in ("opsel", "index_key", "abid")]
        if kind == "half" and halves:
            matrix = "d" if variant.inst.takes("opsel") and not variant.inst.sparse else "k"
            found = re.search(
                rf"MC_FN int mc_p{n}_{matrix}_bit\(int v\) \{{ (.*?)return (.*?); \}}", text)
            assert found is not None
            old = found.group(0)
            new = old.replace(f"return {found.group(2)};", f"return ({found.group(2)}) ^ 16;")
            return text.replace(old, new), n, matrix.upper()
    raise SystemExit(f"no variant to plant a {kind} error in")


def emulate(insts: list[Any], wave: int, reading: str | None = None) -> list[str]:
    """The output lines of the probe of `insts` run in the emulation (with `reading`, a
    model of hardware that reads a sparse instruction's operands as that source does)."""
    return _emulated(insts, wave, None, reading)[0]


def run(insts: list[Any], wave: int, kind: str | None, quiet: bool,
        reading: str | None = None) -> int:
    lines, status, planted = _emulated(insts, wave, kind, reading)
    if not quiet:
        print("\n".join(lines))
    else:
        print(lines[-1] if lines else "(no output)")
    if planted is None:
        return status
    failed = [ln for ln in lines if ln.startswith("FAIL ")]
    ok = len(failed) == 1 and failed[0].startswith(f"FAIL {planted[0]}:") and \
        " first D[" in failed[0]
    print(f"planted {kind} error in {planted[1]} of {planted[0]}: "
          + ("fails as expected" if ok else "NOT caught as expected"))
    return 0 if ok else 1


def _emulated(insts: list[Any], wave: int, kind: str | None, reading: str | None = None
              ) -> tuple[list[str], int, tuple[str, str] | None]:
    """(output lines, exit status, the planted error's (variant, tile) or None)."""
    variants = []
    for inst in insts:
        variants += probe_code.variants(inst, wave)
    text = probe_code.probe(insts, wave)
    planted = None
    if kind:
        text, index, matrix = plant(text, variants, kind)
        planted = (variants[index].label, matrix)
    arrays, inits = [], []
    for n, variant in enumerate(variants):
        more, init = model_tables(variant, n, reading)
        arrays += more
        inits.append(init)
    post = "\n".join([MODEL, *arrays, "static const struct mc_model mc_models[] = {", *inits,
                      "};", POST])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "probe.c")
        with open(path, "w") as handle:
            handle.write(PRE + text + post)
        exe = os.path.join(folder, "probe")
        built = subprocess.run(["gcc", "-O1", "-w", "-pthread", "-x", "c", "-o", exe, path],
                               capture_output=True, text=True, check=False)
        if built.returncode:
            return ["gcc failed: " + built.stderr[:3000]], 1, planted
        done = subprocess.run([exe], capture_output=True, text=True, check=False, timeout=600)
    return done.stdout.splitlines(), done.returncode, planted


def clang_check(insts: list[Any], wave: int, clang: str, headers: bool) -> int:
    """Compile the probe's device code with clang and check every variant's kernel
    issues the instruction with the modifiers asked (check_hip's expectations)."""
    from check_hip import check_kernels, expected, functions, mnemonic, widths
    variants = []
    for inst in insts:
        variants += probe_code.variants(inst, wave)
    arch = mc.architecture_of(insts[0])
    text = probe_code.probe(insts, wave)
    kernels = []
    for n, variant in enumerate(variants):
        original = mc.find_instruction(arch.name, variant.inst.mnemonic)
        texts = expected(original, variant.mods)
        builtins = drawing.wmma_builtins(original)
        if original.sparse and builtins is not None and not builtins.operand_modifiers:
            texts = [t for t in texts if not t.startswith("op_sel")]  # a shifted index
        kernels.append((f"mc_p{n}_kernel", mnemonic(original), texts,
                        widths(original, variant.mods, wave)))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "probe.hip")
        with open(path, "w") as handle:
            handle.write(text)
        cmd = [clang, "-x", "hip", "--cuda-device-only", "-nogpulib", "-DMC_DEVICE_ONLY",
               f"--offload-arch={arch.target}",
               f"-D__AMDGCN_WAVEFRONT_SIZE={wave}", "-O1", "-S", "-o", "-", path]
        if wave != arch.waves[0]:
            cmd.insert(4, f"-mwavefrontsize{wave}")
        if not headers:
            cmd.insert(4, "-nogpuinc")
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode:
        print(f"{arch.target} wave{wave}: clang failed: {done.stderr[:3000]}")
        return 1
    passed = check_kernels(arch.target, wave, kernels, functions(done.stdout))
    print(f"{arch.target} wave{wave}: {passed}/{len(kernels)} probe kernels issue their "
          "instruction with the modifiers asked")
    return 0 if passed == len(kernels) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-a", "--arch")
    parser.add_argument("-i", "--inst")
    parser.add_argument("-w", "--wave", type=int)
    parser.add_argument("--plant", choices=("swap", "half"))
    parser.add_argument("-q", "--quiet", action="store_true")
    parser.add_argument("--clang", help="compile the device code with this clang instead")
    parser.add_argument("--headers", action="store_true", help="with --clang: without -nogpuinc")
    parser.add_argument("--reading", help="model a sparse instruction's A and B as this "
                        "source reads them (rocjitsu): the probe should say so")
    args = parser.parse_args(argv)
    jobs = []
    if args.arch:
        arch = mc.find_architecture(args.arch)
        insts = [mc.find_instruction(arch.name, args.inst)] if args.inst else \
            list(arch.instructions)
        jobs.append((insts, args.wave or arch.waves[0]))
    else:
        for arch_name, name in SAMPLES:
            inst = mc.find_instruction(arch_name, name)
            jobs += [([inst], wave) for wave in inst.wave_sizes]
    status = 0
    for insts, wave in jobs:
        if len(jobs) > 1:
            print(f"== {insts[0].arch} {insts[0].mnemonic} wave{wave}")
        if args.clang:
            status |= clang_check(insts, wave, args.clang, args.headers)
        else:
            status |= run(insts, wave, args.plant, args.quiet, args.reading)
    return status


if __name__ == "__main__":
    sys.exit(main())
