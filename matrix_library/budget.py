"""The library's door to the products, the peaks and the budgets: arguments
checked once here (CalcError), the engine of matrix_plans/budget.py called with checked
values. Loaded on first use (matrix_api._LIBRARY): no point query imports it."""
from __future__ import annotations

from instructions.model import Instruction
from instructions.products import PRODUCTS, GpuProduct, Limits, limits_of
from instructions.products import find_product as _find
from instructions.products import products_matching as _matching
from layouts.core import CalcError, shown
from matrix_plans.budget import Budget, Peak, Tile
from matrix_plans.budget import budget as _budget
from matrix_plans.budget import peak as _peak

from matrix_library.bounds import check_group
from matrix_library.checks import (
    architecture_of,
    find_architecture,
    instruction,
    matrices,
    operand,
    wave_size,
)
from matrix_library.checks import modifiers as checked_modifiers
from matrix_library.facts import facts

TYPE_CHECKING = False
if TYPE_CHECKING:  # (ModifierValues is an annotation-only alias of matrix_library.checks)
    from matrix_library.checks import ModifierValues

__all__ = ["Budget", "GpuProduct", "Limits", "Peak", "Tile", "architecture_limits", "budget",
           "find_product", "not_a_product", "peak", "products"]

_MOST = 1024  # the largest count of tiles, waves, K steps or buffers a budget takes


def products(arch: object = None) -> tuple[GpuProduct, ...]:
    """Every product (instructions/products.py), or those of the architecture `arch`
    (a name or alias as -a takes it)."""
    if arch is None:
        return PRODUCTS
    found = _limits(arch).arch
    return tuple(p for p in PRODUCTS if p.arch == found)


def _limits(arch: object) -> Limits:
    """The limits of `arch` (a name, alias or Architecture), CalcError where it has none:
    the products table (instructions/products.py) lists AMD's GPUs only."""
    found = find_architecture(arch)  # type: ignore[arg-type]  # (checks it: CalcError)
    try:
        return limits_of(found.name)
    except KeyError:
        raise CalcError(f"{found.name} has no products, limits or budgets here: they are "
                        "for AMD GPUs (--list-products lists them)") from None


def find_product(name: object) -> GpuProduct:
    """The product called `name` (any case; brand words and spaces optional; the end of
    one product's name is enough: "mi355x", "7900xtx", "r9700")."""
    if isinstance(name, GpuProduct):
        return name
    found = _find(name) if isinstance(name, str) else None
    if found is None:
        reason = not_a_product(name) if isinstance(name, str) else None
        if reason is not None:
            raise CalcError(f"{reason} (--list-products)")
        known = ", ".join(p.name for p in PRODUCTS)
        raise CalcError(f"unknown product {shown(name)}: use one of {known} "
                        "(--list-products)")
    return found


def not_a_product(name: str) -> str | None:
    """Why `name` names no one product, where it names something: the products it could
    mean, or the architecture it names and that architecture's products; None else."""
    several = _matching(name)
    if len(several) > 1:
        return (f"ambiguous product {shown(name)}: it could mean "
                + "; ".join(p.name for p in several))
    try:
        arch = find_architecture(name)
    except CalcError:
        return None
    try:
        names = ", ".join(p.name for p in products(arch))
    except CalcError:
        names = ""
    return (f"{shown(name)} names the architecture {arch.name}, not a product: "
            + (f"name one of its products, {names}" if names else "it has no products here"))


def architecture_limits(arch: object) -> Limits:
    """The per-CU and per-SIMD limits of the architecture `arch` (name or alias)."""
    return _limits(arch)


def peak(inst: Instruction, product: object, *, mods: ModifierValues = None) -> Peak:
    """The peak of `inst` on `product` (a name or GpuProduct): its FLOPs per CU (RDNA:
    WGP) per cycle under `mods` (CDNA4's f8f6f4 formats change it) x units x clock."""
    inst = instruction(inst)
    _limits(inst.architecture)
    chosen = find_product(product)
    rate = facts(inst, mods=mods)["flops_per_cycle"]
    return _peak(inst, rate, chosen)


def _count(name: str, value: object) -> int:
    if type(value) is not int or not 1 <= value <= _MOST:
        raise CalcError(f"{name} takes a whole number from 1 to {_MOST}, not {shown(value)}")
    return value


def _pair(name: str, value: object) -> tuple[int, int]:
    if type(value) is int:
        value = (value, 1)
    if not isinstance(value, tuple) or len(value) != 2:
        raise CalcError(f"{name} takes two whole numbers (M, N), not {shown(value)}")
    return _count(name, value[0]), _count(name, value[1])


def budget(inst: Instruction, *, wave_tile: object = (1, 1), waves: object = (1, 1),
           k_steps: object = 1, lds_buffers: object = 2, lds_pad: object = 0,
           lds_order: object = "k", mods: ModifierValues = None, wave: int | None = None,
           product: object = None) -> Budget:
    """The budget of a block tile of `inst`: `wave_tile` (instruction tiles along M, N per
    wave), `waves` (waves along M, N per workgroup; one number: along M), `k_steps`
    (instruction K steps per LDS stage, held in registers), `lds_buffers` (1, 2 or 3
    stages), `lds_pad` (elements after each LDS row), `lds_order` ("k": rows hold K),
    under `mods` for `wave`; with `product` (a name or GpuProduct) the roofline too."""
    inst = instruction(inst)
    _limits(inst.architecture)
    size = wave_size(inst, wave)
    checked = checked_modifiers(mods)
    if type(lds_buffers) is not int or lds_buffers not in (1, 2, 3):
        raise CalcError(f"lds_buffers takes 1, 2 or 3, not {shown(lds_buffers)}")
    if type(lds_pad) is not int or not 0 <= lds_pad <= _MOST:
        raise CalcError(f"lds_pad takes a whole number from 0 to {_MOST}, not {shown(lds_pad)}")
    if lds_order not in ("k", "mn"):
        raise CalcError(f"lds_order takes k or mn, not {shown(lds_order)}")
    tile = Tile(_pair("wave_tile", wave_tile), check_group(_pair("waves", waves), size),
                _count("k_steps", k_steps), lds_buffers, lds_pad, str(lds_order))
    ops = {m: operand(inst, m, mods=checked, wave=size) for m in matrices(inst)}
    chosen = None if product is None else find_product(product)
    rate = None
    if chosen is not None:
        rate = facts(inst, mods=checked)["flops_per_cycle"]
    arch = architecture_of(inst)
    target = chosen.target if chosen is not None else arch.target
    return _budget(ops["A"].inst, ops, tile, target, rate, chosen)
