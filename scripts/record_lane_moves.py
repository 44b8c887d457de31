#!/usr/bin/env python3
"""Assemble every lane-move and packing mnemonic of instructions/lane_moves.py with
llvm-mc for its architecture's target and record what llvm-mc answers.

    python3 scripts/record_lane_moves.py [--llvm-mc llvm-mc-22] > tests/data/lane_moves_llvm_mc.txt

Each output line is `<target> | <assembly line> | <llvm-mc's answer>` (the encoding
comment or the error), then one line per DPP control the target's records name (its
first and last value). tests/plans/test_convert.py and tests/plans/test_convert_moves.py read the
file: every mnemonic and DPP control the records name must have assembled.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from instructions.dpp import CONTROLS
from instructions.dpp import asm as dpp_asm
from instructions.lane_moves import ARCH_MOVES, mnemonics

FOUR = ("v_bfe_u32", "v_add3_u32", "v_perm_b32", "v_med3_i32", "v_lshl_or_b32",
        "v_cvt_scalef32_pk_fp4_f32")
THREE = ("ds_bpermute_b32", "v_pack_b32_f16", "v_and_b32", "v_lshlrev_b32")
# the packs' operands that are not one register each (the type-conversion packs)
OPERANDS = {"v_cvt_pk_fp8_f16": "v1, v2", "v_cvt_pk_bf8_f16": "v1, v2",
            "v_cvt_scalef32_pk8_fp4_f32": "v1, v[2:9], v10",
            "v_cvt_scalef32_pk16_fp6_f32": "v[0:2], v[6:21], v7",
            "v_cvt_scalef32_pk16_bf6_f32": "v[0:2], v[6:21], v7",
            "v_cvt_scalef32_2xpk16_fp6_f32": "v[0:5], v[6:21], v[22:37], v38",
            "v_cvt_scalef32_2xpk16_bf6_f32": "v[0:5], v[6:21], v[22:37], v38"}


def line(target: str, mnemonic: str) -> str:
    """A well-formed assembly line using `mnemonic` on `target`."""
    vcc = "vcc" if target.startswith("gfx9") else "vcc_lo"
    if mnemonic.startswith(("ds_write", "ds_store")):
        data = {"64": "v[2:3]", "28": "v[4:7]"}.get(mnemonic[-2:], "v2")
        return f"{mnemonic} v1, {data}"
    if mnemonic.startswith(("ds_read", "ds_load")):
        bits = int(mnemonic.rsplit("_b", 1)[1])
        return f"{mnemonic} v[4:{4 + bits // 32 - 1}], v1" if bits > 32 else f"{mnemonic} v4, v1"
    if mnemonic in OPERANDS:
        return f"{mnemonic} {OPERANDS[mnemonic]}"
    if mnemonic in FOUR:
        return f"{mnemonic} v1, v2, v3, v4"
    if mnemonic in THREE or mnemonic.startswith("v_cvt_pk"):
        return f"{mnemonic} v1, v2, v3"
    if mnemonic in ("v_permlane16_b32", "v_permlanex16_b32"):
        return f"{mnemonic} v1, v2, s1, s2"
    if mnemonic == "v_mov_b32_dpp":
        return dpp_line("quad_perm", 0xB1)
    if mnemonic == "v_cmp_u_f32":
        return f"{mnemonic} {vcc}, v1, v2"
    if mnemonic == "v_cndmask_b32":
        return f"{mnemonic} v1, v2, v3, {vcc}"
    return f"{mnemonic} v1, v2"


def dpp_line(name: str, value: int) -> str:
    """v_mov_b32_dpp with one control, as the planner emits it (every row and bank,
    bound_ctrl set); dpp8 with its own syntax."""
    if name == "dpp8":
        return "v_mov_b32_dpp v1, v2 dpp8:[7,6,5,4,3,2,1,0]"
    return f"v_mov_b32_dpp v1, v2 {dpp_asm(name, value)} row_mask:0xf bank_mask:0xf bound_ctrl:1"


def dpp_lines(target: str) -> list[str]:
    """Every DPP control the records give the target, with its first and last value
    (quad_perm: [1,0,3,2]), and dpp8 where the target has it."""
    entry = next(e for e in ARCH_MOVES if e.target == target)
    lines = []
    for move in entry.moves:
        if move.kind == "dpp8":
            lines.append(dpp_line("dpp8", 0))
        for name in move.controls:
            values = (0xB1,) if name == "quad_perm" else CONTROLS[name].values
            lines += [dpp_line(name, v) for v in dict.fromkeys((values[0], values[-1]))]
    return lines


def assemble(llvm_mc: str, target: str, text: str) -> str:
    """llvm-mc's answer (the encoding comment or the error) for one line."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as handle:
        handle.write(text + "\n")
    done = subprocess.run([llvm_mc, "-triple=amdgcn", f"-mcpu={target}", "-show-encoding",
                           handle.name], capture_output=True, text=True, check=False)
    os.unlink(handle.name)
    answer = [x.strip() for x in (done.stdout + done.stderr).splitlines()
              if "encoding" in x or "error" in x]
    shown = answer[0].replace(handle.name, "<file>") if answer else "(nothing)"
    return " ".join(shown.split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    args = parser.parse_args()
    print(f"# {args.llvm_mc} -triple=amdgcn -mcpu=<target> -show-encoding, one line at a time;"
          " regenerate with: python3 scripts/record_lane_moves.py > "
          "tests/data/lane_moves_llvm_mc.txt")
    for target, names in mnemonics().items():
        for text in [line(target, name) for name in names] + dpp_lines(target):
            print(f"{target} | {text} | {assemble(args.llvm_mc, target, text)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
