"""The library's door to preshuffled operands: the permutation of a stored matrix
that gives every lane of a wave its fragment of an instruction operand as contiguous,
aligned global loads, with the index formula both ways, a NumPy and a PyTorch function
and their inverses (as text: the calculator needs neither), the loads, the scale selects of
a supertile and the comparison with a named scheme (aiter, CK, the MI355X write-up).
The arguments are checked here (CalcError); the planner is matrix_plans.preshuffle.
matrix_api re-exports preshuffle().

    >>> import matrix_calculator as mc
    >>> inst = mc.find_instruction("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4")
    >>> plan = mc.preshuffle(inst, "B", mods={"cbsz": 4, "blgp": 4})
    >>> plan.load, plan.loads, plan.width
    ('global_load_dwordx4', 1, 16)
    >>> [t.select for t in mc.preshuffle(inst, "SB", supertile=(2, 2)).tiles]
    [0, 1, 2, 3]
"""


from __future__ import annotations

from instructions.model import Instruction
from instructions.preshuffles import GLOBAL_LOADS, Scheme
from instructions.record import Record, short_repr
from layouts import COORDINATES
from layouts.core import CalcError
from matrix_plans.preshuffle.chain import formula, numpy_source, torch_source
from matrix_plans.preshuffle.planner import Preshuffle, Tile, plan
from matrix_plans.preshuffle.presets import compare, scheme

from matrix_library.bounds import check_supertile
from matrix_library.checks import (
    instruction,
    lane_moves_of,
    matrix_name,
    modifiers,
    shown,
    wave_size,
    whole,
    with_formats,
)
from matrix_library.checks import operand as checked_operand
from matrix_library.records import Element, named

TYPE_CHECKING = False
if TYPE_CHECKING:  # (ModifierValues is an annotation-only alias of matrix_library.checks)
    from matrix_library.checks import ModifierValues

__all__ = ["PreshufflePlan", "PreshuffleSlot", "PresetVerdict", "parse_supertile",
           "preshuffle"]


class PreshuffleSlot(Record):
    """A value one lane loads: bits `bits` (lo, hi) of VGPR `register` (counted from the
    first VGPR the lane's loads fill) receive `element` (of the supertile block: its
    coordinates count from the block's first row and column) of tile `tile`, from
    `offset` (bits from the block's first byte in the buffer) by load number `load`."""
    lane: int
    register: int
    bits: tuple[int, int]
    element: Element
    tile: int
    offset: int
    load: int


class PresetVerdict(Record):
    """A named scheme against the plan: `agrees` item for item, or `k_only` (the
    same rows, K in another order: right only when A is shuffled the same way), or
    neither; `first`: the first difference; `region`: the stored items compared."""
    key: str
    title: str
    source: str
    code: str
    agrees: bool
    k_only: bool
    first: str
    region: tuple[int, int]


class PreshufflePlan(Record):
    """The answer of preshuffle(). The stored matrix is the operand's memory matrix (A
    M x K, B K x N, SA M x K/32, SB K/32 x N, the index M x K/4 codes), `order`-major
    (k_inner: K is contiguous) with leading dimension `ld` (elements); it is cut into
    blocks of `block` (outer, inner) elements (a supertile of R x C instruction tiles:
    R along M/N, C along K), each one run of `block_bytes` in the buffer, where every
    loading lane (`lanes`; `mirrors`: (lane, the lane whose bytes it loads too)) finds
    load t at t * len(lanes) * width + rank * width. `tiles`: (ir, ic, select, vgpr)
    of each tile: its selector value (`selector`: OPSEL of CDNA4's scale byte, the
    scale lane half of gfx1250, ...) and first VGPR. `formula`: the buffer index p of
    stored element (r, c) and back; `numpy`: Python text of preshuffle(x) and
    unpreshuffle(y) (reshape/transpose, no loop); `torch`: the same chain for PyTorch
    tensors (reshape/permute/contiguous)."""
    architecture: str
    instruction: str
    matrix: str
    wave: int
    element_bits: int
    order: str
    k_inner: bool
    ld: int
    tile: tuple[int, int]
    supertile: tuple[int, int]
    block: tuple[int, int]
    block_bytes: int
    width: int
    load: str
    loads: int
    lanes: tuple[int, ...]
    mirrors: tuple[tuple[int, int], ...]
    selector: str
    tiles: tuple[Tile, ...]
    slots: tuple[PreshuffleSlot, ...]
    formula: tuple[str, str]
    numpy: str
    torch: str
    preset: PresetVerdict | None
    engine: Preshuffle

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def parse_supertile(value: object) -> tuple[int, int]:
    """(R, C) from 'RxC' or a pair of whole numbers > 0."""
    if isinstance(value, str):
        parts = value.lower().split("x")
        if len(parts) == 2 and all(_digits(p.strip()) and int(p) > 0 for p in parts):
            return int(parts[0]), int(parts[1])
    elif isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and int.__index__(v) > 0
            for v in value):
        return int.__index__(value[0]), int.__index__(value[1])
    raise CalcError(f"a supertile is RxC (tiles along M/N x tiles along K, whole numbers > 0, "
                    f"e.g. 2x2), not {shown(value)}", "supertile")


