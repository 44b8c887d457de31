"""The reference tool's mapping formula texts of the CDNA (MFMA / SMFMAC) instructions,
as its -d prints them: a text-only overlay (quirk `reference_formulas`, applied by
formats/quirks.py for -d text only; the library and JSON give the formulas derived from
the layouts, layouts/formulas.py).

Each text is built from the same shape parameters (ABShape, CDShape) as the layout it
describes, in the reference's notation: floor(x / n), x % n, GPR_num (VGPR offset),
GPR_bits (bit offset inside the VGPR), `hi through lo` for a range of K.
tests/formats/test_reference_formulas.py evaluates every text against the layout engine; the few
that the reference prints wrongly are listed there as known defects.
"""
from __future__ import annotations

from matrix_library.drawing import ab_shape, cd_shape, sparse_lane_k

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

    from matrix_library.answers import Section, Text
    from matrix_library.drawing import ABShape


def terms(*parts: str) -> str:
    """Sum of the non-empty parts, or 0."""
    return " + ".join(p for p in parts if p) or "0"


def scaled(factor: int, expr: str) -> str:
    return expr if factor == 1 else f"{factor} * {expr}"


def _ab_gpr(s: ABShape) -> str:
    if s.bits == 64:
        return "[1:0]"
    if s.packed:  # bits counted across the lane's whole register group
        k = "k" if s.groups == 1 else f"(k % {s.kpl})"
        return f"[{s.regs * s.bits // 32 - 1}:0].[{s.bits}*{k}+{s.bits - 1} : {s.bits}*{k}]"
    if s.chunks == 2:
        half = s.k // 2
        reg = f"({s.regs} * floor(k / {half}) + (floor(k / {s.per_reg}) % {s.regs}))"
        return f"{reg}.[{s.bits}*(k % {s.per_reg})+{s.bits - 1} : {s.bits}*(k % {s.per_reg})]"
    if s.per_reg == 1:
        return "0" if s.regs == 1 else f"(k % {s.regs})"
    reg = "0" if s.regs == 1 else (f"floor(k / {s.per_reg})" if s.groups == 1
                                   else f"(floor(k / {s.per_reg}) % {s.regs})")
    slot = "k" if s.kpl == s.per_reg and s.groups == 1 else f"(k % {s.per_reg})"
    return f"{reg}.[{s.bits}*{slot}+{s.bits - 1} : {s.bits}*{slot}]"


def _ab_lane(s: ABShape, index: str) -> str:
    if s.chunks == 2:
        return f"{s.mn} * floor((k % {s.k // 2}) / {s.chunk}) + {index}"
    block = f"{s.mn} * block" if s.blocks > 1 else ""
    group = ""
    if s.groups > 1:
        k = "k" if s.kpl == 1 else f"floor(k / {s.kpl})"
        group = f"{s.mn * s.blocks} * {k}"
    return terms(block, group, index)


def _ab_k(s: ABShape) -> str:
    lanes = s.mn * s.blocks
    if s.packed:
        return terms(scaled(s.kpl, f"floor(lane / {lanes})") if s.groups > 1 else "",
                     f"floor((32 * GPR_num + GPR_bits) / {s.bits})")
    if s.chunks == 2:
        return terms(f"{s.k // 2} * floor(GPR_num / {s.regs})",
                     f"{s.chunk} * floor(lane / {lanes})",
                     f"{s.per_reg} * (GPR_num % {s.regs})", f"floor(GPR_bits / {s.bits})")
    group = scaled(s.kpl, f"floor(lane / {lanes})") if s.groups > 1 else ""
    reg = scaled(s.per_reg, "GPR_num") if s.regs > 1 else ""
    slot = f"floor(GPR_bits / {s.bits})" if s.per_reg > 1 else ""
    return terms(group, reg, slot)


def _ab_block(s: ABShape) -> str:
    if s.blocks == 1:
        return "0"
    if s.groups == 1:
        return f"floor(lane / {s.mn})"
    return f"(floor(lane / {s.mn}) % {s.blocks})"


def dense_ab(inst: Instruction, matrix: str) -> Section:
    bits = (inst.a_type if matrix == "A" else inst.b_type).bits
    s = ab_shape(inst, inst.m if matrix == "A" else inst.n, bits)
    index = "i" if matrix == "A" else "j"
    name = "A[i][k]" if matrix == "A" else "B[k][j]"
    forward = [(f"{name}.block GPR", _ab_gpr(s)), (f"{name}.block Lane", _ab_lane(s, index))]
    backward = [(f"{matrix} {index}", f"(lane % {s.mn})"), (f"{matrix} k", _ab_k(s)),
                (f"{matrix} block", _ab_block(s))]
    return forward, backward


