"""Matrix instruction calculator for AMD GPUs: where every matrix element of an MFMA,
SMFMAC, WMMA or SWMMAC instruction lives (VGPR, lane, bits), and the instruction's facts.

Command-line compatible with AMD's Matrix Instruction Calculator; run with -h for help.
"""
from __future__ import annotations

import gc
import os
import sys

import matrix_cli_lds as lds_cli  # issue 24 (LDS load plans)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the command line imports no typing at start-up
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any, NoReturn, TypeVar

    Result = TypeVar("Result")

    Arches = dict[str, tuple[tuple[str, ...], list[str]]]  # name: (aliases, mnemonics)

__version__ = "1.0.0"

_ABSENT = object()  # an option that was not given (None: given without a value)

VALUE_OPTIONS: tuple[tuple[str, tuple[str, ...], object], ...] = (  # dest, spellings, default
    ("architecture", ("-a", "--architecture"), _ABSENT),
    ("instruction", ("-i", "--instruction"), _ABSENT),
    ("cbsz", ("--cbsz",), "0"), ("abid", ("--abid",), "0"), ("blgp", ("--blgp",), "0"),
    ("opsel", ("--opsel",), "0"), ("neg", ("--neg",), "0"),
    ("neg_hi", ("--neg_hi", "--neg-hi"), "0"),
    ("wavefront", ("-w", "--wavefront"), "0"),
    ("i", ("-I", "--I-coordinate", "--I_coordinate"), "0"),
    ("j", ("-J", "--J-coordinate", "--J_coordinate"), "0"),
    ("k", ("-K", "--K-coordinate", "--K_coordinate"), "0"),
    ("block", ("-b", "--block"), "0"),
    ("register", ("-r", "--register"), "0"),
    ("lane", ("-l", "--lane"), "0"),
    ("opsel_a", ("--opsel-a", "--opsel_a"), "0"),
    ("opsel_b", ("--opsel-b", "--opsel_b"), "0"),
    ("format", ("--format",), _ABSENT),
    ("completion", ("--completion",), _ABSENT),
    # issue 14 (code for kernel writers): see _code() below
    ("emit", ("--emit",), _ABSENT),
    ("ld", ("--ld",), "0"),
    ("order", ("--order",), _ABSENT),
    ("prefix", ("--prefix",), _ABSENT),
    # pictures (issue 13): --format svg|html colour their cells by --color-by
    ("color_by", ("--color-by", "--color_by"), _ABSENT),
)
FLAGS: tuple[tuple[str, tuple[str, ...], str], ...] = (  # dest, spellings, help
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
    ("compact", ("--compact",), "with --json: the document on one line"),
    ("json_schema", ("--json-schema",), "print the JSON Schema of the --json documents"),
    ("list_architectures", ("--list-architectures",),
     "list the architectures with their gfx and product aliases"),
    # issue 14 (code for kernel writers): see _code() below
    ("lds", ("--lds",), "with --emit hip: the tiles are in LDS (__shared__) memory"),
    ("linear_layout", ("--linear-layout", "--linear_layout"),
     "print the matrix's layout as linear-layout bases (register, lane) -> (row, col)"),
)
# ---- gfx1250 / gfx1251 modifiers, named as LLVM's assembler names them (checked by
# layouts/gfx1250.py). Formats and scale choices take a name or its code.
GFX1250_OPTIONS = (
    ("neg_lo", ("--neg-lo", "--neg_lo"), "0"),
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


def _gfx1250_code(dest: str, value: Any) -> Any:
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
    "neg_hi": "NEG_HI modifier (RDNA; gfx1250: neg_hi bits as --neg-lo, 4 = |C|)",
    "wavefront": "wave size: 32 or 64, where the architecture has both (RDNA)",
    "i": "row coordinate i", "j": "column coordinate j", "k": "reduction coordinate k",
    "block": "block number", "register": "register offset within the operand",
    "lane": "lane number",
    "opsel_a": "byte (0-3) of the A-scale VGPR (CDNA4 v_mfma_scale_*)",
    "opsel_b": "byte (0-3) of the B-scale VGPR (CDNA4 v_mfma_scale_*)",
    "format": "-R/-M (and --catalog) output as a document in format NAME: any table format "
              "of tabulate (rst, latex, html-table, mediawiki, jira, orgtbl, pipe, ...), "
              "markdown, csv, tsv, long-csv, jsonl, json, or a picture: svg or html "
              "(see the README's Formats and Pictures)",
    "completion": "print a completion script for SHELL (bash or zsh) and exit",
    "emit": "print code: 'hip' (a __device__ load/store of the matrix given, or with no "
            "matrix a __global__ example of the whole instruction)",
    "ld": "with --emit hip: fixed leading dimension of the tiles (default: an ld parameter)",
    "order": "with --emit hip: tile storage order, row (row-major, default) or col",
    "prefix": "with --emit hip: name prefix of the emitted functions (default: made from "
              "the instruction, wave size, modifiers and storage options)",
    "color_by": "with --format svg or html: colour cells by lane, register, block, row or k "
                "(default: lane for -R, row for -M)",
    **GFX1250_HELP,
}


