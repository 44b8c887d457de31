"""The reference's output quirks, as named filters over the engine's correct answers.

Text output reproduces the reference tool byte for byte, including a few behaviours
that do not describe the hardware. Each one is a filter here, applied only to text and
only where the instruction's architecture declares the quirk (`Architecture.quirks`,
names in instructions.QUIRKS); JSON and the library give the unfiltered answer.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from instructions.model import Instruction

    from formats.queries import Cell
    from matrix_library.answers import Section
    from matrix_library.api import Calculation, Entry, ModifierValues


def broadcast_skip_walk(inst: Instruction, entries: list[Entry],
                        remapped: bool) -> list[Entry]:
    """Quirk `broadcast_skip_walk` (-m): when CBSZ/ABID or BLGP remap the slots of an
    operand, the reference walks the register's slots and skips ahead by the number of
    elements a slot listed, so a slot broadcast to n elements hides the next n-1 slots."""
    if "broadcast_skip_walk" not in inst.quirks or not remapped or not entries:
        return entries
    lo, hi = entries[0].location.bits
    width = hi - lo + 1
    by_slot: dict[int, list[Entry]] = {}
    for entry in entries:
        by_slot.setdefault(entry.location.bits[0] // width, []).append(entry)
    shown: list[Entry] = []
    slot = 0
    while slot < 32 // width:
        found = by_slot.get(slot, [])
        shown += found
        slot += max(1, len(found))
    return shown


def reference_formulas(inst: Instruction) -> Mapping[int, Section] | None:
    """Quirk `reference_formulas` (-d text): the reference's hand-written formula texts
    ({wave: (element -> register lines, register -> element lines)}, a few of them wrong:
    tests/formats/test_reference_formulas.py lists those) in place of the formulas derived from
    the layouts (layouts/formulas.py), which JSON and the library give; None where the
    architecture does not declare the quirk."""
    if "reference_formulas" not in inst.quirks:
        return None
    # (the family modules' lazy boundary: a family's formula texts load on first use)
    if inst.kind in ("mfma", "smfmac"):
        from formats import reference_formulas_cdna as cdna
        return cdna.sections(inst)
    from formats import reference_formulas_rdna as rdna
    return rdna.sections(inst)


def reference_formula_defects(inst: Instruction) -> Mapping[int, frozenset[str]]:
    """{wave: the labels of the reference's -d formula texts (reference_formulas) that it
    prints wrongly}; -d keeps them byte for byte and notes each on stderr with the
    engine's formula. Empty where the architecture does not declare the quirk."""
    if "reference_formulas" not in inst.quirks:
        return {}
    # (the family modules' lazy boundary, as in reference_formulas)
    if inst.kind in ("mfma", "smfmac"):
        from formats import reference_formulas_cdna as cdna
        return cdna.known_wrong(inst)
    from formats import reference_formulas_rdna as rdna
    return rdna.known_wrong(inst)


def transposed_lane_corner(inst: Instruction, header: list[Cell]) -> list[Cell]:
    """Quirk `transposed_lane_corner` (-M --transpose text): the reference heads the column
    of register names `lane`, as in the untransposed table, where it heads the lanes."""
    if "transposed_lane_corner" not in inst.quirks:
        return header
    return ["lane", *header[1:]]


def listed_index_bits(inst: Instruction) -> int:
    """How many bits of a lane's index slice (from the OPSEL slice's first bit) the
    reference lists under -m -k: 2*K/bits, one 4-bit field per group of four K, so
    K/(2*bits) groups. Derived from every SWMMAC -m -k golden record (16-bit data: 1
    group, 8-bit: 2, in wave32 and wave64) and the reference's wave32 listing of
    v_swmmac_i32_16x16x64_iu4 (all 8 groups, bits 0-31; wave64: its 4); for 16-bit and
    8-bit data this is the pairs of the first A VGPR, for 4-bit data the whole slice."""
    return 2 * inst.k // inst.a_type.bits


def index_entry_first_register(inst: Instruction, entries: list[Entry],
                               base_bit: int) -> list[Entry]:
    """Quirk `index_entry_first_register` (-m -k, RDNA4 SWMMAC): the reference lists
    only the compression indices in the first listed_index_bits(inst) bits of the lane's
    slice, although the lane may hold more (-M, -g, JSON and the library list them all)."""
    if "index_entry_first_register" not in inst.quirks:
        return entries
    listed = listed_index_bits(inst)
    return [e for e in entries if e.location.bits[0] - base_bit < listed]


def output_b_by_row(inst: Instruction, calc: Calculation, *, mods: ModifierValues,
                    wave: int) -> Calculation:
    """Quirk `output_b_by_row` (-D -o): the reference pairs A[i][k] with B[k][i] instead
    of B[k][j] (RDNA3): the B terms of D[i][j] are those of D[i][i]."""
    if "output_b_by_row" not in inst.quirks:
        return calc
    i = calc.d.element.i or 0
    from matrix_library.queries import calculation  # (the query engine: -o alone)
    by_row = calculation(inst, i, i, calc.d.element.block, mods=mods, wave=wave)
    products = tuple(p._replace(b=q.b) for p, q in zip(calc.products, by_row.products))
    return calc._replace(products=products)


def untitled_blocks(inst: Instruction) -> bool:
    """Quirk `untitled_blocks` (-R): a WMMA operand's one block is printed without a
    "Block 0" title."""
    return "untitled_blocks" in inst.quirks
