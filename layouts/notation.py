"""Text notation of registers and matrix elements, as the reference tool prints them.

v3{17}.[15:0]  VGPR 3, lane 17, bits 15..0     v[1:0]{5}  a 64-bit register pair
v[1:0]{3}.[35:30]  a value straddling two VGPRs (bits counted across the pair)
A[1][2].B4  element A[i=1][k=2] of block 4 (blocks are shown only when there are several)
"""
from __future__ import annotations

from instructions.record import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Elem, Place


def register(place: Place, lane: bool = True, whole: bool = False) -> str:
    """`whole`: print the full register even for a sub-dword value (sparse A on CDNA)."""
    reg, at, lo, width = place  # (a Place: unpacked at once, tables name thousands)
    try:
        name, bits = _SLOTS[reg, lo, width]
    except KeyError:
        name, bits = _SLOTS[reg, lo, width] = _slot(place)
    if lane:
        name = f"{name}{{{at}}}"
    return name if whole else name + bits


# (reg, lo, width) -> its text: tables name the same few slots in every lane
_SLOTS: dict[tuple[int, int, int], tuple[str, str]] = {}


def _slot(place: Place) -> tuple[str, str]:
    """(register name, bits suffix) of a place's slot: v3 / v[1:0], and .[15:0] or
    nothing (for a whole register or pair)."""
    first, last = place.regs[0], place.regs[-1]
    name = f"v{first}" if first == last else f"v[{last}:{first}]"
    whole = place.width % 32 == 0 and place.lo == 0
    return name, "" if whole else f".[{place.hi}:{place.lo}]"


def element(matrix: str, elem: Elem, blocks: int) -> str:
    row, col, block = elem
    return f"{matrix}[{row}][{col}].B{block}" if blocks > 1 else f"{matrix}[{row}][{col}]"


def marked(text: str, mark: str) -> str:
    """Decorate a register or element name with a negation / absolute-value mark."""
    if mark == "-":
        return "-" + text
    if mark == "|":
        return f"|{text}|"
    if mark == "-|":
        return f"-|{text}|"
    return text
