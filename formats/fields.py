"""The width of each register field of an instruction as the assembler writes it, as -d
prints it (the library's facts: matrix_library.facts.fields)."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.api import Description

FIELD_NAMES = {"vdst": "Vdst", "src0": "Src0", "src1": "Src1", "src2": "Src2",
               "scale_src0": "scale Src0", "scale_src1": "scale Src1"}


def field_line(fact: Description, wave: int) -> str:
    """One -d line: each field's width in VGPRs (a sparse instruction's Vdst is its C)."""
    widths = fact["fields"][str(wave)]
    return "    Assembler field widths (VGPRs): " + ", ".join(
        f"{FIELD_NAMES[name]} {width}" for name, width in widths.items())
