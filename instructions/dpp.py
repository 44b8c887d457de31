"""DPP (data-parallel primitives) lane controls, as data.

A `v_mov_b32_dpp` reads its source from another lane picked by a control. Each control
below gives its assembler name, its `dpp_ctrl` code as LLVM encodes it (the `DppCtrl`
enumeration of llvm/lib/Target/AMDGPU/SIDefines.h, llvm/llvm-project @ 332b9e38: quad_perm
0x000-0x0FF, row_shl 0x101-0x10F, row_shr 0x111-0x11F, row_ror 0x121-0x12F, wave_shl 0x130,
wave_rol 0x134, wave_shr 0x138, wave_ror 0x13C, row_mirror 0x140, row_half_mirror 0x141,
row_bcast:15 0x142, row_bcast:31 0x143, row_newbcast/row_share 0x150-0x15F, row_xmask
0x160-0x16F) and the lane each lane reads. Which generation has which control is
instructions/lane_moves.py (facts B.2 of docs/facts/lds_and_lane_moves.md: L1 Tables
93/94, L11 printDPPCtrl).

The lane rules (a row is 16 lanes, a bank 4 lanes of a row; L1 Table 94, L11):
  quad_perm:[a,b,c,d]  lane l reads (l & ~3) + sel[l % 4], sel packed 2 bits per lane;
  row_shl:n / row_shr:n  lane l reads l + n / l - n when that lane is in l's row;
  row_ror:n            lane l reads its row's lane (l - n) mod 16;
  wave_shl:1, wave_shr:1  lane l reads l + 1 / l - 1 within the wave; wave_rol:1 and
                       wave_ror:1 wrap around;
  row_mirror, row_half_mirror  lane l reads 15 - l % 16 of its row / 7 - l % 8 of its 8;
  row_bcast:15         the lanes of row r > 0 read lane 16 r - 1 (row 0: not said);
  row_bcast:31         the lanes of rows 2 and 3 read lane 31 (rows 0 and 1: not said);
  row_newbcast:n (gfx90a+), row_share:n (gfx10+)  every lane of a row reads its lane n;
  row_xmask:n          lane l reads lane (l % 16) ^ n of its row;
  dpp8:[s0..s7] (gfx10+, its own encoding)  lane l reads (l & ~7) + s[l % 8].
A lane whose source lane is outside the rule (None below) is "invalid": with
bound_ctrl set (as the planner emits it) it gets 0 (L1 Table 93; LLVM AMDGPUUsage DPP
modifiers). The planner only uses lanes with a source; the emulation in
scripts/check_convert.py gives the lanes the rules do not name a poison value.
"""
from __future__ import annotations

from instructions.record import Record


class DppControl(Record):
    """One family of DPP controls: `code` is the dpp_ctrl of value `values[0]`, and
    value v is code + v - values[0] (quad_perm: the 8-bit selector code itself)."""
    name: str
    code: int
    values: tuple[int, ...]


_ONE_TO_15 = tuple(range(1, 16))
_ALL16 = tuple(range(16))

CONTROLS = {c.name: c for c in (
    DppControl("quad_perm", 0x000, tuple(range(256))),
    DppControl("row_shl", 0x101, _ONE_TO_15),
    DppControl("row_shr", 0x111, _ONE_TO_15),
    DppControl("row_ror", 0x121, _ONE_TO_15),
    DppControl("wave_shl", 0x130, (1,)),
    DppControl("wave_rol", 0x134, (1,)),
    DppControl("wave_shr", 0x138, (1,)),
    DppControl("wave_ror", 0x13C, (1,)),
    DppControl("row_mirror", 0x140, (0,)),
    DppControl("row_half_mirror", 0x141, (0,)),
    DppControl("row_bcast", 0x142, (15, 31)),
    DppControl("row_newbcast", 0x150, _ALL16),
    DppControl("row_share", 0x150, _ALL16),
    DppControl("row_xmask", 0x160, _ALL16),
)}


def dpp_ctrl(name: str, value: int) -> int:
    """The dpp_ctrl operand of control `name` with its value (LLVM's encoding)."""
    control = CONTROLS[name]
    if name == "row_bcast":
        return control.code + (value == 31)
    return control.code + value - control.values[0]


def dpp_source(name: str, value: int, lane: int, wave: int) -> int | None:
    """The lane that `lane` reads under control `name`:`value`, None when the rule gives
    none (an invalid or unnamed source)."""
    row, at = lane & ~15, lane & 15
    if name == "quad_perm":
        return (lane & ~3) + (value >> (2 * (lane & 3)) & 3)
    if name in ("row_shl", "row_shr", "row_ror") or name.startswith("wave_"):
        return _shifted(name, value, lane, wave)
    if name == "row_mirror":
        return row + 15 - at
    if name == "row_half_mirror":
        return (lane & ~7) + 7 - (lane & 7)
    if name == "row_bcast":
        if value == 15:
            return lane - at - 1 if row else None
        return 31 if lane >= 32 else None
    if name in ("row_newbcast", "row_share"):
        return row + value
    if name == "row_xmask":
        return row + (at ^ value)
    raise KeyError(name)


def _shifted(name: str, value: int, lane: int, wave: int) -> int | None:
    """dpp_source of the row and wave shifts and rotations."""
    row, at = lane & ~15, lane & 15
    if name in ("row_shl", "row_shr"):
        to = at + value if name == "row_shl" else at - value
        return row + to if 0 <= to < 16 else None
    if name == "row_ror":
        return row + (at - value) % 16
    to = lane + (1 if name in ("wave_shl", "wave_rol") else -1)
    if name in ("wave_rol", "wave_ror"):
        return to % wave
    return to if 0 <= to < wave else None


def dpp8_source(selectors: int, lane: int) -> int:
    """The lane that `lane` reads under dpp8 with `selectors` (3 bits per lane of 8)."""
    return (lane & ~7) + (selectors >> (3 * (lane & 7)) & 7)


def asm(name: str, value: int) -> str:
    """The control as the assembler writes it."""
    if name == "quad_perm":
        return "quad_perm:[" + ",".join(str(value >> (2 * k) & 3) for k in range(4)) + "]"
    if name in ("row_mirror", "row_half_mirror"):
        return name
    return f"{name}:{value}"
