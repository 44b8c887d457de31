"""--emit probe (issue 36): the self-checking HIP program for one instruction (-a ARCH
-i INST) or every instruction of an architecture (-a ARCH), in the wave size of -w (the
architecture's default without it). Reached through the mode table of cli_modes."""
from __future__ import annotations

from amd_matrix_calculator.cli.cli_inputs import architecture, checked, instruction
from amd_matrix_calculator.cli.cli_options import Args, ArgumentError, number
from amd_matrix_calculator.matrix_request import Request


def wanted(args: Args) -> bool:
    """--emit probe (any case) selects this mode; --emit hip stays the code mode."""
    return args.given("emit") and str(args.text("emit") or "").lower() == "probe"


def probe_request(args: Args) -> Request:
    from amd_matrix_calculator import matrix_api
    arch = architecture(args)
    inst = instruction(arch, args.text("instruction")) if args.given("instruction") else None
    wave = number(args, "wavefront") or arch.waves[0]
    if inst is not None:
        wave = checked(matrix_api.wave_size, inst, wave or None)
    elif wave not in arch.waves:
        allowed = " or ".join(map(str, arch.waves))
        raise ArgumentError(f"wave size {wave} is not available on {arch.name}; use {allowed}")
    return Request("probe", arch, inst, wave=wave)


def probe_text(request: Request, args: Args) -> str:
    from amd_matrix_calculator import matrix_request
    from amd_matrix_calculator.cli.cli_modes import command_line
    from amd_matrix_calculator.formats.hip.probe import probe
    insts = checked(matrix_request.answer, request)
    words = args.__dict__.get("words")
    return probe(insts, request.wave,  # type: ignore[arg-type]
                 None if words is None else command_line(words)) + "\n"
