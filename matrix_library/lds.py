"""The library's door to LDS read plans: which address each lane of a wave reads to load
an operand fragment from a tile in LDS, which banks each phase touches, and the settings
(padding, swizzle) that make the loads conflict-free. The arguments are checked here
(CalcError); the planner is matrix_plans.lds.reads, the facts instructions.lds.
matrix_api re-exports lds_plan() and lds_search(); the copy door (matrix_library.copies)
checks its read arguments with the checked_* functions of this module.

    >>> import matrix_calculator as mc
    >>> inst = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    >>> mc.lds_plan(inst, "A", tile="16x64", load="ds_read_b64").worst
    16
    >>> mc.lds_plan(inst, "A", tile="16x64", load="ds_read_b64", pad=4).worst
    1
"""

from __future__ import annotations

from collections.abc import Callable

from instructions.lds import LdsFacts, Load, PhaseModel, lds_facts
from instructions.model import TYPES, Instruction
from instructions.record import Record, short_repr, without_gc
from layouts.core import CalcError
from matrix_plans.lds.fragment import Fragment
from matrix_plans.lds.reads import named_slots, plan
from matrix_plans.lds.tile import LoadPlan, Plan, Tile, ck_swizzle, search_settings, triton_swizzle

from matrix_library.bounds import check_plan, check_search
from matrix_library.checks import architecture_of, lane_moves_of, shown, whole
from matrix_library.checks import operand as checked_operand
from matrix_library.records import Element, named

TYPE_CHECKING = False
if TYPE_CHECKING:  # (ModifierValues is an annotation-only alias of matrix_library.checks)
    from matrix_library.checks import ModifierValues

__all__ = ["LdsCandidate", "LdsPlan", "LdsSearch", "LdsSlot", "lds_facts_of", "lds_plan",
           "lds_search", "checked_load", "checked_model", "checked_steps", "checked_tile",
           "plan_record", "parse_swizzle", "parse_tile", "parse_xor", "stored_bits"]


class LdsSlot(Record):
    """A register slot and the element it receives: bits `bits` of VGPR `register` (from
    the operand's first) of `lane` get `element` of K step `step`, from byte `address`
    (bit `bit` of it for sub-byte elements), by load number `load`; `tile_at`: its (row,
    col) in the tile."""
    lane: int
    register: int
    bits: tuple[int, int]
    address: int
    bit: int
    element: Element
    step: int
    load: int
    tile_at: tuple[int, int] = (0, 0)


class LdsPlan(Record):
    """The answer of lds_plan(): the tile, the phase model, every load of the wave (each
    lane's address and bytes, the phases with their conflicts:
    matrix_plans.lds.tile.LoadPlan),
    every slot with the element it receives, the worst conflict of any phase (1 =
    conflict-free), an LDS cycle estimate and the notes (requirements, assumptions).
    `k_per_element`: the K values one tile element serves: 4 for a sparse instruction's
    A (stored compressed: an element is the values kept of 4 K) and its indices, else 1."""
    architecture: str
    instruction: str
    matrix: str
    wave: int
    element_bits: int
    k_steps: int
    k_run: int
    tile: Tile
    model: PhaseModel
    facts: LdsFacts
    loads: tuple[LoadPlan, ...]
    slots: tuple[LdsSlot, ...]
    worst: int
    cycles: int
    lds_bytes: int
    notes: tuple[str, ...]
    k_per_element: int = 1

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


class LdsCandidate(Record):
    """One tile setting tried by lds_search(): padding, swizzle, the load chosen, the LDS
    bytes, the number of load instructions, the worst conflict and the cycle estimate.
    `failure` says why no load works with it ('' otherwise)."""
    pad: int
    swizzle: tuple[int, int, int] | None
    load: str
    lds_bytes: int
    instructions: int
    worst: int
    cycles: int
    failure: str = ""


