#!/usr/bin/env python3
"""Write instructions/verification_checks.tsv, the per-instruction verification record,
from the repository's recorded data, and docs/verification.md from it.

    python3 scripts/record_verification.py [--arch ARCH ...] [--docs-only] [--check]

For every instruction of every architecture:
  reference  the golden records of AMD's calculator naming it (tests/data/golden/)
  llvm       clang-22 compiles its --emit hip example (none where --emit hip refuses it:
             scripts/check_hip.py compiles the rest); gfx1250/gfx1251: the llvm-mc-22
             encodings recorded in tests/data/gfx1250_llvm_mc.txt
  emulation  its --emit probe variants, run in scripts/check_probe.py's lane emulation
             (gcc): the number that pass, in each wave size
  composable_kernel, rocjitsu, aiter, flydsl: the layout rows of
             tests/data/gfx1250_sources.txt that name it (chosen rows; alternative rows
             become disagreements)
  triton     the scale layouts docs/cdna4.md compares with Triton's
--docs-only rewrites docs/verification.md from the current record; --check compares
both files with what would be written (exit status 1 on a difference); --arch runs the
emulation of the architectures named only, keeping the others' recorded results.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from matrix_library import api as mc

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
OUT = ROOT / "instructions" / "verification_checks.tsv"
DOC = ROOT / "docs" / "verification.md"
HEADER = """\
# The verification record of every instruction (instructions/verification.py): what each
# instruction's answers were checked against. Written by scripts/record_verification.py from
# the repository's recorded data; do not edit. Rows, tab-separated:
# check        ARCH  mnemonic  source key  detail
# unchecked    ARCH  mnemonic                      (no check recorded)
# alternative  ARCH  mnemonic  text                (a source that places an element otherwise)
"""
SOURCE_KEYS = {"composable_kernel": "composable_kernel", "rocjitsu": "rocjitsu",
               "aiter": "aiter", "FlyDSL": "flydsl"}
TRITON = {("CDNA4", "v_mfma_scale_f32_32x32x64_f8f6f4"):
          "the B scales' lanes agree with Triton's gfx950 layouts (32x32)"}


def golden_counts() -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    path = DATA / "golden" / "public.jsonl.gz"
    if not path.exists():
        raise SystemExit(f"{path} is missing")
    with gzip.open(path, "rt") as handle:
        for line in handle:
            record = json.loads(line)
            args = record["args"]
            if "-i" not in args or record["rc"] != 0:
                continue
            if record["arch"] == "none":
                continue
            arch = mc.find_architecture(record["arch"]).name
            counts[arch, args[args.index("-i") + 1].lower()] += 1
    return counts


def mc_encoded() -> set[tuple[str, str]]:
    found = set()
    for line in (DATA / "gfx1250_llvm_mc.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        cpu, text, answer = line.split("\t")[:3]
        if answer.startswith("enc ") and " " not in cpu:
            found.add((mc.find_architecture(cpu).name, text.split()[0]))
    return found


def source_rows() -> tuple[dict[Any, dict[str, str]], dict[Any, list[str]]]:
    chosen: dict[Any, dict[str, str]] = defaultdict(dict)
    against: dict[Any, list[str]] = defaultdict(list)
    commit = {}
    for line in (DATA / "gfx1250_sources.txt").read_text().splitlines():
        cols = line.split("\t")
        if line.startswith("#") or cols[0] != "layout":
            continue
        source, where, _, verdict, mnemonic = cols[1:6]
        found = re.search(r"@([0-9a-f]{7,})", where)
        if found:
            commit[source] = found.group(1)
        for arch in ("GFX1250", "GFX1251"):
            if mc.find_architecture(arch).find(mnemonic) is not None:
                _row(chosen, against, (arch, mnemonic), source, verdict, cols)
    for place in chosen.values():
        for key, mats in list(place.items()):
            source = next(s for s, k in SOURCE_KEYS.items() if k == key)
            place[key] = f"{mats} agree" + (f" (@{commit[source]})" if source in commit else "")
    return chosen, against


def _row(chosen: dict[Any, dict[str, str]], against: dict[Any, list[str]], key: Any,
         source: str, verdict: str, cols: list[str]) -> None:
    """Add one layout row of the sources file to an instruction's record."""
    matrix = cols[6]
    if verdict == "alternative":
        text = (f"{matrix}: {source} places it otherwise ({cols[10]} for "
                f"{matrix}[{cols[7]}][{cols[8]}]); docs/gfx1250.md")
        if text not in against[key]:
            against[key].append(text)
    elif source in SOURCE_KEYS:
        name = SOURCE_KEYS[source]
        mats = chosen[key].get(name, "")
        if matrix not in mats.split(", "):
            chosen[key][name] = ", ".join(filter(None, [mats, matrix]))


