"""One command line answered, without writing anything: parsed (argparse's grammar with
-h's text, or the plain reading of options.py), validated and rendered by the modes
(modes.py), and each failure turned into the one line the front ends print.

command.main (the command), --batch, the explorer (matrix_frontends.explorer, whose
--serve command.main starts) and the MCP server all answer through `respond`; this
module imports none of them.
"""
from __future__ import annotations

from matrix_frontends.cli.options import MODIFIERS as MODIFIERS
from matrix_frontends.cli.options import (
    OPTIONS,
    Args,
    ArgumentError,
    HelpRequested,
    closest,
    message_text,
    program_name,
    spellings,
)
from matrix_frontends.cli.options import build_parser as _build_parser
from matrix_frontends.cli.options import parse_args as _parse_args

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the command line imports no typing at start-up
    from argparse import ArgumentParser
    from collections.abc import Sequence

__all__ = ["MODIFIERS", "ArgumentError", "answer", "build_parser", "error_line", "parse_args",
           "program_name", "respond", "run", "with_hint"]

DESCRIPTION = ("Matrix instruction calculator for AMD GPUs: where every matrix element of an "
               "MFMA,\nSMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the "
               "instruction's facts.")

EXAMPLES = (
    ("where element A[5][6] of an MFMA lives",
     "-a cdna3 -i v_mfma_f32_32x32x8_f16 -g -A -I 5 -K 6"),
    ("what register 1 of lane 3 holds", "-a cdna3 -i v_mfma_f32_32x32x8_f16 -m -B -r 1 -l 3"),
    ("the register layout of C, as Markdown",
     "-a rdna3 -i v_wmma_f32_16x16x16_f16 -R -C --format markdown"),
    ("one CSV row per element location", "-a cdna3 -i v_mfma_f32_4x4x4_16b_f16 -R -A "
     "--format long-csv"),
    ("the facts and formulas of an instruction", "-a gfx950 -i v_mfma_f32_16x16x128_f8f6f4 -d"),
    ("every fp8 instruction", "--catalog --filter type=fp8"),
)


# -h's synopsis: the shapes of a command line (the options follow, in their groups).
USAGE = """%(prog)s -a ARCH -L
       %(prog)s -a ARCH -i INSTRUCTION -d
       %(prog)s -a ARCH -i INSTRUCTION {-g,-m,-R,-M} {-A,-B,-C,-D,-k} [OPTION ...]
       %(prog)s --catalog [--filter KEY=VALUE ...] | --list-architectures | --batch FILE
       %(prog)s -h | -v"""


def docs_folder() -> str:
    """Where the docs/ pages -h names are: inside the installed package
    (matrix_library/docs, pyproject.toml ships them) or the clone's docs/."""
    import os

    import matrix_library
    package = os.path.dirname(os.path.abspath(matrix_library.__file__))
    for folder in (os.path.join(package, "docs"), os.path.join(os.path.dirname(package),
                                                                "docs")):
        if os.path.isdir(folder):
            return folder
    return "docs"


def _epilog() -> str:
    from formats.listing import architecture_lines
    prog = program_name()
    from instructions import ISSUES
    lines = [f"documentation: the docs/ pages named above are in {docs_folder()}",
             f"report problems: {ISSUES}", "",
             "architectures (-a takes the name or an alias, any case):"]
    lines += architecture_lines()
    lines += ["", "examples:"]
    for text, args in EXAMPLES:
        lines += [f"  {prog} {args}", f"      {text}"]
    return "\n".join(lines)


def build_parser() -> ArgumentParser:
    """The argparse parser of the option table, with -h's description and epilog."""
    return _build_parser(DESCRIPTION, _epilog(), USAGE)


def parse_args(words: Sequence[str]) -> Args:
    """The parsed command line (options.parse_args, with -h's text)."""
    return _parse_args(words, build_parser)


def respond(argv: Sequence[str]) -> tuple[int, str]:
    """One command line answered without writing anything: (0, its output) or (the exit
    status, the error message main() prints). main() and the explorer's /api use it."""
    try:
        return 0, answer(argv)
    except HelpRequested as help_text:
        return 0, str(help_text)
    except (ArgumentError, ValueError) as exc:  # CalcError and friends too
        return 2, str(exc)
    except ModuleNotFoundError as exc:  # a run-time dependency that is not installed
        return 1, (f"this needs the Python package {exc.name}, which is not installed "
                   "(install the calculator with pip, which brings its dependencies)")


def answer(words: Sequence[str]) -> str:
    """The output of one command line, or an exception naming its first problem."""
    try:
        args = parse_args(words)
    except ArgumentError as exc:
        raise ArgumentError(with_hint(str(exc))) from None
    args.__dict__["words"] = list(words)  # the command line as given (recorded by --emit hip)
    return run(args)


def run(args: Args) -> str:
    """The whole output of one parsed command line (modes.respond)."""
    from matrix_frontends.cli.modes import respond as answered
    return answered(args)


def error_line(message: str) -> str:
    """The one line an error is reported as (without its newline)."""
    return f"{program_name()}: error: {message_text(message)}"


def with_hint(message: str) -> str:
    """argparse names an unknown option or stray word but not what is allowed: say where
    to look, and the closest spelling of each unknown option."""
    if message.startswith("unrecognized arguments"):
        words = message.split(":", 1)[1].split() if ":" in message else []
        hints = [f"{w} is not an option; did you mean {close[0]}?" for w in words
                 if w.startswith("-") for close in [closest(w.split("=")[0], spellings(), 1)]
                 if close]
        return (message + ("; " + "; ".join(hints) if hints else "")
                + " (run with -h to see the options)")
    if "ignored explicit argument" in message:
        return message + " (the option takes no value)"
    named, _, rest = message.removeprefix("argument ").partition(": ")
    if message.startswith("argument ") and rest == "expected 2 arguments" and named \
            and not any(c.isspace() for c in named):  # (an option of two words given fewer)
        spelling = named.split("/")[-1]
        found = next((o for o in OPTIONS if spelling in o.spellings), None)
        metavar = found.metavar if found else "two words"
        return (f"{spelling} takes two words, {metavar}, not fewer "
                f"(run with -h for what each is)")
    return message
