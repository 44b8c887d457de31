#!/usr/bin/env python3
"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

The door to the calculator, both ways:

* a command: ``python3 matrix_calculator.py -a cdna3 -L`` in a clone (the installed
  ``matrix-calculator`` is the same command), command-line compatible with AMD's Matrix
  Instruction Calculator; ``-h`` for help;
* a library: ``import matrix_calculator as mc`` gives the typed library of
  ``matrix_library.api`` (``mc.find_instruction``, ``mc.layout``, ``mc.answer``, ...) and
  the command line as functions (``mc.main(argv)``, ``mc.run(argv)``).

A lazy boundary (docs/internals.md): run as a script it loads the command line alone,
and imported, each name is loaded from its module on first use, so that a program that
asks one question loads what that question needs.
"""
from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # what a type checker and a reader see: the door's names
    from matrix_frontends.cli.command import OPTIONS as OPTIONS
    from matrix_frontends.cli.command import build_parser as build_parser
    from matrix_frontends.cli.command import command as command
    from matrix_frontends.cli.command import end as end
    from matrix_frontends.cli.command import main as main
    from matrix_frontends.cli.command import run as run
    from matrix_library import __version__ as __version__
    from matrix_library.api import *  # noqa: F403

_COMMAND = ("OPTIONS", "build_parser", "command", "end", "main", "run")


def __getattr__(name: str) -> object:
    """The command line's functions, the version and the library's names, loaded from
    their modules on first use."""
    from importlib import import_module
    if name == "__all__":  # (help() and star imports read it)
        return sorted({*_COMMAND, "__version__", *import_module("matrix_library.api").__all__})
    if name in _COMMAND:
        module = import_module("matrix_frontends.cli.command")
    elif name == "__version__":
        module = import_module("matrix_library")
    else:
        module = import_module("matrix_library.api")
        if name not in module.__all__:
            raise AttributeError(f"module 'matrix_calculator' has no attribute {name!r}")
    found: object = getattr(module, name)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    from matrix_library import api
    return sorted({*globals(), *_COMMAND, "__version__", *api.__all__})


if __name__ == "__main__":
    import gc
    gc.disable()  # (the collector off from the start, imports included: command() says why)
    try:
        from matrix_frontends.cli.command import command, end
    except KeyboardInterrupt:  # Ctrl-C while loading: end as main() would, quietly
        sys.exit(130)
    end(command())
