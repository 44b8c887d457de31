"""The documentation describes what the calculator does: no page of the README, docs/ or
tests/data/README.md cites an issue number, and the library's import is the door's."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "tests" / "data" / "README.md",
                *(ROOT / "docs").rglob("*.md")])
# An issue of this project, as `git grep -i -E "issues? [0-9]"` finds it; another project's
# is cited with its tracker and a # ("LLVM issue #78856").
ISSUE = re.compile(r"\bissues? [0-9]", re.IGNORECASE)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_no_page_cites_an_issue_number(page):
    found = [f"{number}: {line.strip()[:80]}"
             for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             if ISSUE.search(line)]
    assert found == []


def test_the_library_page_says_how_to_import_the_library():
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    section = text.split("## Importing", 1)[1].split("\n## ", 1)[0]
    assert "import matrix_calculator as mc" in section


def test_every_python_example_imports_the_door():
    """The ```python blocks of the README and docs/ import the library as
    `import matrix_calculator as mc`, never a module path of their own (the consumers'
    packages an export is pasted into, tensor-layouts and Triton, are theirs)."""
    ours = {"instructions", "layouts", "matrix_plans", "matrix_library", "formats",
            "matrix_frontends"}
    for page in PAGES:
        for block in re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"),
                                re.S | re.M):
            imports = re.findall(r"^(?:>>> )?(?:import|from) (\S+)", block, re.M)
            assert not {name.split(".")[0] for name in imports} & ours, (page.name, imports)
