"""--emit probe: the self-checking HIP program for one instruction (-a ARCH -i INST) or
every instruction of an architecture (-a ARCH), in the wave size of -w (the
architecture's default without it). Reached through the mode table (modes.py), as are the
checks of --emit's language and the verification record -d adds. The mode's selection is
data (`wanted`): a command line that asks for no probe runs no code of this module."""
from __future__ import annotations

from operator import methodcaller

from instructions.model import Instruction

from matrix_frontends.cli.inputs import _on, architecture, checked, command_line, instruction
from matrix_frontends.cli.options import Args, ArgumentError, number, shown
from matrix_library import request as matrix_request
from matrix_library.checks import wave_size
from matrix_library.request import Request

# --emit probe (any case) selects this mode; --emit hip stays the code mode.
wanted = methodcaller("given_as", "emit", "probe")


def probe_request(args: Args) -> Request:
    arch = architecture(args)
    if arch.vendor != "amd":
        raise ArgumentError(f"--emit probe writes a HIP program for AMD GPUs; {arch.name} is "
                            f"{arch.vendor.upper()}'s: choose an AMD architecture")
    inst = instruction(arch, args.text("instruction")) if args.given("instruction") else None
    wave = number(args, "wavefront") or arch.waves[0]
    if inst is not None:
        wave = checked(wave_size, inst, wave or None)
    elif wave not in arch.waves:
        allowed = " or ".join(map(str, arch.waves))
        raise ArgumentError(f"wave size {wave} is not available on {arch.name}; use {allowed}")
    return Request("probe", arch, inst, wave=wave)


def probe_text(request: Request, args: Args) -> str:
    from formats.hip.probe import probe  # (mode dispatch: the HIP writer, for --emit probe)
    insts = checked(matrix_request.answer, request)
    words = args.__dict__.get("words")
    return probe(insts, request.wave,  # type: ignore[arg-type]
                 None if words is None else command_line(words)) + "\n"


probe = (probe_request, probe_text)  # (the mode table's request and renderer)


def checked_language(args: Args) -> None:
    """--emit names a language the code modes write: hip (probe is a mode of its own)."""
    language = args.text("emit")
    if args.given("emit") and (language is None or language.lower() != "hip"):
        given = "no value" if language is None else shown(language)
        raise ArgumentError(f"--emit takes the language to write: hip or probe (got {given})")


def verified(args: Args, inst: Instruction) -> str:
    """What -d --verification adds: the verification record (without the option, -d
    prints its facts alone)."""
    if not _on(args, "verification"):
        return ""
    from formats.verification import section  # (mode dispatch: -d --verification)

    from matrix_library.facts import facts  # (the facts: loaded for --verification alone)
    return section(facts(inst))
