#!/usr/bin/env python3
"""Speed of the calculator: whole processes against the interpreter's own start-up, and
an in-process sweep over every table the calculator can draw.

Part 1 runs representative queries of every kind for every registered architecture as
separate processes, interleaved, and reports the median wall and CPU time of each and
its ratio to `python -c pass` (the floor; CPU time unless --metric wall). Targets:
  point queries (-L, -d, -g, -m, with -o)  at most 2 x floor
  layout queries (-R, -M, every format)     at most the floor + the import of the table
                                            library + 10 ms, for the largest matrix of
                                            the arch
The calculator draws every text table with tabulate (imported only by table queries),
so a layout query's verdict is against floor + tabulate's import + 10 ms (tabulate's
import measured as `python -c "import tabulate"` minus the floor). The command runs with
Python's cycle collector off (matrix_frontends.cli.command.command) and ends without the
interpreter's teardown (command.end), which makes tabulate's own import cheaper too; so
that this does not hide the calculator's own cost, each layout query also shows its own
share, for information: its time minus the floor minus tabulate's import as the command
pays for it (`python -c "import gc, os; gc.disable(); import tabulate; os._exit(0)"`; a
query that does not import tabulate, as -X importtime reports once per query: CSV and
the long forms, minus the floor alone).
Part 2 renders every instruction x matrix x format x legal modifier value (and wave
size) in this process and prints renders per second.

By default part 1 measures the installed command: `pip install .` into a virtual
environment in a temporary directory (bytecode compiled, as pip does), then its
`matrix-calculator` against that environment's interpreter (--script measures
`PYTHON matrix_calculator.py` from the clone instead; --command any command).

PYTHONDONTWRITEBYTECODE is dropped for the measured processes: without cached bytecode
every run would compile the calculator again, which no installed copy does.

    python3 bench/bench.py                 # both parts
    python3 bench/bench.py --runs 15 --no-sweep
    python3 bench/bench.py --arch cdna3 --sweep-only
    python3 bench/bench.py --no-sweep --plans                 # and the plan cases
    python3 bench/bench.py --sweep-only --no-processes --plans conversions search

Part 3 (--plans, bench/plans.py): conversion plans of every pair (100 ms each), LDS plans
at 16 x K (100 ms) and the slope of plan time against slots, every default-tile LDS
search (1 s), every instruction's default preshuffle of each operand and every store
plan (each store type, row- and col-major: 100 ms each), the largest pictures
(60 ms of their own work), and the explorer's answers against a warm `--serve` of the
command measured (50 ms).
"""
import argparse
import contextlib
import io
import itertools
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import matrix_calculator  # noqa: E402
from instructions import ARCHITECTURES  # noqa: E402
from matrix_library import api  # noqa: E402

FORMATS = ([], ["--csv"], ["--markdown"], ["--asciidoc"], ["--format", "rst"],
           ["--format", "long-csv"])
COORDINATES = {"i", "j", "k", "block", "register", "lane", "wavefront"}
MODIFIERS = [(o.dest, o.spellings[0]) for o in matrix_calculator.OPTIONS
             if o.kind == "number" and o.dest not in COORDINATES and o.dest != "ld"]
MATRIX_FLAGS = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k"}


# ---------------------------------------------------------------------------------------
# Choosing the queries

def matrices(inst):
    """The matrices of -A/-B/-C/-D/-k the instruction holds in registers (SM90's wgmma: A
    and D only)."""
    return [m for m in api.matrices(inst) if m in MATRIX_FLAGS]


def element_count(inst, matrix):
    rows, cols = {"A": (inst.m, inst.k), "B": (inst.k, inst.n), "K": (inst.m, inst.k)}.get(
        matrix, (inst.m, inst.n))
    return rows * cols * (1 if matrix == "K" else inst.blocks)


def largest(arch):
    """(instruction, matrix) with the most elements; D first among equals."""
    order = "DCABK"
    return max(((inst, m) for inst in arch.instructions for m in matrices(inst)),
               key=lambda im: (element_count(*im), -order.index(im[1])))


def queries(arch):
    """(kind, label, args) of every kind of query for one architecture."""
    inst, matrix = largest(arch)
    base = ["-a", arch.name.lower(), "-i", inst.mnemonic]
    flag = MATRIX_FLAGS[matrix]
    held = matrices(inst)
    other = "-B" if "B" in held else "-D"  # (-m of a second input, where there is one)
    point = [("point", "-L", ["-a", arch.name.lower(), "-L"]),
             ("point", "-d", base + ["-d"]),
             ("point", "-g -A", base + ["-g", "-A", "-I", "1"]),
             ("point", f"-m {other}", base + ["-m", other, "-l", "1"])]
    if {"A", "B", "D"} <= set(held):  # (-o reads A, B and C from registers)
        point += [("point", "-g -D -o", base + ["-g", "-D", "-o"]),
                  ("point", "-m -D -o", base + ["-m", "-D", "-o", "-l", "1"])]
    layout = [("layout", f"{mode} {flag} {' '.join(fmt) or '(grid)'}", base + [mode, flag] + fmt)
              for mode in ("-R", "-M") for fmt in FORMATS]
    return inst, matrix, point + layout


