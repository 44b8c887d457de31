"""The command line of products, peaks and budgets: --list-products, --budget, and
--product with -d and --catalog. Each turns its options into a Request (or the library's
call), asks the library and renders with formats/budget.py. Loaded only when one of them
is given (the rows: budget_modes.py)."""
from __future__ import annotations

import json

from formats import budget as render
from formats.json_output import dump
from instructions.products import PRODUCTS, find_product, key_of

from matrix_frontends.cli.inputs import (
    _on,
    architecture,
    checked,
    instruction,
    legacy_format,
    modifiers_of,
)
from matrix_frontends.cli.options import Args, ArgumentError, did_you_mean, number, shown
from matrix_library import api as matrix_api
from matrix_library import request as matrix_request
from matrix_library.api import CalcError
from matrix_library.budget import Budget, GpuProduct, not_a_product
from matrix_library.request import Request
from matrix_library.typed import Facts


def product_of(args: Args) -> GpuProduct | None:
    """The --product of the command line (None when not given); ArgumentError for a
    name no product has."""
    if not args.given("product"):
        return None
    value = args.text("product")
    if value is None:
        raise ArgumentError("--product needs a value: a product --list-products shows "
                            "(mi355x, mi300x, 7900xtx, ...)")
    chosen = find_product(value)
    reason = not_a_product(value) if chosen is None else None
    if reason is not None:
        raise ArgumentError(f"{reason}; --list-products lists them")
    if chosen is None:
        hint = did_you_mean(key_of(value), [key_of(p.name) for p in PRODUCTS])
        raise ArgumentError(f"unknown product {shown(value)}{hint}; --list-products "
                            "lists them")
    return chosen


def products(args: Args) -> str:
    """--list-products [-a ARCH] [--json | --format FMT]."""
    arch = architecture(args) if args.given("architecture") else None
    found = checked(matrix_request.answer, Request("products", arch))
    if _on(args, "json"):
        return render.products_json(found)  # type: ignore[arg-type]
    fmt = args.text("format")
    if fmt is None:
        return render.products_text(found)  # type: ignore[arg-type]
    return checked(render.products_table, fmt.lower(), found)  # type: ignore[arg-type]


def _pair(args: Args, dest: str, flag: str, single: bool) -> tuple[int, int]:
    """MxN (or N where `single`: N along M) of a --wave-tile / --waves-per-group."""
    value = args.text(dest)
    if not args.given(dest):
        return (1, 1)
    parts = (value or "").lower().split("x")
    shape = "N or MxN" if single else "MxN"
    if not (1 <= len(parts) <= (2 if single else 2)) or not all(p.isdigit() for p in parts) \
            or len(parts) == 1 and not single:
        raise ArgumentError(f"{flag} takes {shape} (whole numbers from 1 to 1024), not "
                            f"{shown(value or '')}")
    numbers = [int(p) for p in parts] + [1]
    if not all(1 <= n <= 1024 for n in numbers):
        raise ArgumentError(f"{flag} takes whole numbers from 1 to 1024, not "
                            f"{shown(value or '')}")
    return numbers[0], numbers[1]


def budget_request(args: Args) -> Request:
    """--budget -a ARCH -i INST [tile options] [--product NAME]."""
    arch = architecture(args)
    inst = instruction(arch, args.text("instruction"))
    wave = checked(matrix_api.wave_size, inst, number(args, "wavefront"))
    if args.given("emit") and (args.text("emit") or "").lower() != "hip":
        raise ArgumentError(f"--emit takes hip, not {shown(args.text('emit') or '')}")
    order = (args.text("lds_order") or "k").lower() if args.given("lds_order") else "k"
    product = product_of(args)
    options = (("wave_tile", _pair(args, "wave_tile", "--wave-tile", False)),
               ("waves", _pair(args, "waves_per_group", "--waves-per-group", True)),
               ("k_steps", _whole(args, "k_steps", "--k-steps", 1, 1)),
               ("lds_buffers", _whole(args, "lds_buffers", "--lds-buffers", 2, 1)),
               ("lds_pad", _whole(args, "lds_pad", "--lds-pad", 0, 0)),
               ("lds_order", order), ("product", product))
    request = Request("budget", arch, inst, mods=modifiers_of(args), wave=wave,
                      options=options)
    try:
        checked(matrix_request.answer, request)
    except CalcError as error:  # (the library's waves: --waves-per-group)
        if error.argument != "waves":
            raise
        raise CalcError(f"--waves-per-group: {error}", error.argument) from None
    return request


def _whole(args: Args, dest: str, flag: str, default: int, least: int) -> int:
    if not args.given(dest):
        return default
    value = number(args, dest)
    if value < least:
        raise ArgumentError(f"{flag} takes a whole number from {least}, not {value}")
    return value


def budget(request: Request, args: Args) -> str:
    result: Budget = checked(matrix_request.answer, request)  # type: ignore[assignment]
    product: GpuProduct | None = request.option("product")  # type: ignore[assignment]
    inst, wave = request.instruction, request.wave
    if args.given("emit"):
        from formats.hip.budget_kernel import skeleton  # (mode dispatch: the HIP writer)
        return checked(skeleton, inst, request.mods, wave, result)
    if _on(args, "json"):
        return render.budget_json(inst, wave, result, product)
    return render.budget_text(inst, wave, result, product)


def detail_peak(request: Request, args: Args, text: str) -> str:
    """-d --product: the detail with the instruction's peak on the product."""
    product = product_of(args)
    if product is None:
        return text
    peak = checked(matrix_request.answer, request._replace(
        mode="peak", options=(("product", product),)))
    if _on(args, "json"):
        doc = json.loads(text)
        del doc["schema_version"]
        return dump(**dict(doc, peak=render.peak_json(peak)))  # type: ignore[arg-type]
    return text + render.peak_text(request.instruction, peak)  # type: ignore[arg-type]


def catalog_peaks(args: Args, rows: list[Facts], text: str) -> str:
    """--catalog --product: the catalog with a column (JSON: a list) of peaks."""
    product = product_of(args)
    if product is None:
        return text
    peaks = [render.row_peak(fact, product) for fact in rows]
    if _on(args, "json"):
        doc = json.loads(text)
        del doc["schema_version"]
        return dump(**dict(doc, product=product.name, peaks=peaks))
    fmt = args.text("format") or legacy_format(args)
    return checked(render.catalog_text, fmt, rows, product, peaks)
