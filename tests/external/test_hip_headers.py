"""Emitted HIP compiles beside any HIP headers. The prelude
includes no header (clang's builtins give the lane and the barrier; the HIP attributes
are declared only where no header did), so outputs compile with -nogpuinc, with the
headers clang finds on its own (Debian's libamdhip64-dev: ROCm 5.2's, older than
clang-22) and after the user's own #include <hip/hip_runtime.h>. The clang checks run
where clang-22 is installed; the header variants where HIP's headers are
(tests/install_hip.sh installs both)."""
import os
import shlex
import shutil
import subprocess

import pytest

from formats.hip import PRELUDE
from tests.helpers import call, missing

CLANG = shutil.which("clang-22")
HEADERS = os.path.exists("/usr/include/hip/hip_runtime.h")

OUTPUTS = [  # every kind of output: examples, fragments, LDS loads, conversions
    "-a cdna3 -i v_mfma_f32_32x32x1_2b_f32 --emit hip --cbsz 1 --abid 1",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 --emit hip --lds",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --lds-tile 16x64 --load ds_read_b64",
    "-a cdna3 --convert v_mfma_f32_16x16x16_f16:D v_mfma_f32_16x16x16_f16:A --emit hip",
]


def test_the_prelude_includes_no_header():
    """The defect: `__has_include(<hip/hip_runtime.h>)` found ROCm 5.2's headers, which
    clang-22 rejects; the prelude now reads nothing from any header."""
    assert "#include" not in PRELUDE and "__has_include" not in PRELUDE
    for attribute in ("__device__", "__global__", "__shared__"):
        assert f"#ifndef {attribute}" in PRELUDE
    assert "#define MC_THREAD_X __builtin_amdgcn_workitem_id_x()" in PRELUDE


def _compile(text, tmp_path, flags):
    path = tmp_path / "out.hip"
    path.write_text(text)
    return subprocess.run([CLANG, "-x", "hip", "--cuda-device-only", "-nogpulib",
                           "--offload-arch=gfx942", *flags, "-O1", "-S", "-o", "-", str(path)],
                          capture_output=True, text=True, timeout=600)


def _outputs():
    parts = []
    for line in OUTPUTS:
        status, out, err = call(shlex.split(line))
        assert (status, err) == (0, ""), (line, err)
        parts.append(out)
    return "\n".join(parts)


WAYS = {  # how the file is compiled: flags, and what precedes the outputs
    "no headers (-nogpuinc)": (["-nogpuinc"], ""),
    "the headers clang finds": (["-D__AMDGCN_WAVEFRONT_SIZE=64"], ""),
    "after hip_runtime.h": (["-D__AMDGCN_WAVEFRONT_SIZE=64"], "#include <hip/hip_runtime.h>\n"),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_outputs_compile_with_and_without_headers(way, tmp_path):
    if CLANG is None:
        missing("clang-22 is not installed")
    flags, before = WAYS[way]
    if way != "no headers (-nogpuinc)" and not HEADERS:
        missing("HIP's headers are not installed (tests/install_hip.sh)")
    done = _compile(before + _outputs(), tmp_path, flags)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "v_mfma_f32_32x32x1_2b_f32" in done.stdout and "cbsz:1 abid:1" in done.stdout
    assert "v_mfma_f32_16x16x16_f16" in done.stdout and "ds_write" in done.stdout
