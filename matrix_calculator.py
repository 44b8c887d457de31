#!/usr/bin/env python3
"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

Command-line compatible with AMD's Matrix Instruction Calculator; run with -h for help.

Run from a clone, this script makes the package `amd_matrix_calculator` importable from
the clone's own folders (library/ is the package; instructions/, layouts/, formats/ and
cli/ its subpackages), without links and without installing; importing it does the same
for tests and scripts. Installed, the command (cli/matrix-calculator) imports the
installed package instead.
"""
# The command line lives in cli/matrix_cli.py, so that running this script compiles only
# these lines and the rest loads from cached bytecode.
import os
import sys


def _package_from_clone() -> None:
    """Register library/ as `amd_matrix_calculator` with the clone's top on its search
    path (library.clone_path), unless the package is loaded already. Plain module
    machinery: importlib would cost start-up time (tests/test_startup.py)."""
    top = os.path.dirname(os.path.abspath(__file__))
    init = os.path.join(top, "library", "__init__.py")
    if "amd_matrix_calculator" in sys.modules or not os.path.isfile(init):
        return
    package = type(sys)("amd_matrix_calculator")
    package.__file__ = init
    package.__package__ = "amd_matrix_calculator"
    with open(init, encoding="utf-8") as handle:
        exec(compile(handle.read(), init, "exec"), package.__dict__)
    package.__path__ = package.clone_path(init)
    sys.modules["amd_matrix_calculator"] = package


_package_from_clone()

try:
    from amd_matrix_calculator.cli.matrix_cli import (  # noqa: F401
        OPTIONS,
        __version__,
        build_parser,
        command,
        end,
        main,
        run,
    )
except KeyboardInterrupt:  # Ctrl-C while loading: end as main() would, without a traceback
    sys.exit(130)

if __name__ == "__main__":  # (end: the output flushed, the process ends without teardown)
    end(command())