class ArgumentError(Exception):
    """Raised instead of argparse's own exit, so that main() reports every error alike."""


# ---- The command line's face (issue 12): help groups, names, completion, messages,
# output. Everything here reads the option table above.

class HelpRequested(Exception):
    """-h/--help: the help text, which main() writes like any other output."""


# The groups of -h, in order: every dest of VALUE_OPTIONS and FLAGS (and "filter") once.
GROUPS = (
    ("query modes", ("list", "list_architectures", "detail", "get", "entry", "rlayout",
                     "mlayout", "catalog", "filter")),
    ("instruction", ("architecture", "instruction", "wavefront")),
    ("matrices", ("A", "B", "C", "D", "K", "SA", "SB", "output")),
    ("coordinates (-g) and registers (-m)", ("i", "j", "k", "block", "register", "lane")),
    ("CDNA modifiers (MFMA, SMFMAC)", ("cbsz", "abid", "blgp")),
    ("RDNA modifiers (WMMA, SWMMAC)", ("opsel", "neg", "neg_hi")),
    ("CDNA4 block-scale modifiers (v_mfma_scale_*)", ("opsel_a", "opsel_b")),
    ("gfx1250 modifiers (LLVM's names)", ("neg_lo", "matrix_a_fmt", "matrix_b_fmt", "index_key",
                                          "matrix_a_scale", "matrix_b_scale",
                                          "matrix_a_scale_fmt", "matrix_b_scale_fmt",
                                          "matrix_a_reuse", "matrix_b_reuse")),
    ("output formats", ("csv", "markdown", "asciidoc", "format", "color_by", "transpose",
                        "json",
                        "compact", "json_schema")),
    ("code for kernel writers", ("emit", "ld", "order", "prefix", "lds", "linear_layout")),
    lds_cli.LDS_GROUP,  # issue 24
    ("other", ("version", "completion")),
)
METAVARS = {"architecture": "ARCH", "instruction": "INSTRUCTION", "wavefront": "32/64",
            "format": "NAME", "completion": "SHELL", "emit": "LANGUAGE", "color_by": "COLOURING",
            "order": "row/col", "prefix": "NAME"}
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
# issue 24: LDS load plans; the options and their handling live in matrix_cli_lds.py
VALUE_OPTIONS += lds_cli.LDS_OPTIONS
FLAGS += lds_cli.LDS_FLAGS
VALUE_HELP.update(lds_cli.LDS_HELP)
METAVARS.update(lds_cli.LDS_METAVARS)
INSTALLED_NAME = "matrix-calculator"  # the command pip installs (pyproject.toml)


