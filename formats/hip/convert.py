"""HIP for a planned conversion: a device function that turns the source
fragments of one instruction into the destination fragments of the next with the
planned instructions, through clang's builtins.

`emit_conversion(conv)` renders the program of matrix_api.conversion's plan
(matrix_plans/convert/planner.py, `Op`) one statement per op:
  - `<name>_words(s, d[, lds])`: plain C on 32-bit words, s the source fragments'
    registers (fragment after fragment), d the destination's. Lane moves, lane masks,
    conversions and LDS accesses go through the MC_* macros of CONVERT_PRELUDE, which
    call the builtins on a GPU; scripts/check_convert.py defines them for the host
    instead and runs the very same function in every lane of an emulated wavefront;
  - `<name>(src, dst[, lds])` (HIP only): the same on the builtins' vector types.
The lane is the lane within the wavefront (mbcnt), so any block shape works; an LDS
route takes `lds`, the calling wave's own region of `<NAME>_LDS_BYTES` bytes of
__shared__ memory.
"""
from __future__ import annotations

from instructions.dpp import asm as dpp_asm
from instructions.dpp import dpp_ctrl

from formats.hip import PRELUDE, CType, operand_type
from formats.hip.convert_types import COMMON_TYPES, HIP_TYPES, PAIRS, convert_expr

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    from matrix_library.api import Instruction
    from matrix_library.conversion import Conversion

    class _Op(Protocol):
        """One op of a conversion program (matrix_plans/convert/planner.py Op), read here."""
        @property
        def op(self) -> str: ...
        @property
        def out(self) -> str: ...
        @property
        def args(self) -> tuple[str, ...]: ...
        # Its payload's shape depends on `op` (Op's docstring: a type key, (kind,
        # detail), masks, (bits, addresses), a byte offset); the engine declares it
        # `object`, and each statement below unpacks the shape of its own op.
        @property
        def info(self) -> Any: ...  # type: ignore[explicit-any]

    class _Words(Protocol):
        """The register counts of a plan (matrix_plans/convert/planner.py Plan) an op needs."""
        @property
        def fragments(self) -> int: ...
        @property
        def registers(self) -> int: ...

