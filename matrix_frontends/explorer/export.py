"""`matrix-calculator --export-site DIR [--pyodide URL_OR_DIR]`: the explorer as a static
site, which any static server (python3 -m http.server, GitHub Pages) serves.

DIR receives the explorer's page and its scripts (formats/explorer/, the same files
--serve serves: the page's <meta name="matrix-engine"> tells it to answer in the browser
instead of asking a server, and a Content-Security-Policy <meta> replaces the server's
header), `calculator.zip` (the calculator's own import packages, its door and its
pure-Python dependencies tabulate and typing_extensions, which the page unpacks into
Pyodide), `files.json` (what the page's service worker keeps for offline use) and, for
a local copy of Pyodide (a folder, such as npm's `package/`, or the tarball of
`npm pack pyodide@VERSION`), `pyodide/` with the runtime's files. With a URL (the
default: PYODIDE_URL), the page loads Pyodide from there.
"""
from __future__ import annotations

import html
import io
import json
import os
import sys
import tarfile
import zipfile
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path

from matrix_frontends.cli import respond as cli_respond
from matrix_frontends.cli.options import PYODIDE_URL, PYODIDE_VERSION, shown
from matrix_frontends.explorer.app import assets

PACKAGES = ("instructions", "layouts", "matrix_plans", "matrix_library", "formats",
            "matrix_frontends", "tabulate")  # (tabulate: the tables' one dependency)
MODULES = ("matrix_calculator", "typing_extensions")  # single-file modules
DATA = (".py", ".tsv", ".json")  # what the packages read: code, the verification record,
#                                  the JSON schema
BUNDLE = "calculator.zip"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")  # what loadPyodide fetches for the standard library
ENGINE_LINE = '<meta name="matrix-engine" content="server">'
STAMP = (2020, 1, 1, 0, 0, 0)  # every bundled file's time: the same files, the same zip


def _options(words: Sequence[str]) -> tuple[str, str]:
    """(DIR, URL_OR_DIR) of `--export-site DIR [--pyodide URL_OR_DIR]`."""
    found = {"--export-site": "", "--pyodide": PYODIDE_URL}
    words = [w for word in words for w in (word.split("=", 1) if word.startswith("--")
                                           and "=" in word else [word])]
    at = 0
    while at < len(words):
        word = words[at]
        if word not in found:
            raise cli_respond.ArgumentError(
                f"--export-site writes the static site and takes only --pyodide "
                f"URL_OR_DIR, not {shown(word)}")
        if at + 1 >= len(words) or not words[at + 1]:
            raise cli_respond.ArgumentError(f"the {word} option needs a value")
        found[word] = words[at + 1]
        at += 2
    return found["--export-site"], found["--pyodide"]


