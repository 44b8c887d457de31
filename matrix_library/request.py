"""Any question to the calculator as one record, and the one door that answers it.

A `Request` names a mode and what the mode needs (architecture, instruction, matrix,
modifiers, wave, the query's numbers, mode options); `answer(request)` checks it and
calls the mode's engine through the table `ENGINES`, returning the engine's typed answer.
Front ends (the command line, `--batch`, a server) build Requests and give the answers
to the renderers of `formats/`; nothing computes a fact twice.

Adding a mode is adding an engine entry here (a function Request -> answer, which
validates through the library's checks and raises CalcError for bad input), a renderer
in `formats/`, and on the command line a row of MODES (matrix_frontends/cli/modes.py)
plus its option rows.

The engines call the library's modules (matrix_library) directly, never matrix_api,
which re-exports this module: the dependency is one-way. What only some modes need
(the queries and their answer records, the catalog, linear layouts, the planners) is
imported when such a request comes.
"""


from __future__ import annotations

from instructions import Architecture
from instructions.model import Instruction
from instructions.record import Record
from layouts.core import CalcError
from layouts.modifiers import Modifiers

from matrix_library.checks import generic_refusal, modifiers, shown, whole, with_formats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from matrix_library.answers import QueryAnswer
    from matrix_library.code import Code
    from matrix_library.typed import Facts, LinearLayoutBases

NUMBER_NAMES = ("i", "j", "k", "block", "register", "lane")


class Request(Record):
    """One question. `numbers`: (i, j, k, block, register, lane); `options`: the mode's
    own settings as (name, value) pairs (output format, transpose, ...)."""
    mode: str
    arch: Architecture | None = None
    inst: Instruction | None = None
    matrix: str | None = None
    mods: Modifiers = Modifiers()
    wave: int = 0
    numbers: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    options: tuple[tuple[str, object], ...] = ()

    def option(self, name: str, default: object = None) -> object:
        """The mode option `name`, or `default`."""
        for key, value in self.options:
            if key == name:
                return value
        return default

    @property
    def number(self) -> dict[str, int]:
        """The numbers by name (i, j, k, block, register, lane)."""
        return dict(zip(NUMBER_NAMES, self.numbers))

    @property
    def instruction(self) -> Instruction:
        if self.inst is None:
            raise CalcError(f"the {self.mode} mode needs an instruction")
        return self.inst


def _architecture(request: Request) -> Architecture:
    if request.arch is None:
        raise CalcError(f"the {request.mode} mode needs an architecture")
    return request.arch


def _detail(request: Request) -> Instruction:
    """The instruction, with the A/B formats its format modifiers select."""
    inst = request.instruction
    if inst.format_fields:
        codes = {field: getattr(request.mods, field) for field in inst.format_fields}
        return with_formats(inst, codes)
    return inst


def _catalog(request: Request) -> list[Facts]:
    from matrix_library.catalog import catalog
    filters = request.option("filters") or {}
    rows = catalog(filters, request.wave or None)  # type: ignore[arg-type]
    arch = request.arch
    return [row for row in rows if arch is None or row["architecture"] == arch.name]


def _code(request: Request) -> Code:
    """--emit hip: what the code of the request's matrix (None: the whole-instruction
    example) is written from (matrix_library.code), checked once."""
    from matrix_library.code import code
    inst = request.instruction
    if not inst.architecture.target:
        raise CalcError(generic_refusal(inst.architecture, "HIP code (--emit hip)")
                        or f"--emit hip writes code for AMD targets: {inst.arch} has none "
                        f"(port its fragments with -a AMD_ARCH --convert "
                        f"{inst.arch.lower()}:INSTRUCTION:MATRIX INSTRUCTION:MATRIX)")
    return code(inst, request.matrix, request.mods, request.wave)


