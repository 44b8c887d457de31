"""The shell transcripts of README.md and docs/*.md (`$ matrix-calculator ...` followed
by what it prints, in fenced or indented blocks) are replayed in-process, as the installed
command, and must match: byte for byte, except where the page elides (a line `...` stands
for any lines, ` ... ` inside a line for any text; `$ matrix-calculator ... --opt` repeats
the previous command's options before --opt; `# text` after a command is text its output
holds). A sample error (`matrix-calculator: error: ...`) must be the command's one line on
stderr, with status 2. The pages spell the command one way: `matrix-calculator`."""
import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO, documentation

README = Path(__file__).resolve().parents[2] / "README.md"
PROMPT = "$ matrix-calculator "


def code_blocks():
    """The bodies of the pages' fenced blocks (any language) and indented blocks."""
    blocks, lines, at = [], documentation().splitlines(), 0
    while at < len(lines):
        line = lines[at]
        if line.startswith("```"):
            body, at = [], at + 1
            while at < len(lines) and not lines[at].startswith("```"):
                body.append(lines[at])
                at += 1
            blocks.append(body)
        elif line.startswith("    ") and (at == 0 or not lines[at - 1].strip()):
            body = []
            while at < len(lines) and (lines[at].startswith("    ") or not lines[at].strip()):
                body.append(lines[at][4:])
                at += 1
            blocks.append(body)
            continue
        at += 1
    return blocks


def transcripts():
    """(command words, claim in its comment, expected output lines) of every transcript."""
    found, previous = [], []
    for body in code_blocks():
        at = 0
        while at < len(body):
            line = body[at]
            at += 1
            if not line.startswith(PROMPT):
                continue
            command = line[len(PROMPT):]
            while command.endswith("\\") and at < len(body):  # a continued command
                command, at = command[:-1] + " " + body[at].strip(), at + 1
            command, _, claim = command.partition(" # ")
            words = shlex.split(command)
            if words and words[0] == "...":  # the previous command's options, then these
                rest = words[1:]
                keep = previous.index(rest[0]) if rest and rest[0] in previous else None
                words = previous[:keep] + rest
            previous = [w for w in words if w != "|"][:words.index("|") if "|" in words
                                                      else None]
            output = []
            while at < len(body) and not body[at].startswith(("$ ", "// $ ")):
                output.append(body[at])
                at += 1
            while output and not output[-1].strip():
                output.pop()
            found.append((words, claim.strip(), output))
    return found


def matches(expected, actual):
    """Whether the page's lines (with its elisions) are the output's."""
    def line_pattern(line):
        text = re.escape(line).replace(re.escape(" ... "), " .* ")
        return (text[:-len(re.escape(" ..."))] + " .*" if line.endswith(" ...") else text) + "\n"
    pattern = "".join("(?:.*\n)*?" if line.strip() == "..." else line_pattern(line)
                      for line in expected)
    return re.fullmatch(pattern, actual) is not None


def replayed(run, monkeypatch, words):
    """(status, stdout, stderr) of the installed command (its name) given `words`."""
    monkeypatch.setattr(sys, "argv", ["matrix-calculator"])
    command, _, pattern = shlex.join(words).partition(" '|' grep ")
    rc, out, err = run(shlex.split(command))
    if pattern:  # an excerpt: the lines holding the pattern
        needle = shlex.split(pattern)[0]
        out = "".join(line for line in out.splitlines(keepends=True) if needle in line)
    return rc, out, err


@pytest.mark.parametrize("words, claim, expected", transcripts(),
                         ids=[shlex.join(w)[:100] for w, _, _ in transcripts()])
def test_transcript(run, monkeypatch, words, claim, expected):
    rc, out, err = replayed(run, monkeypatch, words)
    if expected and expected[0].startswith("matrix-calculator: error: "):
        assert (rc, out) == (2, "") and err == "\n".join(expected) + "\n", err
        return
    assert (rc, err) == (0, ""), err
    assert claim in out
    if expected:
        assert matches(expected, out), out[:3000]


