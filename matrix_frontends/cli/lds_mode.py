"""The command line of LDS load plans: run_lds(), which answers a command line that has
--lds-tile (or another LDS option: the mode "lds" of modes.py) through
matrix_api.lds_plan / lds_search and the renderers of formats/lds.py; a copy plan
(--copy) goes on to copy_mode.run_copy. The option rows are data of their own
(lds_options.py), which point queries read without this module, loaded when the mode
runs.

    matrix_calculator.py -a cdna3 -i v_mfma_f32_16x16x16_f16 -A --lds-tile 16x64 \\
        --load ds_read_b64 [--lds-pad 4 | --lds-swizzle 4,1,16] [--lds-search] [--json]

Bad values raise CalcError (a ValueError): the command prints its one line, exit 2.
"""
from __future__ import annotations

from formats import lds as render
from instructions.model import Instruction

from matrix_frontends.cli.lds_options import COPY_DESTS, LDS_METAVARS, LDS_OPTIONS
from matrix_frontends.cli.lds_options import LDS_FLAGS as LDS_FLAGS  # (the option rows, as data)
from matrix_frontends.cli.lds_options import wanted as wanted
from matrix_frontends.cli.options import Args, number
from matrix_library import lds as matrix_api  # (the LDS answers alone: a plan loads no other)
from matrix_library.checks import CalcError

TYPE_CHECKING = False
if TYPE_CHECKING:  # (annotations only: a plan loads no typing)
    from typing import TypedDict

    class PlanOptions(TypedDict):
        """The keyword arguments of matrix_api.lds_plan / lds_search."""
        tile: object
        order: str
        pad: int
        swizzle: object
        base: int
        load: str | None
        k_steps: int
        model: str | None
        mods: dict[str, int]
        wave: int | None
        lds_type: str


_MATRICES = (("A", "-A"), ("B", "-B"), ("K", "-k"), ("SA", "--A-scale"), ("SB", "--B-scale"))
_OTHER_MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"),
                ("output", "-o"), ("linear_layout", "--linear-layout"), ("C", "-C"),
                ("D", "-D"))


def _fail(message: str) -> Exception:
    return CalcError(message)


def _value(args: Args, dest: str) -> str | None:
    """The option's text, or None when not given; CalcError when given without one."""
    spelling = next(s[0] for d, s, _ in LDS_OPTIONS if d == dest)
    if args.given(dest) and args.text(dest) is None:
        raise _fail(f"the {spelling} option needs a value ({LDS_METAVARS[dest]})")
    return args.text(dest)


def _whole(args: Args, dest: str, default: int) -> int:
    """A whole-number option (options.number: digits only, bounded by LDS_LIMITS)."""
    if _value(args, dest) is None:
        return default
    return number(args, dest)


def _matrix(args: Args) -> str:
    chosen = [m for m, _ in _MATRICES if getattr(args, m, False)]
    if len(chosen) != 1:
        allowed = ", ".join(flag for _, flag in _MATRICES)
        raise _fail(f"an LDS plan loads one input operand: give one of {allowed}")
    return chosen[0]


def _checked(args: Args) -> None:
    if _value(args, "lds_tile") is None:
        given = [s[0] for d, s, _ in LDS_OPTIONS if args.given(d)]
        given += ["--lds-search"] * bool(getattr(args, "lds_search", False))
        raise _fail(f"{given[0]} describes an LDS plan: give the tile with --lds-tile "
                    "ROWSxCOLS")
    for dest, flag in _OTHER_MODES:
        if getattr(args, dest, False) is True:
            raise _fail(f"--lds-tile makes an LDS plan of -A/-B/-k/--A-scale/--B-scale: drop "
                        f"{flag}")
    if getattr(args, "lds", False) and not args.given("emit"):
        raise _fail("--lds goes with --emit hip (with --lds-tile: the LDS load code of the "
                    "tile described)")


def _mods(args: Args, inst: Instruction) -> dict[str, int]:
    """The format-selecting modifiers (CBSZ/BLGP on CDNA4's f8f6f4 instructions,
    matrix_a_fmt/matrix_b_fmt on gfx1250's: codes, or names as the option table reads
    them), which set the element width; the others do not change what is loaded."""
    return {name: number(args, name) for name in getattr(inst, "format_fields", ())}


