"""The emitted HIP as a whole: one operand's device functions, or the wave-level example
(every load, the builtin call with the chosen modifiers, the store of D)."""
from __future__ import annotations

from instructions.modifiers import ABS, HIGH, LOW, NEGATE

from formats.hip.calls import call_text as _call_text
from formats.hip.calls import check_builtin, named_arguments, negation_acts, operand_type
from formats.hip.common import (
    DEFAULT,
    LOWER,
    PRELUDE,
    CType,
    Options,
    check_options,
    header,
    memory_type,
    prefix_of,
    typedefs,
)
from formats.hip.loads import device_function, operand_name, tile_elements
from matrix_library import request as matrix_request
from matrix_library.api import Modifiers
from matrix_library.code import Code, Fragment
from matrix_library.drawing import wmma_builtins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction


def emit_parts(inst: Instruction, matrix: str | None, mods: object, wave: int,
               options: Options = DEFAULT) -> tuple[str, str]:
    """(prelude, body) of the emitted HIP; the body starts with the header (the command
    line, the target and the compile command). As many bodies as wanted may follow one
    prelude (or each its own: the prelude is guarded) as long as their prefixes differ,
    which the default prefixes always do."""
    check_options(options)
    top, body = _parts(_asked(inst, matrix, mods, wave), options)
    return PRELUDE, top + body


def emit(inst: Instruction, matrix: str | None, mods: object, wave: int,
         options: Options = DEFAULT) -> str:
    """HIP source: with `matrix` ("A", "B", "C", "D", "K", "SA", "SB") its index, gather
    and scatter functions and the __device__ load (C, D: and store) of the calling
    lane's fragment; with None the __global__ wave-level example of the instruction.
    `mods`: Modifiers, a mapping or None. Raises CalcError for what does not apply.
    written() of the library's answer, asked here once."""
    check_options(options)
    return written(_asked(inst, matrix, mods, wave), options)


def written(found: Code, options: Options = DEFAULT) -> str:
    """The HIP source of an --emit hip answer (matrix_library.code.Code), as emit()."""
    check_options(options)
    top, body = _parts(found, options)
    return top + PRELUDE + "\n" + body


def _asked(inst: Instruction, matrix: str | None, mods: object, wave: int) -> Code:
    found = matrix_request.answer(matrix_request.Request(
        "emit", inst=inst, matrix=matrix, mods=mods, wave=wave))  # type: ignore[arg-type]
    assert isinstance(found, Code)  # (the answer of the emit mode)
    return found


def _parts(found: Code, options: Options) -> tuple[str, str]:
    """(header, body) of one output."""
    inst, mods, wave = found.inst, found.mods, found.wave
    prefix = prefix_of(inst, mods, wave, options)
    top = header(inst, wave, options)
    if found.matrix is not None:
        (written_,) = found.operands
        ctype = operand_type(inst, found.matrix, wave)
        body = "\n".join(typedefs([ctype]) + [
            device_function(inst, written_.fragment, options, ctype,
                            operand_name(prefix, found.matrix))])
        return top, body + "\n"
    check_builtin(inst, wave)
    return top, _example(found, options, prefix) + "\n"


# ---- negations the builtin has no argument for


# The operands' names in a call built only to read its argument names.
_PLACEHOLDERS = {"A": "a", "B": "b", "C": "c", "K": "k", "SA": "sa", "SB": "sb"}


def _whole_index(inst: Instruction, matrix: str, mods: Modifiers, var: str) -> list[str]:
    """An RDNA SWMMAC whose OPSEL picks a slice of the index VGPR: the call passes the
    VGPR shifted right (formats/hip/calls.py), and clang encodes that shift as index_key
    when it sees the whole VGPR; the empty asm keeps it from folding the shift into the
    code that built the index (which computes the right value, with index_key 0)."""
    builtins = wmma_builtins(inst)
    if matrix != "K" or not mods.opsel or builtins is None or builtins.operand_modifiers:
        return []
    return ["#if defined(__AMDGCN__)",
            f'    __asm__ volatile("" : "+v"({var}));  // the whole index VGPR: OPSEL is '
            "index_key",
            "#endif"]