def _probe(request: Request) -> list[Instruction]:
    """--emit probe: the instructions probed (the one asked, or every one of -a)."""
    arch = request.inst.architecture if request.inst is not None else _architecture(request)
    if not arch.target:
        raise CalcError(f"--emit probe is built for a GPU's clang target (--offload-arch): "
                        f"{arch.name} has none; probe one of the GPUs it stands for")
    if request.inst is not None:
        return [request.inst]
    return list(_architecture(request).instructions)


def _linear(request: Request) -> LinearLayoutBases:
    from matrix_library.facts import linear_layout
    return linear_layout(request.instruction, str(request.matrix), mods=request.mods,
                             wave=request.wave)


def _export(request: Request) -> object:
    """--emit cute/gluon (option "language"): the operand as that project's layout."""
    from matrix_library.exports import export
    return export(request.instruction, str(request.matrix), str(request.option("language")),
                  mods=request.mods, wave=request.wave)


def _products(request: Request) -> object:
    """--list-products: every product, or those of the request's architecture."""
    from matrix_library.budget import products
    return products(request.arch)


def _peak(request: Request) -> object:
    """-d --product: the instruction's peak on the product (option "product")."""
    from matrix_library.budget import peak
    return peak(request.instruction, request.option("product"), mods=request.mods)


def _budget(request: Request) -> object:
    """--budget: the block tile's budget; the options are budget()'s keywords."""
    from matrix_library.budget import budget
    return budget(request.instruction, mods=request.mods, wave=request.wave,
                  **dict(request.options))


def _preshuffle(request: Request) -> object:
    """--preshuffle: options load_width, supertile, order, ld, preset."""
    from matrix_library.preshuffle import preshuffle
    options = dict(request.options)
    return preshuffle(request.instruction, str(request.matrix), mods=request.mods,
                      wave=request.wave or None, **options)  # type: ignore[arg-type]


def _store(request: Request) -> object:
    """--store-d: options store_type, order, ld."""
    from matrix_library.epilogue import store_plan
    return store_plan(request.instruction, mods=request.mods, wave=request.wave or None,
                      **dict(request.options))  # type: ignore[arg-type]


def _convert(request: Request) -> object:
    """--convert: the plan moving matrix "source_matrix" (C or D) of instruction
    "source" into the request's matrix (A or B) of its instruction; options
    "source_mods", "destination_mods" (each side's modifiers), "transposed"."""
    from matrix_library.conversion import conversion
    return conversion(request.option("source"), request.option("source_matrix"),  # type: ignore[arg-type]
                      request.instruction, request.matrix,  # type: ignore[arg-type]
                      src_mods=request.option("source_mods"),  # type: ignore[arg-type]
                      dst_mods=request.option("destination_mods"),  # type: ignore[arg-type]
                      wave=request.wave or None,
                      transposed=request.option("transposed", False))  # type: ignore[arg-type]


def _port(request: Request) -> object:
    """--convert ARCH:INSTRUCTION:MATRIX: the port of matrix "source_matrix" of
    instruction "source" (another architecture's) into the request's matrix of its
    instruction."""
    from matrix_library.conversion import port
    return port(request.option("source"), request.option("source_matrix"),  # type: ignore[arg-type]
                request.instruction, request.matrix,  # type: ignore[arg-type]
                wave=request.wave or None)


def _compare(request: Request) -> object:
    """--compare: the request's matrix of its instruction beside the same matrix of
    instruction "other"; option "element": one (row, col), or None for every one."""
    from matrix_library.compare import compare
    return compare(request.instruction, request.option("other"),  # type: ignore[arg-type]
                   request.matrix, first_wave=request.wave or None,  # type: ignore[arg-type]
                   element=request.option("element"))  # type: ignore[arg-type]


