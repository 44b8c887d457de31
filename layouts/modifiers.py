"""Instruction modifiers as small transforms of a base layout, and their legality rules.

A transform maps an element's base places to the places the hardware actually reads
under the modifier: CBSZ/ABID make a group of blocks read one block's A values, BLGP
swizzles or broadcasts B lanes, and on CDNA3 FP64 BLGP is a negation mask instead.
"""
from __future__ import annotations

from instructions.record import TYPE_CHECKING, Record

from .core import CalcError

if TYPE_CHECKING:
    from collections.abc import Callable

    from instructions.model import Instruction

    from .core import Place


class Modifiers(Record):
    """The modifier values of one query (all 0 by default). opsel_a / opsel_b: the bytes
    of the A- and B-scale VGPRs of CDNA4's v_mfma_scale_*."""
    cbsz: int = 0
    abid: int = 0
    blgp: int = 0
    opsel: int = 0
    neg: int = 0
    neg_hi: int = 0
    opsel_a: int = 0
    opsel_b: int = 0
    # gfx1250 (LLVM's names; layouts/gfx1250.py checks them); neg_hi is shared with RDNA.
    neg_lo: int = 0
    matrix_a_fmt: int = 0
    matrix_b_fmt: int = 0
    index_key: int = 0
    matrix_a_scale: int = 0
    matrix_b_scale: int = 0
    matrix_a_scale_fmt: int = 0
    matrix_b_scale_fmt: int = 0
    matrix_a_reuse: int = 0
    matrix_b_reuse: int = 0


# The gfx1250 modifiers: other families refuse them (layouts/gfx1250.py checks them there).
GFX1250_ONLY = ("neg_lo", "matrix_a_fmt", "matrix_b_fmt", "index_key", "matrix_a_scale",
                "matrix_b_scale", "matrix_a_scale_fmt", "matrix_b_scale_fmt",
                "matrix_a_reuse", "matrix_b_reuse")


def refuse_gfx1250(inst: Instruction, mods: Modifiers) -> None:
    """Raise CalcError when a gfx1250 modifier is given for another family's instruction."""
    for name in GFX1250_ONLY:
        if getattr(mods, name):
            raise CalcError(f"--{name.replace('_', '-')} is a gfx1250 modifier; {inst.arch} "
                            f"instructions such as {inst.name} do not have it "
                            f"(got {getattr(mods, name)}).")


# BLGP: the lane each lane's B value is read from (CDNA ISA, "B-matrix lane group pattern").
BLGP_SOURCE: tuple[Callable[[int], int], ...] = (
    lambda lane: lane,                  # 0: as is
    lambda lane: lane % 32,             # 1: lanes 0-31 broadcast to 32-63
    lambda lane: lane % 32 + 32,        # 2: lanes 32-63 broadcast to 0-31
    lambda lane: (lane + 16) % 64,      # 3: rotate down by 16 lanes
    lambda lane: lane % 16,             # 4-7: broadcast one group of 16 lanes to all
    lambda lane: lane % 16 + 16,
    lambda lane: lane % 16 + 32,
    lambda lane: lane % 16 + 48,
)


def cbsz_source_block(block: int, cbsz: int, abid: int) -> int:
    """The block whose A values `block` reads: ABID within its aligned group of 2^CBSZ."""
    return (block >> cbsz << cbsz) + abid


def blgp_negates(inst: Instruction) -> bool:
    """FP64 MFMAs with BLGP (CDNA3 and later) use it as a negation mask: bit 0 negates A,
    bit 1 B, bit 2 C (CDNA2's FP64 MFMAs have no BLGP)."""
    return inst.blgp and inst.out_type.bits == 64


def negated(inst: Instruction, matrix: str, mods: Modifiers) -> bool:
    if mods.blgp and blgp_negates(inst):
        bit = {"A": 1, "B": 2, "C": 4}.get(matrix, 0)
        return bool(mods.blgp & bit)
    return False


def sparse_index_set(inst: Instruction, mods: Modifiers) -> int:
    """CDNA3 SMFMAC: with CBSZ = 0, ABID picks the compression-index set; else set 0."""
    return mods.abid if mods.cbsz == 0 else 0


def _range_error(what: str, value: int, inst: Instruction, low: int, high: int) -> CalcError:
    return CalcError(f"{what} value {value} is not allowed for {inst.name}: "
                     f"use a value from {low} to {high}.")


