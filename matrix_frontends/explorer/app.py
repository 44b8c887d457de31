"""The layout explorer: `matrix-calculator --serve [--port N] [--host H]`.

A local web server from the standard library (threaded) that serves one page, its script
and its styles from the package (formats/explorer/), and answers the page's questions
under /api/ by running the equivalent command line through the command line's own
parse-and-answer path (respond.respond): /api/json is what --json prints, /api/svg
what --format svg prints, /api/text the plain output and /api/hip what --emit hip
prints. Query names are the command line's: arch, inst, matrix, view, wave, each
modifier by its long option name (cbsz, neg-lo, matrix-a-fmt, ...), and for /api/json
mode (L, d, g, m, R, M, catalog) with i, j, k, block, register, lane and the catalog's
filters (type, shape, kind, sparse, blocks). mode=convert (and /api/text, /api/hip with
convert=) plans moving this instruction's matrix (C or D) into another's A or B:
convert=INSTRUCTION:MATRIX is --convert's TO, and transpose=1 its --transpose.

Importing this module is light (no command line, pathlib or re): the command line's option
table may read CLI_OPTIONS without loading the explorer.
"""
from __future__ import annotations

from pathlib import Path

from matrix_frontends.cli import respond as cli_respond
from matrix_frontends.cli.inputs import command_line
from matrix_frontends.cli.options import BY_DEST, EXPLORER_HOST, EXPLORER_PORT, shown
from matrix_frontends.explorer.plans import PLAN_MODES
from matrix_library.checks import architectures

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from http.server import ThreadingHTTPServer
    from pathlib import Path

    from matrix_frontends.explorer.pool import Sent
    from matrix_frontends.explorer.server import Respond, Responder, Server

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8"}
DEFAULT_PORT = EXPLORER_PORT
DEFAULT_HOST = EXPLORER_HOST

# This mode's options (rows of the command line's option table, options.OPTIONS):
# (dest, spelling, metavar or None for a flag, help).
CLI_OPTIONS = tuple((dest, BY_DEST[dest].spellings[0], BY_DEST[dest].metavar or None,
                     BY_DEST[dest].help) for dest in ("serve", "port", "host"))



# query name -> (the option shown, the option's long spelling for --name=value)
VALUES = {"arch": ("-a", "--architecture"), "inst": ("-i", "--instruction"),
          "wave": ("-w", "--wavefront"), "i": ("-I", "--I-coordinate"),
          "j": ("-J", "--J-coordinate"), "k": ("-K", "--K-coordinate"),
          "block": ("-b", "--block"), "register": ("-r", "--register"),
          "lane": ("-l", "--lane"), "color-by": ("--color-by", "--color-by"),
          **{key: (f"--{key}", f"--{key}") for key in (
              "wave-tile", "waves-per-group", "k-steps", "lds-buffers", "lds-pad", "product")}}
MODES = {"L": "-L", "d": "-d", "g": "-g", "m": "-m", "R": "-R", "M": "-M",
         "catalog": "--catalog", "convert": "--convert", "budget": "--budget",
         "products": "--list-products"}
BUDGET = ("wave-tile", "waves-per-group", "k-steps", "lds-buffers", "lds-pad", "product")
# What a conversion query takes besides the modifiers (FROM is inst:matrix).
CONVERT = {"arch", "inst", "matrix", "wave", "convert", "transpose"}
VIEWS = ("R", "M")
FILTERS = ("type", "shape", "kind", "sparse", "blocks")  # (m, n, k: coordinates here)
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


class BadQuery(ValueError):
    """A query the explorer cannot turn into a command line (HTTP 400)."""


def modifier_options() -> list[dict[str, object]]:
    """Every modifier of the command line: its library name, query name (the long option
    without its dashes), option, help, value names (fp8, bf8, ...) and whether it is a
    flag. Read from the command line's option table (the one place to port)."""
    found = []
    for name in cli_respond.MODIFIERS:
        key, option = name.replace("_", "-"), BY_DEST[name]
        names = option.choices if option.choices and not option.choices[0].isdigit() else ()
        found.append({"name": name, "key": key, "option": f"--{key}", "help": option.help,
                      "names": list(names), "flag": option.kind == "flag"})
    return found


