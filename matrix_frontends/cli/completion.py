"""Completion scripts for bash and zsh, generated from the option table (options.py).

After every value option they offer its values (the row's `choices`, or the
architectures, instructions or formats its `complete` names); after -i the instructions
of the architecture given by -a in any spelling (-a cdna3, -acdna3, -a=gfx942,
--architecture=MI300X, --arch cdna3); a value ending in '=' (--filter type=) is completed
without a space after it. The mode table loads this module when --completion runs (the
explorer's plan panels read `offered`).
"""
from __future__ import annotations

from formats.documents import NAMES
from instructions import ARCHITECTURES
from instructions.lds import LDS
from instructions.products import PRODUCTS, key_of

from matrix_frontends.cli.options import OPTIONS, ArgumentError, shown, spellings
from matrix_library.catalog import rows

INSTALLED_NAME = "matrix-calculator"


def offered() -> dict[str, list[str]]:
    """{dest: the words completion offers after the option} for every value option but -i
    (the explorer's plan panels offer the same)."""
    return _values()


def _values() -> dict[str, list[str]]:
    """{dest: the words completion offers after the option} for every value option but -i."""
    arch_words = [w for a in ARCHITECTURES for w in (a.name.lower(),) + tuple(a.aliases)]
    dynamic = {"arch": arch_words + ["all"], "format": list(NAMES),
               "lds_load": sorted({load.name for f in LDS for load in f.loads}),
               "lds_model": sorted({model.key for f in LDS for model in f.models})}
    by_dest = {"product": sorted({key_of(p.name) for p in PRODUCTS}
                                 | {a for p in PRODUCTS for a in p.aliases})}
    values = {}
    for option in OPTIONS:
        if option.kind == "flag" or option.complete in ("instruction", "file"):
            continue
        words = by_dest.get(option.dest) or dynamic.get(option.complete, list(option.choices))
        if option.kind == "number" and option.choices:
            words += [str(code) for code in range(len(option.choices))]
        if words:
            values[option.dest] = words
    return values


def _filter_values() -> dict[str, list[str]]:
    """{filter key: the values the catalog's instructions have} (--filter KEY=VALUE)."""
    found: dict[str, set[str]] = {"arch": set(), "type": set(), "shape": set(),
                                  "sparse": {"yes", "no"}, "kind": set(), "m": set(),
                                  "n": set(), "k": set(), "blocks": set()}
    for row in rows(None):
        m, n, k = row.dims
        found["arch"].add(row.arch.lower())
        found["type"] |= row.types
        found["shape"].add(f"{m}x{n}x{k}")
        found["kind"].add(row.kind)
        for key, value in (("m", m), ("n", n), ("k", k), ("blocks", row.blocks)):
            found[key].add(str(value))
    return {key: sorted(words, key=lambda w: (len(w), w)) for key, words in found.items()}


def shown_spellings() -> list[str]:
    """The option spellings completion offers: each once, without the underscore twin of
    a dashed spelling (--matrix_layout is still read, --matrix-layout offered)."""
    every = spellings()
    known = set(every)
    return [s for s in every if not ("_" in s and s.replace("_", "-") in known)]


def _loads() -> dict[str, tuple[tuple[str, ...], list[str]]]:
    """{architecture: (its aliases, the LDS loads it has)}: --load offers -a's own."""
    facts = {f.arch: [load.name for load in f.loads] for f in LDS}
    return {a.name.lower(): (tuple(a.aliases), facts[a.name]) for a in ARCHITECTURES
            if a.name in facts}


def _spelled(kind: str) -> list[str]:
    """Every spelling of the value options whose completion is `kind`."""
    return [s for o in OPTIONS if o.complete == kind for s in o.spellings]


def _arches() -> dict[str, tuple[tuple[str, ...], list[str]]]:
    return {a.name.lower(): (tuple(a.aliases), [i.mnemonic for i in a.instructions])
            for a in ARCHITECTURES}


def completion(shell: str | None) -> str:
    """A completion script for `shell` (bash or zsh)."""
    if shell not in ("bash", "zsh"):
        raise ArgumentError(f"--completion takes bash or zsh, not {shown(str(shell))}")
    return _bash() if shell == "bash" else _zsh()