def check_cdna(inst: Instruction, matrix: str, mods: Modifiers, output_calc: bool) -> None:
    """Raise CalcError for a modifier the instruction or the queried matrix cannot take."""
    d_calc = matrix == "D" and output_calc
    if inst.formats_by_cbsz_blgp:
        _check_formats(inst, mods)
    else:
        if mods.cbsz or mods.abid:
            _check_cbsz_abid(inst, matrix, mods, d_calc)
        if mods.blgp:
            _check_blgp(inst, matrix, mods, d_calc)
    if mods.opsel_a or mods.opsel_b:
        _check_scale_opsel(inst, matrix, mods, d_calc)
    for name in ("opsel", "neg", "neg_hi"):
        if getattr(mods, name):
            raise CalcError(f"{name.upper()} is an RDNA modifier; {inst.arch} instructions "
                            f"such as {inst.name} do not have it (got {getattr(mods, name)}).")


def _check_cbsz_abid(inst: Instruction, matrix: str, mods: Modifiers, d_calc: bool) -> None:
    for name in ("cbsz", "abid"):
        value = getattr(mods, name)
        if not value:
            continue
        if not inst.cbsz:
            raise CalcError(f"{inst.name} does not support the {name.upper()} modifier "
                            f"(got {value}); only 0 is allowed.")
        if matrix not in ("A", "K") and not d_calc:
            raise CalcError(f"The {name.upper()} modifier applies to the A matrix, the "
                            f"compression matrix (-k) or D with -o, not to {matrix}.")
    if inst.sparse:  # ABID picks one of the index sets of the Src2 VGPR
        from .cdna import sparse_lane_k
        top_abid = 32 // sparse_lane_k(inst) - 1
        top_cbsz = 3
    else:
        top_cbsz = inst.blocks.bit_length() - 1
        top_abid = (1 << mods.cbsz) - 1
    if mods.cbsz > top_cbsz:
        raise _range_error("CBSZ", mods.cbsz, inst, 0, top_cbsz)
    if mods.abid > top_abid:
        raise CalcError(f"ABID value {mods.abid} is not allowed for {inst.name} with CBSZ "
                        f"{mods.cbsz}: use a value from 0 to {top_abid}.")


def _check_formats(inst: Instruction, mods: Modifiers) -> None:
    """f8f6f4: CBSZ and BLGP name the A and B formats (any matrix); ABID is not used."""
    from instructions.model import F8F6F4_FORMATS
    codes = ", ".join(f"{n} {f}" for n, f in enumerate(F8F6F4_FORMATS))
    for name, operand in (("cbsz", "A"), ("blgp", "B")):
        value = getattr(mods, name)
        if value >= len(F8F6F4_FORMATS):
            raise CalcError(f"{name.upper()} {value} is no {operand}-matrix format of "
                            f"{inst.name}: use {codes}.")
    if mods.abid:
        raise CalcError(f"{inst.name} does not take ABID (got {mods.abid}); only 0 is allowed.")


def _check_scale_opsel(inst: Instruction, matrix: str, mods: Modifiers, d_calc: bool) -> None:
    if not inst.scaled:
        raise CalcError(f"--opsel-a/--opsel-b select scale bytes of v_mfma_scale_* "
                        f"instructions; {inst.name} has no scales "
                        f"(got {mods.opsel_a}/{mods.opsel_b}).")
    for name, scale in (("opsel_a", "SA"), ("opsel_b", "SB")):
        value = getattr(mods, name)
        if not value:
            continue
        if matrix != scale and not d_calc:
            raise CalcError(f"--{name.replace('_', '-')} selects the byte of the "
                            f"{scale} scale VGPR; use it with --{scale[1]}-scale or with "
                            f"-D -o, not with {matrix}.")
        if value > 3:
            raise _range_error(f"--{name.replace('_', '-')}", value, inst, 0, 3)


