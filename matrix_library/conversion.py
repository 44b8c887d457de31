"""The library's door to conversions between instructions and ports of another
architecture's fragments: the arguments are checked here (CalcError), the plans come from
matrix_plans.convert; matrix_api re-exports `conversion(...)` and `port(...)`.

    >>> import matrix_calculator as mc
    >>> mfma = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    >>> mc.conversion(mfma, "D", mfma, "B").kind
    'in-lane'
    >>> mc.conversion(mfma, "D", mfma, "A").kind
    'cross-lane'

A conversion moves the D (or C) fragments of one instruction into the A or B
fragments of the next (matrix_plans/convert/planner.py has the tile rule and the planner). The
record says, for every destination slot, where its element comes from and how far it
moves, and lists the instructions that do it with their counts; `advice` lists the
cheaper plans that swapping a product's operands gives.
"""


from __future__ import annotations

from instructions.model import Instruction
from instructions.modifiers import MODIFIERS
from instructions.record import Record, short_repr, without_gc
from layouts.core import CalcError
from layouts.legality import rule
from matrix_plans.convert.planner import CLASSES, Plan, Trips, plan, plan_within
from matrix_plans.convert.port import SAME_ROLE, port_plan

from matrix_library.checks import architecture_of, flag, lane_moves_of, shown, wave_size
from matrix_library.checks import modifiers as checked_modifiers
from matrix_library.checks import operand as checked_operand

TYPE_CHECKING = False
if TYPE_CHECKING:  # (ModifierValues is an annotation-only alias of matrix_library.checks)
    from matrix_library.checks import ModifierValues

__all__ = ["Advice", "Conversion", "ConversionMove", "SourceSlot", "Step", "conversion"]

SOURCES = ("C", "D")
DESTINATIONS = ("A", "B")


class SourceSlot(Record):
    """Bits (lo, hi) of `register` of `lane` of source fragment `fragment`, and the
    source element it holds (e.g. D[3][5])."""
    fragment: int
    lane: int
    register: int
    bits: tuple[int, int]
    element: str


class ConversionMove(Record):
    """One destination slot, the element it receives and where that comes from;
    `kind` is none, in-lane or cross-lane."""
    fragment: int
    lane: int
    register: int
    bits: tuple[int, int]
    element: str
    source: SourceSlot
    kind: str


class Step(Record):
    """`times` issues of `instruction`, for `purpose`."""
    instruction: str
    times: int
    purpose: str


class Advice(Record):
    """A cheaper way: what to change (`change`) and the plan it gives."""
    change: str
    conversion: Conversion

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


class Conversion(Record):
    """The plan of moving `source_matrix` of `source` (source_fragments fragments) into
    `destination_matrix` of `destination` (fragments fragments): `kind` (none,
    in-lane or cross-lane), every destination slot's move, the instructions (`steps`,
    `total` of them), the `route` (registers, or a round trip through `lds_bytes` of
    LDS per wave), and `advice`. `transposed`: the source instruction computed D^T
    (its A and B swapped). `plan` is the engine's plan (its program, for emitters)."""
    architecture: str
    source: Instruction
    source_matrix: str
    destination: Instruction
    destination_matrix: str
    wave: int
    transposed: bool
    kind: str
    fragments: int
    source_fragments: int
    moves: tuple[ConversionMove, ...]
    steps: tuple[Step, ...]
    total: int
    route: str
    lds_bytes: int
    conversion: str
    advice: tuple[Advice, ...]
    plan: Plan

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def _purpose(name: str) -> str:
    if name.startswith(("v_cvt", "v_pack", "v_bfe", "v_add3", "v_cmp")):
        return "convert and pack"
    if name == "v_perm_b32":
        return "repack within the lane"
    if name.startswith(("v_permlane", "ds_bpermute")):
        return "move between lanes"
    if name == "v_cndmask_b32":
        return "choose per lane"
    if name.startswith(("ds_write", "ds_store")):
        return "store to LDS"
    if name.startswith(("ds_read", "ds_load")):
        return "load from LDS"
    if name == "s_waitcnt":
        return "wait for LDS"
    return "lane addresses"


def _check(inst: object, matrix: object, allowed: tuple[str, ...], side: str) -> str:
    # (architecture_of raises CalcError for anything but an Instruction)
    architecture_of(inst)  # type: ignore[arg-type]
    name = matrix.upper() if isinstance(matrix, str) else None
    if name not in allowed:
        raise CalcError(f"the {side} of a conversion is {' or '.join(allowed)}, not "
                        f"{shown(matrix)}")
    assert name is not None
    return name


