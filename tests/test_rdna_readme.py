"""The RDNA examples of the upstream README, byte for byte (readme_examples_rdna.py).

(Split from the former test_rdna.py; shared helpers in rdna_common.py.)
"""
import re
import shlex

import pytest
from conftest import absent_reason, missing, shared_text
from readme_examples_rdna import README_RDNA_EXAMPLES

# ======================================================================================
# 3. The RDNA examples of the upstream README, byte for byte
# ======================================================================================

@pytest.mark.parametrize("line, command, expected", README_RDNA_EXAMPLES,
                         ids=[f"seed-line-{e[0]}" for e in README_RDNA_EXAMPLES])
def test_readme_rdna_example(run, line, command, expected):
    rc, out, err = run(shlex.split(command))
    assert (rc, err) == (0, "")
    assert out == expected


def test_readme_rdna_examples_are_those_of_the_seed():
    text = shared_text("seeds", "004_ce971d2592b01a50.txt")
    if text is None:
        missing(absent_reason("seeds", "004_ce971d2592b01a50.txt"))
    found = []
    for match in re.finditer(r"^(?:\$ )?\./matrix_calculator\.py (.*--architecture rdna.*)\n"
                             r"((?:.+\n)+)", text, re.M):
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, match.group(1), match.group(2)))
    assert tuple(found) == README_RDNA_EXAMPLES