CONVERT_PRELUDE = """\
#ifndef MC_CONVERT_PRELUDE
#define MC_CONVERT_PRELUDE
#if defined(__HIP__)
typedef unsigned int mc_u32x2 __attribute__((ext_vector_type(2)));
typedef __attribute__((address_space(3))) unsigned char mc_lds_byte;
/* the lane within the wavefront (mbcnt_hi adds nothing in wave32) */
#define MC_LANE() ((int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)))
#define MC_BPERMUTE(from, x) \\
    ((unsigned int)__builtin_amdgcn_ds_bpermute((int)(from) * 4, (int)(x)))
#define MC_SWAP32(x, i) (__builtin_amdgcn_permlane32_swap((x), (x), false, false)[i])
#define MC_SWAP16(x, i) (__builtin_amdgcn_permlane16_swap((x), (x), false, false)[i])
/* two registers trade lanes: result 0 is the VDST (x) side, result 1 the SRC0 (y) side */
#define MC_SWAP32X(x, y, i) (__builtin_amdgcn_permlane32_swap((x), (y), false, false)[i])
#define MC_SWAP16X(x, y, i) (__builtin_amdgcn_permlane16_swap((x), (y), false, false)[i])
#define MC_ROW(x, lo, hi) __builtin_amdgcn_permlane16((x), (x), (lo), (hi), false, false)
#define MC_XROW(x, lo, hi) __builtin_amdgcn_permlanex16((x), (x), (lo), (hi), false, false)
#define MC_HALF(x) __builtin_amdgcn_permlane64(x)
/* v_mov_b32_dpp: every row and bank written; bound_ctrl: a lane without a source gets 0 */
#define MC_DPP(x, ctrl) \\
    ((unsigned int)__builtin_amdgcn_update_dpp(0, (int)(x), (ctrl), 0xf, 0xf, true))
#define MC_DPP8(x, sel) ((unsigned int)__builtin_amdgcn_mov_dpp8((unsigned int)(x), (sel)))
/* v_perm_b32: each result byte is byte sel[i] of {hi, lo} (hi: bytes 4-7; 12: zero) */
#define MC_PERM(hi, lo, sel) __builtin_amdgcn_perm((hi), (lo), (sel))
#define MC_F32(x) __builtin_bit_cast(float, (unsigned int)(x))
#define MC_CVT_F16(x) ((unsigned int)__builtin_bit_cast(unsigned short, (_Float16)MC_F32(x)))
#define MC_CVT_BF16(x) ((unsigned int)__builtin_bit_cast(unsigned short, (__bf16)MC_F32(x)))
#define MC_CVT_FP8(x) \\
    ((unsigned int)__builtin_amdgcn_cvt_pk_fp8_f32(MC_F32(x), MC_F32(x), 0, false) & 0xffu)
#define MC_CVT_BF8(x) \\
    ((unsigned int)__builtin_amdgcn_cvt_pk_bf8_f32(MC_F32(x), MC_F32(x), 0, false) & 0xffu)
""" + HIP_TYPES + """\
#define MC_LDS(p) ((mc_lds_byte*)(p))
#define MC_STORE(p, at, bits, x) MC_STORE_##bits(MC_LDS(p) + (at), (x))
#define MC_STORE_8(q, x) (*(q) = (unsigned char)(x))
#define MC_STORE_16(q, x) (*(__attribute__((address_space(3))) unsigned short*)(q) = \\
                           (unsigned short)(x))
#define MC_STORE_32(q, x) (*(__attribute__((address_space(3))) unsigned int*)(q) = (x))
#define MC_LOAD(p, at) (*(__attribute__((address_space(3))) unsigned int*)(MC_LDS(p) + (at)))
/* The wave's own LDS stores are seen by its loads: a wavefront-scope fence. */
#define MC_WAVE_SYNC() (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), \\
                        __builtin_amdgcn_wave_barrier(), \\
                        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))
#endif
""" + COMMON_TYPES + """\
#define MC_PICK(mask, lane, x, y) ((((mask) >> (lane)) & 1u) ? (x) : (y))
#define MC_BIT(x, at) (((unsigned int)(x) >> (at)) & 1u)
#endif
"""

def _fit(table: tuple[int, ...], bits: int) -> list[tuple[int, int]] | None:
    """An affine map over GF(2) that agrees with `table` (entry l: the value for lane l,
    -1: any): per output bit (lane bit mask, constant), or None when there is none."""
    lanes = [lane for lane, value in enumerate(table) if value >= 0]
    width = max(1, (len(table) - 1).bit_length())
    out = []
    for k in range(bits):
        # rows: lane bits + constant | the wanted bit; Gaussian elimination over GF(2)
        rows = [((lane << 1 | 1), (table[lane] >> k) & 1) for lane in lanes]
        solution = _solve(rows, width + 1)
        if solution is None:
            return None
        out.append((solution >> 1, solution & 1))
    return out


def _solve(rows: list[tuple[int, int]], size: int) -> int | None:
    pivots: dict[int, tuple[int, int]] = {}
    for vector, value in rows:
        for bit in reversed(range(size)):
            if not vector >> bit & 1:
                continue
            if bit in pivots:
                vector ^= pivots[bit][0]
                value ^= pivots[bit][1]
            else:
                pivots[bit] = (vector, value)
                break
        else:
            if value:
                return None
    solution = 0
    for bit in sorted(pivots):
        vector, value = pivots[bit]
        rest = vector & ~(1 << bit)
        value ^= bin(rest & solution).count("1") & 1
        solution |= value << bit
    return solution


