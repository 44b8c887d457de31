"""Packaging: pyproject.toml, the wheel's contents, and the installed command.

The installed-command tests run where `pip install .` put a `matrix-calculator` script
beside the interpreter (as in .ci/run); under CI they must not be skipped.
"""
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import matrix_calculator
from tests.helpers import call, missing

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
# The import packages, each a top folder of the clone, installed under its own name.
PACKAGES = ("instructions", "layouts", "matrix_plans", "matrix_library", "formats",
            "matrix_frontends")
SUBPACKAGES = ("formats.hip", "matrix_plans.convert", "matrix_plans.lds",
               "matrix_plans.preshuffle", "matrix_frontends.cli", "matrix_frontends.explorer")
DOCS = ("matrix_calculator_docs", "matrix_calculator_docs.facts",
        "matrix_calculator_docs.images")  # docs/, shipped as data (-h names its pages)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def top_level_modules():
    """The top-level .py files of the checkout (tracked ones where git knows them, so that
    work in progress does not count)."""
    try:
        listed = subprocess.run(["git", "ls-files", "*.py"], capture_output=True, text=True,
                                cwd=ROOT, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = [p.name for p in ROOT.glob("*.py")]
    return sorted(name for name in listed if "/" not in name)


def setting(key):
    match = re.search(rf"^{re.escape(key)}\s*=\s*(.+)$", PYPROJECT, re.MULTILINE)
    assert match, f"{key} missing from pyproject.toml"
    return match.group(1).strip()


def test_version_comes_from_the_module():
    assert setting("version") == '{attr = "matrix_library.__version__"}'
    assert re.fullmatch(r"\d+\.\d+\.\d+", matrix_calculator.__version__)


def test_the_issue_tracker_is_named_once():
    """[project.urls] Issues is the code's ISSUES, which -h, the probes, the internal-error
    line and docs/verification.md name; no other page spells a tracker of its own."""
    from instructions import ISSUES
    from instructions.verification import REPORT
    assert setting("Issues") == f'"{ISSUES}"'
    assert setting("Homepage") == f'"{ISSUES.removesuffix("/issues")}"'
    assert ISSUES in REPORT
    assert f"report problems: {ISSUES}" in call(["-h"])[1]
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "calculator's repository" not in text, page.name
        assert set(re.findall(r"https://github\.com/OWNER/[\w./-]*", text)) <= {ISSUES}, page
    assert ISSUES in (ROOT / "docs" / "verification.md").read_text(encoding="utf-8")


def test_script_prints_its_version():
    for flag in ("--version", "-v"):
        proc = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py"), flag],
                              capture_output=True, text=True, cwd=ROOT.parent)
        assert proc.returncode == 0 and proc.stderr == ""
        assert proc.stdout.split() == ["matrix_calculator.py", matrix_calculator.__version__]


def test_declared_contents_match_the_tree():
    """The tree is the import tree: every top folder with an __init__.py is a package
    installed under its own name, its subfolders its subpackages, matrix_calculator.py the
    one top-level module, docs/ data; nothing is mapped from one name to another."""
    assert top_level_modules() == ["matrix_calculator.py"]
    assert setting("py-modules") == '["matrix_calculator"]'
    declared = re.findall(r'"([\w.]+)"', PYPROJECT.split("packages = ", 1)[1].split("]", 1)[0])
    # (tests/ is the suite's own package, never installed)
    on_disk = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")
    assert on_disk == sorted(PACKAGES)
    nested = {".".join(p.parent.relative_to(ROOT).parts)
              for pkg in PACKAGES for p in (ROOT / pkg).glob("*/__init__.py")}
    assert nested == set(SUBPACKAGES), "subpackages must be declared too"
    assert sorted(declared) == sorted(PACKAGES + SUBPACKAGES + DOCS)
    assert setting("package-dir") == '{"matrix_calculator_docs" = "docs"}'
    assert "[project.scripts]" not in PYPROJECT
    data = [f"{pkg}/{p.name}" for pkg in PACKAGES for p in (ROOT / pkg).iterdir()
            if p.is_file() and p.suffix not in (".py", ".pyc")
            and p.name not in ("py.typed", "ruff.toml", "matrix-calculator")]  # (ruff.toml: lint)
    assert sorted(data) == ["formats/output.schema.json", "instructions/verification_checks.tsv"], \
        "data files: package them"
    assert setting('"formats"').startswith('["output.schema.json", "explorer/*"]')
    assert setting('"instructions"').startswith('["*.tsv"]')


