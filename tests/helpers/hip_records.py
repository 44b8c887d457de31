"""clang-22 device assembly of emitted HIP, for the recorded-instruction tests of the
preshuffle and epilogue plans (tests/plans/test_preshuffle.py, tests/plans/test_epilogue.py): one
command, and the record's check and regeneration."""
import json
import subprocess
import tempfile
from pathlib import Path

CLANG = ("clang-22 -x hip --cuda-device-only -nogpulib -nogpuinc -nostdinc "
         "--offload-arch=GFX -O2 -S")  # -nostdinc keeps an installed ROCm's headers out


def device_asm(code, gfx):
    """The assembly clang-22 makes of the HIP text `code` for `gfx`."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "code.hip"
        source.write_text(code)
        command = CLANG.replace("GFX", gfx).split() + ["-o", "-", str(source)]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def regenerate(path, command, cases):
    """Write the record: the command that made it and its cases."""
    Path(path).write_text(json.dumps({"command": command, "cases": cases}, indent=1) + "\n")


def recorded(path, command):
    """The record's cases, after checking it was made by `command`."""
    data = json.loads(Path(path).read_text())
    assert data["command"] == command
    return data["cases"]
