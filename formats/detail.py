"""The --detail-instruction text: the instruction's facts, then its mapping formulas."""
from __future__ import annotations

from instructions import architecture_named
from instructions.model import F8F6F4_FORMATS as F8F6F4_CODES
from instructions.modifiers import modifier

from formats.fields import field_line
from matrix_library.drawing import family_of
from matrix_library.facts import description
from matrix_library.modifier_values import value_meanings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from instructions.model import Instruction

    from matrix_library.answers import Lines, Section, Text
    from matrix_library.typed import Description


def _yes(value: object) -> str:
    return "True" if value else "False"


FORMAT_NAMES = ("FP8 (E4M3)", "BF8 (E5M2)", "FP6 (E2M3)", "BF6 (E3M2)", "FP4 (E2M1)")
SCALE_TYPE = "E8M0 (OCP 8-bit exponent-only block scale, value 2^(v-127), 0xFF = NaN)"


def _statistics(fact: Description) -> list[str]:
    """Speed, from the library's facts (matrix_api.facts), as -d prints it."""
    ops, unit = fact["flops_kind"], fact["compute_unit"]
    lines = ["Execution statistics:", f"    {ops}: {fact['flops']}",
             f"    Execution cycles: {fact['cycles']}",
             f"    {ops}/{unit}/cycle: {fact['flops_per_cycle']}",
             f"    Can co-execute with VALU: {_yes(fact['coexec'])}"]
    if fact["coexec_cycles"]:
        lines.append(f"    VALU co-execution cycles possible: {fact['coexec_cycles']}")
    return lines


def _usage(title: str, fact: Description, wave: int) -> list[str]:
    """Register counts of one wave size, from the library's facts."""
    counts = fact["registers"][str(wave)]
    lines = [title] + [f"    GPRs required for {m}: {counts[m]}" for m in "ABCD" if m in counts]
    if "SA" in counts:
        lines += [f"    GPRs required for A scale: {counts['SA']}",
                  f"    GPRs required for B scale: {counts['SB']}"]
    if not architecture_named(fact["architecture"]).public:  # (the reference's -d has none)
        lines.append(field_line(fact, wave))
    return lines + [f"    GPR alignment requirement: {fact['gpr_alignment']} bytes"]




def _operands(title: str, inst: Instruction) -> list[str]:
    """Which instruction field holds each matrix, and the data types of the fields."""
    third = "Compression index field: Src2" if inst.sparse else "C matrix source field: Src2"
    src2 = "A matrix compression indices" if inst.sparse else inst.out_type.describe()
    lines = [title, "    A matrix source field: Src0", "    B matrix source field: Src1",
             f"    {third}", "    D matrix source field: Vdst"]
    if inst.scaled:
        lines += ["    A scale source field: Src0 of v_mfma_ld_scale_b32",
                  "    B scale source field: Src1 of v_mfma_ld_scale_b32"]
    lines += ["Register data types:", f"    Src0: {inst.a_type.describe()}",
              f"    Src1: {inst.b_type.describe()}", f"    Src2: {src2}",
              f"    Vdst: {inst.out_type.describe()}"]
    if inst.scaled:
        lines += [f"    Scale Src0: {SCALE_TYPE}", f"    Scale Src1: {SCALE_TYPE}"]
    return lines


def _formats(inst: Instruction) -> list[str]:
    """f8f6f4: the formats CBSZ and BLGP selected, and every format code."""
    if not inst.formats_by_cbsz_blgp:
        return []
    codes = ", ".join(f"{n} = {name}" for n, name in enumerate(FORMAT_NAMES))
    a, b = (F8F6F4_CODES.index(f) for f in inst.formats or ("fp8", "fp8"))
    return ["Matrix formats:", f"    A matrix format (CBSZ {a}): {FORMAT_NAMES[a]}",
            f"    B matrix format (BLGP {b}): {FORMAT_NAMES[b]}", f"    Format codes: {codes}"]


def _cdna_facts(inst: Instruction, fact: Description) -> list[str]:
    lines = [f"Encoding: {inst.encoding}", f"VOP3P Opcode: {inst.opcode:#x}",
             f"VOP3P-MAI Opcode: {inst.mai_opcode:#x}"]
    if inst.scaled:
        lines.append(f"Scale load (v_mfma_ld_scale_b32) VOP3P Opcode: {inst.prefix_opcode:#x}")
    lines += ["Matrix Dimensions:", f"    M: {inst.m}", f"    N: {inst.n}", f"    K: {inst.k}",
              f"    blocks: {inst.blocks}"]
    return (lines + _formats(inst) + _statistics(fact)
            + _usage("Register usage:", fact, fact["waves"][0]))


