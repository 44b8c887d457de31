"""The README's CDNA4 examples, byte for byte.

(Shared helpers: tests/helpers/cdna4_common.py.)
"""
import os
import re
import subprocess
import sys

import pytest

from tests.helpers import REPO, documentation

# ---- the README's CDNA4 examples ---------------------------------------------------------

def readme_examples():
    """(command, output) pairs of the README's CDNA4 section: a ```sh block holding one
    command line, then a ``` block with what it prints."""
    text = documentation()
    start = text.find("## CDNA4 (gfx950, MI350X/MI355X)")
    if start < 0:
        return []
    end = text.find("\n## ", start + 1)
    section = text[start:] if end < 0 else text[start:end]
    return re.findall(r"```sh\n(matrix-calculator [^\n]+)\n```\n\n```\n(.*?)```",
                      section, re.S)


def test_readme_has_cdna4_examples():
    commands = [command for command, _ in readme_examples()]
    assert len(commands) >= 8
    for option in ("--A-scale", "--opsel-a", "-o", "--cbsz 2", "--blgp 4", "-d"):
        assert any(f" {option} " in command for command in commands), option


@pytest.mark.parametrize("command, output", readme_examples(),
                         ids=[f"example-{n}" for n, _ in enumerate(readme_examples(), 1)])
def test_readme_example(command, output):
    # (the installed command, run as the clone's script)
    command = command.replace("matrix-calculator ", f"'{sys.executable}' matrix_calculator.py ", 1)
    result = subprocess.run(command, shell=True, cwd=REPO, capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "80"}, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == output
