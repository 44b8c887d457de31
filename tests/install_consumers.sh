#!/usr/bin/env bash
# Install the programs that tests/external/test_consumers.py feeds the --format outputs to, where
# they are installed (the tests skip them otherwise): asciidoctor and pandoc (Debian and
# Ubuntu packages), plus the Python consumers of requirements-dev.txt into a venv.
#
#     bash tests/install_consumers.sh            # apt packages (sudo when not root)
#     bash tests/install_consumers.sh .venv      # and pandas, markdown-it-py, docutils
set -euo pipefail
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if command -v asciidoctor >/dev/null && command -v pandoc >/dev/null; then
    :
elif command -v apt-get >/dev/null; then
    $sudo apt-get update -q
    $sudo apt-get install -y -q asciidoctor pandoc
else
    echo "install asciidoctor (gem install asciidoctor) and pandoc with your package manager" >&2
fi
if [[ $# -ge 1 ]]; then
    "$1/bin/pip" install -q pandas markdown-it-py docutils
fi
asciidoctor --version | head -n 1
pandoc --version | head -n 1