def _negations(inst: Instruction, matrix: str, mods: Modifiers, wave: int, frag: Fragment,
               ctype: CType, name: str) -> list[str]:
    """Negations the builtin has no argument for, done on the values (calls.negation_acts):
    the low and/or high 16-bit halves of A or B, or C negated / its absolute value (the
    compiler folds whole-operand negations into the instruction's neg_lo/neg_hi bits).
    Where the modifiers are arguments (WmmaBuiltins.operand_modifiers), whole values
    (16-bit: both halves; wider: the low "half") and C's are arguments: only one half of
    16-bit A or B values (neg_lo without neg_hi, or the reverse) is left to do. Masks the
    builtin passes through as arguments (MFMA's BLGP) are left to the instruction."""
    passed = {name for name, _ in named_arguments(inst, mods, wave, _PLACEHOLDERS)}
    acts = negation_acts(inst, matrix, mods, wave, passed)
    if not acts:
        return []
    var = LOWER[matrix]
    low, high = LOW in acts, HIGH in acts
    builtins = wmma_builtins(inst)
    if builtins is not None and builtins.operand_modifiers:
        if low == high or frag.bits != 16:
            return []
        return _half_negation(var, frag, ctype, name, low, high)
    if low and high and ctype.element != "short":
        return [f"    {var} = -{var};  // {acts[LOW][0]} and {acts[HIGH][0]}: every value"]
    if low or high:
        return _half_negation(var, frag, ctype, name, low, high)
    return _whole_negations(var, acts, ctype)


def _whole_negations(var: str, acts: dict[str, tuple[str, int]], ctype: CType) -> list[str]:
    """|C| (ABS), then -C (NEGATE), on the values (bf16 as bit patterns: the sign is bit
    15). The labels name the bits that ask them (RDNA: NEG_HI[2], NEG[2])."""
    out = []
    bf16 = ctype.element == "short"
    if ABS in acts:
        label = "{}[{}]".format(*acts[ABS])
        out.append(f"    {var} = {var} & (short)0x7fff;  // {label}: |C|" if bf16 else
                   f"    {var} = __builtin_elementwise_abs({var});  // {label}: |C|")
    if NEGATE in acts:
        label = "{}[{}]".format(*acts[NEGATE])
        out.append(f"    {var} = {var} ^ (short)0x8000;  // {label}: -C" if bf16 else
                   f"    {var} = -{var};  // {label}: -C")
    return out


def _half_negation(var: str, frag: Fragment, ctype: CType, name: str, low: bool,
                   high: bool) -> list[str]:
    """Negate the 16-bit values of `var` in the low and/or high halves of its VGPRs."""
    if ctype.element == "short":
        flip = f"{var}[bit / 16] = (short)({var}[bit / 16] ^ (short)0x8000)"
    else:
        flip = f"{var}[bit / 16] = -{var}[bit / 16]"
    cond = "1" if low and high else ("bit % 32 == 0" if low else "bit % 32 == 16")
    return [(f"    for (int v = 0; v < {frag.values}; ++v) {{  // negate the "
            f"{'low' if low else ''}{' and ' if low and high else ''}"
            f"{'high' if high else ''} halves"),
            f"        const int bit = {name}_bit(v);",
            f"        if ({cond}) {flip};", "    }"]


# ---- the wave-level example


