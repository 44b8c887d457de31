"""The instruction catalog (--catalog, -L -a all): one row per instruction, built from
matrix_api.facts and drawn by the table renderers (or dumped as JSON)."""
from __future__ import annotations

from matrix_library.api import MATRICES, CalcError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.api import Facts

FIXED = ["architecture", "instruction", "M", "N", "K", "blocks", "sparse", "A type",
         "B type", "C type", "D type", "cycles", "FLOPs", "FLOPs/unit/cycle", "unit", "wave"]
HEADER = FIXED + [f"{m} regs" for m in MATRICES] + ["modifiers"]


def _types(fact: Facts) -> list[object]:
    """The A, B, C, D type cells: A/B list the formats CBSZ/BLGP (or a format modifier)
    may choose, where there are such; no C type on a sparse instruction."""
    types = fact["types"]
    chosen = "/".join(t["key"] for t in fact["formats"])
    c = types["C"]
    return [chosen or types["A"]["key"], chosen or types["B"]["key"],
            "" if c is None else c["key"], types["D"]["key"]]


def _blank(value: int | None) -> int | str:
    """None (a figure no source gives: gfx1250's ISA cycles) as an empty cell."""
    return "" if value is None else value


def row(fact: Facts) -> list[object]:
    (wave, counts), = fact["registers"].items()
    cells: list[object] = [
        fact["architecture"], fact["mnemonic"], fact["m"], fact["n"], fact["k"], fact["blocks"],
        "yes" if fact["sparse"] else "no", *_types(fact), _blank(fact["cycles"]),
        fact["flops"], _blank(fact["flops_per_cycle"]), fact["compute_unit"], int(wave)]
    # C of a sparse instruction: the tied accumulator its vdst field names
    widths = fact["fields"][wave]
    counts = {"C": widths["vdst"], **counts} if fact["sparse"] and widths else counts
    return cells + [counts.get(m, "") for m in MATRICES] + [" ".join(fact["modifiers"])]


def text(fmt: str, facts: list[Facts]) -> str:
    """The catalog table in format `fmt` (legacy or --format), with a final newline."""
    from formats import LEGACY, render
    rows = [row(f) for f in facts]
    if fmt in LEGACY:
        return render(fmt, HEADER, rows) + "\n"
    from formats import documents
    if fmt == "jsonl":  # JSON Lines: one instruction's facts (those of --json) a line
        import json
        return "".join(json.dumps(fact, separators=(",", ":")) + "\n" for fact in facts)
    if fmt in documents.LONG_FORMS:
        raise CalcError(f"--format {fmt} lists element locations: use it with -R or -M "
                        "(the catalog's data formats are csv, tsv, jsonl and json)")
    return documents.render(fmt, documents.Query(None, catalog=(HEADER, rows)))


def check_filters(filters: dict[str, list[str]]) -> None:
    """Raise CalcError naming a filter value that no instruction has (a value that matches
    nothing alone cannot be a narrowing, only a mistake), and the values there are."""
    from matrix_library import api as matrix_api
    matrix_api.check_filters(filters)
