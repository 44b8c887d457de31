"""A reader that stops early (| head -1) and Ctrl-C end the calculator quietly.

Every test runs the script as a real process. To be sure that the process is still
writing when the reader goes away or the interrupt arrives, its stdout is a pipe shrunk
to one page (Linux), far smaller than the output: after the first read the process is
blocked in write() until the pipe is drained.
"""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

fcntl = pytest.importorskip("fcntl")  # POSIX only

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "matrix_calculator.py")
BIG = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x1_2b_f32", "-R", "-D"]  # ~45 kB of output
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="needs Linux pipes and signals")


def start(args):
    """The process writing into a one-page pipe; returns (process, read end of stdout)."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, F_SETPIPE_SZ, 4096)
    proc = subprocess.Popen([sys.executable, SCRIPT] + args, stdout=write_end,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(write_end)
    return proc, os.fdopen(read_end, "rb")


def wait_until_blocked(proc, timeout=10):
    """Wait until the process sleeps blocked writing into the full pipe. Where the kernel
    names the wait (/proc/PID/wchan, e.g. "pipe_write"), a sleep for another reason (a
    busy machine's disk or scheduler) does not count."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(f"/proc/{proc.pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
        try:
            with open(f"/proc/{proc.pid}/wchan") as wchan:
                where = wchan.read().strip()
        except OSError:
            where = "0"
        if state == "S" and (where == "0" or "pipe" in where):
            return
        time.sleep(0.01)


def test_reader_that_closes_early():
    expected = subprocess.run([sys.executable, SCRIPT] + BIG, capture_output=True).stdout
    assert len(expected) > 8 * 4096
    proc, stdout = start(BIG)
    first = stdout.readline()
    stdout.close()
    _, err = proc.communicate(timeout=30)
    assert first == expected.splitlines(keepends=True)[0]
    assert proc.returncode == 0
    assert err == b""


@pytest.mark.skipif(not (shutil.which("head") and shutil.which("bash")), reason="no bash/head")
def test_pipe_into_head():
    shell = f'"{sys.executable}" "{SCRIPT}" {" ".join(BIG)} | head -n 1; ' \
            'exit ${PIPESTATUS[0]}'
    proc = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0
    assert proc.stdout == "Architecture: CDNA3\n"
    assert proc.stderr == ""


def test_ctrl_c_ends_with_130_and_no_traceback():
    proc, stdout = start(BIG)
    stdout.read(1)  # the process has begun writing its output
    wait_until_blocked(proc)
    proc.send_signal(signal.SIGINT)
    rest = stdout.read()  # drain: nothing may block the exit
    stdout.close()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert len(rest) < 45000  # stopped early


def test_ctrl_c_output_is_partial_but_well_formed():
    """What was written before the interrupt is a prefix of the real output."""
    expected = subprocess.run([sys.executable, SCRIPT] + BIG, capture_output=True).stdout
    proc, stdout = start(BIG)
    head = stdout.read(1)
    wait_until_blocked(proc)
    proc.send_signal(signal.SIGINT)
    head += stdout.read()
    stdout.close()
    proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert expected.startswith(head)


def test_ctrl_c_while_the_calculator_loads_ends_with_130_and_no_traceback():
    """An interrupt that arrives before main() runs (while the command line is imported), for
    the script and for the installed command alike."""
    inject = ("import builtins, runpy, sys\n"
              "real = builtins.__import__\n"
              "def interrupted(name, *args, **kwargs):\n"
              "    if name.endswith('cli.command'):\n"
              "        raise KeyboardInterrupt\n"
              "    return real(name, *args, **kwargs)\n"
              "builtins.__import__ = interrupted\n"
              f"sys.path.insert(0, {str(ROOT)!r})\n"
              "{run}\n")
    for run in (f"runpy.run_path({SCRIPT!r}, run_name='__main__')",
                f"runpy.run_path({str(ROOT / 'matrix_frontends' / 'matrix-calculator')!r}, "
                "run_name='__main__')"):
        proc = subprocess.run([sys.executable, "-c", inject.format(run=run)] + BIG,
                              capture_output=True, timeout=30)
        assert proc.returncode == 130, (run, proc.stderr)
        assert proc.stdout == b"" and proc.stderr == b"", run
