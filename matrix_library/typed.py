"""The typed dictionaries the library answers with (facts, formulas, linear layouts).

This module imports typing_extensions (and with it typing), which point queries do not
load: the library's modules import it for type checking only, and matrix_api loads it
when a caller asks for one of these names (matrix_api.Facts, ...).
"""
from __future__ import annotations

from collections.abc import Mapping

from typing_extensions import NotRequired, TypedDict

__all__ = ["Check", "Description", "Facts", "Formula", "LayoutRow", "LinearLayoutBases",
           "OperandTypes", "SlotRow", "TypeFacts", "Verification"]

# One element location as matrix_api.layout_rows() gives it: (matrix, i, j, k, block,
# register, registers, lane, bit_lo, bit_hi, negated, absolute)
LayoutRow = tuple[str, int | None, int | None, int | None, int, int, tuple[int, ...], int,
                  int, int, bool, bool]

# One register slot as matrix_api.slot_rows() gives it: (register, registers, lane, bit_lo,
# bit_hi, negated, absolute, elements), elements as (matrix, i, j, k, block)
SlotRow = tuple[int, tuple[int, ...], int, int, int, bool, bool,
                list[tuple[str, int | None, int | None, int | None, int]]]


class TypeFacts(TypedDict):
    """A data type: key (f16, fp8_fnuz), printed name, bits, integer or not."""
    key: str
    name: str
    bits: int
    integer: bool
    description: str


class OperandTypes(TypedDict):
    """The data types of the operands; C is None on sparse instructions (no C)."""
    A: TypeFacts
    B: TypeFacts
    C: TypeFacts | None
    D: TypeFacts


class Check(TypedDict):
    """One check of an instruction's verification record: the source's key (the
    catalog's checked= value), its title and what it found."""
    source: str
    title: str
    detail: str


class Verification(TypedDict):
    """What an instruction's layouts and facts were checked against."""
    checks: list[Check]
    disagreements: list[str]
    report: str


class Description(TypedDict):
    """What -d prints, as data (matrix_api.description): Facts without the verification
    record. `registers` maps a wave size ("32", "64") to {matrix: VGPRs}; `types` maps
    A, B, C, D to their type (C: None when sparse); `formats` lists the A/B formats a
    format modifier may select. A family may add `prefix_opcode` (the first opcode of a
    128-bit pair) and `provenance` (source and confidence of each fact)."""
    architecture: str
    instruction: str
    mnemonic: str
    kind: str
    encoding: str
    opcode: int
    mai_opcode: int | None
    m: int
    n: int
    k: int
    blocks: int
    sparse: bool
    types: OperandTypes
    formats: list[TypeFacts]
    flops: int
    flops_kind: str
    cycles: int | None
    flops_per_cycle: int | None
    compute_unit: str
    coexec: bool
    coexec_cycles: int | None
    gpr_alignment: int
    cd_arch_vgprs: bool | None
    waves: list[int]
    registers: dict[str, dict[str, int]]
    fields: dict[str, dict[str, int]]
    modifiers: list[str]
    prefix_opcode: NotRequired[int | None]
    provenance: NotRequired[Mapping[str, object]]


class Facts(Description):
    """An instruction's description and its verification record (matrix_api.facts, -d
    --json): what its layouts and facts were checked against."""
    verification: Verification


class Formula(TypedDict):
    """One line of -d's mapping formulas (matrix_api.formulas)."""
    wave: int
    direction: str  # element_to_register or register_to_element
    label: str
    text: str


class LinearLayoutBases(TypedDict):
    """An operand's layout as Triton-style linear-layout bases (matrix_api.linear_layout);
    `bases` is None, and `reason` says why, when the layout is not linear."""
    in_dims: list[str]
    out_dims: list[str]
    bases: dict[str, list[list[int]]] | None
    reason: str | None
    note: str | None
