"""The shell transcripts in README.md (`$ ./matrix_calculator.py ...` followed by what
it prints) are replayed in-process and must match byte for byte."""
import re
import shlex
from pathlib import Path

import pytest

from tests.helpers import documentation

README = Path(__file__).resolve().parents[2] / "README.md"


def code_blocks():
    """The bodies of the README's fenced blocks without a language tag."""
    blocks, body, fence = [], None, None
    for line in documentation().splitlines(keepends=True):
        if line.startswith("```"):
            if fence is None:
                fence, body = line.strip(), []
            else:
                if fence == "```":
                    blocks.append("".join(body))
                fence = None
        elif fence is not None:
            body.append(line)
    return blocks


def transcripts():
    """(arguments, expected output) of every `$ ./matrix_calculator.py` line in a ``` block."""
    found = []
    for block in code_blocks():
        for part in re.split(r"^(?=\$ )", block, flags=re.M):
            for prompt in ("$ ./matrix_calculator.py ", "$ matrix-calculator "):
                if part.startswith(prompt):
                    command, _, output = part.partition("\n")
                    found.append((command[len(prompt):], output.rstrip("\n") + "\n"))
    return found


def test_the_readme_shows_examples_of_every_family():
    commands = " ".join(args for args, _ in transcripts())
    for needle in ("-a cdna3", "-a cdna2", "-a rdna3", "-a rdna4", "-w 64", "--opsel", "--neg",
                   "-o", "-k"):
        assert needle in commands, needle


@pytest.mark.parametrize("args, expected", transcripts(),
                         ids=[args for args, _ in transcripts()])
def test_transcript(run, args, expected):
    args, _, pattern = args.partition(" | grep ")  # an excerpt: the lines holding pattern
    rc, out, err = run(shlex.split(args))
    assert (rc, err) == (0, "")
    if pattern:
        needle = shlex.split(pattern)[0]
        out = "".join(line for line in out.splitlines(keepends=True) if needle in line)
    assert out == expected


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


@pytest.mark.parametrize("args", [a for a in around_the_instruction()
                                  if a not in ("--serve", "--mcp")])  # (the servers)
def test_every_tool_of_the_table_runs(run, args):
    rc, out, err = run(shlex.split(args))
    assert (rc, err) == (0, "") and out.startswith(("Architecture:", "Budget", "//")), out[:200]