def _query(request: Request) -> QueryAnswer:
    """-g, -m, -R or -M (option "query"; "output_calc": -o; "document": "text" or
    "json", the form a whole layout is given in): the answer, checked once
    (queries.query_answer; -R and -M: bulk.layout_answer)."""
    inst = request.instruction
    if request.matrix is None:
        raise CalcError(f"the {request.mode} mode needs a matrix")
    query = str(request.option("query", "get"))
    if query in ("rlayout", "mlayout"):
        from matrix_library.bulk import layout_answer  # (a whole layout: -R, -M)
        return layout_answer(inst, request.matrix, request.mods, request.wave, query,
                             str(request.option("document", "text")))
    from matrix_library.queries import query_answer  # (a point: -g, -m; its records)
    return query_answer(inst, request.matrix, request.mods, request.wave, query,
                        request.number, bool(request.option("output_calc")))


ENGINES: dict[str, Callable[[Request], object]] = {
    "list": _architecture,
    "detail": _detail,
    "query": _query,
    "catalog": _catalog,
    "linear": _linear,
    "emit": _code,
    "export": _export,
    "probe": _probe,
    "products": _products,
    "peak": _peak,
    "budget": _budget,
    "preshuffle": _preshuffle,
    "store": _store,
    "convert": _convert,
    "port": _port,
    "compare": _compare,
}


def answer(request: Request) -> object:
    """The engine's answer to `request` (CalcError for a request it cannot answer)."""
    if not isinstance(request, Request):
        raise CalcError(f"answer() takes a Request, not {shown(request)}")
    engine = ENGINES.get(request.mode) if isinstance(request.mode, str) else None
    if engine is None:
        raise CalcError(f"unknown mode {shown(request.mode)}; the modes are "
                        + ", ".join(ENGINES))
    return engine(checked(request))


_INT = {int}


def _plain_options(options: tuple[object, ...]) -> bool:
    """Whether `options` are (name, value) pairs: tuples, of two, the name a str."""
    for pair in options:
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str:
            return False
    return True


def checked(request: Request) -> Request:
    """`request` with every field checked (a field of the wrong kind is a
    CalcError naming it, never an AttributeError deep in an engine) and its numbers
    made plain ints."""
    _, arch, inst, matrix, mods, wave, numbers, options = request
    if type(mods) is Modifiers and type(wave) is int and wave >= 0 \
            and type(numbers) is tuple and len(numbers) == 6 and type(options) is tuple \
            and (arch is None or type(arch) is Architecture) \
            and (inst is None or type(inst) is Instruction) \
            and (matrix is None or type(matrix) is str) \
            and set(map(type, numbers)) == _INT and min(numbers) >= 0 \
            and _plain_options(options):  # (already plain: a front end's own Request)
        return request
    for name, kind, what in (("arch", Architecture,
                              "an Architecture (find_architecture() gives one)"),
                             ("inst", Instruction,
                              "an Instruction (find_instruction() gives one)"),
                             ("matrix", str, "a matrix name (A, B, C, D, K, SA or SB)")):
        value = getattr(request, name)
        if value is not None and not isinstance(value, kind):
            raise CalcError(f"Request.{name} is None or {what}, not {shown(value)}", name)
    mods = request.mods if isinstance(request.mods, Modifiers) else modifiers(request.mods)
    wave = request.wave if type(request.wave) is int and request.wave >= 0 \
        else 0 if request.wave is None else whole("Request.wave", request.wave, "wave")
    numbers = request.numbers
    if not isinstance(numbers, (tuple, list)) or len(numbers) > len(NUMBER_NAMES):
        raise CalcError(f"Request.numbers is a tuple of at most {len(NUMBER_NAMES)} whole "
                        f"numbers ({', '.join(NUMBER_NAMES)}), not {shown(numbers)}")
    plain = tuple(numbers) if all(type(value) is int and value >= 0 for value in numbers) \
        else tuple(whole(f"Request.numbers {name}", value, name)
                   for name, value in zip(NUMBER_NAMES, numbers))
    options = request.options
    if not isinstance(options, (tuple, list)) or not all(
            isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
            for pair in options):
        raise CalcError(f"Request.options is a tuple of (name, value) pairs, not "
                        f"{shown(options)}")
    return request._replace(mods=mods, wave=wave, numbers=plain + (0,) * (6 - len(plain)),
                            options=tuple(options))
