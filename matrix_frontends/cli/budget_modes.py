"""The command line's modes of issue 35 as rows of cli_modes' table: --list-products and
--budget (after -v: --budget is chosen before the LDS plans, which --k-steps and
--lds-pad also select), and --product added to -d and --catalog. The handlers are
cli_budget's, loaded when such a mode runs."""
from __future__ import annotations

from typing import TYPE_CHECKING

from matrix_frontends.cli.budget_options import BUDGET_USES

if TYPE_CHECKING:
    from collections.abc import Callable

    from matrix_frontends.cli.modes import Mode
    from matrix_frontends.cli.options import Args
    from matrix_library.request import Request


def _products(args: Args) -> str:
    from matrix_frontends.cli.budget import products
    return products(args)


def _budget_request(args: Args) -> Request:
    from matrix_frontends.cli.budget import budget_request
    return budget_request(args)


def _budget(request: Request, args: Args) -> str:
    from matrix_frontends.cli.budget import budget
    return budget(request, args)


def _with_peaks(render: Callable[[Request, Args], str]) -> Callable[[Request, Args], str]:
    """A renderer of -d or --catalog, with --product's peaks added to its output."""
    def rendered(request: Request, args: Args) -> str:
        text = render(request, args)
        if not args.given("product"):
            return text
        from matrix_frontends.cli import budget as cli_budget
        from matrix_library import request as matrix_request
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
