"""The command line as data: one `Option` row per option.

The rows feed argparse (`build_parser`, which defines the grammar), the direct reading
of plain command lines (`parse_plain`, which spares loading argparse), `-h` (groups,
metavars, help lines), the completion scripts (completion.py: `choices` and
`complete`) and did-you-mean (`spellings`). The rows are written out as data; the
modifier rows are made from the modifier table (instructions/modifiers.py) and the plan
modes' rows from their modules' tables (lds_options.py, preshuffle_options.py,
budget_options.py), one row each.

Adding an option is adding a row: `dest` (the attribute of the parsed command line),
its spellings, its -h group and line, and for a value option its metavar and the values
completion offers. `reference` marks the options of AMD's calculator, which keep its
behaviour (a mode ignores those it does not use); the modes of modes.py say which of
our own options each reads, and any other given is an error.
"""

from __future__ import annotations

import os
import sys

from instructions.modifiers import GROUPS as MODIFIER_GROUPS
from instructions.modifiers import MODIFIERS as MODIFIER_SPECS
from instructions.record import Record

from matrix_frontends.cli.budget_options import BUDGET_GROUP, BUDGET_OPTIONS
from matrix_frontends.cli.lds_options import (
    LDS_COMPLETE,
    LDS_FLAGS,
    LDS_GROUP,
    LDS_HELP,
    LDS_LIMITS,
    LDS_METAVARS,
    LDS_OPTIONS,
)
from matrix_frontends.cli.messages import message_text as message_text
from matrix_frontends.cli.preshuffle_options import PRESHUFFLE_GROUP, PRESHUFFLE_OPTIONS
from matrix_library import __version__ as __version__  # (the package's)
from matrix_library.filters import FILTERS

TYPE_CHECKING = False
if TYPE_CHECKING:  # (argparse loads only for a command line parse_plain does not read)
    from argparse import ArgumentParser
    from collections.abc import Callable, Container, Iterable, Sequence
    from typing import NoReturn

ABSENT = "\0absent"  # the value of a value option that was not given (None: given bare)
FLAG, VALUE, NUMBER, APPEND = "flag", "value", "number", "append"
PAIR = "pair"  # two words (--convert FROM TO); `metavar` names both, separated by a space
EXPLORER_PORT, EXPLORER_HOST = 8642, "127.0.0.1"  # --serve's defaults (explorer/)
PYODIDE_VERSION = "314.0.8"  # --export-site's default Pyodide (explorer/export.py)
PYODIDE_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"


class Option(Record):
    """One command-line option."""
    dest: str                     # attribute of the parsed command line
    spellings: tuple[str, ...]    # every spelling, the canonical first
    group: str                    # the -h group
    help: str                     # its -h line
    kind: str = FLAG              # FLAG, VALUE (a word), NUMBER (digits), APPEND (repeatable),
    #                               PAIR (two words)
    metavar: str = ""
    choices: tuple[str, ...] = ()  # the values completion offers (names of codes for numbers)
    complete: str = ""            # completion computed at run time: arch, instruction, format
    reference: bool = False       # an option of AMD's calculator (kept as it behaves there)
    limit: int = 0                # NUMBER: the largest value the command line accepts

    @property
    def default(self) -> object:
        if self.kind == FLAG:
            return False
        if self.kind == APPEND:
            return ()
        return "0" if self.kind == NUMBER and self.reference else ABSENT

    @property
    def name(self) -> str:
        """The spelling messages use: the first two joined (-I/--I-coordinate)."""
        return "/".join(self.spellings[:2]) if self.spellings[0][1] != "-" \
            else self.spellings[0]


# The modifiers, one row each, from the modifier table (instructions/modifiers.py): a
# value over its encoding field (`field`) is wrong for every instruction (the library then
# checks the instruction's own range); `reference`: AMD's calculator has it too.


MODES_GROUP, INST, MATRICES = "query modes", "instruction", "matrices"
COORDS, OUTPUT = "coordinates (-g) and registers (-m)", "output formats"
CODE, OTHER = "code for kernel writers", "other"
LDS, CONVERT, EXPLORER = LDS_GROUP[0], "chaining instructions", "layout explorer"
PRESHUFFLE = PRESHUFFLE_GROUP[0]
FILTER_KEYS = FILTERS  # (the catalog's keys: -h, completion and docs/formats.md list them)
_COORDINATE = 0  # coordinates, registers, lanes: the library checks them against the
# instruction (AMD's calculator accepts any number in an option the mode does not use)

