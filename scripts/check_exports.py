"""Evaluate every export with its consumer's own code and compare with the engine.

For every AMD instruction, wave size and operand, with no modifiers and with each
modifier that moves a layout at its first nonzero values: `--emit cute --json` evaluated
by tensor-layouts (`Layout(shape, stride)(lane, value)`), and the Python `--emit gluon`
writes run with Triton's Gluon and turned into a linear layout by Triton's own
`to_linear_layout` (its C++ layout code through the Python bindings: no GPU), each
compared lane by lane and value by value with the engine's elements (the operand's
places, sorted by bit within the lane; for sparse operands the compressed matrix the
fragment gives). A refusal (exit 2) must come where the operand's lanes are not one
shape:stride or linear map.

    python3 scripts/check_exports.py            # check, print a summary
    python3 scripts/check_exports.py --every 8  # a sample: every 8th operand
    python3 scripts/check_exports.py --record   # and write tests/data/exports/checks.json.gz

Run from the repository's top with tensor-layouts and triton installed
(requirements-dev.txt). tests/formats/test_exports.py replays the record.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from formats.exports import export_json, gluon_python
from instructions import ARCHITECTURES
from instructions.model import Instruction
from instructions.modifiers import MODIFIERS, Modifiers
from layouts.fragment import element, fragment
from layouts.legality import rule
from matrix_library.api import CalcError, matrices, operand
from matrix_library.exports import export
from matrix_library.modifier_values import _values

RECORD = Path(__file__).resolve().parents[1] / "tests" / "data" / "exports" / "checks.json.gz"
COMMAND = "python3 scripts/check_exports.py --record"
Elem = tuple[int, int, int]


def variants(inst: Instruction, wave: int) -> list[Modifiers]:
    """No modifiers, then each modifier that moves a layout at up to three nonzero
    values (ABID with the largest CBSZ)."""
    found = [Modifiers()]
    for spec in MODIFIERS:
        if not spec.shapes:
            continue
        base = Modifiers()
        if spec.name == "abid":
            top = rule(MODIFIERS[0], inst, base, wave)
            if top is None:
                continue
            base = base._replace(cbsz=top.top)
        got = rule(spec, inst, base, wave)
        if got is None:
            continue
        found += [base._replace(**{spec.name: v}) for v in _values(got) if v][:3]
    return found


def cases() -> list[tuple[Instruction, int, Modifiers, str]]:
    found = []
    for arch in ARCHITECTURES:
        if arch.vendor != "amd":
            continue
        for inst in arch.instructions:
            for wave in inst.wave_sizes:
                for mods in variants(inst, wave):
                    for matrix in matrices(inst):
                        try:
                            operand(inst, matrix, mods=mods, wave=wave)
                        except CalcError:
                            continue
                        found.append((inst, wave, mods, matrix))
    return found


def engine(inst: Instruction, matrix: str, mods: Modifiers, wave: int
           ) -> dict[tuple[int, int], Elem | None]:
    """{(lane, value): element} of the engine: value v is the lane's v-th slot by bit."""
    op = operand(inst, matrix, mods=mods, wave=wave)
    frag = fragment(op)
    if inst.sparse and matrix in ("A", "K"):  # (the compressed matrix in memory)
        return repeated(frag, {(lane, v): element(frag, lane, v) for lane in range(wave)
                               for v in range(frag.values)})
    by_lane: dict[int, list[tuple[int, Elem]]] = {}
    for elem, places in op.placed():
        for p in places:
            by_lane.setdefault(p.lane, []).append((p.reg * 32 + p.lo, elem))
    found: dict[tuple[int, int], Elem | None] = {}
    for lane in range(wave):
        slots = sorted(by_lane.get(lane, []))
        for v in range(frag.values):
            found[(lane, v)] = slots[v][1] if v < len(slots) else None
    return repeated(frag, found)


def repeated(frag, found: dict) -> dict:
    """Where only an aligned block of lanes holds values (gfx1250's scales, RDNA4's wave64
    4-bit A and B), the exports repeat that block in the other lanes: expect it there."""
    if frag.lanes >= frag.wave or any(d.coord == "copy" for d in frag.lane_digits) \
            or frag.guard is not None:
        return found
    held = range(frag.base_lane, frag.base_lane + frag.lanes)
    return {(lane, v): found[(lane, v)] if lane in held else
            found[(frag.base_lane + lane % frag.lanes, v)] for lane, v in found}