# the library's argument names -> the options that give them
_OPTION_OF = {"tile": "--lds-tile", "order": "--lds-order", "pad": "--lds-pad",
              "swizzle": "--lds-swizzle", "base": "--lds-base", "load": "--load",
              "k_steps": "--k-steps", "model": "--lds-model", "lds_type": "--lds-type",
              "copy": "--copy", "global_order": "--global-order", "ld": "--ld",
              "waves": "--waves", "wave_split": "--wave-split",
              "tdm_pad_interval": "--tdm-pad-interval", "tdm_pad_amount": "--tdm-pad-amount"}


def run_lds(args: Args, inst: Instruction, wave: int) -> str:
    """The output of a command line with --lds-tile: the plan (text, --json, --format
    svg/html), the search (--lds-search) or the load code (--emit hip); an error names
    the option at fault."""
    try:
        return _run(args, inst, wave)
    except CalcError as error:
        option = _OPTION_OF.get(error.argument or "")
        if option and option not in str(error):
            raise CalcError(f"{option}: {error}") from None
        raise


def _plan_options(args: Args, inst: Instruction, wave: int) -> PlanOptions:
    """The keyword arguments of matrix_api.lds_plan / lds_search from the options."""
    order = _value(args, "lds_order") or "k"
    if order not in ("k", "mn"):
        raise _fail(f"--lds-order takes k or mn, not {order!r}")
    return {"tile": _value(args, "lds_tile"), "order": order,
            "pad": _whole(args, "lds_pad", 0), "swizzle": _value(args, "lds_swizzle"),
            "base": _whole(args, "lds_base", 0), "load": _value(args, "load"),
            "k_steps": _whole(args, "k_steps", 1), "model": _value(args, "lds_model"),
            "mods": _mods(args, inst), "wave": wave, "lds_type": _value(args, "lds_type") or ""}


def _run(args: Args, inst: Instruction, wave: int) -> str:
    _checked(args)
    matrix = _matrix(args)
    options = _plan_options(args, inst, wave)
    fmt = args.text("format")
    fmt = fmt.lower() if isinstance(fmt, str) else None
    emit = args.text("emit") or "" if args.given("emit") else None
    if emit is not None and emit.lower() != "hip":
        raise _fail(f"--emit takes hip, not {emit!r}")
    as_json = bool(getattr(args, "json", False))
    if any(args.given(dest) for dest in COPY_DESTS if dest != "lds_type"):
        from matrix_frontends.cli.copy_mode import run_copy  # (mode dispatch: --copy)
        return run_copy(args, inst, matrix, options, fmt, emit is not None, as_json)
    if args.given("ld"):
        raise _fail("--ld with --lds-tile gives the global tile of a copy: add --copy NAME")
    return _answer(args, inst, matrix, options, fmt, emit is not None, as_json)


def _answer(args: Args, inst: Instruction, matrix: str, options: PlanOptions,
            fmt: str | None, emit: bool, as_json: bool) -> str:
    """The plan, the search or the load code of the command line."""
    if emit:
        _code_alone(args, as_json, fmt)
        from formats.hip.lds import emit_lds  # (mode dispatch: the HIP writer, --emit hip)
        code: str = emit_lds(matrix_api.lds_plan(inst, matrix, **options))
        return code
    if getattr(args, "lds_search", False):
        if fmt in ("svg", "html"):
            raise _fail(f"--format {fmt} draws a plan's banks: drop --lds-search")
        search = matrix_api.lds_search(inst, matrix, **options)
        if as_json:
            return _dump("lds_search", render.search_document(search))
        return render.search_text(search)
    plan = matrix_api.lds_plan(inst, matrix, **options)
    if as_json:
        return _dump("lds", render.document(plan))
    if fmt in ("svg", "html"):
        from formats import lds_picture  # (mode dispatch: the picture, --format svg or html)
        return lds_picture.svg(plan) if fmt == "svg" else lds_picture.html(plan)
    if fmt is not None:
        raise _fail(f"an LDS plan is drawn with --format svg or html (or --json), not "
                    f"--format {fmt}")
    return render.text(plan)


def _code_alone(args: Args, as_json: bool, fmt: str | None) -> None:
    """--emit hip writes the load code of one plan, as text: what it would drop is
    refused."""
    for dropped, flag in ((as_json, "--json"), (getattr(args, "lds_search", False),
                                                 "--lds-search"), (fmt, "--format")):
        if dropped:
            raise _fail(f"--emit hip writes the load code of one plan, as text: drop {flag}")


def _dump(mode: str, fields: dict[str, object]) -> str:
    from formats.json_output import dump  # (--json alone loads the JSON writer)
    return dump(mode, **fields)