# ---------------------------------------------------------------------------------------
# Part 1: whole processes

def child_env():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["COLUMNS"] = "80"
    return env


def run_once(command, env):
    """(wall seconds, CPU seconds, exit status) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
    if hasattr(os, "wait4"):
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        return wall, usage.ru_utime + usage.ru_stime, proc.returncode
    proc.wait()
    wall = time.perf_counter() - start
    return wall, wall, proc.returncode


def measure(commands, runs, env):
    """Median (wall, CPU) per command name; the runs of all commands are interleaved so
    that a burst of load elsewhere spreads over all of them."""
    times = {name: [] for name in commands}
    for command in commands.values():  # warm-up: bytecode, disk cache
        if run_once(command, env)[2] != 0:
            raise SystemExit(f"bench: {' '.join(command)} failed")
    order = list(commands)
    for _ in range(runs):
        random.shuffle(order)
        for name in order:
            times[name].append(run_once(commands[name], env)[:2])
    return {name: tuple(statistics.median(t[i] for t in runs_) * 1000 for i in (0, 1))
            for name, runs_ in times.items()}


def processes(archs, runs, python, prefix, metric):
    env = child_env()
    commands = {"floor": [python, "-c", "pass"]}
    tabulate = run_once([python, "-c", "import tabulate"], env)[2] == 0
    if tabulate:
        commands["tabulate"] = [python, "-c", "import tabulate"]
        # (as the command runs: the collector off, and the process ended by os._exit
        # without the interpreter's teardown, matrix_frontends.cli.command.end)
        commands["tabulate, collector off"] = [
            python, "-c", "import gc, os; gc.disable(); import tabulate; os._exit(0)"]
    plan = []
    for arch in archs:
        inst, matrix, rows = queries(arch)
        plan.append((arch, inst, matrix, rows))
        for _kind, label, args in rows:
            commands[(arch.name, label)] = prefix + args
    print(f"Part 1: whole processes, median of {runs} runs each "
          f"({len(commands)} commands, {python})")
    result = measure(commands, runs, env)
    col = 1 if metric == "cpu" else 0
    floor = result["floor"][col]
    library = result["tabulate"][col] - floor if tabulate else 0.0
    quiet = result["tabulate, collector off"][col] - floor if tabulate else 0.0
    budgets = {"point": 2 * floor, "layout": floor + library + 10}
    for name, index in (("wall", 0), ("CPU", 1)):
        extra = (f", import tabulate +{result['tabulate'][index] - result['floor'][index]:5.1f}"
                 " ms (the table library), as the command imports it (collector off, no teardown) "
                 f"+{result['tabulate, collector off'][index] - result['floor'][index]:5.1f} ms"
                 if tabulate else "")
        print(f"{name:4}: floor (python -c pass) {result['floor'][index]:5.1f} ms{extra}")
    print(f"budgets ({metric} time): point {budgets['point']:.1f} ms (2 x floor); layout "
          f"{budgets['layout']:.1f} ms (floor + tabulate's import + 10 ms)\n")
    header = f"{'arch':6} {'query':26} {'wall ms':>8} {'CPU ms':>7} {'x floor':>8} " \
             f"{'budget':>7}  verdict  {'own ms':>6}"
    over = 0
    owns: list[tuple[float, str]] = []
    for arch, inst, matrix, rows in plan:
        print(f"{arch.name}: {inst.mnemonic}, largest matrix {matrix} "
              f"({element_count(inst, matrix)} elements)")
        print(header)
        for kind, label, args in rows:
            times = result[(arch.name, label)]
            budget = budgets[kind]
            verdict = "ok" if times[col] <= budget else "OVER"
            over += verdict == "OVER"
            line = (f"{arch.name:6} {label:26} {times[0]:8.1f} {times[1]:7.1f} "
                    f"{times[col] / floor:8.2f} {budget:7.1f}  {verdict:7}")
            if kind == "layout":
                own = times[col] - floor - (quiet if imports_tabulate(prefix + args, env)
                                            else 0.0)
                owns.append((own, f"{arch.name} {label}"))
                line += f"  {own:6.1f}"
            print(line)
        print()
    print(f"{over} of {sum(len(rows) for *_, rows in plan)} queries over budget "
          f"({metric} time)")
    if owns:
        most = max(owns)
        within = sum(own <= 10 for own, _ in owns)
        print(f"own share of the layout queries: {within} of {len(owns)} at most 10 ms; "
              f"the largest {most[0]:.1f} ms ({most[1]})\n")
    return over


def imports_tabulate(command, env):
    """Whether the command imports tabulate (as Python's -X importtime reports, through
    PYTHONPROFILEIMPORTTIME): CSV and the long forms do not."""
    found = subprocess.run(command, env={**env, "PYTHONPROFILEIMPORTTIME": "1"}, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return any(line.rstrip().endswith("| tabulate") for line in found.stderr.splitlines())


# ---------------------------------------------------------------------------------------
# Part 2: every table, in this process

def call(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        return matrix_calculator.main(argv)


def legal_modifiers(probe):
    """Every modifier value the calculator accepts for this instruction and matrix, one
    modifier at a time (values 1..15); a modifier that is never legal alone (ABID needs
    CBSZ) is tried with every legal value of each other one. `probe` is a cheap -g query
    on the same matrix: the modifier checks are those of -R and -M."""
    singles = {spelling: [v for v in range(1, 16) if call(probe + [spelling, str(v)]) == 0]
               for _, spelling in MODIFIERS}
    settings = [[]] + [[s, str(v)] for s, values in singles.items() for v in values]
    for partner in (s for s, values in singles.items() if not values):
        for first, values in singles.items():
            for v1, v2 in itertools.product(values, range(1, 16)):
                argv = [first, str(v1), partner, str(v2)]
                if call(probe + argv) == 0:
                    settings.append(argv)
    return settings


def sweep(archs):
    print("Part 2: in-process sweep, every instruction x matrix x format x legal modifier "
          "value x wave size, -R and -M")
    total_renders = total_time = 0.0
    slowest = (0.0, None)
    for arch in archs:
        renders, elapsed, rejected = 0, 0.0, 0
        for inst in arch.instructions:
            for matrix in matrices(inst):
                for wave in arch.waves:
                    base = ["-a", arch.name, "-i", inst.mnemonic, "-g", MATRIX_FLAGS[matrix],
                            "-w", str(wave)]
                    if call(base) != 0:
                        rejected += 1
                        continue
                    for setting in legal_modifiers(base):
                        for mode in ("-R", "-M"):
                            for fmt in FORMATS:
                                argv = base[:4] + [mode] + base[5:] + setting + fmt
                                start = time.process_time()
                                status = call(argv)
                                took = time.process_time() - start
                                if status != 0:
                                    raise SystemExit(f"bench: {' '.join(argv)} failed")
                                renders += 1
                                elapsed += took
                                slowest = max(slowest, (took, argv))
        rate = renders / elapsed if elapsed else 0
        print(f"{arch.name:6} {renders:7d} renders in {elapsed:6.2f} s: {rate:7.0f} renders/s"
              + (f" ({rejected} matrix/wave combinations rejected)" if rejected else ""))
        total_renders += renders
        total_time += elapsed
    print(f"{'all':6} {int(total_renders):7d} renders in {total_time:6.2f} s: "
          f"{total_renders / total_time:7.0f} renders/s")
    took, argv = slowest
    print(f"slowest render: {took * 1000:.1f} ms: {' '.join(argv)}")


def install(python, stack):
    """(interpreter, command) of `pip install .` into a temporary virtual environment."""
    import tempfile
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-venv-")))
    subprocess.run([python, "-m", "venv", str(folder)], check=True)
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(ROOT)],
                   check=True)
    subprocess.run([str(bin_dir / "python"), "-m", "compileall", "-q", str(folder)],
                   check=False, stdout=subprocess.DEVNULL)
    print(f"installed into {folder} (pip install .): measuring {bin_dir / 'matrix-calculator'}")
    return str(bin_dir / "python"), str(bin_dir / "matrix-calculator")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (median)")
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    parser.add_argument("--command", help="measure this command instead of "
                        "'PYTHON matrix_calculator.py', e.g. matrix-calculator")
    parser.add_argument("--script", action="store_true", help="measure 'PYTHON "
                        "matrix_calculator.py' from the clone instead of the installed command")
    parser.add_argument("--metric", choices=("cpu", "wall"), default="cpu",
                        help="time that the ratios and budgets use (default: CPU time, "
                        "user + system, which load from other processes disturbs less)")
    parser.add_argument("--arch", action="append", help="only these architectures")
    parser.add_argument("--no-sweep", action="store_true", help="skip part 2")
    parser.add_argument("--sweep-only", action="store_true", help="skip part 1")
    parser.add_argument("--plans", nargs="*", metavar="CASE",
                        help="part 3: the planners' cases (bench/plans.py: conversions, lds, "
                        "slope, search, preshuffle, store, pictures, explorer; none named: all)")
    parser.add_argument("--no-processes", action="store_true", help="skip part 1")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a query is over its budget")
    args = parser.parse_args()
    archs = [a for a in ARCHITECTURES
             if not args.arch or a.name.lower() in {n.lower() for n in args.arch}]
    prefix = (args.command.split() if args.command
              else [args.python, str(ROOT / "matrix_calculator.py")])
    over = 0
    with contextlib.ExitStack() as stack:
        python = args.python
        if not (args.sweep_only or args.command or args.script):
            python, command = install(args.python, stack)
            prefix = [command]
        if not (args.sweep_only or args.no_processes):
            over = processes(archs, args.runs, python, prefix, args.metric)
        if args.plans is not None:
            import plans
            print("Part 3: the planners' cases")
            over += plans.run(args.plans or list(plans.ALL), archs, 3, prefix)
    if not (args.no_sweep or args.no_processes and args.plans is not None):
        sweep(archs)
    return 1 if args.strict and over else 0


if __name__ == "__main__":
    sys.exit(main())
