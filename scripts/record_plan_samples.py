#!/usr/bin/env python3
"""Record (or check) a sample of conversion plans and LDS plans and searches, move for
move and slot for slot, as digests: tests/data/plan_samples.txt, which
tests/plans/test_plan_samples.py compares with what the planners answer (a faster planner
must not change an answer).

Each line: the case (kind and arguments, tab-separated), a short summary (class,
instruction count, route; worst conflict, loads) and the SHA-256 of the whole answer
written canonically (every record field in order; an instruction by its name, LDS facts
by their architecture, a phase model by its key, a load by its name; the record fields
of ADDED, at their default, left out).

    python3 scripts/record_plan_samples.py            # rewrite tests/data/plan_samples.txt
    python3 scripts/record_plan_samples.py lds search # rewrite the lines of these kinds
    python3 scripts/record_plan_samples.py --check    # compare, print the differences
    python3 scripts/record_plan_samples.py --check convert   # only these kinds (convert,
                                                             # lds, search)
"""
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import matrix_calculator  # noqa: E402,F401  (registers the package of the clone)
from instructions import ARCHITECTURES  # noqa: E402
from instructions.lane_moves import ARCH_MOVES  # noqa: E402
from matrix_library import api as mc  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from plans import plannable  # noqa: E402  (bench/plans.py: the pairs conversion() plans)

OUT = ROOT / "tests" / "data" / "plan_samples.txt"


# Record fields the recorded digests leave out, with the value that means "not used": a
# field at that value is left out, so that an option's default changes no digest.
ADDED = {"Tile": {"xor": ()}}  # (the XOR swizzle)


def canonical(value):
    """A deterministic text of an answer (see the module's docstring)."""
    kind = type(value).__name__
    if kind == "Instruction":
        return f"<{value.arch} {value.name}>"
    if kind == "LdsFacts":
        return f"<facts {value.arch}>"
    if kind == "PhaseModel":
        return f"<model {value.key}>"
    if kind == "Load":
        return f"<load {value.name}>"
    if hasattr(value, "_fields"):
        added = ADDED.get(kind, {})
        inner = ", ".join(f"{f}={canonical(v)}" for f, v in zip(value._fields, value)
                          if f not in added or v != added[f])
        return f"{kind}({inner})"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(canonical(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{canonical(k)}: {canonical(v)}"
                               for k, v in sorted(value.items(), key=repr)) + "}"
    return repr(value)


def digest(value):
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:32]


def _instruction(arch, name):
    return mc.find_instruction(arch, name)