def program_name() -> str:
    """matrix-calculator when run as the installed command, else matrix_calculator.py."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return INSTALLED_NAME if name.split(".")[0] == INSTALLED_NAME else "matrix_calculator.py"


def architecture_lines() -> list[str]:
    """One line per architecture: its name, wave sizes and aliases."""
    from instructions import ARCHITECTURES
    return [f"  {a.name.lower():6} wave{'/'.join(map(str, a.waves)):5}  "
            f"{', '.join(a.aliases)}" for a in ARCHITECTURES]


def _epilog() -> str:
    prog = program_name()
    from matrix_explorer import help_lines  # issue 21: --serve, --port, --host
    lines = [*help_lines(_terminal_width()), "", "architectures (-a takes the name or an alias, "
             "any case):"]
    lines += architecture_lines()
    lines += ["", "examples:"]
    for text, args in EXAMPLES:
        lines += [f"  {prog} {args}", f"      {text}"]
    return "\n".join(lines)


def list_architectures() -> str:
    return "\n".join(["Architectures (name, wave sizes, aliases):"] + architecture_lines()) + "\n"


def spellings() -> list[str]:
    """Every option spelling, in the order of the option table."""
    words = ["-h", "--help"]
    words += [w for _, names, _ in VALUE_OPTIONS for w in names]
    words += [w for _, names, _ in FLAGS for w in names]
    return words + ["--filter"]


def _choices() -> dict[str, list[str]]:
    """The values completion offers after an option: {dest: [words]}."""
    from formats.documents import NAMES
    from instructions import ARCHITECTURES
    arch_words = [w for a in ARCHITECTURES for w in (a.name.lower(),) + tuple(a.aliases)]
    return {"architecture": arch_words + ["all"], "format": list(NAMES),
            "completion": ["bash", "zsh"], "wavefront": ["32", "64"],
            "filter": [f"{key}=" for key in ("arch", "type", "shape", "sparse", "kind", "m",
                                             "n", "k", "blocks")]}


def completion(shell: str | None) -> str:
    """A completion script for `shell` (bash or zsh), generated from the option table."""
    from instructions import ARCHITECTURES
    if shell not in ("bash", "zsh"):
        raise ArgumentError(f"--completion takes bash or zsh, not {_shown(str(shell))}")
    choices = _choices()
    by_arch = {a.name.lower(): (a.aliases, [i.mnemonic for i in a.instructions])
               for a in ARCHITECTURES}
    options = {dest: names for dest, names, _ in VALUE_OPTIONS}
    options["filter"] = ("--filter",)
    if shell == "bash":
        return _bash(choices, by_arch, options)
    return _zsh(choices, by_arch, options)


def _bash(choices: dict[str, list[str]], by_arch: Arches,
          options: Mapping[str, tuple[str, ...]]) -> str:
    cases = "".join(f"        {'|'.join(options[dest])}) words=\"{' '.join(words)}\";;\n"
                    for dest, words in choices.items())
    arches = "".join(f"            {'|'.join((name,) + tuple(aliases))}) "
                     f"words=\"{' '.join(mnemonics)}\";;\n"
                     for name, (aliases, mnemonics) in by_arch.items())
    every = " ".join(sorted({m for _, ms in by_arch.values() for m in ms}))
    return f"""# bash completion for {INSTALLED_NAME} (made by: {INSTALLED_NAME} --completion bash)
# Load it with: source <({INSTALLED_NAME} --completion bash)
_matrix_calculator() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} words="" arch="" w
    case $prev in
{cases}        -i|--instruction)
            for ((w = 1; w < COMP_CWORD - 1; w++)); do
                case ${{COMP_WORDS[w]}} in -a|--architecture) arch=${{COMP_WORDS[w+1],,}};; esac
            done
            case $arch in
{arches}            *) words="{every}";;
            esac;;
        *) words="{' '.join(spellings())}";;
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}}
complete -F _matrix_calculator {INSTALLED_NAME} matrix_calculator.py
"""


def _zsh_text(text: str) -> str:
    return (text.replace("'", "'\\''").replace("[", "(").replace("]", ")")
            .replace(":", "\\:"))


def _zsh(choices: dict[str, list[str]], by_arch: Arches,
         options: Mapping[str, tuple[str, ...]]) -> str:
    every = " ".join(sorted({m for _, ms in by_arch.values() for m in ms}))
    values = dict(choices, instruction=every.split())
    specs = []
    for dest, names, _ in VALUE_OPTIONS:
        words = values.get(dest)
        action = f"({' '.join(words)})" if words else " "
        for name in names:
            specs.append(f"'*{name}[{_zsh_text(VALUE_HELP[dest])}]:{dest}:{action}'")
    for _, names, text in FLAGS:
        specs += [f"'*{name}[{_zsh_text(text)}]'" for name in names]
    specs.append(f"'*--filter[{_zsh_text(FILTER_HELP)}]:filter:({' '.join(choices['filter'])})'")
    specs += ["'(- *)'{-h,--help}'[show the help and exit]'"]
    lines = " \\\n    ".join(specs)
    return f"""#compdef {INSTALLED_NAME} matrix_calculator.py
