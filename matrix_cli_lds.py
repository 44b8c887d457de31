"""The command line of LDS load plans (issue 24): the texts of the option rows
cli_options makes (group LDS_GROUP), and run_lds(), which answers a command line that has
--lds-tile (or another LDS option: the mode "lds" of cli_modes) through
matrix_api.lds_plan / lds_search and the renderers of formats/lds.py.

    matrix_calculator.py -a cdna3 -i v_mfma_f32_16x16x16_f16 -A --lds-tile 16x64 \\
        --load ds_read_b64 [--lds-pad 4 | --lds-swizzle 4,1,16] [--lds-search] [--json]

Bad values raise CalcError (a ValueError): matrix_cli prints its one line, exit 2.
"""
from __future__ import annotations

from amd_matrix_calculator.instructions.record import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypedDict

    from amd_matrix_calculator.cli_options import Args
    from amd_matrix_calculator.instructions.model import Instruction
    from amd_matrix_calculator.matrix_api import ModifierValues

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
        mods: ModifierValues
        wave: int | None

ABSENT = ""  # the third field of an LDS_OPTIONS row (cli_options gives every value option
# its own default: not given; None is given without a value)

# dest, spellings, default (cli_options makes one Option row of each)
LDS_OPTIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("lds_tile", ("--lds-tile", "--lds_tile"), ABSENT),
    ("lds_order", ("--lds-order", "--lds_order"), ABSENT),
    ("lds_pad", ("--lds-pad", "--lds_pad"), ABSENT),
    ("lds_swizzle", ("--lds-swizzle", "--lds_swizzle"), ABSENT),
    ("lds_base", ("--lds-base", "--lds_base"), ABSENT),
    ("load", ("--load",), ABSENT),
    ("k_steps", ("--k-steps", "--k_steps"), ABSENT),
    ("lds_model", ("--lds-model", "--lds_model"), ABSENT),
)
LDS_FLAGS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("lds_search", ("--lds-search", "--lds_search"),
     "with --lds-tile: list the paddings and swizzles that make every load conflict-free "
     "(and what Triton's and CK's formulas pick)"),
)
LDS_HELP = {
    "lds_tile": "plan the loads of the operand (-A, -B, -k, --A-scale, --B-scale) from an "
                "LDS tile of ROWSxCOLS elements: addresses, phases, bank conflicts "
                "(docs/lds.md)",
    "lds_order": "with --lds-tile: k (rows of K values, the default) or mn (rows of M/N "
                 "values)",
    "lds_pad": "with --lds-tile: elements added to every row",
    "lds_swizzle": "with --lds-tile: chunk c of VEC elements of row r stored at "
                   "c ^ ((r / PER_PHASE) %% MAX_PHASE)",
    "lds_base": "with --lds-tile: byte address of the tile in LDS",
    "load": "with --lds-tile: the load instruction (ds_read_b64, ds_read_b64_tr_b16, ...; "
            "default: the widest that delivers the fragment)",
    "k_steps": "with --lds-tile: load N consecutive K steps of the instruction at once",
    "lds_model": "with --lds-tile: the phase model (default, or an alternative where sources "
                 "disagree: rocroller on CDNA, banks64 on RDNA)",
}
LDS_METAVARS = {"lds_tile": "ROWSxCOLS", "lds_order": "k/mn", "lds_pad": "N",
                "lds_swizzle": "VEC,PER_PHASE,MAX_PHASE", "lds_base": "BYTES",
                "load": "NAME", "k_steps": "N", "lds_model": "NAME"}
# The whole-number options and the largest value the command line accepts (an LDS is at
# most a few hundred KiB; the library checks the architecture's own size).
LDS_LIMITS = {"lds_pad": 1 << 20, "lds_base": 1 << 20, "k_steps": 1 << 10}
LDS_GROUP = ("LDS load plans", tuple(d for d, _, _ in LDS_OPTIONS + LDS_FLAGS))
_MATRICES = (("A", "-A"), ("B", "-B"), ("K", "-k"), ("SA", "--A-scale"), ("SB", "--B-scale"))
_OTHER_MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"),
                ("output", "-o"), ("linear_layout", "--linear-layout"), ("C", "-C"),
                ("D", "-D"))


def wanted(args: Args) -> bool:
    """Whether the command line (cli_options.Args) asks for an LDS plan (any LDS option
    given)."""
    return any(args.given(dest) for dest, _, _ in LDS_OPTIONS) \
        or bool(getattr(args, "lds_search", False))


def _fail(message: str) -> Exception:
    from amd_matrix_calculator.layouts.core import CalcError
    return CalcError(message)


def _value(args: Args, dest: str) -> str | None:
    """The option's text, or None when not given; CalcError when given without one."""
    spelling = next(s[0] for d, s, _ in LDS_OPTIONS if d == dest)
    if args.given(dest) and args.text(dest) is None:
        raise _fail(f"the {spelling} option needs a value ({LDS_METAVARS[dest]})")
    return args.text(dest)


def _whole(args: Args, dest: str, default: int) -> int:
    """A whole-number option (cli_options.number: digits only, bounded by LDS_LIMITS)."""
    if _value(args, dest) is None:
        return default
    from amd_matrix_calculator.cli_options import number
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
    from amd_matrix_calculator.cli_options import number  # (fp4 -> 4; a bad name: its error)
    return {name: number(args, name) for name in getattr(inst, "format_fields", ())}


# the library's argument names -> the options that give them
_OPTION_OF = {"tile": "--lds-tile", "order": "--lds-order", "pad": "--lds-pad",
              "swizzle": "--lds-swizzle", "base": "--lds-base", "load": "--load",
              "k_steps": "--k-steps", "model": "--lds-model"}


def run_lds(args: Args, inst: Instruction, wave: int) -> str:
    """The output of a command line with --lds-tile: the plan (text, --json, --format
    svg/html), the search (--lds-search) or the load code (--emit hip); an error names
    the option at fault."""
    from amd_matrix_calculator.layouts.core import CalcError
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
            "mods": _mods(args, inst), "wave": wave}


def _run(args: Args, inst: Instruction, wave: int) -> str:
    from amd_matrix_calculator import matrix_api
    from amd_matrix_calculator.formats import lds as render
    _checked(args)
    matrix = _matrix(args)
    options = _plan_options(args, inst, wave)
    fmt = args.text("format")
    fmt = fmt.lower() if isinstance(fmt, str) else None
    emit = args.text("emit") or "" if args.given("emit") else None
    as_json = bool(getattr(args, "json", False))
    if emit is not None:
        if emit.lower() != "hip":
            raise _fail(f"--emit takes hip, not {emit!r}")
        from amd_matrix_calculator.formats.hip_lds import emit_lds
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
    if fmt == "svg":
        return render.svg(plan)
    if fmt == "html":
        return render.html(plan)
    if fmt is not None:
        raise _fail(f"an LDS plan is drawn with --format svg or html (or --json), not "
                    f"--format {fmt}")
    return render.text(plan)


def _dump(mode: str, fields: dict[str, object]) -> str:
    from amd_matrix_calculator.formats.json_output import dump
    return dump(mode, **fields)