def _lane_expr(table: tuple[int, ...], name: str, tables: list[str]) -> str:
    """A C expression of `lane` giving table[lane] (a GF(2)-affine formula, or a
    lookup in a constant table added to `tables`)."""
    top = max(table)
    bits = max(1, top.bit_length())
    fit = _fit(table, bits)
    if fit is None:
        values = ", ".join(f"{max(0, v)}u" for v in table)
        ctype = "unsigned short" if top < 1 << 16 else "unsigned int"
        tables.append(f"    static const {ctype} {name}[{len(table)}] = {{{values}}};")
        return f"{name}[lane]"
    terms = []
    for k, (mask, const) in enumerate(fit):
        picks = [f"MC_BIT(lane, {b})" for b in range(mask.bit_length()) if mask >> b & 1]
        if const:
            picks.append("1u")
        if not picks:
            continue
        inner = " ^ ".join(picks)
        terms.append(f"({inner}) << {k}" if k else f"({inner})")
    return "(" + " | ".join(terms) + ")" if terms else "0u"


def _mask(mask: int) -> str:
    return f"0x{mask:x}ull"


def _pack_expr(op: _Op, var: Callable[[str], str]) -> str:
    kind, parts = op.info
    values = []
    for (lo, width, dlo, dwidth), name in zip(parts, op.args):
        value = var(name)
        if lo or width < 32:  # part of a word (a 16-bit source value, or a repack)
            value = f"(({value} >> {lo}) & 0x{(1 << width) - 1:x}u)"
        values.append((value, dlo, dwidth))
    terms = []
    at = 0
    while at < len(values):
        value, dlo, dwidth = values[at]
        pair = PAIRS.get(kind) if at + 1 < len(values) else None
        if pair and values[at + 1][1] == dlo + dwidth:  # adjacent: one pair conversion
            value = f"{pair}({value}, {values[at + 1][0]})"
            at += 1
        elif kind:
            value = convert_expr(kind, value)
        terms.append(f"{value} << {dlo}" if dlo else value)
        at += 1
    return " | ".join(terms)


def _move_expr(op: _Op, var: Callable[[str], str],
               lanes: Callable[[tuple[int, ...]], str]) -> str:
    kind, detail = op.info
    source = var(op.args[0])
    if kind == "swap32":
        return f"MC_SWAP32({source}, {detail})"
    if kind == "swap16":
        return f"MC_SWAP16({source}, {detail})"
    if kind in ("swap32x", "swap16x"):
        return f"MC_{kind.upper()}({source}, {var(op.args[1])}, {detail})"
    if kind in ("row", "xrow"):
        lo = sum(s << (4 * i) for i, s in enumerate(detail[:8]))
        hi = sum(s << (4 * i) for i, s in enumerate(detail[8:]))
        return f"MC_{kind.upper()}({source}, 0x{lo:08x}u, 0x{hi:08x}u)"
    if kind == "half":
        return f"MC_HALF({source})"
    if kind in ("dpp", "dpp8"):
        return _dpp_expr(kind, detail, source)
    return f"MC_BPERMUTE({lanes(detail)}, {source})"


def _dpp_expr(kind: str, detail: object, source: str) -> str:
    """A DPP move: (control name, value) of v_mov_b32_dpp, or dpp8's 8 selectors."""
    assert isinstance(detail, tuple)
    if kind == "dpp8":
        sel = sum(s << (3 * i) for i, s in enumerate(detail))
        return f"MC_DPP8({source}, 0x{sel:06x}u) /* dpp8:[{','.join(map(str, detail))}] */"
    name, value = detail
    return f"MC_DPP({source}, 0x{dpp_ctrl(name, value):03x}) /* {dpp_asm(name, value)} */"


def _select_expr(op: _Op, var: Callable[[str], str]) -> str:
    expr = var(op.args[-1])
    for name, mask in zip(reversed(op.args[:-1]), reversed(op.info[:-1])):
        expr = f"MC_PICK({_mask(mask)}, lane, {var(name)}, {expr})"
    return expr