def tracked_links():
    """The files git tracks as symbolic links (mode 120000)."""
    listed = subprocess.run(["git", "ls-files", "-s"], capture_output=True, text=True,
                            cwd=ROOT)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    return [line.split("\t", 1)[1] for line in listed.stdout.splitlines()
            if line.startswith("120000 ")]


def test_the_repository_holds_no_links():
    """A clone with core.symlinks=false (Windows' default) is the same tree."""
    assert tracked_links() == []
    assert not [p for p in ROOT.rglob("*") if p.is_symlink() and ".venv" not in p.parts]


def test_a_clone_without_links_answers_without_installing(tmp_path):
    """A clone made with core.symlinks=false and nothing installed: the script imports the
    clone's own folders as the package."""
    if subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, cwd=ROOT).returncode:
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "-c", "core.symlinks=false", str(ROOT), str(clone)],
                   check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-S", "-c",
                           "import sys; sys.path.insert(0, sys.argv[1]); sys.argv[1:] = "
                           "sys.argv[2:]; import matrix_calculator as m; "
                           "import matrix_frontends.cli.command as c; "
                           "print(c.__file__); sys.exit(m.main())", str(clone),
                           "-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A",
                           "-I", "5", "-K", "6"], capture_output=True, text=True, env=env,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    where, *answer = proc.stdout.splitlines()
    assert Path(where) == clone / "matrix_frontends" / "cli" / "command.py"  # (-S: no site)
    assert answer[-1] == "A[5][6] = v1{37}.[15:0]"


def test_packages_ship_their_type_hints():
    """PEP 561: each package has a py.typed marker, and pyproject packages it."""
    assert all((ROOT / pkg / "py.typed").is_file() for pkg in PACKAGES)
    assert re.search(r'^\[tool\.setuptools\.package-data\]\n(?:#.*\n)*"\*" = \["py\.typed"\]',
                     PYPROJECT, re.MULTILINE)


TYPING_EXTENSIONS = "typing_extensions>=4.0"  # the typed records (matrix_api.Facts)
TABULATE = "tabulate>=0.10.0,<0.11"


def test_the_run_time_dependencies_are_tabulate_pinned_and_typing_extensions():
    """tabulate, pinned, and typing_extensions (the typed records on Python 3.10)."""
    assert setting("dependencies") == f'["{TABULATE}", "{TYPING_EXTENSIONS}"]'
    runtime = [line for line in (ROOT / "requirements.txt").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    assert runtime == [TABULATE, TYPING_EXTENSIONS]
    dev = (ROOT / "requirements-dev.txt").read_text().splitlines()
    assert "-r requirements.txt" in dev
    assert [line.split()[0] for line in dev if line.startswith("tabulate")] == \
        ["tabulate==0.10.0"]


def test_python_versions_claimed_are_the_tested_ones():
    oldest = re.search(r'>=(3\.\d+)', setting("requires-python")).group(1)
    assert f"Python :: {oldest}" in PYPROJECT
    assert sys.version_info >= tuple(map(int, oldest.split(".")))


def oldest_interpreter(version):
    """A `pythonX.Y` of the oldest claimed version on this machine, or None (PATH first,
    then pyenv's versions, where a shim may not run it)."""
    import glob
    import shutil
    candidates = [shutil.which(f"python{version}")]
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates += sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin",
                                                "python")))
    wanted = str(tuple(map(int, version.split("."))))
    for path in filter(None, candidates):
        probe = subprocess.run([path, "-c", "import sys; print(sys.version_info[:2])"],
                               capture_output=True, text=True)
        if probe.returncode == 0 and probe.stdout.strip() == wanted:
            return path
    return None