class LdsSearch(Record):
    """The answer of lds_search(): the plan as given (`given`), the conflict-free settings
    found (`found`, best first: fewest LDS bytes, then fewest instructions, then fewest
    cycles), and what Triton's and CK's swizzle formulas pick for this tile with their
    results."""
    architecture: str
    instruction: str
    matrix: str
    tile: Tile
    model: PhaseModel
    given: LdsCandidate
    found: tuple[LdsCandidate, ...]
    triton: LdsCandidate
    ck: LdsCandidate

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


# ---- argument checks

def parse_tile(text: object) -> tuple[int, int]:
    """(rows, cols) from 'ROWSxCOLS' or a pair of whole numbers."""
    if isinstance(text, str):
        parts = text.lower().split("x")
        if len(parts) == 2 and all(_digits(p.strip()) for p in parts):
            rows, cols = (int(p) for p in parts)
            if rows and cols:
                return rows, cols
    elif isinstance(text, (tuple, list)) and len(text) == 2:
        rows, cols = (_positive(v) for v in text)
        if rows and cols:
            return rows, cols
    raise CalcError(f"an LDS tile is ROWSxCOLS (whole numbers 1 to {_LARGEST} in ASCII "
                    f"digits, e.g. 16x64), not {shown(text)}", "tile")


_LARGEST = 1 << 30  # (a tile's side, a swizzle's number: far more than any LDS holds)


def _digits(text: str) -> bool:
    """Whether `text` is a whole number in ASCII digits, at most _LARGEST (checked on
    its digits before int() reads it: a 5,000-digit number is refused at once)."""
    digits = text.lstrip("0")
    return text.isascii() and text.isdigit() and len(digits) <= 10 \
        and int(digits or "0") <= _LARGEST


