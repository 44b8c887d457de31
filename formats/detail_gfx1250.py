"""The --detail-instruction text of the gfx1250 layout family (gfx1250, gfx1251): the
instruction's facts with the source and confidence of each, then the mapping formulas
derived from its layouts (layouts/gfx1250.py)."""
from __future__ import annotations

from formats.fields import field_line

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not loaded at run time: start-up)
    from instructions.gfx1250_provenance import SourceDoc

    from matrix_library.api import Instruction

FORMAT_NAMES = ("FP8 (E4M3)", "BF8 (E5M2)", "FP6 (E2M3)", "BF6 (E3M2)", "FP4 (E2M1)")
SCALE_FORMATS = ("E8 (E8M0)", "E5M3", "E4M3")
SCALE_LOAD = {0x35: "v_wmma_ld_scale_paired_b32", 0x3A: "v_wmma_ld_scale16_paired_b64"}


def _source(p: SourceDoc) -> str:
    text = f"[{p['confidence']}: {p['source']}] {p['note']}"
    for alt in p.get("alternatives", ()):
        text += f"\n        contested: {alt['source']} answers: {alt['answer']}"
    return text


def _encoding(inst: Instruction) -> list[str]:
    lines = [f"Encoding: {inst.encoding}", f"VOP3P Opcode: {inst.opcode:#x}"]
    if inst.prefix_opcode is None:
        return lines + ["    (64 bits)"]
    load = SCALE_LOAD[inst.prefix_opcode]
    return lines + [f"Scale load ({load}) VOP3P Opcode: {inst.prefix_opcode:#x}",
                    (f"    (128 bits: {load}, opcode in bits [23:16], then the WMMA, opcode "
                    "in bits [87:80])")]


def _formats(inst: Instruction) -> list[str]:
    if not inst.format_fields:
        return []
    from matrix_library.drawing import format_code
    a, b = (format_code(f) for f in inst.formats or ("fp8", "fp8"))
    codes = ", ".join(f"{n} = {name}" for n, name in enumerate(FORMAT_NAMES))
    return ["Matrix formats:", f"    A matrix format (matrix_a_fmt {a}): {FORMAT_NAMES[a]}",
            f"    B matrix format (matrix_b_fmt {b}): {FORMAT_NAMES[b]}",
            f"    Format codes: {codes}",
            "    A/B GPRs per format: FP8/BF8 16, FP6/BF6 12, FP4 8"]


def _statistics(inst: Instruction) -> list[str]:
    from matrix_library.drawing import latencies
    ops = "Ops" if inst.a_type.is_int else "FLOPs"
    latency = (f"{inst.cycles} cycles" if inst.cycles else
               "unknown (LLVM 22 does not know this instruction)")
    lines = ["Execution statistics:", f"    {ops}: {inst.flops}",
             f"    Latency in LLVM's scheduling model: {latency}",
             ("        (the compiler's model (llvm-mca-22), not the ISA's: the CDNA5 ISA "
             "gives no WMMA cycle counts)")]
    origami = latencies(inst)[1]["cycles"]
    lines.append("    Latency in AMD origami's GEMM model: "
                 + (f"{origami} cycles" if origami else "no figure (no row for this "
                    "instruction or format pair)"))
    return lines + ["        (ROCm/rocm-libraries shared/origami hardware.hpp @0192efda: "
                    "an analytical model's table)"]


def _registers(inst: Instruction) -> list[str]:
    from matrix_library.facts import description  # (the facts: loaded for -d alone)
    described = description(inst, 32)
    counts = described["registers"]["32"]  # (the library's counts)
    mats = ["A", "B"] + (["K"] if inst.sparse else ["C"]) + ["D"]
    mats += ["SA", "SB"] if inst.scaled else []
    names = {"K": "sparsity index", "SA": "A scale", "SB": "B scale"}
    lines = ["Wave32 register usage:", "    (wave64: not supported)"]
    lines += [f"    GPRs required for {names.get(m, m)}: {counts[m]}" for m in mats]
    tied = inst.m * inst.n * inst.c_type.bits // 1024  # a SWMMAC's Vdst is its C
    if inst.sparse and tied > counts["D"]:
        lines.append(f"        (Vdst names {tied} VGPRs, the tied {inst.c_type.key} C; D is "
                     f"packed into the first {counts['D']})")
    lines.append(field_line(described, 32))
    return lines + [f"    GPR alignment requirement: {inst.align} bytes (even VGPRs)"]


def _fields(inst: Instruction) -> list[str]:
    src2 = "sparsity index" if inst.sparse else "C matrix"
    lines = ["VOP3P register encoding:", "    A matrix source field: Src0",
             "    B matrix source field: Src1", f"    {src2} source field: Src2",
             "    D matrix source field: Vdst" + (" (tied to C)" if inst.sparse else "")]
    if inst.scaled:
        lines += ["    A scale source field: Src0 of the scale load",
                  "    B scale source field: Src1 of the scale load"]
    c = "sparsity index (4 bits per group of 4 K)" if inst.sparse else inst.c_type.describe()
    lines += ["Register data types:", f"    Src0: {inst.a_type.describe()}",
              f"    Src1: {inst.b_type.describe()}", f"    Src2: {c}",
              f"    Vdst: {inst.out_type.describe()}"]
    if inst.scaled:
        width = "32" if inst.scale_k == 32 else "64"
        lines += [(f"    Scale Src0/Src1: {width}-bit, one byte per {inst.scale_k} K values "
                  "(E8M0 by default)")]
    return lines


