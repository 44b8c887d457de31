"""The modes of the command line as a table: which option selects each, which of our own
options it reads, how its command line becomes a `Request` (validate), and which
renderer prints the answer.

`validate(args)` picks the mode (the first row whose `selected` holds), refuses our own
options the mode does not read (AMD's calculator's options keep its behaviour: a mode
ignores those it does not use), and builds the mode's Request; `render(mode, request,
args)` asks the library (matrix_request.answer) and renders the answer.
"""

from __future__ import annotations

from functools import partial

from instructions.record import Record

from matrix_frontends.cli import preshuffle_options as pre
from matrix_frontends.cli.budget_modes import BUDGET_MODES, with_peaks
from matrix_frontends.cli.inputs import (
    LEGACY_FORMATS,
    _on,
    architecture,
    checked,
    command_line,
    instruction,
    legacy_format,
    modifiers_of,
    one_of,
    output_options,
)
from matrix_frontends.cli.lds_options import LDS_FLAGS, LDS_OPTIONS
from matrix_frontends.cli.lds_options import wanted as lds_wanted
from matrix_frontends.cli.messages import Noted
from matrix_frontends.cli.options import (
    BY_DEST,
    NUMBERS,
    OWN_MODIFIERS,
    Args,
    ArgumentError,
    __version__,
    number,
    program_name,
    shown,
)
from matrix_frontends.cli.probe_mode import checked_language, probe, verified, wanted
from matrix_library import request as matrix_request
from matrix_library.checks import Modifiers, wave_size
from matrix_library.request import Request

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from instructions import Architecture
    from instructions.model import Instruction

    from matrix_library.answers import QueryAnswer
    from matrix_library.typed import LinearLayoutBases


QUERY_MODES = (("get", "-g"), ("entry", "-m"), ("rlayout", "-R"), ("mlayout", "-M"))
MATRIX_FLAGS = (("A", "-A"), ("B", "-B"), ("C", "-C"), ("D", "-D"), ("K", "-k"),
                ("SA", "--A-scale"), ("SB", "--B-scale"))
JSON = ("json", "compact")
QUERY = (*JSON, "SA", "SB", *OWN_MODIFIERS)
LDS_DESTS = tuple(dest for dest, _, _ in (*LDS_OPTIONS, *LDS_FLAGS))
PLAN = (*pre.PRESHUFFLE_DESTS, *JSON, "emit", "ld", "order", "global_order", *OWN_MODIFIERS)


class Mode(Record):
    """A row of the mode table. A mode's output comes from `render` (the Request
    answered, and the command line's output options) or, for a mode whose output reads
    the command line alone, from `text`."""
    name: str
    flag: str                                     # how messages name the mode
    selected: Callable[[Args], bool] | None       # whether the command line asks for this
    #                                               mode (None: every command line, last row)
    uses: tuple[str, ...]                         # our own options it reads (others: errors)
    request: Callable[[Args], Request] | None     # the command line as a Request (validate;
    #                                               None: Request(name), all the mode needs)
    render: Callable[[Request, Args], str] | None = None  # the answer, as text
    text: Callable[[Args], str] | None = None     # or the output made from the command line


def _is_all(args: Args) -> bool:
    value = args.text("architecture")
    return value is not None and value.lower() == "all"


def _instruction_request(args: Args, mode: str, **fields: object) -> Request:
    """A Request for `mode` on -a/-i with its wave size (checked by the library)."""
    arch = architecture(args)
    inst = instruction(arch, args.text("instruction"))
    wave = checked(wave_size, inst, number(args, "wavefront"))
    return Request(mode, arch, inst, wave=wave, **fields)  # type: ignore[arg-type]


def _numbers(args: Args) -> tuple[int, ...]:
    """Every number of the command line is read (AMD's calculator checks their digits
    whatever the mode); the query's six are returned."""
    values = {dest: number(args, dest) for dest in args.given_of(_READ)}
    return tuple([values.get(n, 0) for n in matrix_request.NUMBER_NAMES])


