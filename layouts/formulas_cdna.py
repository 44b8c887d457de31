"""Printed mapping formulas of the CDNA layout families (--detail-instruction).

Each formula is built from the same shape parameters (ABShape, CDShape) as the layout
it describes, in the reference tool's notation: floor(x / n), x % n, GPR_num (VGPR
offset), GPR_bits (bit offset inside the VGPR), `hi through lo` for a range of K.
tests/test_formulas.py evaluates every formula against the layout engine; the few
texts that the reference prints wrongly are reproduced for compatibility and listed
there as known defects.
"""
from .cdna import ABShape, CDShape, sparse_lane_k


def terms(*parts):
    """Sum of the non-empty parts, or 0."""
    return " + ".join(p for p in parts if p) or "0"


def scaled(factor, expr):
    return expr if factor == 1 else f"{factor} * {expr}"


def _ab_gpr(s):
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


def _ab_lane(s, index):
    if s.chunks == 2:
        return f"{s.mn} * floor((k % {s.k // 2}) / {s.chunk}) + {index}"
    block = f"{s.mn} * block" if s.blocks > 1 else ""
    group = ""
    if s.groups > 1:
        k = "k" if s.kpl == 1 else f"floor(k / {s.kpl})"
        group = f"{s.mn * s.blocks} * {k}"
    return terms(block, group, index)


def _ab_k(s):
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


def _ab_block(s):
    if s.blocks == 1:
        return "0"
    if s.groups == 1:
        return f"floor(lane / {s.mn})"
    return f"(floor(lane / {s.mn}) % {s.blocks})"


def dense_ab(inst, matrix):
    s = ABShape(inst, inst.m if matrix == "A" else inst.n, getattr(inst, f"{matrix.lower()}_type").bits)
    index = "i" if matrix == "A" else "j"
    name = f"A[i][k]" if matrix == "A" else "B[k][j]"
    forward = [(f"{name}.block GPR", _ab_gpr(s)), (f"{name}.block Lane", _ab_lane(s, index))]
    backward = [(f"{matrix} {index}", f"(lane % {s.mn})"), (f"{matrix} k", _ab_k(s)),
                (f"{matrix} block", _ab_block(s))]
    return forward, backward


def _cd32(inst, label):
    s = CDShape(inst)
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


def _cd64(inst, label):
    m, n, blocks = inst.m, inst.n, inst.blocks
    gpr = "[2*floor(i / 4)+1 : 2*floor(i / 4)]" if m > 4 else "[1:0]"
    lane = terms(f"{n * blocks} * (i % 4)", f"{n} * block" if blocks > 1 else "", "j")
    i = f"4 * floor(GPR_num / 2) + floor(lane / {n * blocks})" if m > 4 else f"floor(lane / {n * blocks})"
    if m > 4 and "reference_formulas" in inst.quirks:  # the reference's text: no lane term
        i = "4 * floor(GPR_num / 2)"
    block = f"(floor(lane / {n}) % {blocks})" if blocks > 1 else "0"
    forward = [(f"{label}[i][j].block GPR", gpr), (f"{label}[i][j].block Lane", lane)]
    backward = [(f"{label} i", i), (f"{label} j", f"(lane % {n})"), (f"{label} block", block)]
    return forward, backward


def cd(inst, label):
    return (_cd64 if inst.out_type.bits == 64 else _cd32)(inst, label)


def _through(high, low):
    return (high, low)


def sparse_a(inst):
    m, bits = inst.m, inst.a_type.bits
    lane_k = sparse_lane_k(inst)
    groups = lane_k // 4
    lane = f"{m} * floor(k / {lane_k}) + i"
    if bits == 16:  # one group of four K values per VGPR
        gpr = f"(floor(k / 4) % {groups})"
        base = f"{lane_k} * floor(lane / {m}) + (4 * GPR_num)"
        k = _through(base + " + 3", base)
        if "reference_formulas" in inst.quirks:  # the reference's text: no lane term
            k = _through("(4 * GPR_num + 3)", "4 * GPR_num")
    else:
        gpr = (f"(floor(k / 8) % {groups // 2}).[16*(floor(k / 4) % 2)+15 : "
               "16*(floor(k / 4) % 2)]")
        base = f"{lane_k} * floor(lane / {m}) + (8 * GPR_num) + (4 * floor(GPR_bits / 16))"
        k = _through(base + " + 3", base)
    forward = [("A[i][k].block GPR", gpr), ("A[i][k].block Lane", lane)]
    backward = [("A i", f"(lane % {m})"), ("A k", k), ("A block", "0")]
    return forward, backward


def sparse_index(inst):
    m, lane_k = inst.m, sparse_lane_k(inst)
    sets = lane_k // 4
    slot = f"4*(floor(k / 4) % {sets})"
    base = f"{lane_k} * floor(lane / {m}) + 4 * floor(GPR_bits / 4)"
    forward = [("compression[i][k] GPR", f"0.[{slot}+3 : {slot}]"),
               ("compression[i][k] Lane", f"{m} * floor(k / {lane_k}) + i")]
    backward = [("compression i", f"(lane % {m})"), ("compression k", _through(base + " + 3", base))]
    return forward, backward


def sparse_b(inst):
    forward, backward = dense_ab(inst, "B")
    if inst.b_type.bits == 16 and "reference_formulas" in inst.quirks:  # reference: (k % 4)
        gpr = forward[0][1]
        forward[0] = (forward[0][0], "(k % 4)" + gpr[gpr.index(".["):])
    return forward, backward


def scales(inst):
    forward, backward = [], []
    for name, index, size, opsel in (("SA[i][kb]", "i", inst.m, "OPSEL_A"),
                                     ("SB[kb][j]", "j", inst.n, "OPSEL_B")):
        forward += [(f"{name} GPR", f"0.[8*{opsel}+7 : 8*{opsel}]"),
                    (f"{name} Lane", f"{size} * kb + {index}")]
        backward += [(f"{name[:2]} {index}", f"(lane % {size})"),
                     (f"{name[:2]} kb", f"floor(lane / {size})")]
    return forward, backward


def sections(inst):
    """(element -> register lines, register -> element lines) of a CDNA instruction."""
    if inst.sparse:
        parts = [sparse_a(inst), sparse_index(inst), sparse_b(inst), cd(inst, "D")]
    else:
        parts = [dense_ab(inst, "A"), dense_ab(inst, "B"), cd(inst, "C or D")]
    if inst.scaled:
        parts.append(scales(inst))
    return [line for f, _ in parts for line in f], [line for _, b in parts for line in b]
