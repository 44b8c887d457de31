"""Start-up cost: point queries must not pay for what only tables need.

Each check runs in a fresh interpreter, since this test process has imported everything.
"""
import ast
import json
import subprocess
import sys
from pathlib import Path

from instructions import ARCHITECTURES
from layouts.family import FAMILIES
from tests.helpers.product_tree import product_modules

ROOT = Path(__file__).resolve().parents[2]

# Imported only to draw tables (formats.tables with tabulate, csv and what they load), or
# avoidable at start-up (shutil: argparse would import it to measure the terminal for
# every option it adds; importlib: instruction tables load with __import__; dataclasses:
# records are named tuples; typing: importing it alone costs about the interpreter's own
# start-up, so records are instructions.record.Record and TYPE_CHECKING is a constant of
# each module; re: typing's import of it, and no query parses with it; collections.abc: a
# module of its own, whose names the point path uses in annotations alone).
TABLES = ("formats.tables", "formats.documents",
          "tabulate", "csv", "_csv", "difflib")
AVOIDABLE = ("shutil", "importlib", "dataclasses", "typing", "re", "enum", "collections.abc")
# The library's and the command line's parts that only some modes need, loaded on first
# use (matrix_api's __getattr__, the mode table's function-level imports): the catalog,
# the facts (-d, --json), LDS plans and conversions, the explorer, batch answers,
# completion scripts, typing_extensions' typed dictionaries, products, peaks and budgets.
LAZY = ("matrix_library.catalog",
        "matrix_library.typed", "matrix_library.lds",
        "matrix_frontends.cli.lds_mode", "matrix_library.conversion",
        "matrix_frontends.cli.convert_mode", "matrix_frontends.explorer.app",
        "matrix_frontends.batch", "matrix_frontends.cli.completion",
        "formats.json_output", "formats.hip",
        "typing_extensions", "argparse", "difflib", "json", "shlex", "pathlib",
        "instructions.products", "matrix_plans.budget",
        "matrix_library.budget", "matrix_frontends.cli.budget_mode",
        "formats.budget")
# The fragments the HIP writers read, which no point query needs (-d included), and the
# whole layouts in bulk (-R, -M) with their notation.
CODE = ("layouts.fragment", "matrix_library.code")
WHOLE_LAYOUTS = ("matrix_library.bulk", "matrix_library.notation")
NOT_FOR_POINT_QUERIES = TABLES + AVOIDABLE + LAZY + CODE + WHOLE_LAYOUTS
# ... and the facts, the formula texts and the renderers' door to the engine's facts,
# which -d reads but -L, -g and -m do not
NOT_FOR_LOOKUPS = NOT_FOR_POINT_QUERIES + ("matrix_library.facts", "matrix_library.drawing",
                                           "layouts.formulas")

# The probe loads nothing before taking its list of modules (its arguments come as a
# Python literal, its output goes through json only afterwards), so that the modules the
# calculator would load are not hidden by the probe's own. It loads the command line as
# the script and the installed command do (matrix_calculator.py imported as a library
# loads each name through importlib on first use).
PROBE = """
import io, sys
before = set(sys.modules)  # site may have imported some already
argvs = eval(sys.argv[1])
sys.path.insert(0, {root!r})
from matrix_frontends.cli.command import main  # (what the script and the command load)
statuses = []
for argv in argvs:
    out, sys.stdout = sys.stdout, io.StringIO()
    try:
        statuses.append(main(argv))
    finally:
        sys.stdout = out
loaded = sorted(set(sys.modules) - before)
import ast
import json
print(json.dumps({{"statuses": statuses, "modules": loaded}}))
"""


def modules_after(*argvs):
    """The modules that loading the command line and answering `argvs` loaded."""
    proc = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT)),
                           repr(list(argvs))], capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout)
    assert result["statuses"] == [0] * len(argvs), result["statuses"]
    return set(result["modules"])