def _operand(inst: Instruction, matrix: str, mods: ModifierValues, wave: int | None,
             output: bool) -> object:
    operand = checked_operand(inst, matrix, mods=mods, wave=wave, output_calc=output)
    if operand.block_source is not None or operand.remapped and not _permutes(operand):
        raise CalcError(f"the modifiers given broadcast lanes or blocks of {matrix} of "
                        f"{inst.name}: several of its slots then read one value, which a D "
                        "fills only when those values are equal; drop --cbsz/--abid/--blgp "
                        "(a lane rotation such as BLGP 3 is planned)")
    if inst.sparse and matrix == "A":
        raise CalcError(f"A of {inst.name} is sparse: it holds two of every four K values, "
                        "chosen at run time by the indices, so which D values go where is "
                        "not known when the code is written; a conversion fills dense "
                        "operands only")
    return operand


def _permutes(operand: object) -> bool:
    """A lane remapping that only permutes (BLGP 3's rotation): every slot the hardware
    reads serves one element, so the conversion can fill it."""
    rows, cols = operand.shape[0], operand.shape[1]  # type: ignore[attr-defined]
    seen = set()
    for r in range(rows):
        for c in range(cols):
            for place in operand.places(r, c):  # type: ignore[attr-defined]
                key = (place.lane, place.reg, place.lo)
                if key in seen:
                    return False
                seen.add(key)
    return True


def _element(matrix: str, row: int, col: int) -> str:
    return f"{matrix}[{row}][{col}]"


