"""The reference tool's mapping formula texts of the RDNA3 / RDNA4 (WMMA / SWMMAC)
instructions, as its -d prints them: a text-only overlay (quirk `reference_formulas`,
applied by formats/quirks.py for -d text only; the library and JSON give the formulas
derived from the layouts, layouts/formulas.py).

Texts are written per wave size in the reference's notation. Ranges are (high, low)
tuples; NOTE entries are free lines. The RDNA4 SWMMAC templates for 16-bit and 4-bit
(K=32) data carry the reference's odd spellings (a missing or stray parenthesis);
tests/formats/test_reference_formulas.py lists them.
"""
from __future__ import annotations

from matrix_library.drawing import family_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from instructions.model import Instruction

    from matrix_library.answers import Section, Text

    Waves = Mapping[int, Section]  # wave size -> its formula lines

WAVES = (32, 64)
NOTE = "note"  # (layouts.formulas.NOTE)
LANES_0_31 = "lanes 0-31"  # marker: a range printed under "(lanes 0-31 only)"


def rdna3_sections(inst: Instruction) -> Waves:
    """{wave: (element -> register lines, register -> element lines)} of RDNA3 WMMA."""
    b = inst.a_type.bits
    e = 32 // b
    gpr = f"floor(k / {e}).[{b}*(k % {e})+{b - 1} : {b}*(k % {e})]"
    k_inv = f"{e} * GPR_num + floor(GPR_bits / {b})"
    out = {}
    for wave in WAVES:
        rows = wave // 16
        copies = "{x} and {x}+16" if wave == 32 else "{x}, {x}+16, {x}+32, and {x}+48"
        cd_gpr, cd_i = f"floor(i / {rows})", f"{rows} * GPR_num + floor(lane / 16)"
        if inst.out_type.bits == 16:
            cd_gpr, cd_i = f"({cd_gpr}).[15:0]", f"({cd_i}).[15:0]"
        forward = [("A[i][k] GPR", gpr), ("A[i][k] Lane", copies.format(x="i")),
                   ("B[k][j] GPR", gpr), ("B[k][j] Lane", copies.format(x="j")),
                   ("C or D[i][j] GPR", cd_gpr), ("C or D[i][j] Lane", f"((16 * i) % {wave}) + j")]
        backward = [("A i", "(lane % 16)"), ("A k", k_inv), ("B j", "(lane % 16)"), ("B k", k_inv),
                    ("C or D i", cd_i), ("C or D j", "(lane % 16)")]
        out[wave] = (forward, backward)
    return out


def _rdna4_cd(inst: Instruction) -> Waves:
    label = "D" if inst.sparse else "C or D"
    if inst.out_type.bits == 32:
        gpr, t = {32: "i % 8", 64: "i % 4"}, "GPR_num"
    else:
        half = "[16 * (i % 2) + 15 : 16 * (i % 2)]"
        gpr = {32: f"(floor(i / 2) % 4).{half}", 64: f"(floor(i / 2) % 2).{half}"}
        t = "2 * GPR_num + floor(GPR_bits / 16)"
    lane = {32: "16 * floor(i / 8) + j", 64: "32 * (floor(i / 4) % 2) + 16 * floor(i / 8) + j"}
    i_inv = {32: f"8 * floor(lane / 16) + {t}",
             64: f"8 * (floor(lane / 16) % 2) + 4 * floor(lane / 32) + {t}"}
    return {w: ([(f"{label}[i][j] GPR", gpr[w]), (f"{label}[i][j] Lane", lane[w])],
                [(f"{label} i", i_inv[w]), (f"{label} j", "(lane % 16)")]) for w in WAVES}


