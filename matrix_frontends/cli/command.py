"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

Command-line compatible with AMD's Matrix Instruction Calculator; run with -h for help.
"""
from __future__ import annotations

import gc
import os
import sys

from instructions import ISSUES

from matrix_frontends.cli.options import (
    MODIFIERS,
    OPTIONS,
    Args,
    ArgumentError,
    BatchFailed,
    __version__,
    parse_plain,
    program_name,
    spellings,
)
from matrix_frontends.cli.respond import (
    EXAMPLES,
    answer,
    build_parser,
    error_line,
    parse_args,
    respond,
    run,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NoReturn

# (answering a command line is respond.py's, which the explorer shares; this module is
# the process around it: the output written, errors on one line, exit statuses)
__all__ = ["EXAMPLES", "MODIFIERS", "OPTIONS", "ArgumentError", "Args", "__version__",
           "answer", "build_parser", "command", "end", "error_line", "main", "parse_args",
           "parse_plain", "program_name", "respond", "run", "spellings"]


# The collector pause (command) and the exit without teardown (end) are kept because
# the speed goal needs them (bench/bench.py on the installed command, docs/speed.md):
# a table query imports tabulate, whose import creates tens of thousands of objects
# (importlib.metadata); with both, the largest CDNA3 -R table takes 93-99 ms of CPU
# against its budget of 101-106 ms, without them 126-129 ms; over every architecture's
# largest tables, 20 of 88 over budget with them and 77 of 88 without. A point query
# takes about 7 ms more without them (medians of 15 interleaved runs, 2 shared cores).

def command() -> int:
    """The command (matrix_calculator.py and the installed matrix-calculator): main()
    on this process's own command line, with Python's cycle collector off, as the
    process then ends. One query makes no reference cycles worth collecting, yet with
    the collector on, the objects importing tabulate creates are traversed again and
    again. The script and the installed command turn it off on their first lines,
    before they import this module: a point query's imports take 2-3 ms more with it on.
    main() itself leaves the collector alone, for callers that run on afterwards."""
    gc.disable()
    return main()


def end(status: int) -> NoReturn:
    """End the command's process with `status` once its output is out: stdout and stderr
    flushed, then os._exit, which skips the interpreter's teardown (every module and
    object freed one by one, and a last cycle collection over all of them, even with the
    collector off). The calculator needs no teardown: no atexit handler, no file open
    but the standard streams. The script and the installed command end with it; main()
    and command() return their status."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # the reader went away, or a closed stream
            pass
    os._exit(status)


def main(argv: Sequence[str] | None = None, servers: bool = True) -> int:
    """Run the calculator; returns the exit status: 0, 2 for any error in the command
    line, 1 when the output cannot be written, 130 when interrupted (Ctrl-C). No
    exception escapes. `servers`: whether --serve, --mcp and --export-site start their
    front ends (False, for the explorer's page: refused with one line, as --batch
    refuses them)."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        if not words:  # (nothing asked: say how to ask, not which option lacks a value)
            return _fail("no query given: name an architecture and a mode, e.g. "
                         f"{program_name()} -a cdna3 -L, or run with -h for every option")
        if servers and "--serve" in words:  # the explorer, a front end of its own (mode
            from matrix_frontends.explorer.app import serve  # dispatch: loaded when it runs)
            return serve(words)
        if servers and "--mcp" in words:  # the MCP server, a front end of its own (imports
            from matrix_frontends.mcp_server import serve as serve_mcp  # the SDK)
            return serve_mcp(words)
        if servers and any(word.split("=", 1)[0] == "--export-site" for word in words):
            from matrix_frontends.explorer.export import export  # (the static site)
            return export(words)
        try:
            status, text = respond(words)
        except BatchFailed as failed:  # --batch: the answers, then the count of failures
            return _write(failed.text) or _fail(failed.message)
        if status != 0:
            return _fail(text, status)
        return _write(text) or _notes(getattr(text, "notes", ()))
    except KeyboardInterrupt:
        _discard_output()
        return 130
    except BrokenPipeError:
        _discard_output()
        return 0
    except Exception as exc:  # a defect: still one line, not a traceback
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report this "
                     f"command line at {ISSUES}", status=1)


def _fail(message: str, status: int = 2) -> int:
    """Report an error on one line of stderr."""
    try:
        sys.stderr.write(error_line(message) + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no stderr, or nobody reads it
        pass
    return status


def _notes(notes: Sequence[str]) -> int:
    """Write an answer's notes (messages.Noted) on stderr, one line each (status 0)."""
    try:
        for note in notes:
            sys.stderr.write(f"{program_name()}: note: {note}\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no stderr, or nobody reads it
        pass
    return 0


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
