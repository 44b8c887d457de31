"""The command line's modes of products, peaks and budgets as rows of the mode table
(modes.py): --list-products and --budget (placed after -v: --budget is chosen before the
LDS plans, which --k-steps and --lds-pad also select), and `with_peaks`, which adds
--product's peaks to the output of -d and --catalog. The rows are data (their selections
are `operator.methodcaller`s of options.Args; -d's and --catalog's renderers are
`functools.partial(with_peaks, render)`): a point query runs no code of this module.
The handlers are budget_mode.py's, loaded when such a mode runs."""
from __future__ import annotations

from operator import methodcaller

from matrix_frontends.cli.budget_options import BUDGET_USES
from matrix_frontends.cli.messages import Noted, notes_of
from matrix_frontends.cli.options import OWN_MODIFIERS, Args
from matrix_library import request as matrix_request
from matrix_library.request import Request

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def _products(args: Args) -> str:
    from matrix_frontends.cli.budget_mode import products  # (mode dispatch: --list-products)
    return products(args)


def _budget_request(args: Args) -> Request:
    from matrix_frontends.cli.budget_mode import budget_request  # (mode dispatch: --budget)
    return budget_request(args)


def _budget(request: Request, args: Args) -> str:
    from matrix_frontends.cli.budget_mode import budget  # (mode dispatch: --budget)
    return budget(request, args)


def with_peaks(render: Callable[[Request, Args], str], request: Request, args: Args) -> str:
    """The output of -d or --catalog (`render`'s), with --product's peaks added."""
    text = render(request, args)
    if not args.given("product"):
        return text
    from matrix_frontends.cli import budget_mode as budget  # (mode dispatch: --product's peaks)
    if request.mode == "detail":
        return Noted(budget.detail_peak(request, args, text), notes_of(text))
    rows = matrix_request.answer(request)  # (the catalog's rows, made once and kept)
    return budget.catalog_peaks(args, rows, text)  # type: ignore[arg-type]


# The rows, in the fields of modes.Mode: name, flag, whether it is asked for, the options
# it reads, request, render, text
BUDGET_MODES = (
    ("products", "--list-products", methodcaller("given", "list_products"),
     ("list_products", "architecture", "format", "json", "compact"), None, None, _products),
    ("budget", "--budget", methodcaller("given", "budget"),
     ("budget", *BUDGET_USES, *OWN_MODIFIERS), _budget_request, _budget, None),
)

