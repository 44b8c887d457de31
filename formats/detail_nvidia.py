"""The --detail-instruction text of NVIDIA's instructions (instructions/nvidia.py): the
facts the PTX ISA and CUDA give, with their sources, then the mapping formulas derived
from the layouts (layouts/nvidia.py)."""
from __future__ import annotations

from instructions.nvidia import HARDWARE, PTX, SECTIONS, cute_source, ptx_spelling

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not loaded at run time: start-up)
    from matrix_library.api import Instruction

def _fact(inst: Instruction, key: str) -> str:
    return dict(inst.facts).get(key, "")


def _operands(inst: Instruction) -> list[str]:
    from matrix_library.facts import description  # (the facts: loaded for -d alone)
    counts = description(inst)["registers"][str(inst.wave_sizes[0])]
    if inst.kind in ("ldmatrix", "stmatrix"):
        verb = "loads into" if inst.kind == "ldmatrix" else "stores from"
        return ["Fragment (operand D here):",
                f"    {inst.blocks} matrices of 8x8 b16; each thread {verb} {counts['D']} "
                "32-bit registers (matrix i in register i)",
                "    rows: the addresses threads 8i..8i+7 give for matrix i"]
    lines = ["Registers per thread (32-bit registers of each operand's vector):"]
    types = {"A": inst.a_type, "B": inst.b_type, "C": inst.c_type, "D": inst.d_type}
    for m in "ABCD":
        if m not in counts:
            lines.append(f"    {m}: " + ("a shared-memory matrix descriptor" if m == "B"
                                           else "D's registers (accumulated in place)"))
            continue
        lines.append(f"    {m}: {counts[m]} ({types[m].describe()})")
    return lines


def lines(inst: Instruction) -> list[str]:
    threads = inst.wave_sizes[0]
    group = ("a warpgroup: four warps, warp w = floor(lane / 32) holds rows 16w..16w+15"
             if threads == 128 else "one warp")
    atom = _fact(inst, "cute")
    out = [f"PTX: {ptx_spelling(inst)}",
           f"    [{PTX}, {SECTIONS[inst.kind]}]",
           f"Minimum architecture: {_fact(inst, 'first')}",
           "CUDA: inline PTX (asm volatile) of the line above"]
    if atom:
        out += [f"CuTe atom: cute::{atom}", f"    [{cute_source(atom)}]"]
    if inst.kind not in ("ldmatrix", "stmatrix"):
        out += ["Matrix Dimensions:", f"    M: {inst.m}", f"    N: {inst.n}", f"    K: {inst.k}"]
        if inst.blocks > 1:
            out.append(f"    Blocks: {inst.blocks} (quad pairs: lanes 4q..4q+3 and 4q+16..4q+19 "
                       "hold product q)")
        ops = "Ops" if inst.a_type.is_int else "FLOPs"
        out.append(f"    {ops}: {inst.flops}")
    out += [f"Threads: {threads} ({group})"]
    out += _operands(inst)
    out += ["Register notation: v<r>{<lane>} is 32-bit register r of the fragment's vector "
            "in thread <lane>;",
            "    PTX's element x<e> (a0, a1, ... in the PTX ISA's figures) is e = b / bits "
            "(f64: one element a register pair)",
            f"Verified: on hardware, {HARDWARE}; against CuTe (tests/layouts/test_nvidia.py)"]
    return out  # (formats/detail.py adds the formulas)