def _ab_pair(gpr: str, lane: str, k_inv: str, notes: tuple[tuple[str, str], ...] = ()
             ) -> Section:
    """A and B entries sharing one template ({x} is i for A, j for B)."""
    forward = [("A[i][k] GPR", gpr), ("A[i][k] Lane", lane.format(x="i")),
               ("B[k][j] GPR", gpr), ("B[k][j] Lane", lane.format(x="j"))]
    backward = [("A i", "(lane % 16)"), ("A k", k_inv)] + list(notes[:1])
    backward += [("B j", "(lane % 16)"), ("B k", k_inv)] + list(notes[1:])
    return forward, backward


def _rdna4_dense_ab(inst: Instruction) -> Waves:
    b, half = inst.a_type.bits, inst.k // 2
    e = 32 // b
    bits = f"{b} * (k % {e}) + {b - 1} : {b} * (k % {e})"
    if b == 16:
        h16 = "[16 * (k % 2) + 15 : 16 * (k % 2)]"
        k_tail = "2 * (GPR_num % 2) + floor(GPR_bits / 16)"
        return {32: _ab_pair(f"(2 * floor(k / 8) + (floor(k / 2) % 2)).{h16}",
                             "16 * (floor(k / 4) % 2) + {x}",
                             f"8 * floor(GPR_num / 2) + 4 * floor(lane / 16) + {k_tail}"),
                64: _ab_pair(f"(floor(k / 2) % 2).{h16}",
                             "32 * (floor(k / 8) % 2) + 16 * (floor(k / 4) % 2) + {x}",
                             f"4 * floor(lane / 16) + {k_tail}")}
    if half * b == 64:  # one 64-bit chunk per lane half
        return {32: _ab_pair(f"(floor(k / {e}) % 2).[{bits}]", f"16 * floor(k / {half}) + {{x}}",
                             f"{half} * floor(lane / 16) + {e} * GPR_num + floor(GPR_bits / {b})"),
                64: _ab_pair(f"0.[{bits}]",
                             f"32 * (floor(k / {e}) % 2) + 16 * (floor(k / {half}) % 2) + {{x}}",
                             f"{half} * (floor(lane / 16) % 2) + {e} * floor(lane / 32) + "
                             f"floor(GPR_bits / {b})")}
    notes = ((NOTE, "All lanes > 32 are ignored for A matrix"),
             (NOTE, "All lanes > 32 are ignored for B matrix"))
    lane = f"16 * floor(k / {half}) + {{x}}"
    return {32: _ab_pair(f"0.[{bits}]", lane, f"{half} * floor(lane / 16) + floor(GPR_bits / {b})"),
            # wave64 as the reference prints it (no "% 2": lanes from 32 up are ignored)
            64: _ab_pair(f"0.[{bits}]", lane,
                         f"{half} * floor(lane / 16) + floor(GPR_bits / {b})", notes)}


def _sparse_entries(a_gpr: str, a_lane: str, c_gpr: str, c_lane: str, b_gpr: str, b_lane: str,
                    a_k: Text, c_k: Text, b_k: Text,
                    notes: tuple[tuple[str, str], ...] = ()) -> Section:
    forward = [("A[i][k] GPR", a_gpr), ("A[i][k] Lane", a_lane),
               ("compression[i][k] GPR", c_gpr), ("compression[i][k] Lane", c_lane),
               ("B[k][j] GPR", b_gpr), ("B[k][j] Lane", b_lane)]
    backward = [("A i", "(lane % 16)"), ("A k", a_k), *notes[:1],
                ("compression i", "(lane % 16)"), ("compression k", c_k), *notes[1:],
                ("B j", "(lane % 16)"), ("B k", b_k)]
    return forward, backward


def _span(low: str) -> Text:
    return (f"({low} + 3)", low)