def test_the_pages_spell_the_command_one_way():
    """Every command a page shows is `matrix-calculator`; the README says once how the
    clone's script runs (python3 matrix_calculator.py)."""
    for path in [README, *sorted((REPO / "docs").glob("*.md"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            shown = line.strip().lstrip("$/ ").strip()
            assert not re.match(r"(python3 )?(\./)?matrix_calculator\.py[ :]", shown), \
                f"{path.name}:{number}: {line}"
    assert README.read_text(encoding="utf-8").count("`python3 matrix_calculator.py ...`") == 1


def test_the_replay_reads_every_transcript():
    pages = documentation()
    assert len(transcripts()) == len(re.findall(r"(?m)^(?:    )?\$ matrix-calculator ",
                                                pages)) > 50


def test_the_readme_shows_examples_of_every_family():
    commands = " ".join(shlex.join(words) for words, _, _ in transcripts())
    for needle in ("-a cdna3", "-a cdna2", "-a rdna3", "-a rdna4", "-w 64", "--opsel", "--neg",
                   "-o", "-k"):
        assert needle in commands, needle


def around_the_instruction():
    """The commands of the README's table of the tools around the instruction."""
    text = README.read_text(encoding="utf-8").split("## Around the instruction", 1)[1]
    rows = [line.split(" | ") for line in text.split("\n## ", 1)[0].splitlines()
            if line.startswith("| ") and "`-" in line]
    return [row[1].strip("`").split(" > ")[0] for row in rows]


def test_the_tools_table_names_every_plan():
    commands = " ".join(around_the_instruction())
    for needle in ("--serve", "--lds-tile", "--copy", "--preshuffle", "--store-d", "--convert",
                   "sm80:", "--budget", "--emit hip", "--emit probe"):
        assert needle in commands, needle


# (not the servers, nor the site's writer, which tests/frontends/test_export_site.py runs)
@pytest.mark.parametrize("args", [a for a in around_the_instruction()
                                  if a not in ("--serve", "--mcp", "--export-site DIR")])
def test_every_tool_of_the_table_runs(run, args):
    rc, out, err = run(shlex.split(args))
    assert (rc, err) == (0, "") and out.startswith(("Architecture:", "Budget", "//")), out[:200]


# ---- what the pages say of the program, checked against it

def page(name):
    return " ".join((REPO / "docs" / name).read_text(encoding="utf-8").split())


def test_long_csv_is_a_header_row_and_rows_as_formats_md_says(run):
    rc, out, _ = run(["-a", "cdna3", "-i", "v_mfma_f64_4x4x4_4b_f64", "-R", "-A", "--format",
                      "long-csv"])
    assert rc == 0 and not any(line.startswith("#") for line in out.splitlines())
    assert out.startswith("matrix,i,j,k,block,register,registers,lane,bit_lo,bit_hi,")
    assert "(a header row, no `#` lines) | `pandas.read_csv(f)` |" in page("formats.md")


def test_the_catalog_as_jsonl_and_long_csv_as_library_md_says(run):
    rc, out, _ = run(["--catalog", "--format", "jsonl"])
    assert rc == 0 and out.count("\n") > 100 and out.startswith('{"architecture":')
    rc, out, err = run(["--catalog", "--format", "long-csv"])
    assert rc == 2 and "long-csv lists element locations" in err
    text = page("library.md")
    assert "with `--catalog` it is refused" in text and "with `--catalog` one facts object" in text


@pytest.mark.external
def test_pandoc_reads_no_table_from_the_legacy_markdown_as_formats_md_says(run):
    import shutil
    import subprocess
    if shutil.which("pandoc") is None:
        from tests.helpers import missing
        missing("pandoc is not installed: the legacy --markdown claim of docs/formats.md")
    args = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A"]
    html = {}
    for flag in (["--markdown"], ["--format", "markdown"]):
        out = run(args + flag)[1]
        html[flag[-1]] = subprocess.run(["pandoc", "-f", "markdown", "-t", "html"], input=out,
                                        capture_output=True, text=True, check=True).stdout
    assert "<table" not in html["--markdown"] and "<table" in html["markdown"]
    assert "pandoc renders no table at all, even for one block" in page("formats.md")
