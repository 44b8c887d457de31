"""Fragment code: the index arithmetic of an operand and the loads and stores that move
a lane's values between a tile and its VGPR words.

`<name>_offset(lane, v, ld)` is the tile offset of the lane's value v (one term per
digit of the layout, simplified by formats.cexpr) and `<name>_bit(v)` its bit in the
lane's VGPRs. `<name>_gather` / `<name>_scatter` move the values: where the layout keeps
runs of values contiguous both in the tile and in the VGPRs (K-contiguous A and B,
M-contiguous C/D columns), whole runs move as 16-, 8- or 4-byte vector loads and stores
(`vector_plan`); the value-by-value loop is the fallback when the tile or `ld` lacks
the alignment the vector code assumes, and the only path where the data is scattered.
The tests compile these functions with the host C compiler and compare every lane's
every word with the engine.
"""

from __future__ import annotations

from math import gcd

from instructions.record import Record

from formats.cexpr import Term, render, simplify
from formats.hip.common import INT_MAX, LOWER, RAW, CType, Options, memory_type, words
from matrix_library.api import CalcError
from matrix_library.code import Digit, Fragment, bit_of, digit_value
from matrix_library.drawing import BIT, BLOCK, COL, COPY, LANE, ROW

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

# ---- index arithmetic (plain C)


def _digit_term(d: Digit, coef: int, symbol: str, lane_var: str) -> Term:
    var = lane_var if d.dest == LANE else "v"
    return Term(var, d.div, d.size, d.weight * coef, symbol)


def _scales(frag: Fragment, options: Options) -> dict[str, tuple[int, str]]:
    """Each coordinate's multiplier in the tile: (number, symbol)."""
    rows, cols, _ = frag.shape
    ld_sym = "ld" if options.ld is None else str(options.ld)
    outer, inner, extent = (ROW, COL, rows) if options.order == "row" else (COL, ROW, cols)
    return {outer: (1, ld_sym), inner: (1, ""), BLOCK: (extent, ld_sym)}


def offset_terms(frag: Fragment, options: Options) -> list[Term]:
    """The element offset of (lane, v) in the tile: one term per digit."""
    scale = _scales(frag, options)
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