# (the numbers _numbers reads, in the option table's order: AMD's calculator's but -w)
_READ = tuple(dest for dest in NUMBERS if BY_DEST[dest].reference and dest != "wavefront")


# ---- the modes: a request builder and a renderer each

def _version(args: Args) -> str:
    if _on(args, "json"):
        from formats import json_output
        return json_output.version(__version__)
    return f"{program_name()} {__version__}\n"


def _architectures(args: Args) -> str:
    from formats import listing
    if _on(args, "json"):
        from formats import json_output
        return json_output.architectures()
    fmt = args.text("format")
    if fmt is None and any(_on(args, dest) for dest, _ in LEGACY_FORMATS):  # (a table)
        fmt = legacy_format(args)
    return listing.architectures() if fmt is None else listing.architectures_table(fmt)


def _completion(args: Args) -> str:
    from matrix_frontends.cli.completion import completion
    return completion(args.text("completion"))


def _schema(args: Args) -> str:
    """The JSON Schema shipped inside the formats package (one document: no option
    shapes it)."""
    del args
    from pathlib import Path

    import formats
    return (Path(formats.__file__).resolve().parent / "output.schema.json").read_text(
        encoding="utf-8")


def _catalog_request(args: Args) -> Request:
    from formats import catalog as table

    from matrix_library import api as matrix_api
    filters = checked(matrix_api.parse_filters, list(args.appended("filter")))
    table.check_filters(filters)
    arch = None if args.text("architecture") is None and not args.given("architecture") \
        or _is_all(args) else architecture(args)
    wave = number(args, "wavefront") or 0
    if wave and arch and wave not in arch.waves:
        allowed = " or ".join(map(str, arch.waves))
        raise ArgumentError(f"wave size {wave} is not available on {arch.name}; use {allowed}")
    return Request("catalog", arch, wave=wave, options=(("filters", filters),))


def _catalog(request: Request, args: Args) -> str:
    from formats import catalog as table
    rows = checked(matrix_request.answer, request)
    if _on(args, "json"):
        from formats import json_output
        return json_output.catalog(rows, request.option("filters"),  # type: ignore[arg-type]
                                   request.wave or None, request.arch and request.arch.name)
    fmt = args.text("format") or legacy_format(args)
    return table.text(fmt, rows)  # type: ignore[arg-type]


def _list_request(args: Args) -> Request:
    return Request("list", architecture(args))


def _list(request: Request, args: Args) -> str:
    from formats import listing
    arch: Architecture = matrix_request.answer(request)  # type: ignore[assignment]
    if _on(args, "json"):
        from formats import json_output
        return json_output.listing(arch)
    return _target_line(args) + listing.listing(arch)


def _target_line(args: Args) -> str:
    """"Target: ..." when -a names an LLVM target the architecture answers for with a
    note (a generic or provisional target, or one that is not an alias)."""
    from matrix_library.checks import target_note
    note = target_note(args.text("architecture"))
    return f"Target: {note}\n" if note else ""


def _detail_request(args: Args) -> Request:
    request = _instruction_request(args, "detail")
    if request.instruction.format_fields:  # the formats change the facts
        mods = Modifiers(**{f: number(args, f)
                                           for f in request.instruction.format_fields})
        request = request._replace(mods=mods)
    return request


def _detail(request: Request, args: Args) -> str:
    from formats import HEADER
    from formats.detail import detail, formula_notes
    inst: Instruction = checked(matrix_request.answer, request)  # type: ignore[assignment]
    if _on(args, "json"):
        from formats import json_output
        return json_output.detail(inst)
    text = HEADER.format(inst=inst) + _target_line(args) + detail(inst)
    text += verified(args, inst)  # (the verification record: probe_mode)
    if _on(args, "ck_tile"):
        from formats.exports import ck_tile_text

        from matrix_library.exports import ck_tile_counts
        text += ck_tile_text({w: ck_tile_counts(inst, w) for w in inst.wave_sizes})
    given = [f"{f.upper()} {getattr(request.mods, f)}" for f in inst.format_fields
             if getattr(request.mods, f)]
    if given:  # the formulas are those of the formats the modifiers select
        text = text.replace(" with no modifiers:", f" with {', '.join(given)}:")
    # (the reference's known-wrong formula lines, kept byte for byte: noted on stderr)
    return Noted(text, tuple(formula_notes(inst)))