def _conversion_cases():
    """Every tenth-or-so valid D -> A/B pair of each architecture (in table order), some
    transposed and some with the route forced, and the slowest pair to plan (gfx1250 bf16 D
    into an fp8 A)."""
    cases = []
    moved = {entry.arch for entry in ARCH_MOVES}  # (the architectures conversions plan on)
    for arch in (arch for arch in ARCHITECTURES if arch.name in moved):
        valid = []
        for src in arch.instructions:
            for dst in arch.instructions:
                for matrix in "AB":
                    if plannable(src, dst, matrix):
                        valid.append((src.mnemonic, dst.mnemonic, matrix))
        step = max(1, len(valid) // 8)
        for n, (src, dst, matrix) in enumerate(valid[::step]):
            extra = ("", "transposed", "lds", "registers")[n % 4]
            cases.append(("convert", arch.name, src, dst, matrix, extra))
    cases.append(("convert", "GFX1250", "v_wmma_bf16_16x16x32_bf16",
                  "v_wmma_f32_16x16x128_fp8_bf8", "A", ""))
    return cases


def _lds_cases():
    """A and B of some instructions of every architecture: the smallest tile, 4 and 16 K
    steps, padding, a swizzle, order mn; searches of the smallest tile."""
    cases = []
    for arch in ARCHITECTURES:
        chosen = arch.instructions[::max(1, len(arch.instructions) // 4)]
        for n, inst in enumerate(chosen):
            for matrix in "AB":
                try:
                    mc.lds_plan(inst, matrix, tile="1x1")
                except mc.CalcError as error:
                    text = str(error)
                    if "needs at least" not in text:
                        continue
                    rows, cols = (int(v) for v in text.rsplit(" ", 1)[1].split("x"))
                else:
                    continue
                tile = f"{rows}x{cols}"
                cases.append(("lds", arch.name, inst.mnemonic, matrix, tile, "k", "0", "", "1"))
                cases.append(("lds", arch.name, inst.mnemonic, matrix, f"{rows}x{cols * 4}",
                              "k", str(n % 3 * 4), "", "4"))
                cases.append(("lds", arch.name, inst.mnemonic, matrix, f"{rows}x{cols * 16}",
                              "k", "0", "", "16"))
                if n % 2:
                    cases.append(("lds", arch.name, inst.mnemonic, matrix,
                                  f"{rows}x{cols * 2}", "k", "0", "4,2,4", "2"))
                cases.append(("search", arch.name, inst.mnemonic, matrix, tile, "k", "0", "",
                              "1"))
    cases.append(("search", "GFX1250", "v_wmma_f32_32x16x128_f4", "A", "32x128", "k", "0",
                  "", "1"))
    return cases


def answer(case):
    """(summary, digest) of one case."""
    kind, arch, *rest = case
    if kind == "convert":
        src, dst, matrix, extra = rest
        found = mc.conversion(_instruction(arch, src), "D", _instruction(arch, dst), matrix,
                              transposed=extra == "transposed",
                              route=extra if extra in ("lds", "registers") else None)
        advice = ";".join(f"{a.conversion.kind}/{a.conversion.total}" for a in found.advice)
        return f"{found.kind} {found.total} {found.route} [{advice}]", digest(found)
    inst = _instruction(arch, rest[0])
    matrix, tile, order, pad, swizzle, steps = rest[1:]
    options = {"tile": tile, "order": order, "pad": int(pad), "swizzle": swizzle or None,
               "k_steps": int(steps)}
    try:
        if kind == "lds":
            found = mc.lds_plan(inst, matrix, **options)
            return f"worst {found.worst} loads {len(found.loads)}", digest(found)
        found = mc.lds_search(inst, matrix, **options)
        best = found.found[0] if found.found else None
        return (f"found {len(found.found)} best {best.pad if best else '-'}/"
                f"{best.swizzle if best else '-'}", digest(found))
    except mc.CalcError as error:
        return "refused", digest(str(error))


def main():
    check = "--check" in sys.argv
    if check:
        kinds = set(sys.argv[sys.argv.index("--check") + 1:]) or {"convert", "lds", "search"}
        rows = [line.split("\t") for line in OUT.read_text().splitlines()
                if line and not line.startswith("#") and line.split("\t")[0] in kinds]
        bad = 0
        for *case, summary, sha in rows:
            got = answer(tuple(case))
            if got != (summary, sha):
                bad += 1
                print("DIFFERS", case, (summary, sha), got)
        print(f"{len(rows) - bad} of {len(rows)} the same")
        return 1 if bad else 0
    kinds = set(sys.argv[1:]) or {"convert", "lds", "search"}
    lines = ["# a sample of plans: case\tsummary\tdigest "
             "(python3 scripts/record_plan_samples.py [KIND...])"]
    if OUT.exists():  # (the lines of other kinds are kept)
        lines += [line for line in OUT.read_text().splitlines()[1:]
                  if line.split("\t")[0] not in kinds]
    for case in _conversion_cases() * ("convert" in kinds) + [
            c for c in _lds_cases() if c[0] in kinds]:
        summary, sha = answer(case)
        lines.append("\t".join(case + (summary, sha)))
        print(lines[-1], flush=True)
    OUT.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
