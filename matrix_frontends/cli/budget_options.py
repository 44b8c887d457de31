"""The option rows of products, peaks and budgets, as data: options.py makes its Option
rows of BUDGET_OPTIONS (group BUDGET_GROUP). The mode rows are budget_modes.py's; the
handling is budget_mode.py, loaded only when such a mode runs (or -d/--catalog get
--product): a point query reads these rows and runs no code of this module."""
from __future__ import annotations

from operator import itemgetter

# dest, spellings, kind ("flag", "value" or "number"), metavar, -h line, largest number
BUDGET_OPTIONS: tuple[tuple[str, tuple[str, ...], str, str, str, int], ...] = (
    ("list_products", ("--list-products", "--list_products"), "flag", "",
     "list the AMD products of every architecture (or -a's) with compute units, clock, "
     "memory and the per-CU limits, each with its source (--json, --format csv)", 0),
    ("product", ("--product",), "value", "NAME",
     "with -d, --catalog or --budget: the product (mi355x, mi300x, 7900xtx, ...) whose "
     "peak and roofline to add", 0),
    ("budget", ("--budget",), "flag", "",
     "the registers, LDS, occupancy and arithmetic intensity of a block tile of -i "
     "(see docs/budget.md)", 0),
    ("wave_tile", ("--wave-tile", "--wave_tile"), "value", "MxN",
     "with --budget: instruction tiles per wave along M and N (default 1x1)", 0),
    ("waves_per_group", ("--waves-per-group", "--waves_per_group"), "value", "N or MxN",
     "with --budget: waves per workgroup along M and N (N: N along M; default 1x1)", 0),
    ("lds_buffers", ("--lds-buffers", "--lds_buffers"), "number", "1/2/3",
     "with --budget: LDS stages (2: double-buffered, the default)", 3),
)
BUDGET_GROUP = ("kernel budgets", tuple(map(itemgetter(0), BUDGET_OPTIONS)))
# The options a budget reads besides --budget: its own rows', the LDS tile's
# (lds_options.py), the output's and --emit (and our own modifiers: budget_modes.py).
BUDGET_USES = ("product", "wave_tile", "waves_per_group", "k_steps", "lds_buffers",
               "lds_pad", "lds_order", "json", "compact", "emit")
