"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

Command-line compatible with AMD's Matrix Instruction Calculator; run with -h for help.
"""
import os
import sys

__version__ = "1.0.0"

_ABSENT = object()  # an option that was not given (None: given without a value)

VALUE_OPTIONS = (  # dest, spellings, default
    ("architecture", ("-a", "--architecture"), _ABSENT),
    ("instruction", ("-i", "--instruction"), _ABSENT),
    ("cbsz", ("--cbsz",), "0"), ("abid", ("--abid",), "0"), ("blgp", ("--blgp",), "0"),
    ("opsel", ("--opsel",), "0"), ("neg", ("--neg",), "0"), ("neg_hi", ("--neg_hi",), "0"),
    ("wavefront", ("-w", "--wavefront"), "0"),
    ("i", ("-I", "--I-coordinate", "--I_coordinate"), "0"),
    ("j", ("-J", "--J-coordinate", "--J_coordinate"), "0"),
    ("k", ("-K", "--K-coordinate", "--K_coordinate"), "0"),
    ("block", ("-b", "--block"), "0"),
    ("register", ("-r", "--register"), "0"),
    ("lane", ("-l", "--lane"), "0"),
    ("opsel_a", ("--opsel-a", "--opsel_a"), "0"),
    ("opsel_b", ("--opsel-b", "--opsel_b"), "0"),
)
FLAGS = (  # dest, spellings, help
    ("version", ("-v", "--version"), "print the version and exit"),
    ("list", ("-L", "--list-instructions", "--list_instructions"),
     "list the instructions of the architecture"),
    ("detail", ("-d", "--detail-instruction", "--detail_instruction"),
     "print the instruction's facts and mapping formulas"),
    ("A", ("-A", "--A-matrix", "--A_matrix"), "query the A matrix"),
    ("B", ("-B", "--B-matrix", "--B_matrix"), "query the B matrix"),
    ("C", ("-C", "--C-matrix", "--C_matrix"), "query the C matrix"),
    ("D", ("-D", "--D-matrix", "--D_matrix"), "query the D matrix"),
    ("K", ("-k", "--compression"), "query the compression-index matrix of a sparse instruction"),
    ("SA", ("--A-scale", "--A_scale"), "query the A block scales SA[i][kb] (CDNA4 v_mfma_scale_*)"),
    ("SB", ("--B-scale", "--B_scale"), "query the B block scales SB[kb][j] (CDNA4 v_mfma_scale_*)"),
    ("get", ("-g", "--get-register", "--get_register"),
     "print the register and lane holding element (I, J, K) of block B"),
    ("entry", ("-m", "--matrix-entry", "--matrix_entry"),
     "print the matrix elements held by register R in lane L"),
    ("output", ("-o", "--output-calculation", "--output_calculation"),
     "with -D: also show how the element is computed from A, B and C"),
    ("rlayout", ("-R", "--register-layout", "--register_layout"),
     "print the matrix with the register of every element"),
    ("mlayout", ("-M", "--matrix-layout", "--matrix_layout"),
     "print the registers and lanes with the element each holds"),
    ("csv", ("-c", "--csv"), "layouts as comma-separated values"),
    ("markdown", ("--markdown",), "layouts as a Markdown table"),
    ("asciidoc", ("--asciidoc",), "layouts as an AsciiDoc table"),
    ("transpose", ("--transpose",), "swap the rows and columns of layouts"),
    ("json", ("--json",), "print one JSON document instead of text (any mode; see the README)"),
    ("catalog", ("--catalog",), "list every instruction of every architecture (or of -a's) "
     "with its facts, as a table; -L -a all does the same"),
)
# ---- gfx1250 / gfx1251 modifiers, named as LLVM's assembler names them (checked by
# layouts/gfx1250.py). Formats and scale choices take a name or its code.
GFX1250_OPTIONS = (
    ("neg_lo", ("--neg-lo", "--neg_lo"), "0"), ("neg_hi", ("--neg-hi",), "0"),
    ("matrix_a_fmt", ("--matrix-a-fmt", "--matrix_a_fmt"), "0"),
    ("matrix_b_fmt", ("--matrix-b-fmt", "--matrix_b_fmt"), "0"),
    ("index_key", ("--index-key", "--index_key"), "0"),
    ("matrix_a_scale", ("--matrix-a-scale", "--matrix_a_scale"), "0"),
    ("matrix_b_scale", ("--matrix-b-scale", "--matrix_b_scale"), "0"),
    ("matrix_a_scale_fmt", ("--matrix-a-scale-fmt", "--matrix_a_scale_fmt"), "0"),
    ("matrix_b_scale_fmt", ("--matrix-b-scale-fmt", "--matrix_b_scale_fmt"), "0"),
)
GFX1250_FLAGS = (
    ("matrix_a_reuse", ("--matrix-a-reuse", "--matrix_a_reuse"),
     "gfx1250: A operand-cache reuse hint (accepted where LLVM accepts it; moves nothing)"),
    ("matrix_b_reuse", ("--matrix-b-reuse", "--matrix_b_reuse"),
     "gfx1250: B operand-cache reuse hint (accepted where LLVM accepts it; moves nothing)"),
)
_FORMAT_NAMES = ("fp8", "bf8", "fp6", "bf6", "fp4")
GFX1250_NAMES = {  # dest -> the names of its codes 0, 1, ...
    "matrix_a_fmt": _FORMAT_NAMES, "matrix_b_fmt": _FORMAT_NAMES,
    "matrix_a_scale": ("row0", "row1"), "matrix_b_scale": ("row0", "row1"),
    "matrix_a_scale_fmt": ("e8", "e5m3", "e4m3"), "matrix_b_scale_fmt": ("e8", "e5m3", "e4m3"),
}
GFX1250_HELP = {
    "neg_lo": "gfx1250 neg_lo bits (1 = A, 2 = B, 4 = C; which are legal depends on the types)",
    "neg_hi": "gfx1250 neg_hi bits (as --neg-lo; 4 = |C|)",
    "matrix_a_fmt": "gfx1250 f8f6f4: A format, fp8, bf8, fp6, bf6, fp4 or 0-4",
    "matrix_b_fmt": "gfx1250 f8f6f4: B format, fp8, bf8, fp6, bf6, fp4 or 0-4",
    "index_key": "gfx1250 SWMMAC index_key (0-1)",
    "matrix_a_scale": "gfx1250 scaled WMMA: lanes of the A scales, row0 (0-15) or row1 (16-31)",
    "matrix_b_scale": "gfx1250 scaled WMMA: lanes of the B scales, row0 (0-15) or row1 (16-31)",
    "matrix_a_scale_fmt": "gfx1250 scaled WMMA: A scale format, e8, e5m3, e4m3 or 0-2",
    "matrix_b_scale_fmt": "gfx1250 scaled WMMA: B scale format, e8, e5m3, e4m3 or 0-2",
}
VALUE_OPTIONS += GFX1250_OPTIONS
FLAGS += GFX1250_FLAGS


def _gfx1250_code(dest, value):
    """The code of a named gfx1250 modifier value (fp4 -> 4, row1 -> 1, e5m3 -> 1), or
    the value itself when it is not a name."""
    names = GFX1250_NAMES.get(dest)
    key = value.lower() if isinstance(value, str) else value
    if names and key in names:
        return str(names.index(key))
    if names and isinstance(value, str) and not value.isdigit():
        option = next(s[0] for d, s, _ in GFX1250_OPTIONS if d == dest)
        raise ArgumentError(f"{option} takes {', '.join(names)} or their codes "
                            f"0-{len(names) - 1}, not {_shown(value)}")
    return value
# ---- end of the gfx1250 block


FILTER_HELP = ("with --catalog: keep the instructions matching KEY=VALUE; KEY is arch, type, "
               "shape (MxNxK), sparse (yes/no), kind, m, n, k or blocks; repeatable")
VALUE_HELP = {
    "architecture": "target architecture (e.g. cdna3, gfx942, mi300x; -L needs only this)",
    "instruction": "instruction mnemonic, any case (see -L)",
    "cbsz": "CBSZ modifier (A-matrix block broadcast size)",
    "abid": "ABID modifier (A-matrix broadcast block id)",
    "blgp": "BLGP modifier (B-matrix lane group pattern)",
    "opsel": "OPSEL modifier (RDNA)", "neg": "NEG modifier (RDNA)",
    "neg_hi": "NEG_HI modifier (RDNA)", "wavefront": "wave size: 32 or 64 (RDNA only)",
    "i": "row coordinate i", "j": "column coordinate j", "k": "reduction coordinate k",
    "block": "block number", "register": "register offset within the operand",
    "lane": "lane number",
    "opsel_a": "byte (0-3) of the A-scale VGPR (CDNA4 v_mfma_scale_*)",
    "opsel_b": "byte (0-3) of the B-scale VGPR (CDNA4 v_mfma_scale_*)",
    **GFX1250_HELP,
}


class ArgumentError(Exception):
    """Raised instead of argparse's own exit, so that main() reports every error alike."""


