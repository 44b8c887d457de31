"""The RDNA examples of the upstream README, byte for byte (readme_examples_rdna.py).

(Shared helpers: tests/helpers/rdna_common.py.)
"""
import shlex

import pytest

from tests.helpers import reference_examples
from tests.helpers.readme_examples_rdna import README_RDNA_EXAMPLES

# ======================================================================================
# 3. The RDNA examples of the upstream README, byte for byte
# ======================================================================================

@pytest.mark.parametrize("_line, command, expected", README_RDNA_EXAMPLES,
                         ids=[f"seed-line-{e[0]}" for e in README_RDNA_EXAMPLES])
def test_readme_rdna_example(run, _line, command, expected):
    rc, out, err = run(shlex.split(command))
    assert (rc, err) == (0, "")
    assert out == expected


def test_readme_rdna_examples_are_those_of_the_seed():
    found = [(line, args, out) for line, args, out in reference_examples()
             if "--architecture rdna" in args]
    assert tuple(found) == README_RDNA_EXAMPLES
