"""The verification record of every instruction, read from verification_checks.tsv
beside this module (written by scripts/record_verification.py from the repository's
recorded data): checks_of(arch), the (source key, detail) pairs of each instruction, and
alternatives_of(arch), the texts of the sources that place one of its elements
otherwise. Read by instructions/verification.py (-d --verification, --filter checked=)."""
from __future__ import annotations

import os
from functools import cache

# (os.path, not pathlib: -d reads the record, and a point query imports no more than it
# needs: tests/structure/test_startup.py)
RECORD = os.path.join(os.path.dirname(__file__), "verification_checks.tsv")


Checks = dict[str, tuple[tuple[str, str], ...]]
Alternatives = dict[str, tuple[str, ...]]


@cache
def rows() -> list[str]:
    """The record's rows, tab-separated, without its comment lines."""
    with open(RECORD, encoding="utf-8") as file:
        return [line for line in file.read().splitlines() if line and not line.startswith("#")]


@cache
def _of(arch: str) -> tuple[Checks, Alternatives]:
    """One architecture's rows (a -d reads one instruction's: only its architecture's rows
    are split)."""
    checks: Checks = {}
    alternatives: Alternatives = {}
    tag = f"\t{arch}\t"
    for line in rows():
        if tag not in line:
            continue
        kind, named, mnemonic, *rest = line.split("\t")
        if named != arch:
            continue
        if kind == "alternative":
            alternatives[mnemonic] = (*alternatives.get(mnemonic, ()), rest[0])
        else:  # check (source key, detail) or unchecked (none recorded)
            checks[mnemonic] = (*checks.get(mnemonic, ()),
                                *([(rest[0], rest[1])] if kind == "check" else []))
    return checks, alternatives


def checks_of(arch: str) -> Checks:
    """{mnemonic: its (source key, detail) pairs} of one architecture."""
    return _of(arch)[0]


def alternatives_of(arch: str) -> Alternatives:
    """{mnemonic: the texts of sources that place one of its elements otherwise}."""
    return _of(arch)[1]