OPTIONS: tuple[Option, ...] = (
    Option("list", ("-L", "--list-instructions", "--list_instructions"), MODES_GROUP,
           "list the instructions of the architecture", reference=True),
    Option("list_architectures", ("--list-architectures",), MODES_GROUP,
           "list the architectures with their gfx and product aliases"),
    Option("detail", ("-d", "--detail-instruction", "--detail_instruction"), MODES_GROUP,
           "print the instruction's facts and mapping formulas", reference=True),
    Option("get", ("-g", "--get-register", "--get_register"), MODES_GROUP,
           "print the register and lane holding element (I, J, K) of block B", reference=True),
    Option("entry", ("-m", "--matrix-entry", "--matrix_entry"), MODES_GROUP,
           "print the matrix elements held by register R in lane L", reference=True),
    Option("rlayout", ("-R", "--register-layout", "--register_layout"), MODES_GROUP,
           "print the matrix with the register of every element", reference=True),
    Option("mlayout", ("-M", "--matrix-layout", "--matrix_layout"), MODES_GROUP,
           "print the registers and lanes with the element each holds", reference=True),
    Option("catalog", ("--catalog",), MODES_GROUP, "list every instruction of every "
           "architecture (or of -a's) with its facts, as a table; -L -a all does the same"),
    Option("filter", ("--filter",), MODES_GROUP, "with --catalog: keep the instructions "
           "matching KEY=VALUE; KEY is " + ", ".join(FILTER_KEYS[:-1]) + " or "
           + FILTER_KEYS[-1] + " (shape: MxNxK; type: any name, fp8 = e4m3, bf8 = e5m2); "
           "repeatable", APPEND, "KEY=VALUE", tuple(f"{k}=" for k in FILTER_KEYS)),
    Option("batch", ("--batch",), MODES_GROUP, "answer many command lines, one a line, "
           "read from FILE (- for standard input); outputs are separated by a line '#---', or "
           "with --json are JSON Lines", VALUE, "FILE", complete="file"),
    Option("architecture", ("-a", "--architecture"), INST,
           "target architecture (e.g. cdna3, gfx942, mi300x; -L needs only this)", VALUE, "ARCH",
           complete="arch", reference=True),
    Option("instruction", ("-i", "--instruction"), INST,
           "instruction mnemonic, any case (see -L)", VALUE, "INSTRUCTION",
           complete="instruction", reference=True),
    Option("wavefront", ("-w", "--wavefront"), INST,
           "wave size: 32 or 64, where the architecture has both (RDNA)", NUMBER, "32/64",
           ("32", "64"), limit=128, reference=True),  # (128: a wgmma warpgroup)
    Option("A", ("-A", "--A-matrix", "--A_matrix"), MATRICES, "query the A matrix",
           reference=True),
    Option("B", ("-B", "--B-matrix", "--B_matrix"), MATRICES, "query the B matrix",
           reference=True),
    Option("C", ("-C", "--C-matrix", "--C_matrix"), MATRICES, "query the C matrix",
           reference=True),
    Option("D", ("-D", "--D-matrix", "--D_matrix"), MATRICES, "query the D matrix",
           reference=True),
    Option("K", ("-k", "--compression"), MATRICES,
           "query the compression-index matrix of a sparse instruction", reference=True),
    Option("SA", ("--A-scale", "--A_scale"), MATRICES,
           "query the A block scales SA[i][kb] (CDNA4 v_mfma_scale_*)"),
    Option("SB", ("--B-scale", "--B_scale"), MATRICES,
           "query the B block scales SB[kb][j] (CDNA4 v_mfma_scale_*)"),
    Option("output", ("-o", "--output-calculation", "--output_calculation"), MATRICES,
           "with -D: also show how the element is computed from A, B and C", reference=True),
    Option("i", ("-I", "--I-coordinate", "--I_coordinate"), COORDS, "row coordinate i", NUMBER,
           "#", limit=_COORDINATE, reference=True),
    Option("j", ("-J", "--J-coordinate", "--J_coordinate"), COORDS, "column coordinate j",
           NUMBER, "#", limit=_COORDINATE, reference=True),
    Option("k", ("-K", "--K-coordinate", "--K_coordinate"), COORDS, "reduction coordinate k",
           NUMBER, "#", limit=_COORDINATE, reference=True),
    Option("block", ("-b", "--block"), COORDS, "block number", NUMBER, "#", limit=_COORDINATE,
           reference=True),
    Option("register", ("-r", "--register"), COORDS, "register offset within the operand",
           NUMBER, "#", limit=_COORDINATE, reference=True),
    Option("lane", ("-l", "--lane"), COORDS, "lane number", NUMBER, "#", limit=_COORDINATE,
           reference=True),
    *(Option(spec.name, spec.options, spec.group, spec.help, FLAG if spec.flag else NUMBER,
             "" if spec.flag else spec.metavar, () if spec.flag else spec.names,
             reference=spec.reference and not spec.flag, limit=0 if spec.flag else spec.field)
      for spec in MODIFIER_SPECS),
    Option("csv", ("-c", "--csv"), OUTPUT, "layouts as comma-separated values", reference=True),
    Option("markdown", ("--markdown",), OUTPUT, "layouts as the reference's Markdown text "
           "(its header lines above each table; a document: --format markdown)", reference=True),
    Option("asciidoc", ("--asciidoc",), OUTPUT, "layouts as an AsciiDoc table", reference=True),
    Option("format", ("--format",), OUTPUT, "-R/-M (and --catalog) output as a document in "
           "format NAME: any table format of tabulate (rst, latex, html-table, mediawiki, "
           "jira, orgtbl, pipe, ...), markdown, csv, tsv, long-csv, jsonl, json, or a picture: "
           "svg or html (see docs/formats.md)", VALUE, "NAME", complete="format"),
    Option("color_by", ("--color-by", "--color_by"), OUTPUT, "with --format svg or html: "
           "colour cells by lane, register, block, row or k (default: lane for -R, row for -M)",
           VALUE, "COLOURING", ("lane", "register", "block", "row", "k")),
    Option("transpose", ("--transpose",), OUTPUT, "swap the rows and columns of layouts",
           reference=True),
    Option("json", ("--json",), OUTPUT,
           "print one JSON document instead of text (any mode; see docs/json.md)"),
    Option("compact", ("--compact",), OUTPUT, "with --json: the document on one line"),
    Option("json_schema", ("--json-schema",), OUTPUT,
           "print the JSON Schema of the --json documents"),
    Option("emit", ("--emit",), CODE, "print code: hip (the matrix's load/store, or an "
           "example of -i), probe (a self-checking program), or the matrix's layout as a "
           "CuTe layout (cute) or a Triton Gluon layout (gluon; see docs/exports.md)", VALUE,
           "LANGUAGE", ("hip", "probe", "cute", "gluon")),
    Option("ld", ("--ld",), CODE, "with --emit hip: fixed leading dimension of the tiles "
           "(default: an ld parameter)", NUMBER, "#", limit=2147483647),
    Option("order", ("--order",), CODE, "with --emit hip: tile storage order, row "
           "(row-major, default) or col", VALUE, "row/col", ("row", "col")),
    Option("prefix", ("--prefix",), CODE, "with --emit hip: name prefix of the emitted "
           "functions (default: made from the instruction, wave size, modifiers and storage "
           "options)", VALUE, "NAME"),
    Option("lds", ("--lds",), CODE, "with --emit hip: the tiles are in LDS (__shared__) memory"),
    Option("verification", ("--verification",), OUTPUT, "with -d: what it was checked against"),
    Option("ck_tile", ("--ck-tile", "--ck_tile"), OUTPUT,
           "with -d: the per-lane counts of ck_tile's warp-gemm attributes"),
    Option("linear_layout", ("--linear-layout", "--linear_layout"), CODE,
           "print the matrix's layout as linear-layout bases (register, lane) -> (row, col)"),
    # LDS load plans (the rows' texts: lds_options.py; handling: lds_mode.py)
    *(Option(dest, spelled, LDS, LDS_HELP[dest], NUMBER if dest in LDS_LIMITS else VALUE,
             LDS_METAVARS[dest], ("k", "mn") if dest == "lds_order" else (),
             complete=LDS_COMPLETE.get(dest, ""), limit=LDS_LIMITS.get(dest, 0))
      for dest, spelled, _ in LDS_OPTIONS),
    *(Option(dest, spelled, LDS, text) for dest, spelled, text in LDS_FLAGS),
    # preshuffled operands and epilogue stores (rows: preshuffle_options.py; handling:
    # preshuffle_mode.py)
    *(Option(dest, spelled, PRESHUFFLE, text, VALUE if metavar else FLAG, metavar)
      for dest, spelled, text, metavar in PRESHUFFLE_OPTIONS),
    # products, peaks and budgets (the rows: budget_options.py; handling: budget_mode.py)
    *(Option(d, s, BUDGET_GROUP[0], h, k, m, limit=n) for d, s, k, m, h, n in BUDGET_OPTIONS),
    # chaining instructions (convert_mode.run_convert)
    Option("convert", ("--convert",), CONVERT, "plan moving INSTRUCTION:D (or C) of one "
           "instruction into INSTRUCTION:A (or B) of the next, both of -a's architecture; "
           "with --transpose, -o, --json or --emit hip (see docs/chaining.md)", PAIR,
           "FROM TO", complete="instruction"),
    Option("compare", ("--compare",), CONVERT, "show -A/-B/-C/-D of -a/-i beside that of "
           "ARCH:INSTRUCTION, element by element (docs/porting.md)", VALUE, "ARCH:INSTRUCTION"),
    # the layout explorer (explorer/app.serve)
    Option("serve", ("--serve",), EXPLORER, "start the layout explorer, a local web page "
           "(see docs/explorer.md); its first output line is its URL; Ctrl-C stops it"),
    Option("port", ("--port",), EXPLORER, f"with --serve: the port (default {EXPLORER_PORT}; "
           "0: any free port)", NUMBER, "N", limit=65535),
    Option("host", ("--host",), EXPLORER, "with --serve: the address to listen on (default "
           f"{EXPLORER_HOST}: this machine only)", VALUE, "H"),
    Option("export_site", ("--export-site",), EXPLORER, "write the explorer as a static "
           "site into DIR: the page runs the calculator in the browser (Pyodide), served "
           "by any static host (see docs/explorer.md)", VALUE, "DIR", complete="file"),
    Option("pyodide", ("--pyodide",), EXPLORER, "with --export-site: where the page loads "
           f"Pyodide from, a URL or a local copy to bundle (a folder or the npm tarball; "
           f"default {PYODIDE_URL})", VALUE, "URL_OR_DIR", complete="file"),
    Option("mcp", ("--mcp",), OTHER, "start an MCP server for coding agents on standard "
           'input/output (docs/agents.md; needs pip install "matrix-calculator[mcp]")'),
    Option("version", ("-v", "--version"), OTHER, "print the version and exit", reference=True),
    Option("completion", ("--completion",), OTHER, "print a completion script for SHELL "
           "(bash or zsh) and exit", VALUE, "SHELL", ("bash", "zsh")),
)