def _modifiers(inst: Instruction) -> list[str]:
    from matrix_library.drawing import neg_masks
    lo, hi = neg_masks(inst)

    def bits(mask: int) -> str:
        named = [n for b, n in ((1, "1 (A)"), (2, "2 (B)"), (4, "4 (C)")) if mask & b]
        return ", ".join(named) or "none"
    lines = ["Register modifiers (LLVM's names):",
             f"    neg_lo bits: {bits(lo)}" + (" (signedness of A/B)" if inst.a_type.is_int
                                               else ""),
             f"    neg_hi bits: {bits(hi)}"]
    if lo & 3 and not inst.a_type.is_int and inst.a_type.bits == 16:
        lines.append("        (16-bit A/B: neg_lo negates the low halves, neg_hi the high; "
                     "set both to negate)")
    if lo & 4:
        lines.append("        (C: neg_lo[2] = -C, neg_hi[2] = |C|)")
    yes = {True: "True", False: "False"}
    lines += [f"    matrix_a_fmt / matrix_b_fmt supported: {yes[inst.takes('matrix_a_fmt')]}",
              f"    index_key supported: {yes[inst.takes('index_key')]}"
              + (" (0-1)" if inst.takes("index_key") else ""),
              (f"    matrix_a_scale / matrix_b_scale (row0, row1) supported: "
              f"{yes[inst.takes('matrix_a_scale')]}"),
              (f"    matrix_a_scale_fmt / matrix_b_scale_fmt (e8, e5m3, e4m3) supported: "
              f"{yes[inst.takes('matrix_a_scale_fmt')]}"),
              f"    matrix_a_reuse / matrix_b_reuse supported: {yes[inst.takes('matrix_a_reuse')]}"
              + (" (hints: no layout changes)" if inst.takes("matrix_a_reuse") else ""),
              f"    clamp supported: {yes[inst.a_type.is_int]}"]
    return lines


def _scales(inst: Instruction) -> list[str]:
    if not inst.scaled:
        return []
    rows = "row i of A in lane i + 16 * matrix_a_scale" if inst.m == 16 else \
        "row i (0-31) of A in lane i"
    return ["Scale operands:",
            (f"    SA[i][kb] scales row i of A and SB[kb][j] column j of B over K block kb "
            f"({inst.scale_k} K values each), byte kb of the lane"),
            f"    {rows}; column j of B in lane j + 16 * matrix_b_scale",
            ("    D[i][j] = C[i][j] + sum over kb of SA[i][kb] * SB[kb][j] *"
            " (sum over k in block kb of A[i][k] * B[k][j])"),
            (f"    Assembly: {inst.mnemonic} vD, vA, vB, vC, vSA, vSB "
            "matrix_a_scale:MATRIX_SCALE_ROW1 matrix_b_scale_fmt:MATRIX_SCALE_FMT_E4M3 ...")]


def _sources(inst: Instruction) -> list[str]:
    from matrix_library.drawing import provenance
    p = provenance(inst)
    names = {"A": "A layout", "B": "B layout", "C": "C layout", "D": "D layout",
             "K": "Index layout", "SA": "A scale layout", "SB": "B scale layout"}
    lines = [("Sources and confidence (SRC primary, SEC secondary, CONV convention, "
             "INF our inference or choice):"),
             f"    Product names ({p['product_names']['names']}): "
             + _source(p["product_names"]),
             "    Opcodes, register counts, modifiers: " + _source(p["encoding"]),
             "    Latency: " + _source(p["latency"])]
    if "clamp" in p:
        lines.append("    Clamp: " + _source(p["clamp"]))
    if "index_width" in p:
        width = p["index_width"]
        lines.append(f"    Index operand: {width['operand_bits']} bits a lane; one instruction "
                     f"reads bits {width['bits_read']['index_key 0']} with index_key 0, "
                     f"{width['bits_read']['index_key 1']} with index_key 1")
        lines.append("    Index width: " + _source(width))
    lines += [f"    {names[m]}: " + _source(v) for m, v in p["layouts"].items()]
    return lines


def lines(inst: Instruction) -> list[str]:
    from matrix_library.drawing import formula_sections
    out = (_encoding(inst) + ["Matrix Dimensions:", f"    M: {inst.m}", f"    N: {inst.n}",
                              f"    K: {inst.k}"]
           + _formats(inst) + _statistics(inst) + _registers(inst) + _fields(inst)
           + _modifiers(inst) + _scales(inst) + _sources(inst))
    forward, backward = formula_sections(inst)[32]
    out.append("Wave32 matrix element to register mapping with no modifiers:")
    out += [f"    {label}: {text}" for label, text in forward]
    out.append("Wave32 register to matrix element mapping with no modifiers:")
    out += [f"    {label}: {text}" for label, text in backward]
    return out
