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

Run as a script, it loads the command line alone (point queries stay near the
interpreter's own start-up); imported, it loads the library too.
"""
import sys

if __name__ == "__main__":
    try:
        from matrix_frontends.cli.command import command, end
    except KeyboardInterrupt:  # Ctrl-C while loading: end as main() would, quietly
        sys.exit(130)
    end(command())

from matrix_frontends.cli.command import (
    OPTIONS,
    build_parser,
    command,
    end,
    main,
    run,
)
from matrix_library import __version__
from matrix_library.api import *  # noqa: F403  (the library's names, its __all__)

__all__ = ["OPTIONS", "__version__", "build_parser", "command", "end", "main", "run"]
__all__ += [name for name in dir(sys.modules["matrix_library.api"]) if not name.startswith("_")
            and name in sys.modules["matrix_library.api"].__all__]