GROUPS = (MODES_GROUP, INST, MATRICES, COORDS, *MODIFIER_GROUPS, OUTPUT, CODE, LDS, PRESHUFFLE,
          BUDGET_GROUP[0], CONVERT, EXPLORER, OTHER)
BY_DEST = {option.dest: option for option in OPTIONS}
MODIFIERS = tuple(spec.name for spec in MODIFIER_SPECS)
OWN_MODIFIERS = tuple(spec.name for spec in MODIFIER_SPECS if not spec.reference)
NUMBERS = tuple(o.dest for o in OPTIONS if o.kind == NUMBER)
DEFAULTS = {option.dest: option.default for option in OPTIONS}
ORDER = {option.dest: at for at, option in enumerate(OPTIONS)}
_NO_ROW = object()  # (the default of a name that is no option's: unequal to any value)


class ArgumentError(Exception):
    """Raised instead of argparse's own exit, so that main() reports every error alike."""


class BatchFailed(Exception):
    """--batch: some lines failed; `text` holds every line's answer, `message` the count."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text, self.message = text, message


class HelpRequested(Exception):
    """-h/--help: the help text, which main() writes like any other output."""


class Args:
    """A parsed command line: one attribute per option row (argparse's Namespace holds the
    same). It holds the options given (values other than their defaults); every other
    row's attribute reads its default, so that a line costs what it names, not the whole
    option table."""

    def __init__(self, values: dict[str, object]) -> None:
        self.__dict__.update({dest: value for dest, value in values.items()
                              if value != DEFAULTS.get(dest, _NO_ROW)})

    def __getattr__(self, name: str) -> object:  # (an option that was not given)
        try:
            return DEFAULTS[name]
        except KeyError:
            raise AttributeError(name) from None

    def value(self, dest: str) -> object:
        """The option's value as parsed (its default where it was not given)."""
        return self.__dict__.get(dest, DEFAULTS[dest])

    def appended(self, dest: str) -> tuple[str, ...]:
        """An APPEND option's values, in the order given (none where it was not given)."""
        return tuple(map(str, self.__dict__.get(dest, ())))

    def given(self, dest: str) -> bool:
        """Whether the option was on the command line (with or without a value)."""
        return dest in self.__dict__ and bool(self.__dict__[dest] != DEFAULTS[dest])

    def given_dests(self) -> list[str]:
        """The options on the command line, in the option table's order."""
        present = self.__dict__
        found = [dest for dest in present if dest in DEFAULTS and present[dest] != DEFAULTS[dest]]
        return sorted(found, key=ORDER.__getitem__) if len(found) > 1 else found

    def shape(self, apart: Container[str]) -> tuple[tuple[str, object], ...]:
        """The options given and their values, in the order given, but for the options
        `apart`: two command lines of one shape differ only in those."""
        return tuple([(dest, value) for dest, value in self.__dict__.items()
                      if dest in DEFAULTS and dest not in apart])

    def given_of(self, dests: Iterable[str]) -> list[str]:
        """The options of `dests` on the command line, in the order of `dests`."""
        present = self.__dict__
        return [dest for dest in dests if dest in present and present[dest] != DEFAULTS[dest]]

    def text(self, dest: str) -> str | None:
        """A VALUE option's value: None when absent or given without a value."""
        value = self.value(dest)
        return None if value is None or value == ABSENT else str(value)

    def any_given(self, dests: Iterable[str]) -> bool:
        """Whether any of the options was on the command line (the mode table selects
        a plan mode by its options: `operator.methodcaller("any_given", DESTS)`)."""
        present = self.__dict__
        return any(dest in present and present[dest] != DEFAULTS[dest] for dest in dests)

    def given_as(self, dest: str, word: str) -> bool:
        """Whether the VALUE option was given with the value `word` (any case)."""
        return (self.text(dest) or "").lower() == word