def _check_blgp(inst: Instruction, matrix: str, mods: Modifiers, d_calc: bool) -> None:
    if not inst.blgp:
        raise CalcError(f"{inst.name} does not support the BLGP modifier (got {mods.blgp}); "
                        "only 0 is allowed.")
    if blgp_negates(inst):
        if matrix not in ("A", "B", "C") and not d_calc:
            raise CalcError(f"On {inst.name} BLGP negates A, B or C; it does not apply to "
                            f"{matrix} (use -o with D to see its effect).")
    elif matrix != "B" and not d_calc:
        raise CalcError(f"The BLGP modifier applies to the B matrix (or D with -o), "
                        f"not to {matrix}.")
    if mods.blgp > 7:
        raise _range_error("BLGP", mods.blgp, inst, 0, 7)


# ---- RDNA: OPSEL and NEG/NEG_HI.

def rdna_half_mark(inst: Instruction, matrix: str, mods: Modifiers, place: Place) -> str:
    """A/B: NEG[0]/NEG[1] negate low 16-bit halves, NEG_HI[0]/NEG_HI[1] high halves.

    As in the reference, the mark is shown only where the printed slot is exactly one
    16-bit half (so never on 8/4-bit data, which NEG treats as signedness)."""
    if not inst.neg or place.width != 16:
        return ""
    bit = 1 if matrix == "A" else 2
    mask = mods.neg if place.lo == 0 else mods.neg_hi
    return "-" if mask & bit else ""


def rdna_c_mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    """C: NEG[2] negates, NEG_HI[2] takes the absolute value."""
    if matrix != "C" or not inst.neg:
        return ""
    return ("-" if mods.neg & 4 else "") + ("|" if mods.neg_hi & 4 else "")


def opsel_limit(inst: Instruction, wave: int) -> int:
    """Largest legal OPSEL of an RDNA4 SWMMAC: one index set per `bits per lane` slice."""
    from .rdna import index_bits_per_lane
    return 32 // index_bits_per_lane(inst, wave) - 1


def check_rdna(inst: Instruction, matrix: str, mods: Modifiers, d_calc: bool, wave: int) -> None:
    for name in ("cbsz", "abid", "blgp", "opsel_a", "opsel_b"):
        if getattr(mods, name):
            raise CalcError(f"{name.upper()} is a CDNA modifier; {inst.arch} instructions such "
                            f"as {inst.name} do not have it (got {getattr(mods, name)}).")
    if mods.opsel:
        _check_opsel(inst, matrix, mods, wave)
    if mods.neg or mods.neg_hi:
        _check_neg(inst, matrix, mods, d_calc)


def _check_opsel(inst: Instruction, matrix: str, mods: Modifiers, wave: int) -> None:
    if not inst.opsel:
        raise CalcError(f"{inst.name} does not support the OPSEL modifier (got {mods.opsel}); "
                        "only 0 is allowed.")
    if inst.family == "rdna3":  # OPSEL[2]: the C/D half
        if matrix not in ("C", "D"):
            raise CalcError(f"On {inst.name} OPSEL selects the C/D register half; it does not "
                            f"apply to {matrix}.")
        if mods.opsel != 4:
            raise CalcError(f"OPSEL value {mods.opsel} is not allowed for {inst.name}: "
                            "use 0 (low halves) or 4 (high halves).")
        return
    if matrix != "K":
        raise CalcError(f"On {inst.name} OPSEL selects the compression-index set; it applies "
                        f"to the compression matrix (-k), not to {matrix}.")
    top = opsel_limit(inst, wave)
    if mods.opsel > top:
        raise _range_error(f"OPSEL (wave{wave})", mods.opsel, inst, 0, top)


def _check_neg(inst: Instruction, matrix: str, mods: Modifiers, d_calc: bool) -> None:
    if not inst.neg:
        raise CalcError(f"{inst.name} does not support the NEG/NEG_HI modifiers "
                        f"(got {mods.neg}/{mods.neg_hi}); only 0 is allowed.")
    if matrix == "D" and not d_calc:
        raise CalcError("NEG/NEG_HI act on the A, B and C inputs; with -D they need -g or -m "
                        "with -o (output calculation).")
    for name in ("neg", "neg_hi"):
        if getattr(mods, name) > 7:
            raise _range_error(name.upper(), getattr(mods, name), inst, 0, 7)
    if inst.is_int and (mods.neg > 3 or mods.neg_hi):
        raise CalcError(f"On the integer instruction {inst.name} NEG only sets the signedness "
                        f"of A and B: NEG 0-3 and NEG_HI 0 (got {mods.neg}/{mods.neg_hi}).")