def _code_request(args: Args) -> Request:
    _numbers(args)
    checked_language(args)
    request = _instruction_request(args, "linear" if _on(args, "linear_layout") else "emit")
    chosen = [flag for dest, flag in MATRIX_FLAGS if _on(args, dest)]
    if len(chosen) > 1:
        raise ArgumentError(f"choose at most one matrix with --emit/--linear-layout (got "
                            f"{' and '.join(chosen)})")
    modes = [flag for dest, flag in (*QUERY_MODES, ("output", "-o")) if _on(args, dest)]
    if modes:
        raise ArgumentError(f"--emit and --linear-layout are modes of their own: drop "
                            f"{' and '.join(modes)}")
    matrix = next((dest for dest, _ in MATRIX_FLAGS if _on(args, dest)), None)
    if request.mode == "linear" and matrix is None:
        raise ArgumentError("--linear-layout needs a matrix: one of "
                            + ", ".join(flag for _, flag in MATRIX_FLAGS))
    if request.mode == "emit":
        order = (args.text("order") or "row").lower() if args.given("order") else "row"
        if args.given("order") and order not in ("row", "col"):
            raise ArgumentError(f"--order takes row or col, not {shown(order)}")
        prefix = (args.text("prefix") or "") if args.given("prefix") else None
        options = (("ld", number(args, "ld")), ("order", order), ("lds", _on(args, "lds")),
                   ("prefix", prefix))
        return request._replace(matrix=matrix, mods=modifiers_of(args), options=options)
    return request._replace(matrix=matrix, mods=modifiers_of(args))


def _linear(request: Request, args: Args) -> str:
    from formats import listing
    found: LinearLayoutBases = checked(matrix_request.answer, request)  # type: ignore[assignment]
    if _on(args, "json"):  # (the schema's document: with the modifiers)
        from formats import json_output
        return json_output.linear_layout(request.instruction, str(request.matrix),
                                         request.mods, request.wave, found)
    return listing.linear_layout(request.instruction, str(request.matrix), request.wave, found)


def _emit(request: Request, args: Args) -> str:
    from formats import hip

    from matrix_library.code import Code
    found = checked(matrix_request.answer, request)
    assert isinstance(found, Code)  # (the answer of the emit mode)
    prefix = request.option("prefix")
    words = args.__dict__.get("words")  # the command line as given (respond.answer)
    options = hip.Options(ld=int(request.option("ld") or 0) or None,  # type: ignore[call-overload]
                          order=str(request.option("order")), lds=bool(request.option("lds")),
                          prefix=None if prefix is None else str(prefix),
                          command=None if words is None else command_line(words))
    return checked(hip.written, found, options)


EXPORTS = ("cute", "gluon")


def _exporting(args: Args) -> bool:
    return args.given("emit") and (args.text("emit") or "").lower() in EXPORTS


def _export_request(args: Args) -> Request:
    """--emit cute/gluon: one matrix of -a/-i as that project's layout."""
    _numbers(args)
    request = _instruction_request(args, "export")
    chosen = [flag for dest, flag in MATRIX_FLAGS if _on(args, dest)]
    if len(chosen) != 1:
        got = f" (got {' and '.join(chosen)})" if chosen else ""
        raise ArgumentError(f"--emit {args.text('emit')} needs one matrix: one of "
                            + ", ".join(flag for _, flag in MATRIX_FLAGS) + got)
    modes = [flag for dest, flag in (*QUERY_MODES, ("output", "-o")) if _on(args, dest)]
    if modes:
        raise ArgumentError(f"--emit is a mode of its own: drop {' and '.join(modes)}")
    matrix = next(dest for dest, _ in MATRIX_FLAGS if _on(args, dest))
    language = str(args.text("emit")).lower()
    return request._replace(matrix=matrix, mods=modifiers_of(args),
                            options=(("language", language),))