def spellings() -> list[str]:
    """Every option spelling, in the order of the option table."""
    return ["-h", "--help"] + [s for option in OPTIONS for s in option.spellings]


def shown(value: str, limit: int = 40) -> str:
    """A value as typed, quoted for an error message (control bytes escaped); a very long
    one is cut short."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit // 2]!r}... ({len(value)} characters)"


def number(args: Args, dest: str) -> int:
    """The whole number an option names (its code, for an enumeration's name), checked
    against the option's limit in time proportional to the limit's digits, not the
    value's."""
    option = BY_DEST[dest]
    value = args.value(dest)
    if value == ABSENT:
        return 0
    if value is None:  # (the values it takes where the row names them: -w 32 or 64)
        wanted = " or ".join(option.choices) if option.choices and option.choices[0].isdigit() \
            else "a whole number >= 0"
        raise ArgumentError(f"the {option.name} option needs a value: {wanted}")
    text = str(value)
    names = option.choices if option.choices and not option.choices[0].isdigit() else ()
    if names and text.lower() in names:
        return names.index(text.lower())
    # (our own options: ASCII digits only; AMD's calculator's: what int() reads)
    whole = f"0 to {option.limit} (a whole number in ASCII digits)" if option.limit else \
        "a whole number >= 0 in ASCII digits"
    if not (text.isascii() or option.reference) or not text.isdigit():
        allowed = f"{', '.join(names)} or their codes 0-{len(names) - 1}" if names else whole
        raise ArgumentError(f"{option.name} takes {allowed}, not {shown(text)}")
    digits = text.lstrip("0") or "0"  # (its length checked before int(): constant time)
    if len(digits) > (len(str(option.limit)) if option.limit else 4300):
        raise ArgumentError(f"{option.name} takes {whole}" + ("" if option.limit else
                            " of at most 4300 digits") + f", not {shown(text)}")
    try:
        value = int(digits)
    except ValueError:  # (digits int() does not read: superscripts)
        raise ArgumentError(f"{option.name} takes {whole}, not {shown(text)}") from None
    if option.limit and value > option.limit:
        raise ArgumentError(f"{option.name} takes {whole}, not {shown(text)}")
    return value


def program_name() -> str:
    """matrix-calculator when run as the installed command, else matrix_calculator.py."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "matrix-calculator" if name.split(".")[0] == "matrix-calculator" \
        else "matrix_calculator.py"


def parse_plain(words: Sequence[str]) -> Args | None:
    """A plain command line (every word an exact option spelling, each value option
    followed by a value not starting with '-') read directly, as argparse reads it; None
    for anything else (abbreviations, bundled flags, --opt=value, -h, mistakes)."""
    parsed: dict[str, object] = {}
    at = 0
    while at < len(words):
        option = _SPELLINGS.get(words[at])
        if option is None:
            return None
        if option.kind == FLAG:
            parsed[option.dest], at = True, at + 1
        elif option.kind == PAIR:
            pair = tuple(words[at + 1:at + 3])
            if len(pair) != 2 or any(word.startswith("-") for word in pair):
                return None
            parsed[option.dest], at = pair, at + 3
        elif at + 1 < len(words) and not words[at + 1].startswith("-"):
            value = words[at + 1]
            if option.kind == APPEND:
                parsed[option.dest] = (*parsed.get(option.dest, ()), value)  # type: ignore[misc]
            else:
                parsed[option.dest] = value
            at += 2
        else:
            return None
    return Args(parsed)


_SPELLINGS = {spelling: option for option in OPTIONS for spelling in option.spellings}


def parse_args(words: Sequence[str],
               parser: Callable[[], ArgumentParser] | None = None) -> Args:
    """The parsed command line: plain ones directly, the rest by argparse (the parser
    `parser` makes, by default build_parser's)."""
    plain = parse_plain(words)
    if plain is not None:
        return plain
    namespace = (parser or build_parser)().parse_args(list(words))
    values = vars(namespace)
    for option in OPTIONS:
        if option.kind in (APPEND, PAIR) and values[option.dest] != ABSENT:
            values[option.dest] = tuple(values[option.dest])
    return Args(values)


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


def build_parser(description: str = "", epilog: str = "",
                 usage: str | None = None) -> ArgumentParser:
    """The argparse parser, which defines the command-line grammar; -h shows the options
    in the groups of GROUPS."""
    import argparse  # (start-up boundary: only a command line parse_plain does not read)

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise ArgumentError(message)

        def print_help(self, file: object = None) -> None:  # main() writes the text
            del file  # (argparse's own signature; the text is raised, not written)
            raise HelpRequested(self.format_help())

    class Formatter(argparse.RawDescriptionHelpFormatter):
        """The width given here spares argparse's import of shutil for every option;
        the help column starts after the longest option that fits, aligned for all."""

        def __init__(self, prog: str) -> None:
            super().__init__(prog, width=_terminal_width(), max_help_position=34)

    parser = Parser(prog=program_name(), description=description, epilog=epilog,
                    formatter_class=Formatter, usage=usage)
    for title in GROUPS:
        group = parser.add_argument_group(title)
        for option in OPTIONS:
            if option.group != title:
                continue
            if option.kind == FLAG:
                group.add_argument(*option.spellings, dest=option.dest, action="store_true",
                                   help=option.help)
            elif option.kind == APPEND:
                group.add_argument(*option.spellings, dest=option.dest, action="append",
                                   default=[], metavar=option.metavar, help=option.help)
            elif option.kind == PAIR:
                group.add_argument(*option.spellings, dest=option.dest, nargs=2,
                                   default=option.default, help=option.help,
                                   metavar=tuple(option.metavar.split()))
            else:
                group.add_argument(*option.spellings, dest=option.dest, nargs="?", const=None,
                                   default=option.default, help=option.help,
                                   metavar=option.metavar)
    return parser


def closest(word: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """The known words closest to `word` (any case), best first."""
    import difflib  # (start-up boundary: only a message about a mistyped word)
    lowered = {k.lower(): k for k in known}
    return [lowered[c] for c in difflib.get_close_matches(word.lower(), list(lowered),
                                                          n=limit, cutoff=0.6)]


def did_you_mean(word: str, known: Iterable[str], limit: int = 3) -> str:
    """' (did you mean x or y?)' for the known words closest to `word`, or ''."""
    close = closest(word, known, limit)
    return f" (did you mean {' or '.join(close)}?)" if close else ""

