"""The --json documents: one JSON object per command line, built with matrix_api.

Every document has `schema_version` and `mode`; the keys of each mode are documented
in the README ("JSON output") and fixed by formats/output.schema.json.
"""
from __future__ import annotations

import json

from instructions.record import without_gc

from formats import json_layout
from formats.exports import ck_tile_json
from formats.json_layout import PointForm, element, location
from formats.json_text import COMPACT, text
from matrix_library import api
from matrix_library.answers import Held, Point
from matrix_library.exports import ck_tile_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

    from matrix_library.answers import QueryAnswer
    from matrix_library.api import Modifiers
    from matrix_library.typed import LinearLayoutBases

    Json = dict[str, object]

SCHEMA_VERSION = 1
MODES = {"get": "get", "entry": "entry", "rlayout": "register_layout",
         "mlayout": "matrix_layout", "linear_layout": "linear_layout",
         "architectures": "architectures"}


def dump(mode: str, **fields: object) -> str:
    """The text of one document: `mode` and `fields`, indented (or on one line: json_text.
    COMPACT), with a final newline."""
    return text({"schema_version": SCHEMA_VERSION, "mode": mode, **fields})


def entry(inst: Instruction, pair: api.Entry) -> Json:
    return {"element": element(inst, pair.element), "location": location(pair.location)}


def calculation(inst: Instruction, calc: api.Calculation) -> Json:
    products = [{"k": k, "a": entry(inst, p.a), "b": entry(inst, p.b)}
                for k, p in enumerate(calc.products)]
    scales = [{"kb": kb, "a": entry(inst, p.a), "b": entry(inst, p.b)}
              for kb, p in enumerate(calc.scales)]
    return {"d": entry(inst, calc.d), "products": products,
            "c": None if calc.c is None else entry(inst, calc.c), "scales": scales}


def _point_form(inst: Instruction, matrix: str, wave: int, mods: Modifiers,
                register_count: int) -> PointForm:
    """The compact -g documents' form of one operand (json_layout.PointForm), made once:
    its head is the document up to its query (json.dumps writes the keys in this order)."""
    key = (inst.arch, inst.name, matrix, wave, mods, register_count)
    form = _POINT_FORMS.get(key)
    if form is None:
        head = {"schema_version": SCHEMA_VERSION, "mode": "get", "architecture": inst.arch,
                "instruction": inst.name, "matrix": matrix, "wave": wave,
                "modifiers": dict(mods._asdict()), "register_count": register_count}
        if len(_POINT_FORMS) >= 1024:
            _POINT_FORMS.clear()
        form = _POINT_FORMS[key] = PointForm(
            inst, matrix, json.dumps(head, separators=(",", ":"))[:-1] + ",")
    return form


_POINT_FORMS: dict[tuple[object, ...], PointForm] = {}


# ---- modes

def version(text: str) -> str:
    return dump("version", version=text)


def listing(arch: api.Architecture) -> str:
    return dump("list", architecture=arch.name, waves=list(arch.waves),
                instructions=[inst.mnemonic for inst in arch.instructions])


def detail(inst: Instruction) -> str:
    meanings = {str(wave): {name: [{"value": v, "meaning": text} for v, text in values]
                            for name, values in api.value_meanings(inst, wave).items()}
                for wave in inst.wave_sizes}
    ck_tile = {str(wave): ck_tile_json(ck_tile_counts(inst, wave)) for wave in inst.wave_sizes}
    return dump("detail", architecture=inst.arch, instruction=inst.name,
                facts=api.facts(inst), formulas=api.formulas(inst), modifier_values=meanings,
                ck_tile=ck_tile)


@without_gc  # (the -R and -M documents hold tens of thousands of records, none in a cycle)
def query(found: QueryAnswer, numbers: dict[str, int], output_calc: bool) -> str:
    """The document of the library's answer to -g, -m, -R or -M on one matrix; `numbers`
    holds the query's i, j, k, block, register and lane."""
    inst, matrix = found.inst, found.matrix
    if type(found) is Point and COMPACT.get():  # (--batch --json: by the operand's form)
        how = "null" if found.calculation is None else json.dumps(
            calculation(inst, found.calculation), separators=(",", ":"))
        return _point_form(inst, matrix, found.wave, found.mods, found.register_count
                           ).text(found, numbers, how)
    common = {"architecture": inst.arch, "instruction": inst.name, "matrix": matrix,
              "wave": found.wave, "modifiers": dict(found.mods._asdict()),
              "register_count": found.register_count}
    if isinstance(found, Point):
        coords = {key: numbers[key] for key in ("i", "j", "k", "block")}
        calc = None if found.calculation is None else calculation(inst, found.calculation)
        return dump("get", **common, query=coords, element=element(inst, found.element),
                    locations=[location(loc) for loc in found.locations], calculation=calc)
    if isinstance(found, Held):
        spot = {key: numbers[key] for key in ("register", "lane")}
        entries = [dict(entry(inst, pair), calculation=None) for pair in found.entries]
        if output_calc:
            for item, calc_of in zip(entries, found.calculations):
                item["calculation"] = calculation(inst, calc_of)
        return dump("entry", **common, query=spot, entries=entries)
    if found.query == "rlayout":
        return dump("register_layout", **common, elements=json_layout.elements(found))
    lanes, slots = json_layout.slots(found)
    return dump("matrix_layout", **common, lanes=lanes, slots=slots)


def catalog(rows: list[api.Facts], filters: dict[str, list[str]], wave: int | None,
            architecture: str | None = None) -> str:
    """`rows`: matrix_api.catalog's facts; `filters`: {key: [values]} as given."""
    return dump("catalog", architecture=architecture, filters=filters, wave=wave,
                count=len(rows), instructions=rows)


def linear_layout(inst: Instruction, matrix: str, mods: Modifiers, wave: int,
                  found: LinearLayoutBases) -> str:
    """--linear-layout: the library's answer (the bases, or why there are none) for one
    operand."""
    return dump("linear_layout", architecture=inst.arch, instruction=inst.name, matrix=matrix,
                wave=wave, modifiers=dict(mods._asdict()), **found)


def architectures() -> str:
    """--list-architectures: every architecture with its wave sizes, aliases and number
    of instructions."""
    from instructions.targets import TARGETS
    return dump("architectures", architectures=[
        {"name": a.name, "waves": list(a.waves), "aliases": list(a.aliases),
         "instructions": len(a.instructions)} for a in api.architectures()],
        targets=[{"name": t.name, "architecture": t.arch, "members": list(t.members),
                  "provisional": t.provisional, "summary": t.summary()} for t in TARGETS])
