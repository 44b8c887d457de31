#!/usr/bin/env python3
"""Record what llvm-mc-22 and clang-22 answer about the copy plans (docs/lds_copy.md).

    python3 scripts/record_lds_copy.py mc > tests/data/lds_copy_llvm_mc.txt
    python3 scripts/record_lds_copy.py clang > tests/data/lds_copy_clang.json

mc: every copy instruction of every architecture's copy facts (instructions/lds_copy.py),
assembled for every architecture's LLVM target: which target accepts which (the facts
say which architecture has which direct-to-LDS load; tests/plans/test_lds_copy.py compares).
clang: the --emit hip code of each sample copy plan (tests/formats/test_lds_copy_hip.py CASES),
compiled in a probe kernel: the memory instructions clang emits for the copy and the read.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from instructions import TARGETS
from instructions.lds_copy import COPIES, CopyOp

HEADER = ("# llvm-mc-22 -triple=amdgcn -mcpu=<target> -show-encoding, one line at a time; "
          "regenerate with: python3 scripts/record_lds_copy.py mc > "
          "tests/data/lds_copy_llvm_mc.txt")
CLANG = ["clang-22", "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-nostdlibinc",
         "-O2", "-S", "-o", "-"]
COPY_RE = re.compile(r"^\s+((?:global|buffer)_load\w*|ds_write\w*|ds_store\w*|ds_read\w*|"
                     r"ds_load\w*|tensor_load\w*)([^\n]*)", re.M)


def probe(op: CopyOp) -> str:
    """The assembly line that names `op` with operands of its form."""
    regs = {4: "v0", 8: "v[0:1]", 12: "v[0:2]", 16: "v[0:3]"}.get(op.bytes, "v0")
    if op.route == "direct" and op.memory == "buffer":
        return f"{op.name} v1, s[4:7], 0 offen lds"
    if op.route == "direct" and op.name.endswith("_lds"):
        return f"{op.name[:-4]} v1, s[4:5] lds"
    if op.route == "direct":
        return f"{op.name} v1, s[2:3]"
    if op.route == "async":
        return f"{op.name} v1, v2, s[2:3]"
    if op.route == "tdm":
        return f"{op.name} s[0:3], s[4:11]"
    if op.route == "write":
        return f"{op.name} v4, {regs}"
    if op.memory == "buffer":
        offset = "0" if op.name.startswith("buffer_load_dword") else "null"
        return f"{op.name} {regs}, v4, s[4:7], {offset} offen"
    return f"{op.name} {regs}, v4, s[2:3]"


def probes() -> list[str]:
    seen: list[str] = []
    for facts in COPIES:
        for op in facts.ops:
            line = probe(op)
            if line not in seen:
                seen.append(line)
    return seen


def mc_lines(llvm_mc: str = "llvm-mc-22") -> list[str]:
    lines = [HEADER]
    for target in dict.fromkeys(TARGETS.values()):
        for line in probes():
            done = subprocess.run([llvm_mc, "-triple=amdgcn", f"-mcpu={target}",
                                   "-show-encoding"], input=line, capture_output=True,
                                  text=True, check=False)
            answer = " ".join(x.strip() for x in done.stdout.splitlines()
                              if x.strip() and not x.strip().startswith(".text"))
            if done.returncode or not answer:
                error = next((x for x in done.stderr.splitlines() if "error:" in x), "error")
                answer = "error: " + error.split("error:", 1)[1].strip()
            lines.append(f"{target} | {line} | {answer}")
    return lines


def clang_counts(code: str, target: str, wave64: bool = False) -> list[str]:
    """The memory instructions clang-22 compiles `code` to, in order."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "copy.hip")
        with open(path, "w") as f:
            f.write(code)
        cmd = CLANG + [f"--offload-arch={target}", path]
        if wave64:
            cmd.insert(4, "-mwavefrontsize64")
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    # (gfx9's global load into LDS is spelled global_load_dword ... lds: the facts name it
    # global_load_dword_lds)
    return [name + "_lds" if name.startswith("global_load_dword") and rest.split(";")[0]
            .rstrip().endswith(" lds") else name for name, rest in COPY_RE.findall(done.stdout)]


def clang_record() -> dict[str, object]:
    # (a lazy boundary: the suite's cases, with pytest, only for the clang record)
    from tests.formats.test_lds_copy_hip import CASES, COMMAND, probe_kernel, solve
    cases = []
    for case in CASES:
        found = solve(case)
        target = TARGETS[found.architecture]
        cases.append({"case": list(case[:3]) + [case[3]],
                      "clang": clang_counts(probe_kernel(found), target)})
    return {"command": COMMAND, "cases": cases}


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "mc"
    if what == "mc":
        print("\n".join(mc_lines()))
    else:
        print(json.dumps(clang_record(), indent=1))
