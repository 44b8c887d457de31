#!/usr/bin/env python3
"""Rewrite the table of docs/usage.md that says what each modifier value does, per layout
family, from the library (matrix_library.modifier_values.family_table): run it after a
change to the modifier table, a range function or a generator;
tests/library/test_modifier_values.py fails until the page matches.

    python3 scripts/write_modifier_table.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from matrix_library.modifier_values import family_table

BEGIN = "<!-- modifier values: written by scripts/write_modifier_table.py -->\n"
END = "<!-- end of modifier values -->\n"
PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "usage.md")


def main() -> int:
    with open(PAGE, encoding="utf-8") as handle:
        text = handle.read()
    before, rest = text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    with open(PAGE, "w", encoding="utf-8") as handle:
        handle.write(before + BEGIN + family_table() + END + after)
    return 0


if __name__ == "__main__":
    sys.exit(main())