def test_every_file_compiles_with_the_oldest_claimed_python():
    """Syntax newer than requires-python (in the product or its tests) fails here."""
    oldest = re.search(r'>=(3\.\d+)', setting("requires-python")).group(1)
    python = oldest_interpreter(oldest)
    if python is None:
        pytest.skip(f"no Python {oldest} interpreter on this machine to compile with")
    files = [str(p) for p in ROOT.rglob("*.py") if ".venv" not in p.parts]
    check = ("import sys\nfor path in sys.argv[1:]:\n"
             "    compile(open(path, encoding='utf-8').read(), path, 'exec')")
    proc = subprocess.run([python, "-c", check] + files, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_the_command_is_the_script_installed_as_is():
    """No console-script wrapper (its imports cost start-up): the build installs the
    script itself as matrix-calculator."""
    assert setting("script-files") == '["matrix_frontends/matrix-calculator"]'
    launcher = (ROOT / "matrix_frontends" / "matrix-calculator").read_text(encoding="utf-8")
    assert launcher.startswith("#!/usr/bin/env python3\n")
    assert "from matrix_frontends.cli.command import command, end" in launcher


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tests = readme.split("\n## Tests\n", 1)[1]
    block = tests.split("```sh\n", 1)[1].split("```", 1)[0]
    assert block.startswith("python3 -m venv .venv && ")
    assert "pip install -r requirements-dev.txt ." in block
    assert "-m pytest" in block


def test_setuptools_packages_every_module(tmp_path):
    """What setuptools would put in the wheel, built offline with the setuptools at hand
    (build_py and egg_info need neither the network nor the `wheel` package)."""
    pytest.importorskip("setuptools")
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c",
                           "from setuptools import setup; setup()", "-q",
                           "egg_info", "--egg-base", str(tmp_path),
                           "build_py", "--build-lib", str(tmp_path / "lib")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    built = {p.relative_to(tmp_path / "lib").as_posix()
             for p in (tmp_path / "lib").rglob("*.py")}
    assert (tmp_path / "lib" / "formats" / "output.schema.json").read_bytes() == \
        (ROOT / "formats" / "output.schema.json").read_bytes()
    sources = {p.relative_to(ROOT).as_posix()
               for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
               if "__pycache__" not in p.parts}
    assert built == sources | {"matrix_calculator.py"}
    info, = tmp_path.glob("*.egg-info")
    requires = info / "requires.txt"
    base, _, extras = requires.read_text().partition("[mcp]")  # the optional SDK of --mcp
    required, extensions = base.split()  # (setuptools may reorder specifiers)
    assert set(extras.split()[0][len("mcp"):].split(",")) == {">=2.3", "<3"}
    assert required.startswith("tabulate") and \
        set(required[len("tabulate"):].split(",")) == set(TABULATE[len("tabulate"):].split(","))
    assert extensions == TYPING_EXTENSIONS
    assert f"Version: {matrix_calculator.__version__}" in (info / "PKG-INFO").read_text()


def installed_command():
    name = "matrix-calculator" + (".exe" if os.name == "nt" else "")
    for folder in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        if (folder / name).exists():
            return str(folder / name)
    if IN_CI:
        pytest.fail("CI: `pip install .` did not install the matrix-calculator command")
    pytest.skip("matrix-calculator is not installed beside this interpreter")


SAMPLES = [["-a", "cdna3", "-L"],
           ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "1", "-K", "2"],
           ["-a", "cdna1", "-i", "v_mfma_f32_4x4x1f32", "-R", "-B", "--markdown"],
           ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d"],
           ["-a", "cdna3", "-i", "nope", "-g", "-A"]]


@pytest.mark.parametrize("args", SAMPLES, ids=" ".join)
def test_installed_command_matches_the_script(args, tmp_path):
    command = installed_command()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    installed = subprocess.run([command] + args, capture_output=True, text=True,
                               cwd=tmp_path, env=env)  # elsewhere than the clone
    script = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py")] + args,
                            capture_output=True, text=True, cwd=tmp_path, env=env)
    assert installed.returncode == script.returncode
    assert installed.stdout == script.stdout
    assert bool(installed.stderr) == bool(script.stderr)


