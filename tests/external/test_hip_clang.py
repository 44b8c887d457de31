"""clang-22 compiles, per target, one file made of every `--emit hip` output of the
architecture concatenated (every example with a sample of modifiers, every operand's
functions, storage variants), and each example to its mnemonic with the requested
modifiers (scripts/check_hip.py); runs only where clang-22 is installed (Debian's
clang-22 package)."""
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers import call, missing

REPO = Path(__file__).resolve().parents[2]

# Instructions without a wave-level example (formats/hip.py, _check_builtin): clang 22's
# 8-bit SWMMAC builtins take a 32-bit index for the 64-bit one, and it has no f64 WMMA
# builtin. Every one of them is refused on both gfx1250 and gfx1251 (f64: gfx1251 only).
REFUSED = {f"v_swmmac_{d}_16x16x128_{a}_{b}" for d in ("f32", "f16")
           for a in ("fp8", "bf8") for b in ("fp8", "bf8")} | {
    "v_swmmac_i32_16x16x128_iu8", "v_wmma_f64_16x16x4_f64"}


def test_clang_compiles_every_example():
    if shutil.which("clang-22") is None:
        missing("clang-22 is not installed (tests/install_hip.sh)")
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "check_hip.py")],
                          check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    ok, total = done.stdout.split()[-4].split("/")
    assert ok == total and int(total) >= 1100
    refused = [line.split()[3].rstrip(":") for line in done.stdout.splitlines()
               if line.startswith("refused: ")]
    assert set(refused) == REFUSED and len(refused) == 2 * len(REFUSED) - 1
    for target in ("gfx1250", "gfx1251"):
        assert f"{target} wave32: " in done.stdout


SHARED_FILE = [  # outputs of every kind of --emit hip, some twice, for one file
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 --emit hip",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --lds-tile 16x64 --load ds_read_b64",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --lds-tile 16x64 --load ds_read_b64 "
    "--lds-pad 4",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --lds-tile 16x64 --load ds_read_b64",
    "-a cdna3 -i v_mfma_f32_32x32x8_f16 -A --emit hip --lds-tile 32x64",
    "-a cdna3 --convert v_mfma_f32_16x16x16_f16:D v_mfma_f32_16x16x16_f16:A --emit hip",
    "-a cdna3 --convert v_mfma_f32_16x16x16_f16:D v_mfma_f32_16x16x16_f16:A --emit hip",
    "-a cdna3 --convert v_mfma_f32_32x32x8_f16:D v_mfma_f32_32x32x8_f16:B --emit hip",
    "-a cdna3 --convert v_mfma_f32_16x16x16_bf16:D v_mfma_f32_16x16x16_bf16:B --emit hip",
]


def test_every_kind_of_output_shares_one_file(tmp_path):
    if shutil.which("clang-22") is None:
        missing("clang-22 is not installed (tests/install_hip.sh)")
    """Fragment code, examples, LDS loads and conversions, some emitted twice,
    concatenated into one translation unit, compile (names carry what differs in code;
    definitions are guarded)."""
    parts = []
    for line in SHARED_FILE:
        status, out, err = call(shlex.split(line))
        assert (status, err) == (0, ""), (line, err)
        parts.append(out)
    path = tmp_path / "all.hip"
    path.write_text("\n".join(parts))
    done = subprocess.run(["clang-22", "-x", "hip", "--cuda-device-only", "-nogpulib",
                           "-nogpuinc", "--offload-arch=gfx942", "-O1", "-S", "-o", "-",
                           str(path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "v_mfma_f32_16x16x16_f16" in done.stdout
