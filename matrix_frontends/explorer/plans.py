"""The explorer's plan panels: LDS read and copy plans and --lds-search (mode=lds),
preshuffled operands (mode=preshuffle) and epilogue stores (mode=store).

A plan query is the command line's words, as every explorer query is: the mode's own
option (--lds-tile from lds-tile=, or the flag --preshuffle or --store-d the mode names),
then each option the command line's mode row reads (modes.MODES: `uses`) by its long
spelling without the dashes (lds-swizzle=, copy=, load-width=, store-type=, ld=, ...),
flags as 1 or 0. Which options a panel offers, their help lines, metavars and choices are
the option table's rows (options.BY_DEST): nothing is restated here. /api/json,
/api/text, /api/svg and /api/hip add --json, nothing, --format svg and --emit hip; the
command line refuses what its mode does not take (a store plan has no picture) with its
own one-line message.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from matrix_frontends.cli.completion import offered
from matrix_frontends.cli.modes import MATRIX_FLAGS, MODES, Mode
from matrix_frontends.cli.options import MODIFIERS, OPTIONS, Option

PLAN_MODES = ("lds", "preshuffle", "store")  # rows of modes.MODES, by name
# What the /api path (the kind of answer) sets, not the question: never a query name here.
OUTPUT_DESTS = ("json", "compact", "format", "emit", "lds", "prefix", "SA", "SB")
# query names every plan takes besides its options (as the other explorer modes)
COMMON = ("arch", "inst", "wave", "matrix", "mode")
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _row(name: str) -> Mode:
    return next(mode for mode in MODES if mode.name == name)


def key_of(option: Option) -> str:
    """The query name of an option: its long spelling without the dashes."""
    return option.spellings[0].lstrip("-")


def selector(name: str) -> Option:
    """The option that selects the plan mode `name` (--lds-tile, --preshuffle, --store-d)."""
    flag = _row(name).flag
    return next(option for option in OPTIONS if flag in option.spellings)


def _belongs_elsewhere(option: Option, name: str) -> bool:
    """An option whose -h line says it goes with another plan's option ("with
    --preshuffle: ...") belongs to that plan's panel."""
    others = [selector(other).spellings[0] for other in PLAN_MODES if other != name]
    return any(option.help.startswith(f"with {spelling}") for spelling in others) \
        or any(option.spellings[0] == spelling for spelling in others)


def fields(name: str) -> list[Option]:
    """The options of plan mode `name`'s panel, in the option table's order: those its
    mode row reads, less the answer's form (OUTPUT_DESTS), the modifiers (the pane's) and
    the mode's own flag (mode= says it); the selecting option of a value (--lds-tile) is
    first."""
    uses, chosen = set(_row(name).uses), selector(name)
    found = [option for option in OPTIONS if option.dest in uses
             and option.dest not in OUTPUT_DESTS and option.dest not in MODIFIERS
             and option is not chosen and not _belongs_elsewhere(option, name)]
    return ([chosen] if chosen.kind != "flag" else []) + found


def plan_options() -> list[dict[str, object]]:
    """/api/plans: per plan mode, its option, whether it takes a matrix (-A, ...) and
    --format svg, and its fields (query name, option, metavar, help, flag or not,
    choices, the option it goes with, and the words completion offers for a value
    without choices: load instructions, phase models)."""
    words = offered()
    found = []
    for name in PLAN_MODES:
        row, chosen = _row(name), selector(name)
        found.append({"mode": name, "option": row.flag, "key": key_of(chosen),
                      "flag": chosen.kind == "flag", "help": chosen.help,
                      "matrix": "SA" in row.uses, "picture": "format" in row.uses,
                      "hip": "emit" in row.uses,
                      "fields": [{"key": key_of(option), "option": option.spellings[0],
                                  "metavar": option.metavar, "help": option.help,
                                  "flag": option.kind == "flag",
                                  "choices": list(option.choices), "with": _with(option),
                                  "offered": [] if option.choices
                                  else words.get(option.dest, [])}
                                 for option in fields(name)]})
    return found


def _with(option: Option) -> str:
    """The option an option goes with, as its -h line says ("with --copy: ..."), or ''."""
    text = option.help
    if not text.startswith("with --"):
        return ""
    return text[5:].split(":", 1)[0].split(" ", 1)[0]


def allowed(name: str, mods: Mapping[str, object]) -> set[str]:
    """The query names plan mode `name` takes."""
    return set(COMMON) | set(mods) | {key_of(option) for option in fields(name)}


def words_of(query: Mapping[str, str], kind: str, mods: Mapping[str, Mapping[str, object]],
             pane: list[str], bad: Callable[[str], Exception],
             shown: Callable[[str], str]) -> list[str]:
    """The command line of a plan query (app.argv_of's for mode= a plan):
    `pane` holds the pane's -a/-i/-w words, `bad` makes the explorer's 400, `shown`
    quotes a value."""
    name = query["mode"]
    taken = allowed(name, mods)
    unknown = sorted(set(query) - taken)
    if unknown:
        raise bad(f"unknown query name {shown(unknown[0])}; mode={name} takes "
                  f"{', '.join(sorted(taken))}")
    chosen = selector(name)
    if chosen.kind != "flag" and key_of(chosen) not in query:
        raise bad(f"mode={name} needs {key_of(chosen)}={chosen.metavar} "
                  f"({chosen.spellings[0]})")
    words = list(pane)
    if "matrix" in query:
        matrices = dict(MATRIX_FLAGS)
        if query["matrix"] not in matrices:
            raise bad(f"matrix= takes {', '.join(matrices)}, not {shown(query['matrix'])}")
        words.append(matrices[query["matrix"]])
    if chosen.kind == "flag":
        words.append(chosen.spellings[0])
    for option in fields(name):
        key = key_of(option)
        if key in query:
            words += _option_words(option, key, query[key], bad, shown)
    for key, spec in mods.items():
        if key in query:
            words += _option_words(None, key, query[key], bad, shown, spec)
    return words + {"json": ["--json"], "svg": ["--format", "svg"], "hip": ["--emit", "hip"],
                    "text": []}[kind]


def _option_words(option: Option | None, key: str, value: str,
                  bad: Callable[[str], Exception], shown: Callable[[str], str],
                  spec: Mapping[str, object] | None = None) -> list[str]:
    """An option's words: a flag's when 1 (none when 0), else the option and its value
    (--name=value for a value that starts with a dash)."""
    spelling = option.spellings[0] if option is not None else str(spec and spec["option"])
    flag = option.kind == "flag" if option is not None else bool(spec and spec["flag"])
    if flag:
        if value.lower() in FALSE:
            return []
        if value.lower() in TRUE:
            return [spelling]
        raise bad(f"{key}= is a flag: 1 or 0, not {shown(value)}")
    return [f"{spelling}={value}"] if value.startswith("-") else [spelling, value]