def check_cute(doc: dict, truth: dict, wave: int) -> str:
    """'agree', or the first lane and value where tensor-layouts' answer differs."""
    from tensor_layouts import Layout

    def tupled(x: object) -> object:
        return tuple(tupled(y) for y in x) if isinstance(x, list) else x

    layout = Layout(tupled(doc["shape"]), tupled(doc["stride"]))
    rows, cols, blocks = (doc["extent"][k] for k in ("rows", "cols", "blocks"))
    fastest_row = doc["offset"].startswith("m")
    values = max(v for _, v in truth) + 1
    from tensor_layouts.layouts import size
    if size(layout) != wave * values:
        return f"size {size(layout)}, engine {wave} x {values}"
    for (lane, v), want in truth.items():
        offset = layout(lane, v)
        block, rest = divmod(offset, rows * cols)
        col, row = divmod(rest, rows) if fastest_row else (rest % cols, rest // cols)
        got = (row, col, block)
        if got != want:
            return f"lane {lane} value {v}: tensor-layouts {got}, engine {want}"
    return "agree"


class Triton:
    """Triton's Gluon and its layout code (a builder of Gluon's IR, made once)."""

    def __init__(self) -> None:
        from triton._C.libtriton import gluon_ir, ir
        self.context = ir.context()
        ir.load_dialects(self.context)
        self.builder = gluon_ir.GluonOpBuilder(self.context, "gfx942")

    def linear(self, source: str, shape: list[int]) -> tuple[dict, dict | None]:
        """Triton's linear layout of `layout` (and of `linear`, if bound) of `source`."""
        scope: dict[str, object] = {}
        exec(compile(source, "<--emit gluon>", "exec"), scope)
        results = []
        for name in ("layout", "linear"):
            if name not in scope:
                results.append(None)
                continue
            got = self.builder.to_linear_layout(scope[name]._to_ir(self.builder), shape)
            results.append({"reg_bases": [list(b) for b in got.reg_bases],
                            "lane_bases": [list(b) for b in got.lane_bases],
                            "warp_bases": [list(b) for b in got.warp_bases],
                            "block_bases": [list(b) for b in got.block_bases],
                            "shape": list(got.shape)})
        return results[0], results[1]


def check_gluon(bases: dict, truth: dict, packed: int, wave: int) -> str:
    """'agree', or the first (register, lane) where Triton's map differs from the engine."""
    regs, lanes = bases["reg_bases"], bases["lane_bases"]
    if bases["warp_bases"] or bases["block_bases"] or len(lanes) != wave.bit_length() - 1:
        return "Triton's layout spans more than one wave"
    values = max(v for _, v in truth) + 1
    if (1 << len(regs)) * packed != values:
        return f"{1 << len(regs)} registers of {packed}, engine {values} values"
    for (lane, v), want in truth.items():
        got = [0] * len(bases["shape"])
        for index, vecs in ((v // packed, regs), (lane, lanes)):
            for b, vec in enumerate(vecs):
                if index >> b & 1:
                    got = [x ^ y for x, y in zip(got, vec)]
        if packed > 1:  # (fp4: two values to a byte along K, the last dim for A)
            dim = len(got) - 1 if bases["k_dim"] == "last" else len(got) - 2
            got[dim] = got[dim] * packed + v % packed
        if bases["k_dim"] == "scales":  # (B's scales: [N, K/scale block] in Triton)
            got[-2], got[-1] = got[-1], got[-2]
        elem = (got[-2], got[-1], got[0] if len(got) == 3 else 0)
        if elem != want:
            return f"lane {lane} value {v}: Triton {elem}, engine {want}"
    return "agree"


def run(record: bool, every: int = 1) -> int:
    triton = Triton()
    rows, failures = [], 0
    for inst, wave, mods, matrix in cases()[::every]:
        truth = engine(inst, matrix, mods, wave)
        row: dict[str, object] = {"architecture": inst.arch, "instruction": inst.mnemonic,
                                  "matrix": matrix, "wave": wave,
                                  "modifiers": {k: v for k, v in mods._asdict().items() if v}}
        try:
            doc = json.loads(export_json(export(inst, matrix, "cute", mods=mods, wave=wave)))
            row["cute"] = {"shape": doc["shape"], "stride": doc["stride"]}
            row["tensor_layouts"] = check_cute(doc, truth, wave)
        except CalcError as error:
            row["cute_refused"] = str(error)
        try:
            found = export(inst, matrix, "gluon", mods=mods, wave=wave)
            assert found.gluon is not None
            source = gluon_python(found)
            got, linear = triton.linear(source, list(found.gluon.shape))
            row["gluon"] = {"named": found.gluon.named is not None, "packed": found.gluon.packed,
                            "reg_bases": got["reg_bases"], "lane_bases": got["lane_bases"],
                            "shape": got["shape"]}
            got["k_dim"] = "last" if matrix == "A" else "scales" if matrix == "SB" else "first"
            row["triton"] = check_gluon(got, truth, found.gluon.packed, wave)
            if linear is not None and linear["reg_bases"] != got["reg_bases"]:
                row["triton"] = "the named layout and the linear one differ"
        except CalcError as error:
            row["gluon_refused"] = str(error)
        bad = [k for k in ("tensor_layouts", "triton") if k in row and row[k] != "agree"]
        if bad:
            failures += 1
            print("MISMATCH", json.dumps(row))
        rows.append(row)
    summary = {k: sum(1 for r in rows if r.get(k) == "agree") for k in ("tensor_layouts",
                                                                        "triton")}
    summary.update(cases=len(rows), failures=failures,
                   cute_refused=sum("cute_refused" in r for r in rows),
                   gluon_refused=sum("gluon_refused" in r for r in rows),
                   gluon_named=sum(bool(r.get("gluon", {}).get("named")) for r in rows))
    print(json.dumps(summary))
    if record:
        RECORD.parent.mkdir(parents=True, exist_ok=True)
        doc = {"command": COMMAND,
               "versions": {p: version(p) for p in ("tensor-layouts", "triton")},
               "summary": summary, "cases": rows}
        data = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
        RECORD.write_bytes(gzip.compress(data, mtime=0))
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help=f"write {RECORD.name}")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="check every N-th operand only (a sample; not with --record)")
    args = parser.parse_args()
    if args.record and args.every != 1:
        parser.error("--record writes every operand: drop --every")
    status = run(args.record, args.every)
    sys.stdout.flush()
    os._exit(status)  # (Triton's bindings report leaked objects at a normal exit)


if __name__ == "__main__":
    main()
