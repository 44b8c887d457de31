"""clang-22 compiles the emitted wave-level example of every instruction to its
mnemonic with the requested modifiers (scripts/check_hip.py); runs only where clang-22
is installed (Debian's clang-22 package)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_clang_compiles_every_example():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "check_hip.py")],
                          check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    ok, total = done.stdout.split()[-4].split("/")
    assert ok == total and int(total) >= 520
