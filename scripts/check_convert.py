#!/usr/bin/env python3
"""Run the emitted HIP of every planned conversion in a host emulation of a wavefront
and compare every lane's every destination value with the layouts.

    python3 scripts/check_convert.py [--arch CDNA3] [--sample N] [--route R] [--cc gcc] [-q]
    python3 scripts/check_convert.py --clang clang-22 [--headers]

Pairs: every same-architecture pair of single-block instructions (every wave size)
whose shapes share a tile, D into A and into B, as computed and as computed transposed
(D^T, square D only), where the types convert (others are counted as refused with the
library's reason). Pairs whose source layout, destination layout, route and conversion
agree get the same program, so each such class is emitted and run once
(formats/hip_convert.words_function, unchanged) and its result stands for the class.
--route registers (or lds) runs that route of every cross-lane plan instead of the
cheaper one, so that the other route's code is verified too.

The emulation: gcc compiles the word function with the MC_* macros defined for the host:
each lane is a thread, and every lane move, LDS access and wave sync meets the other
lanes at a barrier, as the wavefront's lanes execute together. Conversions become tags
(the value's bits shifted by a pass-dependent amount, so that two passes tell 8-bit
results apart): the check is that every value lands in the planned slot.

Expected values come from the layout engine directly (every place of every element of
every destination fragment, and the tile rule written out here once more).

--clang compiles a sample per target (one cross-lane and one in-lane plan, with a
kernel calling them) and checks the assembly contains the planned lane moves (and LDS
accesses for LDS routes); also the register route of a plan that took LDS, where that
route issues a lane move no sample compiles yet ("forced"), and every lane move alone
(scripts/check_lane_moves.py: each DPP control, dpp8, the permlanes). Exit status 1 on
any failure.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import check_convert_types as types_c
from check_hip import functions  # (this folder: the script's own directory is on sys.path)
from check_lane_moves import DPP_HOST, clang_asm

from formats import hip
from formats.hip import convert as hip_convert
from instructions import TARGETS
from instructions.lane_moves import arch_moves
from matrix_library import api as mc


def _layout_key(operand: Any) -> tuple[Any, ...]:
    layout = operand.layout
    return (layout.shape, layout.width, layout.base_bit, layout.factors)


def pairs(arch_names: list[str] | None = None) -> tuple[dict[Any, list[Any]], dict[str, int]]:
    """({class key: [Conversion of every pair of the class]}, {refusal reason: count})."""
    classes: dict[Any, list[Any]] = {}
    refused: dict[str, int] = {}
    for arch in mc.architectures():
        if arch_names and arch.name not in arch_names:
            continue
        for wave in arch.waves:
            insts = [i for i in arch.instructions if i.blocks == 1 and wave in i.wave_sizes]
            for src in insts:
                _pairs_from(src, insts, wave, classes, refused)
    return classes, refused


def _pairs_from(src: Any, insts: list[Any], wave: int, classes: dict[Any, list[Any]],
                refused: dict[str, int]) -> None:
    """pairs() of the source instruction `src` into `insts` in `wave`."""
    s_op = mc.operand(src, "D", wave=wave, output_calc=True)
    m, n = s_op.shape[0], s_op.shape[1]
    for dst in insts:
        for matrix, mods in types_c.variants(dst):
            d_op = mc.operand(dst, matrix, wave=wave, mods=mods)
            rows, cols = d_op.shape[0], d_op.shape[1]
            for transposed in (False, True):
                if transposed and m != n:
                    continue
                if (rows != m) if matrix == "A" else (cols != n):
                    continue  # no common tile
                try:
                    conv = _conversion(src, dst, matrix, wave, transposed, s_op, d_op, mods)
                except mc.CalcError as exc:
                    reason = str(exc).split(";")[0]
                    reason = reason.split(" (")[0] + " ..." if "(" in reason else reason
                    refused[reason] = refused.get(reason, 0) + 1
                    continue
                classes.setdefault(conv[0], []).append(conv[1])


_CACHE: dict[Any, Any] = {}


def _conversion(src: Any, dst: Any, matrix: str, wave: int, transposed: bool,
                s_op: Any, d_op: Any, mods: dict[str, int] | None = None) -> tuple[Any, Any]:
    """(class key, the pair's description) after checking the types convert; the plan
    itself is made once per class, when it is needed (planned())."""
    from matrix_plans.convert.planner import _choose, _signed
    kind = _choose(arch_moves(src.arch), src, d_op.inst, matrix, _signed(d_op))[0]
    if dst.sparse and matrix == "A":
        raise mc.CalcError("sparse A destinations are not planned")
    key = (src.arch, wave, _layout_key(s_op), _layout_key(d_op), matrix, transposed, kind,
           tuple(sorted((mods or {}).items())))  # (a lane remap is not in the layout key)
    _ARGS.setdefault(key, (src, dst, matrix, wave, transposed, mods or {}))
    return key, (src, dst, matrix, wave, transposed)


_ARGS: dict[Any, Any] = {}
DST_MODS: dict[int, dict[str, int]] = {}  # id(Conversion): its destination's modifiers
ROUTE: list[str | None] = [None]  # --route: force one route of the cross-lane plans


def planned(key: Any) -> Any:
    """The Conversion of a class (planned on first use)."""
    if key not in _CACHE:
        src, dst, matrix, wave, transposed, mods = _ARGS[key]
        _CACHE[key] = mc.conversion(src, "D", dst, matrix, wave=wave, transposed=transposed,
                                    advice=False, route=ROUTE[0], dst_mods=mods)
        DST_MODS[id(_CACHE[key])] = mods
    return _CACHE[key]


# ---- expected values, from the layouts


def put(words: list[list[int]], regs: int, f: int, place: Any, value: int, width: int
        ) -> None:
    """Write the `width` bits of `value` at `place` of fragment f (`regs` registers)."""
    bit = (f * regs + place.reg) * 32 + place.lo
    for k in range(width):
        at = bit + k
        word = words[place.lane]
        if value >> k & 1:
            word[at // 32] |= 1 << (at % 32)
        else:
            word[at // 32] &= ~(1 << (at % 32))


def _source_of(conv: Any, t: int, r: int, c: int, dims: tuple[int, int, int, int]
               ) -> tuple[int, int, int]:
    """(source fragment s, i, j): the D[i][j] destination element (r, c) of fragment t
    holds; dims: (m, n) of D, (rows, cols) of the destination."""
    m, n, rows, cols = dims
    if conv.destination_matrix == "A":  # D feeds A along N
        s, j = divmod(t * cols + c, n)
        i = r
    else:  # D feeds B along M
        s, i = divmod(t * rows + r, m)
        j = c
    if conv.transposed:
        i, j = j, i  # the registers hold D^T: read D[j][i] where D[i][j] was
    return s, i, j


def _expected(value: int, converting: bool, shift: int, dst_bits: int) -> int:
    """The destination's value of a source identity (converted: its bits from `shift`)."""
    if converting:
        return (value >> shift) & ((1 << dst_bits) - 1)
    if dst_bits == 64:
        return value | (value | 0x80000000) << 32
    return value & ((1 << dst_bits) - 1)


def expected_words(conv: Any, shift: int) -> tuple[list[list[int]], list[list[int]],
                                                     list[list[int]]]:
    """(source words, expected destination words, care masks), each per lane."""
    src_op = mc.operand(conv.source, "D", wave=conv.wave, output_calc=True)
    dst_op = mc.operand(conv.destination, conv.destination_matrix, wave=conv.wave,
                        mods=DST_MODS.get(id(conv)))
    m, n = src_op.shape[0], src_op.shape[1]
    rows, cols = dst_op.shape[0], dst_op.shape[1]
    plan = conv.plan
    wave = conv.wave
    s_words = [[0x5A5A5A5A] * (plan.source_fragments * plan.source_registers)
               for _ in range(wave)]
    src_bits = src_op.layout.width

    def ident(s: int, i: int, j: int) -> int:
        return s * m * n + i * n + j + 1

    key = types_c.value_key(conv) if shift < 0 else ""
    for s in range(plan.source_fragments):
        for i in range(m):
            for j in range(n):
                value = types_c.source_value(key, ident(s, i, j))[0] if key else \
                    _expected(ident(s, i, j), False, 0, src_bits)
                for place in src_op.places(i, j):
                    put(s_words, plan.source_registers, s, place, value, src_bits)
    d_words = [[0] * (plan.fragments * plan.registers) for _ in range(wave)]
    care = [[0] * (plan.fragments * plan.registers) for _ in range(wave)]
    dst_bits = dst_op.layout.width
    converting = bool(plan.conversion)
    for t in range(plan.fragments):
        for r in range(rows):
            for c in range(cols):
                s, i, j = _source_of(conv, t, r, c, (m, n, rows, cols))
                value = types_c.expected_value(key, ident(s, i, j)) if key else \
                    _expected(ident(s, i, j), converting, shift, dst_bits)
                for place in dst_op.places(r, c):
                    put(d_words, plan.registers, t, place, value, dst_bits)
                    put(care, plan.registers, t, place, (1 << dst_bits) - 1, dst_bits)
    return s_words, d_words, care


# ---- the host harness

HOST = r"""
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#define MC_FN static
static __thread int mc_lane;
static int mc_wave, mc_reach, mc_shift;
static pthread_barrier_t mc_barrier;
static unsigned int mc_slot[64];
static unsigned char mc_lds_bytes[65536];
#define MC_LANE() mc_lane
static void mc_sync(void) { pthread_barrier_wait(&mc_barrier); }
static unsigned int mc_read(unsigned int x, int from) {
    mc_slot[mc_lane] = x; mc_sync();
    unsigned int got = mc_slot[from]; mc_sync();
    return got;
}
static unsigned int mc_bpermute(int from, unsigned int x) {
    int lane = (mc_reach < mc_wave) ? (mc_lane & ~(mc_reach - 1)) | (from & (mc_reach - 1))
                                    : from % mc_wave;
    return mc_read(x, lane);
}
static unsigned int mc_swap(unsigned int x, int bit, int index) {
    unsigned int other = mc_read(x, mc_lane ^ bit);
    int high = (mc_lane & bit) != 0;
    return index == 0 ? (high ? other : x) : (high ? x : other);
}
static unsigned int mc_swap2(unsigned int x, unsigned int y, int bit, int index) {
    unsigned int other_x = mc_read(x, mc_lane ^ bit);
    unsigned int other_y = mc_read(y, mc_lane ^ bit);
    int high = (mc_lane & bit) != 0;
    return index == 0 ? (high ? other_y : x) : (high ? y : other_x);
}
static unsigned int mc_row(unsigned int x, unsigned int lo, unsigned int hi, int cross) {
    int i = mc_lane % 16;
    unsigned int sel = i < 8 ? (lo >> (4 * i)) & 15u : (hi >> (4 * (i - 8))) & 15u;
    int row = mc_lane / 16;
    if (cross) row ^= 1;
    return mc_read(x, row * 16 + (int)sel);
}
static unsigned int mc_half(unsigned int x) {
    return mc_wave == 64 ? mc_read(x, mc_lane ^ 32) : x;
}
static void mc_store(int at, int bits, unsigned int x) {
    for (int k = 0; k < bits / 8; k++) mc_lds_bytes[at + k] = (unsigned char)(x >> (8 * k));
}
static unsigned int mc_load(int at) {
    unsigned int x = 0;
    for (int k = 0; k < 4; k++) x |= (unsigned int)mc_lds_bytes[at + k] << (8 * k);
    return x;
}
#define MC_BPERMUTE(from, x) mc_bpermute((int)(from), (x))
#define MC_SWAP32(x, i) mc_swap((x), 32, (i))
#define MC_SWAP16(x, i) mc_swap((x), 16, (i))
#define MC_SWAP32X(x, y, i) mc_swap2((x), (y), 32, (i))
#define MC_SWAP16X(x, y, i) mc_swap2((x), (y), 16, (i))
#define MC_ROW(x, lo, hi) mc_row((x), (lo), (hi), 0)
#define MC_XROW(x, lo, hi) mc_row((x), (lo), (hi), 1)
#define MC_HALF(x) mc_half(x)
#define MC_CVT_F16(x) (((unsigned int)(x) >> mc_shift) & 0xffffu)
#define MC_CVT_BF16(x) (((unsigned int)(x) >> mc_shift) & 0xffffu)
#define MC_CVT_FP8(x) (((unsigned int)(x) >> mc_shift) & 0xffu)
#define MC_CVT_BF8(x) (((unsigned int)(x) >> mc_shift) & 0xffu)
#define MC_STORE(p, at, bits, x) mc_store((int)(at), bits, (x))
#define MC_LOAD(p, at) mc_load((int)(at))
#define MC_WAVE_SYNC() mc_sync()
typedef void (*mc_words_fn)(const unsigned int*, unsigned int*, void*);
struct mc_job { mc_words_fn fn; const unsigned int* src; unsigned int* dst; int sw, dw; int lane; };
static void* mc_run_lane(void* arg) {
    struct mc_job* job = (struct mc_job*)arg;
    mc_lane = job->lane;
    job->fn(job->src + job->lane * job->sw, job->dst + job->lane * job->dw, 0);
    return 0;
}
static int mc_check(const char* name, mc_words_fn fn, int wave, int reach, int shift,
                    const unsigned int* src, int sw, const unsigned int* want,
                    const unsigned int* care, int dw) {
    static unsigned int got[64 * 512];
    pthread_t threads[64];
    struct mc_job jobs[64];
    mc_wave = wave; mc_reach = reach; mc_shift = shift;
    memset(mc_lds_bytes, 0xEE, sizeof mc_lds_bytes);
    memset(got, 0, sizeof got);
    pthread_barrier_init(&mc_barrier, 0, (unsigned)wave);
    for (int l = 0; l < wave; l++) {
        jobs[l].fn = fn; jobs[l].src = src; jobs[l].dst = got; jobs[l].sw = sw;
        jobs[l].dw = dw; jobs[l].lane = l;
        pthread_create(&threads[l], 0, mc_run_lane, &jobs[l]);
    }
    for (int l = 0; l < wave; l++) pthread_join(threads[l], 0);
    pthread_barrier_destroy(&mc_barrier);
    int bad = 0;
    for (int l = 0; l < wave; l++)
        for (int w = 0; w < dw; w++)
            if ((got[l * dw + w] ^ want[l * dw + w]) & care[l * dw + w]) {
                if (bad < 3)
                    printf("MISMATCH %s shift %d lane %d word %d: got %08x want %08x care %08x\n",
                           name, shift, l, w, got[l * dw + w], want[l * dw + w], care[l * dw + w]);
                bad++;
            }
    return bad;
}
"""


def _array(name: str, rows: list[list[int]]) -> str:
    flat = ",".join(str(v & 0xFFFFFFFF) + "u" for row in rows for v in row)
    return f"static const unsigned int {name}[] = {{{flat}}};"


def shifts(conv: Any) -> tuple[int, ...]:
    """The tag passes (bits `shift`.. of each identity) and -1: the value pass."""
    if not conv.plan.conversion:
        return (0,)
    dst_op = mc.operand(conv.destination, conv.destination_matrix, wave=conv.wave,
                        mods=DST_MODS.get(id(conv)))
    width = dst_op.layout.width
    return (*range(0, 16 if width < 16 else 1, width), -1)


def harness(convs: list[Any]) -> str:
    """One C file running every conversion given (each with its own function name)."""
    parts = [HOST, DPP_HOST, types_c.c_text(), hip.PRELUDE, hip_convert.CONVERT_PRELUDE]
    calls = []
    for index, conv in enumerate(convs):
        name = f"mc_c{index}"
        parts.append(hip_convert.words_function(conv, name))
        reach = min(m.reach for m in arch_moves(conv.architecture).moves
                    if m.kind == "gather")
        for shift in shifts(conv):
            src, want, care = expected_words(conv, shift)
            tag = f"{name}_{shift}".replace("-", "v")
            parts += [_array(f"{tag}_src", src), _array(f"{tag}_want", want),
                      _array(f"{tag}_care", care)]
            fnuz = int(types_c.value_key(conv).endswith("fnuz"))
            calls.append(
                f"    mc_fnuz = {fnuz};\n"
                f"    bad += mc_check(\"{name}\", (mc_words_fn){name}_words, {conv.wave}, "
                f"{reach}, {shift}, {tag}_src, {len(src[0])}, {tag}_want, {tag}_care, "
                f"{len(want[0])});")
    parts.append("int main(void) {\n    int bad = 0;\n" + "\n".join(calls)
                 + "\n    printf(\"BAD %d\\n\", bad);\n    return bad != 0;\n}\n")
    return "\n".join(parts)


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "gcc", "cc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def run_host(convs: list[Any], cc: str, folder: str, chunk: int = 40) -> tuple[int, list[str]]:
    """(failures, messages) of running `convs` in the emulation, `chunk` per C file."""
    failures, messages = 0, []
    for start in range(0, len(convs), chunk):
        part = convs[start:start + chunk]
        path = os.path.join(folder, f"convert{start}.c")
        with open(path, "w") as handle:
            handle.write(harness(part))
        exe = path[:-2]
        built = subprocess.run([cc, "-O1", "-w", "-pthread", "-o", exe, path],
                               capture_output=True, text=True, check=False)
        if built.returncode:
            failures += len(part)
            messages.append(f"compile failed ({path}): {built.stderr[:2000]}")
            continue
        done = subprocess.run([exe], capture_output=True, text=True, check=False)
        for line in done.stdout.splitlines():
            if line.startswith("MISMATCH"):
                messages.append(line)
        if done.returncode:
            bad = {line.split()[1] for line in done.stdout.splitlines()
                   if line.startswith("MISMATCH")}
            failures += max(1, len(bad))
    return failures, messages


# ---- clang: a sample per target


def kernel(conv: Any, index: int) -> str:
    """A __global__ function calling conversion `index` (mc_k<index>) on data in memory."""
    plan = conv.plan
    name = f"mc_k{index}"
    src = hip.operand_type(conv.source, "D", conv.wave)
    dst = hip.operand_type(conv.destination, conv.destination_matrix, conv.wave)
    lds = plan.route == "lds"
    lines = [hip_convert.words_function(conv, name), hip_convert.wrapper(conv, name),
             f"__global__ void {name}_kernel(const {src.name}* in, {dst.name}* out) {{"]
    if lds:
        lines.append(f"    __shared__ unsigned char buffer[16 * {plan.lds_bytes}];")
    lines += [f"    const int slot = (int)(MC_THREAD_X / {conv.wave});",
              f"    {src.name} s[{plan.source_fragments}];",
              f"    {dst.name} d[{plan.fragments}];",
              f"    for (int f = 0; f < {plan.source_fragments}; f++) "
              f"s[f] = in[MC_THREAD_X * {plan.source_fragments} + f];",
              f"    {name}(s, d{', buffer + slot * ' + str(plan.lds_bytes) if lds else ''});",
              f"    for (int f = 0; f < {plan.fragments}; f++) "
              f"out[MC_THREAD_X * {plan.fragments} + f] = d[f];",
              "    (void)slot;", "}"]
    return "\n".join(lines)


def planned_moves(conv: Any) -> set[str]:
    """The lane-move and LDS mnemonics the plan issues (what the assembly must show)."""
    wanted = set()
    for step in conv.steps:
        name = step.instruction
        if name.startswith(("v_permlane", "ds_bpermute", "ds_write", "ds_store", "ds_read",
                            "ds_load", "v_mov_b32_dpp")):
            wanted.add(name.rsplit("_b", 1)[0] if name.startswith("ds_") else name)
    if any(op.op == "perm" for op in conv.plan.ops):  # (a per-lane byte permute)
        wanted.add("v_perm_b32")
    return wanted


def samples(arch_name: str) -> list[Any]:
    """One plan of the default wave per (class, route, lane moves used): every kind of
    lane move the architecture's plans use is compiled."""
    classes, _ = pairs([arch_name])
    chosen: dict[tuple[Any, ...], Any] = {}
    for key in classes:
        conv = planned(key)
        if conv.wave != mc.find_architecture(arch_name).waves[0] or conv.transposed:
            continue
        kind = (conv.kind, conv.plan.route, tuple(sorted(planned_moves(conv))),
                types_c.value_key(conv))  # and every kind of conversion
        chosen.setdefault(kind, conv)
    return list(chosen.values()) + _forced(arch_name, classes, chosen)


FORCED: set[int] = set()  # ids of the samples whose register route was forced


def _forced(arch_name: str, classes: dict[Any, list[Any]], chosen: dict[Any, Any]
            ) -> list[Any]:
    """Register routes of cross-lane plans that took LDS (the default wave, at most 80
    instructions), one per lane move none of the samples compiles yet, so that every
    lane move the register route issues on the target is compiled in a plan too."""
    covered = {name for kind in chosen for name in kind[2]}
    out = []
    for key in classes:
        conv = planned(key)
        if conv.wave != mc.find_architecture(arch_name).waves[0] or conv.transposed \
                or conv.plan.route != "lds":
            continue
        src, dst, matrix, wave, transposed, mods = _ARGS[key]
        forced = mc.conversion(src, "D", dst, matrix, wave=wave, transposed=transposed,
                               advice=False, route="registers", dst_mods=mods)
        DST_MODS[id(forced)] = mods
        moves = planned_moves(forced) - covered
        if moves and forced.total <= 80:
            covered |= moves
            FORCED.add(id(forced))
            out.append(forced)
    return out


def clang_check(clang: str, headers: bool, folder: str) -> tuple[int, list[str]]:
    failures, messages = 0, []
    for arch_name, target in TARGETS.items():
        convs = samples(arch_name)
        text = "\n".join([hip.PRELUDE, hip_convert.CONVERT_PRELUDE]
                         + [kernel(c, i) for i, c in enumerate(convs)]) + "\n"
        path = os.path.join(folder, f"{target}.hip")
        with open(path, "w") as handle:
            handle.write(text)
        done = clang_asm(clang, target, path, headers)
        if done.returncode:
            failures += 1
            messages.append(f"{target}: compile failed: {done.stderr[:1500]}")
            continue
        bodies = functions(done.stdout)
        for index, conv in enumerate(convs):
            body = "".join(text for label, text in bodies.items()
                           if f"mc_k{index}_kernel" in label)
            wanted = planned_moves(conv) | types_c.planned_packs(conv)
            missing = [w for w in sorted(wanted) if w not in body]
            mods = ",".join(f"{k}={v}" for k, v in DST_MODS.get(id(conv), {}).items())
            label = (f"{target} {conv.source.name}:D -> {conv.destination.name}:"
                     f"{conv.destination_matrix}{' ' + mods if mods else ''} "
                     f"({conv.kind}, {conv.plan.route}"
                     + (", forced)" if id(conv) in FORCED else ")"))
            if missing:
                failures += 1
                messages.append(f"{label}: assembly lacks {', '.join(missing)}")
            else:
                messages.append(f"{label}: ok, contains "
                                + (", ".join(sorted(wanted)) or "no lane move"))
    return failures, messages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", action="append", help="only this architecture (repeatable)")
    parser.add_argument("--sample", type=int, default=0, help="run only N classes (spread)")
    parser.add_argument("--cc", default=None, help="host C compiler (default: gcc)")
    parser.add_argument("--clang", default=None, help="compile a sample per target instead")
    parser.add_argument("--headers", action="store_true", help="with --clang: ROCm headers")
    parser.add_argument("--route", choices=("registers", "lds"), default=None,
                        help="run this route of every cross-lane plan (default: the planned)")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    ROUTE[0] = args.route
    with tempfile.TemporaryDirectory() as folder:
        if args.clang:
            failures, messages = clang_check(args.clang, args.headers, folder)
            from check_lane_moves import clang_check as clang_moves
            moves_failed, moves_messages = clang_moves(args.clang, folder, args.headers)
            failures += moves_failed
            messages += moves_messages
            for line in messages:
                print(line)
            print(f"clang: {len(TARGETS)} targets, {failures} failures")
            return 1 if failures else 0
        cc = args.cc or compiler()
        if cc is None:
            print("no C compiler")
            return 1
        classes, refused = pairs(args.arch)
        keys = list(classes)
        if args.sample and args.sample < len(keys):
            step = len(keys) / args.sample
            keys = [keys[int(i * step)] for i in range(args.sample)]
        convs = [planned(k) for k in keys]
        failures, messages = run_host(convs, cc, folder)
        from check_lane_moves import run as run_moves  # every lane move alone, too
        moved, moves_failed, moves_messages = run_moves(args.arch, cc, folder)
        messages += moves_messages
        failures += moves_failed
        for line in messages:
            print(line)
        covered = sum(len(classes[k]) for k in keys)
        total = sum(len(v) for v in classes.values())
        if not args.quiet:
            for reason, count in sorted(refused.items(), key=lambda x: -x[1]):
                print(f"refused {count}: {reason}")
        print(f"lane moves alone (scripts/check_lane_moves.py): {moved} run, "
              f"{moves_failed} programs failed")
        print(f"{len(keys)} of {len(classes)} classes run ({covered} of {total} planned pairs;"
              f" {sum(refused.values())} pairs refused), {failures} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
