"""The loads and stores clang-22 makes of the emitted fragment code (tests/data/
hip_loads.txt, written by scripts/hip_loads.py): runs contiguous in the tile and the
VGPRs move as whole vectors, and only scattered data moves value by value. The
recorded data is checked always; the live check runs where clang-22 is installed."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "hip_loads.txt"
SUB_DWORD = ("ubyte", "sbyte", "ushort", "sshort", "u8", "i8", "u16", "i16", "b8", "b16")


def recorded():
    out = {}
    for line in DATA.read_text().splitlines():
        if line.startswith("#"):
            continue
        args, target, counts = (part.strip() for part in line.split("|"))
        out[args] = (target, dict(c.split("=") for c in counts.split()))
    return out


def loads(counts):
    return {k: int(v) for k, v in counts.items() if "_load" in k or k.startswith("ds_read")}


def test_recorded_counts_are_vector_loads():
    data = recorded()
    assert len(data) >= 10
    f16_a = data["-a cdna3 -i v_mfma_f32_32x32x8_f16 -w 64 -A --emit hip --order row --ld 64"]
    assert loads(f16_a[1]) == {"global_load_dwordx2": 1}  # one per lane
    for args in ("-a cdna4 -i v_mfma_f32_16x16x128_f8f6f4 -w 64 -A --emit hip --order row "
                 "--ld 128 --cbsz 4 --blgp 4",
                 "-a cdna4 -i v_mfma_f32_16x16x128_f8f6f4 -w 64 -B --emit hip --order col "
                 "--ld 128 --cbsz 4 --blgp 4"):
        got = loads(data[args][1])
        assert sum(got.values()) <= 2 and all("dwordx" in k for k in got), (args, got)
    for args, (_, counts) in data.items():
        scattered = "-B --emit hip --order row" in args and "cdna3" in args
        small = [k for k in loads(counts) if k.endswith(SUB_DWORD)]
        assert bool(small) == scattered, (args, counts)


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_clang_makes_the_recorded_loads():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "hip_loads.py"), "--check"],
                          check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