def _rdna4_sparse16() -> Waves:
    h16 = "[16 * (k % 2) + 15 : 16 * (k % 2)]"
    a32 = "16 * floor(GPR_num / 2) + 8 * floor(lane / 16) + 4 * (GPR_num % 2)"
    c32 = ("16 * (floor(GPR_bits / 8) % 2) + 8 * floor(lane / 16) + "
           "4 * (floor(GPR_bits / 4) % 2)")
    a64 = "8 * floor(lane / 16) + 4 * (GPR_num % 2)"
    c64 = "8 * floor(lane / 16) + 4 * (floor(GPR_bits / 4) % 2)"
    idx32 = "8 * floor(k / 16) + 4 * (floor(k / 4) % 2)"
    idx64 = "4 * (floor(k / 4) % 2)"
    lane32, lane64 = "16 * (floor(k / 8) % 2) + {x}", "16 * floor(k / 8) + {x}"
    return {
        32: _sparse_entries(
            "(2 * floor(k / 16) + (floor(k / 4) % 2))", lane32.format(x="i"),
            f"0.[{idx32} + 3 : {idx32}]", lane32.format(x="i"),
            f"(4 * floor(k / 16) + (floor(k / 2) % 4)).{h16}", lane32.format(x="j"),
            _span(a32), (c32 + " + 3", c32),
            "16 * floor(GPR_num / 4) + 8 * floor(lane / 16) + 2 * (GPR_num % 4) + "
            "floor(GPR_bits / 16)"),
        64: _sparse_entries(
            "(floor(k / 4) % 2)", lane64.format(x="i"), f"0.[{idx64} + 3 : {idx64}]",
            lane64.format(x="i"), f"(floor(k / 2) % 4).{h16}", lane64.format(x="j"),
            _span(a64), (c64 + " + 3", c64),
            "8 * floor(lane / 16) + 2 * (GPR_num % 4) + floor(GPR_bits / 16)")}


def _rdna4_sparse_iu4_k32() -> Waves:
    """v_swmmac_i32_16x16x32_iu4, with the reference's unbalanced parentheses."""
    idx = "0.[4 * (floor(k / 4) % 4) + 3 : 4 * (floor(k / 4) % 4)]"
    c_k = "16 * floor(lane / 16) + 4 * floor(GPR_bits / 4) % 4)"
    a_gpr = "0.[8 * (floor(k / 4) % 4) + 7 : 8 * (floor(k / 4) % 4)]"
    lane, odd_lane = "16 * floor(k / 16) + i", "(16 * floor(k / 16) + i"
    notes = ((NOTE, "All lanes > 32 are ignored for A matrix"),
             (NOTE, "All lanes > 32 are ignored for compression indices"))
    return {
        32: _sparse_entries(a_gpr, lane, idx, lane,
                            "(floor(k / 8) % 2).[4 * (k % 8) + 3 : 4 * (k % 8)]",
                            "16 * floor(k / 16) + j",
                            _span("16 * floor(lane / 16) + 4 * floor(GPR_bits / 8)"),
                            (c_k + " + 3", c_k),
                            "16 * floor(lane / 16) + 8 * GPR_num + floor(GPR_bits / 4)"),
        64: _sparse_entries(a_gpr, odd_lane, idx, odd_lane, "0.[4 * (k % 8) + 3 : 4 * (k % 8)]",
                            "32 * (floor(k / 8) % 2) + 16 * floor(k / 16) + j",
                            _span("16 * (floor(lane / 16) % 2) + 4 * floor(GPR_bits / 8)"),
                            (c_k + " + 3", c_k, LANES_0_31),
                            "16 * (floor(lane / 16) % 2) + 8 * floor(lane / 32) + "
                            "floor(GPR_bits / 4)", notes)}