def _terminal_width():
    """shutil.get_terminal_size().columns - 2, which is what argparse uses."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def build_parser():
    """The argparse parser, which defines the command-line grammar."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise ArgumentError(message)

    class Formatter(argparse.RawDescriptionHelpFormatter):
        """argparse builds a formatter for every option it adds; giving the width here
        spares the import of shutil that argparse would make to measure the terminal."""

        def __init__(self, prog):
            super().__init__(prog, width=_terminal_width())

    parser = Parser(prog="matrix_calculator.py", description=__doc__.split("\n\n")[0],
                    formatter_class=Formatter)
    for dest, spellings, default in VALUE_OPTIONS:
        parser.add_argument(*spellings, dest=dest, nargs="?", const=None, default=default,
                            metavar="#" if default == "0" else dest.upper(),
                            help=VALUE_HELP[dest])
    for dest, spellings, text in FLAGS:
        parser.add_argument(*spellings, dest=dest, action="store_true", help=text)
    parser.add_argument("--filter", action="append", default=[], metavar="KEY=VALUE",
                        help=FILTER_HELP)
    return parser


def parse_args(argv=None):
    """The parsed command line. A plain one (every word an exact option spelling, each
    value option followed by a value not starting with '-') is read directly, which
    spares loading argparse and its regular expressions; anything else (abbreviations,
    bundled flags, --opt=value, -h, mistakes) goes to argparse, which defines the
    grammar and gives the same result for plain command lines."""
    words = sys.argv[1:] if argv is None else list(argv)
    plain = _parse_plain(words)
    return plain if plain is not None else build_parser().parse_args(words)


