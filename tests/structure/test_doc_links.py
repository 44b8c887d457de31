"""The documentation stands alone: every relative link of the README, docs/
and tests/data/README.md names a file inside the repository that exists (and, for a
#fragment into Markdown, a heading there), and no page points at a folder beside the
clone (the shared folder the project was made from)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "tests" / "data" / "README.md",
                *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            text = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
            found.add(text)
    return found


def links():
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if not re.match(r"[a-z]+:", target):
                yield page, target


def test_the_pages_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "docs/sources.md", "docs/facts/cdna4.md", "docs/usage.md"} <= names


@pytest.mark.parametrize("page, target", list(links()),
                         ids=[f"{p.relative_to(ROOT)}->{t}" for p, t in links()])
def test_every_relative_link_resolves_inside_the_repository(page, target):
    path, _, fragment = target.partition("#")
    resolved = (page.parent / path).resolve() if path else page
    assert resolved.is_relative_to(ROOT), f"{target} leaves the repository"
    assert resolved.exists(), f"{target} does not exist"
    if fragment and resolved.suffix == ".md":
        assert fragment in anchors(resolved), f"no heading #{fragment} in {path or page.name}"


def test_no_page_points_beside_the_clone():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"(^|[\s(`\[])\.\./(?:\.\./)?shared\b", text, re.M), page


SKIP = {".git", ".venv", "build", "dist", "node_modules", "__pycache__"}
TEXT = {".py", ".md", ".txt", ".json", ".toml", ".sh", ".js", ".html", ".css", ".cfg", ".in"}


def test_no_file_names_the_shared_folder_as_a_path():
    """Code, data and docs cite the repository's own copies (tests/data/facts, docs/facts),
    never the folder beside the clone the project was made from (its facts, seeds, golden)."""
    pattern = re.compile(r"\.\./shared\b|(?<![\w.])shared/(?:facts|seeds|golden)\b")
    found = []
    for path in _text_files(ROOT):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


THIS = Path(__file__).resolve()


def _text_files(folder):
    for entry in sorted(folder.iterdir()):
        if entry.is_dir() and entry.name not in SKIP and not entry.name.endswith(".egg-info"):
            yield from _text_files(entry)
        elif entry.is_file() and entry.suffix in TEXT and entry != THIS:
            yield entry


def test_no_file_holds_a_merge_conflict():
    """A merge that left its conflict markers (docs/json.md once did) fails here."""
    marker = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)
    found = [str(path.relative_to(ROOT)) for path in _text_files(ROOT)
             if marker.search(path.read_text(encoding="utf-8"))]
    assert found == []