def guards(frag: Fragment) -> list[str]:
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
    of the lane's value v (-1: the lane loads nothing there), 64-bit; `<name>_bit(v)` its
    bit in the lane's VGPRs. Used by the emitted HIP and compiled by the tests' harness."""
    ld_param = ", long ld" if options.ld is None else ""
    lines = [f"MC_FN long {name}_offset(int lane, int v{ld_param}) {{"]
    conditions = guards(frag)
    if conditions:
        lines.append(f"    if (!({' && '.join(conditions)})) return -1;")
    if frag.lane_source == "rotate48":
        lines.append("    const int src = (lane + 48) % 64;  /* BLGP 3: lane L feeds lane "
                     "(L + 16) % 64 */")
    elif frag.base_lane:
        lines.append(f"    const int src = lane - {frag.base_lane};  /* the values sit in "
                     f"lanes {frag.base_lane}-{frag.base_lane + frag.lanes - 1} */")
    used_lane = any(d.dest == LANE for d in frag.digits) or conditions or frag.lane_source
    terms = offset_terms(frag, options)
    if options.ld is not None:  # a fixed ld: the products are 64-bit too
        terms = [t._replace(symbol=f"{t.symbol}L") if t.symbol else t for t in terms]
    body = render(terms)
    if not used_lane:
        lines.append("    (void)lane;")
    if frag.values <= 1:
        lines.append("    (void)v;")
    if options.ld is None and "ld" not in body:
        lines.append("    (void)ld;")
    lines.append(f"    return {body};")
    lines.append("}")
    bit = render(bit_terms(frag))
    lines.append(f"MC_FN int {name}_bit(int v) {{ {'(void)v; ' if 'v' not in bit else ''}"
                 f"return {bit}; }}")
    return "\n".join(lines)


# ---- vector loads and stores


class Chunk(Record):
    """One vector move: `size` bytes starting `byte` bytes after the first byte of the
    lane's value v, into (or from) the lane's VGPR words from `word` on."""
    v: int
    byte: int
    size: int
    word: int


class VectorPlan(Record):
    """The vector moves of one lane (the same for every lane), the tile alignment they
    assume (bytes) and the multiple a run-time `ld` must be (1: any)."""
    chunks: tuple[Chunk, ...]
    align: int
    ld_multiple: int


_WIDTHS = (128, 64, 32)  # bits of dwordx4, dwordx2 and dword moves


def _coefficient(d: Digit, scale: dict[str, tuple[int, str]]) -> tuple[int, int]:
    """(numeric part, ld part) of the tile offset one unit of digit `d` adds."""
    coef, sym = scale[d.coord]
    amount = d.weight * coef
    if sym == "ld":
        return 0, amount
    return (amount * int(sym) if sym else amount), 0


def _runs(frag: Fragment, options: Options) -> tuple[list[list[int]], list[tuple[int, int]],
                                                     list[int]]:
    """(runs of values contiguous in the tile and in the VGPRs, each value's tile offset
    as (number, ld part), each value's bit)."""
    scale = _scales(frag, options)
    value_digits = [d for d in frag.digits if d.dest == BIT and d.coord != COPY]
    units = [(d, _coefficient(d, scale)) for d in value_digits]
    places = []
    for v in range(frag.values):
        digits = [(digit_value(d, 0, v), unit) for d, unit in units]
        places.append((sum(x * unit[0] for x, unit in digits),
                       sum(x * unit[1] for x, unit in digits)))
    blocks = [sum(digit_value(d, 0, v) * d.weight for d in value_digits if d.coord == BLOCK)
              for v in range(frag.values)]
    bits = [bit_of(frag, v) for v in range(frag.values)]
    runs: list[list[int]] = [[0]]
    for v in range(1, frag.values):
        last = runs[-1][-1]
        if places[v] == (places[last][0] + 1, places[last][1]) and \
                bits[v] == bits[last] + frag.bits and blocks[v] == blocks[last]:
            runs[-1].append(v)
        else:
            runs.append([v])
    return runs, places, bits


def _moves(v0: int, count: int, align: int, bit0: int, bits: int) -> list[Chunk] | None:
    """The widest aligned moves covering `count` values of `bits` bits from value v0,
    whose tile address is aligned to `align` bits and whose first bit in the VGPRs is
    bit0 (None: a part of the run cannot move as 4, 8 or 16 bytes)."""
    if bit0 % 32:
        return None
    total, pos, out = count * bits, 0, []
    while pos < total:
        here = gcd(align, pos) if pos else align
        width = next((w for w in _WIDTHS if w <= total - pos and here % w == 0), None)
        if width is None:
            return None
        out.append(Chunk(v0, pos // 8, width // 8, (bit0 + pos) // 32))
        pos += width
    return out


def vector_plan(frag: Fragment, options: Options) -> VectorPlan | None:
    """The vector moves that cover every value of the lane, or None when the layout has
    values that are not contiguous in both the tile and the VGPRs (or lack alignment)."""
    if frag.values < 2 and frag.bits < 32:
        return None
    scale = _scales(frag, options)
    lane_units = [_coefficient(d, scale) for d in frag.digits
                  if d.dest == LANE and d.coord != COPY]
    runs, places, bits = _runs(frag, options)
    chunks: list[Chunk] = []
    for run in runs:
        align = 128
        for number in [number for number, _ in lane_units] + [places[run[0]][0]]:
            align = gcd(align, number * frag.bits)
        moves = _moves(run[0], len(run), align, bits[run[0]], frag.bits)
        if moves is None:
            return None
        chunks += moves
    need = max(c.size for c in chunks) * 8
    common = 0
    for _, per_ld in lane_units + places:
        common = gcd(common, per_ld)
    multiple = need // gcd(need, frag.bits * common) if common and options.ld is None else 1
    return VectorPlan(tuple(chunks), need // 8, multiple)


def _vector_path(frag: Fragment, options: Options, name: str, plan: VectorPlan,
                 store: bool) -> list[str]:
    ld_arg = ", ld" if options.ld is None else ""
    condition = f"MC_ALIGNED(tile, {plan.align})"
    if plan.ld_multiple > 1:
        condition += f" && ld % {plan.ld_multiple} == 0"
    sizes = sorted({c.size for c in plan.chunks}, reverse=True)
    what = ", ".join(f"{sum(c.size == s for c in plan.chunks)} x {s} bytes" for s in sizes)
    const = "" if store else "const "
    lines = [f"    if ({condition}) {{  // vector path: {what} per lane",
             f"        {const}unsigned char* raw = ({const}unsigned char*)"
             f"__builtin_assume_aligned(tile, {plan.align});"]
    for v in sorted({c.v for c in plan.chunks}):
        lines.append(f"        const long at{v} = {name}_offset(lane, {v}{ld_arg});")
    for c in plan.chunks:
        at = f"at{c.v}"
        scaled = (at if frag.bits == 8 else f"{at} * {frag.bits // 8}" if frag.bits % 8 == 0
                  else f"{at} * {frag.bits} / 8")
        address = f"raw + {scaled}" + (f" + {c.byte}" if c.byte else "")
        move = (f"__builtin_memcpy({address}, w + {c.word}, {c.size})" if store else
                f"__builtin_memcpy(w + {c.word}, {address}, {c.size})")
        lines.append(f"        if ({at} >= 0) {move};" if guards(frag) else f"        {move};")
    lines += ["        return;", "    }"]
    return lines


def _scalar_gather(frag: Fragment) -> list[str]:
    """The value-by-value loop body of a gather (after the offset and bit)."""
    if frag.bits < 8:
        lines = [f"        const unsigned int x = mc_bits(raw, at, {frag.bits});"]
    elif frag.bits == 64:
        return ["        const unsigned long long x = raw[at];",
                "        w[b / 32] = (unsigned int)x;",
                "        w[b / 32 + 1] = (unsigned int)(x >> 32);  // a 64-bit pair"]
    else:
        lines = ["        const unsigned int x = raw[at];"]
    lines.append("        w[b / 32] |= x << (b % 32);")
    if 32 % frag.bits:
        lines.append(f"        if (b % 32 > {32 - frag.bits}) w[b / 32 + 1] |= "
                     "x >> (32 - b % 32);  // straddles two VGPRs")
    return lines


def _scalar_scatter(frag: Fragment, raw_t: str) -> list[str]:
    if frag.bits == 64:
        return ["        raw[at] = w[b / 32] | (unsigned long long)w[b / 32 + 1] << 32;"]
    if frag.bits == 32:
        return ["        raw[at] = w[b / 32];"]
    return [f"        raw[at] = ({raw_t})(w[b / 32] >> (b % 32));"]


def word_functions(frag: Fragment, options: Options, name: str) -> str:
    """Plain C, after index_functions: `<name>_gather(tile[, ld], lane, w)` ORs the lane's
    values from the tile into its VGPR words w[] (zeroed by the caller);
    `<name>_scatter(tile[, ld], lane, w)` writes them back (D). Compiled by the tests."""
    ld_param = ", long ld" if options.ld is None else ""
    ld_arg = ", ld" if options.ld is None else ""
    raw_t = "unsigned char" if frag.bits < 8 else RAW[frag.bits]
    plan = vector_plan(frag, options)
    loop = [f"    for (int v = 0; v < {frag.values}; ++v) {{",
            f"        const long at = {name}_offset(lane, v{ld_arg});"]
    if guards(frag):
        loop.append("        if (at < 0) continue;  // a lane the hardware does not read")
    loop.append(f"        const int b = {name}_bit(v);")
    lines = [f"MC_FN void {name}_gather(const void* tile{ld_param}, int lane, unsigned int* w) {{"]
    if plan is not None:
        lines += _vector_path(frag, options, name, plan, store=False)
    lines += [f"    const {raw_t}* raw = (const {raw_t}*)tile;", *loop,
              *_scalar_gather(frag), "    }", "}"]
    if frag.matrix not in ("C", "D"):
        return "\n".join(lines)
    lines.append(f"MC_FN void {name}_scatter(void* tile{ld_param}, int lane, "
                 "const unsigned int* w) {")
    if plan is not None:
        lines += _vector_path(frag, options, name, plan, store=True)
    lines += [f"    {raw_t}* raw = ({raw_t}*)tile;", *loop, *_scalar_scatter(frag, raw_t),
              "    }", "}"]
    return "\n".join(lines)


# ---- the device functions of one operand


def tile_elements(frag: Fragment, options: Options) -> int:
    rows, cols, blocks = frag.shape
    ld = options.ld if options.ld is not None else (cols if options.order == "row" else rows)
    outer = rows if options.order == "row" else cols
    return blocks * outer * ld


def _describe(inst: Instruction, frag: Fragment, options: Options,
              plan: VectorPlan | None) -> str:
    rows, cols, blocks = frag.shape
    what = {"A": "A", "B": "B", "C": "C", "D": "D", "K": "compression indices K",
            "SA": "A scales SA", "SB": "B scales SB"}[frag.matrix]
    order = "row-major" if options.order == "row" else "column-major"
    ld = "ld" if options.ld is None else str(options.ld)
    place = "LDS (__shared__)" if options.lds else "global memory"
    tile = f"{rows} x {cols}" + (f" x {blocks} blocks" if blocks > 1 else "")
    text = (f"{what} of {inst.name} (wave{frag.wave}): {tile} tile in {place}, {order}, "
            f"leading dimension {ld}; {frag.values} value(s) of {frag.bits} bits per lane")
    if plan is None:
        return text + "; moved value by value (the layout scatters them)"
    moves = len(plan.chunks)
    cond = f"the tile is {plan.align}-byte aligned"
    if plan.ld_multiple > 1:
        cond += f" and ld is a multiple of {plan.ld_multiple}"
    return (text + f";\n   {moves} vector move(s) per lane when {cond} "
            "(checked; otherwise value by value)")


def _ld_check(frag: Fragment, options: Options) -> None:
    rows, cols, _ = frag.shape
    inner = cols if options.order == "row" else rows
    if options.ld is not None and options.ld < inner:
        raise CalcError(f"--ld {options.ld} is too small for the {rows} x {cols} "
                        f"{frag.matrix} tile stored {options.order}-major: use --ld {inner} "
                        "or more")
    if options.lds and tile_elements(frag, options) * max(frag.bits, 8) // 8 > INT_MAX:
        raise CalcError(f"--ld {options.ld} makes the {frag.matrix} tile larger than LDS "
                        "can hold")


def device_function(inst: Instruction, frag: Fragment, options: Options, ctype: CType,
                    name: str) -> str:
    """The index and word functions of one operand and its __device__ load (for D: store),
    guarded so that the same operand emitted twice in one file is defined once."""
    _ld_check(frag, options)
    mem = memory_type(inst, frag.matrix, frag.bits)
    ld_param = ", long ld" if options.ld is None else ""
    ld_arg = ", ld" if options.ld is None else ""
    count = words(frag, ctype)
    guard = f"{name.upper()}_DEFINED"
    lines = [f"#ifndef {guard}", f"#define {guard}",
             f"/* {_describe(inst, frag, options, vector_plan(frag, options))} */",
             index_functions(frag, options, name), word_functions(frag, options, name)]
    lane = (f"    const int lane = MC_THREAD_X % {frag.wave};  "
            "// the lane within the wavefront")
    space = "LDS" if options.lds else "global"
    if frag.matrix in ("C", "D"):  # C and D share a layout: both directions
        lines += [(f"/* Stores the calling lane's {frag.matrix} fragment to the tile "
                  f"({space} memory). */"),
                  (f"__device__ inline void {name}_store({mem}* tile{ld_param}, "
                  f"{ctype.name} frag) {{"), lane,
                  f"    unsigned int w[{count}];",
                  "    __builtin_memcpy(w, &frag, sizeof w);",
                  f"    {name}_scatter(tile{ld_arg}, lane, w);", "}"]
    lines += [f"/* Loads the calling lane's fragment from the tile ({space} memory). */",
              f"__device__ inline {ctype.name} {name}_load(const {mem}* tile{ld_param}) {{",
              lane, f"    unsigned int w[{count}] = {{}};",
              f"    {name}_gather(tile{ld_arg}, lane, w);",
              f"    {ctype.name} frag;",
              "    __builtin_memcpy(&frag, w, sizeof frag);", "    return frag;", "}",
              f"#endif  /* {guard} */"]
    return "\n".join(lines)


def operand_name(prefix: str, matrix: str) -> str:
    return f"{prefix}_{LOWER[matrix]}"