class _Options:
    """The options of a command line as attributes, as argparse's Namespace holds them
    (a class of its own: types.SimpleNamespace would import the types module)."""

    def __init__(self, values):
        self.__dict__.update(values)


def _parse_plain(words):
    values = {s: dest for dest, spellings, _ in VALUE_OPTIONS for s in spellings}
    flags = {s: dest for dest, spellings, _ in FLAGS for s in spellings}
    parsed = {dest: default for dest, _, default in VALUE_OPTIONS}
    parsed.update({dest: False for dest, _, _ in FLAGS}, filter=[])
    at = 0
    while at < len(words):
        word = words[at]
        if word in flags:
            parsed[flags[word]], at = True, at + 1
        elif word in values and at + 1 < len(words) and not words[at + 1].startswith("-"):
            parsed[values[word]], at = words[at + 1], at + 2
        else:
            return None
    return _Options(parsed)


def main(argv=None):
    """Run the calculator; returns the exit status: 0, 2 for any error in the command
    line, 130 when interrupted (Ctrl-C). No exception escapes."""
    try:
        try:
            args = parse_args(argv)
            text = run(args)
        except SystemExit as exc:  # --help
            return exc.code
        except ArgumentError as exc:
            return _fail(_with_hint(str(exc)))
        except ValueError as exc:  # CalcError and friends: one clear message
            return _fail(str(exc))
        return _write(text)
    except KeyboardInterrupt:
        _discard_output()
        return 130
    except BrokenPipeError:  # the reader went away during --help
        _discard_output()
        return 0
    except Exception as exc:  # a defect: still one line, not a traceback
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report this "
                     "command line", status=1)


