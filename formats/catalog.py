"""The instruction catalog (--catalog, -L -a all): one row per instruction, built from
matrix_api.facts and drawn by the table renderers (or dumped as JSON)."""
from __future__ import annotations

from typing import Any

from layouts import MATRICES

FIXED = ["architecture", "instruction", "M", "N", "K", "blocks", "sparse", "A type",
         "B type", "C type", "D type", "cycles", "FLOPs", "FLOPs/unit/cycle", "unit", "wave"]
HEADER = FIXED + [f"{m} regs" for m in MATRICES] + ["modifiers"]


def _type(fact: dict[str, Any], matrix: str) -> str:
    if fact["formats"] and matrix in ("A", "B"):  # chosen by CBSZ (A) / BLGP (B)
        return "/".join(t["key"] for t in fact["formats"])
    t = fact["types"][matrix]
    return str(t["key"]) if t else ""


def _blank(value: Any) -> Any:
    """None (a figure no source gives: gfx1250's ISA cycles) as an empty cell."""
    return "" if value is None else value


def row(fact: dict[str, Any]) -> list[Any]:
    (wave, counts), = fact["registers"].items()
    return ([fact["architecture"], fact["mnemonic"], fact["m"], fact["n"], fact["k"],
             fact["blocks"], "yes" if fact["sparse"] else "no"]
            + [_type(fact, m) for m in "ABCD"]
            + [_blank(fact["cycles"]), fact["flops"], _blank(fact["flops_per_cycle"]),
               fact["compute_unit"],
               int(wave)]
            + [counts.get(m, "") for m in MATRICES]
            + [" ".join(fact["modifiers"])])


def text(fmt: str, facts: list[dict[str, Any]]) -> str:
    """The catalog table in format `fmt` (legacy or --format), with a final newline."""
    from . import LEGACY, render
    rows = [row(f) for f in facts]
    if fmt in LEGACY:
        return render(fmt, HEADER, rows) + "\n"
    from . import documents
    return documents.render(fmt, documents.Query(None, "", None, 0, "catalog",
                                                 catalog=(HEADER, rows)))


def _known_values(key: str, facts: list[dict[str, Any]]) -> list[str]:
    """The values of filter `key` that some instruction has."""
    if key == "type":
        found = {t[field] for f in facts for t in [*f["types"].values(), *f["formats"]] if t
                 for field in ("key",)}
        found |= {k.split("_")[0] for k in found}
    elif key == "shape":
        found = {f"{f['m']}x{f['n']}x{f['k']}" for f in facts}
    elif key == "arch":
        found = {f["architecture"].lower() for f in facts}
    elif key == "sparse":
        found = {"yes", "no"}
    else:
        found = {str(f[key]) for f in facts}
    return sorted(found, key=lambda v: (len(v), v) if v.isdigit() else (0, v))


def check_filters(filters: dict[str, list[str]]) -> None:
    """Raise CalcError naming a filter value that no instruction has (a value that matches
    nothing alone cannot be a narrowing, only a mistake), and the values there are."""
    import matrix_api
    from layouts.core import CalcError
    every: list[dict[str, Any]] | None = None
    for key, values in filters.items():
        for value in values:
            if key == "arch" and matrix_api.find_architecture(value) is None:
                matched = False
            else:
                matched = bool(matrix_api.catalog({key: [value]}))
            if not matched:
                every = every if every is not None else matrix_api.catalog()
                known = ", ".join(_known_values(key, every))
                raise CalcError(f"no instruction has {key}={value}; the values of {key} are: "
                                f"{known}")
