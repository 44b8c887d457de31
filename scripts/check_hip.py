#!/usr/bin/env python3
"""Compile the emitted HIP of every instruction with clang-22 and check the assembly:
each example kernel must contain its instruction's mnemonic with the modifiers asked for.

    python3 scripts/check_hip.py [--clang clang-22] [--headers]

One file per target and wave size is the concatenation of whole `--emit hip` outputs,
each with its own header and prelude, as a user would paste them: every example (and a
sample of modifiers), every operand's functions, and storage variants; so the file
compiling also proves that any number of outputs share a translation unit. The files
compile in parallel. Where the builtin takes the modifiers as arguments (gfx1250,
gfx1251) the D, A and B operands must also span the VGPRs the layouts count. Instructions
without a wave-level example are listed as "refused: ..." with the reason. Prints one
line per failure, a count per target and a summary "N/M compile and match"; exit status 1
on any failure. tests/external/test_hip_clang.py runs it when clang-22 is installed.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from formats import hip
from instructions import TARGETS
from layouts.modifiers import Modifiers
from matrix_library import api as mc
from matrix_library import drawing
from matrix_library.drawing import wmma_builtins


def modifier_arguments(inst: Any) -> bool:
    """The instruction's builtin takes its modifiers as arguments (gfx1250's style)."""
    builtins = wmma_builtins(inst)
    return builtins is not None and builtins.operand_modifiers and \
        inst.kind in ("wmma", "swmmac")


def argument_samples(inst: Any) -> list[Modifiers]:
    """Modifiers that change the call of a builtin taking them as arguments: every
    legal neg_lo/neg_hi bit at once, one 16-bit half alone (negated in code), every
    format pair, the scales' selects and formats, the reuse hints, index_key 1."""
    from layouts.gfx1250 import neg_masks
    out = [Modifiers()]
    lo, hi = neg_masks(inst)
    if lo or hi:
        out.append(Modifiers(neg_lo=lo, neg_hi=hi))
    if lo & 1 and inst.a_type.bits == 16 and not inst.a_type.is_int:
        out += [Modifiers(neg_lo=1), Modifiers(neg_hi=2)]
    if lo & 4:
        out.append(Modifiers(neg_lo=4) if hi & 4 == 0 else Modifiers(neg_hi=4))
    fields = inst.format_fields
    for a in range(5 if fields else 0):
        for b in range(5):
            mods = {fields[0]: a, fields[1]: b}
            if inst.scaled:
                mods.update(matrix_a_scale=a % 2, matrix_b_scale=b % 2,
                            matrix_a_scale_fmt=(a + b) % 3, matrix_b_scale_fmt=a % 3)
            out.append(Modifiers(**mods))
    if inst.scaled and not fields:
        out += [Modifiers(matrix_a_scale=1, matrix_a_scale_fmt=2, matrix_b_scale_fmt=1),
                Modifiers(matrix_b_scale=1, matrix_a_scale_fmt=1, matrix_b_scale_fmt=2)]
    if inst.takes("matrix_a_reuse"):
        out += [Modifiers(matrix_a_reuse=1), Modifiers(matrix_b_reuse=1),
                Modifiers(matrix_a_reuse=1, matrix_b_reuse=1)]
    if inst.takes("index_key"):
        out.append(Modifiers(index_key=1))
    return out


def argument_texts(inst: Any, mods: Modifiers) -> list[str]:
    """What LLVM prints for modifiers passed as arguments: neg_lo/neg_hi as the call
    encodes them (a 16-bit half alone is negated in code instead: not required), formats,
    scale selects and formats, reuse hints and index_key by LLVM's names."""
    from layouts.gfx1250 import VALUE_NAMES
    lo = [mods.neg_lo & 1, mods.neg_lo >> 1 & 1, mods.neg_lo >> 2 & 1]
    hi = [mods.neg_hi & 1, mods.neg_hi >> 1 & 1, mods.neg_hi >> 2 & 1]
    for i in (0, 1):
        if inst.a_type.is_int or inst.a_type.bits > 16:
            hi[i] = 0  # signedness; 32-bit values: neg_hi is not used
        elif lo[i] != hi[i]:
            lo[i] = hi[i] = 0
    out = [f"{name}:[{','.join(map(str, bits))}]"
           for name, bits in (("neg_lo", lo), ("neg_hi", hi)) if any(bits)]
    prefix = {"matrix_a_fmt": "MATRIX_FMT_", "matrix_b_fmt": "MATRIX_FMT_",
              "matrix_a_scale": "MATRIX_SCALE_", "matrix_b_scale": "MATRIX_SCALE_",
              "matrix_a_scale_fmt": "MATRIX_SCALE_FMT_", "matrix_b_scale_fmt": "MATRIX_SCALE_FMT_"}
    for name, start in prefix.items():
        value = getattr(mods, name)
        if value:
            out.append(f"{name}:{start}{VALUE_NAMES[name][value].upper()}")
    out += [name for name in ("matrix_a_reuse", "matrix_b_reuse") if getattr(mods, name)]
    if mods.index_key:
        out.append(f"index_key:{mods.index_key}")
    return out


