"""The verification record of every instruction, read from verification_checks.tsv
beside this module (written by scripts/record_verification.py from the repository's
recorded data): CHECKS, the (source key, detail) pairs of each instruction, and
ALTERNATIVES, the texts of the sources that place one of its elements otherwise. Read by
instructions/verification.py (-d --verification, --filter checked=)."""
from __future__ import annotations

import os

# (os.path, not pathlib: -d reads the record, and a point query imports no more than it
# needs: tests/structure/test_startup.py)
RECORD = os.path.join(os.path.dirname(__file__), "verification_checks.tsv")


def _read() -> tuple[dict[str, dict[str, tuple[tuple[str, str], ...]]],
                     dict[str, dict[str, tuple[str, ...]]]]:
    checks: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {}
    alternatives: dict[str, dict[str, tuple[str, ...]]] = {}
    with open(RECORD, encoding="utf-8") as file:
        text = file.read()
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, arch, mnemonic, *rest = line.split("\t")
        if kind == "alternative":
            table = alternatives.setdefault(arch, {})
            table[mnemonic] = (*table.get(mnemonic, ()), rest[0])
        else:  # check (source key, detail) or unchecked (none recorded)
            entry = checks.setdefault(arch, {})
            entry[mnemonic] = (*entry.get(mnemonic, ()),
                               *([(rest[0], rest[1])] if kind == "check" else []))
    return checks, alternatives


CHECKS, ALTERNATIVES = _read()
