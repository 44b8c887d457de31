"""The option rows of preshuffle and epilogue store plans, as data: what options.py
makes its Option rows of (group PRESHUFFLE_GROUP) and what the mode table (modes.py)
selects the modes "preshuffle" and "store" by (`wanted`, `store_wanted`). The handling
is preshuffle_mode.py, loaded only when one of those modes runs; the storage order and
leading dimension are the shared --order and --ld rows. A point query runs no code of
this module.
"""
from __future__ import annotations

from operator import itemgetter, methodcaller

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
     "with --store-d: the stored type (f32, f16, bf16, fp8, bf8, i32; default: D's own)", "TYPE"),
    ("route", ("--route",),
     "with --store-d: take this route (direct, lds, lds-transpose) instead of the cheapest",
     "NAME"),
)
PRESHUFFLE_DESTS = tuple(map(itemgetter(0), PRESHUFFLE_OPTIONS))
PRESHUFFLE_GROUP = ("preshuffled operands and epilogue stores", PRESHUFFLE_DESTS)
# The options that select each mode (any given), and the selections as the mode table's
# predicates on a command line (options.Args).
PRESHUFFLE_SELECTORS = ("preshuffle", "load_width", "supertile", "preset")
STORE_SELECTORS = ("store_d", "store_type", "route")
wanted = methodcaller("any_given", PRESHUFFLE_SELECTORS)
store_wanted = methodcaller("any_given", STORE_SELECTORS)
