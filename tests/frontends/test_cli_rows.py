"""The option rows of the plan modes and the budget modes' rows are data: a point query
runs no code of lds_options, preshuffle_options, budget_options, budget_modes or probe_mode
(their selections are `operator.methodcaller`s of options.Args), and the selections still
pick their modes."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from matrix_frontends.cli import budget_modes, lds_options, preshuffle_options, probe_mode
from matrix_frontends.cli.options import parse_args

ROOT = Path(__file__).resolve().parents[2]
DATA_MODULES = ("lds_options", "preshuffle_options", "budget_options", "budget_modes",
                "probe_mode")

# The files whose code (a function, a class body, a comprehension) a command line runs,
# in a fresh interpreter.
TRACE = """
import os, sys
top = {root!r}
sys.path.insert(0, top)
ran = set()
def seen(frame, event, arg):
    code = frame.f_code
    if event == "call" and code.co_name != "<module>" and code.co_filename.startswith(top):
        ran.add(os.path.relpath(code.co_filename, top))
import io, contextlib
sys.setprofile(seen)
import matrix_calculator
with contextlib.redirect_stdout(io.StringIO()):
    status = matrix_calculator.main({argv!r})
sys.setprofile(None)
print(status, *sorted(ran))
"""


def ran(argv):
    proc = subprocess.run([sys.executable, "-c", TRACE.format(root=str(ROOT), argv=argv)],
                          capture_output=True, text=True, check=True)
    status, *files = proc.stdout.split()
    assert status == "0", proc.stdout
    return {Path(f).stem for f in files if f.startswith("matrix_frontends/cli/")}


def test_a_point_query_runs_no_code_of_the_row_modules():
    files = ran(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "5",
                 "-K", "6"])
    assert "options" in files  # (guards the trace: the parser's code is seen)
    assert not files & set(DATA_MODULES), sorted(files)


def test_the_trace_sees_a_probe_running():
    assert "probe_mode" in ran(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "--emit", "probe"])


@pytest.mark.parametrize("words, lds, pre, store, wanted_probe", [
    (["--lds-tile", "32x8"], True, False, False, False),
    (["--lds-search"], True, False, False, False),
    (["--k-steps", "2"], True, False, False, False),
    (["--preshuffle"], False, True, False, False),
    (["--supertile", "2x1"], False, True, False, False),
    (["--store-d"], False, False, True, False),
    (["--route", "direct"], False, False, True, False),
    (["--emit", "PROBE"], False, False, False, True),
    (["--emit", "hip"], False, False, False, False),
    (["-g", "-A"], False, False, False, False),
])
def test_the_selections_pick_their_modes(words, lds, pre, store, wanted_probe):
    args = parse_args(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", *words])
    assert (lds_options.wanted(args), preshuffle_options.wanted(args),
            preshuffle_options.store_wanted(args), probe_mode.wanted(args)) == \
        (lds, pre, store, wanted_probe)


def test_the_budget_rows_select_by_their_flags():
    (_, _, products, *_), (_, _, budget, uses, *_) = budget_modes.BUDGET_MODES
    assert products(parse_args(["--list-products"])) and not products(parse_args(["-L"]))
    assert budget(parse_args(["--budget"])) and not budget(parse_args(["--list-products"]))
    assert {"product", "k_steps", "neg_lo", "matrix_a_reuse"} <= set(uses)


@pytest.mark.parametrize("name", ["lds_options", "preshuffle_options", "budget_options"])
def test_the_option_row_modules_hold_data_alone(name):
    """No function, class, lambda or comprehension: importing them runs no code of theirs
    (their derived tuples come from map and operator.itemgetter)."""
    tree = ast.parse((ROOT / "matrix_frontends" / "cli" / f"{name}.py").read_text("utf-8"))
    code = (ast.FunctionDef, ast.ClassDef, ast.Lambda, ast.GeneratorExp, ast.ListComp,
            ast.SetComp, ast.DictComp)
    assert not [type(node).__name__ for node in ast.walk(tree) if isinstance(node, code)]
