"""The instruction catalog (--catalog, -L -a all): one row per instruction, built from
matrix_api.facts and drawn by the table renderers (or dumped as JSON)."""
from layouts import MATRICES

FIXED = ["architecture", "instruction", "M", "N", "K", "blocks", "sparse", "A type",
         "B type", "C type", "D type", "cycles", "FLOPs", "FLOPs/unit/cycle", "unit", "wave"]
HEADER = FIXED + [f"{m} regs" for m in MATRICES] + ["modifiers"]


def _type(fact, matrix):
    if fact["formats"] and matrix in ("A", "B"):  # chosen by CBSZ (A) / BLGP (B)
        return "/".join(t["key"] for t in fact["formats"])
    t = fact["types"][matrix]
    return t["key"] if t else ""


def _blank(value):
    """None (a figure no source gives: gfx1250's ISA cycles) as an empty cell."""
    return "" if value is None else value


def row(fact):
    (wave, counts), = fact["registers"].items()
    return ([fact["architecture"], fact["mnemonic"], fact["m"], fact["n"], fact["k"],
             fact["blocks"], "yes" if fact["sparse"] else "no"]
            + [_type(fact, m) for m in "ABCD"]
            + [_blank(fact["cycles"]), fact["flops"], _blank(fact["flops_per_cycle"]),
               fact["compute_unit"],
               int(wave)]
            + [counts.get(m, "") for m in MATRICES]
            + [" ".join(fact["modifiers"])])


def text(fmt, facts):
    """The catalog table in one of the renderers' formats, with a final newline."""
    from . import render
    return render(fmt, HEADER, [row(f) for f in facts]) + "\n"