def test_get_register_does_not_import_the_table_drawer():
    modules = modules_after(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"])
    assert "formats.tables" not in modules


def point_queries(arch):
    # (the last instruction with A, B, C and D registers: not a wgmma or ldmatrix)
    inst = next(i for i in reversed(arch.instructions) if not i.matrices).mnemonic
    base = ["-a", arch.name.lower(), "-i", inst]
    return [["-a", arch.name.lower(), "-L"], base + ["-d"], base + ["-g", "-A"],
            base + ["-g", "-D", "-o"], base + ["-m", "-B", "-l", "1"], base + ["-m", "-D", "-o"]]


def test_no_point_query_of_any_architecture_imports_table_modules():
    argvs = [argv for arch in ARCHITECTURES for argv in point_queries(arch)]
    loaded = modules_after(*argvs) & set(NOT_FOR_POINT_QUERIES)
    assert not loaded, f"point queries imported {sorted(loaded)}"


def test_lookups_load_neither_the_facts_nor_the_catalog():
    """-L, -g and -m (every architecture) read no facts module."""
    argvs = [argv for arch in ARCHITECTURES for argv in point_queries(arch) if "-d" not in argv]
    loaded = modules_after(*argvs) & set(NOT_FOR_LOOKUPS)
    assert not loaded, f"lookups imported {sorted(loaded)}"


def test_the_formula_texts_load_only_where_printed():
    """-d of an instruction whose formula text is the reference's own, with no line of it
    known to be wrong, derives no formula; -d of one without such a text, and -d --json,
    derive them (the formula texts' lazy boundary, docs/internals.md), from the layouts'
    digits: no -d builds an operand's whole layout value (layouts.values)."""
    formulas = {"layouts.formulas"}
    cdna3 = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d"]
    assert not modules_after(cdna3) & formulas
    assert formulas <= modules_after(cdna3 + ["--json"])
    derived = [["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-d"],
               ["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-d"],
               ["-a", "sm90", "-i", "wgmma.mma_async.m64n256k16.f32.f16.f16", "-d"]]
    for argv in derived:
        loaded = modules_after(argv)
        assert formulas <= loaded and "layouts.values" not in loaded, argv


def test_the_verification_record_loads_only_where_printed():
    """-d prints the instruction's description; the verification record is read for
    -d --verification and -d --json (the facts) alone."""
    inst = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-d"]
    record = {"instructions.verification", "instructions.verification_checks"}
    for arch in ARCHITECTURES:
        argv = point_queries(arch)[1]  # (its -d)
        assert not modules_after(argv) & record, argv
    assert record <= modules_after(inst + ["--verification"])
    assert record <= modules_after(inst + ["--json"])


def test_the_gfx1250_provenance_loads_only_where_read():
    """A layout query of gfx1250 reads no provenance record; -d, which prints them, does."""
    inst = ["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4"]
    assert "instructions.gfx1250_provenance" not in modules_after(inst + ["-g", "-D", "-o"])
    assert "instructions.gfx1250_provenance" in modules_after(inst + ["-d"])


def test_the_lazy_parts_load_when_used():
    """(guards the lists above: the probe sees these modules when their modes run, and
    matrix_api's names of them still resolve)"""
    inst = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]
    assert {"matrix_library.catalog",
            "matrix_library.facts"} <= modules_after(
        ["--catalog", "--filter", "arch=cdna3"])
    assert "matrix_frontends.cli.lds_mode" in modules_after(
        inst + ["-A", "--lds-tile", "32x8"])
    assert "matrix_library.facts" in modules_after(inst + ["-d"])
    assert set(WHOLE_LAYOUTS) <= modules_after(inst + ["-R", "-A"])
    assert {"matrix_plans.budget", "matrix_frontends.cli.budget_mode"} <= \
        modules_after(inst + ["--budget"])
    from matrix_library import api as matrix_api
    from matrix_library.catalog import catalog
    from matrix_library.request import Request
    assert matrix_api.catalog is catalog and matrix_api.Request is Request
    assert callable(matrix_api.lds_plan) and callable(matrix_api.facts)


