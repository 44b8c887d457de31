"""`--compare ARCH:INSTRUCTION` on the command line (its Request, and the output of its
answer; the mode's row is --convert's, convert_mode.py): the matrix (-A, -B,
-C or -D) of -a/-i beside the same matrix of another architecture's instruction, element
by element (-I/-J/-K pick one), with both layouts' formulas; --json prints the document.

    matrix_calculator.py -a sm80 -i mma.m16n8k16.f32.f16.f16.f32 -D \
        --compare gfx1100:v_wmma_f32_16x16x16_f16
"""
from __future__ import annotations

import json

from formats import compare

from matrix_frontends.cli.options import Args, number
from matrix_library import api as mc
from matrix_library.checks import shown
from matrix_library.compare import Comparison
from matrix_library.request import Request

USAGE = "--compare takes ARCH:INSTRUCTION (e.g. gfx1100:v_wmma_f32_16x16x16_f16)"


def compare_request(args: Args) -> Request:
    """The Request of a --compare command line (CalcError naming the bad value)."""
    given = args.text("compare") or ""
    if given.count(":") != 1:
        raise mc.CalcError(f"{USAGE}, not {shown(given)}")
    other_arch, other_name = given.split(":")
    for name in ("architecture", "instruction"):
        if args.text(name) is None:
            raise mc.CalcError(f"--compare needs -a and -i (the first instruction); {USAGE}")
    first = mc.find_instruction(mc.find_architecture(str(args.text("architecture"))),
                                str(args.text("instruction")))
    second = mc.find_instruction(mc.find_architecture(other_arch), other_name)
    matrices = [m for m in "ABCD" if getattr(args, m, False)]
    if len(matrices) != 1:
        raise mc.CalcError("--compare shows one matrix: give one of -A, -B, -C, -D")
    matrix = matrices[0]
    row, col = (("i", "k") if matrix == "A" else ("k", "j") if matrix == "B" else ("i", "j"))
    picked = [args.given(row), args.given(col)]
    element = None
    if any(picked):
        element = (number(args, row) or 0, number(args, col) or 0)
    return Request("compare", first.architecture, first, matrix,
                   wave=number(args, "wavefront") or 0,
                   options=(("other", second), ("element", element)))


def render_compare(comp: Comparison, args: Args) -> str:
    """The comparison as text, or its --json document."""
    if getattr(args, "json", False):
        return json.dumps(compare.document(comp), indent=2) + "\n"
    return compare.text(comp)
