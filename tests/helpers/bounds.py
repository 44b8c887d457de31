"""The command in a child process bounded to 1 GB of address space, with the CPU seconds
it used (the bounded-work tests of the command line, --batch and the fuzz)."""
import os
import resource
import subprocess
import sys

from tests.helpers import REPO

CPU_SECONDS = 10
MEMORY = 1 << 30


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS + 5, CPU_SECONDS + 5))


def bounded_run(argv, stdin=None):
    """(status, stdout, stderr, CPU seconds) of the command in a child process limited to
    1 GB of address space; the CPU seconds are the child's own (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, str(REPO / "matrix_calculator.py"), *argv],
                          input=stdin, capture_output=True, preexec_fn=_limited,
                          timeout=300, env={**os.environ, "PYTHONUTF8": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"), cpu