# zsh completion for {INSTALLED_NAME} (made by: {INSTALLED_NAME} --completion zsh)
# Load it with: source <({INSTALLED_NAME} --completion zsh), or save it as _{INSTALLED_NAME}
# in a directory of $fpath.
_matrix_calculator() {{
  _arguments -s \\
    {lines}
}}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _matrix_calculator "$@"
else
  compdef _matrix_calculator {INSTALLED_NAME} matrix_calculator.py
fi
"""


def _closest(word: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """The known words closest to `word` (any case), best first."""
    import difflib
    lowered = {k.lower(): k for k in known}
    return [lowered[c] for c in difflib.get_close_matches(word.lower(), list(lowered),
                                                          n=limit, cutoff=0.6)]


def _did_you_mean(word: str, known: Iterable[str], limit: int = 3) -> str:
    """' (did you mean x or y?)' for the known words closest to `word`, or ''."""
    close = _closest(word, known, limit)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def architecture_hint(value: str) -> str:
    from instructions import ARCHITECTURES
    return _did_you_mean(value, [w for a in ARCHITECTURES
                                 for w in (a.name.lower(),) + tuple(a.aliases)])


def instruction_hint(arch: Any, value: str) -> str:
    """Where else the instruction exists, and the closest spellings on `arch`."""
    from instructions import ARCHITECTURES
    elsewhere = [a.name for a in ARCHITECTURES if a is not arch and a.find(value) is not None]
    hint = _did_you_mean(value, [i.mnemonic for i in arch.instructions])
    if elsewhere:
        hint += f"; {value} is an instruction of {' and '.join(elsewhere)}"
    return hint


def _option_hint(message: str) -> str:
    """Did-you-mean for each unknown option that argparse names."""
    words = message.split(":", 1)[1].split() if ":" in message else []
    known = spellings()
    hints = [f"{w} is not an option; did you mean {close[0]}?" for w in words
             if w.startswith("-") for close in [_closest(w.split("=")[0], known, 1)] if close]
    return ("; " + "; ".join(hints)) if hints else ""


def _terminal_width() -> int:
    """shutil.get_terminal_size().columns - 2, which is what argparse uses."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def build_parser() -> Any:
    """The argparse parser, which defines the command-line grammar; -h shows its options
    in the groups of GROUPS, then the architectures and examples."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise ArgumentError(message)

        # -h: main() writes the text like any output
        def print_help(self, file: Any = None) -> None:
            raise HelpRequested(self.format_help())

    class Formatter(argparse.RawDescriptionHelpFormatter):
        """argparse builds a formatter for every option it adds; giving the width here
        spares the import of shutil that argparse would make to measure the terminal."""

        def __init__(self, prog: str) -> None:
            super().__init__(prog, width=_terminal_width())

    parser = Parser(prog=program_name(), description=__doc__.split("\n\n")[0],
                    epilog=_epilog(), formatter_class=Formatter)
    values = {dest: (spellings, default) for dest, spellings, default in VALUE_OPTIONS}
    flags = {dest: (spellings, text) for dest, spellings, text in FLAGS}
    for title, dests in GROUPS:
        group = parser.add_argument_group(title)
        for dest in dests:
            if dest in values:
                spellings, default = values[dest]
                group.add_argument(*spellings, dest=dest, nargs="?", const=None,
                                   default=default, help=VALUE_HELP[dest],
                                   metavar="#" if default == "0" else METAVARS[dest])
            elif dest in flags:
                spellings, text = flags[dest]
                group.add_argument(*spellings, dest=dest, action="store_true", help=text)
            else:  # --filter
                group.add_argument("--filter", action="append", default=[],
                                   metavar="KEY=VALUE", help=FILTER_HELP)
    parser.add_argument("--convert", nargs=2, metavar=("FROM", "TO"), help="plan moving "
                        "INSTRUCTION:D (or C) into INSTRUCTION:A (or B) (matrix_convert.py)")
    return parser


def parse_args(argv: Sequence[str] | None = None) -> Any:
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

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


def _parse_plain(words: list[str]) -> _Options | None:
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


def command() -> int:
    """The command (matrix_calculator.py and the installed matrix-calculator): main()
    on this process's own command line, with Python's cycle collector off, as the
    process then ends. One query makes no reference cycles worth collecting, yet with
    the collector on, the tens of thousands of objects importing tabulate creates
    (most of them for importlib.metadata) are traversed again and again, and once
    more at exit: about 5 ms of a table query (README, Speed). main() itself leaves
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
            from matrix_explorer import serve
            return serve(words)
        status, text = respond(words)
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
        args = parse_args(argv)
        args.words = list(argv)  # the command line as given (recorded by --emit hip)
        return 0, _answer(args)
    except HelpRequested as help_text:
        return 0, str(help_text)
    except ArgumentError as exc:
        return 2, _with_hint(str(exc))
    except ValueError as exc:  # CalcError and friends: one clear message
        return 2, str(exc)
    except ModuleNotFoundError as exc:  # a run-time dependency that is not installed
        return 1, (f"this needs the Python package {exc.name}, which is not installed "
                   f"(pip install {exc.name}, or install the calculator with pip)")