@pytest.mark.parametrize("args", [["--version"], ["-h"], ["-a", "cdna9", "-L"]], ids=" ".join)
def test_the_installed_command_names_itself(args, tmp_path):
    """matrix-calculator in --version, usage and errors; the script keeps its own name."""
    command = installed_command()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    installed = subprocess.run([command] + args, capture_output=True, text=True,
                               cwd=tmp_path, env=env)
    script = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py")] + args,
                            capture_output=True, text=True, cwd=tmp_path, env=env)
    said = installed.stdout + installed.stderr
    assert "matrix-calculator" in said and "matrix_calculator.py" not in said
    assert installed.returncode == script.returncode
    if args != ["-h"]:  # (usage lines wrap at other places for a name of other length)
        assert said == (script.stdout + script.stderr).replace("matrix_calculator.py",
                                                               "matrix-calculator")


def test_the_installed_command_names_its_installed_documentation(tmp_path):
    """-h names docs/ pages; installed, they are inside the package, and -h says where."""
    command = installed_command()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([command, "-h"], capture_output=True, text=True, cwd=tmp_path, env=env)
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("documentation:"))
    folder = Path(line.rsplit(" ", 1)[1])
    assert folder.name == "docs" and (folder / "usage.md").is_file()
    assert (folder / "facts" / "cdna4.md").is_file()
    for page in ("formats.md", "json.md", "lds.md", "chaining.md", "explorer.md"):
        assert page in proc.stdout and (folder / page).is_file(), page


def test_the_installed_package_ships_the_schema(tmp_path):
    command = installed_command()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([command, "--json-schema"], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    assert proc.returncode == 0 and proc.stdout == \
        (ROOT / "formats" / "output.schema.json").read_text(encoding="utf-8")


def test_the_readme_installs_into_a_virtual_environment_first():
    """Debian's and Ubuntu's system Python refuse `pip install` (externally managed): the
    README's first command makes a venv (and then runs the installed command)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```sh\n", 1)[1].split("```", 1)[0].strip()
    assert first.startswith("python3 -m venv .venv && .venv/bin/pip install . && ")
    assert ". .venv/bin/activate" in first and ".venv/bin/matrix-calculator -a " in first
    assert "pipx install ." in readme.split("## Tests", 1)[0]


@pytest.mark.external
def test_the_installed_names_are_the_trees_own(tmp_path):
    """Installed, site-packages holds the tree's own names and nothing else of ours: the
    six packages, the door and the docs (the card's instructions/, layouts/ and formats/
    share their names with unrelated PyPI projects: docs/internals.md says so, and the
    README installs into an environment of its own). The installed command answers as
    the clone's script does."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
           "--timeout", "15", "--retries", "1"]
    proc = subprocess.run(pip + [str(ROOT)], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 and "No matching distribution" in proc.stderr + proc.stdout:
        missing("cannot install the build's requirements from PyPI (offline?)")
    assert proc.returncode == 0, proc.stderr[-2000:]
    site = Path(subprocess.run([str(bin_dir / "python"), "-c",
                                "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    record, = site.glob("matrix_calculator-*.dist-info/RECORD")
    ours = {line.split("/", 1)[0].split(",", 1)[0]
            for line in record.read_text(encoding="utf-8").splitlines()}
    ours = sorted(name for name in ours
                  if not name.endswith(".dist-info") and name not in ("..", "__pycache__"))
    assert ours == sorted((*PACKAGES, "matrix_calculator.py", "matrix_calculator_docs"))
    args = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A", "--format", "rst"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    installed = subprocess.run([str(bin_dir / "matrix-calculator"), *args], capture_output=True,
                               text=True, cwd=tmp_path, env=env)
    script = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py"), *args],
                            capture_output=True, text=True, cwd=tmp_path, env=env)
    assert (installed.returncode, installed.stderr) == (0, "")
    assert installed.stdout == script.stdout