def _matrices() -> dict[str, str]:
    from matrix_frontends.cli.modes import MATRIX_FLAGS
    return dict(MATRIX_FLAGS)


def _shown_value(value: str) -> str:
    return shown(value)


def _allowed(kind: str, mods: Mapping[str, object], converting: bool) -> set[str]:
    """The query names an /api `kind` takes (a conversion: its own)."""
    if converting:
        return CONVERT | set(mods) | ({"mode"} if kind != "hip" else set())
    allowed = set(VALUES) | set(mods) | {"matrix"}
    if kind in ("json", "text"):
        allowed |= {"mode", *FILTERS}
    elif kind == "svg":
        allowed.add("view")
    elif kind == "hip":
        allowed.add("convert")
    return allowed


def _values(query: Mapping[str, str], *keys: str) -> list[str]:
    """The options of the value names `keys` the query gives."""
    found = []
    for key in keys:
        if key in query:
            short, long = VALUES[key]
            value = query[key]
            found += [f"{long}={value}"] if value.startswith("-") else [short, value]
    return found


def argv_of(query: Mapping[str, str], kind: str) -> list[str]:
    """The command line of one /api query (without the program name). `kind`: json,
    text, svg or hip. Empty values count as absent; unknown names are refused."""
    query = {key: value for key, value in query.items() if value != ""}
    mods = {str(m["key"]): m for m in modifier_options()}
    converting = query.get("mode") == "convert" if kind in ("json", "text") \
        else kind == "hip" and "convert" in query
    if query.get("mode") in PLAN_MODES:  # (LDS, copy, preshuffle and store plans)
        from matrix_frontends.explorer import plans as explorer_plans
        return explorer_plans.words_of(query, kind, mods, _values(query, "arch", "inst", "wave"),
                                       BadQuery, _shown_value)
    allowed = _allowed(kind, mods, converting)
    unknown = sorted(set(query) - allowed)
    if unknown:
        more = " (convert= goes with mode=convert)" if unknown[0] == "convert" else ""
        raise BadQuery(f"unknown query name {_shown_value(unknown[0])}{more}; this part of "
                       f"the explorer takes {', '.join(sorted(allowed))}")
    words = _values(query, "arch") + _convert_words(query) if converting \
        else _values(query, "arch", "inst") + _mode_words(query, kind)
    words += _values(query, "wave", "i", "j", "k", "block", "register", "lane", "color-by",
                     *BUDGET)
    for key, spec in mods.items():
        if key in query:
            words += _modifier_words(spec, key, query[key])
    if converting and _flag(query, "transpose"):
        words.append("--transpose")
    words += {"json": ["--json"], "svg": ["--format", "svg"], "hip": ["--emit", "hip"],
              "text": []}[kind]
    return words


def _flag(query: Mapping[str, str], key: str) -> bool:
    value = query.get(key)
    if value is None or value.lower() in FALSE:
        return False
    if value.lower() in TRUE:
        return True
    raise BadQuery(f"{key}= is a flag: 1 or 0, not {_shown_value(value)}")


def _modifier_words(spec: Mapping[str, object], key: str, value: str) -> list[str]:
    option = str(spec["option"])
    if spec["flag"]:
        return [option] if _flag({key: value}, key) else []
    return [f"{option}={value}"] if value.startswith("-") else [option, value]


def _mode_words(query: Mapping[str, str], kind: str) -> list[str]:
    """The words of a mode (json, text), a picture (svg) or code (hip), and the matrix."""
    words = []
    if kind in ("json", "text"):
        mode = query.get("mode")
        if mode not in MODES:
            raise BadQuery(f"mode= takes {', '.join((*MODES, *PLAN_MODES))}, not "
                           f"{_shown_value(mode or '')}")
        words.append(MODES[mode])
        words += [w for key in FILTERS if key in query
                  for w in ("--filter", f"{key}={query[key]}")]
    elif kind == "svg":
        view = query.get("view", "R")
        if view not in VIEWS:
            raise BadQuery(f"view= takes R or M, not {_shown_value(view)}")
        words.append(f"-{view}")
    if "matrix" in query:
        matrices = _matrices()
        if query["matrix"] not in matrices:
            raise BadQuery(f"matrix= takes {', '.join(matrices)}, not "
                           f"{_shown_value(query['matrix'])}")
        words.append(matrices[query["matrix"]])
    return words