def test_a_text_lds_plan_loads_neither_the_json_writer_nor_the_copy_planner():
    plan = ["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "-A", "--lds-tile", "32x256"]
    apart = {"formats.json_output", "matrix_library.copies", "matrix_frontends.cli.copy_mode"}
    assert not modules_after(plan) & apart
    assert apart <= modules_after(plan + ["--json"], plan + ["--copy", "global_load_b128"])


def test_layout_queries_import_the_table_drawer():
    """The probe sees the imports that do happen (guards the tests above): tables load
    the table drawer and tabulate, which draws every text table; CSV loads the drawer
    without tabulate; the --format documents their own module."""
    inst = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]
    modules = modules_after(*[inst + [mode, "-A"] + fmt for mode in ("-R", "-M")
                              for fmt in ([], ["--markdown"], ["--asciidoc"])])
    assert {"formats.tables", "tabulate"} <= modules
    assert "formats.documents" not in modules
    assert "tabulate" in modules_after(inst + ["-R", "-A", "--format", "psql"])
    assert "tabulate" in modules_after(["--catalog", "--filter", "arch=cdna3"])
    csv = modules_after(inst + ["-R", "-A", "--csv"], inst + ["-M", "-A", "--csv"])
    assert {"formats.tables", "_csv"} <= csv and "tabulate" not in csv
    rst = modules_after(inst + ["-R", "-A", "--format", "rst"])
    assert "formats.documents" in rst and "formats.pictures" not in rst
    assert "formats.pictures" in modules_after(inst + ["-R", "-A", "--format", "svg"])


def test_csv_documents_do_not_load_tabulate():
    """CSV and TSV come from the csv module's writer (its C module, _csv: csv.py loads
    re and enum): no tabulate; the long forms load neither the JSON writer (jsonl alone
    does) nor the pictures."""
    base = ["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4"]
    modules = modules_after(*[base + [mode, "-A"] + fmt for mode in ("-R", "-M")
                              for fmt in (["--csv"], ["--format", "csv"], ["--format", "tsv"],
                                          ["--format", "long-csv"])])
    assert {"_csv", "formats.tables", "formats.documents"} <= modules
    loaded = modules & {"tabulate", "dataclasses", "csv", "re", "enum", "json",
                        "formats.pictures"}
    assert not loaded, f"CSV documents imported {sorted(loaded)}"


def test_the_command_pauses_the_cycle_collector_and_main_leaves_it_alone():
    """matrix_calculator.command() (the script and the installed command) runs with the
    collector off (docs/speed.md); main(), which in-process callers use, leaves it on."""
    probe = ("import gc, io, sys\n"
             f"sys.path.insert(0, {str(ROOT)!r})\n"
             "import matrix_calculator\n"
             "out, sys.stdout = sys.stdout, io.StringIO()\n"
             "first = matrix_calculator.main(['-a', 'cdna3', '-L'])\n"
             "after_main = gc.isenabled()\n"
             "sys.argv = ['matrix_calculator.py', '-a', 'cdna3', '-L']\n"
             "second = matrix_calculator.command()\n"
             "sys.stdout = out\n"
             "print(first, after_main, second, gc.isenabled())\n")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert proc.stdout.split() == ["0", "True", "0", "False"]


def test_a_point_query_loads_only_its_own_family_generator():
    """The family modules the registry names load on first use (layouts/family.py)."""
    generators = {name: f.module for name, f in FAMILIES.items()}
    assert len(set(generators.values())) == len(generators)  # (one module per family)
    for arch in ARCHITECTURES:
        inst = arch.instructions[0].mnemonic
        loaded = modules_after(["-a", arch.name.lower(), "-i", inst, "-g", "-A"])
        others = {m for name, m in generators.items() if m != generators[arch.family]}
        assert generators[arch.family] in loaded and not loaded & others, (arch.name, loaded)


