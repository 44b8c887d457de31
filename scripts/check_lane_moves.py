#!/usr/bin/env python3
"""Run every lane move the architectures' records name (instructions/lane_moves.py) in
the gcc lane emulation of scripts/check_convert.py and compare each lane's value with
the move's semantics written out here in Python.

    python3 scripts/check_lane_moves.py [--arch RDNA4] [-q]

Per architecture and wave size, one program (formats/hip_convert.words_function, the
code --emit hip prints) applies each move to the word `0x1000 + lane`: every DPP control
with every value (quad_perm and dpp8: a spread of selectors), v_permlane16/x16 with
several selectors, v_permlane64, and both results of the permlane swaps. The C
emulation decodes the dpp_ctrl codes (LLVM's encoding) on its own, so this also checks
that instructions/dpp.py's names, codes and lane rules agree. A lane whose DPP source
is invalid must read 0 (bound_ctrl); lanes no rule names (row_bcast's first rows) are
not compared. scripts/check_convert.py runs this too.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from instructions.dpp import CONTROLS, dpp8_source, dpp_source
from instructions.lane_moves import ARCH_MOVES, arch_moves
from matrix_library import api as mc
from matrix_plans.convert.model import Op, Plan

# The host emulation of the DPP moves (scripts/check_convert.py's HOST has the other lane
# moves and the barrier its mc_read meets the other lanes at).
DPP_HOST = r"""
/* v_mov_b32_dpp with every row and bank enabled and bound_ctrl set, decoded from the
   dpp_ctrl code (instructions/dpp.py): the source lane, or -1 (no source: 0 is
   written) or -2 (a lane the rule does not name: a poison value). */
static int mc_dpp_lane(int ctrl) {
    int l = mc_lane, row = l & ~15, at = l & 15, n = ctrl & 15;
    if (ctrl < 0x100) return (l & ~3) + ((ctrl >> (2 * (l & 3))) & 3);
    if (ctrl > 0x100 && ctrl < 0x110) return at + n < 16 ? l + n : -1;   /* row_shl */
    if (ctrl > 0x110 && ctrl < 0x120) return at - n >= 0 ? l - n : -1;   /* row_shr */
    if (ctrl > 0x120 && ctrl < 0x130) return row + ((at - n) & 15);      /* row_ror */
    if (ctrl == 0x130) return l + 1 < mc_wave ? l + 1 : -1;              /* wave_shl */
    if (ctrl == 0x134) return (l + 1) % mc_wave;                          /* wave_rol */
    if (ctrl == 0x138) return l > 0 ? l - 1 : -1;                         /* wave_shr */
    if (ctrl == 0x13C) return (l + mc_wave - 1) % mc_wave;                /* wave_ror */
    if (ctrl == 0x140) return row + 15 - at;                              /* row_mirror */
    if (ctrl == 0x141) return (l & ~7) + 7 - (l & 7);                     /* row_half_mirror */
    if (ctrl == 0x142) return row ? row - 1 : -2;                         /* row_bcast:15 */
    if (ctrl == 0x143) return l >= 32 ? 31 : -2;                          /* row_bcast:31 */
    if ((ctrl & ~15) == 0x150) return row + n;                            /* row_share */
    if ((ctrl & ~15) == 0x160) return row + (at ^ n);                     /* row_xmask */
    return -2;
}
static unsigned int mc_dpp(unsigned int x, int ctrl) {
    int from = mc_dpp_lane(ctrl);
    unsigned int got = mc_read(x, from >= 0 ? from : mc_lane);
    return from >= 0 ? got : from == -1 ? 0u : 0xDEAD0000u ^ (unsigned int)mc_lane;
}
static unsigned int mc_dpp8(unsigned int x, unsigned int sel) {
    return mc_read(x, (mc_lane & ~7) + (int)((sel >> (3 * (mc_lane & 7))) & 7u));
}
/* v_perm_b32 (the ISA's BYTE_PERMUTE; S0 holds bytes 4-7): the selectors planned are
   0-7 and 12 (a zero byte); others give a poison byte */