def _convert_words(query: Mapping[str, str]) -> list[str]:
    """--convert FROM TO: FROM is inst:matrix (the pane's instruction and its C or D), TO
    the value of convert= (INSTRUCTION:MATRIX, A or B). The command line checks both."""
    lacking = [key for key in ("inst", "matrix", "convert") if key not in query]
    if lacking:
        raise BadQuery(f"a conversion needs inst=, matrix= (C or D: FROM is inst:matrix) "
                       f"and convert=INSTRUCTION:MATRIX (A or B: TO); {lacking[0]}= is "
                       "missing")
    return ["--convert", f"{query['inst']}:{query['matrix']}", query["convert"]]


def answer(kind: str, query: Mapping[str, str], respond: Respond | None = None
           ) -> tuple[int, str | Sent, str]:
    """(HTTP status, body, command line) of one /api query: the command line's own
    answer (200), or its one-line error message (400); `respond` answers the command
    line (respond.respond, or the server's, which runs heavy ones in workers)."""
    from matrix_frontends.cli import respond as cli_respond
    try:
        words = argv_of(query, kind)
    except BadQuery as exc:
        return 400, cli_respond.error_line(str(exc)), ""
    try:
        status, text = (respond or cli_respond.respond)(words)
    except Exception as exc:  # a defect: one line (as main() says it), never a traceback
        return 500, cli_respond.error_line(f"internal error ({type(exc).__name__}: {exc}); "
                                          "please report this query"), command_line(words)
    if status == 0:
        return 200, text, command_line(words)
    assert isinstance(text, str)  # (only an answer is ever written by a worker)
    return ({2: 400, 503: 503}.get(status, 500), cli_respond.error_line(text),
            command_line(words))


def assets() -> dict[str, Path]:
    """URL path -> file: the files of the page's assets folder (formats/explorer/), by
    name, and / for the page. Nothing else is ever served (no path is joined from the
    request)."""
    from pathlib import Path

    import formats
    folder = Path(formats.__file__).resolve().parent / "explorer"
    found = {f"/{path.name}": path for path in sorted(folder.iterdir())
             if path.is_file() and path.suffix in CONTENT_TYPES}
    found["/"] = folder / "index.html"
    return found


API = {"/api/json": ("json", "application/json"), "/api/text": ("text", "text/plain"),
       "/api/svg": ("svg", "image/svg+xml"), "/api/hip": ("hip", "text/plain")}


def _query_of(text: str) -> dict[str, str] | str:
    """The names and values of a URL's query, or what is wrong with it."""
    from urllib.parse import parse_qsl
    try:
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=False,
                          max_num_fields=100)
    except ValueError as exc:
        return f"bad query: {exc}"
    query: dict[str, str] = {}
    for key, value in pairs:
        if key in query:
            return f"{key}= is given twice; give each name once"
        query[key] = value
    return query


def api_answer(path: str, query_text: str, respond: Responder | None = None
                ) -> tuple[int, str | Sent, str, str]:
    """(status, body, content type, command line) of the /api `path` for a URL's query;
    `respond` is told the content type of its answer (a worker writes it: Sent)."""
    kind, content_type = API[path]
    query = _query_of(query_text)
    if isinstance(query, str):
        from matrix_frontends.cli import respond as cli_respond
        return 400, cli_respond.error_line(query), "text/plain", ""
    status, body, command = answer(kind, query, None if respond is None else
                                   lambda words: respond(words, content_type))
    return status, body, content_type if status == 200 else "text/plain", command


def make_server(host: str = DEFAULT_HOST, port: int = 0, pool: bool = False
                ) -> Server:
    """A threaded HTTP server bound to (host, port), not yet serving (explorer_server:
    Host checks, security headers, timeouts; `pool`: heavy queries in worker
    processes, as --serve runs them)."""
    from matrix_frontends.explorer import server as explorer_server
    files = {path: (file, CONTENT_TYPES[file.suffix]) for path, file in assets().items()}
    return explorer_server.make_server(host, port, explorer_server.Site(
        files, frozenset(API), api_answer, documents(), warm_lines() if pool else ()), pool)


