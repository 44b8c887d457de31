"""`--emit probe`, the self-checking HIP program, checked without a GPU.

The probe runs in scripts/check_probe.py's lane emulation (gcc) against a model of each
instruction read from the layout engine: every variant of every gfx942 instruction and
of one instruction of every family passes, and a planted layout error fails naming an
element it moves. Where clang-22 is installed its device code compiles with each kernel
issuing the instruction with its modifiers, and where HIP's headers and runtime are
installed too (tests/install_hip.sh) the whole program builds, starts and says that no
GPU is present."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import call, missing

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import check_probe

from matrix_library import api as mc

CLANG = shutil.which("clang-22")
HEADERS = os.path.exists("/usr/include/hip/hip_runtime.h")


def need_gcc():
    if shutil.which("gcc") is None:
        missing("gcc is not installed (the lane emulation compiles with it)")


def test_emit_probe_names_its_build_and_variants():
    status, out, err = call(shlex.split("-a gfx942 -i v_mfma_f32_32x32x1_2b_f32 --emit probe"))
    assert (status, err) == (0, "")
    head = out.splitlines()[:5]
    assert "--emit probe: " in head[0] and "-i v_mfma_f32_32x32x1_2b_f32" in head[0]
    assert "10 variant(s) on gfx942, wave64" in head[1]
    assert "hipcc -O2 --offload-arch=gfx942 probe.hip -o probe" in head[3]
    labels = re.findall(r'\{"(v_mfma[^"]*)"', out)
    assert labels[0] == "v_mfma_f32_32x32x1_2b_f32 wave64"
    assert {"v_mfma_f32_32x32x1_2b_f32 wave64 cbsz=1 abid=1",
            "v_mfma_f32_32x32x1_2b_f32 wave64 blgp=3"} <= set(labels)
    assert len(labels) == 10  # none, CBSZ 1 with ABID 0 and 1, BLGP 1..7
    assert 'strncmp(prop.gcnArchName, MC_TARGET, n)' in out  # it checks where it runs


def test_emit_probe_of_an_architecture_and_bad_input():
    status, out, err = call(["-a", "gfx942", "--emit", "probe"])
    assert (status, err) == (0, "") and "290 variant(s) on gfx942, wave64" in out
    status, out, err = call(["-a", "rdna3", "--emit", "probe", "-w", "64"])
    assert status == 0 and "on gfx1100, wave64" in out and "-mwavefrontsize64" in out
    for argv, message in ((["-a", "gfx942", "--emit", "probe", "-w", "32"], "wave size 32"),
                          (["-a", "gfx942", "--emit", "probes"], "hip or probe"),
                          (["-a", "gfx942", "--emit", "probe", "--neg-lo", "1"], "does not use"),
                          (["-a", "sm80", "--emit", "probe"], "for AMD GPUs"),
                          (["-a", "gfx9-4-generic", "--emit", "probe"], "has none"),
                          (["-a", "gfx9-4-generic", "-i", "v_mfma_f32_32x32x8_f16",
                            "--emit", "probe"], "GFX9-4-GENERIC has none")):
        status, out, err = call(argv)
        assert status == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.slow
def test_gfx942_passes_every_variant_in_the_emulation():
    need_gcc()
    arch = mc.find_architecture("gfx942")
    lines = check_probe.emulate(list(arch.instructions), 64)
    assert lines[-1] == "290 of 290 variants pass"
    assert sum(line.startswith("PASS ") for line in lines) == 290


@pytest.mark.slow
def test_one_instruction_of_every_family_passes():
    """CDNA1-4, RDNA3/4 in wave32 and wave64, gfx1250/gfx1251; dense, multi-block,
    sparse, scaled and f8f6f4 (check_probe.SAMPLES)."""
    need_gcc()
    families = set()
    for arch_name, name in check_probe.SAMPLES:
        inst = mc.find_instruction(arch_name, name)
        for wave in inst.wave_sizes:
            lines = check_probe.emulate([inst], wave)
            count = len(check_probe.probe_code.variants(inst, wave))
            assert lines[-1] == f"{count} of {count} variants pass", (name, wave, lines[-3:])
            families.add((inst.arch, wave, inst.kind, inst.sparse, inst.scaled))
    # The probe runs on AMD GPUs: every AMD architecture (an NVIDIA one is refused above).
    assert {a for a, *_ in families} == {a.name for a in mc.architectures()
                                         if a.vendor == "amd" and a.target}
    assert {("RDNA3", 64), ("RDNA4", 32), ("RDNA4", 64)} <= {(a, w) for a, w, *_ in families}
    assert {"mfma", "smfmac", "wmma", "swmmac"} == {k for _, _, k, _, _ in families}
    assert any(scaled for *_, scaled in families)


def _failure(lines, label):
    failed = [line for line in lines if line.startswith("FAIL ")]
    assert len(failed) == 1 and failed[0].startswith(f"FAIL {label}:"), lines[-3:]
    b, i, j = map(int, re.search(r"first D\[(\d+)\]\[(\d+)\]\[(\d+)\]", failed[0]).groups())
    return b, i, j


@pytest.mark.slow
def test_two_lanes_swapped_fail_naming_an_element_they_hold():
    """A's load with lanes 0 and 1 exchanged: the first differing D element is in a row
    (of a block) that lanes 0 and 1 hold A values of."""
    need_gcc()
    for arch_name, name in (("cdna3", "v_mfma_f32_16x16x16_f16"),
                            ("gfx1250", "v_wmma_f32_16x16x32_f16"),
                            ("rdna3", "v_wmma_i32_16x16x16_iu4")):
        inst = mc.find_instruction(arch_name, name)
        wave = inst.wave_sizes[0]
        lines, _, planted = check_probe._emulated([inst], wave, "swap")
        b, i, j = _failure(lines, planted[0])
        layout = mc.operand(inst, "A", wave=wave).layout
        held = {(blk, row) for lane in (0, 1) for (row, _, blk), _ in layout.places_in_lane(lane)}
        assert (b, i) in held or (0, i) in held, (name, b, i, j)


@pytest.mark.parametrize("arch_name, name", [("rdna3", "v_wmma_f16_16x16x16_f16"),
                                             ("rdna4", "v_swmmac_f32_16x16x32_f16"),
                                             ("gfx1250", "v_swmmac_f32_16x16x64_f16")])
def test_a_wrong_half_fails(arch_name, name):
    """OPSEL's D half (RDNA3 16-bit D) or the index set of K (RDNA4 OPSEL, gfx1250
    index_key) read from the other 16-bit half: that variant fails, the others pass."""
    need_gcc()
    inst = mc.find_instruction(arch_name, name)
    lines, _, planted = check_probe._emulated([inst], inst.wave_sizes[0], "half")
    _failure(lines, planted[0])
    assert re.search(r"(opsel|index_key)=\d", planted[0])


@pytest.mark.external
def test_clang_compiles_every_gfx942_probe_kernel():
    if CLANG is None:
        missing("clang-22 is not installed")
    arch = mc.find_architecture("gfx942")
    assert check_probe.clang_check(list(arch.instructions), 64, CLANG, False) == 0


@pytest.mark.external
def test_clang_compiles_a_probe_of_every_family():
    if CLANG is None:
        missing("clang-22 is not installed")
    for arch_name, name in check_probe.SAMPLES:
        inst = mc.find_instruction(arch_name, name)
        for wave in inst.wave_sizes:
            assert check_probe.clang_check([inst], wave, CLANG, True) == 0, (name, wave)


@pytest.mark.external
def test_the_probe_builds_and_reports_no_gpu(tmp_path):
    """`-a gfx942 --emit probe`, host and device, with Debian's clang-22, lld-22 and
    libamdhip64-dev (HIP's headers and runtime): it links, runs, and (no GPU here) says
    so with exit status 2."""
    if CLANG is None or not HEADERS or shutil.which("ld.lld-22") is None:
        missing("clang-22, lld-22 and libamdhip64-dev are not all installed "
                    "(tests/install_hip.sh)")
    status, out, _ = call(shlex.split("-a gfx942 --emit probe"))
    assert status == 0
    source, exe = tmp_path / "probe.hip", tmp_path / "probe"
    source.write_text(out)
    built = subprocess.run([CLANG, "-x", "hip", "--offload-arch=gfx942", "-nogpulib", "-O2",
                            "-D__AMDGCN_WAVEFRONT_SIZE=64", str(source), "-lamdhip64", "-o",
                            str(exe)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout.startswith("no GPU: "), done.stdout + done.stderr