def _wmma_samples(inst: Any, wave: int) -> list[Modifiers]:
    out = [Modifiers()]
    if inst.sparse and inst.opsel:  # every index set OPSEL picks (index_key in assembly)
        out += [Modifiers(opsel=o) for o in range(1, 32 // drawing.index_bits_per_lane(inst, wave))]
    if inst.is_int and inst.neg:
        out.append(Modifiers(neg=3))
    elif inst.neg:
        out += [Modifiers(neg=1, neg_hi=1), Modifiers(neg=4, neg_hi=4)]
    conventions = wmma_builtins(inst)
    if inst.opsel and not inst.sparse and conventions is not None and \
            conventions.opsel_argument:
        out.append(Modifiers(opsel=4))
    return out


def samples(inst: Any, wave: int) -> list[Modifiers]:
    """Default modifiers plus those that change the emitted call."""
    if modifier_arguments(inst):
        return argument_samples(inst)
    if inst.kind in ("wmma", "swmmac"):
        return _wmma_samples(inst, wave)
    out = [Modifiers()]
    if inst.f8f6f4:
        out += [Modifiers(cbsz=2, blgp=4), Modifiers(cbsz=4, blgp=1)]
        if inst.scaled:
            out.append(Modifiers(opsel_a=1, opsel_b=2))
    elif inst.cbsz and inst.blocks > 1:
        out.append(Modifiers(cbsz=1, abid=1))
    elif inst.sparse and inst.cbsz:
        out.append(Modifiers(abid=1))
    if inst.blgp and not inst.f8f6f4:
        out.append(Modifiers(blgp=5 if inst.out_type.bits == 64 else 3))
    return out


def _wmma_expected(inst: Any, mods: Modifiers) -> list[str]:
    out: list[str] = []
    if inst.is_int and mods.neg:
        out.append(f"neg_lo:[{mods.neg & 1},{mods.neg >> 1 & 1},0]")
    # Float NEG/NEG_HI have no builtin operand: the example negates the values in code,
    # which the compiler folds into neg_lo/neg_hi only sometimes (f16 on gfx12); those
    # kernels are checked for the mnemonic only.
    if mods.opsel and inst.sparse:  # OPSEL picks the index set: index_key
        out.append(f"index_key:{mods.opsel}")
    elif mods.opsel:
        out.append("op_sel:[0,0,1]")
    return out


def expected(inst: Any, mods: Modifiers) -> list[str]:
    """Modifier texts LLVM prints for these modifiers."""
    if modifier_arguments(inst):
        return argument_texts(inst, mods)
    if (inst.kind in ("wmma", "swmmac")):
        return _wmma_expected(inst, mods)
    out: list[str] = []
    if inst.out_type.bits == 64 and mods.blgp:
        return ["neg:[" + ",".join(str(mods.blgp >> i & 1) for i in range(3)) + "]"]
    if inst.f8f6f4 and inst.scaled and (mods.opsel_a or mods.opsel_b):
        lo = (mods.opsel_a & 1, mods.opsel_b & 1)
        hi = (mods.opsel_a >> 1, mods.opsel_b >> 1)
        if any(lo):
            out.append(f"op_sel:[{lo[0]},{lo[1]},0]")
        out.append(f"op_sel_hi:[{hi[0]},{hi[1]},0]")
    for name in ("cbsz", "abid", "blgp"):
        if getattr(mods, name):
            out.append(f"{name}:{getattr(mods, name)}")
    return out


def mnemonic(inst: Any) -> str:
    """The mnemonic the kernel must contain: the unscaled f8f6f4 MFMA comes from the
    scale builtin with constant zero scales (clang selects v_mfma_f32_*_f8f6f4)."""
    return str(inst.mnemonic)


LAYOUT_VARIANTS = (  # storage variants compiled for the first instructions of each table
    (hip.Options(order="col"), ()),
    (hip.Options(ld=160), ()),
    (hip.Options(lds=True), ("ds_",)),  # LDS reads and writes: ds_read*/ds_load*/ds_write*
)


# (kernel name, mnemonic, texts its line must contain, VGPRs of D, A, B or None)
Kernel = tuple[str, str, list[str], "tuple[int, ...] | None"]


def widths(inst: Any, mods: Modifiers, wave: int) -> tuple[int, ...] | None:
    """VGPRs of the D, A and B operands as the layouts count them (the formats applied),
    checked against the assembly where the builtin takes the modifiers as arguments."""
    if not modifier_arguments(inst):
        return None
    formats = Modifiers(**{name: getattr(mods, name) for name in inst.format_fields})
    counts = tuple(mc.register_count(inst, m, mods=formats, wave=wave) for m in ("D", "A", "B"))
    if inst.sparse and inst.c_type.bits > inst.out_type.bits:  # Vdst: the tied f32 C
        counts = (inst.m * inst.n * inst.c_type.bits // (32 * wave),) + counts[1:]
    return counts


def operand_widths(line: str) -> tuple[int, ...]:
    """VGPRs of the first three operands of an assembly line (v7: 1, v[2:13]: 12)."""
    out = []
    for operand in line.split(None, 1)[1].split(", ")[:3]:
        if operand.startswith("v["):
            low, high = operand[2:].split("]")[0].split(":")
            out.append(int(high) - int(low) + 1)
        else:
            out.append(1)
    return tuple(out)


def _writes(line: str, register: int) -> bool:
    """Whether an assembly line writes VGPR `register` (its destination, the first operand;
    each half of a dual-issue `X :: Y` line)."""
    for half in line.split("::"):
        parts = half.strip().split(None, 1)
        if len(parts) < 2 or not parts[0].startswith("v_"):
            continue
        first = parts[1].split(",")[0].strip()
        if first.startswith("v["):
            low, high = first[2:].split("]")[0].split(":")
            if int(low) <= register <= int(high):
                return True
        elif first == f"v{register}":
            return True
    return False


def constant_index(mnem: str, line: str, code: str) -> bool:
    """Whether a SWMMAC's index operand (its fourth) was last written with a constant
    before the SWMMAC (the index thrown away, as an index loaded into the wrong half
    once was)."""
    if not mnem.startswith("v_swmmac"):
        return False
    index = line.split(None, 1)[1].split(", ")[3].split()[0]
    if not re.fullmatch(r"v\d+", index):
        return False
    lines = code.splitlines()
    for earlier in reversed(lines[: lines.index(line)]):
        if _writes(earlier, int(index[1:])):
            return re.match(r"\s*v_mov_b32(?:_e32)?\s+v\d+,\s*(?:0|0x0)\s*$", earlier) is not None
    return False


def refusal(inst: Any, wave: int) -> str | None:
    """Why --emit hip has no wave-level example for `inst` (None: it has one)."""
    try:
        hip.emit_parts(inst, None, None, wave)
    except mc.CalcError as error:
        return str(error)
    return None


def build(arch: Any, wave: int) -> tuple[str, list[Kernel]]:
    """One file with every output of `arch` for `wave`, concatenated: the examples
    (kernels <default prefix>_example; instructions without one are left out, see
    `refusal`) and every operand's functions."""
    outputs: list[str] = []
    kernels: list[Kernel] = []
    runs: list[tuple[Any, Modifiers, hip.Options, tuple[str, ...]]] = []
    emitted = [inst for inst in arch.instructions if refusal(inst, wave) is None]
    for inst in emitted:
        runs += [(inst, mods, hip.Options(), ()) for mods in samples(inst, wave)]
    for inst in emitted[:3]:
        runs += [(inst, Modifiers(), options, needs) for options, needs in LAYOUT_VARIANTS]
    for inst, mods, options, needs in runs:
        outputs.append(hip.emit(inst, None, mods, wave, options))
        resolved = mc.with_formats(inst, mods)
        kernel = hip.default_prefix(resolved, mc.modifiers(mods), wave, options) + "_example"
        kernels.append((kernel, mnemonic(inst), expected(inst, mods) + list(needs),
                        widths(inst, mods, wave)))
    for inst in arch.instructions:
        for matrix in mc.matrices(inst):
            outputs.append(hip.emit(inst, matrix, None, wave))
    return "\n".join(outputs), kernels


def compile_one(clang: str, target: str, wave: int, text: str, headers: bool,
                folder: str) -> tuple[int, str]:
    path = os.path.join(folder, f"{target}_w{wave}.hip")
    with open(path, "w") as f:
        f.write(text)
    cmd = [clang, "-x", "hip", "--cuda-device-only", "-nogpulib", f"--offload-arch={target}",
           "-O1", "-S", "-o", "-", path]
    if not headers:
        cmd.insert(4, "-nogpuinc")
    if target.startswith("gfx1") and wave == 64:
        cmd.insert(4, "-mwavefrontsize64")
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr


def functions(asm: str) -> dict[str, str]:
    out: dict[str, str] = {}
    current: str | None = None
    for line in asm.splitlines():
        head = line.split(";")[0].rstrip()
        if head and not head[0].isspace() and head.endswith(":") and not head.startswith("."):
            current = head[:-1]
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


def refusals() -> int:
    """Print the instructions without a wave-level example; their number."""
    refused = 0
    for arch in mc.architectures():
        for wave in arch.waves if arch.name in TARGETS else ():
            for inst in arch.instructions:
                why = refusal(inst, wave)
                if why is not None:
                    refused += 1
                    print(f"refused: {arch.name} wave{wave} {inst.mnemonic}: {why}")
    return refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--headers", action="store_true",
                        help="compile with the ROCm headers (without -nogpuinc)")
    parser.add_argument("--arch", action="append", default=[],
                        help="only this architecture (a name or alias; repeatable)")
    args = parser.parse_args(argv)
    only = {mc.find_architecture(name).name for name in args.arch}
    jobs = []
    refused = refusals()
    with tempfile.TemporaryDirectory() as folder, \
            ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for arch in mc.architectures():
            if only and arch.name not in only:
                continue
            target = TARGETS.get(arch.name)
            for wave in arch.waves if target is not None else ():
                text, kernels = build(arch, wave)
                future = pool.submit(compile_one, args.clang, target, wave, text,
                                     args.headers, folder)
                jobs.append((target, wave, kernels, future))
        ok = total = 0
        for target, wave, kernels, future in jobs:
            status, output = future.result()
            total += len(kernels)
            if status:
                print(f"{target} wave{wave}: clang failed: {output[:2000]}")
                continue
            passed = check_kernels(target, wave, kernels, functions(output))
            print(f"{target} wave{wave}: {passed}/{len(kernels)}")
            ok += passed
    print(f"{refused} instruction(s) refused; {ok}/{total} compile and match")
    return 0 if ok == total else 1


def check_kernels(target: str, wave: int, kernels: list[Kernel],
                  bodies: dict[str, str]) -> int:
    """The number of kernels whose assembly has the mnemonic with the modifiers (and the
    instructions every kernel body must contain); prints the others."""
    ok = 0
    for kernel, mnem, mods, sizes in kernels:
        code = bodies.get(kernel, "")
        lines = [ln for ln in code.splitlines() if ln.strip().startswith(mnem + " ")]
        if not lines:
            print(f"{target} wave{wave} {kernel}: no {mnem}")
            continue
        body_needs = [m for m in mods if m.endswith("_")]
        if any(m not in code for m in body_needs):
            print(f"{target} wave{wave} {kernel}: no {body_needs} in the kernel")
            continue
        mods = [m for m in mods if not m.endswith("_")]
        if not any(all(m in ln for m in mods) for ln in lines):
            print(f"{target} wave{wave} {kernel}: {mnem} without {mods}: {lines[0].strip()}")
            continue
        if constant_index(mnem, lines[0], code):
            print(f"{target} wave{wave} {kernel}: the sparse index is a constant: "
                  f"{lines[0].strip()}")
            continue
        if sizes is not None and any(operand_widths(ln.strip()) != sizes for ln in lines):
            print(f"{target} wave{wave} {kernel}: {mnem} operands are not {sizes} VGPRs "
                  f"(D, A, B): {lines[0].strip()}")
            continue
        ok += 1
    return ok


if __name__ == "__main__":
    sys.exit(main())