def _answer(args: Any) -> str:
    """The output of one command line: the options answered here (issue 12's), or run()."""
    if args.format is None:
        raise ArgumentError("the --format option needs a value: one of "
                            + ", ".join(_format_names()))
    if args.format == "json":  # --format json is --json
        args.json, args.format = True, _ABSENT
    if args.format is not _ABSENT and args.format not in _format_names():
        raise ArgumentError(f"unknown format {_shown(args.format)}; choose one of "
                            + ", ".join(_format_names()) + _did_you_mean(args.format,
                                                                         _format_names()))
    if args.json and args.format is not _ABSENT:
        raise ArgumentError(f"--json is an output format of its own: drop --format {args.format}")
    if args.compact and not args.json:
        raise ArgumentError("--compact shapes the --json document: use it with --json")
    if args.completion is not _ABSENT:
        return completion(args.completion)
    if args.json_schema:
        return _schema_text()
    if args.list_architectures:
        return _json().architectures() if args.json else list_architectures()
    text: str = run(args)
    if args.compact:
        import json
        text = json.dumps(json.loads(text), separators=(",", ":")) + "\n"
    return text


def _format_names() -> tuple[str, ...]:
    from formats.documents import NAMES
    return NAMES


def _schema_text() -> str:
    """The JSON Schema shipped inside the formats package."""
    from pathlib import Path
    return (Path(__file__).resolve().parent / "formats" / "output.schema.json").read_text(
        encoding="utf-8")


def run(args: Any) -> str:
    """The whole output of one command line, or an exception naming the first problem."""
    if getattr(args, "convert", None):  # issue 20: matrix_convert.py
        from matrix_convert import run_convert
        return run_convert(args)
    if args.json:
        _check_json(args)
    picture = _picture_format(args)  # issue 13: pictures are drawn for -R/-M only
    listing_all = args.catalog or args.list and _is_all(args.architecture)
    if picture and (args.version or args.detail or args.list and not listing_all
                    or listing_all and picture == "svg"):  # (the catalog has an html table)
        raise ArgumentError(f"--format {picture} draws layouts: use it with -R or -M")
    if args.version:
        text = f"{program_name()} {__version__}\n"
        return _json().version(__version__) if args.json else text
    if args.catalog or args.list and _is_all(args.architecture):
        return catalog(args)
    if args.filter:
        raise ArgumentError("--filter selects catalog rows: use it with --catalog (or -L -a all)")
    arch = _architecture(args.architecture)
    if args.list:
        return _json().listing(arch) if args.json else listing(arch)
    inst = _instruction(arch, args.instruction)
    wave = _wave(inst, args.wavefront)
    if lds_cli.wanted(args):  # issue 24: LDS load plans (matrix_cli_lds.py)
        return lds_cli.run_lds(args, inst, wave)
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
    if args.emit is not _ABSENT or args.linear_layout or args.lds or numbers["ld"] \
            or args.order is not _ABSENT or args.prefix is not _ABSENT:
        return _code(args, inst, numbers, wave)
    return ("" if args.json or _is_document(args) else _header(inst)) \
        + _query(args, inst, numbers, wave)


def _header(inst: Any) -> str:
    return f"Architecture: {inst.arch}\nInstruction: {inst.name}\n"


def listing(arch: Any) -> str:
    lines = [f"Available instructions in the {arch.name} architecture:"]
    lines += [f"    {inst.mnemonic}" for inst in arch.instructions]
    return "\n".join(lines) + "\n"


def _json() -> Any:
    from formats import json_output
    return json_output