def run(args):
    """The whole output of one command line, or an exception naming the first problem."""
    if args.json:
        _check_json(args)
    if args.version:
        text = f"matrix_calculator.py {__version__}\n"
        return _json().version(__version__) if args.json else text
    if args.catalog or args.list and _is_all(args.architecture):
        return catalog(args)
    if args.filter:
        raise ArgumentError("--filter selects catalog rows: use it with --catalog (or -L -a all)")
    arch = _architecture(args.architecture)
    if args.list:
        return _json().listing(arch) if args.json else listing(arch)
    inst = _instruction(arch, args.instruction)
    wave = _wave(arch, args.wavefront)
    if args.detail:
        from formats.detail import detail
        if inst.format_fields:  # the formats change the facts: honour their options here
            inst = _with_formats(inst, *(_number(_gfx1250_code(n, getattr(args, n)),
                                                 f"--{n.replace('_', '-')}")
                                         for n in inst.format_fields))
        return _json().detail(inst) if args.json else _header(inst) + detail(inst)
    numbers = {dest: _number(_gfx1250_code(dest, getattr(args, dest)), "/".join(spellings[:2]))
               for dest, spellings, default in VALUE_OPTIONS if default == "0"}
    numbers.update({dest: int(getattr(args, dest)) for dest, _, _ in GFX1250_FLAGS})
    return ("" if args.json else _header(inst)) + _query(args, inst, numbers, wave)


def _header(inst):
    return f"Architecture: {inst.arch}\nInstruction: {inst.name}\n"


def listing(arch):
    lines = [f"Available instructions in the {arch.name} architecture:"]
    lines += [f"    {inst.mnemonic}" for inst in arch.instructions]
    return "\n".join(lines) + "\n"


def _json():
    from formats import json_output
    return json_output


def _check_json(args):
    chosen = [flag for dest, flag in FORMATS if getattr(args, dest)]
    if chosen:
        raise ArgumentError(f"--json is an output format of its own: drop "
                            f"{' and '.join(chosen)}")


def _is_all(value):
    return isinstance(value, str) and value.lower() == "all"


def catalog(args):
    """One row per instruction of every architecture (or of -a's), kept by --filter."""
    import matrix_api
    from formats import catalog as table
    filters = matrix_api.parse_filters(args.filter)
    arch = None if args.architecture is _ABSENT or _is_all(args.architecture) \
        else _architecture(args.architecture)
    wave = _number(args.wavefront, "-w/--wavefront") or None
    if wave and arch:
        _wave(arch, args.wavefront)
    elif wave not in (None, 32, 64):
        raise ArgumentError(f"wave size {wave} is not available; use 32 or 64")
    rows = [row for row in matrix_api.catalog(filters, wave)
            if arch is None or row["architecture"] == arch.name]
    if args.json:
        return _json().catalog(rows, filters, wave, arch and arch.name)
    fmts = [dest for dest, _ in FORMATS if getattr(args, dest)]
    if len(fmts) > 1:
        raise ArgumentError("choose at most one of --csv, --markdown and --asciidoc")
    return table.text(fmts[0] if fmts else "grid", rows)


def _architecture(value):
    from instructions import ARCHITECTURES, find_architecture
    names = ", ".join(a.name.lower() for a in ARCHITECTURES)
    if value is _ABSENT or value is None:
        raise ArgumentError(f"the -a/--architecture option needs a value: one of {names}")
    arch = find_architecture(value)
    if arch is None:
        raise ArgumentError(f"unknown architecture {_shown(value)}; choose one of {names} "
                            "(or one of their gfx/product aliases)")
    return arch


def _instruction(arch, value):
    if value is _ABSENT or value is None:
        raise ArgumentError("the -i/--instruction option needs a value: an instruction of "
                            f"{arch.name} (run with -a {arch.name.lower()} -L to list them)")
    inst = arch.find(value)
    if inst is None:
        raise ArgumentError(f"{arch.name} has no instruction {_shown(value)}; "
                            f"run with -a {arch.name.lower()} -L to list them")
    return inst


def _wave(arch, value):
    wave = _number(value, "-w/--wavefront")
    if wave == 0:
        return arch.waves[0]
    if wave not in arch.waves:
        allowed = " or ".join(map(str, arch.waves))
        raise ArgumentError(f"wave size {value} is not available on {arch.name}; use {allowed}")
    return wave


