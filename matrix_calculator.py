#!/usr/bin/env python3
"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

Command-line compatible with AMD's Matrix Instruction Calculator; run with -h for help.
"""
# The command line lives in matrix_cli.py, so that running this script compiles only
# these lines and the rest loads from cached bytecode.
import sys

try:
    from amd_matrix_calculator.matrix_cli import (  # noqa: F401
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