def _export(request: Request, args: Args) -> str:
    from formats import exports
    found = checked(matrix_request.answer, request)
    if _on(args, "json"):
        return exports.export_json(found)  # type: ignore[arg-type]
    if request.option("language") == "cute":
        return exports.cute_cpp(found)  # type: ignore[arg-type]
    return exports.gluon_python(found)  # type: ignore[arg-type]


def _query_request(args: Args) -> Request:
    numbers = _numbers(args)
    request = _instruction_request(args, "query")
    mode = one_of(args, QUERY_MODES, "query mode")
    matrix = one_of(args, MATRIX_FLAGS, "matrix")
    if _on(args, "output") and matrix != "D":
        raise ArgumentError(f"-o/--output-calculation works only with -D, not with -{matrix}")
    fmt = args.text("format")
    if _on(args, "json"):
        chosen = [flag for dest, flag in LEGACY_FORMATS if _on(args, dest)]
        if chosen:
            raise ArgumentError(f"--json is an output format of its own: drop "
                                f"{' and '.join(chosen)}")
    elif fmt is None:
        legacy_format(args)  # (checked for every query, as AMD's calculator does)
    elif legacy_format(args) != "grid":
        raise ArgumentError(f"choose one of --format and --{legacy_format(args)}")
    output_calc = _on(args, "output") and mode in ("get", "entry")
    document = "json" if _on(args, "json") else "text" if fmt is None else _form(fmt)
    options = (("query", mode), ("output_calc", output_calc), ("format", fmt),
               ("transpose", _on(args, "transpose")), ("color_by", args.text("color_by")),
               ("document", document))
    return request._replace(matrix=matrix, mods=modifiers_of(args), numbers=numbers,
                            options=options)


def _form(fmt: str) -> str:
    """The form of the answer a --format document reads (formats.documents.form)."""
    from formats.documents import form
    return form(fmt)


def _query(request: Request, args: Args) -> str:
    """The query's answer (matrix_library.answers), computed once and rendered: JSON,
    a --format document, or the reference's text."""
    from formats import queries
    found: QueryAnswer = checked(matrix_request.answer, request)  # type: ignore[assignment]
    output_calc = bool(request.option("output_calc"))
    transpose = bool(request.option("transpose"))
    if _on(args, "json"):
        from formats import json_output
        return json_output.query(found, request.number, output_calc)
    fmt = request.option("format")
    if fmt is not None:
        from formats import PICTURES, documents

        from matrix_library.answers import Layout
        color = request.option("color_by") if fmt in PICTURES else None
        assert isinstance(found, Layout)  # (--format goes with -R and -M alone)
        query = documents.Query(found, transpose,
                                color_by=None if color is None else str(color))
        return checked(documents.render, str(fmt), query)
    return queries.header(found.inst) + checked(queries.text, found, output_calc,
                                                legacy_format(args), transpose)


# ---- the modes whose handling lives in their own modules, reached through the table

def _lds_request(args: Args) -> Request:
    """--lds-tile: -i and -w are checked here, the rest by lds_mode."""
    _numbers(args)
    return _instruction_request(args, "lds")


def _plan_request(args: Args) -> Request:  # --preshuffle, --store-d
    _numbers(args)
    return _instruction_request(args, "preshuffle" if pre.wanted(args) else "store")


def _plan(request: Request, args: Args) -> str:
    from matrix_frontends.cli.preshuffle_mode import render
    return render(request, args)


def _lds(request: Request, args: Args) -> str:
    from matrix_frontends.cli.lds_mode import run_lds
    return run_lds(args, request.instruction, request.wave)


def _convert_request(args: Args) -> Request:
    """--convert FROM TO (or --compare): convert_mode reads the pair, -a, the modifiers,
    -w, --transpose and --emit hip (compare_mode: --compare's instruction, the matrix
    and the element)."""
    _numbers(args)
    from matrix_frontends.cli.convert_mode import convert_request
    return convert_request(args)