@without_gc
def conversion(src_inst: Instruction, src_matrix: str, dst_inst: Instruction,
               dst_matrix: str, *, mods: ModifierValues = None,
               src_mods: ModifierValues = None, dst_mods: ModifierValues = None,
               wave: int | None = None, transposed: bool = False,
               advice: bool = True, route: str | None = None) -> Conversion:
    """Plan moving `src_matrix` (C or D) of `src_inst` into `dst_matrix` (A or B) of
    `dst_inst`, both of one architecture, in wave size `wave` (None: the default).
    `mods` apply to both instructions, `src_mods` / `dst_mods` to one side instead.
    `transposed`: the source instruction computed D^T = B^T A^T (operands swapped).
    With `advice`, the plans of swapped products that are better (a lower class, or
    at most 3/4 of the instructions) are listed too. `route` "registers" or "lds"
    forces that route of a cross-lane plan (None: the one with fewer instructions)."""
    source = _check(src_inst, src_matrix, SOURCES, "source")
    target = _check(dst_inst, dst_matrix, DESTINATIONS, "destination")
    lane_moves_of(src_inst, "conversion plans")
    flag("transposed", transposed)
    flag("advice", advice)
    if route is not None and (type(route) is not str or route not in ("registers", "lds")):
        raise CalcError(f"the route of a conversion is registers or lds, not {shown(route)}")
    size = wave_size(src_inst, wave)
    wave_size(dst_inst, size)
    src_op = _operand(src_inst, source, src_mods if src_mods is not None else mods, size, True)
    dst_op = _operand(dst_inst, target, dst_mods if dst_mods is not None else mods, size,
                      False)
    trips: Trips = {}  # (LDS round trips the plans below share)
    made = plan(src_op, dst_op, transposed, route, trips)  # type: ignore[arg-type]
    found = _record(made, src_inst, source, dst_inst, target, size, transposed, ())
    if not advice or made.kind == "none":
        return found
    better = []  # (plan, its matrix, transposed, the change): records only for those kept
    for flip, other in ((not transposed, target), (not transposed, _other(target)),
                        (transposed, _other(target))):
        try:
            given = dst_mods if dst_mods is not None else mods
            alt_op = _operand(dst_inst, other, given if other == target else
                              _swapped(dst_inst, given, size), size, False)
            # (None: a worse class, or the same in more than 3/4 of the instructions)
            alt = plan_within(src_op, alt_op, flip, made.kind,  # type: ignore[arg-type]
                              most=3 * made.total // 4, trips=trips)
        except CalcError:
            continue
        # better: a lower class, or the same class in at most 3/4 of the instructions
        if alt is not None and (CLASSES.index(alt.kind) < CLASSES.index(made.kind) or
                                alt.kind == made.kind and 4 * alt.total <= 3 * made.total):
            swap_next = other != target
            better.append((alt, other, flip, _change(
                src_inst, dst_inst, (flip != transposed) != swap_next, swap_next)))
    better.sort(key=lambda a: (CLASSES.index(a[0].kind), a[0].total, a[3].count("; and")))
    kept: list[Advice] = []
    for alt, other, flip, change in better:  # one change per outcome: the simplest
        if not any((k.conversion.kind, k.conversion.total) == (alt.kind, alt.total)
                   for k in kept):
            kept.append(Advice(change, _record(alt, src_inst, source, dst_inst, other, size,
                                               flip, ())))
    return found._replace(advice=tuple(kept))


def _swapped(inst: Instruction, mods: ModifierValues, wave: int) -> dict[str, int]:
    """The destination's modifiers for its other operand: the tile keeps its format and
    signedness (CBSZ <-> BLGP or matrix_a_fmt <-> matrix_b_fmt where they pick formats;
    the A and B bits of a mask the modifier table's `negation` names, where the
    instruction's rule says the mask picks the signedness of integers)."""
    given = checked_modifiers(mods)
    values = dict(given._asdict())
    fields = inst.format_fields
    if fields:
        values[fields[0]], values[fields[1]] = values[fields[1]], values[fields[0]]
    for spec in MODIFIERS:
        found = rule(spec, inst, given, wave) if spec.negation else None
        if found is None or found.meaning != "signed":
            continue
        bit = {matrix: 1 << i for i, (matrix, _) in enumerate(spec.negation)}
        a, b, bits = bit["A"], bit["B"], values[spec.name]
        values[spec.name] = bits & ~(a | b) | (b if bits & a else 0) | (a if bits & b else 0)
    return {k: v for k, v in values.items() if v}


def _other(matrix: str) -> str:
    return "B" if matrix == "A" else "A"


def _change(src: Instruction, dst: Instruction, flip: bool, swap: bool) -> str:
    parts = []
    if flip:
        parts.append(f"issue {src.name} with its A and B swapped (it then computes "
                     "D^T = B^T A^T)")
    if swap:
        parts.append(f"compute the next product transposed with {dst.name} (C^T = B^T A^T), "
                     "so that this tile is its other operand")
    return "; and ".join(parts)


class _Names(dict[tuple[int, int], str]):
    """The names of the elements of a matrix by (row, col) (e.g. D[3][5]), each written
    once: plans name the same elements again and again."""

    def __init__(self, matrix: str) -> None:
        super().__init__()
        self.matrix = matrix

    def __missing__(self, at: tuple[int, int]) -> str:
        found = self[at] = _element(self.matrix, *at)
        return found


_NAMES: dict[str, _Names] = {}


def _names(matrix: str) -> _Names:
    names = _NAMES.get(matrix)
    if names is None:
        names = _NAMES[matrix] = _Names(matrix)
    return names


def _record(made: Plan, src: Instruction, source: str, dst: Instruction, target: str,
            wave: int, transposed: bool, advice: tuple[Advice, ...]) -> Conversion:
    new = tuple.__new__  # (records built directly, the slots unpacked: a plan has thousands)
    origins: dict[object, SourceSlot] = {}
    moves: list[ConversionMove] = []
    append = moves.append
    source_names, target_names = _names(source), _names(target)
    for to, element, at, source_element, kind in made.moves:
        key = (at, source_element)
        origin = origins.get(key)
        if origin is None:
            fragment, lane, reg, lo, width = at
            origin = origins[key] = new(SourceSlot, (
                fragment, lane, reg, (lo, lo + width - 1), source_names[source_element]))
        fragment, lane, reg, lo, width = to
        append(new(ConversionMove, (fragment, lane, reg, (lo, lo + width - 1),
                                    target_names[element], origin, kind)))
    steps = tuple(Step(name, count, _purpose(name)) for name, count in made.counts)
    return Conversion(src.arch, src, source, dst, target, wave, transposed, made.kind,
                      made.fragments, made.source_fragments, tuple(moves), steps, made.total,
                      made.route, made.lds_bytes, made.conversion, advice, made)


@without_gc
def port(src_inst: Instruction, src_matrix: str, dst_inst: Instruction, dst_matrix: str, *,
         wave: int | None = None, route: str | None = None) -> Conversion:
    """Plan porting `src_matrix` of `src_inst` (another architecture's fragment, NVIDIA's
    as a CUDA kernel holds it) into the same matrix's operand `dst_matrix` of `dst_inst`,
    on `dst_inst`'s architecture in its wave size `wave` (matrix_plans/convert/port.py: the
    tile rule, warps per wave). The record is a Conversion of that architecture."""
    source = _check(src_inst, src_matrix, tuple(SAME_ROLE), "source")
    target = _check(dst_inst, dst_matrix, tuple(SAME_ROLE), "destination")
    if target not in SAME_ROLE[source]:
        raise CalcError(f"a port moves a matrix into the same matrix: {source} of "
                        f"{src_inst.name} goes into {' or '.join(SAME_ROLE[source])}, not "
                        f"{target}")
    if src_inst.arch == dst_inst.arch:
        raise CalcError("a port moves another architecture's fragment: for two instructions "
                        f"of {src_inst.arch}, plan a conversion (D into A or B)")
    lane_moves_of(dst_inst, "port plans")
    size = wave_size(dst_inst, wave)
    src_op = _operand(src_inst, source, None, src_inst.wave_sizes[0], source == "D")
    dst_op = _operand(dst_inst, target, None, size, target == "D")
    made = port_plan(src_op, dst_op, route)  # type: ignore[arg-type]
    found = _record(made, src_inst, source, dst_inst, target, size, False, ())
    return found._replace(architecture=dst_inst.arch)
