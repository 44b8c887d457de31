"""Checks of the command line's inputs shared by the modes (modes.py) and the modes of
their own modules (convert_mode.py and the others): the architecture and instruction
named, one-of choices, the modifiers, the output options, and library errors named by
the option at fault."""
from __future__ import annotations

from formats import COLOR_KEYS, PICTURES

from matrix_frontends.cli.options import (
    ABSENT,
    BY_DEST,
    DEFAULTS,
    MODIFIERS,
    Args,
    ArgumentError,
    did_you_mean,
    number,
    program_name,
    shown,
)
from matrix_library.checks import (
    Architecture,
    CalcError,
    Instruction,
    Modifiers,
    architectures,
    find_architecture,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import ParamSpec, TypeVar


    Result = TypeVar("Result")
    Params = ParamSpec("Params")

LEGACY_FORMATS = (("csv", "--csv"), ("markdown", "--markdown"), ("asciidoc", "--asciidoc"))


def _on(args: Args, dest: str) -> bool:
    return bool(args.__dict__.get(dest, DEFAULTS[dest]))  # (Args.value, inline: per line)


def modifiers_of(args: Args) -> Modifiers:
    """The modifiers of the command line (names read as their codes, each bounded)."""
    return Modifiers(**{d: number(args, d) if BY_DEST[d].kind == "number"
                        else int(_on(args, d)) for d in MODIFIERS if args.given(d)})


def architecture(args: Args) -> Architecture:
    value = args.text("architecture")
    if value is not None:
        try:
            return find_architecture(value)
        except CalcError as exc:
            if not str(exc).startswith("unknown architecture"):  # (ambiguous, or a target's)
                raise ArgumentError(str(exc)) from None
    known = architectures()
    names = ", ".join(a.name.lower() for a in known)
    if value is None:
        raise ArgumentError(f"the -a/--architecture option needs a value: one of {names}")
    hint = did_you_mean(value, [w for a in known for w in (a.name.lower(),) + tuple(a.aliases)])
    raise ArgumentError(f"unknown architecture {shown(value)}{hint}; choose one of "
                        f"{names} (or one of their gfx/product aliases, an LLVM target or a "
                        "product name)")


def instruction(arch: Architecture, value: str | None) -> Instruction:
    if value is None:
        raise ArgumentError("the -i/--instruction option needs a value: an instruction of "
                            f"{arch.name} (run with -a {arch.name.lower()} -L to list them)")
    inst = arch.find(value)
    if inst is None:
        elsewhere = [a.name for a in architectures()
                     if a is not arch and a.find(value) is not None]
        hint = did_you_mean(value, [i.mnemonic for i in arch.instructions])
        if elsewhere:
            hint += f"; {value} is an instruction of {' and '.join(elsewhere)}"
        raise ArgumentError(f"{arch.name} has no instruction {shown(value)}{hint}; "
                            f"run with -a {arch.name.lower()} -L to list them")
    return inst


# What else answers where none of a choice was given (one_of's message).
OTHERS = {"query mode": "; or -d for the instruction's facts, or -L without -i to list the "
                        "instructions"}


def one_of(args: Args, choices: tuple[tuple[str, str], ...], what: str) -> str:
    """The one dest of `choices` given; else an error naming them (and OTHERS[what], the
    modes beside them, when none was given)."""
    chosen = [flag for dest, flag in choices if _on(args, dest)]
    if len(chosen) != 1:
        flags = ", ".join(flag for _, flag in choices)
        found = "none" if not chosen else " and ".join(chosen)
        raise ArgumentError(f"choose exactly one {what} of {flags} (got {found})"
                            + ("" if chosen else OTHERS.get(what, "")))
    return next(dest for dest, _ in choices if _on(args, dest))


def legacy_format(args: Args) -> str:
    """The table format of --csv/--markdown/--asciidoc (grid if none)."""
    chosen = [dest for dest, _ in LEGACY_FORMATS if _on(args, dest)]
    if len(chosen) > 1:
        raise ArgumentError("choose at most one of --csv, --markdown and --asciidoc")
    return chosen[0] if chosen else "grid"


def checked(function: Callable[Params, Result], *values: Params.args,
            **named: Params.kwargs) -> Result:
    """function(*values, **named), its CalcErrors naming the option at fault."""
    try:
        return function(*values, **named)
    except CalcError as exc:
        option = ARGUMENT_OPTIONS.get(exc.argument or "")
        if option is None:
            raise
        raise CalcError(f"{option}: {exc}", exc.argument) from None


# The options of the library's numbered arguments (CalcError.argument).
ARGUMENT_OPTIONS = {"i": "-I", "j": "-J", "k": "-K", "block": "-b", "register": "-r",
                    "lane": "-l", "wave": "-w"}


def _format_names() -> tuple[str, ...]:
    from formats.documents import NAMES
    return NAMES


def output_options(args: Args) -> None:
    """--format's value (json: --json), and what goes with --json and the pictures."""
    fmt = _format(args)
    as_json = args.value("json")
    if as_json and fmt is not None:
        raise ArgumentError(f"--json is an output format of its own: drop --format {fmt}")
    if args.value("compact") and not as_json:
        raise ArgumentError("--compact shapes the --json document: use it with --json")
    color = _color(args)
    legacy = [flag for dest, flag in LEGACY_FORMATS if args.value(dest)]
    if as_json and legacy:
        raise ArgumentError("--json is an output format of its own: drop " + " and ".join(legacy))
    if fmt is not None and fmt.lower() in PICTURES:
        _picture(args, fmt, legacy)
        args.__dict__.update(format=fmt.lower())
        if color is not None:
            args.__dict__.update(color_by=color.lower())


def _format(args: Args) -> str | None:
    """--format's value, checked (--format json turns into --json: None)."""
    fmt = args.text("format")
    if args.given("format") and fmt is None:
        raise ArgumentError("the --format option needs a value: one of "
                            + ", ".join(_format_names()))
    if fmt == "json":  # --format json is --json
        args.__dict__.update(json=True, format=ABSENT)
        return None
    if fmt is not None and fmt not in _format_names():
        raise ArgumentError(f"unknown format {shown(fmt)}; choose one of "
                            + ", ".join(_format_names()) + did_you_mean(fmt, _format_names()))
    return fmt


def _color(args: Args) -> str | None:
    """--color-by's value, checked."""
    if args.given("color_by") and args.text("color_by") is None:
        raise ArgumentError("the --color-by option needs a value: lane, register, block, "
                            "row or k")
    color = args.text("color_by")
    if color is not None and color.lower() not in COLOR_KEYS:
        raise ArgumentError(f"--color-by takes {', '.join(COLOR_KEYS)}, not {shown(color)}")
    return color


def _picture(args: Args, fmt: str, legacy: list[str]) -> None:
    """A picture format (svg, html) draws layouts: alone, and with -R or -M (html also
    with --catalog and -L, and the LDS plans draw their banks)."""
    if legacy:
        raise ArgumentError(f"--format {fmt} is an output format of its own: drop "
                            + " and ".join(legacy))
    if args.rlayout is False and args.mlayout is False and not (
            fmt == "html" and (args.catalog or args.list or args.list_architectures)) \
            and not args.given("lds_tile") \
            and not getattr(args, "preshuffle", False):  # (LDS plans, preshuffles: their own)
        modes = [flag for dest, flag in (("get", "-g"), ("entry", "-m"), ("detail", "-d"),
                                         ("list", "-L")) if args.value(dest)]
        raise ArgumentError(f"--format {fmt} draws layouts: use it with -R or -M"
                            + (f", not {modes[0]}" if modes else ""))


def command_line(words: Sequence[str]) -> str:
    """The command line `words` as a shell would take it, after the program's name."""
    import shlex
    return shlex.join([program_name(), *words])
