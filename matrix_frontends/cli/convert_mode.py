"""`--convert FROM TO` on the command line: the Request it asks (`convert_request`) and
the output of its answer (`render`); `--compare` shares the mode (compare_mode.py).

    matrix_calculator.py -a cdna3 --convert v_mfma_f32_16x16x16_f16:D v_mfma_f32_16x16x16_f16:A

FROM is `INSTRUCTION:C` or `INSTRUCTION:D`, TO `INSTRUCTION:A` or `INSTRUCTION:B`, both
instructions of the architecture -a. A port names another architecture in FROM,
`ARCH:INSTRUCTION:MATRIX` (an NVIDIA fragment: sm80:mma.m16n8k16.f32.f16.f16.f32:A), and TO
is the same matrix of an instruction of -a:

    matrix_calculator.py -a gfx1100 --convert sm80:mma.m16n8k16.f32.f16.f16.f32:A \
        v_wmma_f32_16x16x16_f16:A

The modifiers and -w apply as elsewhere (to both
instructions); --transpose says the source instruction was issued with A and B
swapped (it computed D^T); -o adds the move of every slot; --json prints the document;
--emit hip prints a device function doing the conversion.
"""
from __future__ import annotations

from formats import conversion
from formats.hip.convert import emit_conversion
from formats.json_text import text as json_text

from matrix_frontends.cli.compare_mode import compare_request, render_compare
from matrix_frontends.cli.inputs import modifiers_of
from matrix_frontends.cli.options import Args, number
from matrix_library import api as mc
from matrix_library import request as matrix_request
from matrix_library.api import Architecture, Instruction, Request
from matrix_library.checks import shown
from matrix_library.compare import Comparison
from matrix_library.conversion import Conversion

USAGE = ("--convert takes FROM TO, each INSTRUCTION:MATRIX (FROM: C or D, TO: A or B), or "
         "for a port FROM as ARCH:INSTRUCTION:MATRIX and TO the same matrix")
# Options of other modes that have no meaning here.
OTHER_MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"),
               ("detail", "-d"), ("list", "-L"), ("catalog", "--catalog"),
               ("linear_layout", "--linear-layout"), ("A", "-A"), ("B", "-B"), ("C", "-C"),
               ("D", "-D"), ("K", "-k"))


def _side(arch: Architecture, text: str, what: str) -> tuple[Instruction, str]:
    if not isinstance(text, str) or text.count(":") not in (1, 2 if what == "FROM" else 1):
        raise mc.CalcError(f"{USAGE}; got {shown(text)} as {what}")
    *other, name, matrix = text.split(":")
    if other:  # a port: ARCH:INSTRUCTION:MATRIX
        arch = mc.find_architecture(other[0])
    return mc.find_instruction(arch, name), matrix.upper()


def _modifiers(args: Args) -> dict[str, int]:
    """The modifier values given on the command line (numbers, or names: the option
    table's reading, inputs.modifiers_of)."""
    return {name: value for name, value in modifiers_of(args)._asdict().items() if value}


def _wave(args: Args) -> int:
    return number(args, "wavefront") or 0


def convert_request(args: Args) -> Request:
    """The Request a --convert (or --compare) command line asks (CalcError naming the
    bad value): a conversion, or a port when FROM names another architecture."""
    if args.given("compare"):  # --compare shares this mode's row
        return compare_request(args)
    emit = args.text("emit") or "" if args.given("emit") else None
    if emit is not None and emit.lower() != "hip":  # (given without a value: '')
        raise mc.CalcError(f"--emit takes the language to write: hip (got {shown(emit)})")
    if emit is not None and getattr(args, "json", False):
        raise mc.CalcError("--emit hip prints code: drop --json")
    for dest, option in OTHER_MODES:
        if getattr(args, dest, False):
            raise mc.CalcError(f"--convert is a mode of its own: drop {option}")
    given = args.text("architecture")
    if given is None:
        raise mc.CalcError("--convert needs the architecture: -a NAME (one of "
                           + ", ".join(a.name.lower() for a in mc.architectures()) + ")")
    arch = mc.find_architecture(given)
    pair = args.convert
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        raise mc.CalcError(USAGE)
    first, second = str(pair[0]), str(pair[1])
    src, src_matrix = _side(arch, first, "FROM")
    dst, dst_matrix = _side(arch, second, "TO")
    source = (("source", src), ("source_matrix", src_matrix))
    if src.arch != dst.arch:  # a port: no modifiers, the destination's wave size
        if _modifiers(args) or getattr(args, "transpose", False):
            raise mc.CalcError("a port (--convert ARCH:INSTRUCTION:MATRIX ...) takes no "
                               "modifiers and no --transpose")
        return Request("port", dst.architecture, dst, dst_matrix, wave=_wave(args),
                       options=source)
    # each side gets the modifiers it takes (a destination's --cbsz/--blgp or
    # --matrix-a-fmt picks its format); one neither takes goes to both, to be refused
    given_mods = _modifiers(args)
    side_mods = [{k: v for k, v in given_mods.items()
                  if inst.takes(k) or not (src.takes(k) or dst.takes(k))} for inst in (src, dst)]
    return Request("convert", dst.architecture, dst, dst_matrix, wave=_wave(args),
                   options=(*source, ("source_mods", side_mods[0]),
                            ("destination_mods", side_mods[1]),
                            ("transposed", bool(getattr(args, "transpose", False)))))


def render(request: Request, args: Args) -> str:
    """The output of a --convert or --compare command line, from its answer: text (-o:
    every slot's move), --json, or --emit hip."""
    found = matrix_request.answer(request)
    if request.mode == "compare":
        assert isinstance(found, Comparison)
        return render_compare(found, args)
    assert isinstance(found, Conversion)
    if args.given("emit"):
        return emit_conversion(found)
    if getattr(args, "json", False):
        return json_text(conversion.document(found))
    return conversion.text(found, detail=bool(getattr(args, "output", False)))
