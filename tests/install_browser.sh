#!/usr/bin/env bash
# Install what the explorer's browser tests (tests/external/test_explorer_browser.py) and its
# screenshot script (scripts/explorer_screenshot.py) drive: the system's Chromium, plus
# Playwright for Python into a virtual environment when one is named. Under CI=true the
# browser tests fail instead of skipping when Chromium is missing, so CI runs this first.
#
#     bash tests/install_browser.sh            # chromium (apt; sudo when not root)
#     bash tests/install_browser.sh .venv      # and playwright into .venv
#
# The tests look for $CHROMIUM, /usr/bin/chromium, then chromium or chromium-browser on
# PATH. Playwright's own browser download is not needed (nor used).
set -euo pipefail
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    if command -v apt-get >/dev/null; then
        $sudo apt-get update -q
        # Debian's package is chromium; fonts-dejavu-core draws the pictures' monospace text.
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            chromium fonts-dejavu-core
    else
        echo "install Chromium with your package manager (or set CHROMIUM to its path)" >&2
        exit 1
    fi
fi
if [[ $# -ge 1 ]]; then
    "$1/bin/pip" install -q "playwright>=1.40"
fi
"$(command -v chromium || command -v chromium-browser)" --version
