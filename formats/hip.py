"""HIP code for kernel writers: fragment loads/stores and the builtin call of an
instruction, derived from the layout engine's digits (layouts.fragment).

`emit(inst, matrix, mods, wave, options)` with a matrix gives a `__device__` function
that loads (A, B, C, K, SA, SB) or stores (D) the calling lane's fragment from or to a
tile in memory; without one, a `__global__` wave-level example: every load, the
builtin call with the chosen modifiers, and the store of D.

The index arithmetic is plain C (`index_functions`): one offset function per operand,
`offset(lane, v, ld)`, whose terms are the layout's digits (one per digit, simplified by
formats.cexpr), and `bit(v)`, where value v sits in the lane's VGPRs. The tests compile
exactly these functions with the host C compiler and compare every lane's every value
with the engine. Values are packed into 32-bit words at their bit offsets, so sub-dword
values, fp6 straddling two VGPRs and 64-bit pairs need no special case beyond the word
arithmetic.

Memory convention: a tile is row-major (`order="row"`: element (r, c) at r*ld + c) or
column-major (c*ld + r); the blocks of a multi-block operand follow each other (block b
starts at b * rows * ld, row-major; b * cols * ld, column-major). Sub-byte values (fp4,
iu4, fp6, the 4-bit sparse indices) are packed densely: element e occupies bits
[e*bits, (e+1)*bits) of the byte string, low bits first. Sparse A is the compressed
M x K/2 matrix (the two kept values of every group of four K), K the M x K/4 matrix of
4-bit index codes, SA the M x K/32 and SB the K/32 x N E8M0 scales.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from layouts.core import BIT, BLOCK, COL, COPY, LANE, ROW, CalcError
from layouts.fragment import Digit, Fragment, fragment
from layouts.modifiers import Modifiers

from .cexpr import Term, render, simplify


class Options(NamedTuple):
    """ld: a fixed leading dimension (None: a run-time `ld` parameter); order: "row" or
    "col"; lds: the tile is in LDS (__shared__) rather than global memory; prefix: name
    prefix of the emitted functions."""
    ld: int | None = None
    order: str = "row"
    lds: bool = False
    prefix: str = "mc"


DEFAULT = Options()
ORDERS = ("row", "col")
LOWER = {"A": "a", "B": "b", "C": "c", "D": "d", "K": "k", "SA": "sa", "SB": "sb"}

# ---- the operand (checked like every query) and its fragment


def _resolve(inst: Any, matrix: str | None, mods: Any, wave: int) -> tuple[Any, Any]:
    """(instruction with f8f6f4 formats applied, Modifiers), checked."""
    import matrix_api
    waves = matrix_api.architecture_of(inst).waves
    if wave not in waves:
        raise CalcError(f"wave size {wave} is not available on {inst.arch}; use "
                        + " or ".join(map(str, waves)))
    if matrix is not None and matrix not in LOWER:
        raise CalcError(f"unknown matrix {matrix!r}; {inst.name} has "
                        + ", ".join(matrix_api.matrices(inst)))
    mods = matrix_api.modifiers(mods)
    inst = matrix_api.with_formats(inst, mods)
    return inst, mods


def _fragment(inst: Any, matrix: str, mods: Any, wave: int) -> Fragment:
    """The fragment of the library's checked operand (D as with -o: it takes the inputs'
    modifiers)."""
    import matrix_api
    return fragment(matrix_api.operand(inst, matrix, mods=mods, wave=wave,
                                       output_calc=matrix == "D"))


# ---- index arithmetic (plain C)


def _digit_term(d: Digit, coef: int, symbol: str, lane_var: str) -> Term:
    var = lane_var if d.dest == LANE else "v"
    return Term(var, d.div, d.size, d.weight * coef, symbol)


def offset_terms(frag: Fragment, options: Options) -> list[Term]:
    """The element offset of (lane, v) in the tile: one term per digit."""
    rows, cols, _ = frag.shape
    ld_coef, ld_sym = 1, "ld" if options.ld is None else str(options.ld)
    outer, inner, extent = (ROW, COL, rows) if options.order == "row" else (COL, ROW, cols)
    scale = {outer: (ld_coef, ld_sym), inner: (1, ""), BLOCK: (extent * ld_coef, ld_sym)}
    lane_var = "src" if frag.lane_source == "rotate48" or frag.base_lane else "lane"
    terms = []
    for d in frag.digits:
        if d.coord == COPY:
            continue
        coef, sym = scale[d.coord]
        terms.append(_digit_term(d, coef, sym, lane_var))
    return simplify(terms, {"lane": frag.wave, "src": frag.wave, "v": frag.values})


def bit_terms(frag: Fragment) -> list[Term]:
    terms = [Term("v", d.div, d.size, d.stride) for d in frag.digits if d.dest == BIT]
    if frag.base_bit:
        terms.append(Term("const", 1, None, frag.base_bit))
    return simplify(terms, {"v": frag.values})


def _guards(frag: Fragment) -> list[str]:
    """C conditions under which the lane's value v is loaded (empty: always)."""
    out = []
    if frag.lanes < frag.wave and not any(d.coord == COPY for d in frag.lane_digits):
        if frag.base_lane:
            out.append(f"lane >= {frag.base_lane}")
        if frag.base_lane + frag.lanes < frag.wave:
            out.append(f"lane < {frag.base_lane + frag.lanes}")
    if frag.guard is not None:
        what, modulus, value = frag.guard[0], frag.guard[1], frag.guard[2]
        if what == "block":
            terms = [_digit_term(d, 1, "", "lane") for d in frag.digits if d.coord == BLOCK]
            expr = render(simplify(terms, {"lane": frag.wave, "v": frag.values}))
            out.append(f"({expr}) % {modulus} == {value}")
        else:
            expr = render(simplify([Term("lane", modulus, 64 // modulus, 1)],
                                   {"lane": frag.wave}))
            out.append(f"{expr} == {value}")
    return out


def index_functions(frag: Fragment, options: Options, name: str) -> str:
    """Plain C (and HIP, through MC_FN): `<name>_offset(lane, v[, ld])` is the tile offset
    of the lane's value v (-1: the lane loads nothing there); `<name>_bit(v)` its bit in
    the lane's VGPRs. Used by the emitted HIP and compiled by the tests' harness."""
    ld_param = ", int ld" if options.ld is None else ""
    lines = [f"MC_FN int {name}_offset(int lane, int v{ld_param}) {{"]
    guards = _guards(frag)
    if guards:
        lines.append(f"    if (!({' && '.join(guards)})) return -1;")
    if frag.lane_source == "rotate48":
        lines.append("    const int src = (lane + 48) % 64;  /* BLGP 3: lane L feeds lane "
                     "(L + 16) % 64 */")
    elif frag.base_lane:
        lines.append(f"    const int src = lane - {frag.base_lane};  /* the values sit in "
                     f"lanes {frag.base_lane}-{frag.base_lane + frag.lanes - 1} */")
    used_lane = any(d.dest == LANE for d in frag.digits) or guards or frag.lane_source
    used_v = frag.values > 1
    body = render(offset_terms(frag, options))
    if not used_lane:
        lines.append("    (void)lane;")
    if not used_v:
        lines.append("    (void)v;")
    if options.ld is None and "ld" not in body:
        lines.append("    (void)ld;")
    lines.append(f"    return {body};")
    lines.append("}")
    bit = render(bit_terms(frag))
    lines.append(f"MC_FN int {name}_bit(int v) {{ {'(void)v; ' if 'v' not in bit else ''}"
                 f"return {bit}; }}")
    return "\n".join(lines)


# ---- types


FLOAT_TYPES = {"f32": "float", "xf32": "float", "f64": "double", "f16": "_Float16"}
RAW = {8: "unsigned char", 16: "unsigned short", 32: "unsigned int",
       64: "unsigned long long"}


class CType(NamedTuple):
    element: str   # C element type
    length: int    # 1: a scalar

    @property
    def name(self) -> str:
        if self.length == 1:
            return self.element
        short = {"float": "f32", "double": "f64", "_Float16": "f16", "__bf16": "bf16",
                 "short": "i16", "int": "i32", "long": "i64"}[self.element]
        return f"mc_{short}x{self.length}"

    def typedef(self) -> str:
        return (f"typedef {self.element} {self.name} "
                f"__attribute__((ext_vector_type({self.length})));")


def _bf16_element(inst: Any) -> str:
    """clang declares the 128-bit bf16 A operands (gfx950's new MFMA/SMFMAC) with
    __bf16 elements, every other older bf16 operand with short; WMMA families say."""
    if _wmma(inst):
        return _builtins(inst).bf16
    return "__bf16" if _register_bits(inst, "A") >= 128 else "short"


def _register_bits(inst: Any, matrix: str, wave: int = 64) -> int:
    from layouts import operand
    return 32 * int(operand(inst, matrix, Modifiers(), wave).register_count)


def operand_type(inst: Any, matrix: str, wave: int) -> CType:
    """The C type of the builtin's argument (or result) for `matrix`."""
    if matrix in ("K", "SA", "SB"):
        if _wmma(inst) and _builtins(inst).operand_modifiers:
            return CType("long" if _register_bits(inst, matrix, wave) > 32 else "int", 1)
        return CType("short" if _wmma(inst) else "int", 1)
    total = _register_bits(inst, matrix, wave)
    if matrix in ("C", "D"):
        dtype = inst.c_type if matrix == "C" else inst.out_type
        key, bits = dtype.key, dtype.bits
    else:
        dtype = inst.a_type if matrix == "A" else inst.b_type
        key, bits = dtype.key, dtype.bits
        if inst.f8f6f4:  # one vector for every format: the widest (8-bit) one's
            rows, cols, blocks = _fragment(inst, matrix, Modifiers(), wave).shape
            return CType("int", rows * cols * blocks * 8 // (32 * wave))
    if key in FLOAT_TYPES:
        return CType(FLOAT_TYPES[key], max(1, total // bits))
    if key == "bf16":
        return CType(_bf16_element(inst), total // 16)
    if key == "i32":
        return CType("int", total // 32)
    if total == 64 and inst.kind == "mfma":
        return CType("long", 1)
    return CType("int", total // 32)


class WmmaBuiltins(NamedTuple):
    """How clang spells the WMMA/SWMMAC builtins of one layout family (checked against
    clang-22 by scripts/check_hip.py)."""
    suffix: str            # after _w32/_w64 on WMMA builtins
    opsel_argument: bool   # 16-bit-output WMMAs take OPSEL (the C/D half) as an argument
    wave_suffix: bool = True  # the names end in _w32/_w64 (then `suffix`)
    # The modifiers are arguments: a negation (16/32-bit floats), signedness (integers) or
    # format code before A and B, a C modifier (bit 0 negates, bit 1 takes |C|), the
    # scales' lane-half select and format before each scale, the two reuse hints last.
    operand_modifiers: bool = False
    bf16: str = "short"    # element type of bf16 vectors
    index_bits: int = 16   # bits of the sparse-index argument
    index_keys: int = 1    # index_key values, each a slice of the index argument's bits
    missing: tuple[str, ...] = ()  # A types clang has no builtin for


WMMA_BUILTINS = {
    "rdna3": WmmaBuiltins("", True),
    "rdna4": WmmaBuiltins("_gfx12", False),
    # clang-22: no index_key argument; it selects index_key:1 when the index argument
    # is the index VGPR's high 16 bits (K >> 16). Its 8-bit SWMMACs take a 32-bit index
    # for their 64-bit one, and it has no f64 WMMA builtin (gfx1251).
    "gfx1250": WmmaBuiltins("", False, wave_suffix=False, operand_modifiers=True,
                            bf16="__bf16", index_bits=32, index_keys=2, missing=("f64",)),
}


def _builtins(inst: Any) -> WmmaBuiltins:
    return WMMA_BUILTINS[inst.family]


def _wmma(inst: Any) -> bool:
    """WMMA and SWMMAC (wave32/wave64 builtins) rather than MFMA and SMFMAC."""
    return inst.kind in ("wmma", "swmmac")


def builtin_name(inst: Any, wave: int) -> str:
    """The clang builtin of `inst` (checked against clang-22 by scripts/check_hip.py)."""
    if _wmma(inst):
        if not _builtins(inst).wave_suffix:
            return f"__builtin_amdgcn_{inst.mnemonic[2:]}"
        generation = _builtins(inst).suffix if inst.kind == "wmma" else ""
        return f"__builtin_amdgcn_{inst.mnemonic[2:]}_w{wave}{generation}"
    if inst.f8f6f4:
        return f"__builtin_amdgcn_mfma_scale_f32_{inst.m}x{inst.n}x{inst.k}_f8f6f4"
    return f"__builtin_amdgcn_{_older_spelling(inst)[2:]}"


def _older_spelling(inst: Any) -> str:
    """clang names an MFMA by its first mnemonic: the one of the earliest architecture of
    its family (in registry order) with the same shape and types (CDNA3's
    v_mfma_f32_32x32x1_2b_f32 -> mfma_f32_32x32x1f32, ..._32x32x8_bf16 -> ..._1k)."""
    if inst.kind != "mfma":
        return str(inst.mnemonic)
    from instructions import ARCHITECTURES
    def key(one: Any) -> tuple[Any, ...]:
        return (one.kind, one.m, one.n, one.k, one.blocks, one.a_type.key, one.b_type.key,
                one.out_type.key)
    for arch in ARCHITECTURES:
        if arch.family != inst.family:
            continue
        for old in arch.instructions:
            if key(old) == key(inst):
                return str(old.mnemonic)
    return str(inst.mnemonic)


# ---- HIP text

PRELUDE = """\
// Generated by matrix_calculator.py --emit hip. Lane contract: every function computes
// lane = threadIdx.x % <wavefront size>, the lane within the wavefront (never
// threadIdx.x itself), so the code is correct for any block size: each wavefront of
// the block loads and stores its own tile through the pointers it is given.
#if defined(__HIP__) && __has_include(<hip/hip_runtime.h>)
#include <hip/hip_runtime.h>
#define MC_THREAD_X threadIdx.x
#define MC_SYNC() __syncthreads()
#elif defined(__HIP__)  /* no ROCm headers (-nogpuinc): declare what is used */
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define MC_THREAD_X __builtin_amdgcn_workitem_id_x()
#define MC_SYNC() (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"), \\
                   __builtin_amdgcn_s_barrier(), \\
                   __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"))
#endif
#ifndef MC_FN
#if defined(__HIP__)
#define MC_FN static inline __device__
#else
#define MC_FN static inline
#endif
#endif
#ifndef MC_BITS
#define MC_BITS
/* Bits [e*n, (e+1)*n) of a densely packed byte string (sub-byte formats). */
MC_FN unsigned int mc_bits(const unsigned char* p, long e, int n) {
    const long bit = e * n;
    unsigned int x = p[bit / 8];
    if (bit % 8 + n > 8) x |= (unsigned int)p[bit / 8 + 1] << 8;
    return (x >> (bit % 8)) & ((1u << n) - 1u);
}
#endif
"""


def _memory_type(inst: Any, matrix: str, bits: int) -> str:
    """The element type of the tile pointer."""
    if bits < 8:
        return "unsigned char"
    if matrix in ("A", "B"):
        key = (inst.a_type if matrix == "A" else inst.b_type).key
    elif matrix in ("C", "D"):
        key = (inst.c_type if matrix == "C" else inst.out_type).key
    else:
        key = ""
    if key in FLOAT_TYPES:
        return FLOAT_TYPES[key]
    if key == "i32":
        return "int"
    return RAW[bits]


def _describe(inst: Any, frag: Fragment, options: Options) -> str:
    rows, cols, blocks = frag.shape
    what = {"A": "A", "B": "B", "C": "C", "D": "D", "K": "compression indices K",
            "SA": "A scales SA", "SB": "B scales SB"}[frag.matrix]
    order = "row-major" if options.order == "row" else "column-major"
    ld = "ld" if options.ld is None else str(options.ld)
    place = "LDS (__shared__)" if options.lds else "global memory"
    tile = f"{rows} x {cols}" + (f" x {blocks} blocks" if blocks > 1 else "")
    return (f"{what} of {inst.name} (wave{frag.wave}): {tile} tile in {place}, {order}, "
            f"leading dimension {ld}; {frag.values} value(s) of {frag.bits} bits per lane")


def _words(frag: Fragment, ctype: CType) -> int:
    size = {"double": 8, "long": 8, "float": 4, "int": 4, "_Float16": 2, "short": 2,
            "__bf16": 2}[ctype.element] * ctype.length
    return max(frag.registers, (size + 3) // 4)


def _ld_check(frag: Fragment, options: Options) -> None:
    rows, cols, _ = frag.shape
    inner = cols if options.order == "row" else rows
    if options.ld is not None and options.ld < inner:
        raise CalcError(f"--ld {options.ld} is too small for the {rows} x {cols} "
                        f"{frag.matrix} tile stored {options.order}-major: use --ld {inner} "
                        "or more")


def word_functions(frag: Fragment, options: Options, name: str) -> str:
    """Plain C, after index_functions: `<name>_gather(tile[, ld], lane, w)` ORs the lane's
    values from the tile into its VGPR words w[] (zeroed by the caller);
    `<name>_scatter(tile[, ld], lane, w)` writes them back (D). Compiled by the tests."""
    ld_param = ", int ld" if options.ld is None else ""
    ld_arg = ", ld" if options.ld is None else ""
    raw_t = "unsigned char" if frag.bits < 8 else RAW[frag.bits]
    loop = [f"    for (int v = 0; v < {frag.values}; ++v) {{",
            f"        const int at = {name}_offset(lane, v{ld_arg});"]
    if _guards(frag):
        loop.append("        if (at < 0) continue;  // a lane the hardware does not read")
    loop.append(f"        const int b = {name}_bit(v);")
    lines = [f"MC_FN void {name}_gather(const void* tile{ld_param}, int lane, unsigned int* w) {{",
             f"    const {raw_t}* raw = (const {raw_t}*)tile;"] + loop
    if frag.bits < 8:
        lines.append(f"        const unsigned int x = mc_bits(raw, at, {frag.bits});")
    elif frag.bits == 64:
        lines += ["        const unsigned long long x = raw[at];",
                  "        w[b / 32] = (unsigned int)x;",
                  "        w[b / 32 + 1] = (unsigned int)(x >> 32);  // a 64-bit pair"]
    else:
        lines.append("        const unsigned int x = raw[at];")
    if frag.bits != 64:
        lines.append("        w[b / 32] |= x << (b % 32);")
        if 32 % frag.bits:
            lines.append(f"        if (b % 32 > {32 - frag.bits}) w[b / 32 + 1] |= "
                         "x >> (32 - b % 32);  // straddles two VGPRs")
    lines += ["    }", "}"]
    if frag.matrix not in ("C", "D"):
        return "\n".join(lines)
    gather = lines
    lines = [f"MC_FN void {name}_scatter(void* tile{ld_param}, int lane, const unsigned int* w) {{",
             f"    {raw_t}* raw = ({raw_t}*)tile;"] + loop
    if frag.bits == 64:
        lines.append("        raw[at] = w[b / 32] | (unsigned long long)w[b / 32 + 1] << 32;")
    elif frag.bits == 32:
        lines.append("        raw[at] = w[b / 32];")
    else:
        lines.append(f"        raw[at] = ({raw_t})(w[b / 32] >> (b % 32));")
    lines += ["    }", "}"]
    return "\n".join(gather + lines)


def device_function(inst: Any, frag: Fragment, options: Options, ctype: CType) -> str:
    """The index and word functions of one operand and its __device__ load (for D: store)."""
    _ld_check(frag, options)
    name = f"{options.prefix}_{LOWER[frag.matrix]}"
    mem = _memory_type(inst, frag.matrix, frag.bits)
    ld_param = ", int ld" if options.ld is None else ""
    ld_arg = ", ld" if options.ld is None else ""
    words = _words(frag, ctype)
    lines = [f"/* {_describe(inst, frag, options)} */", index_functions(frag, options, name),
             word_functions(frag, options, name)]
    lane = (f"    const int lane = MC_THREAD_X % {frag.wave};  "
            "// the lane within the wavefront")
    space = "LDS" if options.lds else "global"
    if frag.matrix in ("C", "D"):  # C and D share a layout: both directions
        lines += [(f"/* Stores the calling lane's {frag.matrix} fragment to the tile "
                  f"({space} memory). */"),
                  (f"__device__ inline void {name}_store({mem}* tile{ld_param}, "
                  f"{ctype.name} frag) {{"), lane,
                  f"    unsigned int w[{words}];",
                  "    __builtin_memcpy(w, &frag, sizeof w);",
                  f"    {name}_scatter(tile{ld_arg}, lane, w);", "}"]
    lines += [f"/* Loads the calling lane's fragment from the tile ({space} memory). */",
              f"__device__ inline {ctype.name} {name}_load(const {mem}* tile{ld_param}) {{",
              lane, f"    unsigned int w[{words}] = {{}};",
              f"    {name}_gather(tile{ld_arg}, lane, w);",
              f"    {ctype.name} frag;",
              "    __builtin_memcpy(&frag, w, sizeof frag);", "    return frag;", "}"]
    return "\n".join(lines)


def _typedefs(types: list[CType]) -> list[str]:
    seen: list[str] = []
    for t in types:
        if t.length > 1 and t.typedef() not in seen:
            seen.append(t.typedef())
    return seen


def emit_parts(inst: Any, matrix: str | None, mods: Any, wave: int,
               options: Options = DEFAULT) -> tuple[str, str]:
    """(prelude, body) of the emitted HIP; files with many instructions share one
    prelude and give each body its own options.prefix (scripts/check_hip.py)."""
    if options.order not in ORDERS:
        raise CalcError(f"unknown storage order {options.order!r}: use row or col")
    inst, mods = _resolve(inst, matrix, mods, wave)
    if matrix is not None:
        frag = _fragment(inst, matrix, mods, wave)
        ctype = operand_type(inst, matrix, wave)
        body = "\n".join(_typedefs([ctype]) + [device_function(inst, frag, options, ctype)])
        return PRELUDE, body + "\n"
    _check_builtin(inst, wave)
    return PRELUDE, _example(inst, mods, wave, options) + "\n"


def _check_builtin(inst: Any, wave: int) -> None:
    """Raise CalcError where clang has no builtin call that does what the layout says."""
    if not _wmma(inst):
        return
    advice = "; emit one matrix (-A, -B, -C, -D, ...) for its fragment loads and stores"
    builtins = WMMA_BUILTINS.get(inst.family)
    if builtins is None:
        raise CalcError(f"--emit hip has no wave-level example for {inst.name} ({inst.arch}) "
                        "yet: its builtin's operands are not charted" + advice)
    if inst.a_type.key in builtins.missing:
        raise CalcError(f"--emit hip has no wave-level example for {inst.name} ({inst.arch}): "
                        f"clang 22 has no builtin for {inst.a_type.key} WMMAs" + advice)
    if inst.sparse and builtins.operand_modifiers:
        bits = _register_bits(inst, "K", wave)
        if bits > builtins.index_bits:
            raise CalcError(f"--emit hip has no wave-level example for {inst.name} "
                            f"({inst.arch}): the instruction reads a {bits}-bit sparse "
                            f"index, but clang 22's {builtin_name(inst, wave)} takes a "
                            f"{builtins.index_bits}-bit one (later clang takes {bits} bits)"
                            + advice)


def emit(inst: Any, matrix: str | None, mods: Any, wave: int,
         options: Options = DEFAULT) -> str:
    """HIP source: with `matrix` ("A", "B", "C", "D", "K", "SA", "SB") its index, gather
    and scatter functions and the __device__ load (C, D: and store) of the calling
    lane's fragment; with None the __global__ wave-level example of the instruction.
    `mods`: Modifiers, a mapping or None. Raises CalcError for what does not apply."""
    prelude, body = emit_parts(inst, matrix, mods, wave, options)
    return prelude + "\n" + body


# ---- the wave-level example


def _operands(inst: Any) -> list[str]:
    import matrix_api
    return list(matrix_api.matrices(inst))


def _negations(inst: Any, matrix: str, mods: Any, frag: Fragment, ctype: CType,
               name: str) -> list[str]:
    """Negations the builtin has no argument for, done on the values: RDNA float
    NEG/NEG_HI negate the low / high 16-bit halves of A or B, NEG[2] / NEG_HI[2] negate
    C / take its absolute value (the compiler folds whole-operand negations into the
    instruction's neg_lo/neg_hi bits); where the modifiers are arguments, only one half
    of 16-bit A or B values (neg_lo without neg_hi, or the reverse) is left to do."""
    if not _wmma(inst) or inst.is_int:
        return []
    bit = {"A": 1, "B": 2}.get(matrix, 0)
    if _builtins(inst).operand_modifiers:
        low, high = bool(mods.neg_lo & bit), bool(mods.neg_hi & bit)
        if low == high or frag.bits != 16:
            return []  # an argument (whole values), or 32-bit values (neg_hi not used)
        return _half_negation(LOWER[matrix], frag, ctype, name, low, high)
    if not inst.neg:
        return []
    var = LOWER[matrix]
    if matrix in ("A", "B"):
        low, high = bool(mods.neg & bit), bool(mods.neg_hi & bit)
        if not (low or high):
            return []
        if low and high and ctype.element != "short":
            return [f"    {var} = -{var};  // NEG and NEG_HI: every value"]
        return _half_negation(var, frag, ctype, name, low, high)
    out = []
    if matrix == "C":
        bf16 = ctype.element == "short"  # bf16 bit patterns: the sign is bit 15
        if mods.neg_hi & 4:
            out.append(f"    {var} = {var} & (short)0x7fff;  // NEG_HI[2]: |C|" if bf16 else
                       f"    {var} = __builtin_elementwise_abs({var});  // NEG_HI[2]: |C|")
        if mods.neg & 4:
            out.append(f"    {var} = {var} ^ (short)0x8000;  // NEG[2]: -C" if bf16 else
                       f"    {var} = -{var};  // NEG[2]: -C")
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


def _modifier_arguments(inst: Any, mods: Any, wave: int, args: dict[str, str]) -> str:
    """The argument list where the modifiers are arguments (WmmaBuiltins.operand_modifiers):
    [A's flag or format,] A, [B's flag or format,] B, [C modifier,] C[, index]
    [, scale select, scale format, scale (A, then B)][, reuse A, reuse B]."""
    def flag(on: int) -> str:
        return "true" if on else "false"
    a, b, c = args["A"], args["B"], args.get("C", "acc")
    fields = inst.format_fields
    if inst.is_int:  # neg_lo[0/1]: A/B signed
        before = [flag(mods.neg_lo & 1)], [flag(mods.neg_lo & 2)]
    elif fields:
        before = [str(getattr(mods, fields[0]))], [str(getattr(mods, fields[1]))]
    elif inst.a_type.bits >= 16:  # whole values (16-bit: both halves; 32-bit: neg_lo)
        whole = [mods.neg_lo & bit and (mods.neg_hi & bit or inst.a_type.bits > 16)
                 for bit in (1, 2)]
        before = [flag(whole[0])], [flag(whole[1])]
    else:
        before = [], []
    out = before[0] + [a] + before[1] + [b]
    if inst.sparse:
        builtins = _builtins(inst)
        shift = mods.index_key * builtins.index_bits // builtins.index_keys
        k = args["K"]
        out += [c, f"(int)((unsigned int){k} >> {shift})" if shift else k]
    elif inst.is_int:
        out.append(c)
    else:
        c_mod = (mods.neg_lo >> 2 & 1) | (mods.neg_hi >> 2 & 1) << 1
        out += [f"(short){c_mod}", c]
    if inst.scaled:
        out += [str(mods.matrix_a_scale), str(mods.matrix_a_scale_fmt), args["SA"],
                str(mods.matrix_b_scale), str(mods.matrix_b_scale_fmt), args["SB"]]
    if inst.takes("matrix_a_reuse"):
        out += [flag(mods.matrix_a_reuse), flag(mods.matrix_b_reuse)]
    return ", ".join(out)


def call_arguments(inst: Any, mods: Any, wave: int, args: dict[str, str]) -> str:
    """The builtin's argument list: operands and modifier immediates, in clang's order."""
    a, b, c = args["A"], args["B"], args.get("C", "acc")
    if _wmma(inst) and _builtins(inst).operand_modifiers:
        return _modifier_arguments(inst, mods, wave, args)
    if _wmma(inst):
        idx = []
        if inst.sparse:
            from layouts.rdna import index_bits_per_lane
            shift = mods.opsel * index_bits_per_lane(inst, wave)
            idx = [f"(short)({args['K']} >> {shift})" if shift else f"(short){args['K']}"]
        if inst.is_int:
            signed_a, signed_b = ("true" if mods.neg & 1 else "false",
                                  "true" if mods.neg & 2 else "false")
            return ", ".join([signed_a, a, signed_b, b, c] + idx + ["false"])
        opsel = ["true" if mods.opsel else "false"] if (
            _builtins(inst).opsel_argument and inst.out_type.bits == 16) else []
        return ", ".join([a, b, c] + idx + opsel)
    if inst.f8f6f4:
        if inst.scaled:
            scales = [str(mods.opsel_a), args["SA"], str(mods.opsel_b), args["SB"]]
        else:
            scales = ["0", "0", "0", "0"]
        return ", ".join([a, b, c, str(mods.cbsz), str(mods.blgp)] + scales)
    if inst.sparse:
        return ", ".join([a, b, c, args["K"], str(mods.cbsz), str(mods.abid)])
    return ", ".join([a, b, c, str(mods.cbsz), str(mods.abid), str(mods.blgp)])


def _example(inst: Any, mods: Any, wave: int, options: Options) -> str:
    """The __global__ wave-level example: loads, the builtin call, the store of D. With
    options.lds the tiles (dense: leading dimension options.ld or the tile's width) are
    first copied to LDS by the wavefront and the fragments loaded from there."""
    _check_example(inst, mods, wave)
    prefix = options.prefix
    types: list[CType] = []
    parts: list[str] = []
    params: list[str] = []
    stage: list[str] = []
    body: list[str] = []
    args = {}
    for matrix in _operands(inst):
        var = LOWER[matrix]
        frag = _fragment(inst, matrix, _for_operand(inst, matrix, mods), wave)
        mine = options
        if options.lds and options.ld is None:
            rows, cols, _ = frag.shape
            mine = options._replace(ld=cols if options.order == "row" else rows)
        ctype = operand_type(inst, matrix, wave)
        types.append(ctype)
        parts.append(device_function(inst, frag, mine, ctype))
        mem = _memory_type(inst, matrix, frag.bits)
        params.append(f"{'' if matrix == 'D' else 'const '}{mem}* {var}_tile")
        ld = ""
        if mine.ld is None:
            params.append(f"int ld{var}")
            ld = f", ld{var}"
        src = f"{var}_tile"
        if options.lds and matrix != "D":
            count = _tile_elements(frag, mine)
            if frag.bits < 8:
                count, mem = -(-count * frag.bits // 8), "unsigned char"
            stage += [f"    __shared__ {mem} {var}_lds[{count}];",
                      (f"    for (int e = lane; e < {count}; e += {wave}) "
                      f"{var}_lds[e] = {src}[e];")]
            src = f"{var}_lds"
        if matrix == "D":
            d_ld = ld
            continue
        body.append(f"    {ctype.name} {var} = {prefix}_{var}_load({src}{ld});")
        body += _negations(inst, matrix, mods, frag, ctype, f"{prefix}_{var}")
        args[matrix] = var
    d_type = operand_type(inst, "D", wave)
    if inst.sparse:
        body.append(f"    {d_type.name} acc = {{}};  // the accumulator (D's layout) "
                    "starts at zero")
    call = f"{builtin_name(inst, wave)}({call_arguments(inst, mods, wave, args)})"
    kernel = f"{prefix}_{inst.mnemonic[2:]}_w{wave}"
    lines = _typedefs(types) + parts
    lines += [(f"/* One {inst.name} per wavefront (wave{wave}): load the fragments, "
              "multiply, store D. */"),
              f"extern \"C\" __global__ void {kernel}({', '.join(params)}) {{"]
    if stage:
        lines += [(f"    const int lane = MC_THREAD_X % {wave};  // the lane within the "
                  "wavefront"),
                  "    // Stage the tiles in LDS (one wavefront per block in this example)."]
        lines += stage + ["    MC_SYNC();"]
    lines += body
    lines += [f"    {d_type.name} d = {call};", f"    {prefix}_d_store(d_tile{d_ld}, d);", "}"]
    return "\n".join(lines)


def _check_example(inst: Any, mods: Any, wave: int) -> None:
    """The modifiers must suit the instruction: as for D with -o (which takes the inputs'
    modifiers), or else as for one of its operands (RDNA4 SWMMAC's OPSEL picks K's
    index set); the error is D's."""
    from layouts import check_modifiers
    try:
        check_modifiers(inst, "D", mods, True, "get", wave)
    except CalcError:
        for matrix in _operands(inst):
            try:
                check_modifiers(inst, matrix, mods, False, "get", wave)
            except CalcError:
                continue
            return
        raise


def _tile_elements(frag: Fragment, options: Options) -> int:
    rows, cols, blocks = frag.shape
    ld = options.ld if options.ld is not None else (cols if options.order == "row" else rows)
    outer = rows if options.order == "row" else cols
    return blocks * outer * ld


def _for_operand(inst: Any, matrix: str, mods: Any) -> Any:
    """The modifiers that shape `matrix`'s layout (the example's D-level modifiers apply
    to every operand; each operand keeps the ones that concern it)."""
    keep = {"A": ("cbsz", "abid"), "B": ("blgp",), "K": ("cbsz", "abid", "opsel"),
            "C": ("opsel",), "D": ("opsel",), "SA": ("opsel_a", "matrix_a_scale"),
            "SB": ("opsel_b", "matrix_b_scale")}[matrix]
    if inst.f8f6f4:
        keep = inst.format_fields + tuple(k for k in keep if k.startswith(("opsel_", "matrix_")))
    values = {k: getattr(mods, k) for k in keep}
    if not _wmma(inst) and inst.out_type.bits == 64:
        values.pop("blgp", None)  # CDNA3 FP64: BLGP negates, the layout stays
    if _wmma(inst) and matrix in ("C", "D") and not _builtins(inst).opsel_argument:
        values.pop("opsel", None)  # (OPSEL selects C/D halves only where it is an argument)
    if _wmma(inst) and matrix == "K" and _builtins(inst).opsel_argument:
        values.pop("opsel", None)
    return Modifiers(**values)