def _cd32(inst: Instruction, label: str) -> Section:
    s = cd_shape(inst)
    gpr = terms(f"{s.block_regs} * block" if s.blocks // s.block_lanes > 1 else "",
                f"4 * floor(i / {4 * s.in_lanes})" if s.reg_groups > 1 else "",
                "(i % 4)" if s.m > 4 else "i")
    rows = ""
    if s.in_lanes > 1:
        rows = f"{s.n} * floor(i / 4)"
        rows = f"({rows}) % 64" if s.reg_groups > 1 else rows
    lane = terms(rows, f"{s.n * s.in_lanes} * block" if s.block_lanes > 1 else "", "j")
    i = terms(f"({4 * s.in_lanes} * floor(GPR_num / 4) % {s.m})" if s.reg_groups > 1 else "",
              f"4 * floor(lane / {s.n})" if s.in_lanes > 1 else "", "(GPR_num % 4)")
    if s.blocks // s.block_lanes > 1:
        block = f"floor(GPR_num / {s.block_regs})"
    else:
        block = f"floor(lane / {s.n * s.in_lanes})" if s.block_lanes > 1 and s.blocks > 1 else "0"
    forward = [(f"{label}[i][j].block GPR", gpr), (f"{label}[i][j].block Lane", lane)]
    backward = [(f"{label} i", i), (f"{label} j", f"(lane % {s.n})"), (f"{label} block", block)]
    return forward, backward


def _cd64(inst: Instruction, label: str) -> Section:
    m, n, blocks = inst.m, inst.n, inst.blocks
    gpr = "[2*floor(i / 4)+1 : 2*floor(i / 4)]" if m > 4 else "[1:0]"
    lane = terms(f"{n * blocks} * (i % 4)", f"{n} * block" if blocks > 1 else "", "j")
    i = f"floor(lane / {n * blocks})"
    if m > 4:  # the reference's text: no lane term (4 * floor(GPR_num / 2) + {i})
        i = "4 * floor(GPR_num / 2)"
    block = f"(floor(lane / {n}) % {blocks})" if blocks > 1 else "0"
    forward = [(f"{label}[i][j].block GPR", gpr), (f"{label}[i][j].block Lane", lane)]
    backward = [(f"{label} i", i), (f"{label} j", f"(lane % {n})"), (f"{label} block", block)]
    return forward, backward


def cd(inst: Instruction, label: str) -> Section:
    return (_cd64 if inst.out_type.bits == 64 else _cd32)(inst, label)


def _through(high: str, low: str) -> Text:
    return (high, low)


def sparse_a(inst: Instruction) -> Section:
    m, bits = inst.m, inst.a_type.bits
    lane_k = sparse_lane_k(inst)
    groups = lane_k // 4
    lane = f"{m} * floor(k / {lane_k}) + i"
    if bits == 16:  # one group of four K values per VGPR
        gpr = f"(floor(k / 4) % {groups})"
        # the reference's text has no lane term ({lane_k} * floor(lane / {m}) + ...)
        k = _through("(4 * GPR_num + 3)", "4 * GPR_num")
    else:
        gpr = (f"(floor(k / 8) % {groups // 2}).[16*(floor(k / 4) % 2)+15 : "
               "16*(floor(k / 4) % 2)]")
        base = f"{lane_k} * floor(lane / {m}) + (8 * GPR_num) + (4 * floor(GPR_bits / 16))"
        k = _through(base + " + 3", base)
    forward = [("A[i][k].block GPR", gpr), ("A[i][k].block Lane", lane)]
    backward = [("A i", f"(lane % {m})"), ("A k", k), ("A block", "0")]
    return forward, backward


def sparse_index(inst: Instruction) -> Section:
    m, lane_k = inst.m, sparse_lane_k(inst)
    sets = lane_k // 4
    slot = f"4*(floor(k / 4) % {sets})"
    base = f"{lane_k} * floor(lane / {m}) + 4 * floor(GPR_bits / 4)"
    forward = [("compression[i][k] GPR", f"0.[{slot}+3 : {slot}]"),
               ("compression[i][k] Lane", f"{m} * floor(k / {lane_k}) + i")]
    backward = [("compression i", f"(lane % {m})"),
                ("compression k", _through(base + " + 3", base))]
    return forward, backward


def sparse_b(inst: Instruction) -> Section:
    forward, backward = dense_ab(inst, "B")
    if inst.b_type.bits == 16:  # the reference prints the VGPR as (k % 4)
        (label, gpr), *rest = forward
        assert isinstance(gpr, str)
        forward = [(label, "(k % 4)" + gpr[gpr.index(".["):]), *rest]
    return forward, backward


def sections(inst: Instruction) -> dict[int, Section]:
    """{64: (element -> register lines, register -> element lines)}: the reference's
    texts of a CDNA instruction (wave64)."""
    if inst.sparse:
        parts = [sparse_a(inst), sparse_index(inst), sparse_b(inst), cd(inst, "D")]
    else:
        parts = [dense_ab(inst, "A"), dense_ab(inst, "B"), cd(inst, "C or D")]
    return {64: ([line for f, _ in parts for line in f], [line for _, b in parts for line in b])}


def known_wrong(inst: Instruction) -> dict[int, frozenset[str]]:
    """{64: the labels of the texts above that the reference prints wrongly} (kept byte for
    byte; -d notes each on stderr with the engine's formula):
    FP64 C/D with more than 4 rows (`_cd64`: no lane term in i), sparse 16-bit A
    (`sparse_a`: no lane K group in k), sparse 16-bit B (`sparse_b`: the VGPR `(k % 4)`)."""
    wrong = set()
    if inst.out_type.bits == 64 and inst.m > 4:
        wrong.add(f"{'D' if inst.sparse else 'C or D'} i")
    if inst.sparse and inst.a_type.bits == 16:
        wrong.add("A k")
    if inst.sparse and inst.b_type.bits == 16:
        wrong.add("B[k][j].block GPR")
    return {64: frozenset(wrong)}
