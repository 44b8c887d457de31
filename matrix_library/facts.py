"""An instruction's facts (what -d prints, as data), its mapping formulas, its linear
layout and its layout value."""
from __future__ import annotations

from layouts import Modifiers, family_facts
from layouts import operand as made_operand
from layouts.core import CalcError

from matrix_library.checks import (
    architecture_of,
    instruction,
    matrices,
    modifiers,
    operand,
    wave_size,
    with_formats,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import DataType, Instruction

    from matrix_library.checks import ModifierValues
    from matrix_library.typed import (
        Description,
        Facts,
        Formula,
        LinearLayoutBases,
        TypeFacts,
        Verification,
    )


def _type(data_type: DataType) -> TypeFacts:
    return {"key": data_type.key, "name": data_type.label, "bits": data_type.bits,
            "integer": data_type.is_int, "description": data_type.description}


def _formats(inst: Instruction) -> list[TypeFacts]:
    """The A/B formats CBSZ/BLGP can select (CDNA4 f8f6f4 instructions), else []."""
    if not getattr(inst, "format_fields", ()):
        return []
    from instructions.model import F8F6F4_FORMATS
    return [_type(inst.with_formats(code, code).a_type)
            for code in range(len(F8F6F4_FORMATS))]


def supported_modifiers(inst: Instruction) -> tuple[str, ...]:
    """The modifiers `inst` takes, as its table line declares them, in the order of
    the Modifiers fields (some need a companion: ABID needs CBSZ on a multi-block MFMA)."""
    instruction(inst)
    return tuple(name for name in Modifiers._fields if inst.takes(name))


def facts(inst: Instruction, wave: int | None = None,
          mods: ModifierValues = None) -> Facts:
    """The facts of `inst`: its description (encoding, shape, types, speed, register
    counts, supported modifiers: `description`) and its verification record."""
    found = description(inst, wave, mods)  # (checks the arguments)
    own = {key: found.pop(key) for key in ("prefix_opcode", "provenance")
           if key in found}  # (a family's own facts last)
    return {**found, "verification": verification(inst), **own}  # type: ignore[typeddict-item]


def description(inst: Instruction, wave: int | None = None,
                mods: ModifierValues = None) -> Description:
    """The facts -d prints, as data: encoding, shape, types, speed, register counts (for
    `wave`, or for every wave size of the architecture) and the supported modifiers.
    `mods` matters only to CDNA4's f8f6f4 instructions, whose CBSZ/BLGP pick the
    formats (by default those `inst` already has: fp8)."""
    arch = architecture_of(inst)
    if mods is not None:  # (checked whatever the instruction: a mistake is a mistake)
        inst = with_formats(inst, modifiers(mods))
    waves = inst.wave_sizes if wave is None else (wave_size(inst, wave),)
    extra = family_facts(inst)  # gfx1250: latency, prefix opcode, provenance
    cycles = extra.get("cycles", getattr(inst, "effective_cycles", inst.cycles))
    found: Description = {
        "architecture": arch.name,
        "instruction": inst.name,
        "mnemonic": inst.mnemonic,
        "kind": inst.kind,
        "encoding": inst.encoding,
        "opcode": inst.opcode,
        "mai_opcode": inst.mai_opcode,
        "m": inst.m, "n": inst.n, "k": inst.k, "blocks": inst.blocks,
        "sparse": inst.sparse,
        "types": {"A": _type(inst.a_type), "B": _type(inst.b_type),
                  "C": None if inst.sparse else _type(inst.c_type),
                  "D": _type(inst.out_type)},
        "formats": _formats(inst),
        "flops": inst.flops,
        "flops_kind": "Ops" if inst.a_type.is_int else "FLOPs",
        "cycles": cycles,
        "flops_per_cycle": extra.get("flops_per_cycle",
                                     inst.flops * 4 // cycles if cycles else None),
        "compute_unit": inst.unit,
        "coexec": bool(inst.coexec_cycles),
        "coexec_cycles": inst.coexec_cycles,
        "gpr_alignment": inst.align,
        "cd_arch_vgprs": inst.cd_arch_vgpr,
        "waves": list(inst.wave_sizes),
        "registers": {str(w): {m: made_operand(inst, m, Modifiers(), w).register_count
                               for m in matrices(inst)} for w in waves},
        "fields": {str(w): fields(inst, w) for w in waves},
        "modifiers": list(supported_modifiers(inst)),
    }
    if "prefix_opcode" in extra:
        found["prefix_opcode"] = extra["prefix_opcode"]
    if "provenance" in extra:
        found["provenance"] = extra["provenance"]
    return found


def fields(inst: Instruction, wave: int) -> dict[str, int]:
    """The width in VGPRs of every register field of `inst` as the assembler writes it
    (llvm-mc): vdst, src0 (A), src1 (B), src2 (C, or a sparse instruction's index) and a
    scaled instruction's scale_src0 / scale_src1. A sparse instruction's vdst is its C,
    tied to D: as wide as C (v_swmmac_bf16f32_16x16x64_bf16: 8 VGPRs of f32 C, of which
    its bf16 D uses 4). {} for another vendor's instructions (no AMD assembler fields)."""
    if architecture_of(inst).vendor != "amd":
        return {}
    count = {m: made_operand(inst, m, Modifiers(), wave).register_count for m in matrices(inst)}
    vdst = count["D"] * inst.c_type.bits // inst.out_type.bits if inst.sparse else count["D"]
    found = {"vdst": max(vdst, count["D"]), "src0": count["A"], "src1": count["B"],
             "src2": count["K" if inst.sparse else "C"]}
    if "SA" in count:
        found |= {"scale_src0": count["SA"], "scale_src1": count["SB"]}
    return found


def verification(inst: Instruction) -> Verification:
    """What `inst`'s layouts and facts were checked against (instructions/verification.py):
    each source's finding, where sources disagree, and where a hardware run is reported."""
    from instructions import verification as record
    titles = {source.key: source.title for source in record.SOURCES}
    arch = architecture_of(inst).name
    return {"checks": [{"source": key, "title": titles[key], "detail": detail}
                       for key, detail in record.checks(arch, inst.mnemonic)],
            "disagreements": list(record.disagreements(arch, inst.mnemonic)),
            "report": record.REPORT}


def formulas(inst: Instruction, *, mods: ModifierValues = None,
             wave: int | None = None) -> list[Formula]:
    """The mapping formulas derived from the layouts under `mods` (layouts/formulas.py),
    one dict per line: wave, direction (element_to_register or register_to_element),
    label and text (-d --json); of every wave size, or of `wave` alone. `mods` must suit
    at least one matrix of `inst` (in each of those wave sizes)."""
    from layouts.formulas import formula_sections  # (the formula texts' lazy boundary)
    inst, checked = instruction(inst), modifiers(mods)
    waves = inst.wave_sizes if wave is None else (wave_size(inst, wave),)
    if checked != Modifiers():
        _check_some_matrix(inst, checked, waves)
    table = formula_sections(with_formats(inst, checked), checked, waves)
    return [{"wave": wave, "direction": direction, "label": label,
             "text": text if isinstance(text, str) else " ".join(text)}
            for wave, sides in table.items()
            for direction, lines in zip(("element_to_register", "register_to_element"), sides)
            for label, text in lines]


def _check_some_matrix(inst: Instruction, mods: Modifiers, waves: tuple[int, ...]) -> None:
    """Raise the CalcError of an output calculation (-D -o) unless some matrix takes
    `mods` in each wave size (an index OPSEL suits only -k)."""
    for wave in waves:
        try:
            operand(inst, "D", mods=mods, wave=wave, output_calc=True)
        except CalcError as error:
            for matrix in matrices(inst):
                try:
                    operand(inst, matrix, mods=mods, wave=wave)
                    break
                except CalcError:
                    continue
            else:
                raise error from None


def linear_layout(inst: Instruction, matrix: str, *, mods: ModifierValues = None,
                  wave: int | None = None) -> LinearLayoutBases:
    """The operand's layout as Triton-style linear-layout bases: {"in_dims": ["register",
    "lane"], "out_dims": ["dim0", "dim1"(, "dim2")], "bases": {"register": [[row, col],
    ...], "lane": [...]} or None, "reason": why there are none (None when there are),
    "note": a remark or None}. Register bit b is value 2^b of the lane; dims are (row,
    col), or (block, row, col) for multi-block operands; sparse operands are given for
    their compressed matrix."""
    from layouts.linear import bases_of
    result = bases_of(operand(inst, matrix, mods=mods, wave=wave))
    return {"in_dims": list(result.in_dims), "out_dims": list(result.out_dims),
            "bases": result.bases, "reason": result.reason or None,
            "note": result.note or None}