def bundle() -> bytes:
    """calculator.zip: the files of PACKAGES (DATA files only, the explorer's page
    assets left out: the site has them beside the page) and MODULES, by their import
    paths, from wherever this Python imports them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in PACKAGES + MODULES:
            spec = find_spec(name)
            if spec is None or spec.origin is None:
                raise cli_respond.ArgumentError(f"the site bundles {name}, which this Python "
                                                "cannot import (pip install it)")
            origin = Path(spec.origin)
            if name in MODULES:
                _add(archive, origin, origin.name)
                continue
            for path in sorted(origin.parent.rglob("*")):
                inside = path.relative_to(origin.parent)
                left_out = "__pycache__" in inside.parts or (name, inside.parts[0]) == (
                    "formats", "explorer")  # (the page's assets: beside the page)
                if path.suffix in DATA and path.is_file() and not left_out:
                    _add(archive, path, f"{name}/{inside.as_posix()}")
    return buffer.getvalue()


def _add(archive: zipfile.ZipFile, path: Path, name: str) -> None:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, path.read_bytes())


def runtime(source: str) -> tuple[str, dict[str, bytes]]:
    """(the base URL the page loads Pyodide from, the files to write under pyodide/):
    a URL's files stay where they are; a local copy's PYODIDE_FILES are copied."""
    if source.startswith(("https://", "http://")):
        return (source if source.endswith("/") else source + "/"), {}
    path = Path(source)
    files: dict[str, bytes] = {}
    if path.is_dir():
        folder = path / "package" if (path / "package" / PYODIDE_FILES[0]).is_file() else path
        files = {name: (folder / name).read_bytes() for name in PYODIDE_FILES
                 if (folder / name).is_file()}
    elif path.is_file() and tarfile.is_tarfile(path):
        with tarfile.open(path) as tar:
            for member in tar.getmembers():
                name = member.name.split("/", 1)[-1]
                handle = tar.extractfile(member) if name in PYODIDE_FILES else None
                if handle is not None:
                    files[name] = handle.read()
    else:
        raise cli_respond.ArgumentError(
            f"--pyodide takes a URL (https://...) or a local copy of Pyodide, a folder or "
            f"npm's tarball (npm pack pyodide@{PYODIDE_VERSION}), not {shown(source)}")
    lacking = [name for name in PYODIDE_FILES if name not in files]
    if lacking:
        raise cli_respond.ArgumentError(f"{shown(source)} is not a copy of Pyodide: it lacks "
                                        f"{', '.join(lacking)}")
    return "pyodide/", files


def policy(base: str) -> str:
    """The site's Content-Security-Policy: the server's, with Pyodide's origin (when it
    is not the site's own) for scripts and fetches, WebAssembly compiled, and the
    service worker (a <meta> policy cannot say frame-ancestors)."""
    origin = "" if base == "pyodide/" else " " + "/".join(base.split("/")[:3])
    return (f"default-src 'none'; script-src 'self' 'wasm-unsafe-eval'{origin}; "
            f"style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            f"connect-src 'self'{origin}; worker-src 'self'; base-uri 'none'; "
            "form-action 'none'")


def page(template: str, base: str) -> str:
    """The page of the static site: the explorer's page, told to answer in the browser
    with Pyodide from `base`, under the site's policy."""
    if ENGINE_LINE not in template:  # (the page and this module go together: a defect)
        raise cli_respond.ArgumentError("the explorer's index.html lacks its engine line")
    shown_policy = html.escape(policy(base), quote=False)
    return template.replace(ENGINE_LINE, (
        f'<meta http-equiv="Content-Security-Policy" content="{shown_policy}">\n'
        f'<meta name="matrix-engine" content="pyodide" data-pyodide="{html.escape(base)}" '
        f'data-bundle="{BUNDLE}">'))


def site(base: str, pyodide: dict[str, bytes]) -> dict[str, bytes]:
    """Every file of the site, by its path inside DIR."""
    files: dict[str, bytes] = {}
    for url, path in assets().items():
        if url != "/":
            files[url.lstrip("/")] = path.read_bytes()
    files["index.html"] = page(files["index.html"].decode("utf-8"), base).encode("utf-8")
    files[BUNDLE] = bundle()
    files.update({f"pyodide/{name}": data for name, data in pyodide.items()})
    kept = ["./", *sorted(files), *([] if pyodide else [base + n for n in PYODIDE_FILES])]
    files["files.json"] = (json.dumps(kept, indent=1) + "\n").encode("utf-8")
    return files


def export(words: Sequence[str]) -> int:
    """`--export-site DIR [--pyodide URL_OR_DIR]`: write the site; one line on standard
    output says what was written. Returns the exit status."""
    try:
        folder, source = _options(words)
        base, pyodide = runtime(source)
        files = site(base, pyodide)
    except cli_respond.ArgumentError as exc:
        sys.stderr.write(cli_respond.error_line(str(exc)) + "\n")
        return 2
    target = Path(folder)
    try:
        for name, data in files.items():
            path = target / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        where = f" ({exc.filename})" if exc.filename else ""
        sys.stderr.write(cli_respond.error_line(f"cannot write the site into "
                                               f"{shown(folder)}: {reason}{where}") + "\n")
        return 1
    size = sum(map(len, files.values()))
    served = f"Pyodide bundled from {source}" if pyodide else f"Pyodide from {base}"
    sys.stdout.write(f"{os.fspath(target)}: the explorer as a static site, {len(files)} "
                     f"files, {size / 1e6:.1f} MB ({served}); try it with "
                     f"python3 -m http.server -d {os.fspath(target)}\n")
    return 0
