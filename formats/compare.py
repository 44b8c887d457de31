"""Renderers of a Comparison (matrix_library/compare.py): text, and the JSON
document."""
from __future__ import annotations

from formats.detail import formula_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

    from matrix_library.answers import Section
    from matrix_library.compare import Comparison


def _side(inst: Instruction, wave: int) -> str:
    return f"{inst.arch} {inst.name} (wave {wave})"


def text(comp: Comparison) -> str:
    first, second = _side(comp.first, comp.first_wave), _side(comp.second, comp.second_wave)
    lines = [f"Architecture: {comp.first.arch}", f"Instruction: {comp.first.name}",
             f"Compared with: {second}",
             f"{comp.matrix} elements both have: {comp.rows} x {comp.cols}; each line: "
             f"element = {comp.first.arch} places | {comp.second.arch} places"]
    lines += [f"{c.element} = {', '.join(c.first)} | {', '.join(c.second)}" for c in comp.cells]
    for side, (forward, backward) in zip((first, second), comp.formulas):
        lines += formula_lines(f"{side}: element to register", forward)
        lines += formula_lines(f"{side}: register to element", backward)
    return "\n".join(lines) + "\n"


def document(comp: Comparison) -> dict[str, object]:
    def side(inst: Instruction, wave: int, section: Section) -> dict[str, object]:
        forward, backward = section
        return {"architecture": inst.arch, "instruction": inst.name,
                "wave": wave, "formulas": {"element_to_register": [list(x) for x in forward],
                                           "register_to_element": [list(x) for x in backward]}}
    return {"schema_version": 1, "mode": "compare", "matrix": comp.matrix,
            "rows": comp.rows, "cols": comp.cols,
            "first": side(comp.first, comp.first_wave, comp.formulas[0]),
            "second": side(comp.second, comp.second_wave, comp.formulas[1]),
            "cells": [{"element": c.element, "row": c.row, "col": c.col,
                       "first": list(c.first), "second": list(c.second)} for c in comp.cells]}