def _cdna_registers(inst: Instruction) -> list[str]:
    cd = "D matrix" if inst.sparse else "C and D matrix"
    lines = _operands("VOP3P-MAI register encoding:", inst) + [
        "Register capabilities:",
        "    A matrix can use ArchVGPRs: True", "    A matrix can use AccVGPRs: True",
        "    B matrix can use ArchVGPRs: True", "    B matrix can use AccVGPRs: True",
        f"    {cd} can use ArchVGPRs: {_yes(inst.cd_arch_vgpr)}",
        f"    {cd} can use AccVGPRs: True"]
    if inst.scaled:
        lines += ["    A and B scales can use ArchVGPRs: True",
                  "    A and B scales can use AccVGPRs: False"]
    lines += ["Register modifiers:", f"    Sparse A matrix: {_yes(inst.sparse)}",
              f"    {modifier('cbsz').shown}: {_yes(inst.cbsz)}",
              f"    {modifier('blgp').shown}: {_yes(inst.blgp)}"]
    if inst.formats_by_cbsz_blgp:
        lines += ["    CBSZ selects the A matrix format: True",
                  "    BLGP selects the B matrix format: True"]
    if inst.scaled:
        lines.append("    OPSEL_A/OPSEL_B select the scale bytes: True")
    return lines + _scale_notes(inst)


def _scale_notes(inst: Instruction) -> list[str]:
    """What the two E8M0 scale operands of v_mfma_scale_* mean and how they are written."""
    if not inst.scaled:
        return []
    return [
        "Scale operands:",
        "    SA[i][kb] scales row i of A and SB[kb][j] column j of B over K block kb"
        f" ({inst.scale_k} K values each)",
        "    A scale byte v means 2^(v-127): 127 = 1.0, 0 = 2^-127, 255 = NaN",
        "    D[i][j] = C[i][j] + sum over kb of SA[i][kb] * SB[kb][j] *"
        " (sum over k in block kb of A[i][k] * B[k][j])",
        "    Scale byte: OPSEL_A / OPSEL_B (--opsel-a, --opsel-b, 0-3) = 2 * op_sel_hi + op_sel",
        f"    Assembly: {inst.mnemonic} vD, vA, vB, vC, vSA, vSB op_sel:[a0,b0,0]"
        " op_sel_hi:[a1,b1,0] cbsz:A_FORMAT blgp:B_FORMAT",
    ]


def formula_lines(title: str, lines: Lines) -> list[str]:
    out = [title]
    for label, text in lines:
        if isinstance(text, tuple):  # a K range: "high through low", wrapped when long
            high, low = text
            one = f"    {label}: {high} through {low}"
            if len(one) + 4 <= 80:
                out.append(one)
                continue
            pad = " " * (len(label) + 6)
            out += [f"    {label}: {high}", pad + "through", pad + low]
        else:
            out.append(f"    {label}: {text}")
    return out


def _formulas(inst: Instruction) -> Mapping[int, Section]:
    """The formulas -d prints: the reference's texts where the architecture declares
    them (formats/quirks.py), else those derived from the layouts."""
    from formats.quirks import reference_formulas
    from matrix_library.drawing import formula_sections
    return reference_formulas(inst) or formula_sections(inst)


def _cdna(inst: Instruction, fact: Description) -> list[str]:
    lines = _cdna_facts(inst, fact) + _cdna_registers(inst)
    forward, backward = _formulas(inst)[inst.wave_sizes[0]]
    lines += formula_lines("Matrix element to register mapping with no modifiers:", forward)
    lines += formula_lines("Register to matrix element mapping with no modifiers:", backward)
    return lines


def _rdna_facts(inst: Instruction, fact: Description) -> list[str]:
    lines = [f"Encoding: {inst.encoding}", f"VOP3P Opcode: {inst.opcode:#x}",
             "Matrix Dimensions:", f"    M: {inst.m}", f"    N: {inst.n}", f"    K: {inst.k}"]
    lines += _statistics(fact)
    for wave in sorted(fact["waves"]):
        lines += _usage(f"Wave{wave} register usage:", fact, wave)
    return lines


def _rdna_registers(inst: Instruction) -> list[str]:
    lines = _operands("VOP3P register encoding:", inst) + ["Register modifiers:"]
    if "opsel_cd_half" in family_of(inst).traits:  # OPSEL[2] picks the C/D half
        lines += ["    OPSEL[1:0] supported: False", f"    OPSEL[2] supported: {_yes(inst.opsel)}"]
    else:
        lines.append(f"    {modifier('opsel').shown}: {_yes(inst.opsel)}")
    return lines + [f"    {modifier('neg').shown}: {_yes(inst.neg)}"]


def wrap(body: str, width: int, lead: str, pad: str) -> list[str]:
    """Greedy word wrap at spaces (what textwrap does for these formulas, without loading
    it and its regular expressions): the first line starts with `lead`, the others with
    `pad`, none longer than `width` unless one word is."""
    lines, line, fresh = [], lead, True
    for word in body.split(" "):
        if not fresh and len(line) + 1 + len(word) > width:
            lines.append(line)
            line, fresh = pad, True
        line = line + word if fresh else f"{line} {word}"
        fresh = False
    return lines + [line]


