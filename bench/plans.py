"""The planners' cases: plans, searches, explorer answers and pictures against their budgets
(bench/bench.py --plans runs them; `python3 bench/plans.py --help` alone).

  conversions   every same-architecture D -> A/B pair (default wave and modifiers), the
                library's conversion() with its advice, CPU time per plan: 100 ms
  slowest       the conversions the full sweep finds slowest on CDNA4 and GFX1250 (the
                library's conversion() with its advice), and of each the moves alone
                (the composed layouts, planner.slot_moves), CPU time: 100 ms
  lds           every instruction's A and B at 16 x K (the smallest tile the fragment
                fits, R x C, widened to R x 16C with --k-steps 16), lds_plan(), CPU
                time: 100 ms; and the slope of plan time against slots (log-log, k steps
                1 to 64 of the largest operands): linear is 1
  search        lds_search() of every instruction's A and B at its smallest tile: 1 s
  preshuffle    preshuffle() of every operand read from memory (A, B, the sparse index
                K, the scales SA and SB) of every instruction, default options,
                CPU time: 100 ms
  store         store_plan() of every instruction's D as each store type, into a row-
                and a col-major tile (--store-d), CPU time: 100 ms
  pictures      -R and -M --format svg of the largest pictures (4,096 elements), in a
                fresh process after the tables and the layout are loaded: importing
                formats.pictures and drawing, CPU time: 60 ms
  explorer      /api/json -R and -M of every instruction's matrices against a warm
                `--serve` of the command measured, wall time per answer (median of
                --runs), the answer read into a buffer kept from answer to answer (a
                fresh buffer of megabytes per answer costs this client 7-10 ms of page
                faults on a virtual machine: docs/speed.md): 50 ms
Times are CPU time of this process (process_time) after a warm-up, each case the best
of --runs (conversions, lds, search, preshuffle, store) or their median (explorer); a
plan the library refuses (CalcError) is timed as well; the machine's load average is
printed with them.
"""
import argparse
import contextlib
import math
import os
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import matrix_calculator  # noqa: E402,F401  (the package of the clone)
from instructions import ARCHITECTURES  # noqa: E402
from matrix_library import api as mc  # noqa: E402

BUDGETS = {"conversions": 100.0, "slowest": 100.0, "lds": 100.0, "search": 1000.0, "explorer": 50.0,
           "preshuffle": 100.0, "store": 100.0, "pictures": 60.0}


def plannable(src, dst, matrix):
    """Whether conversion() plans D of `src` into `matrix` of `dst` (default wave and
    modifiers): its checks, without planning."""
    from matrix_library import conversion
    from matrix_library.checks import lane_moves_of
    from matrix_plans.convert import planner as convert
    try:
        source = conversion._operand(src, "D", None, None, True)
        target = conversion._operand(dst, matrix, None, None, False)
        if source.wave != target.wave:
            return False
        convert.tile(source, target)
        moves = lane_moves_of(src, "conversion plans")
        convert._choose(moves, src, dst, matrix, convert._signed(target))
    except mc.CalcError:
        return False
    return True


def pairs(arch):
    return [(src, dst, matrix) for src in arch.instructions for dst in arch.instructions
            for matrix in "AB" if plannable(src, dst, matrix)]


def cpu_ms(call, runs):
    """The least CPU time of `runs` calls, in ms."""
    best = math.inf
    for _ in range(runs):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best * 1000


def report(name, label, times, budget):
    """One line of figures: count, median, p99, max, how many over the budget."""
    if not times:
        return 0
    values = sorted(t for t, _ in times)
    over = sum(t > budget for t in values)
    p99 = values[min(len(values) - 1, math.ceil(0.99 * len(values)) - 1)]
    worst = max(times)
    print(f"{name:12} {label:8} {len(values):5d}  median {statistics.median(values):8.1f}  "
          f"p99 {p99:8.1f}  max {worst[0]:8.1f} ms  over {budget:.0f} ms: {over}"
          f"   slowest: {worst[1]}", flush=True)
    return over


def conversions(archs, runs):
    over = 0
    for arch in archs:
        times = []
        for src, dst, matrix in pairs(arch):
            took = cpu_ms(partial(mc.conversion, src, "D", dst, matrix), runs)
            times.append((took, f"{src.mnemonic}:D -> {dst.mnemonic}:{matrix}"))
        over += report("conversions", arch.name, times, BUDGETS["conversions"])
    return over


# the slowest pairs of `conversions` (src, dst, matrix) on the two largest architectures
SLOWEST = (("cdna4", "v_smfmac_f32_32x32x16_f16", "v_mfma_f32_32x32x2_f32", "A"),
           ("cdna4", "v_mfma_f32_32x32x64_f8f6f4", "v_mfma_f32_32x32x2_f32", "A"),
           ("gfx1250", "v_swmmac_f16_16x16x128_bf8_bf8", "v_wmma_f16_16x16x128_bf8_fp8", "A"),
           ("gfx1250", "v_wmma_f32_16x16x64_fp8_bf8", "v_wmma_f16_16x16x128_bf8_fp8", "A"))


