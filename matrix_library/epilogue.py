"""The library's door to epilogue store plans: storing an instruction's D, converted
or not, into a row- or column-major global tile: the direct stores, and the routes
through LDS (plain reads, and transpose reads such as gfx950's ds_read_b64_tr_b16),
with instruction counts, LDS bytes, bank conflicts and coalescing; the cheapest route
is chosen. The arguments are checked here (CalcError); the planner is
matrix_plans.epilogue. matrix_api re-exports store_plan().

    >>> import matrix_calculator as mc
    >>> inst = mc.find_instruction("cdna4", "v_mfma_f32_16x16x32_bf16")
    >>> plan = mc.store_plan(inst, store_type="bf16")
    >>> plan.chosen.name, plan.chosen.counts
    ('lds-transpose', (('ds_write_b64', 1), ('ds_read_b64_tr_b16', 1), ('global_store_dwordx2', 1)))
"""


from __future__ import annotations

from instructions.model import Instruction
from instructions.record import Record, short_repr
from layouts.core import CalcError
from matrix_plans.epilogue import Epilogue, Route, pack_issues, plan, type_bits

from matrix_library.checks import architecture_of, instruction, lane_moves_of, shown, whole
from matrix_library.checks import operand as checked_operand
from matrix_library.filters import type_key

TYPE_CHECKING = False
if TYPE_CHECKING:  # (ModifierValues is an annotation-only alias of matrix_library.checks)
    from matrix_library.checks import ModifierValues

__all__ = ["StorePlan", "store_plan"]

# the stored types with a conversion of f32 into them in the packs of
# instructions.lane_moves (their `to` keys), and the D type itself
STORE_TYPES = ("f32", "f16", "bf16", "fp8", "bf8", "i32")


class StorePlan(Record):
    """The answer of store_plan(): D of `instruction` as `store_type` values into an
    `order`-major tile with leading dimension `ld` (elements); `pack`: the conversion's
    instructions per lane (empty: none); `routes`: each route (matrix_plans.epilogue.Route:
    instruction counts per wave, LDS bytes, the worst conflict of each LDS access, the
    128-byte segments of each global store instruction, every lane's stores with the
    elements they write, the cost, or why the route is refused); `chosen`: the
    cheapest route."""
    architecture: str
    instruction: str
    wave: int
    store_type: str
    bits: int
    order: str
    ld: int
    shape: tuple[int, int]
    pack: tuple[str, ...]
    routes: tuple[Route, ...]
    chosen: Route
    engine: Epilogue

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def store_plan(inst: Instruction, *, mods: ModifierValues = None, wave: int | None = None,
               store_type: str | None = None, order: str = "row",
               ld: int | None = None, route: str | None = None) -> StorePlan:
    """The epilogue store plan of `inst`'s D as `store_type` (None: D's own type) into
    an `order`-major (row or col) global tile with leading dimension `ld` (None: the
    tile's own width). `route` (direct, lds, lds-transpose) takes that route instead of
    the cheapest (CalcError when it is not possible)."""
    inst = instruction(inst)
    lane_moves_of(inst, "epilogue store plans")
    operand = checked_operand(inst, "D", mods=mods, wave=wave)
    frm = operand.inst.out_type.key
    if store_type is not None and not isinstance(store_type, str):
        raise CalcError(f"a store type is a name, not {shown(store_type)}", "store_type")
    if not isinstance(order, str) or (route is not None and not isinstance(route, str)):
        raise CalcError(f"order and route are names, not {shown(order)} and {shown(route)}",
                        "order")
    to = type_key(store_type or frm, STORE_TYPES)  # (any spelling: fp16, e4m3, int32)
    if to is None:
        raise CalcError(f"--store-type {shown(store_type)}: use one of "
                        + ", ".join(STORE_TYPES), "store_type")
    if type(order) is not str or order not in ("row", "col"):
        raise CalcError(f"the global tile is row- or col-major, not {shown(order)}", "order")
    stride = None if ld is None else whole("ld", ld, "ld")
    arch = architecture_of(inst).name
    bits = type_bits(to)
    values = operand.register_count * 32 // operand.layout.width
    pack = pack_issues(arch, frm, to, values)
    found = plan(operand, arch, bits, order, stride, pack)
    chosen = found.chosen
    if route is not None:
        named = [r for r in found.routes if r.name == route]
        if not named:
            raise CalcError(f"route {shown(route)}: the routes are "
                            + ", ".join(r.name for r in found.routes), "route")
        if named[0].refused:
            raise CalcError(f"route {route}: {named[0].refused}", "route")
        chosen = named[0]
    return StorePlan(inst.arch, inst.name, operand.wave, to, bits, order, found.ld,
                     found.shape, pack, found.routes, chosen, found)
