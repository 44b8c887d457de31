"""What users read names no issue number: -h, --json-schema, -L, and -d of every
instruction (text and --json, where the sources and decisions of each fact are shown)."""
import re

import pytest

from instructions import ARCHITECTURES
from tests.helpers import call

ISSUE = re.compile(r"\bissues? #?[0-9]", re.IGNORECASE)


@pytest.mark.parametrize("argv", [["-h"], ["--json-schema"], ["--list-products"],
                                  ["--list-architectures", "--json"]],
                         ids=lambda argv: " ".join(argv))
def test_the_help_and_the_schema_name_no_issue(argv):
    status, out, err = call(argv)
    assert status == 0 and err == ""
    assert ISSUE.findall(out) == []


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda arch: arch.name)
def test_no_instruction_detail_names_an_issue(arch):
    found = []
    for inst in arch.instructions:
        for extra in ([], ["--json"]):
            status, out, _ = call(["-a", arch.name, "-i", inst.mnemonic, "-d", *extra])
            assert status == 0, inst.mnemonic
            found += [(inst.mnemonic, *extra, hit) for hit in ISSUE.findall(out)]
    assert found == []