def slowest(archs, runs):
    from matrix_library import conversion
    from matrix_plans.convert import planner as convert
    times = []
    for arch, src, dst, matrix in SLOWEST:
        if not any(a.name.lower() == arch for a in archs):
            continue
        s, d = mc.find_instruction(arch, src), mc.find_instruction(arch, dst)
        took = cpu_ms(partial(mc.conversion, s, "D", d, matrix), runs)
        ops = (conversion._operand(s, "D", None, None, True),
               conversion._operand(d, matrix, None, None, False))
        moves = cpu_ms(partial(convert.slot_moves, *ops), runs)
        times.append((took, f"{src}:D -> {dst}:{matrix}"))
        print(f"slowest      {arch} {times[-1][1]}: {took:.1f} ms (the moves {moves:.2f} ms)",
              flush=True)
    return report("slowest", "pairs", times, BUDGETS["conversions"])


def smallest_tile(inst, matrix):
    """(rows, cols) of the smallest tile (order k) that holds the fragment."""
    try:
        mc.lds_plan(inst, matrix, tile="1x1")
    except mc.CalcError as error:
        text = str(error)
        if "needs at least" in text:
            rows, cols = text.rsplit(" ", 1)[1].split("x")
            return int(rows), int(cols)
    return None


def operands(arch):
    for inst in arch.instructions:
        for matrix in "AB":
            tile = smallest_tile(inst, matrix)
            if tile:
                yield inst, matrix, tile


def _refused_too(function, *args, **options):
    """function(*args, **options), or None where it refuses (a refusal is timed too)."""
    with contextlib.suppress(mc.CalcError):
        return function(*args, **options)
    return None


def lds(archs, runs):
    over = 0
    for arch in archs:
        times = []
        for inst, matrix, (rows, cols) in operands(arch):
            call = partial(_refused_too, mc.lds_plan, inst, matrix,
                           tile=f"{rows}x{cols * 16}", k_steps=16)
            times.append((cpu_ms(call, runs), f"{inst.mnemonic} -{matrix} --lds-tile "
                          f"{rows}x{cols * 16} --k-steps 16"))
        over += report("lds 16 x K", arch.name, times, BUDGETS["lds"])
    return over


def search(archs, runs):
    over = 0
    for arch in archs:
        times = []
        for inst, matrix, (rows, cols) in operands(arch):
            call = partial(mc.lds_search, inst, matrix, tile=f"{rows}x{cols}")
            times.append((cpu_ms(call, runs), f"{inst.mnemonic} -{matrix} --lds-tile "
                          f"{rows}x{cols} --lds-search"))
        over += report("lds search", arch.name, times, BUDGETS["search"])
    return over


def _amd(archs):
    """The architectures whose plans these are (NVIDIA's refuse them, saying how to port)."""
    return [arch for arch in archs if arch.vendor == "amd"]


def preshuffles(archs, runs):
    """Each instruction's default preshuffle of each operand read from memory."""
    over = 0
    for arch in _amd(archs):
        times, refused = [], 0
        for inst in arch.instructions:
            for matrix in mc.matrices(inst):
                if matrix in ("A", "B", "K", "SA", "SB"):
                    call = partial(_refused_too, mc.preshuffle, inst, matrix)
                    refused += call() is None
                    times.append((cpu_ms(call, runs), f"{inst.mnemonic} -{matrix} --preshuffle"))
        over += report("preshuffle", arch.name, times, BUDGETS["preshuffle"])
        print(f"{'':12} {'':8} ({len(times) - refused} planned, {refused} refused)")
    return over


def stores(archs, runs):
    """Each instruction's D stored as each store type, row- and col-major."""
    from matrix_library.epilogue import STORE_TYPES
    over = 0
    for arch in _amd(archs):
        times, refused = [], 0
        for inst in arch.instructions:
            for store_type in STORE_TYPES:
                for order in ("row", "col"):
                    call = partial(_refused_too, mc.store_plan, inst, store_type=store_type,
                                   order=order)
                    refused += call() is None
                    times.append((cpu_ms(call, runs), f"{inst.mnemonic} --store-d --store-type "
                                  f"{store_type} --global-order {order}"))
        over += report("store", arch.name, times, BUDGETS["store"])
        print(f"{'':12} {'':8} ({len(times) - refused} planned, {refused} refused)")
    return over


PICTURES = [("gfx1250", "v_wmma_f32_32x16x128_f4", "A", view) for view in ("register", "matrix")]
_DRAW = """
import sys, time
sys.path.insert(0, sys.argv[1])
import matrix_calculator
import matrix_calculator as mc
inst = mc.find_instruction(sys.argv[2], sys.argv[3])
list(mc.layout(inst, sys.argv[4]))  # (the tables and the layout engine: not the picture's)
start = time.process_time()
from formats import pictures
pictures.render("svg", inst, sys.argv[4], None, None, sys.argv[5])
print((time.process_time() - start) * 1000)
"""