def _digits(text: str) -> bool:
    """Whether `text` is a whole number in at most 9 ASCII digits (other scripts' digits
    and huge numbers are refused before int() reads them)."""
    return text.isascii() and text.isdigit() and len(text.lstrip("0")) <= 9


def _width(value: object, picked: Scheme | None) -> int | None:
    if value is None:
        return picked.width or None if picked else None
    if isinstance(value, str):
        for names in GLOBAL_LOADS.values():
            for width, name in names.items():
                if value.lower() in (name, name.replace("global_", "buffer_")):
                    return width
        if not _digits(value):
            known = ", ".join(GLOBAL_LOADS["ds_read_b"].values())
            raise CalcError(f"a load width is 1, 2, 4, 8, 12 or 16 bytes or a load ({known}, "
                            f"or their gfx11 names), not {shown(value)}", "load_width")
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int.__index__(value)
    raise CalcError(f"a load width is a whole number of bytes, not {shown(value)}", "load_width")


def preshuffle(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
               wave: int | None = None, load_width: object = None,
               supertile: object = (1, 1), order: str | None = None, ld: int | None = None,
               preset: str | None = None) -> PreshufflePlan:
    """The preshuffle of operand `matrix` (A, B, K, SA, SB) of `inst`, each lane loading
    `load_width` bytes at a time (1, 2, 4, 8, 12, 16 or a load's name; None: the widest
    that divides its bytes), for a `supertile` of R x C instruction tiles ('RxC'), the
    stored matrix `order`-major (row or col; None: K contiguous) with leading dimension
    `ld` (None: one block's). `preset`: a named scheme (instructions.preshuffles) to
    compare with; its load width and supertile are the defaults then."""
    inst = instruction(inst)
    moves = lane_moves_of(inst, "preshuffle plans")
    name = matrix_name(inst, matrix)
    if preset is not None and not isinstance(preset, str):
        raise CalcError(f"a preset is a scheme's name, not {shown(preset)}", "preset")
    picked = scheme(preset) if preset is not None else None
    if picked is not None and supertile == (1, 1):
        supertile = picked.supertile
    rows_cols = parse_supertile(supertile)
    values = modifiers(mods)
    checked = checked_operand(inst, name, mods=values, wave=wave)  # (the modifiers' legality)
    check_supertile(checked, rows_cols)  # (its size known before it is made)
    formatted = with_formats(inst, values)
    size = wave_size(inst, wave)
    if order is not None and order not in ("row", "col"):
        raise CalcError(f"the stored matrix is row- or col-major, not {shown(order)}", "order")
    width = _width(load_width, picked)
    if picked is not None and picked.width and supertile == picked.supertile == (1, 1):
        # a scheme loading more than one tile's bytes per lane: tiles along K make it up
        lane_bytes = plan(formatted, name, values, size, None, (1, 1), order).lane_bytes
        if picked.width > lane_bytes and picked.width % lane_bytes == 0:
            rows_cols = (1, picked.width // lane_bytes)
    found = plan(formatted, name, values, size, width, rows_cols, order)
    inner = found.block[1]
    stride = inner if ld is None else whole("ld", ld, "ld")
    if stride < inner or stride % inner:
        raise CalcError(f"--ld {stride}: a multiple of the block's {inner} elements is needed",
                        "ld")
    load = GLOBAL_LOADS[moves.load][found.width]
    if isinstance(load_width, str) and load_width.lower().startswith("buffer_"):
        load = load.replace("global_", "buffer_")  # (the same bytes through a descriptor)
    return PreshufflePlan(
        inst.arch, inst.name, name, size, found.bits, found.order, found.k_inner, stride,
        found.tile, found.supertile, found.block, found.block_bytes, found.width, load,
        found.loads, found.lanes, found.mirrors, found.selector, found.tiles,
        _slots(found, name), formula(found, stride), numpy_source(found),
        torch_source(found),
        _verdict(found, picked) if picked else None, found)


def _slots(found: Preshuffle, matrix: str) -> tuple[PreshuffleSlot, ...]:
    k_col = COORDINATES[matrix][1] == "k"
    per = found.width * 8
    out = []
    for s in found.slots:
        mn, k = (s.outer, s.inner) if found.k_inner else (s.inner, s.outer)
        row, col = (mn, k) if k_col else (k, mn)
        out.append(PreshuffleSlot(s.lane, s.bit // 32, (s.bit % 32, s.bit % 32 + found.bits - 1),
                                  named(matrix, row, col, 0), s.tile, s.offset, s.bit // per))
    return tuple(out)


def _verdict(found: Preshuffle, picked: Scheme) -> PresetVerdict:
    bits = max(8, found.bits)
    mn, k = found.tile if found.k_inner else found.tile[::-1]
    got = compare(found, picked, (mn, k * found.bits // bits))
    return PresetVerdict(picked.key, picked.title, picked.source, picked.code, got.agrees,
                         got.k_only, got.first, got.items)
