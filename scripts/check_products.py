#!/usr/bin/env python3
"""Product check of the gfx1250 / gfx1251 layouts (docs/gfx1250.md): for every instruction and
modifier set, place random small integers (exact in every format) where the layout
engine says each element of A, B, C, the sparse index and the scales lives, fill every
slot it leaves unused with random bits, run an executable model of the instruction on
the registers, read D back where the engine says D lives and compare with C + A*B.

    python3 scripts/check_products.py [--model host] [--layouts calculator|rocjitsu] [-q]
    python3 scripts/check_products.py --cases FILE      # write the register files
    python3 scripts/check_products.py --replay FILE     # compare another model's D

Models: `host` (default) is scripts/product_model.py, written from the sources'
statements of each operation, not from the layouts. Another model (rocjitsu's
mma_exec.h, built outside this repository) reads the register files --cases writes and
prints D in the same text form; --replay FILE --record OUT keeps its answers with the
inputs' digest (tests/data/gfx1250_products_rocjitsu.txt.gz, replayed by
tests/layouts/test_products.py). `--layouts rocjitsu` places A, B and the index (SWMMAC) and the
sub-byte operand of a mixed f8f6f4 pair by the alternatives `-d` names for rocjitsu
(layouts/gfx1250.py alternative_layouts), the rest by the calculator.

The text form, per case: a header line `case NAME M N K A_FMT B_FMT C_FMT D_FMT SPARSE
INDEX_KEY D_REGS [NAME=VALUE...]` (the modifiers that change what is read: scale
selects, scale formats, scale block), then each operand as `A|B|C|K|SA|SB REGS` and
REGS lines of 32 hex words (lane 0 first), then `end`; a model answers `case NAME`,
`D REGS` and REGS lines.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import random
import sys
from collections.abc import Iterator
from typing import Any, TextIO

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import product_model as pm

from layouts import gfx1250 as engine
from matrix_library import api as mc

ARCHES = ("gfx1250", "gfx1251")
FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")
VALUES = (-3, -2, -1, 0, 1, 2, 3)       # exact in fp4 .. f64
UNSIGNED = (0, 1, 2, 3)                 # iu8 without neg_lo: unsigned
C_VALUES = tuple(range(-8, 9))
SCALES = (125, 126, 127, 128, 129)      # E8M0: 1/4 .. 4


class Built:
    """One case: its name, header, registers and the expected D (element -> value)."""

    def __init__(self, name: str, inst: Any, mods: dict[str, int], header: str,
                 regs: dict[str, pm.Regs], expected: dict[tuple[int, int], float],
                 d_regs: int) -> None:
        self.name, self.inst, self.mods, self.header = name, inst, mods, header
        self.regs, self.expected, self.d_regs = regs, expected, d_regs

    def text(self) -> str:
        lines = [self.header]
        for matrix, regs in self.regs.items():
            lines.append(f"{matrix} {len(regs)}")
            lines += [" ".join(f"{w:08x}" for w in reg) for reg in regs]
        return "\n".join(lines + ["end"]) + "\n"

    def digest(self) -> str:
        return hashlib.sha256(self.text().encode()).hexdigest()[:16]


# ---- the cases

Case = tuple[str, Any, dict[str, int]]


def cases(arches: tuple[str, ...] = ARCHES, names: str = "") -> Iterator[Case]:
    """(name, instruction, modifiers) of every case: every instruction; every format pair
    of the f8f6f4 forms; both index keys of a SWMMAC; both scale lanes of a scaled form."""
    seen: set[str] = set()
    for arch in arches:
        for inst in mc.instructions(mc.find_architecture(arch)):
            if inst.mnemonic in seen:  # (gfx1251 repeats gfx1250's 43)
                continue
            seen.add(inst.mnemonic)
            if names and not any(part in inst.mnemonic for part in names.split(",")):
                continue
            for mods in _modifier_sets(inst):
                tag = ",".join(f"{k}={v}" for k, v in mods.items())
                yield f"{arch}:{inst.mnemonic}" + (f"[{tag}]" if tag else ""), inst, mods


def _modifier_sets(inst: Any) -> Iterator[dict[str, int]]:
    pairs: list[dict[str, int]] = [{}]
    if inst.takes("matrix_a_fmt"):
        pairs = [{"matrix_a_fmt": a, "matrix_b_fmt": b}
                 for a in range(len(FORMATS)) for b in range(len(FORMATS))]
    if inst.sparse:
        pairs = [{**p, "index_key": key} for p in pairs for key in (0, 1)]
    if inst.scale_k:
        pairs = [{**p, "matrix_a_scale": sa, "matrix_b_scale": sb}
                 for p in pairs for sa, sb in ((0, 0), (1, 1)) if inst.m == 16 or sa == 0]
    yield from pairs


class CkPlaces:
    """composable_kernel's reading of a gfx1250 SWMMAC or f8f6f4 operand, from the layout
    parameters of its amdgcn_mma specialisations (amdgcn_mma.hpp: K unmerged as K2 x K1 x
    K0 with K0 = kABKPerLane / NumAccess values in a lane's vector, K1 = K / kABKPerLane
    lane halves, K2 = NumAccess; the sparse A compressed 2:1 in the lane's vector order
    and the index one 2-bit field per stored value at bit 2*s, sparse_transforms.hpp):
    the A, index and B a CK kernel loads. kABKPerLane: 32 (16-bit SWMMAC), 64 (8-bit
    SWMMAC and f8f6f4); NumAccess 1, or 4 for the 8-bit and 2 for the sub-byte operand
    of a mixed f8f6f4 pair (scale_gfx125.hpp). Values packed from bit 0 in vector order
    (pk_fp4_t's first value in the low nibble)."""

    def __init__(self, inst: Any, matrix: str) -> None:
        self.matrix, self.k = matrix, inst.k
        self.bits = (inst.a_type if matrix in ("A", "K") else inst.b_type).bits
        self.per_lane = 32 if inst.sparse and self.bits == 16 else 64
        other = (inst.b_type if matrix == "A" else inst.a_type).bits
        self.access = 1
        if inst.f8f6f4 and (self.bits == 8) != (other == 8):
            self.access = 4 if self.bits == 8 else 2

    def places(self, row: int, col: int, _block: int = 0) -> list[Any]:
        mn, k = (col, row) if self.matrix == "B" else (row, col)
        k0_size = self.per_lane // self.access
        k2, rest = divmod(k, self.k // self.access)
        half, k0 = divmod(rest, k0_size)
        item = k2 * k0_size + k0
        lane = mn + 16 * half
        if self.matrix == "A" and self.sparse:
            return [_place(lane, (item // 4) * 2 * self.bits, 2 * self.bits)]
        if self.matrix == "K":
            return [_place(lane, (item // 4) * 4, 4)]
        return [_place(lane, item * self.bits, self.bits)]

    sparse = False


def _place(lane: int, bit: int, width: int) -> Any:
    from layouts.core import Place
    return Place(bit // 32, lane, bit % 32, width)


def _places(inst: Any, matrix: str, mods: dict[str, int], layouts: str) -> Any:
    """The .places(row, col) of `matrix`: the calculator's, or rocjitsu's alternative (a
    SWMMAC's C, its accumulator, is the C/D rule at C's width: vdst is srcC)."""
    if matrix == "C" and inst.sparse:
        return engine.cd(inst.c_type.bits)
    operand = mc.operand(inst, matrix, mods=mods, wave=32)
    if layouts == "ck" and matrix in ("A", "B", "K"):
        ck = CkPlaces(mc.with_formats(inst, mods), matrix)
        ck.sparse = inst.sparse
        return ck
    if layouts == "rocjitsu":
        formatted = mc.with_formats(inst, mods)
        for source, layout in engine.alternative_layouts(formatted, matrix):
            if "rocjitsu" in source:
                if matrix == "K":
                    layout.base_bit = operand.layout.base_bit
                return layout
    return operand


class Placer:
    """The registers of one case, filled where the layouts say (random bits elsewhere)."""

    def __init__(self, inst: Any, mods: dict[str, int], layouts: str,
                 rng: random.Random) -> None:
        self.inst, self.mods, self.layouts, self.rng = inst, mods, layouts, rng
        self.regs: dict[str, pm.Regs] = {}
        self.placed: dict[str, Any] = {}

    def blank(self, matrix: str) -> None:
        inst = self.inst
        if matrix == "C" and inst.sparse:
            count = inst.m * inst.n * inst.c_type.bits // 1024
        elif matrix == "K":  # the operand's VGPRs (index_key 1 places fields past them)
            count = engine.index_bits(inst.k) // 32
        else:
            count = mc.register_count(inst, matrix, mods=self.mods, wave=32)
        self.regs[matrix] = [[self.rng.getrandbits(32) for _ in range(32)]
                             for _ in range(count)]

    def put(self, matrix: str, row: int, col: int, raw: int, width: int | None = None) -> None:
        if matrix not in self.placed:
            self.placed[matrix] = _places(self.inst, matrix, self.mods, self.layouts)
        regs = self.regs[matrix]
        for place in self.placed[matrix].places(row, col):
            bit = place.reg * 32 + place.lo
            if bit + (width or place.width) <= 32 * len(regs):
                pm.write_bits(regs, place.lane, bit, width or place.width, raw)

    def fill(self, matrix: str, values: list[list[int]], fmt: str) -> None:
        for row, line in enumerate(values):
            for col, value in enumerate(line):
                self.put(matrix, row, col, pm.encode(value, fmt))


def _random(rng: random.Random, rows: int, cols: int, values: tuple[int, ...]
            ) -> list[list[int]]:
    return [[rng.choice(values) for _ in range(cols)] for _ in range(rows)]


def build(name: str, inst: Any, mods: dict[str, int], rng: random.Random,
          layouts: str = "calculator") -> Built:
    """One case: random values placed by `layouts`, and C + A*B."""
    inst = mc.with_formats(inst, mods)
    m, n, k = inst.m, inst.n, inst.k
    a_vals = UNSIGNED if inst.a_type.key == "iu8" else VALUES
    placer = Placer(inst, mods, layouts, rng)
    c, b = _random(rng, m, n, C_VALUES), _random(rng, k, n, a_vals)
    for matrix in ("A", "B") + (("K",) if inst.sparse else ()) + ("C",):
        placer.blank(matrix)
    placer.fill("B", b, inst.b_type.key)
    placer.fill("C", c, inst.c_type.key)
    if inst.sparse:
        terms = _sparse_a(placer, a_vals)
        expected = {(i, j): c[i][j] + sum(v * b[kk][j] for kk, v in terms[i])
                    for i in range(m) for j in range(n)}
    else:
        expected = _dense(placer, a_vals, b, c)
    d_regs = max(len(placer.regs["C"]), mc.register_count(inst, "D", mods=mods, wave=32))
    return Built(name, inst, mods, _header(name, inst, mods, d_regs), placer.regs, expected,
                 d_regs)


def _dense(placer: Placer, a_vals: tuple[int, ...], b: list[list[int]],
           c: list[list[int]]) -> dict[tuple[int, int], float]:
    """Place A (and the scales of a scaled form); C + A*B, each K block's products
    scaled by its two scales."""
    inst, rng = placer.inst, placer.rng
    m, n, k = inst.m, inst.n, inst.k
    a = _random(rng, m, k, a_vals)
    placer.fill("A", a, inst.a_type.key)
    scale = [[1.0] * n for _ in range(k)]  # scale[kk][j] of A row i: see below
    sa = [[127] for _ in range(m)]  # (unscaled: one block of K, scale 1)
    if inst.scale_k:
        blocks = k // inst.scale_k
        sa = _random(rng, m, blocks, SCALES)
        sb = _random(rng, blocks, n, SCALES)
        placer.blank("SA")
        placer.blank("SB")
        for i, line in enumerate(sa):
            for kb, value in enumerate(line):
                placer.put("SA", i, kb, value)
        for kb, line in enumerate(sb):
            for j, value in enumerate(line):
                placer.put("SB", kb, j, value)
        scale = [[2.0 ** (sb[kk // inst.scale_k][j] - 127) for j in range(n)]
                 for kk in range(k)]
    block = inst.scale_k or k
    return {(i, j): c[i][j] + sum(a[i][kk] * b[kk][j] * scale[kk][j]
                                  * 2.0 ** (sa[i][kk // block] - 127) for kk in range(k))
            for i in range(m) for j in range(n)}


def _header(name: str, inst: Any, mods: dict[str, int], d_regs: int) -> str:
    extra = {key: value for key, value in mods.items()
             if key.startswith("matrix_") and "scale" in key}
    if inst.scale_k:
        extra["scale_block"] = inst.scale_k
    return " ".join(["case", name, str(inst.m), str(inst.n), str(inst.k), inst.a_type.key,
                     inst.b_type.key, inst.c_type.key, inst.out_type.key,
                     str(int(inst.sparse)), str(mods.get("index_key", 0)), str(d_regs)]
                    + [f"{key}={value}" for key, value in extra.items()])


def _sparse_a(placer: Placer, values: tuple[int, ...]) -> list[list[tuple[int, float]]]:
    """Place a 2:4 sparse A (two values per group of four K, at random positions) and its
    index; return each row's (dense k, value) terms as the instruction reads them: a
    group whose index field lies past the operand's end (index_key 1) reads position 0
    for both values."""
    inst, rng = placer.inst, placer.rng
    bits, a_fmt = inst.a_type.bits, inst.a_type.key
    index = _places(inst, "K", placer.mods, placer.layouts)
    limit = 32 * len(placer.regs["K"])
    terms: list[list[tuple[int, float]]] = []
    for i in range(inst.m):
        row: list[tuple[int, float]] = []
        for group in range(inst.k // 4):
            p0, p1 = sorted(rng.sample(range(4), 2))
            v0, v1 = rng.choice(values), rng.choice(values)
            if all(p.reg * 32 + p.lo + 4 <= limit for p in index.places(i, 4 * group)):
                placer.put("K", i, 4 * group, p0 | p1 << 2, 4)
            else:
                p0 = p1 = 0
            pair = pm.encode(v0, a_fmt) | pm.encode(v1, a_fmt) << bits
            placer.put("A", i, 4 * group, pair, 2 * bits)
            row += [(4 * group + p0, v0), (4 * group + p1, v1)]
        terms.append(row)
    return terms


# ---- reading D back and comparing

def compare(built: Built, d: pm.Regs) -> list[str]:
    """Mismatches of the model's D (read where the engine says D lives) with C + A*B."""
    inst, fmt = built.inst, built.inst.out_type.key
    operand = mc.operand(inst, "D", mods=built.mods, wave=32)
    bad: list[str] = []
    for (i, j), want in built.expected.items():
        if fmt in ("f16", "bf16"):
            want = pm.decode(pm.encode(want, fmt), fmt)
        for place in operand.places(i, j):
            raw = pm.read_bits(d, place.lane, place.reg * 32 + place.lo, place.width)
            got = pm.decode(raw, fmt)
            if got != want:
                bad.append(f"D[{i}][{j}]: v{place.reg}{{{place.lane}}} holds {got:g}, "
                           f"C + A*B = {want:g}")
    return bad


def parse_answers(stream: TextIO) -> dict[str, pm.Regs]:
    """A model's answers: case name -> D registers."""
    out: dict[str, pm.Regs] = {}
    words = stream.read().split()
    at = 0
    while at < len(words):
        assert words[at] == "case", words[at]
        name, count = words[at + 1], int(words[at + 3])
        at += 4
        regs = [[int(w, 16) for w in words[at + 32 * r: at + 32 * r + 32]] for r in range(count)]
        at += 32 * count
        out[name] = regs
    return out


def host(built: Built) -> pm.Regs:
    inst = built.inst
    mods = {**built.mods}
    if inst.scale_k:
        mods["scale_block"] = inst.scale_k
    case = pm.Case(inst.m, inst.n, inst.k, (inst.a_type.key, inst.b_type.key,
                   inst.c_type.key, inst.out_type.key), inst.sparse, mods, built.d_regs,
                   built.regs)
    return pm.run(case)


def all_built(seed: int, layouts: str, names: str = "") -> Iterator[Built]:
    for name, inst, mods in cases(names=names):
        if layouts == "rocjitsu" and not _has_alternative(inst, mods):
            continue
        if layouts == "ck" and not (inst.sparse and not mods.get("index_key")
                                    or inst.f8f6f4 and not inst.scale_k):
            continue
        yield build(name, inst, mods, random.Random(f"{seed}:{name}:{layouts}"), layouts)


def _has_alternative(inst: Any, mods: dict[str, int]) -> bool:
    formatted = mc.with_formats(inst, mods)
    return any("rocjitsu" in source
               for matrix in ("A", "B")
               for source, _ in engine.alternative_layouts(formatted, matrix))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--layouts", choices=("calculator", "rocjitsu", "ck"), default="calculator")
    parser.add_argument("--only", default="", help="comma-separated mnemonic parts")
    parser.add_argument("--cases", help="write the register files to FILE")
    parser.add_argument("--replay", help="compare the answers in FILE (another model's D)")
    parser.add_argument("--record", help="with --replay: keep the answers in OUT (.gz)")
    parser.add_argument("--source", default="", help="with --record: the model and commit")
    parser.add_argument("-q", action="store_true", help="print only the summary")
    args = parser.parse_args()
    built = list(all_built(args.seed, args.layouts, args.only))
    if args.cases:
        with open(args.cases, "w") as out:
            for one in built:
                out.write(one.text())
        print(f"{len(built)} cases written to {args.cases}")
        return 0
    answers: dict[str, pm.Regs] = {}
    if args.replay:
        with open(args.replay) as stream:
            answers = parse_answers(stream)
    failed = 0
    records = []
    if args.replay:
        unanswered = [one.name for one in built if one.name not in answers]
        built = [one for one in built if one.name in answers]
        if unanswered:
            print(f"{len(unanswered)} cases not answered by the model (e.g. {unanswered[0]})")
    for one in built:
        d = answers[one.name] if args.replay else host(one)
        bad = compare(one, d)
        failed += bool(bad)
        if bad and not args.q:
            print(f"FAIL {one.name}: {len(bad)} of {len(one.expected)} D values, e.g. {bad[0]}")
        records.append((one, d, len(bad)))
    model = "replayed answers" if args.replay else "host model"
    print(f"{len(built) - failed} of {len(built)} cases agree ({model}, layouts: "
          f"{args.layouts}, seed {args.seed})")
    if args.record:
        write_record(args.record, args, records)
    return 1 if failed and not args.record else 0


def write_record(path: str, args: argparse.Namespace, records: list[Any]) -> None:
    """Add the answers to the record (a gzip file; members appended per layout set): a
    header naming the model and how to regenerate, then per case its name, layouts, the
    digest of its inputs, the mismatch count and D."""
    fresh = not os.path.exists(path)
    with gzip.open(path, "at") as out:
        if fresh:
            out.write(f"# {args.source}\n# regenerate, per --layouts L (calculator, rocjitsu, "
                      "ck): python3 scripts/check_products.py --layouts L --cases FILE; run "
                      "the model on FILE (its answers: ANSWERS); python3 scripts/"
                      "check_products.py --layouts L --replay ANSWERS --record "
                      f"{os.path.basename(path)}\n")
        for one, d, mismatches in records:
            out.write(f"case {one.name} {args.layouts} {one.digest()} {mismatches} {len(d)}\n")
            out.writelines(" ".join(f"{w:08x}" for w in reg) + "\n" for reg in d)


def read_record(path: str) -> list[tuple[str, str, str, int, pm.Regs]]:
    """(name, layouts, digest, mismatches, D) of every recorded case."""
    out = []
    with gzip.open(path, "rt") as stream:
        lines = [line for line in stream.read().splitlines() if not line.startswith("#")]
    at = 0
    while at < len(lines):
        _, name, layouts, digest, bad, count = lines[at].split()
        regs = [[int(w, 16) for w in line.split()] for line in lines[at + 1: at + 1 + int(count)]]
        out.append((name, layouts, digest, int(bad), regs))
        at += 1 + int(count)
    return out


def replay_record(path: str, seed: int = 29) -> list[tuple[str, str, str, int]]:
    """Rebuild every recorded case from the current layouts and compare the recorded D
    with C + A*B: (name, layouts, what changed or '', mismatches now) per case; a case
    whose inputs no longer match the recording (a layout moved) says 'inputs changed'."""
    wanted = {(name, layouts) for name, layouts, *_ in read_record(path)}
    known = {(name, layouts): (inst, mods) for layouts in ("calculator", "rocjitsu", "ck")
             for name, inst, mods in cases() if (name, layouts) in wanted}
    out = []
    for name, layouts, digest, _, d in read_record(path):
        inst, mods = known[name, layouts]
        built = build(name, inst, mods, random.Random(f"{seed}:{name}:{layouts}"), layouts)
        changed = "" if built.digest() == digest else "inputs changed"
        out.append((name, layouts, changed, len(compare(built, d))))
    return out


if __name__ == "__main__":
    sys.exit(main())
