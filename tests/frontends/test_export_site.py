"""`--export-site DIR [--pyodide URL_OR_DIR]`: the static site's files, without a browser
(tests/external/test_explorer_site.py runs the site in Chromium).

The page is the explorer's own, told to answer in the browser, under a policy that names
where Pyodide comes from; the bundle holds the calculator's packages and its
dependencies, and alone (a Python with nothing else on its path, as Pyodide is) answers
every query as the command line does; refusals are one line and status 2."""
import io
import json
import subprocess
import sys
import tarfile
import zipfile

import pytest

from matrix_frontends.cli.options import PYODIDE_URL, PYODIDE_VERSION
from matrix_frontends.explorer import export
from tests.helpers import REPO, call

ASSETS = REPO / "formats" / "explorer"
FAKE = {name: f"{name} of a fake Pyodide".encode() for name in export.PYODIDE_FILES}


def fake_tarball(path):
    """A tarball laid out as npm's (package/...), holding FAKE."""
    with tarfile.open(path, "w:gz") as tar:
        for name, data in FAKE.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_a_site_with_a_local_pyodide_holds_the_page_the_bundle_and_the_runtime(tmp_path):
    status, out, err = call(["--export-site", str(tmp_path / "site"), "--pyodide",
                             str(fake_tarball(tmp_path / "pyodide.tgz"))])
    assert status == 0 and err == "" and out.startswith(f"{tmp_path / 'site'}: the explorer")
    site = tmp_path / "site"
    names = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assets = {p.name for p in ASSETS.iterdir()}
    assert names == assets | {"calculator.zip", "files.json"} | {
        f"pyodide/{name}" for name in FAKE}
    for name in FAKE:
        assert (site / "pyodide" / name).read_bytes() == FAKE[name]
    for name in assets - {"index.html"}:  # (the same files --serve serves)
        assert (site / name).read_bytes() == (ASSETS / name).read_bytes()
    page = (site / "index.html").read_text(encoding="utf-8")
    assert page == (ASSETS / "index.html").read_text(encoding="utf-8").replace(
        export.ENGINE_LINE, export.page(export.ENGINE_LINE, "pyodide/"))
    assert '<meta name="matrix-engine" content="pyodide" data-pyodide="pyodide/" ' \
        'data-bundle="calculator.zip">' in page
    assert "script-src 'self' 'wasm-unsafe-eval';" in page and "https:" not in page
    assert page.index("Content-Security-Policy") < page.index("<script")
    assert json.loads((site / "files.json").read_text()) == ["./", *sorted(names - {
        "files.json"})]
    assert f"{len(names)} files" in out


def test_the_default_pyodide_is_the_pinned_release_on_its_cdn(tmp_path):
    status, out, err = call(["--export-site", str(tmp_path)])
    assert status == 0 and err == "" and f"Pyodide from {PYODIDE_URL}" in out
    assert PYODIDE_URL == f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert f'data-pyodide="{PYODIDE_URL}"' in page
    assert "script-src 'self' 'wasm-unsafe-eval' https://cdn.jsdelivr.net;" in page
    assert "connect-src 'self' https://cdn.jsdelivr.net;" in page
    assert not (tmp_path / "pyodide").exists()
    assert json.loads((tmp_path / "files.json").read_text())[-len(FAKE):] == [
        PYODIDE_URL + name for name in export.PYODIDE_FILES]


def test_a_pyodide_folder_is_copied(tmp_path):
    folder = tmp_path / "npm" / "package"
    folder.mkdir(parents=True)
    for name, data in FAKE.items():
        (folder / name).write_bytes(data)
    (folder / "console.html").write_text("not needed")
    for given in (folder, folder.parent):  # (the package folder, or npm's folder above it)
        status, _, err = call(["--export-site", str(tmp_path / "site"), f"--pyodide={given}"])
        assert status == 0 and err == ""
        assert sorted(p.name for p in (tmp_path / "site" / "pyodide").iterdir()) == \
            sorted(FAKE)


def test_the_bundle_is_the_packages_and_answers_alone(tmp_path):
    """calculator.zip holds every product module, the schema and the verification
    record, tabulate and typing_extensions; a Python that sees nothing but it (-I -S,
    the zip on its path) answers as the command line does."""
    data = export.bundle()
    assert data == export.bundle()  # (the same files, the same bytes)
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    product = {p.relative_to(REPO).as_posix() for folder in export.PACKAGES[:-1]
               for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts}
    assert product | {"matrix_calculator.py", "typing_extensions.py",
                      "formats/output.schema.json", "instructions/verification_checks.tsv",
                      "tabulate/__init__.py"} <= names
    assert not any(name.startswith("formats/explorer/") for name in names)
    (tmp_path / "calculator.zip").write_bytes(data)
    argv = ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-M", "-A", "--neg", "1"]
    alone = subprocess.run(
        [sys.executable, "-I", "-S", "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
         "sys.argv[1:2] = []; from matrix_frontends.cli.command import main; "
         "sys.exit(main())", str(tmp_path / "calculator.zip"), *argv],
        capture_output=True, text=True, cwd=tmp_path, check=False)
    assert alone.returncode == 0 and alone.stderr == ""
    assert alone.stdout == call(argv)[1] and "-A[0][0]" in alone.stdout


@pytest.mark.parametrize("argv, message", [
    (["--export-site"], "needs a value"),
    (["--export-site", "DIR", "-a", "cdna3"], "takes only --pyodide URL_OR_DIR, not '-a'"),
    (["--export-site", "DIR", "--pyodide", "/no/such/copy"], "a local copy of Pyodide"),
    (["--pyodide", "x", "-a", "cdna3", "-L"], "-L does not use --pyodide"),
    (["--batch", "-"], "--export-site writes files: run it as a command of its own"),
])
def test_bad_export_lines_get_one_line_and_status_2(tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("--export-site DIR\n"))
    status, out, err = call(argv)
    assert status == 2 and message in err
    assert err.count("\n") == (2 if "--batch" in argv else 1)  # (--batch: and its count)
    assert not (tmp_path / "DIR").exists()


def test_a_folder_that_is_not_pyodide_is_refused(tmp_path):
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "pyodide.mjs").write_text("")
    status, out, err = call(["--export-site", str(tmp_path / "site"), "--pyodide",
                             str(tmp_path / "copy")])
    assert status == 2 and out == "" and "is not a copy of Pyodide: it lacks " \
        "pyodide.asm.mjs, pyodide.asm.wasm" in err


def test_an_unwritable_folder_gets_status_1(tmp_path):
    (tmp_path / "file").write_text("")
    status, out, err = call(["--export-site", str(tmp_path / "file" / "site")])
    assert status == 1 and out == "" and "cannot write the site into" in err
