#!/usr/bin/env bash
# Fetch the Pyodide release that the static site's browser tests bundle
# (tests/external/test_explorer_site.py: matrix-calculator --export-site DIR --pyodide COPY,
# so that the page loads no file from the network): npm's tarball of the release that
# --export-site names by default (PYODIDE_VERSION, matrix_frontends/cli/options.py), kept
# in a cache folder outside the repository. Under CI=true the tests fail instead of
# skipping when it is missing, so .ci/run runs this first.
#
#     bash tests/install_pyodide.sh        # prints the tarball's path
#
# The tests look for $PYODIDE (a folder or a tarball), then this cache:
# $MATRIX_CALCULATOR_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/matrix-calculator.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(sed -n 's/^PYODIDE_VERSION = "\([^"]*\)".*/\1/p' "$repo/matrix_frontends/cli/options.py")
cache=${MATRIX_CALCULATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/matrix-calculator}
mkdir -p "$cache"
if [[ ! -s $cache/pyodide-$version.tgz ]]; then
    if ! command -v npm >/dev/null; then
        sudo=""
        [[ $(id -u) -eq 0 ]] || sudo="sudo"
        command -v apt-get >/dev/null || { echo "install npm to fetch Pyodide" >&2; exit 1; }
        $sudo apt-get update -q >/dev/null
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q npm >/dev/null
    fi
    (cd "$cache" && npm pack --silent "pyodide@$version" >/dev/null)
fi
echo "$cache/pyodide-$version.tgz"