def test_the_script_ends_at_once_after_its_output():
    """The script (and the installed command) ends through
    matrix_frontends.cli.command.end: its whole output flushed, its exit status kept, and the
    interpreter's teardown skipped (an atexit handler never runs)."""
    script = str(ROOT / "matrix_calculator.py")
    probe = ("import atexit, runpy, sys\n"
             "atexit.register(lambda: sys.stderr.write('teardown\\n'))\n"
             f"sys.argv = [{script!r}] + sys.argv[1:]\n"
             f"runpy.run_path({script!r}, run_name='__main__')\n")
    listing = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py"), "-a",
                              "cdna3", "-L"], capture_output=True, text=True)
    for argv, status in ((["-a", "cdna3", "-L"], 0), (["-a", "cdna3", "-i", "nope", "-g"], 2)):
        proc = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                              text=True)
        assert proc.returncode == status and "teardown" not in proc.stderr, proc.stderr
        if status == 0:
            assert proc.stdout == listing.stdout and proc.stdout.count("\n") > 20
        else:
            assert proc.stdout == "" and proc.stderr.count("\n") == 1
    plain = subprocess.run([sys.executable, "-c", probe.replace("run_name='__main__'",
                                                                "run_name='x'")],
                           capture_output=True, text=True)
    assert "teardown" in plain.stderr  # (the probe sees a teardown that does happen)


def _named_tuple_bases(tree):
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and any(
        (isinstance(base, ast.Name) and base.id == "NamedTuple")
        or (isinstance(base, ast.Attribute) and base.attr == "NamedTuple")
        for base in node.bases)]


def _typing_imports(tree):
    """The names a module imports from typing where it runs (outside `if TYPE_CHECKING:`)."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "typing":
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name == "typing"]
    return found


def test_records_are_built_on_the_record_base():
    """Every record of the product is an instructions.record.Record, which builds the
    named tuple without importing typing (a type checker sees typing.NamedTuple)."""
    direct = sorted(f"{name}.{record}" for name, path in product_modules().items()
                    for record in _named_tuple_bases(ast.parse(path.read_text()))
                    if name != "instructions.record")
    assert direct == []


def test_the_point_path_modules_import_nothing_from_typing_where_they_run():
    loaded = modules_after(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d"],
                           ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"])
    importing = sorted(name for name, path in product_modules().items() if name in loaded
                       and _typing_imports(ast.parse(path.read_text())))
    assert importing == []


def test_the_typing_rules_see_what_they_look_for():
    named = ast.parse("import typing\nfrom typing import NamedTuple\n"
                      "class A(NamedTuple):\n    x: int\nclass B(typing.NamedTuple):\n    y: int\n")
    assert _named_tuple_bases(named) == ["A", "B"]
    assert _typing_imports(named) == ["typing", "NamedTuple"]
    guarded = ast.parse("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from typing import Any\n")
    assert _typing_imports(guarded) == []



def test_the_script_and_the_installed_command_import_with_the_collector_off():
    """Both doors turn the collector off before they import the command line, whose
    imports are most of a point query's time (docs/speed.md): an import hook reports
    the collector's state when the command line's module is looked for."""
    probe = ("import gc, runpy, sys\n"
             f"sys.path.insert(0, {str(ROOT)!r})\n"
             "class Watch:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'matrix_frontends.cli.command':\n"
             "            print('collector', gc.isenabled(), file=sys.stderr, flush=True)\n"
             "        return None\n"
             "sys.meta_path.insert(0, Watch())\n"
             "sys.argv = [sys.argv[1], '-a', 'cdna3', '-L']\n"
             "runpy.run_path(sys.argv[0], run_name='__main__')\n")
    for door in (ROOT / "matrix_calculator.py", ROOT / "matrix_frontends" / "matrix-calculator"):
        proc = subprocess.run([sys.executable, "-c", probe, str(door)], capture_output=True,
                              text=True, check=True)
        assert proc.stderr.split() == ["collector", "False"], (door, proc.stderr)
        assert "v_mfma_f32_32x32x8_f16" in proc.stdout
