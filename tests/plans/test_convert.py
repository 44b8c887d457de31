"""Conversions between instructions: the done-when facts, every plan's moves
against the two layouts, the program's instruction counts, the library's checks, the
command line (text, --json against the schema, --emit hip, errors) and the recorded
llvm-mc and clang answers."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from formats import hip
from formats.conversion import document
from formats.hip.convert import CONVERT_PRELUDE, emit_conversion
from instructions.lane_moves import ARCH_MOVES, mnemonics
from matrix_library import api as mc
from matrix_plans.convert.planner import slot_moves
from tests.helpers import missing

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]

sys.path.insert(0, str(ROOT / "scripts"))  # (the scripts' checks, imported by name)

from check_convert import kernel, planned_moves
from check_convert_types import planned_packs


def conv(arch, src, dst, matrix, **kwargs):
    return mc.conversion(mc.find_instruction(arch, src), "D", mc.find_instruction(arch, dst),
                         matrix, **kwargs)


# ---- done-when facts


def test_cdna3_16x16x16_f16_d_into_b_is_in_lane_and_into_a_cross_lane():
    name = "v_mfma_f32_16x16x16_f16"
    into_b, into_a = conv("cdna3", name, name, "B"), conv("cdna3", name, name, "A")
    assert into_b.kind == "in-lane"
    assert into_a.kind == "cross-lane"
    assert into_b.route == "registers"
    # f32 -> f16 without a cross-lane move: two conversions and a pack per register
    assert {s.instruction: s.times for s in into_b.steps} == {"v_cvt_f16_f32": 4,
                                                              "v_pack_b32_f16": 2}
    assert not any(s.instruction.startswith(("ds_", "v_permlane")) for s in into_b.steps)
    assert any(s.instruction.startswith("ds_") for s in into_a.steps)


def test_swapped_product_advice():
    """D into A is cross-lane; the transposed source (Triton's MFMA-to-dot shortcut)
    is in-lane, and the advice says so with that plan."""
    name = "v_mfma_f32_16x16x16_f16"
    plan = conv("cdna3", name, name, "A")
    assert plan.advice, "a cheaper plan exists"
    best = plan.advice[0]
    assert best.conversion.kind == "in-lane"
    assert best.conversion.transposed and best.conversion.destination_matrix == "A"
    assert "A and B swapped" in best.change
    assert conv("cdna3", name, name, "A", transposed=True).kind == "in-lane"
    assert conv("cdna3", name, name, "B").advice == ()  # already in-lane: nothing cheaper


def test_gfx950_attention_tiles():
    """Two 16x16 D tiles (transposed) feed one 16x16x32 A: two source fragments, one
    destination fragment, f16 packed by v_cvt_pk_f16_f32."""
    plan = conv("cdna4", "v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x32_f16", "A",
                transposed=True)
    assert (plan.source_fragments, plan.fragments) == (2, 1)
    assert plan.conversion == "v_cvt_pk_f16_f32"
    assert plan.kind == "cross-lane" and plan.route == "registers"
    # the register-only sequence of the fact sheet (C.4): 4 packs, then per packed
    # register pair one v_permlane32_swap and one v_permlane16_swap
    assert {s.instruction: s.times for s in plan.steps} == {
        "v_cvt_pk_f16_f32": 4, "v_permlane32_swap_b32": 2, "v_permlane16_swap_b32": 2}
    big = conv("cdna4", "v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x16_f16", "A",
               transposed=True)
    # 32x32: one v_permlane32_swap per pair of packed registers (C.4)
    assert {s.instruction: s.times for s in big.steps} == {
        "v_cvt_pk_f16_f32": 8, "v_permlane32_swap_b32": 4}


def test_tile_rule_and_its_errors():
    big, small = "v_mfma_f32_32x32x8_f16", "v_mfma_f32_16x16x16_f16"
    with pytest.raises(mc.CalcError, match="M = 32 rows but A of .* has M = 16"):
        conv("cdna3", big, small, "A")
    with pytest.raises(mc.CalcError, match="N = 32 columns but B of .* has N = 16"):
        conv("cdna3", big, small, "B")
    # 16x16 D (N = 16) into 16x16x32 A (K = 32): two source fragments per destination
    plan = conv("cdna4", small, "v_mfma_f32_16x16x32_f16", "A")
    assert (plan.source_fragments, plan.fragments) == (2, 1)
    first = next(m for m in plan.moves if m.element == "A[3][20]")
    assert first.source.element == "D[3][4]" and first.source.fragment == 1


@pytest.mark.parametrize("args, message", [
    (("v_mfma_f32_16x16x16_f16", "A", "v_mfma_f32_16x16x16_f16", "B"), "source of a conversion"),
    (("v_mfma_f32_16x16x16_f16", "D", "v_mfma_f32_16x16x16_f16", "C"), "destination"),
    (("v_mfma_f32_16x16x16_i8", "D", "v_mfma_f32_16x16x16_i8", "A"), None),
])
def test_library_refusals(args, message):
    src, sm, dst, dm = args
    try:
        a = mc.find_instruction("cdna3", src)
        b = mc.find_instruction("cdna3", dst)
    except mc.CalcError:  # (no such instruction: the name check is the refusal)
        return
    with pytest.raises(mc.CalcError, match=message or ""):
        mc.conversion(a, sm, b, dm)


def test_refuses_types_multiblock_and_broadcasts():
    i8 = mc.find_instruction("cdna3", "v_mfma_i32_16x16x32_i8")
    f16_mfma = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    with pytest.raises(mc.CalcError, match="no conversion of i32 values"):
        mc.conversion(i8, "D", f16_mfma, "A")  # (i32 -> i8 is planned: saturation)
    multi = mc.find_instruction("cdna3", "v_mfma_f32_16x16x4_4b_f16")
    with pytest.raises(mc.CalcError, match="4 blocks"):
        mc.conversion(multi, "D", multi, "A")
    f32 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x4_f32")
    with pytest.raises(mc.CalcError, match="broadcast"):
        mc.conversion(f32, "D", f32, "B", mods={"blgp": 1})
    f16 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    with pytest.raises(mc.CalcError, match="wave size 32"):
        mc.conversion(f16, "D", f16, "B", wave=32)
    with pytest.raises(mc.CalcError):
        mc.conversion("v_mfma_f32_16x16x16_f16", "D", f16, "B")


# ---- every plan's moves against the two layouts


def _classes():
    """(source operand, destination operand, transposed) of every distinct pair of
    layouts of single-block instructions that share a tile, on every architecture
    and wave size (pairs with the same two layouts have the same moves)."""
    seen = {}
    # (conversions chain one AMD architecture's instructions)
    for arch in (a for a in mc.architectures() if a.vendor == "amd"):
        for wave in arch.waves:
            insts = [i for i in arch.instructions if i.blocks == 1 and wave in i.wave_sizes]
            for src in insts:
                s = mc.operand(src, "D", wave=wave, output_calc=True)
                for dst in insts:
                    for matrix in "AB":
                        if dst.sparse and matrix == "A":
                            continue
                        d = mc.operand(dst, matrix, wave=wave)
                        for transposed in (False, True):
                            if transposed and s.shape[0] != s.shape[1]:
                                continue
                            if matrix == "A" and d.shape[0] != s.shape[0] or \
                                    matrix == "B" and d.shape[1] != s.shape[1]:
                                continue
                            key = (_key(s.layout), _key(d.layout), matrix, transposed, wave)
                            seen.setdefault(key, (s, d, transposed))
    return list(seen.values())


def _key(layout):
    return (layout.shape, layout.width, layout.base_bit, layout.factors)


_HELD = {}


def _holder(operand, place):
    """The element the layout puts at a place (lane, register, bits), from a table of
    every place of every element (built once per operand)."""
    table = _HELD.get(id(operand))
    if table is None:
        table = _HELD[id(operand)] = ({}, operand)
        for elem, places in operand.placed():
            for at in places:
                table[0][(at.lane, at.reg, at.lo, at.width)] = elem[:2]
    return table[0].get((place.lane, place.reg, place.lo, place.width))


@pytest.mark.slow
def test_every_plan_moves_each_slot_once_from_a_slot_holding_its_element():
    classes = _classes()
    assert len(classes) > 150
    for s, d, transposed in classes:
        sources, fragments, moves = slot_moves(s, d, transposed)
        m, n = s.shape[0], s.shape[1]
        rows, cols = d.shape[0], d.shape[1]
        # every destination slot of every fragment exactly once
        wanted = sorted((t, p.lane, p.reg, p.lo, p.width) for t in range(fragments)
                        for r in range(rows) for c in range(cols) for p in d.places(r, c))
        got = sorted((mv.to.fragment, mv.to.lane, mv.to.reg, mv.to.lo, mv.to.width)
                     for mv in moves)
        assert got == wanted, (s.inst.name, d.inst.name, d.matrix)
        for mv in moves:
            r, c = _holder(d, mv.to)
            assert (r, c) == mv.element
            t = mv.to.fragment
            if d.matrix == "A":  # A[r][c] of fragment t = D[r][j] of fragment s
                sf, j = divmod(t * cols + c, n)
                i = r
            else:  # B[r][c] of fragment t = D[i][c] of fragment s
                sf, i = divmod(t * rows + r, m)
                j = c
            assert mv.source.fragment == sf and 0 <= sf < sources
            held = _holder(s, mv.source)
            assert held == ((j, i) if transposed else (i, j)), (s.inst.name, mv)


def test_the_move_check_can_fail():
    """(the check above finds a move whose source slot holds another element)"""
    f16 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    s, d = mc.operand(f16, "D", output_calc=True), mc.operand(f16, "A")
    _, _, moves = slot_moves(s, d)
    wrong = moves[0].source._replace(lane=moves[0].source.lane + 1)
    assert _holder(s, wrong) != moves[0].source_element


def test_classes_of_moves():
    f16 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    plan = mc.conversion(f16, "D", f16, "A")
    by_kind = {k: sum(m.kind == k for m in plan.moves) for k in ("none", "in-lane",
                                                                  "cross-lane")}
    assert by_kind == {"none": 0, "in-lane": 16, "cross-lane": 240}
    f32 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x4_f32")
    same = mc.conversion(f32, "D", f32, "B")  # f32 -> f32: no conversion
    assert same.conversion == ""
    assert all(m.kind in ("none", "in-lane", "cross-lane") for m in same.moves)


def test_forced_routes():
    f16 = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    by_registers = mc.conversion(f16, "D", f16, "A", route="registers")
    by_lds = mc.conversion(f16, "D", f16, "A", route="lds")
    assert by_registers.route == "registers" and by_lds.route == "lds"
    assert mc.conversion(f16, "D", f16, "A").total == min(by_registers.total, by_lds.total)
    assert any(s.instruction == "ds_bpermute_b32" for s in by_registers.steps)
    with pytest.raises(mc.CalcError, match="registers or lds"):
        mc.conversion(f16, "D", f16, "A", route="dpp")


def test_counts_are_the_sum_of_the_program():
    f16 = mc.find_instruction("cdna4", "v_mfma_f32_32x32x8_f16")
    for matrix in "AB":
        plan = mc.conversion(f16, "D", f16, matrix)
        assert plan.total == sum(s.times for s in plan.steps) == plan.plan.total
        issued = sum(len(op.issues) for op in plan.plan.ops)
        assert plan.total >= issued - sum(1 for op in plan.plan.ops if op.op == "sync") - 64


# ---- the command line


def test_cli_text(run):
    name = "v_mfma_f32_16x16x16_f16"
    rc, out, err = run(["-a", "cdna3", "--convert", f"{name}:D", f"{name}:A"])
    assert rc == 0 and err == ""
    assert "Class: cross-lane" in out
    assert "Cheaper: issue V_MFMA_F32_16X16X16_F16 with its A and B swapped" in out
    rc, out, _ = run(["-a", "cdna3", "--convert", f"{name}:D", f"{name}:B", "-o"])
    assert "Class: in-lane" in out and "A[" not in out
    assert "  B[0][0] #0 v0{0}.[15:0] <- D[0][0] #0 v0{0}  in-lane" in out


@pytest.mark.parametrize("argv, words", [
    (["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16", "x:A"], "INSTRUCTION:MATRIX"),
    (["-a", "cdna3", "--convert", "v_nope:D", "v_mfma_f32_16x16x16_f16:A"], "v_nope"),
    (["-a", "cdna3", "--convert", "v_mfma_f32_32x32x8_f16:D", "v_mfma_f32_16x16x16_f16:A"],
     "M dimensions"),
    (["--convert", "v_mfma_f32_16x16x16_f16:D", "v_mfma_f32_16x16x16_f16:A"], "-a"),
    (["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16:D", "v_mfma_f32_16x16x16_f16:A",
      "-g"], "drop -g"),
])
def test_cli_errors(run, argv, words):
    rc, out, err = run(argv)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_cli_json_validates(run):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "formats" / "output.schema.json").read_text())
    name = "v_mfma_f32_16x16x16_f16"
    rc, out, _ = run(["-a", "cdna3", "--convert", f"{name}:D", f"{name}:A", "--json"])
    doc = json.loads(out)
    jsonschema.validate(doc, schema)
    assert set(doc) == {"schema_version", "mode", "class", "fragments", "source_fragments",
                        "moves", "steps"}
    assert doc["mode"] == "convert" and doc["class"] == "cross-lane"
    assert doc["moves"][0] == {"fragment": 0, "lane": 0, "register": 0, "bits": [0, 15],
                               "element": "A[0][0]",
                               "from": {"fragment": 0, "lane": 0, "register": 0,
                                        "bits": [0, 31]}}
    bad = dict(doc, **{"class": "sideways"})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_library_and_json_agree():
    f16 = mc.find_instruction("rdna3", "v_wmma_f32_16x16x16_f16")
    plan = mc.conversion(f16, "D", f16, "B", wave=32)
    doc = document(plan)
    assert len(doc["moves"]) == len(plan.moves)
    assert [s["count"] for s in doc["steps"]] == [s.times for s in plan.steps]


def test_cli_emit_hip(run):
    name = "v_mfma_f32_16x16x16_f16"
    rc, out, _ = run(["-a", "cdna3", "--convert", f"{name}:D", f"{name}:A", "--emit", "hip"])
    assert rc == 0
    named = "mc_convert_mfma_f32_16x16x16_f16_d_to_mfma_f32_16x16x16_f16_a_w64_lds"
    assert f"MC_FN void {named}_words(const unsigned int s[4], unsigned int d[2], " \
           "void* lds)" in out
    assert f"__device__ inline void {named}(const mc_f32x4 src[1], mc_f16x4 dst[1], " \
           "unsigned char* lds)" in out
    assert f"#ifndef {named.upper()}_DEFINED" in out  # (one definition per file)
    assert "MC_LANE()" in out and "threadIdx" not in out.split("MC_CONVERT_PRELUDE")[1]


# ---- recorded oracle answers


def test_every_lane_move_mnemonic_assembles_for_its_target():
    """tests/data/lane_moves_llvm_mc.txt: llvm-mc-22's answer for every mnemonic the
    records name (scripts/record_lane_moves.py regenerates it)."""
    answers = {}
    for line in (DATA / "lane_moves_llvm_mc.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        target, asm, answer = (part.strip() for part in line.split(" | "))
        answers[(target, asm.split()[0])] = answer
    for target, names in mnemonics().items():
        for name in names:
            assert "encoding" in answers[(target, name)], (target, name)
    assert {entry.target for entry in ARCH_MOVES} == {t for t, _ in answers}


@pytest.mark.slow
def test_recorded_clang_samples_match_the_plans():
    """tests/data/convert_clang.txt (scripts/check_convert.py --clang clang-22): every
    target's samples compiled, and the assembly had the lane moves the plans still
    name."""
    text = (DATA / "convert_clang.txt").read_text()
    assert "clang: 8 targets, 0 failures" in text
    checked = 0
    for line in text.splitlines():
        if ": ok, contains " not in line:
            continue
        head, moves = line.split(": ok, contains ")
        target, src, dst = head.split(" (")[0].split(" -> ")[0].split() + [
            head.split(" -> ")[1].split(" (")[0]]
        dst, _, mods_text = dst.partition(" ")  # the destination's modifiers, k=v,...
        mods = {k: int(v) for k, v in (m.split("=") for m in mods_text.split(",") if m)}
        arch = {"gfx908": "cdna1", "gfx90a": "cdna2", "gfx942": "cdna3", "gfx950": "cdna4",
                "gfx1100": "rdna3", "gfx1200": "rdna4", "gfx1250": "gfx1250",
                "gfx1251": "gfx1251"}[target]
        src_name, dst_name = src.split(":")[0], dst.split(":")[0]
        forced = {"route": "registers"} if ", forced)" in head else {}
        plan = mc.conversion(mc.find_instruction(arch, src_name), "D",
                             mc.find_instruction(arch, dst_name), dst.split(":")[1],
                             advice=False, dst_mods=mods, **forced)
        wanted = ", ".join(sorted(planned_moves(plan) | planned_packs(plan))) or "no lane move"
        assert wanted == moves.strip(), line
        checked += 1
    assert checked >= 19


@pytest.mark.slow
def test_emulated_sample_runs():
    """A sample of the gcc lane emulation (scripts/check_convert.py runs every class)."""
    cc = shutil.which(os.environ.get("CC") or "gcc") or shutil.which("cc")
    if cc is None:
        missing("no C compiler: cannot run the conversion emulation")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_convert.py"),
                           "--arch", "CDNA3", "--arch", "CDNA4", "--sample", "8", "-q"],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "8 of " in done.stdout and ", 0 failed" in done.stdout
    # the register route of cross-lane plans (ds_bpermute, v_permlane64 in RDNA wave64)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_convert.py"),
                           "--arch", "RDNA4", "--route", "registers", "--sample", "4", "-q"],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "4 of " in done.stdout and ", 0 failed" in done.stdout


@pytest.mark.external
def test_clang_compiles_a_sample():
    clang = shutil.which("clang-22")
    if clang is None:
        missing("clang-22 is not installed (a live check: tests/data/convert_clang.txt "
                    "holds its recorded answers)")
    plan = conv("cdna4", "v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x32_f16", "A",
                transposed=True)
    text = "\n".join([hip.PRELUDE, CONVERT_PRELUDE, kernel(plan, 0)]) + "\n"
    assert emit_conversion(plan).startswith(hip.PRELUDE)
    done = subprocess.run([clang, "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc",
                           "--offload-arch=gfx950", "-O2", "-S", "-o", "-", "-"],
                          input=text, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "v_permlane32_swap" in done.stdout and "v_permlane16_swap" in done.stdout
    assert "ds_" not in done.stdout.split("s_endpgm")[0].split("global_load")[-1]
