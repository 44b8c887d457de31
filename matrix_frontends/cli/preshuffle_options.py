"""The option rows of preshuffle and epilogue store plans (issue 33), as data: what
cli_options makes its Option rows of (group PRESHUFFLE_GROUP) and what cli_modes selects
the modes "preshuffle" and "store" by. The handling is cli.matrix_cli_preshuffle, loaded
only when one of those modes runs; the storage order and leading dimension are the
shared --order and --ld rows.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matrix_frontends.cli.options import Args

# dest, spellings, help, metavar ("" for a flag)
PRESHUFFLE_OPTIONS: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("preshuffle", ("--preshuffle",),
     "plan the preshuffled global buffer of the operand (-A, -B, -k, --A-scale, --B-scale) "
     "that gives every lane contiguous aligned loads: index formula, NumPy function, "
     "loads, scale selects (docs/preshuffle.md)", ""),
    ("load_width", ("--load-width", "--load_width"),
     "with --preshuffle: bytes per lane and load (1, 2, 4, 8, 12, 16) or a load's name "
     "(global_load_dwordx4, ...; default: the widest that fits)", "BYTES"),
    ("supertile", ("--supertile",),
     "with --preshuffle: R x C instruction tiles (R along M/N, C along K) whose fragments "
     "or scale bytes one lane loads together", "RxC"),
    ("preset", ("--preset",),
     "with --preshuffle: compare with a named scheme (aiter, aiter-scale, aiter-gfx1250, "
     "aiter-gfx1250-scale, ck, seed-b, seed-b-scale) and take its load width and supertile",
     "NAME"),
    ("store_d", ("--store-d", "--store_d"),
     "plan storing D into a global tile (--order, --ld): direct stores or through LDS "
     "(plain or transpose loads), the cheapest chosen (docs/epilogue.md)", ""),
    ("store_type", ("--store-type", "--store_type"),
     "with --store-d: the stored type (f32, f16, bf16, fp8, bf8; default: D's own)", "TYPE"),
    ("route", ("--route",),
     "with --store-d: take this route (direct, lds, lds-transpose) instead of the cheapest",
     "NAME"),
)
PRESHUFFLE_DESTS = tuple(dest for dest, _, _, _ in PRESHUFFLE_OPTIONS)
PRESHUFFLE_GROUP = ("preshuffled operands and epilogue stores", PRESHUFFLE_DESTS)


def wanted(args: Args) -> bool:
    """Whether the command line asks for a preshuffle plan."""
    return bool(getattr(args, "preshuffle", False)) or any(
        args.given(d) for d in ("load_width", "supertile", "preset"))


def store_wanted(args: Args) -> bool:
    """Whether the command line asks for an epilogue store plan."""
    return bool(getattr(args, "store_d", False)) or args.given("store_type") \
        or args.given("route")