def pictures(archs, runs):
    """The largest pictures' own work: formats.pictures' import and the drawing, each in
    a fresh process (its caches empty, as the command has them), the best of `runs`."""
    import tempfile
    times = []
    with tempfile.TemporaryDirectory() as cache:  # (bytecode, as installed: out of the tree)
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for arch, name, matrix, view in PICTURES:
            if not any(a.name.lower() == arch for a in archs):
                continue
            command = [sys.executable, "-c", _DRAW, str(ROOT), arch, name, matrix, view]
            took = min(float(subprocess.run(command, capture_output=True, text=True, env=env,
                                            check=True).stdout) for _ in range(runs + 1))
            times.append((took, f"{name} -{view[0].upper()} -{matrix} --format svg"))
            print(f"pictures     {arch} {times[-1][1]}: {took:.1f} ms", flush=True)
    return report("pictures", "largest", times, BUDGETS["pictures"])


def slope(runs):
    """The log-log slope of plan time against the plan's slots, k steps 1 to 64 (every
    VGPR the wave addresses, the library's bound), for the operands with
    the most slots of gfx1250 and CDNA4 (1: linear)."""
    cases = [("gfx1250", "v_wmma_f32_32x16x128_f4", "A"),
             ("cdna4", "v_mfma_f32_32x32x64_f8f6f4", "A"), ("cdna3", "v_mfma_f32_32x32x8_f16", "B")]
    for arch, name, matrix in cases:
        inst = mc.find_instruction(arch, name)
        rows, cols = smallest_tile(inst, matrix)
        points = []
        for steps in (1, 2, 4, 8, 16, 32, 64):
            call = partial(mc.lds_plan, inst, matrix, tile=f"{rows}x{cols * steps}",
                           k_steps=steps)
            try:
                slots = len(call().slots)
            except mc.CalcError:  # (past the bound: the larger ones are refused too)
                break
            points.append((slots, cpu_ms(call, runs)))
        fit = _fit(points)
        top = _fit(points[-3:])
        print(f"lds slope    {arch} {name} -{matrix}: " + ", ".join(
            f"{s} slots {t:.1f} ms" for s, t in points) +
            f"; slope {fit:.2f} (top three {top:.2f})", flush=True)


def _fit(points):
    xs = [math.log(s) for s, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def read_into(answer, kept):
    """Read the body of `answer` (its Content-Length) into `kept`, a buffer grown when
    too small; the buffer, to be kept for the next answer."""
    size = int(answer.headers["Content-Length"])
    if size > len(kept):
        kept = bytearray(size)
    view, got = memoryview(kept), 0
    while got < size:
        count = answer.readinto(view[got:size])
        if not count:
            raise OSError(f"the answer ended after {got} of {size} bytes")
        got += count
    return kept


def explorer(archs, runs, command):
    """Each instruction's -R and -M of every matrix through a warm server's /api/json."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(command + ["--serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()  # the URL: serving
        kept = bytearray(1 << 20)
        over = 0
        for arch in archs:
            times = []
            for inst in arch.instructions:
                for matrix in ("A", "B", "D"):
                    for mode in ("R", "M"):
                        query = {"arch": arch.name.lower(), "inst": inst.mnemonic,
                                 "mode": mode, "matrix": matrix}
                        url = (f"http://127.0.0.1:{port}/api/json?"
                               + urllib.parse.urlencode(query))
                        walls = []
                        for _ in range(runs + 1):
                            start = time.perf_counter()
                            try:
                                with urllib.request.urlopen(url) as answer:
                                    kept = read_into(answer, kept)
                            except urllib.error.HTTPError as error:  # (a refusal: timed too)
                                error.read()
                            walls.append((time.perf_counter() - start) * 1000)
                        times.append((statistics.median(walls[1:]),
                                      f"{inst.mnemonic} -{mode} -{matrix}"))
            over += report("explorer", arch.name, times, BUDGETS["explorer"])
        return over
    finally:
        server.terminate()
        server.wait()


CASES = {"conversions": conversions, "slowest": slowest, "lds": lds, "search": search,
         "preshuffle": preshuffles, "store": stores, "pictures": pictures}
ALL = ("conversions", "slowest", "lds", "slope", "search", "preshuffle", "store", "pictures",
       "explorer")


def run(names, archs, runs, command):
    print(f"planner cases ({', '.join(names)}); load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    over = 0
    for name in names:
        if name == "explorer":
            over += explorer(archs, runs, command)
        elif name == "slope":
            slope(runs)
        else:
            over += CASES[name](archs, runs)
    print(f"{over} over budget; load average now "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return over


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", choices=ALL, help="(default: every case)")
    parser.add_argument("--arch", action="append", help="only these architectures")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--command", default=f"{sys.executable} {ROOT / 'matrix_calculator.py'}",
                        help="the command whose --serve the explorer case measures")
    args = parser.parse_args()
    archs = [a for a in ARCHITECTURES
             if not args.arch or a.name.lower() in {n.lower() for n in args.arch}]
    return 1 if run(args.cases or list(ALL), archs, args.runs, args.command.split()) else 0


if __name__ == "__main__":
    sys.exit(main())