def _convert(request: Request, args: Args) -> str:
    from matrix_frontends.cli.convert_mode import render
    return render(request, args)


def _serve(args: Args) -> str:
    """--serve where a command line is answered (--batch, the explorer): refused, with
    the command that starts the server (and the --port and --host given)."""
    given = [f"--{dest} {args.text(dest)}" for dest in ("port", "host")
             if args.text(dest) is not None]
    raise ArgumentError("--serve starts the explorer, a server: run it as a command of its "
                        f"own (matrix-calculator {' '.join(['--serve', *given])}), not from "
                        "--batch or the explorer")


def _export_site(_args: Args) -> str:
    """--export-site where a command line is answered (--batch, the explorer, the page)."""
    raise ArgumentError("--export-site writes files: run it as a command of its own "
                        "(matrix-calculator --export-site DIR), not from --batch or the "
                        "explorer")


def _mcp(_args: Args) -> str:
    """--mcp where a command line is answered (--batch, the explorer, an MCP tool)."""
    raise ArgumentError("--mcp starts the MCP server: run it as a command of its own "
                        "(matrix-calculator --mcp), not from --batch or a server")


def _batch_request(args: Args) -> Request:
    return Request("batch", options=(("file", args.text("batch")),))


def _batch(_request: Request, args: Args) -> str:
    from matrix_frontends.batch import run_batch
    return run_batch(args.text("batch"), _on(args, "json"), respond)  # (None: no FILE)


MODES: tuple[Mode, ...] = (
    Mode("completion", "--completion", lambda a: a.given("completion"), ("completion",),
         None, text=_completion),
    Mode("serve", "--serve", lambda a: _on(a, "serve"), ("serve", "port", "host"), None,
         text=_serve),
    Mode("mcp", "--mcp", lambda a: _on(a, "mcp"), ("mcp",), None, text=_mcp),
    Mode("export_site", "--export-site", lambda a: a.given("export_site"),
         ("export_site", "pyodide"), None, text=_export_site),
    Mode("json_schema", "--json-schema", lambda a: _on(a, "json_schema"), ("json_schema",),
         None, text=_schema),
    Mode("architectures", "--list-architectures", lambda a: _on(a, "list_architectures"),
         ("list_architectures", "format", *JSON), None, text=_architectures),
    Mode("batch", "--batch", lambda a: a.given("batch"), ("batch", *JSON), _batch_request, _batch),
    Mode("version", "-v", lambda a: _on(a, "version"), JSON, None, text=_version),
    *map(Mode._make, BUDGET_MODES),  # (budget_modes.py; --product's peaks: with_peaks)
    Mode("catalog", "--catalog", lambda a: _on(a, "catalog") or _on(a, "list") and _is_all(a),
         ("catalog", "filter", "format", *JSON, "product"), _catalog_request,
         partial(with_peaks, _catalog)),
    Mode("list", "-L", lambda a: _on(a, "list"), JSON, _list_request, _list),
    Mode("detail", "-d", lambda a: _on(a, "detail"),
         (*JSON, "matrix_a_fmt", "matrix_b_fmt", "verification", "ck_tile", "product"),
         _detail_request, partial(with_peaks, _detail)),
    Mode("convert", "--convert", lambda a: a.given("convert") or a.given("compare"),
         ("convert", "compare", *JSON, "emit", *OWN_MODIFIERS), _convert_request, _convert),
    Mode("preshuffle", "--preshuffle", pre.wanted, (*PLAN, "SA", "SB", "format"), _plan_request,
         _plan),
    Mode("store", "--store-d", pre.store_wanted, PLAN, _plan_request, _plan),
    Mode("lds", "--lds-tile", lds_wanted,
         (*LDS_DESTS, *JSON, "format", "emit", "lds", "ld", "SA", "SB", "matrix_a_fmt",
          "matrix_b_fmt"), _lds_request, _lds),
    Mode("linear", "--linear-layout", lambda a: _on(a, "linear_layout"),
         ("linear_layout", *QUERY), _code_request, _linear),
    Mode("probe", "--emit probe", wanted, ("emit",), *probe),
    Mode("export", "--emit cute/gluon", _exporting, ("emit", *JSON, "SA", "SB", *OWN_MODIFIERS),
         _export_request, _export),
    Mode("emit", "--emit", lambda a: a.given("emit"),
         ("emit", "ld", "order", "prefix", "lds", "SA", "SB", *OWN_MODIFIERS), _code_request,
         _emit),
    Mode("query", "-g/-m/-R/-M", None, (*QUERY, "format", "color_by"),
         _query_request, _query),
)