def _store_lines(op: _Op, var: Callable[[str], str],
                 lanes: Callable[[tuple[int, ...]], str]) -> list[str]:
    bits, table = op.info
    if bits > 32:
        at = lanes(table)
        return [f"    MC_STORE(lds, {at} + {4 * k}, 32, {var(name)});"
                for k, name in enumerate(op.args)]
    return [f"    MC_STORE(lds, {lanes(table)}, {bits}, {var(op.args[0])});"]


def _op_lines(op: _Op, plan: _Words, var: Callable[[str], str],
              lanes: Callable[[tuple[int, ...]], str]) -> list[str]:
    """The statements of one op (but sync)."""
    target = op.out
    declare = "" if target.startswith("d") and "_" in target else "const unsigned int "
    if target.startswith("d") and "_" in target:
        t, r = target[1:].split("_")
        target = f"d[{int(t) * plan.registers + int(r)}]"
    if op.op == "pack":
        return [f"    {declare}{target} = {_pack_expr(op, var)};"]
    if op.op == "move":
        return [f"    {declare}{target} = {_move_expr(op, var, lanes)};"]
    if op.op == "select":
        return [f"    {declare}{target} = {_select_expr(op, var)};"]
    if op.op == "perm":
        return [f"    {declare}{target} = MC_PERM({var(op.args[0])}, {var(op.args[1])}, "
                f"{lanes(op.info)});"]
    if op.op == "store":
        return _store_lines(op, var, lanes)
    if op.op == "packw":  # a wide pack: op.info = (key, span, width, builtin)
        words = ", ".join(var(name) for name in op.args)
        macro = "MC_W_" + op.info[3].removeprefix("__builtin_amdgcn_").upper()
        return [f"    const unsigned int {target}_in[{len(op.args)}] = {{{words}}};",
                f"    unsigned int {target}[{op.info[1]}];",
                f"    {macro}({target}, {target}_in);"]
    if op.op == "load":  # info: the byte offset, or (offset, a lane's bytes)
        at, stride = op.info if isinstance(op.info, tuple) else \
            (op.info, 4 * plan.fragments * plan.registers)
        return [f"    {declare}{target} = MC_LOAD(lds, lane * {stride} + {at});"]
    return []


def _statements(conv: Conversion) -> tuple[list[str], list[str]]:
    """(statements, constant tables) of the program."""
    plan = conv.plan
    regs = plan.source_registers
    out: list[str] = []
    tables: list[str] = []
    addresses: dict[tuple[int, ...], str] = {}

    def var(name: str) -> str:
        if name.startswith("s") and "_" in name:
            f, r = name[1:].split("_")
            return f"s[{int(f) * regs + int(r)}]"
        return name

    def lanes(table: tuple[int, ...]) -> str:
        if table not in addresses:
            name = f"at{len(addresses)}"
            expr = _lane_expr(table, f"{name}_table", tables)
            out.append(f"    const unsigned int {name} = {expr};")
            addresses[table] = name
        return addresses[table]

    for op in plan.ops:
        if op.op == "sync":
            if op is not plan.ops[-1]:
                out.append("    MC_WAVE_SYNC();")
            continue
        out += _op_lines(op, plan, var, lanes)
    return out, tables


def words_function(conv: Conversion, name: str = "mc_convert") -> str:
    """The plain-C function of the program (also compiled by the host harness)."""
    plan = conv.plan
    lds = plan.route == "lds"
    body, tables = _statements(conv)
    src_words = plan.source_fragments * plan.source_registers
    dst_words = plan.fragments * plan.registers
    extra = ", void* lds" if lds else ""
    lines = [f"/* {conv.source_matrix} of {conv.source.name} ({plan.source_fragments} "
             f"fragment(s)) -> {conv.destination_matrix} of {conv.destination.name} "
             f"({plan.fragments}), wave {plan.wave}: {conv.kind}, {plan.total} instructions "
             f"({'LDS round trip' if lds else 'registers'}). */"]
    if lds:
        lines.append(f"#define {name.upper()}_LDS_BYTES {plan.lds_bytes}  "
                     "/* LDS bytes per wave */")
    lines += [f"MC_FN void {name}_words(const unsigned int s[{src_words}], "
              f"unsigned int d[{dst_words}]{extra}) {{",
              "    const int lane = MC_LANE();  /* the lane within the wavefront */",
              "    (void)lane; (void)s;"]
    lines += tables + body + ["}"]
    return "\n".join(lines)