def _bash() -> str:
    values = _values()
    by_dest = {option.dest: option for option in OPTIONS}
    cases = "".join(f"        {'|'.join(by_dest[dest].spellings)}) words=\"{' '.join(words)}\";;\n"
                    for dest, words in values.items() if by_dest[dest].complete != "lds_load")
    bare = "|".join(s for o in OPTIONS if o.kind != "flag" and o.dest not in values
                    and o.complete not in ("instruction", "file") for s in o.spellings)
    instruction = "|".join(_spelled("instruction") + ["--instr*", "--in"])
    files = "|".join(_spelled("file"))
    filters = "".join(f"            {key}) words=\"{' '.join(words)}\";;\n"
                      for key, words in _filter_values().items())
    arches = "".join(f"            {'|'.join((name,) + aliases)}) "
                     f"words=\"{' '.join(mnemonics)}\";;\n"
                     for name, (aliases, mnemonics) in _arches().items())
    every = " ".join(sorted({m for _, ms in _arches().values() for m in ms}))
    load_spellings = "|".join(s for o in OPTIONS if o.complete == "lds_load" for s in o.spellings)
    loads = "".join(f"            {'|'.join((name,) + aliases)}) words=\"{' '.join(names)}\";;\n"
                    for name, (aliases, names) in _loads().items())
    return f"""# bash completion for {INSTALLED_NAME} (made by: {INSTALLED_NAME} --completion bash)
# Load it with: source <({INSTALLED_NAME} --completion bash)
_matrix_calculator_arch() {{  # the architecture -a names on the line, in any spelling
    local w at arch=""
    for ((w = 1; w < COMP_CWORD; w++)); do
        at=${{COMP_WORDS[w]}}
        case $at in
            -a|--architecture|--arch*|--ar)
                arch=${{COMP_WORDS[w+1]}}
                [[ $arch == = ]] && arch=${{COMP_WORDS[w+2]}};;
            --architecture=*|--arch*=*) arch=${{at#*=}};;
            -a=*) arch=${{at#-a=}};;
            -a?*) arch=${{at#-a}};;
        esac
    done
    echo "${{arch,,}}"
}}
_matrix_calculator() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} words=""
    if [[ $cur == = ]]; then cur=""; fi
    if [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
        prev=${{COMP_WORDS[COMP_CWORD-2]}}
        if [[ $COMP_CWORD -ge 3 && ${{COMP_WORDS[COMP_CWORD-3]}} == --filter ]]; then
            case $prev in  # --filter KEY=: the values the instructions have
{filters}            esac
            COMPREPLY=($(compgen -W "$words" -- "${{cur,,}}"))
            return
        fi
    fi
    case $prev in
        {files}) COMPREPLY=($(compgen -f -- "$cur")); return;;
        {load_spellings})  # (the loads of -a's architecture)
            case $(_matrix_calculator_arch) in
{loads}            *) words="{' '.join(values.get('lds_load', []))}";;
            esac;;
{cases}        {instruction})
            cur=${{cur,,}}  # (instructions in any case: offered in lower case)
            case $(_matrix_calculator_arch) in
{arches}            *) words="{every}";;
            esac;;
        {bare or '--no-such-option'}) words="";;
        *) words="{' '.join(shown_spellings())}";;
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    if [[ ${{#COMPREPLY[@]}} -eq 1 && ${{COMPREPLY[0]}} == *= ]]; then
        compopt -o nospace 2>/dev/null
    fi
}}
complete -F _matrix_calculator {INSTALLED_NAME} matrix_calculator.py
"""


def _zsh_text(text: str) -> str:
    return (text.replace("'", "'\\''").replace("[", "(").replace("]", ")")
            .replace(":", "\\:"))


def _zsh() -> str:
    values = _values()
    specs = []
    offered = set(shown_spellings())
    for option in OPTIONS:
        for name in (s for s in option.spellings if s in offered):
            text = _zsh_text(option.help)
            if option.kind == "flag":
                specs.append(f"'*{name}[{text}]'")
                continue
            if option.complete == "instruction":
                action = "_matrix_calculator_instructions"
            elif option.complete == "file":
                action = "_files"
            elif option.dest == "filter":
                action = "_matrix_calculator_filters"
            elif option.complete == "lds_load":
                action = "_matrix_calculator_loads"
            else:
                words = values.get(option.dest)
                action = f"({' '.join(words)})" if words else " "
            equals = "=" if name.startswith("--") else ""
            specs.append(f"'*{name}{equals}[{text}]:{option.dest}:{action}'")
    specs += ["'(- *)'{-h,--help}'[show the help and exit]'"]
    lines = " \\\n    ".join(specs)
    arches = "".join(f"    ({'|'.join((name,) + aliases)}) found=({' '.join(mnemonics)});;\n"
                     for name, (aliases, mnemonics) in _arches().items())
    every = " ".join(sorted({m for _, ms in _arches().values() for m in ms}))
    filters = " ".join(values.get("filter", []))
    filter_values = "".join(f"      ({key}) found=({' '.join(words)});;\n"
                            for key, words in _filter_values().items())
    zloads = "".join(f"    ({'|'.join((name,) + aliases)}) found=({' '.join(names)});;\n"
                     for name, (aliases, names) in _loads().items())
    return f"""#compdef {INSTALLED_NAME} matrix_calculator.py
# zsh completion for {INSTALLED_NAME} (made by: {INSTALLED_NAME} --completion zsh)
# Load it with: source <({INSTALLED_NAME} --completion zsh), or save it as _{INSTALLED_NAME}
# in a directory of $fpath.
_matrix_calculator_arch() {{  # the architecture -a names on the line, in any spelling
  local arch="" w at
  for ((w = 2; w < CURRENT; w++)); do
    at=$words[w]
    case $at in
      (-a|--architecture|--arch*) arch=$words[w+1];;
      (--architecture=*|--arch*=*) arch=${{at#*=}};;
      (-a=*) arch=${{at#-a=}};;
      (-a?*) arch=${{at#-a}};;
    esac
  done
  print -r -- ${{arch:l}}
}}
_matrix_calculator_instructions() {{
  local -a found
  case $(_matrix_calculator_arch) in
{arches}    (*) found=({every});;
  esac
  compadd -M 'm:{{a-z}}={{A-Z}}' -a found
}}
_matrix_calculator_loads() {{  # the LDS loads of -a's architecture
  local -a found
  case $(_matrix_calculator_arch) in
{zloads}    (*) found=({' '.join(values.get('lds_load', []))});;
  esac
  compadd -a found
}}
_matrix_calculator_filters() {{
  if [[ $PREFIX == *=* ]]; then  # KEY=: the values the instructions have
    local key=${{PREFIX%%=*}}
    local -a found
    case $key in
{filter_values}    esac
    compset -P '*='
    compadd -M 'm:{{a-z}}={{A-Z}}' -a found
  else
    compadd -S '' -- {filters}
  fi
}}
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