static unsigned int mc_perm(unsigned int hi, unsigned int lo, unsigned int sel) {
    unsigned long long data = ((unsigned long long)hi << 32) | lo;
    unsigned int out = 0;
    for (int k = 0; k < 4; k++) {
        unsigned int s = (sel >> (8 * k)) & 255u;
        unsigned int byte = s < 8 ? (unsigned int)(data >> (8 * s)) & 255u : s == 12 ? 0u : 0xA5u;
        out |= byte << (8 * k);
    }
    return out;
}
#define MC_PERM(hi, lo, sel) mc_perm((hi), (lo), (sel))
#define MC_DPP(x, ctrl) mc_dpp((x), (ctrl))
#define MC_DPP8(x, sel) mc_dpp8((x), (sel))
"""

_QUADS = (0x00, 0x1B, 0x4E, 0xB1, 0xE4, 0x93, 0x39, 0xFF)
_EIGHTS = ((7, 6, 5, 4, 3, 2, 1, 0), (1, 0, 3, 2, 5, 4, 7, 6), (3, 3, 0, 6, 1, 7, 2, 5))
_SIXTEENS = (tuple(range(16)), tuple(range(15, -1, -1)),
             (5, 0, 15, 3, 3, 9, 12, 1, 7, 14, 2, 8, 11, 6, 4, 10))


def _details(kind: str, controls: tuple[str, ...]) -> list[object]:
    """The details (Op info[1]) of every use of a move kind that is checked."""
    if kind == "dpp":
        return [(name, value) for name in controls
                for value in (_QUADS if name == "quad_perm" else CONTROLS[name].values)]
    if kind == "dpp8":
        return list(_EIGHTS)
    if kind in ("row", "xrow"):
        return list(_SIXTEENS)
    if kind in ("swap32", "swap16"):
        return [0, 1]
    if kind == "half":
        return [None]
    return []  # gathers: every conversion plan of scripts/check_convert.py runs them


def _source(kind: str, detail: Any, lane: int, wave: int) -> int | None:
    """The lane whose word `lane` gets (None: 0 is written; -1: no rule names one)."""
    if kind == "dpp":
        name, value = detail
        got = dpp_source(name, value, lane, wave)
        if got is None and name == "row_bcast":
            return -1
        return got
    if kind == "dpp8":
        return dpp8_source(sum(s << (3 * i) for i, s in enumerate(detail)), lane)
    if kind in ("row", "xrow"):
        row = lane // 16 ^ (kind == "xrow")
        return row * 16 + detail[lane % 16]
    if kind == "half":
        return lane ^ 32 if wave == 64 else lane
    bit = 32 if kind == "swap32" else 16
    if bit >= wave:
        return lane
    # result 0 (VDST side): lanes with the bit set read their partner; result 1 the others
    high = bool(lane & bit)
    return lane ^ bit if high == (detail == 0) else lane


def programs(arch_names: list[str] | None = None) -> list[tuple[Any, list[list[int]],
                                                                 list[list[int]]]]:
    """[(a conversion-like record of the moves, expected words, care masks)] per
    architecture and wave size."""
    out = []
    moved = {entry.arch for entry in ARCH_MOVES}  # (not NVIDIA's: they are ported from)
    for arch in mc.architectures():
        if arch.name not in moved or (arch_names and arch.name not in arch_names):
            continue
        entry = arch_moves(arch.name)
        for wave in arch.waves:
            ops = []
            for move in entry.moves:
                if move.kind in ("swap32", "swap16") and (32 if move.kind == "swap32"
                                                          else 16) >= wave:
                    continue
                for detail in _details(move.kind, move.controls):
                    ops.append(Op("move", f"d0_{len(ops)}", ("s0_0",), (move.kind, detail),
                                  (move.mnemonic,)))
            plan = Plan("cross-lane", 1, 1, (), tuple(ops), (), wave, 1, len(ops), "")
            want = [[0] * len(ops) for _ in range(wave)]
            care = [[0xFFFFFFFF] * len(ops) for _ in range(wave)]
            for k, op in enumerate(ops):
                kind, detail = op.info  # type: ignore[misc]
                for lane in range(wave):
                    src = _source(kind, detail, lane, wave)
                    if src == -1:
                        care[lane][k] = 0
                    else:
                        want[lane][k] = 0 if src is None else 0x1000 + src
            name = SimpleNamespace(name=f"{arch.name} lane moves")
            conv = SimpleNamespace(plan=plan, source=name, destination=name, kind="cross-lane",
                                   source_matrix="D", destination_matrix="A", wave=wave,
                                   architecture=arch.name)
            out.append((conv, want, care))
    return out


def checked_programs(prefix: str, items: list[tuple[Any, str, list[list[int]],
                                                    list[list[int]], list[list[int]]]]
                     ) -> list[str]:
    """The C text that runs each (conversion, label, source words, wanted words, care
    masks) of `items` through mc_check (check_convert.HOST), and main() counting the
    failures; also scripts/check_port.py's."""
    from check_convert import _array  # (this folder is on sys.path)

    from formats.hip import convert as hip_convert
    parts, calls = [], []
    for index, (conv, label, src, want, care) in enumerate(items):
        name = f"{prefix}{index}"
        parts.append(hip_convert.words_function(conv, name))
        parts += [_array(f"{name}_src", src), _array(f"{name}_want", want),
                  _array(f"{name}_care", care)]
        reach = min(m.reach for m in arch_moves(conv.architecture).moves if m.kind == "gather")
        calls.append(f"    bad += mc_check(\"{label}\", (mc_words_fn){name}_words, {conv.wave}, "
                     f"{reach}, 0, {name}_src, {len(src[0])}, {name}_want, {name}_care, "
                     f"{len(want[0])});")
    parts.append("int main(void) {\n    int bad = 0;\n" + "\n".join(calls)
                 + "\n    printf(\"BAD %d\\n\", bad);\n    return bad != 0;\n}\n")
    return parts