def _check_json(args: Any) -> None:
    chosen = [flag for dest, flag in FORMATS if getattr(args, dest)]
    if chosen:
        raise ArgumentError(f"--json is an output format of its own: drop "
                            f"{' and '.join(chosen)}")


def _is_all(value: object) -> bool:
    return isinstance(value, str) and value.lower() == "all"


def catalog(args: Any) -> str:
    """One row per instruction of every architecture (or of -a's), kept by --filter."""
    import matrix_api
    from formats import catalog as table
    filters = matrix_api.parse_filters(args.filter)
    table.check_filters(filters)
    arch = None if args.architecture is _ABSENT or _is_all(args.architecture) \
        else _architecture(args.architecture)
    wave = _number(args.wavefront, "-w/--wavefront") or None
    if wave and arch and wave not in arch.waves:
        allowed = " or ".join(map(str, arch.waves))
        raise ArgumentError(f"wave size {wave} is not available on {arch.name}; use {allowed}")
    rows = [row for row in _checked(matrix_api.catalog, filters, wave)
            if arch is None or row["architecture"] == arch.name]
    if args.json:
        return str(_json().catalog(rows, filters, wave, arch and arch.name))
    return table.text(_table_format(args), rows)


def _architecture(value: Any) -> Any:
    from instructions import ARCHITECTURES, find_architecture
    names = ", ".join(a.name.lower() for a in ARCHITECTURES)
    if value is _ABSENT or value is None:
        raise ArgumentError(f"the -a/--architecture option needs a value: one of {names}")
    arch = find_architecture(value)
    if arch is None:
        raise ArgumentError(f"unknown architecture {_shown(value)}{architecture_hint(value)}; "
                            f"choose one of {names} (or one of their gfx/product aliases)")
    return arch


def _instruction(arch: Any, value: Any) -> Any:
    if value is _ABSENT or value is None:
        raise ArgumentError("the -i/--instruction option needs a value: an instruction of "
                            f"{arch.name} (run with -a {arch.name.lower()} -L to list them)")
    inst = arch.find(value)
    if inst is None:
        raise ArgumentError(f"{arch.name} has no instruction {_shown(value)}"
                            f"{instruction_hint(arch, value)}; "
                            f"run with -a {arch.name.lower()} -L to list them")
    return inst


def _wave(inst: Any, value: Any) -> int:
    """The wave size -w names (the instruction's default for 0), checked by the library."""
    import matrix_api
    return _checked(matrix_api.wave_size, inst, _number(value, "-w/--wavefront"))


def _number(value: Any, option: str) -> int:
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