def select(args: Args) -> Mode:
    """The mode of the command line, after refusing our own options it does not read."""
    mode = next(m for m in MODES if m.selected is None or m.selected(args))
    flag = mode.flag
    if mode.name == "query":
        chosen = [f for dest, f in QUERY_MODES if _on(args, dest)]
        flag = chosen[0] if len(chosen) == 1 else flag
    unused = [BY_DEST[dest] for dest in args.given_dests()
              if not BY_DEST[dest].reference and dest not in mode.uses]
    if mode.name == "query" and flag in ("-g", "-m"):
        unused += [BY_DEST[d] for d in ("format", "color_by") if args.given(d)]
    if unused:
        names = " and ".join(o.spellings[0] for o in unused)
        them = "it" if len(unused) == 1 else "them"
        raise ArgumentError(f"{flag} does not use {names}: drop {them}" + _where(unused[0].dest))
    if args.given("color_by") and mode.name == "query" and \
            str(args.text("format") or "").lower() not in ("svg", "html"):
        raise ArgumentError("--color-by colours pictures: use it with --format svg "
                            "or --format html")
    return mode


_WHERE = {"ld": "--emit hip", "order": "--emit hip", "lds": "--emit hip", "prefix": "--emit hip",
          "port": "--serve", "host": "--serve", "pyodide": "--export-site",
          **{dest: "--lds-tile" for dest in LDS_DESTS if dest != "lds_tile"},
          "filter": "--catalog", "compact": "--json", "color_by": "--format svg or html",
          "format": "-R, -M or --catalog"}


def _where(dest: str) -> str:
    place = _WHERE.get(dest)
    return f" (it goes with {place})" if place else ""


def validate(args: Args) -> tuple[Mode, Request]:
    """The mode and Request of a parsed command line (ArgumentError/CalcError if bad).
    A query whose options, but for its coordinates, match one validated before (a
    --batch of point lines) reuses that Request with its own coordinates, checked."""
    shape = args.shape(_APART)
    known = _VALIDATED.get(shape)
    if known is not None:
        return known[0], known[1]._replace(numbers=_numbers(args))
    mode = select(args)
    request = Request(mode.name) if mode.request is None else mode.request(args)
    if mode.name == "query":
        if len(_VALIDATED) >= _VALIDATED_LIMIT:
            _VALIDATED.clear()
        _VALIDATED[shape] = (mode, request)
    return mode, request


# The query Requests validated so far, by their command lines' shape (Args.shape).
_VALIDATED: dict[tuple[tuple[str, object], ...], tuple[Mode, Request]] = {}
_VALIDATED_LIMIT = 4096
_APART = frozenset(matrix_request.NUMBER_NAMES)


def respond(args: Args) -> str:
    """The whole output of one parsed command line: its mode's Request, answered by the
    library and rendered."""
    output_options(args)
    mode, request = validate(args)
    if not _on(args, "compact"):
        return _output(mode, request, args)
    from formats.json_text import on_one_line
    return on_one_line(lambda: _output(mode, request, args))


def _output(mode: Mode, request: Request, args: Args) -> str:
    """The mode's output: its Request rendered, or the text of the command line alone."""
    if mode.text is not None:
        return mode.text(args)
    if mode.render is None:
        raise ArgumentError(f"{mode.flag} has no output")  # (a row lacks both: a defect)
    return mode.render(request, args)
