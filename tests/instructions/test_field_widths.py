"""Every catalog register count assembles: for each AMD instruction and wave size, the
line built from the library's field widths (matrix_api.facts "fields") is accepted by
llvm-mc-22 where LLVM 22 knows the instruction. The answers are recorded in
tests/data/catalog_llvm_mc.txt (`python3 -m tests.instructions.test_field_widths` from
the repository's top rewrites it with llvm-mc-22) and replayed where llvm-mc-22 is
missing; the external test asks the live assembler."""
import shutil
import subprocess
import sys

import pytest

import matrix_calculator as mc
from tests.helpers import DATA, missing

RECORD = DATA / "catalog_llvm_mc.txt"
BASES = {"vdst": 0, "src0": 32, "src1": 64, "src2": 96, "scale_src0": 128, "scale_src1": 136}
# The target llvm-mc is asked for, per architecture (its clang target, else the generic's).
MCPU = {"GFX9-4-GENERIC": "gfx9-4-generic"}
# What LLVM 22 does not know yet (answered "invalid instruction"): gfx1251's f64 WMMA.
UNKNOWN_TO_LLVM_22 = {("GFX1251", "v_wmma_f64_16x16x4_f64")}


def _regs(name, width, inst):
    base = BASES[name]
    acc = name in ("vdst", "src2") and inst.cd_arch_vgpr is False and not inst.sparse
    prefix = "a" if acc or (name == "vdst" and inst.cd_arch_vgpr is False) else "v"
    return f"{prefix}{base}" if width == 1 else f"{prefix}[{base}:{base + width - 1}]"


def cases():
    """(mcpu and -mattr, assembler line) for every AMD instruction and wave size."""
    out = []
    for arch in mc.architectures():
        if arch.vendor != "amd":
            continue
        mcpu = MCPU.get(arch.name, arch.target)
        for inst in arch.instructions:
            for wave, widths in mc.facts(inst)["fields"].items():
                line = inst.mnemonic + " " + ", ".join(
                    _regs(name, width, inst) for name, width in widths.items())
                attr = {"32": "+wavefrontsize32,-wavefrontsize64",
                        "64": "-wavefrontsize32,+wavefrontsize64"}[wave]
                if len(arch.waves) == 1:
                    attr = ""
                out.append((arch.name, inst.mnemonic, f"{mcpu} {attr}".strip(), line))
    return out


def assemble(tool, target, lines):
    """llvm-mc's answer for each line: "ok" or its error message."""
    mcpu, *attr = target.split()
    answers = []
    for line in lines:
        run = subprocess.run([tool, "-triple=amdgcn", f"-mcpu={mcpu}", "-show-encoding",
                              *(f"-mattr={a}" for a in attr)], input=line + "\n",
                             capture_output=True, text=True)
        errors = [x for x in run.stderr.splitlines() if "error:" in x]
        answers.append(errors[0].split("error: ", 1)[1] if errors else "ok")
    return answers


def recorded():
    rows = {}
    for text in RECORD.read_text().splitlines():
        if text and not text.startswith("#"):
            target, line, answer = text.split("\t")
            rows[target, line] = answer
    return rows


def test_every_field_width_line_is_recorded_and_accepted():
    rows = recorded()
    for arch, mnemonic, target, line in cases():
        answer = rows[target, line]  # (a missing row: the widths changed; re-record)
        if (arch, mnemonic) in UNKNOWN_TO_LLVM_22:
            assert answer == "invalid instruction", line
        else:
            assert answer == "ok", (target, line, answer)


def left_out_of_the_generic():
    """gfx9-4-generic: CDNA3's lines that its table leaves out (xf32, fp8/bf8), asked of
    llvm-mc-22 for the generic target."""
    generic = mc.find_architecture("gfx9-4-generic")
    return [("gfx9-4-generic", line) for arch, mnemonic, target, line in cases()
            if arch == "CDNA3" and generic.find(mnemonic) is None]


def test_llvm_leaves_out_of_gfx9_4_generic_what_its_table_does():
    rows = recorded()
    left = left_out_of_the_generic()
    assert len(left) == 18  # 2 xf32, 16 fp8/bf8
    assert {rows[key] for key in left} == {"instruction not supported on this GPU"}


def test_the_sparse_bf16f32_vdst_is_its_tied_f32_c():
    inst = mc.find_instruction("gfx1250", "v_swmmac_bf16f32_16x16x64_bf16")
    fields = mc.facts(inst)["fields"]["32"]
    assert fields == {"vdst": 8, "src0": 8, "src1": 16, "src2": 1}
    assert mc.facts(inst)["registers"]["32"]["D"] == 4
    rows = recorded()
    assert rows["gfx1250", "v_swmmac_bf16f32_16x16x64_bf16 v[0:3], v[32:39], v[64:79], "
                "v96"] == "invalid operand for instruction"  # D's 4 alone: rejected


@pytest.mark.external
def test_live_llvm_mc_gives_the_recorded_answers():
    tool = shutil.which("llvm-mc-22")
    if tool is None:
        missing("llvm-mc-22 is not installed")
    rows = recorded()
    for (target, line), answer in sorted(rows.items())[::7]:  # a sample; --record runs all
        assert assemble(tool, target, [line]) == [answer], line


def record():
    tool = shutil.which("llvm-mc-22")
    lines = ["# llvm-mc-22 (LLVM 22) answers for the line each instruction's field widths "
             "(matrix_api.facts 'fields') build;",
             "# written by python3 -m tests.instructions.test_field_widths. Columns: mcpu "
             "[-mattr] TAB line TAB answer (ok | the error)"]
    todo = [(t, ln) for _, _, t, ln in cases()]
    todo += left_out_of_the_generic()
    todo.append(("gfx1250", "v_swmmac_bf16f32_16x16x64_bf16 v[0:3], v[32:39], v[64:79], v96"))
    for target, line in todo:
        lines.append(f"{target}\t{line}\t{assemble(tool, target, [line])[0]}")
    RECORD.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    record()
    sys.exit(0)