def _example(found: Code, options: Options, prefix: str) -> str:
    """The __global__ wave-level example: loads, the builtin call, the store of D. With
    options.lds the tiles (dense: leading dimension options.ld or the tile's width) are
    first copied to LDS by the wavefront and the fragments loaded from there."""
    inst, mods, wave = found.inst, found.mods, found.wave
    types: list[CType] = []
    parts: list[str] = []
    params: list[str] = []
    stage: list[str] = []
    body: list[str] = []
    args = {}
    d_ld = d_name = ""
    for matrix, shaping, frag in found.operands:
        var = LOWER[matrix]
        mine = options
        if options.lds and options.ld is None:
            rows, cols, _ = frag.shape
            mine = options._replace(ld=cols if options.order == "row" else rows)
        ctype = operand_type(inst, matrix, wave)
        types.append(ctype)
        # Named by the modifiers that shape this operand: the same functions as
        # `--emit hip` of this matrix with those modifiers (so both may share a file).
        name = operand_name(prefix_of(inst, shaping, wave, mine), matrix)
        parts.append(device_function(inst, frag, mine, ctype, name))
        mem = memory_type(inst, matrix, frag.bits)
        params.append(f"{'' if matrix == 'D' else 'const '}{mem}* {var}_tile")
        ld = ""
        if mine.ld is None:
            params.append(f"long ld{var}")
            ld = f", ld{var}"
        src = f"{var}_tile"
        if options.lds and matrix != "D":
            count = tile_elements(frag, mine)
            if frag.bits < 8:
                count, mem = -(-count * frag.bits // 8), "unsigned char"
            stage += [f"    __shared__ __attribute__((aligned(16))) {mem} {var}_lds[{count}];",
                      (f"    for (int e = lane; e < {count}; e += {wave}) "
                       f"{var}_lds[e] = {src}[e];")]
            src = f"{var}_lds"
        if matrix == "D":
            d_ld, d_name = ld, name
            continue
        body.append(f"    {ctype.name} {var} = {name}_load({src}{ld});")
        body += _whole_index(inst, matrix, mods, var)
        body += _negations(inst, matrix, mods, wave, frag, ctype, name)
        args[matrix] = var
    d_type = operand_type(inst, "D", wave)
    acc_type = accumulator_type(inst, wave, d_type)
    types.append(acc_type)
    if inst.sparse:
        body.append(f"    {acc_type.name} acc = {{}};  // the accumulator (D's layout) "
                    "starts at zero")
    call = _call_text(inst, mods, wave, args, "    ")
    guard = f"{prefix.upper()}_EXAMPLE_DEFINED"
    lines = typedefs(types) + parts
    lines += [f"#ifndef {guard}", f"#define {guard}",
              (f"/* One {inst.name} per wavefront (wave{wave}): load the fragments, "
               "multiply, store D. */"),
              f"extern \"C\" __global__ void {prefix}_example({', '.join(params)}) {{"]
    if stage:
        lines += [(f"    const int lane = MC_THREAD_X % {wave};  // the lane within the "
                   "wavefront"),
                  "    // Stage the tiles in LDS (one wavefront per block in this example)."]
        lines += stage + ["    MC_SYNC();"]
    lines += body
    if acc_type != d_type:
        lines += [f"    {acc_type.name} r = {call};",
                  f"    {d_type.name} d;  // D: {inst.out_type.key} packed into the result's "
                  f"first {d_type.length * inst.out_type.bits // 32} VGPRs",
                  "    __builtin_memcpy(&d, &r, sizeof d);"]
    else:
        lines += [f"    {d_type.name} d = {call};"]
    lines += [f"    {d_name}_store(d_tile{d_ld}, d);", "}", f"#endif  /* {guard} */"]
    return "\n".join(lines)


def accumulator_type(inst: Instruction, wave: int, d_type: CType) -> CType:
    """What the builtin takes as C and returns: D's type, but for a SWMMAC whose D is
    narrower than its C (bf16f32: Vdst is the tied f32 C, D packed into its first VGPRs)
    the C type, read back as D by the caller."""
    if inst.sparse and inst.c_type.bits > inst.out_type.bits:
        return CType("float", inst.m * inst.n * inst.c_type.bits // (32 * wave))
    return d_type
