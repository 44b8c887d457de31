"""The command line of preshuffle and epilogue store plans: run_preshuffle()
answers --preshuffle through matrix_api.preshuffle, run_store() answers --store-d through
matrix_api.store_plan; the renderers are formats/preshuffle.py, formats/epilogue.py and
formats/hip/preshuffle.py. The option rows are preshuffle_options.py's; the mode table
(modes.py) loads this module when one of the two modes runs.

    matrix_calculator.py -a cdna4 -i v_mfma_scale_f32_16x16x128_f8f6f4 -B --blgp 4 \\
        --preshuffle [--load-width 16] [--supertile 1x1] [--preset seed-b] [--json]
    matrix_calculator.py -a cdna4 -i v_mfma_f32_16x16x32_bf16 --store-d \\
        --store-type bf16 [--order row] [--ld 4096] [--json | --emit hip]

Bad values raise CalcError (a ValueError): the command prints its one line, exit 2.
"""
from __future__ import annotations

from formats import epilogue as store_render
from formats import preshuffle as preshuffle_render
from formats.json_output import dump
from instructions.model import Instruction
from instructions.modifiers import MODIFIERS

from matrix_frontends.cli.options import BY_DEST, Args, number
from matrix_library import api as matrix_api
from matrix_library.checks import CalcError
from matrix_library.request import Request

_MATRICES = (("A", "-A"), ("B", "-B"), ("K", "-k"), ("SA", "--A-scale"), ("SB", "--B-scale"))
_OTHER_MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"),
                ("output", "-o"), ("linear_layout", "--linear-layout"), ("C", "-C"))


def _fail(message: str) -> Exception:
    return CalcError(message)


def _text(args: Args, dest: str, spelling: str, metavar: str) -> str | None:
    if args.given(dest) and args.text(dest) is None:
        raise _fail(f"the {spelling} option needs a value ({metavar})")
    value = args.text(dest)
    return None if value is None else str(value)


def _others(args: Args, flag: str) -> None:
    for dest, other in _OTHER_MODES:
        if getattr(args, dest, False) is True:
            raise _fail(f"{flag} makes a plan of its own: drop {other}")


def _mods(args: Args, inst: Instruction) -> dict[str, int]:
    """Every modifier the instruction takes that was given (the formats set the element
    width; the others are checked by the library)."""
    return {spec.name: number(args, spec.name) for spec in MODIFIERS
            if inst.takes(spec.name) and args.given(spec.name)}


def _order(args: Args) -> str | None:
    """The stored matrix's order: --order, or the copy plans' --global-order where the
    command line has that row)."""
    order = _text(args, "order", "--order", "row/col")
    if order is None and "global_order" in BY_DEST:
        order = _text(args, "global_order", "--global-order", "row/col")
    return None if order is None else order.lower()


def _ld(args: Args) -> int | None:
    return number(args, "ld") if args.given("ld") else None


def _emit(args: Args) -> bool:
    if not args.given("emit"):
        return False
    emit = args.text("emit") or ""
    if str(emit).lower() != "hip":
        raise _fail(f"--emit takes hip, not {emit!r}")
    return True


def run_preshuffle(args: Args, inst: Instruction, wave: int) -> str:
    """The output of a command line with --preshuffle: text, --json or --emit hip."""
    _others(args, "--preshuffle")
    for dest, spelling in (("store_d", "--store-d"), ("store_type", "--store-type"),
                           ("route", "--route")):  # (the store plan's: not read here)
        if args.given(dest):
            raise _fail(f"--preshuffle makes a plan of its own: drop {spelling}")
    if not getattr(args, "preshuffle", False):
        given = next(s for d, s in (("load_width", "--load-width"), ("supertile", "--supertile"),
                                    ("preset", "--preset")) if args.given(d))
        raise _fail(f"{given} describes a preshuffle: give --preshuffle with the operand")
    chosen = [m for m, _ in _MATRICES if getattr(args, m, False)]
    if len(chosen) != 1:
        raise _fail("--preshuffle shuffles one operand: give one of "
                    + ", ".join(flag for _, flag in _MATRICES))
    plan = matrix_api.preshuffle(
        inst, chosen[0], mods=_mods(args, inst), wave=wave,
        load_width=_text(args, "load_width", "--load-width", "BYTES"),
        supertile=_text(args, "supertile", "--supertile", "RxC") or (1, 1),
        order=_order(args), ld=_ld(args), preset=_text(args, "preset", "--preset", "NAME"))
    if _emit(args):
        from formats.hip.preshuffle import emit  # (mode dispatch: the HIP writer)
        return emit(plan)
    if getattr(args, "json", False):
        return dump("preshuffle", **preshuffle_render.document(plan))
    fmt = str(args.text("format") or "").lower() if args.given("format") else ""
    if fmt in ("svg", "html"):
        return preshuffle_render.svg(plan) if fmt == "svg" else preshuffle_render.html(plan)
    if fmt:
        raise _fail(f"a preshuffle is drawn with --format svg or html (or --json), not "
                    f"--format {fmt}")
    return preshuffle_render.text(plan)


def run_store(args: Args, inst: Instruction, wave: int) -> str:
    """The output of a command line with --store-d: text, --json or --emit hip."""
    _others(args, "--store-d")
    if not getattr(args, "store_d", False):
        given = "--store-type" if args.given("store_type") else "--route"
        raise _fail(f"{given} describes an epilogue store: give --store-d")
    plan = matrix_api.store_plan(
        inst, mods=_mods(args, inst), wave=wave,
        store_type=_text(args, "store_type", "--store-type", "TYPE"),
        order=_order(args) or "row", ld=_ld(args),
        route=_text(args, "route", "--route", "NAME"))
    if _emit(args):
        from formats.hip.epilogue import emit  # (mode dispatch: the HIP writer)
        return emit(plan)
    if getattr(args, "json", False):
        return dump("store", **store_render.document(plan))
    return store_render.text(plan)


def render(request: Request, args: Args) -> str:
    """The output of the mode "preshuffle" or "store" (modes.py)."""
    run = run_preshuffle if request.mode == "preshuffle" else run_store
    return run(args, request.instruction, request.wave)