def documents() -> dict[str, Callable[[], str]]:
    """The JSON documents the page builds its controls from, by path (/api/options, the
    modifiers; /api/plans, the plan panels): the server's and the static site's."""
    import json

    from matrix_frontends.explorer import plans as explorer_plans
    return {"/api/options": lambda: json.dumps(modifier_options()),
            "/api/plans": lambda: json.dumps(explorer_plans.plan_options())}


def warm_lines() -> tuple[tuple[str, ...], ...]:
    """The command lines of one small query of each layout answer the page asks for
    (-R and -M as JSON and as text, the picture, the HIP code) of the first instruction
    of the first architecture, which each worker answers as it starts."""
    arch = architectures()[0]
    query = {"arch": arch.name.lower(), "inst": arch.instructions[0].mnemonic, "matrix": "A"}
    return (*(tuple(argv_of({**query, "mode": mode}, kind))
              for kind in ("json", "text") for mode in ("R", "M")),
            tuple(argv_of(query, "svg")), tuple(argv_of(query, "hip")))


def url_of(server: ThreadingHTTPServer) -> str:
    host, port = (str(part) for part in server.server_address[:2])
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _options(words: Sequence[str]) -> tuple[str, int]:
    """(host, port) of `--serve [--port N] [--host H]`; ArgumentError otherwise."""
    from matrix_frontends.cli import respond as cli_respond
    host, port, at = DEFAULT_HOST, str(DEFAULT_PORT), 0
    words = [w for word in words for w in (word.split("=", 1) if word.startswith("--")
                                           and "=" in word else [word])]
    while at < len(words):
        word = words[at]
        if word == "--serve":
            at += 1
        elif word in ("--port", "--host"):
            if at + 1 >= len(words):
                raise cli_respond.ArgumentError(f"the {word} option needs a value")
            if word == "--port":
                port = words[at + 1]
            else:
                host = words[at + 1]
            at += 2
        else:
            raise cli_respond.ArgumentError(
                f"--serve starts the explorer and takes only --port N and --host H, "
                f"not {_shown_value(word)}")
    if not (port.isascii() and port.isdigit()) or len(port.lstrip("0")) > 5 \
            or int(port) > 65535:  # (ASCII digits only, checked before int())
        raise cli_respond.ArgumentError(f"--port takes a port number 0 to 65535 (0: any "
                                       f"free port), written in ASCII digits, not "
                                       f"{_shown_value(port)}")
    return host, int(port)


def serve(words: Sequence[str]) -> int:
    """`--serve [--port N] [--host H]`: serve the explorer until Ctrl-C; the first line
    of standard output is its URL. Returns the exit status."""
    import gc
    import sys

    from matrix_frontends.cli import respond as cli_respond
    gc.enable()  # (the command turns it off for one-shot queries; a server runs on)
    try:
        host, port = _options(words)
    except cli_respond.ArgumentError as exc:
        sys.stderr.write(cli_respond.error_line(str(exc)) + "\n")
        return 2
    from matrix_frontends.explorer import server as explorer_server
    try:
        server = make_server(host, port, pool=True)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        sys.stderr.write(cli_respond.error_line(f"cannot listen on {host} port {port}: "
                                               f"{reason}") + "\n")
        return 2  # (a port taken or not ours: the command line's to change, as any error)
    if explorer_server.beyond_loopback(host):
        where = "every interface" if host in ("", "0.0.0.0", "::") else repr(host)
        sys.stderr.write(f"{cli_respond.program_name()}: warning: the explorer listens on "
                         f"{where}, beyond this machine: whoever can reach it can query "
                         "it (the default, 127.0.0.1, is this machine only)\n")
    explorer_server.on_sigterm()
    try:
        sys.stdout.write(url_of(server) + "\n")
        sys.stdout.flush()
        server.serve_forever()
    except (KeyboardInterrupt, explorer_server.Terminated):
        server.drain()  # (the requests in flight are answered first)
    finally:
        server.server_close()
    return 0