def _vector(conv: Conversion, matrix: str, inst: Instruction) -> CType:
    return operand_type(inst, matrix, conv.wave)


def wrapper(conv: Conversion, name: str = "mc_convert") -> str:
    """The HIP function on the builtins' operand types."""
    plan = conv.plan
    lds = plan.route == "lds"
    src = _vector(conv, conv.source_matrix, conv.source)
    dst = _vector(conv, conv.destination_matrix, conv.destination)
    typedefs = [t.typedef() for t in dict.fromkeys((src, dst)) if t.length > 1]
    src_words = plan.source_fragments * plan.source_registers
    dst_words = plan.fragments * plan.registers
    extra = ", unsigned char* lds" if lds else ""
    doc = ("/* Converts the calling wave's source fragments src[0..] into the destination "
           "fragments dst[0..]"
           + (f"; lds: this wave's own {plan.lds_bytes} bytes of __shared__ memory" if lds
              else "") + ". */")
    return "\n".join(["#if defined(__HIP__)"] + typedefs + [
        doc,
        f"__device__ inline void {name}(const {src.name} src[{plan.source_fragments}], "
        f"{dst.name} dst[{plan.fragments}]{extra}) {{",
        f"    _Static_assert(sizeof({src.name}) * {plan.source_fragments} == "
        f"4 * {src_words}, \"source words\");",
        # (an f8f6f4 operand's vector has room for 8-bit data; fp6/fp4 fill its start)
        f"    _Static_assert(sizeof({dst.name}) >= 4 * {plan.registers}, "
        "\"destination words\");",
        f"    unsigned int s[{src_words}], d[{dst_words}];",
        "    __builtin_memcpy(s, src, sizeof s);",
        f"    {name}_words(s, d{', lds' if lds else ''});",
        f"    for (int f = 0; f < {plan.fragments}; f++) {{",
        "        __builtin_memset(&dst[f], 0, sizeof dst[f]);",
        f"        __builtin_memcpy(&dst[f], d + f * {plan.registers}, {4 * plan.registers});",
        "    }",
        "}", "#endif"])


def conversion_name(conv: Conversion) -> str:
    """mc_convert_<source>_<matrix>_to_<destination>_<matrix>[_t]_w<wave>_<route>: every
    plan that differs in code differs in name (any number share one file)."""
    parts = ["mc_convert", _ident(conv.source), conv.source_matrix.lower(), "to",
             _ident(conv.destination), conv.destination_matrix.lower()]
    if conv.transposed:
        parts.append("t")
    return "_".join([*parts, f"w{conv.wave}", conv.route])


def _ident(inst: Instruction) -> str:
    """An instruction's part of a function name: its mnemonic without v_ (AMD's), or
    its architecture and spelling with the dots made underscores (a port's source)."""
    if inst.mnemonic.startswith("v_"):
        return inst.mnemonic[2:]
    return "".join(c if c.isalnum() else "_" for c in f"{inst.arch.lower()}_{inst.mnemonic}")


def emit_conversion(conv: Conversion, name: str | None = None) -> str:
    """The whole HIP text of a conversion: preludes, the word function, the wrapper
    (named by conversion_name, guarded: the same plan twice in a file is defined once)."""
    name = name or conversion_name(conv)
    guard = f"{name.upper()}_DEFINED"
    return "\n".join([PRELUDE, CONVERT_PRELUDE, f"#ifndef {guard}", f"#define {guard}",
                      words_function(conv, name), wrapper(conv, name),
                      f"#endif  /* {guard} */"]) + "\n"