def _rdna_entry(label: str, text: Text) -> list[str]:
    from formats.reference_formulas_rdna import LANES_0_31, NOTE
    if label == NOTE:
        return ["        " + str(text)]
    first = f"    {label}: "
    pad = " " * len(first)

    def fill(body: str, lead: str) -> list[str]:
        # only the compression formulas are wrapped, at 100 columns
        if label.startswith("compression"):
            return wrap(body, 96, lead, pad)
        return [lead + body]
    if isinstance(text, str):
        return fill(text, first)
    high, low = text[:2]
    if LANES_0_31 in text:
        lead = [first + "(lanes 0-31 only)"] + fill(high, pad)
    else:
        lead = fill(high, first)
    return lead + [pad + "through"] + fill(low, pad)


def _rdna(inst: Instruction, fact: Description) -> list[str]:
    lines = _rdna_facts(inst, fact) + _rdna_registers(inst)
    table = _formulas(inst)
    for side, title in enumerate(("matrix element to register", "register to matrix element")):
        for wave in sorted(table):
            lines.append(f"Wave{wave} {title} mapping with no modifiers:")
            for label, text in table[wave][side]:
                lines += _rdna_entry(label, text)
    return lines


def _sourced(inst: Instruction) -> list[str]:
    """Facts with their sources and confidence (formats/detail_gfx1250.py)."""
    from formats.detail_gfx1250 import lines
    return lines(inst)


# The -d renderer of each `detail` a layout family declares (layouts/family.py DETAILS).
DETAILS: dict[str, Callable[[Instruction], list[str]]] = {
    "mai": lambda inst: _cdna(inst, _facts(inst)),
    "wmma": lambda inst: _rdna(inst, _facts(inst)),
    "sourced": _sourced,
    "ptx": lambda inst: _ptx(inst),
}


def _ptx(inst: Instruction) -> list[str]:
    """NVIDIA's facts with their sources (formats/detail_nvidia.py)."""
    from formats.detail_nvidia import lines
    forward, backward = _formulas(inst)[inst.wave_sizes[0]]
    return lines(inst) + formula_lines("Matrix element to register mapping:", forward) + \
        formula_lines("Register to matrix element mapping:", backward)


def _shown(text: Text) -> str:
    """A formula as one line: a K range `high through low`."""
    return " through ".join(text[:2]) if isinstance(text, tuple) else text


def _engine_formula(lines: Lines, label: str) -> str:
    """The engine's formula (layouts/formulas.py) of the reference's line `label`, with the
    definitions of the symbols it uses (b, c, p), on one line."""
    name = label.replace(".block", "").replace("compression", "index")
    found = dict(lines)
    notes = [str(text) for key, text in lines if key == "note"]
    if name.endswith(" GPR"):  # the VGPR and bits of a bit offset b
        head = name[:-len(" GPR")]
        where = [f"b = {_shown(found[head + ' bit offset b'])}"]
    else:
        where = []
    text = _shown(found[name])
    where += [note for note in notes if f" {note[0]} " in f" {text} ".replace("(", " ")]
    return f"{name}: {text}" + (f", where {'; '.join(where)}" if where else "")


def formula_notes(inst: Instruction) -> list[str]:
    """One note per -d formula line that is the reference's text kept byte for byte
    although it is wrong (formats/quirks.py reference_formula_defects): the line, and
    the engine's formula, which --json and the library give."""
    from formats.quirks import reference_formula_defects, reference_formulas
    from matrix_library.drawing import formula_sections
    defects = reference_formula_defects(inst)
    if not any(defects.values()):
        return []
    texts, engine = reference_formulas(inst) or {}, formula_sections(inst)
    notes = []
    for wave, labels in defects.items():
        for side in (0, 1):
            for label, text in texts[wave][side]:
                if label not in labels:
                    continue
                where = f" (wave{wave})" if len(texts) > 1 else ""
                notes.append(f"-d's line{where} \"{label}: {_shown(text)}\" is the reference "
                             "calculator's text, kept byte for byte, and it is wrong; the "
                             f"engine's formula: {_engine_formula(engine[wave][side], label)}")
    return notes


def _facts(inst: Instruction) -> Description:
    return description(inst)  # the library's facts: speed, units, register counts


def detail(inst: Instruction) -> str:
    lines = DETAILS[family_of(inst).detail](inst)
    if not inst.architecture.public:  # (the reference's -d text is kept byte for byte)
        lines += _value_lines(inst)
    return "".join(f"    {line}\n" for line in lines)


def _value_lines(inst: Instruction) -> list[str]:
    """What each value of each modifier does (matrix_api.value_meanings), per wave size
    where they differ; -d --json gives the same as data."""
    by_wave = {wave: value_meanings(inst, wave) for wave in inst.wave_sizes}
    lines: list[str] = []
    for wave, found in by_wave.items():
        if not found or (lines and found == by_wave[inst.wave_sizes[0]]):
            continue
        suffix = f" (wave{wave})" if len(by_wave) > 1 else ""
        lines.append(f"Modifier values{suffix}:")
        for name, values in found.items():
            label = modifier(name).label
            lines += [f"    {label} {value}: {text}" for value, text in values]
    return lines
