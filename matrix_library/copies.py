"""The library's door to copy plans: how a tile gets from global memory into LDS before
the read plan (matrix_library.lds) loads each lane's fragment. The arguments are checked
here (CalcError); the planners are matrix_plans.lds.copies (and matrix_plans.lds.tdm for
gfx1250's tensor data mover), the facts instructions.lds_copy. matrix_api re-exports
lds_copy() and lds_copy_search().

    >>> import matrix_calculator as mc
    >>> inst = mc.find_instruction("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4")
    >>> found = mc.lds_copy(inst, "A", tile="16x128", mods={"cbsz": 4}, lds_type="bf16",
    ...                     copy="buffer_load_dwordx4", load="ds_read_b128")
    >>> found.read.worst, found.copy.route
    (8, 'direct')
"""


from __future__ import annotations

from instructions.lds_copy import CopyFacts, CopyOp, copy_facts
from instructions.model import Instruction
from instructions.record import Record, short_repr
from layouts.core import CalcError
from matrix_plans.lds.copies import CopyPlan, Global, check, plan_copy
from matrix_plans.lds.fragment import Fragment
from matrix_plans.lds.reads import plan
from matrix_plans.lds.tdm import Descriptor, plan_tdm

from matrix_library.bounds import check_plan, check_waves
from matrix_library.checks import architecture_of, shown, whole
from matrix_library.checks import operand as checked_operand
from matrix_library.lds import (
    LdsPlan,
    checked_load,
    checked_model,
    checked_steps,
    checked_tile,
    lds_facts_of,
    lds_search,
    plan_record,
    stored_bits,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # (ModifierValues is an annotation-only alias of matrix_library.checks)
    from matrix_library.checks import ModifierValues

__all__ = ["CopyCandidate", "LdsCopy", "LdsCopySearch", "lds_copy", "lds_copy_search"]


class LdsCopy(Record):
    """The answer of lds_copy(): the tile's whole trip. `copy`: every copy instruction of
    every wave (matrix_plans.lds.copies.CopyPlan: lanes' global offsets and LDS addresses,
    segments, write phases); `read`: the read plan (matrix_library.lds.LdsPlan) of the same
    tile; `lds_type`: the stored type ('' when the operand's own); `tdm`: the tensor data
    mover's descriptor (None on other routes); `checked`: the copy was replayed element
    by element against the tile (matrix_plans.lds.copies.check); `buffer_word3`: word 3 of a raw
    buffer resource on this architecture (0: not recorded)."""
    architecture: str
    instruction: str
    matrix: str
    lds_type: str
    copy: CopyPlan
    read: LdsPlan
    tdm: Descriptor | None
    checked: bool
    buffer_word3: int = 0

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def _copy_ops(facts: CopyFacts, name: object) -> tuple[CopyOp, CopyOp | None]:
    """(load, write) named by 'LOAD[+WRITE]': a direct/async/tdm copy when LOAD names one
    (or ends in _lds), else a register route with WRITE (default: the write of the load's
    width)."""
    if not isinstance(name, str) or not name.strip():
        raise CalcError(f"--copy names a copy instruction, not {shown(name)}", "copy")
    text = name.strip().lower().replace(" ", "_")
    first, _, second = text.partition("+")
    direct = facts.direct(first) or (facts.direct(first[:-4]) if first.endswith("_lds")
                                     else None)
    if direct is not None and not second:
        return direct, None
    load = facts.op(first, "load")
    if load is None:
        names = sorted({op.name for op in facts.ops if op.route != "write"})
        raise CalcError(f"{facts.arch} has no copy instruction {shown(first)}; choose one of "
                        f"{', '.join(names)} (a load may take +WRITE, e.g. "
                        "global_load_dwordx4+ds_write_b64)", "copy")
    writes = [op for op in facts.ops if op.route == "write"]
    write = facts.op(second, "write") if second else next(
        (op for op in writes if op.bytes == load.bytes), None)
    if write is None:
        raise CalcError(f"{facts.arch} has no LDS write {shown(second)}; choose one of "
                        f"{', '.join(op.name for op in writes)}", "copy")
    return load, write


def _global(order: str | None, ld: object, k_axis: int, tile: object) -> Global:
    natural = "row" if (k_axis == 1) == (getattr(tile, "order", "k") == "k") else "col"
    chosen = order or natural
    if chosen not in ("row", "col"):
        raise CalcError(f"--global-order is row or col, not {shown(order)}", "global_order")
    glob = Global(chosen, 1, k_axis)
    rows, cols = glob.extent(tile)  # type: ignore[arg-type]
    need = cols if chosen == "row" else rows
    lead = need if ld is None else whole("ld", ld, "ld")
    if lead < need:
        raise CalcError(f"--ld {lead} is less than the tile's {need} elements per global "
                        f"{'row' if chosen == 'row' else 'column'}", "ld")
    return glob._replace(ld=lead)


def lds_copy(inst: Instruction, matrix: str, *, tile: object, copy: object, order: str = "k",
             pad: int = 0, swizzle: object = None, base: int = 0, load: str | None = None,
             k_steps: int = 1, model: str | None = None, mods: ModifierValues = None,
             wave: int | None = None, lds_type: str = "", global_order: str | None = None,
             ld: int | None = None, waves: int = 1, wave_split: str = "block",
             tdm_pad_interval: int | None = None, tdm_pad_amount: int | None = None
             ) -> LdsCopy:
    """The plan of copying operand `matrix`'s LDS tile (as lds_plan describes it) from
    global memory with `copy` ('LOAD[+WRITE]', a direct-to-LDS load, an async load or
    tensor_load_to_lds), by `waves` waves splitting the tile `wave_split` (block or
    interleave), the global tile stored by `global_order` (row or col; default: the
    tile's own order) with leading dimension `ld` elements; `lds_type`: the type the tile
    stores (default: the operand's); then the read plan of the same tile."""
    operand = checked_operand(inst, matrix, mods=mods, wave=wave)
    facts = lds_facts_of(inst)
    chosen = checked_model(facts, model)
    described = checked_tile(tile, order, pad, swizzle, base)
    steps = checked_steps(k_steps)
    check_plan(operand, steps)  # (its VGPRs bounded before it is made)
    bits = stored_bits(lds_type, operand.layout.width)
    frag = Fragment(operand, described, steps, bits if lds_type else 0)
    read = plan(operand, described, facts, chosen, checked_load(facts, load), steps, frag,
                with_slots=False)
    arch = architecture_of(inst).name
    cfacts = copy_facts(arch)
    if cfacts is None:
        raise CalcError(f"no copy facts are recorded for {inst.arch}")
    first, write = _copy_ops(cfacts, copy)
    count = check_waves(whole("waves", waves, "waves"), shown(waves), operand.wave)
    glob = _global(global_order, ld, frag.k_axis, described)
    write_model = cfacts.write_model or chosen
    tdm = None
    if first.route == "tdm":
        found, tdm = plan_tdm(described, bits, glob, first, count, tdm_pad_interval,
                              tdm_pad_amount, write_model)
    else:
        if tdm_pad_interval is not None or tdm_pad_amount is not None:
            raise CalcError("--tdm-pad-interval and --tdm-pad-amount describe "
                            "tensor_load_to_lds (--copy tensor_load_to_lds)", "copy")
        found = plan_copy(described, bits, glob, first, write, operand.wave, count,
                          wave_split, write_model)
    errors = check(found, described, glob) if first.route == "tdm" else []
    if errors:  # (plan_copy replays its own plans; a plan that does not is a bug: say so)
        raise CalcError("internal: the copy plan does not replay: " + "; ".join(errors[:3]))
    return LdsCopy(inst.arch, inst.name, operand.matrix, lds_type.lower(), found,
                   plan_record(operand.inst, operand.matrix, read, frag), tdm, True,
                   cfacts.buffer_word3)


# ---- the search: read conflicts, write conflicts, coalescing and bytes together

class CopyCandidate(Record):
    """One tile setting tried by lds_copy_search(): padding, swizzle (its --lds-swizzle
    text, '' for none), the read plan's worst conflict, the copy's worst write conflict,
    its coalescing (bytes used of the 128-byte segments it touches), the LDS bytes and
    the instructions per wave (copy and read); `failure`: why the copy or the read cannot
    be made ('' otherwise)."""
    pad: int
    swizzle: str
    read_worst: int
    write_worst: int
    coalescing: float
    lds_bytes: int
    instructions: int
    failure: str = ""

    @property
    def rank(self) -> tuple[int, int, float, int, int]:
        return (self.read_worst, self.write_worst, -self.coalescing, self.lds_bytes,
                self.instructions)


class LdsCopySearch(Record):
    """The answer of lds_copy_search(): the setting as given, the settings tried ranked
    best first (read conflicts, then write conflicts, then coalescing, then LDS bytes,
    then instructions), and what Triton's and CK's swizzle rules pick, with the same
    copy."""
    architecture: str
    instruction: str
    matrix: str
    copy: str
    given: CopyCandidate
    ranked: tuple[CopyCandidate, ...]
    triton: CopyCandidate
    ck: CopyCandidate

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def _tried(inst: Instruction, matrix: str, options: dict[str, object], pad: object,
           swizzle: object) -> CopyCandidate:
    text = ",".join(map(str, swizzle)) if isinstance(swizzle, tuple) else str(swizzle or "")
    try:
        found = lds_copy(inst, matrix, **{**options, "pad": pad,  # type: ignore[arg-type]
                                          "swizzle": text or None})
    except CalcError as error:
        return CopyCandidate(int(str(pad or 0)), text, 0, 0, 0.0, 0, 0, str(error))
    per_wave = sum(found.copy.per_wave().values()) + len(found.read.loads)
    return CopyCandidate(found.read.tile.pad, text, found.read.worst, found.copy.worst_write,
                         round(found.copy.coalescing(128).efficiency, 4),
                         found.read.lds_bytes, per_wave)


_READ_OPTIONS = ("tile", "order", "base", "load", "k_steps", "model", "mods", "wave", "pad",
                 "lds_type")


def lds_copy_search(inst: Instruction, matrix: str, *, limit: int = 16,
                    **options: object) -> LdsCopySearch:
    """The paddings and swizzles lds_search() finds conflict-free for the reads (the
    `limit` with the fewest LDS bytes), the setting given, and Triton's and CK's picks,
    each tried with the copy of `options` (lds_copy's arguments) and ranked by read
    conflicts, write conflicts, coalescing, LDS bytes and instructions together."""
    limit = whole("limit", limit, "limit")
    read = {k: v for k, v in options.items() if k in _READ_OPTIONS}
    search = lds_search(inst, matrix, **read)  # type: ignore[arg-type]
    ranked = sorted((c for c in (_tried(inst, matrix, options, f.pad, f.swizzle)
                                 for f in search.found[:limit]) if not c.failure),
                    key=lambda c: c.rank)
    return LdsCopySearch(
        inst.arch, inst.name, search.matrix, str(options.get("copy")),
        _tried(inst, matrix, options, options.get("pad", 0), options.get("swizzle")),
        tuple(ranked), _tried(inst, matrix, options, 0, search.triton.swizzle),
        _tried(inst, matrix, options, 0, search.ck.swizzle))
