"""Text notation of registers and matrix elements, as the reference tool prints them.

v3{17}.[15:0]  VGPR 3, lane 17, bits 15..0     v[1:0]{5}  a 64-bit register pair
v[1:0]{3}.[35:30]  a value straddling two VGPRs (bits counted across the pair)
A[1][2].B4  element A[i=1][k=2] of block 4 (blocks are shown only when there are several)
"""
from __future__ import annotations

from instructions.record import TYPE_CHECKING

from .core import Place

if TYPE_CHECKING:
    from .core import Elem


def register(place: Place, lane: bool = True, whole: bool = False) -> str:
    """`whole`: print the full register even for a sub-dword value (sparse A on CDNA)."""
    reg, at, lo, width = place  # (a Place: unpacked at once, tables name thousands)
    name, bits = slot_parts(reg, lo, width)
    if lane:
        name = f"{name}{{{at}}}"
    return name if whole else name + bits


# (reg, lo, width) -> its text: tables name the same few slots in every lane
_SLOTS: dict[tuple[int, int, int], tuple[str, str]] = {}


def slot_parts(reg: int, lo: int, width: int) -> tuple[str, str]:
    """(register name, bits suffix) of the slot of `width` bits at bit `lo` of VGPR
    `reg`: v3 / v[1:0], and .[15:0] or nothing (a whole register or pair). A place's
    text is the name, its lane in braces, then the suffix: v3{17}.[15:0]."""
    try:
        return _SLOTS[reg, lo, width]
    except KeyError:
        pass
    place = Place(reg, 0, lo, width)
    last = place.regs[-1]
    name = f"v{reg}" if last == reg else f"v[{last}:{reg}]"
    whole = width % 32 == 0 and lo == 0
    parts = _SLOTS[reg, lo, width] = name, "" if whole else f".[{place.hi}:{lo}]"
    return parts


def element(matrix: str, elem: Elem, blocks: int) -> str:
    row, col, block = elem
    return f"{matrix}[{row}][{col}].B{block}" if blocks > 1 else f"{matrix}[{row}][{col}]"


# What a negation / absolute-value mark puts before and after a name
_MARKS = {"": ("", ""), "-": ("-", ""), "|": ("|", "|"), "-|": ("-|", "|")}


def mark_parts(mark: str) -> tuple[str, str]:
    """(before, after) a name that `mark` ("", "-", "|" or "-|") decorates."""
    return _MARKS[mark]


def marked(text: str, mark: str) -> str:
    """Decorate a register or element name with a negation / absolute-value mark."""
    before, after = _MARKS[mark]
    return f"{before}{text}{after}"