def _shown(value: str, limit: int = 40) -> str:
    """A value as typed, quoted for an error message; a very long one is cut short."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit // 2]!r}... ({len(value)} characters)"


MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"))
MATRIX_FLAGS = (("A", "-A"), ("B", "-B"), ("C", "-C"), ("D", "-D"), ("K", "-k"),
                ("SA", "--A-scale"), ("SB", "--B-scale"))
MODIFIERS = ("cbsz", "abid", "blgp", "opsel", "neg", "neg_hi", "opsel_a", "opsel_b",
             *(d for d, _, _ in GFX1250_OPTIONS),
             *(d for d, _, _ in GFX1250_FLAGS))
FORMATS = (("csv", "--csv"), ("markdown", "--markdown"), ("asciidoc", "--asciidoc"))


def _one_of(args: Any, choices: Sequence[tuple[str, str]], what: str) -> str:
    chosen = [flag for dest, flag in choices if getattr(args, dest)]
    if len(chosen) != 1:
        flags = ", ".join(flag for _, flag in choices)
        found = "none" if not chosen else " and ".join(chosen)
        raise ArgumentError(f"choose exactly one {what} of {flags} (got {found})")
    return next(dest for dest, _ in choices if getattr(args, dest))


def _query(args: Any, inst: Any, numbers: dict[str, int], wave: int) -> str:
    """Validate the query options and answer the query. The library validates the
    instruction, matrix, modifiers, wave size and numbers (matrix_api.operand, ...);
    its errors name our options (_checked)."""
    import matrix_api
    from formats import queries
    mode = _one_of(args, MODES, "query mode")
    matrix = _one_of(args, MATRIX_FLAGS, "matrix")
    if args.output and matrix != "D":
        raise ArgumentError(f"-o/--output-calculation works only with -D, not with -{matrix}")
    mods = matrix_api.Modifiers(**{m: numbers[m] for m in MODIFIERS})
    output_calc = args.output and mode in ("get", "entry")
    _checked(matrix_api.operand, inst, matrix, mods=mods, wave=wave, output_calc=output_calc)
    if _picture_format(args):
        return _checked(_picture, args, inst, matrix, mods, wave, mode)
    fmt = _table_format(args)
    if args.json:
        return str(_checked(_json().query, inst, matrix, mods, wave, mode, numbers,
                            output_calc))
    if _is_document(args):
        return _checked(_document, fmt, inst, matrix, mods, wave, mode, args.transpose)
    return _checked(queries.answer, inst, matrix, mods, wave, mode, numbers, output_calc,
                    fmt, args.transpose)


# The options of the library's numbered arguments (CalcError.argument).
ARGUMENT_OPTIONS = {"i": "-I", "j": "-J", "k": "-K", "block": "-b", "register": "-r",
                    "lane": "-l", "wave": "-w"}


def _checked(function: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """function(*args, **kwargs), its CalcErrors naming the option at fault."""
    from layouts.core import CalcError
    try:
        return function(*args, **kwargs)
    except CalcError as exc:
        option = ARGUMENT_OPTIONS.get(exc.argument or "")
        if option is None:
            raise
        raise CalcError(f"{option}: {exc}", exc.argument) from None


# ---- pictures (issue 13)



def _picture_format(args: Any) -> str | None:
    """The picture format (svg or html) --format asks for, or None; checks its value
    and that --color-by comes with it."""
    from formats import COLOR_KEYS, PICTURES
    fmt: Any = getattr(args, "format", _ABSENT)
    color: Any = getattr(args, "color_by", _ABSENT)
    if fmt is _ABSENT:
        if color is not _ABSENT:
            raise ArgumentError("--color-by colours pictures: use it with --format svg "
                                "or --format html")
        return None
    colors = ", ".join(COLOR_KEYS)
    if fmt is None or color is None:
        option, allowed = ("--format", "svg or html") if fmt is None else ("--color-by", colors)
        raise ArgumentError(f"the {option} option needs a value: {allowed}")
    if fmt.lower() not in PICTURES:
        if color is not _ABSENT:
            raise ArgumentError("--color-by colours pictures: use it with --format svg "
                                "or --format html")
        return None
    if color is not _ABSENT and color.lower() not in COLOR_KEYS:
        raise ArgumentError(f"--color-by takes {colors}, not {_shown(color)}")
    return str(fmt).lower()


def _picture(args: Any, inst: Any, matrix: str, mods: Any, wave: int, mode: str) -> str:
    """-R or -M drawn by formats.pictures (the engine's answers, as SVG or HTML)."""
    fmt = str(_picture_format(args))
    if mode not in ("rlayout", "mlayout"):
        flag = dict(MODES)[mode]
        raise ArgumentError(f"--format {fmt} draws layouts: use it with -R or -M, not {flag}")
    chosen = [flag for dest, flag in FORMATS if getattr(args, dest)]
    if chosen or args.json:
        other = " and ".join(chosen + (["--json"] if args.json else []))
        raise ArgumentError(f"--format {fmt} is an output format of its own: drop {other}")
    from formats import documents
    color = None if args.color_by is _ABSENT else args.color_by.lower()
    query = documents.Query(inst, matrix, mods, wave, mode, args.transpose, color_by=color)
    return documents.render(fmt, query)


def _with_formats(inst: Any, a_code: int, b_code: int) -> Any:
    """A format-family instruction with the A/B formats its format modifiers select
    (CBSZ/BLGP on CDNA4, --matrix-a-fmt/--matrix-b-fmt on gfx1250)."""
    import matrix_api
    return matrix_api.with_formats(inst, dict(zip(inst.format_fields, (a_code, b_code))))


def _table_format(args: Any) -> str:
    """The table format chosen by --csv/--markdown/--asciidoc or --format (grid if none)."""
    fmts = [dest for dest, _ in FORMATS if getattr(args, dest)]
    if len(fmts) > 1:
        raise ArgumentError("choose at most one of --csv, --markdown and --asciidoc")
    if args.format is not _ABSENT:
        if fmts:
            raise ArgumentError(f"choose one of --format and --{fmts[0]}")
        return str(args.format)
    return fmts[0] if fmts else "grid"


def _is_document(args: Any) -> bool:
    """Whether a --format document answers this command line (a -R or -M query)."""
    return args.format is not _ABSENT and (args.rlayout or args.mlayout)


def _document(fmt: str, inst: Any, matrix: str, mods: Any, wave: int, mode: str,
              transpose: bool) -> str:
    from formats import documents
    return documents.render(fmt, documents.Query(inst, matrix, mods, wave, mode, transpose))


def _with_hint(message: str) -> str:
    """argparse names an unknown option or stray word but not what is allowed: say where
    to look."""
    if message.startswith("unrecognized arguments"):
        return message + _option_hint(message) + " (run with -h to see the options)"
    if "ignored explicit argument" in message:
        return message + " (the option takes no value)"
    return message


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


# ---- issue 14: code for kernel writers (--emit hip, --linear-layout) ---------------------
# Kept in one block for the merge; the renderers are formats/hip.py and layouts/linear.py.

def _code(args: Any, inst: Any, numbers: dict[str, int], wave: int) -> str:
    """--emit hip [-A|-B|-C|-D|-k|--A-scale|--B-scale] [--ld N] [--order row|col] [--lds],
    or --linear-layout with one matrix (text, or --json)."""
    from layouts import Modifiers
    mods = Modifiers(**{m: numbers[m] for m in MODIFIERS})
    chosen = [dest for dest, _ in MATRIX_FLAGS if getattr(args, dest)]
    if len(chosen) > 1:
        raise ArgumentError(f"choose at most one matrix with --emit/--linear-layout (got "
                            f"{' and '.join(f for d, f in MATRIX_FLAGS if d in chosen)})")
    matrix = chosen[0] if chosen else None
    modes = [flag for dest, flag in MODES + (("output", "-o"),) if getattr(args, dest)]
    if modes:
        raise ArgumentError(f"--emit and --linear-layout are modes of their own: drop "
                            f"{' and '.join(modes)}")
    if args.linear_layout:
        if args.emit is not _ABSENT or args.lds or numbers["ld"] or args.order is not _ABSENT \
                or args.prefix is not _ABSENT:
            raise ArgumentError("--linear-layout takes none of --emit, --ld, --order, --lds, "
                                "--prefix")
        if matrix is None:
            raise ArgumentError("--linear-layout needs a matrix: one of "
                                + ", ".join(flag for _, flag in MATRIX_FLAGS))
        return _linear_layout(args, inst, matrix, mods, wave)
    if args.emit is _ABSENT or args.emit is None or args.emit.lower() != "hip":
        given = "no value" if args.emit in (_ABSENT, None) else _shown(args.emit)
        raise ArgumentError(f"--emit takes the language to write: hip (got {given}); "
                            "--ld, --order and --lds go with --emit hip")
    order = "row" if args.order is _ABSENT else (args.order or "").lower()
    if order not in ("row", "col"):
        raise ArgumentError(f"--order takes row or col, not {_shown(args.order or '')}")
    if args.json:
        raise ArgumentError("--emit hip prints code: drop --json")
    from formats import hip
    prefix = None if args.prefix is _ABSENT else (args.prefix or "")
    options = hip.Options(ld=numbers["ld"] or None, order=order, lds=args.lds, prefix=prefix,
                          command=_command_line(args.words))
    return hip.emit(inst, matrix, mods, wave, options)


def _command_line(words: Sequence[str]) -> str:
    import shlex
    return shlex.join([program_name(), *words])


def _linear_layout(args: Any, inst: Any, matrix: str, mods: Any, wave: int) -> str:
    import matrix_api
    result = matrix_api.linear_layout(inst, matrix, mods=mods, wave=wave)
    if args.json:
        return str(_json().linear_layout(inst, matrix, mods, wave))
    lines = [_header(inst).rstrip("\n"), f"Matrix: {matrix} (wave{wave})",
             f"Out dims: {', '.join(result['out_dims'])}"]
    if result["bases"] is None:
        lines.append(f"No linear layout: {result['reason']}")
    else:
        for name in result["in_dims"]:
            bases = ", ".join("[" + ", ".join(map(str, b)) + "]"
                              for b in result["bases"][name])
            lines.append(f"{name}: [{bases}]")
    if result["note"]:
        lines.append(f"Note: {result['note']}")
    return "\n".join(lines) + "\n"
