"""The option rows and mode rows of products, peaks and budgets (issue 35), as data:
cli_options makes its Option rows of BUDGET_OPTIONS (group BUDGET_GROUP) and cli_modes its
Mode rows of BUDGET_MODES. The handling is cli_budget, loaded only when such a mode runs
(or -d/--catalog get --product): a point query reads these rows alone.
"""
from __future__ import annotations

from amd_matrix_calculator.instructions.modifiers import MODIFIERS
from amd_matrix_calculator.instructions.record import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from amd_matrix_calculator.cli.cli_modes import Mode
    from amd_matrix_calculator.cli.cli_options import Args
    from amd_matrix_calculator.matrix_request import Request

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
BUDGET_GROUP = ("kernel budgets", tuple(row[0] for row in BUDGET_OPTIONS))
# The options of other rows a budget reads: the LDS tile's (cli_lds_options) and -w.
BUDGET_USES = ("product", "wave_tile", "waves_per_group", "k_steps", "lds_buffers",
               "lds_pad", "lds_order", "json", "compact", "emit",
               *(spec.name for spec in MODIFIERS if not spec.reference))


def _products(args: Args) -> str:
    from amd_matrix_calculator.cli.cli_budget import products
    return products(args)


def _budget_request(args: Args) -> Request:
    from amd_matrix_calculator.cli.cli_budget import budget_request
    return budget_request(args)


def _budget(request: Request, args: Args) -> str:
    from amd_matrix_calculator.cli.cli_budget import budget
    return budget(request, args)


def _with_peaks(render: Callable[[Request, Args], str]) -> Callable[[Request, Args], str]:
    """A renderer of -d or --catalog, with --product's peaks added to its output."""
    def rendered(request: Request, args: Args) -> str:
        text = render(request, args)
        if not args.given("product"):
            return text
        from amd_matrix_calculator import matrix_request
        from amd_matrix_calculator.cli import cli_budget
        if request.mode == "detail":
            return cli_budget.detail_peak(request, args, text)
        rows = matrix_request.answer(request)  # (the catalog's rows, made once and kept)
        return cli_budget.catalog_peaks(args, rows, text)  # type: ignore[arg-type]
    return rendered


def _selected(dest: str) -> Callable[[Args], bool]:
    return lambda args: bool(args.__dict__[dest])


# cli_modes.Mode rows: name, flag, whether it is asked for, the options it reads,
# request, render, text
BUDGET_MODES = (
    ("products", "--list-products", _selected("list_products"),
     ("list_products", "architecture", "format", "json", "compact"), None, None, _products),
    ("budget", "--budget", _selected("budget"), ("budget", *BUDGET_USES), _budget_request,
     _budget, None),
)
# The modes that take --product besides --budget: their output gets the peaks.
PEAK_MODES = ("detail", "catalog")


def with_budget(mode: type[Mode], modes: tuple[Mode, ...]) -> tuple[Mode, ...]:
    """cli_modes.MODES with issue 35's rows (after -v: --budget must be chosen before the
    LDS plans, which --k-steps and --lds-pad also select) and --product on -d/--catalog."""
    found: list[Mode] = []
    for row in modes:
        if row.name in PEAK_MODES and row.render is not None:
            row = row._replace(uses=(*row.uses, "product"), render=_with_peaks(row.render))
        found.append(row)
        if row.name == "version":
            found += [mode(*fields) for fields in BUDGET_MODES]
    return tuple(found)
