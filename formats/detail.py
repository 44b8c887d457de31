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


def _matrices(inst):
    return ("A", "B", "D") if inst.sparse else ("A", "B", "C", "D")


def _counts(inst, wave):
    from layouts import Operand
    return {m: Operand(inst, m, wave=wave).register_count for m in _matrices(inst)}


def _cdna(inst):
    from layouts.formulas_cdna import sections
    lines = _cdna_facts(inst, _counts(inst, 64)) + _cdna_registers(inst)
    forward, backward = sections(inst)
    lines += formula_lines("Matrix element to register mapping with no modifiers:", forward)
    lines += formula_lines("Register to matrix element mapping with no modifiers:", backward)
    return lines


def _rdna_facts(inst):
    ops = "Ops" if inst.a_type.is_int else "FLOPs"
    lines = ["Encoding: VOP3P", f"VOP3P Opcode: {inst.opcode:#x}", "Matrix Dimensions:",
             f"    M: {inst.m}", f"    N: {inst.n}", f"    K: {inst.k}", "Execution statistics:",
             f"    {ops}: {inst.flops}", f"    Execution cycles: {inst.cycles}",
             f"    {ops}/WGP/cycle: {inst.flops * 4 // inst.cycles}",
             "    Can co-execute with VALU: False"]
    for wave in (32, 64):
        counts = _counts(inst, wave)
        lines.append(f"Wave{wave} register usage:")
        lines += [f"    GPRs required for {m}: {counts[m]}" for m in counts]
        lines.append(f"    GPR alignment requirement: {inst.align} bytes")
    return lines


def _rdna_registers(inst):
    third = "Compression index field: Src2" if inst.sparse else "C matrix source field: Src2"
    src2 = "A matrix compression indices" if inst.sparse else inst.out_type.describe()
    lines = ["VOP3P register encoding:", "    A matrix source field: Src0",
             "    B matrix source field: Src1", f"    {third}", "    D matrix source field: Vdst",
             "Register data types:", f"    Src0: {inst.a_type.describe()}",
             f"    Src1: {inst.b_type.describe()}", f"    Src2: {src2}",
             f"    Vdst: {inst.out_type.describe()}", "Register modifiers:"]
    if inst.arch == "RDNA3":
        lines += ["    OPSEL[1:0] supported: False", f"    OPSEL[2] supported: {_yes(inst.opsel)}"]
    else:
        lines.append(f"    OPSEL supported: {_yes(inst.opsel)}")
    return lines + [f"    NEG bits supported: {_yes(inst.neg)}"]


def _rdna_entry(label, text):
    import textwrap
    from layouts.formulas_rdna import LANES_0_31, NOTE
    if label == NOTE:
        return ["        " + text]
    first = f"    {label}: "
    pad = " " * len(first)

    def fill(body, lead):  # only the compression formulas are wrapped, at 100 columns
        if label.startswith("compression"):
            return textwrap.wrap(body, 96, initial_indent=lead, subsequent_indent=pad)
        return [lead + body]
    if isinstance(text, str):
        return fill(text, first)
    high, low = text[:2]
    lead = [first + "(lanes 0-31 only)"] + fill(high, pad) if LANES_0_31 in text else fill(high, first)
    return lead + [pad + "through"] + fill(low, pad)


def _rdna(inst):
    from layouts.formulas_rdna import sections
    lines = _rdna_facts(inst) + _rdna_registers(inst)
    table = sections(inst)
    for side, title in enumerate(("matrix element to register", "register to matrix element")):
        for wave in (32, 64):
            lines.append(f"Wave{wave} {title} mapping with no modifiers:")
            for label, text in table[wave][side]:
                lines += _rdna_entry(label, text)
    return lines


def detail(inst):
    lines = _rdna(inst) if inst.is_rdna else _cdna(inst)
    return "".join(f"    {line}\n" for line in lines)
