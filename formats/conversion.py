"""Text and JSON renderings of a conversion plan (matrix_api.conversion).

`text(conv)` explains the plan in a few lines; `text(conv, detail=True)` adds one line
per destination slot (where its element comes from). `document(conv)` is the --json
document: {"schema_version", "mode": "convert", "class", "fragments",
"source_fragments", "moves": [...], "steps": [...]} (formats/output.schema.json).
"""
from __future__ import annotations

from formats.json_output import SCHEMA_VERSION
from matrix_library.api import Place
from matrix_library.records import register_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not loaded at run time)
    from matrix_library.api import Instruction
    from matrix_library.conversion import Conversion

MODE = "convert"
ROUTES = {"registers": "in registers", "lds": "a round trip through LDS"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _side(matrix: str, inst: Instruction, fragments: int) -> str:
    return f"{matrix} of {inst.name} ({_plural(fragments, 'fragment')})"


def _steps(conv: Conversion) -> str:
    return ", ".join(f"{s.times} {s.instruction}" for s in conv.steps) or "nothing"


def _where(fragment: int, lane: int, reg: int, bits: tuple[int, int]) -> str:
    lo, hi = bits
    return f"#{fragment} " + register_name(Place(reg, lane, lo, hi - lo + 1))


def summary(conv: Conversion) -> list[str]:
    """The lines that say what the plan does (without the header)."""
    kinds = dict.fromkeys(("none", "in-lane", "cross-lane"), 0)
    for move in conv.moves:
        kinds[move.kind] += 1
    route = ROUTES[conv.route]
    if conv.route == "lds":
        route += f" ({conv.lds_bytes} bytes of LDS per wave)"
    lines = [f"Class: {conv.kind} ({len(conv.moves)} slots: "
             + ", ".join(f"{n} {k}" for k, n in kinds.items()) + ")",
             f"Plan: {route}, {_plural(conv.total, 'instruction')}: {_steps(conv)}"]
    if conv.plan.types:
        lines.append(f"Types: {conv.plan.types}")
    elif conv.conversion:
        lines.append(f"Types: {conv.source.out_type.key} -> "
                     f"{_type(conv)} with {conv.conversion} per register")
    return lines


def _type(conv: Conversion) -> str:
    inst = conv.destination
    return str((inst.a_type if conv.destination_matrix == "A" else inst.b_type).key)


def text(conv: Conversion, detail: bool = False) -> str:
    """The explanation of a plan; `detail`: one line per destination slot too."""
    source = _side(conv.source_matrix, conv.source, conv.source_fragments)
    if conv.transposed:
        source += " computed transposed (D^T = B^T A^T)"
    lines = [f"Architecture: {conv.architecture}",
             f"Conversion: {source} -> "
             f"{_side(conv.destination_matrix, conv.destination, conv.fragments)}, "
             f"wave {conv.wave}"]
    lines += summary(conv)
    for advice in conv.advice:
        alt = advice.conversion
        lines.append(f"Cheaper: {advice.change}: {alt.kind}, "
                     f"{_plural(alt.total, 'instruction')} ({_steps(alt)})")
    if detail:
        lines.append("Moves (destination <- source; #n is the fragment):")
        for m in conv.moves:
            src = m.source
            origin = _where(src.fragment, src.lane, src.register, src.bits)
            lines.append(f"  {m.element} {_where(m.fragment, m.lane, m.register, m.bits)}"
                         f" <- {src.element} {origin}  {m.kind}")
        for advice in conv.advice:
            lines.append(f"With the advice ({advice.change}):")
            lines += ["  " + line for line in summary(advice.conversion)]
    return "\n".join(lines) + "\n"


def document(conv: Conversion) -> dict[str, object]:
    """The --json document of a plan."""
    return {
        "schema_version": SCHEMA_VERSION,
        "mode": MODE,
        "class": conv.kind,
        "fragments": conv.fragments,
        "source_fragments": conv.source_fragments,
        "moves": [{"fragment": m.fragment, "lane": m.lane, "register": m.register,
                   "bits": list(m.bits), "element": m.element,
                   "from": {"fragment": m.source.fragment, "lane": m.source.lane,
                            "register": m.source.register, "bits": list(m.source.bits)}}
                  for m in conv.moves],
        "steps": [{"instruction": s.instruction, "count": s.times, "purpose": s.purpose}
                  for s in conv.steps],
    }