def harness(items: list[tuple[Any, list[list[int]], list[list[int]]]]) -> str:
    """One C file running every program of `items` in the emulation."""
    from check_convert import HOST  # (this folder is on sys.path)

    from formats import hip
    from formats.hip import convert as hip_convert
    parts = [HOST, DPP_HOST, hip.PRELUDE, hip_convert.CONVERT_PRELUDE]
    parts += checked_programs("mc_m", [
        (conv, f"{conv.architecture} wave {conv.wave}",
         [[0x1000 + lane] for lane in range(conv.wave)], want, care)
        for conv, want, care in items])
    return "\n".join(parts)


def run(arch_names: list[str] | None, cc: str, folder: str) -> tuple[int, int, list[str]]:
    """(moves checked, failures, messages)."""
    items = programs(arch_names)
    path = os.path.join(folder, "lane_moves.c")
    with open(path, "w") as handle:
        handle.write(harness(items))
    built = subprocess.run([cc, "-O1", "-w", "-pthread", "-o", path[:-2], path],
                           capture_output=True, text=True, check=False)
    count = sum(len(conv.plan.ops) for conv, _, _ in items)
    if built.returncode:
        return count, len(items), [f"compile failed: {built.stderr[:2000]}"]
    done = subprocess.run([path[:-2]], capture_output=True, text=True, check=False)
    bad = [line for line in done.stdout.splitlines() if line.startswith("MISMATCH")]
    return count, len({line.split(" shift")[0] for line in bad}) + (
        1 if done.returncode and not bad else 0), bad


def _asm_text(kind: str, detail: Any, mnemonic: str) -> str:
    """What the assembly of one move must contain."""
    from instructions.dpp import asm
    if kind == "dpp":
        return asm(*detail)
    if kind == "dpp8":
        return "dpp8:[" + ",".join(map(str, detail)) + "]"
    return mnemonic


def clang_asm(clang: str, target: str, path: str, headers: bool, wave64: bool = False
              ) -> subprocess.CompletedProcess[str]:
    """clang's device assembly of the HIP file `path` for `target` (-nogpuinc without
    ROCm headers; -mwavefrontsize64 for wave64 on gfx10+)."""
    cmd = [clang, "-x", "hip", "--cuda-device-only", "-nogpulib",
           f"--offload-arch={target}", "-O2", "-S", "-o", "-", path]
    if not headers:
        cmd.insert(4, "-nogpuinc")
    if wave64:
        cmd.insert(4, "-mwavefrontsize64")
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def clang_check(clang: str, folder: str, headers: bool = False) -> tuple[int, list[str]]:
    """Compile each target's lane-move programs (every wave size) with clang and check
    that the assembly shows every move: each DPP control as the assembler writes it,
    dpp8's selectors, the permlane mnemonics. (failures, messages)"""
    import re

    from formats import hip
    from formats.hip import convert as hip_convert
    from instructions import TARGETS
    failures, messages = 0, []
    for conv, _, _ in programs():
        target = TARGETS[conv.architecture]
        name = "mc_lane_moves"
        text = "\n".join([hip.PRELUDE, hip_convert.CONVERT_PRELUDE,
                          hip_convert.words_function(conv, name),
                          f"__global__ void {name}_kernel(const unsigned int* in, "
                          "unsigned int* out) {",
                          f"    unsigned int d[{conv.plan.registers}];",
                          f"    {name}_words(in + MC_THREAD_X, d);",
                          f"    for (int k = 0; k < {conv.plan.registers}; k++) "
                          f"out[k * {conv.wave} + MC_THREAD_X] = d[k];", "}"]) + "\n"
        path = os.path.join(folder, f"moves_{target}_{conv.wave}.hip")
        with open(path, "w") as handle:
            handle.write(text)
        done = clang_asm(clang, target, path, headers,
                         wave64=conv.wave == 64 and target.startswith("gfx1"))
        if done.returncode:
            failures += 1
            messages.append(f"lane moves {target}: compile failed: {done.stderr[:1500]}")
            continue
        wanted = {_asm_text(op.info[0], op.info[1], op.issues[0]) for op in conv.plan.ops
                  if not (op.info[0] == "dpp" and op.info[1] == ("quad_perm", 0xE4))}
        missing = sorted(w for w in wanted  # (row_shl:1 is not row_shl:15)
                         if not re.search(re.escape(w) + "(?![0-9])", done.stdout))
        label = f"lane moves {target} wave {conv.wave}"
        if missing:
            failures += 1
            messages.append(f"{label}: assembly lacks {', '.join(missing)}")
        else:
            messages.append(f"{label}: ok, the assembly shows all {len(wanted)} moves")
    return failures, messages


def main(argv: list[str] | None = None) -> int:
    import argparse

    from check_convert import compiler
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", action="append", help="only this architecture (repeatable)")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    cc = compiler()
    if cc is None:
        print("no C compiler")
        return 1
    with tempfile.TemporaryDirectory() as folder:
        count, failures, messages = run(args.arch, cc, folder)
    for line in messages:
        print(line)
    print(f"lane moves: {count} moves run, {failures} programs failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