def emulated(only: list[str] | None = None) -> dict[tuple[str, str], list[str]]:
    """{(arch, mnemonic): ['wave64: 10 of 10 variants pass', ...]} from the emulation
    (`only`: of these architectures; the others' as recorded now)."""
    import check_probe

    from formats.hip import probe
    from instructions.verification_checks import checks_of
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for arch in mc.architectures():
        if only and arch.name not in only:
            for mnemonic, checks in checks_of(arch.name).items():
                found = dict(checks).get("emulation")
                if found:
                    out[arch.name, mnemonic] = found.split("; ")
            continue
        for wave in arch.waves:
            insts = []
            for inst in arch.instructions:
                try:
                    probe.variants(inst, wave)
                    insts.append(inst)
                except mc.CalcError:
                    continue
            lines = check_probe.emulate(insts, wave)
            for inst in insts:
                mine = [ln for ln in lines if ln.split(" ")[1:2] == [inst.mnemonic]]
                passed = sum(ln.startswith("PASS ") for ln in mine)
                out[arch.name, inst.mnemonic].append(
                    f"wave{wave}: {passed} of {len(mine)} variants pass")
            print(f"{arch.name} wave{wave}: {len(lines)} variants run", file=sys.stderr)
    return out


def refused(inst: Any) -> bool:
    from formats import hip
    for wave in inst.wave_sizes:
        try:
            hip.emit_parts(inst, None, None, wave)
            return False
        except mc.CalcError:
            continue
    return True


def record(only: list[str] | None = None) -> str:
    counts, encoded = golden_counts(), mc_encoded()
    chosen, against = source_rows()
    runs = emulated(only)
    lines = HEADER.splitlines()
    for arch in mc.architectures():
        if arch.vendor != "amd":  # (NVIDIA's: no AMD code to check; docs/porting.md has theirs)
            continue
        for inst in arch.instructions:
            key = arch.name, inst.mnemonic
            found = []
            if counts[key]:
                found.append(("reference", f"{counts[key]} recorded outputs replayed"))
            llvm = [] if refused(inst) else ["clang-22 compiles its builtin to it"]
            if key in encoded:
                llvm.append("llvm-mc-22 encodes it")
            if llvm:
                found.append(("llvm", "; ".join(llvm)))
            if runs.get(key):
                found.append(("emulation", "; ".join(runs[key])))
            found += sorted(chosen.get(key, {}).items())
            if key in TRITON:
                found.append(("triton", TRITON[key]))
            lines += [f"check\t{arch.name}\t{inst.mnemonic}\t{source}\t{detail}"
                      for source, detail in found] or [f"unchecked\t{arch.name}\t{inst.mnemonic}"]
    for (arch_name, mnemonic), texts in sorted(against.items()):
        lines += [f"alternative\t{arch_name}\t{mnemonic}\t{text}" for text in texts]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs-only", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--arch", action="append",
                        help="run the emulation of this architecture only (repeatable)")
    args = parser.parse_args(argv)
    only = [mc.find_architecture(a).name for a in args.arch or ()]
    from formats.verification import document
    if args.check:
        wanted = {DOC: document()} if args.docs_only else {OUT: record(only), DOC: document()}
        bad = [str(p) for p, text in wanted.items() if p.read_text() != text]
        print("differs: " + ", ".join(bad) if bad else "as recorded")
        return 1 if bad else 0
    if not args.docs_only:
        OUT.write_text(record(only))
        import importlib

        from instructions import verification_checks
        importlib.reload(verification_checks)
    DOC.write_text(document())
    return 0


if __name__ == "__main__":
    sys.exit(main())
