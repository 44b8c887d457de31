#!/usr/bin/env python3
"""--batch throughput: point lines a second, as text and as JSON Lines, and whether memory
stays flat as the batch grows.

The lines are -g queries on every instruction of every architecture (A, B, C and D in
turn, --run coordinates of a matrix in a row, spread over it: 256 by default, a
scan of a matrix's elements; --run 1 makes every line a new question), written once to a file in a temporary
directory and answered by one process per run. Each run's CPU time (user + system, from
the child's own resource usage) gives its lines a second; the goal is at least 20,000 for
both forms. Memory: the largest resident size of a batch of --lines lines and of one four
times as long; flat means the longer batch needs no more than a few MB more.

By default the installed command of a fresh virtual environment is measured, as bench.py
does (`pip install .`); --script measures `PYTHON matrix_calculator.py` from the clone.

    python3 bench/batch.py                  # 50,000 lines, 3 runs of each form
    python3 bench/batch.py --script --lines 20000 --runs 5
"""
import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import child_env, install  # noqa: E402  (bench/bench.py, beside this file)
from instructions import ARCHITECTURES  # noqa: E402

GOAL = 20_000  # point lines a second
MATRIX_FLAGS = {"A": "-A", "B": "-B", "C": "-C", "D": "-D"}
RUN = 256  # consecutive lines on one instruction's matrix (--run), as a scan of its elements


def point_lines(count, run=RUN):
    """`count` -g lines over every instruction and matrix of every architecture, RUN
    coordinates of one matrix after another."""
    queries = []
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            for matrix, flag in MATRIX_FLAGS.items():
                if matrix not in inst.matrices:
                    continue
                queries.append((arch.name.lower(), inst, flag))
    lines = []
    for at in range(count):
        arch, inst, flag = queries[at // run % len(queries)]
        step = at % run + at // (run * len(queries))
        i, j, k = step * 7 % inst.m, step * 5 % inst.n, step * 3 % inst.k
        coords = {"-A": f"-I {i} -K {k}", "-B": f"-J {j} -K {k}"}.get(flag, f"-I {i} -J {j}")
        lines.append(f"-a {arch} -i {inst.mnemonic} -g {flag} {coords}")
    return lines


def run(command, path, as_json, env):
    """(CPU seconds, largest resident KB, exit status) of one batch run."""
    argv = [*command, "--batch", str(path), *(["--json"] if as_json else [])]
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        said = errors.read(2000)
    if said:
        sys.stderr.write(said.decode(errors="replace"))
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, child.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--run", type=int, default=RUN,
                        help="consecutive lines on one instruction's matrix")
    parser.add_argument("--script", action="store_true",
                        help="measure PYTHON matrix_calculator.py from the clone")
    parser.add_argument("--python", default=sys.executable)
    options = parser.parse_args()
    env = child_env()
    with contextlib.ExitStack() as stack:
        if options.script:
            command = [options.python, str(ROOT / "matrix_calculator.py")]
        else:
            command = [install(options.python, stack)[1]]
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        short, long = folder / "short.txt", folder / "long.txt"
        lines = point_lines(options.lines * 4, options.run)
        short.write_text("\n".join(lines[:options.lines]) + "\n")
        long.write_text("\n".join(lines) + "\n")
        print(f"{options.lines:,} point lines, {options.run} a matrix ({' '.join(command)})")
        verdicts = []
        for as_json in (False, True):
            times, sizes = [], []
            for _ in range(options.runs):
                seconds, size, status = run(command, short, as_json, env)
                if status != 0:
                    sys.exit(f"the batch failed (status {status})")
                times.append(seconds)
                sizes.append(size)
            rate = options.lines / statistics.median(times)
            longer = run(command, long, as_json, env)[1]
            grown = (longer - max(sizes)) / 1024
            form = "JSON Lines" if as_json else "text"
            ok = rate >= GOAL
            verdicts.append(ok)
            print(f"  {form:10s} {rate:10,.0f} lines/s (goal {GOAL:,}: "
                  f"{'ok' if ok else 'over'}); memory {max(sizes) / 1024:.1f} MB, "
                  f"{grown:+.1f} MB at 4 x the lines")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
