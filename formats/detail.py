"""The --detail-instruction text: the instruction's facts, then its mapping formulas."""


def _yes(value):
    return "True" if value else "False"


def _cdna_facts(inst, counts):
    ops = "Ops" if inst.a_type.is_int else "FLOPs"
    lines = ["Encoding: VOP3P-MAI", f"VOP3P Opcode: {inst.opcode:#x}",
             f"VOP3P-MAI Opcode: {inst.opcode & 0x3F:#x}", "Matrix Dimensions:",
             f"    M: {inst.m}", f"    N: {inst.n}", f"    K: {inst.k}",
             f"    blocks: {inst.blocks}", "Execution statistics:",
             f"    {ops}: {inst.flops}", f"    Execution cycles: {inst.cycles}",
             f"    {ops}/CU/cycle: {inst.flops * 4 // inst.cycles}",
             f"    Can co-execute with VALU: {_yes(inst.coexec_cycles)}"]
    if inst.coexec_cycles:
        lines.append(f"    VALU co-execution cycles possible: {inst.coexec_cycles}")
    lines.append("Register usage:")
    lines += [f"    GPRs required for {m}: {counts[m]}" for m in counts]
    lines.append(f"    GPR alignment requirement: {inst.align} bytes")
    return lines


def _cdna_registers(inst):
    third = "Compression index field: Src2" if inst.sparse else "C matrix source field: Src2"
    src2 = "A matrix compression indices" if inst.sparse else inst.out_type.describe()
    cd = "D matrix" if inst.sparse else "C and D matrix"
    return ["VOP3P-MAI register encoding:", "    A matrix source field: Src0",
            "    B matrix source field: Src1", f"    {third}", "    D matrix source field: Vdst",
            "Register data types:", f"    Src0: {inst.a_type.describe()}",
            f"    Src1: {inst.b_type.describe()}", f"    Src2: {src2}",
            f"    Vdst: {inst.out_type.describe()}", "Register capabilities:",
            "    A matrix can use ArchVGPRs: True", "    A matrix can use AccVGPRs: True",
            "    B matrix can use ArchVGPRs: True", "    B matrix can use AccVGPRs: True",
            f"    {cd} can use ArchVGPRs: {_yes(inst.cd_arch_vgpr)}",
            f"    {cd} can use AccVGPRs: True", "Register modifiers:",
            f"    Sparse A matrix: {_yes(inst.sparse)}",
            f"    CBSZ and ABID bits supported: {_yes(inst.cbsz)}",
            f"    BLGP bits supported: {_yes(inst.blgp)}"]


def formula_lines(title, lines):
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


def detail(inst):
    from layouts import Operand
    from layouts.formulas_cdna import sections
    matrices = ("A", "B", "D") if inst.sparse else ("A", "B", "C", "D")
    counts = {m: Operand(inst, m).register_count for m in matrices}
    lines = _cdna_facts(inst, counts) + _cdna_registers(inst)
    forward, backward = sections(inst)
    lines += formula_lines("Matrix element to register mapping with no modifiers:", forward)
    lines += formula_lines("Register to matrix element mapping with no modifiers:", backward)
    return "".join(f"    {line}\n" for line in lines)