def _rdna4_sparse_packed(inst: Instruction) -> Waves:
    """8-bit data (K=32) and 4-bit data (K=64): several index pairs per A register."""
    b, half = inst.a_type.bits, inst.k // 2
    e, b2 = 32 // b, 2 * b
    per_reg = 32 // b2                       # 4-groups per A VGPR
    span, per_lane = 4 * per_reg, 2 * per_reg  # K span of one A VGPR; groups per wave32 lane
    a_bits = f"{b2} * (floor(k / 4) % {per_reg}) + {b2 - 1} : {b2} * (floor(k / 4) % {per_reg})"
    b_bits = f"{b} * (k % {e}) + {b - 1} : {b} * (k % {e})"

    def idx(n: int) -> str:
        return f"0.[4 * (floor(k / 4) % {n}) + 3 : 4 * (floor(k / 4) % {n})]"

    lanes = {32: f"16 * floor(k / {half}) + {{x}}",
             64: f"32 * (floor(k / {span}) % 2) + 16 * floor(k / {half}) + {{x}}"}
    base = {32: f"{half} * floor(lane / 16)",
            64: f"{half} * (floor(lane / 16) % 2) + {span} * floor(lane / 32)"}
    a_k = {32: f"{base[32]} + {span} * GPR_num + 4 * floor(GPR_bits / {b2})",
           64: f"{base[64]} + 4 * floor(GPR_bits / {b2})"}
    gprs = {32: (f"(floor(k / {span}) % 2).[{a_bits}]", idx(per_lane),
                 f"(floor(k / {e}) % 4).[{b_bits}]"),
            64: (f"0.[{a_bits}]", idx(per_reg), f"(floor(k / {e}) % 2).[{b_bits}]")}
    out = {}
    for w in WAVES:
        c_k = f"{base[w]} + 4 * (floor(GPR_bits / 4) % {per_lane})"
        a_gpr, c_gpr, b_gpr = gprs[w]
        out[w] = _sparse_entries(a_gpr, lanes[w].format(x="i"), c_gpr, lanes[w].format(x="i"),
                                 b_gpr, lanes[w].format(x="j"), _span(a_k[w]),
                                 (c_k + " + 3", c_k),
                                 f"{base[w]} + {e} * GPR_num + floor(GPR_bits / {b})")
    return out


def rdna4_sections(inst: Instruction) -> Waves:
    """{wave: (element -> register lines, register -> element lines)} of RDNA4 WMMA and
    SWMMAC."""
    if not inst.sparse:
        ab = _rdna4_dense_ab(inst)
    elif inst.a_type.bits == 16:
        ab = _rdna4_sparse16()
    elif inst.a_type.bits == 4 and inst.k == 32:
        ab = _rdna4_sparse_iu4_k32()
    else:
        ab = _rdna4_sparse_packed(inst)
    cd = _rdna4_cd(inst)
    return {w: ([*ab[w][0], *cd[w][0]], [*ab[w][1], *cd[w][1]]) for w in WAVES}


def rdna3_known_wrong(inst: Instruction) -> dict[int, frozenset[str]]:
    """{wave: the labels of RDNA3's texts that the reference prints wrongly}: a 16-bit
    C/D row index written with a bit range, `(...).[15:0]` (rdna3_sections)."""
    wrong = frozenset(("C or D i",)) if inst.out_type.bits == 16 else frozenset()
    return dict.fromkeys(WAVES, wrong)


def rdna4_known_wrong(inst: Instruction) -> dict[int, frozenset[str]]:
    """{wave: the labels of RDNA4's texts that the reference prints wrongly}: the
    unbalanced parentheses of _rdna4_sparse_iu4_k32."""
    if not (inst.sparse and inst.a_type.bits == 4 and inst.k == 32):
        return {wave: frozenset() for wave in WAVES}
    return {32: frozenset(("compression k",)),
            64: frozenset(("compression k", "A[i][k] Lane", "compression[i][k] Lane"))}


def sections(inst: Instruction) -> Waves:
    """The texts of RDNA3 (where the family's OPSEL picks the C/D half) or of RDNA4, told
    apart by that trait of the family."""
    if "opsel_cd_half" in family_of(inst).traits:
        return rdna3_sections(inst)
    return rdna4_sections(inst)


def known_wrong(inst: Instruction) -> dict[int, frozenset[str]]:
    """{wave: the labels of the texts of `sections` that the reference prints wrongly}."""
    if "opsel_cd_half" in family_of(inst).traits:
        return rdna3_known_wrong(inst)
    return rdna4_known_wrong(inst)
