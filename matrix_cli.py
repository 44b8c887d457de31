"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

Command-line compatible with AMD's Matrix Instruction Calculator; run with -h for help.
"""
from __future__ import annotations

import gc
import os
import sys

from amd_matrix_calculator.cli_options import (
    MODIFIERS,
    OPTIONS,
    Args,
    ArgumentError,
    BatchFailed,
    HelpRequested,
    __version__,
    parse_plain,
    program_name,
    spellings,
    with_hint,
)
from amd_matrix_calculator.cli_options import build_parser as _build_parser
from amd_matrix_calculator.cli_options import parse_args as _parse_args

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the command line imports no typing at start-up
    from argparse import ArgumentParser
    from collections.abc import Sequence

__all__ = ["MODIFIERS", "OPTIONS", "ArgumentError", "Args", "__version__", "build_parser",
           "command", "error_line", "main", "parse_args", "parse_plain", "program_name",
           "respond", "run", "spellings"]

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


def _epilog() -> str:
    from amd_matrix_calculator.formats.listing import architecture_lines
    prog = program_name()
    lines = ["architectures (-a takes the name or an alias, any case):"]
    lines += architecture_lines()
    lines += ["", "examples:"]
    for text, args in EXAMPLES:
        lines += [f"  {prog} {args}", f"      {text}"]
    return "\n".join(lines)


def build_parser() -> ArgumentParser:
    """The argparse parser of the option table, with -h's description and epilog."""
    return _build_parser(str(__doc__).split("\n\n")[0], _epilog())


def parse_args(words: Sequence[str]) -> Args:
    """The parsed command line (cli_options.parse_args, with -h's text)."""
    return _parse_args(words, build_parser)


def command() -> int:
    """The command (matrix_calculator.py and the installed matrix-calculator): main()
    on this process's own command line, with Python's cycle collector off, as the
    process then ends. One query makes no reference cycles worth collecting, yet with
    the collector on, the tens of thousands of objects importing tabulate creates
    (most of them for importlib.metadata) are traversed again and again, and once
    more at exit: about 5 ms of a table query (docs/speed.md). main() itself leaves
    the collector alone, for callers that run on afterwards."""
    gc.disable()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the calculator; returns the exit status: 0, 2 for any error in the command
    line, 1 when the output cannot be written, 130 when interrupted (Ctrl-C). No
    exception escapes."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        if "--serve" in words:  # issue 21: the explorer, a front end of its own
            from amd_matrix_calculator.matrix_explorer import serve
            return serve(words)
        try:
            status, text = respond(words)
        except BatchFailed as failed:  # --batch: the answers, then the count of failures
            return _write(failed.text) or _fail(failed.message)
        return _write(text) if status == 0 else _fail(text, status)
    except KeyboardInterrupt:
        _discard_output()
        return 130
    except BrokenPipeError:
        _discard_output()
        return 0
    except Exception as exc:  # a defect: still one line, not a traceback
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report this "
                     "command line", status=1)


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
    """The whole output of one parsed command line (cli_modes.respond)."""
    from amd_matrix_calculator.cli_modes import respond
    return respond(args)


def error_line(message: str) -> str:
    """The one line an error is reported as (without its newline)."""
    text = " ".join(line.strip() for line in message.splitlines() if line.strip())
    return f"{program_name()}: error: {text}"


def _fail(message: str, status: int = 2) -> int:
    """Report an error on one line of stderr."""
    try:
        sys.stderr.write(error_line(message) + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no stderr, or nobody reads it
        pass
    return status


def _write(text: str) -> int:
    """Write the output; a reader that went away ends quietly (status 0), any other
    failure (a full disk, a closed stdout) is one line on stderr and status 1."""
    try:
        if sys.stdout is None:  # started with stdout closed
            raise OSError("standard output is closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (| head): end quietly
        _discard_output()
    except (OSError, ValueError) as exc:
        _discard_output()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return _fail(f"cannot write output: {reason}", status=1)
    return 0


def _discard_output() -> None:
    """Send what is still buffered for stdout, and anything later, to the null device,
    so that the interpreter's final flush neither blocks nor complains."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, ValueError, OSError):  # no real stdout (e.g. captured)
        pass