def _positive(value: object) -> int:
    """A whole number 1 to _LARGEST as a plain int (an int subclass's own arithmetic is
    not used), or 0 when `value` is none."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = int.__index__(value)
        return number if 0 < number <= _LARGEST else 0
    return 0


def parse_swizzle(value: object) -> tuple[int, int, int] | None:
    """(vec, per_phase, max_phase) from 'VEC,PER_PHASE,MAX_PHASE' or a triple; None."""
    if value is None:
        return None
    parts: list[int]
    if isinstance(value, str):
        parts = [int(p) if _digits(p.strip()) else 0 for p in value.split(",", 3)]
    elif isinstance(value, (tuple, list)):
        parts = [_positive(p) for p in value[:4]]
    else:
        parts = []
    if len(parts) == 3 and all(parts):
        vec, per_phase, max_phase = parts
        return vec, per_phase, max_phase
    raise CalcError(f"a swizzle is VEC,PER_PHASE,MAX_PHASE (three whole numbers 1 to "
                    f"{_LARGEST} in ASCII digits, e.g. 8,2,8), not {shown(value)}", "swizzle")


def parse_xor(value: object) -> tuple[tuple[int, int], ...]:
    """((dst, src), ...) from 'xor:DST^SRC,...' (byte-address bits, e.g. xor:4^8,5^9)."""
    pairs = []
    text = value[4:] if isinstance(value, str) else ""
    parts = text.split(",", 32)  # (at most 32 pairs: a bit is changed once)
    for part in parts if len(parts) <= 32 else ["too many"]:
        dst, _, src = part.strip().partition("^")
        if not (_digits(dst) and _digits(src) and int(dst) < 32 and int(src) < 32):
            raise CalcError(f"an XOR swizzle is xor:DST^SRC,... (at most 32 pairs of "
                            f"byte-address bits 0-31, e.g. xor:4^8,5^9,7^10), not "
                            f"{shown(value)}", "swizzle")
        pairs.append((int(dst), int(src)))
    return tuple(pairs)


def stored_bits(lds_type: str, width: int) -> int:
    """The bits of the type the tile stores (`lds_type`; '' or None: `width`, the
    operand's)."""
    if not lds_type:
        return width
    found = TYPES.get(str(lds_type).lower())
    if found is None:
        raise CalcError(f"--lds-type names a data type ({', '.join(sorted(TYPES))}), not "
                        f"{shown(lds_type)}", "lds_type")
    return found.bits


def lds_facts_of(inst: Instruction) -> LdsFacts:
    """The LDS facts (size, banks, loads, phase models) of `inst`'s architecture."""
    lane_moves_of(inst, "LDS plans")
    facts = lds_facts(architecture_of(inst).name)
    if facts is None:  # (every architecture has a row; a new one needs its own)
        raise CalcError(f"no LDS facts are recorded for {inst.arch}")
    return facts


def checked_model(facts: LdsFacts, key: str | None) -> PhaseModel:
    """The phase model `key` of `facts` (None: the architecture's default)."""
    model = facts.model(key)
    if model is None:
        keys = ", ".join(m.key for m in facts.models)
        raise CalcError(f"{facts.arch} has no phase model {shown(key)}; choose {keys}", "model")
    return model


def checked_load(facts: LdsFacts, name: str | None) -> Load | None:
    """The LDS load `name` of `facts` (None: the planner picks the widest)."""
    if name is None:
        return None
    load = facts.load(str(name))
    if load is None:
        names = ", ".join(known.name for known in facts.loads)
        raise CalcError(f"{facts.arch} has no LDS load {shown(name)}; choose one of {names}",
                        "load")
    return load


def checked_tile(tile: object, order: str, pad: object, swizzle: object, base: object) -> Tile:
    """The tile described by lds_plan's arguments (a swizzle 'xor:...' or a triple)."""
    rows, cols = parse_tile(tile)
    if order not in ("k", "mn"):
        raise CalcError(f"the tile order is k (K contiguous) or mn (M/N contiguous), "
                        f"not {shown(order)}", "order")
    padding = whole("pad", pad, "pad")
    start = whole("base", base, "base")
    if isinstance(swizzle, str) and swizzle.strip().lower().startswith("xor:"):
        return Tile(rows, cols, order, padding, None, start, parse_xor(swizzle.strip().lower()))
    return Tile(rows, cols, order, padding, parse_swizzle(swizzle), start)


def checked_steps(k_steps: object) -> int:
    """The number of consecutive K steps, 1 or more (as many as the VGPRs hold:
    bounds.check_plan)."""
    steps = whole("k_steps", k_steps, "k_steps")
    if steps < 1:
        raise CalcError(f"k_steps takes 1 or more, not {shown(k_steps)}", "k_steps")
    return steps


# ---- the plan

@without_gc
def lds_plan(inst: Instruction, matrix: str, *, tile: object, order: str = "k",
             pad: int = 0, swizzle: object = None, base: int = 0, load: str | None = None,
             k_steps: int = 1, model: str | None = None, mods: ModifierValues = None,
             wave: int | None = None, lds_type: str = "") -> LdsPlan:
    """The plan of loading operand `matrix` of `inst` (k_steps consecutive steps) from an
    LDS tile of `tile` = 'ROWSxCOLS' elements stored in `order` (k: rows of K values;
    mn: rows of M/N values), `pad` elements added per row, `swizzle` (vec, per_phase,
    max_phase), starting at byte `base`, with load instruction `load` (None: the widest
    that delivers the fragment), under phase model `model` (None: the architecture's
    default); `lds_type`: the type the tile stores when not the operand's (a bf16 tile
    each lane converts after its read: the slots are read at its width)."""
    operand = checked_operand(inst, matrix, mods=mods, wave=wave)
    facts = lds_facts_of(inst)
    chosen = checked_model(facts, model)
    described = checked_tile(tile, order, pad, swizzle, base)
    steps = checked_steps(k_steps)
    check_plan(operand, steps)  # (its size known before it is made)
    frag = Fragment(operand, described, steps, stored_bits(lds_type, 0) if lds_type else 0)
    found = plan(operand, described, facts, chosen, checked_load(facts, load), steps, frag,
                 with_slots=False)
    return plan_record(operand.inst, operand.matrix, found, frag)


class _Names(dict[tuple[int, int, int], "Element"]):
    """The library's name of each element (row, col, block) of `matrix`, made once: the
    K steps and lanes name it again."""

    def __init__(self, matrix: str) -> None:
        super().__init__()
        self.matrix = matrix

    def __missing__(self, element: tuple[int, int, int]) -> Element:
        found = self[element] = named(self.matrix, *element)
        return found


def plan_record(inst: Instruction, matrix: str, found: Plan, frag: Fragment) -> LdsPlan:
    """The library's record of a plan made without its slots (with_slots False) from
    `frag`: the slots named as the library names elements."""
    slots = named_slots(frag, found.loads, LdsSlot, _Names(matrix))
    return LdsPlan(inst.arch, inst.name, matrix, found.wave, found.element_bits,
                   found.k_steps, found.k_run, found.tile, found.model, found.facts,
                   found.loads, slots, found.worst, found.cycles, found.lds_bytes,
                   found.notes, found.share)


# ---- the search

def _candidate(plan_of: Callable[[int, tuple[int, int, int] | None], Plan], pad: int,
               swizzle: tuple[int, int, int] | None) -> LdsCandidate:
    try:
        found = plan_of(pad, swizzle)
    except CalcError as error:
        return LdsCandidate(pad, swizzle, "", 0, 0, 0, 0, str(error))
    return LdsCandidate(pad, swizzle, found.loads[0].load.name if found.loads else "",
                        found.lds_bytes, len(found.loads), found.worst, found.cycles)


@without_gc
def lds_search(inst: Instruction, matrix: str, *, tile: object, order: str = "k",
               base: int = 0, load: str | None = None, k_steps: int = 1,
               model: str | None = None, mods: ModifierValues = None, wave: int | None = None,
               pad: int = 0, swizzle: object = None, lds_type: str = "") -> LdsSearch:
    """Padding (0 to one row of 128 bytes more) and swizzle settings (powers of two) that
    make every load of the plan conflict-free, best first (fewest LDS bytes, then fewest
    load instructions, then fewest cycles); with the plan as given (pad, swizzle) and
    what Triton's and CK's formulas pick for this tile. `load` fixes the load
    instruction (None: the widest each setting allows)."""
    operand = checked_operand(inst, matrix, mods=mods, wave=wave)
    facts = lds_facts_of(inst)
    chosen = checked_model(facts, model)
    described = checked_tile(tile, order, pad, swizzle, base)
    fixed, steps = checked_load(facts, load), checked_steps(k_steps)
    check_plan(operand, steps)  # (the fragment's size bounded before it is made)
    frag = Fragment(operand, described, steps, stored_bits(lds_type, 0) if lds_type else 0)

    def plan_of(pad: int, swizzle: tuple[int, int, int] | None) -> Plan:
        return plan(operand, described._replace(pad=pad, swizzle=swizzle), facts, chosen,
                    fixed, steps, frag, with_slots=False)

    bits = frag.bits
    cols = described.cols
    settings = search_settings(bits, cols)
    check_search(operand, steps, len(settings) + 4, cols)  # (+ given, first, Triton, CK)
    given = _candidate(plan_of, described.pad, described.swizzle)
    tried = [_candidate(plan_of, pad_elems, swizzled) for pad_elems, swizzled in settings]
    free = [c for c in tried if not c.failure and c.worst == 1]
    free.sort(key=lambda c: (c.lds_bytes, c.instructions, c.cycles,
                             c.swizzle is not None, c.pad, c.swizzle or (0, 0, 0)))
    first = plan_of(0, None) if not given.failure else None
    vec = (first.k_run * first.k_steps) if first else 1
    wmma = inst.kind in ("wmma", "swmmac")
    triton = _candidate(plan_of, 0, triton_swizzle(facts, inst.m, wmma, bits, cols, vec,
                                                   described.order))
    ck = _candidate(plan_of, 0, ck_swizzle(bits, cols, described.order))
    return LdsSearch(inst.arch, inst.name, operand.matrix, described, chosen, given,
                     tuple(free), triton, ck)