def _number(value, option):
    if value is None:
        raise ArgumentError(f"the {option} option needs a value: a whole number >= 0")
    if not value.isdigit():
        raise ArgumentError(f"{option} takes a whole number >= 0 written in digits, "
                            f"not {_shown(value)}")
    try:
        return int(value)
    except ValueError:
        raise ArgumentError(f"{option} takes a decimal whole number, not {_shown(value)}"
                            ) from None


def _shown(value, limit=40):
    """A value as typed, quoted for an error message; a very long one is cut short."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit // 2]!r}... ({len(value)} characters)"


MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"))
MATRIX_FLAGS = (("A", "-A"), ("B", "-B"), ("C", "-C"), ("D", "-D"), ("K", "-k"),
                ("SA", "--A-scale"), ("SB", "--B-scale"))
MODIFIERS = ("cbsz", "abid", "blgp", "opsel", "neg", "neg_hi", "opsel_a", "opsel_b",
             *(d for d, _, _ in GFX1250_OPTIONS if d != "neg_hi"),
             *(d for d, _, _ in GFX1250_FLAGS))
FORMATS = (("csv", "--csv"), ("markdown", "--markdown"), ("asciidoc", "--asciidoc"))


def _one_of(args, choices, what):
    chosen = [flag for dest, flag in choices if getattr(args, dest)]
    if len(chosen) != 1:
        flags = ", ".join(flag for _, flag in choices)
        found = "none" if not chosen else " and ".join(chosen)
        raise ArgumentError(f"choose exactly one {what} of {flags} (got {found})")
    return next(dest for dest, _ in choices if getattr(args, dest))


def _query(args, inst, numbers, wave):
    """Validate the query options and answer the query."""
    from formats import queries
    from layouts import Modifiers, check_modifiers, check_matrix
    mode = _one_of(args, MODES, "query mode")
    matrix = _one_of(args, MATRIX_FLAGS, "matrix")
    if args.output and matrix != "D":
        raise ArgumentError(f"-o/--output-calculation works only with -D, not with -{matrix}")
    mods = Modifiers(**{m: numbers[m] for m in MODIFIERS})
    output_calc = args.output and mode in ("get", "entry")
    check_modifiers(inst, matrix, mods, output_calc, mode, wave)
    check_matrix(inst, matrix)
    if inst.format_fields:
        inst = _with_formats(inst, *(getattr(mods, n) for n in inst.format_fields))
    fmts = [dest for dest, _ in FORMATS if getattr(args, dest)]
    if len(fmts) > 1:
        raise ArgumentError("choose at most one of --csv, --markdown and --asciidoc")
    fmt = fmts[0] if fmts else "grid"
    if args.json:
        return _json().query(inst, matrix, mods, wave, mode, numbers, output_calc)
    return queries.answer(inst, matrix, mods, wave, mode, numbers, output_calc,
                          fmt, args.transpose)


def _with_formats(inst, a_code, b_code):
    """An f8f6f4 instruction with the A/B formats its format modifiers select (CBSZ/BLGP
    on CDNA4, --matrix-a-fmt/--matrix-b-fmt on gfx1250)."""
    from layouts import Modifiers, check_modifiers
    check_modifiers(inst, "A", Modifiers(**dict(zip(inst.format_fields, (a_code, b_code)))),
                    False)
    return inst.with_formats(a_code, b_code)


def _with_hint(message):
    """argparse names an unknown option or stray word but not what is allowed: say where
    to look."""
    if message.startswith("unrecognized arguments"):
        return message + " (run with -h to see the options)"
    if "ignored explicit argument" in message:
        return message + " (the option takes no value)"
    return message


def _fail(message, status=2):
    """Report an error on one line of stderr."""
    text = " ".join(line.strip() for line in message.splitlines() if line.strip())
    try:
        sys.stderr.write(f"matrix_calculator.py: error: {text}\n")
        sys.stderr.flush()
    except (AttributeError, OSError):  # no stderr, or nobody reads it
        pass
    return status


def _write(text):
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (| head): end quietly
        _discard_output()
    return 0


def _discard_output():
    """Send what is still buffered for stdout, and anything later, to the null device,
    so that the interpreter's final flush neither blocks nor complains."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, ValueError, OSError):  # no real stdout (e.g. captured)
        pass
