"""--emit hip with --lds-tile: the LDS load code of a plan. A C function
computes each lane's tile row and column for every load (sums of lane bits, fitted to the
plan's addresses and checked against every lane), applies the padding and the swizzle,
and reads the bytes with one aligned copy per load, which clang lowers to the planned
ds_read/ds_load instruction when the tile is a __shared__ array. The same text compiles
with gcc for the lane-emulation check (tests/plans/test_lds.py)."""
from __future__ import annotations

import re

from formats.hip import PRELUDE
from matrix_library.api import CalcError
from matrix_library.lds_lanes import LANE_MAPS, alignment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.lds import LdsPlan


def _fit(values: dict[int, int], lanes: int) -> str:
    """A C expression of `lane` equal to values[lane] for every lane listed: the value of
    lane 0 plus, per lane bit, the change that bit makes (runs of bits whose changes
    double are one masked field). CalcError when no such sum fits."""
    base = values.get(0, 0)
    bits = lanes.bit_length() - 1
    coef = []
    for b in range(bits):
        if 1 << b not in values:
            raise CalcError("the plan's lanes do not give a closed form (a lane is masked "
                            "off): no HIP code for it")
        coef.append(values[1 << b] - base)
    for lane, value in values.items():
        if base + sum(coef[b] for b in range(bits) if lane >> b & 1) != value:
            raise CalcError(f"lane {lane}'s tile position is not a sum of lane bits: no HIP "
                            "code for this plan")
    terms = [str(base)] if base else []
    b = 0
    while b < bits:
        if not coef[b]:
            b += 1
            continue
        n = 1
        while b + n < bits and coef[b + n] == coef[b] << n:
            n += 1
        field = f"((lane >> {b}) & {(1 << n) - 1}u)" if b else f"(lane & {(1 << n) - 1}u)"
        terms.append(field if coef[b] == 1 else f"{field} * {coef[b]}u")
        b += n
    return " + ".join(terms) or "0u"


def _name(plan: LdsPlan) -> str:
    """mc_lds_<instruction>_<matrix>_<tile>[_pad][_swizzle][_base]_<load>[_k<steps>]:
    plans that differ in code differ in name (any number share one file)."""
    tile = plan.tile
    parts = ["mc_lds", plan.instruction.lower()[2:], plan.matrix.lower(),
             f"{tile.rows}x{tile.cols}", tile.order]
    if tile.pad:
        parts.append(f"pad{tile.pad}")
    if tile.swizzle:
        parts.append("sw" + "_".join(map(str, tile.swizzle)))
    if tile.xor:
        parts.append("xor" + "_".join(f"{dst}_{src}" for dst, src in tile.xor))
    if tile.base:
        parts.append(f"base{tile.base}")
    parts += sorted({load.instruction for load in plan.loads})
    if plan.k_steps > 1:
        parts.append(f"k{plan.k_steps}")
    if plan.model.key:
        parts.append(re.sub(r"\W", "_", plan.model.key))
    return "_".join(parts)


# clang's builtins of the transpose loads: (builtin, vector element type, count)
TRANSPOSE_BUILTINS = {
    "ds_read_b64_tr_b16": ("__builtin_amdgcn_ds_read_tr16_b64_v4i16", "short", 4),
    "ds_read_b64_tr_b8": ("__builtin_amdgcn_ds_read_tr8_b64_v2i32", "int", 2),
    "ds_load_tr16_b128": ("__builtin_amdgcn_ds_load_tr16_b128_v8i16", "short", 8),
    "ds_load_tr8_b64": ("__builtin_amdgcn_ds_load_tr8_b64_v2i32", "int", 2),
}


def read_starts(plan: LdsPlan, number: int) -> dict[int, tuple[int, int]]:
    """lane -> the tile (row, col) of the first element load `number` reads in that lane:
    the lane's own first element for a plain load; for a transpose load, the element of
    the source lane the lane map names (a row of the tile is contiguous, so a read
    starting j elements before an element starts j columns before it)."""
    load = plan.loads[number]
    start = load.register * 32 + load.at
    bits = plan.element_bits
    starts: dict[int, tuple[int, int]] = {}
    lane_map = LANE_MAPS.get(load.load.lane_map) if load.load.transpose else None
    for slot in plan.slots:
        bit = slot.register * 32 + slot.bits[0]
        if not start <= bit < start + load.load.bits:
            continue
        row, col = slot.tile_at
        if lane_map is not None:
            lane, elem = lane_map(slot.lane, (bit - start) // bits)
            starts[lane] = (row, col - elem)
        elif bit == start or slot.lane not in starts:
            starts[slot.lane] = (row, col - (bit - start) // bits)
    return starts


def emit_lds(plan: LdsPlan) -> str:
    """The HIP/C code of the plan's loads: `<name>_offset(row, col)` (the element offset
    of a tile position: padding and swizzle), `<name>_address(lane, load)` (the byte
    address a lane reads for load number `load`) and `<name>_load(tile, lane, out)`,
    which fills out[] (the operand's VGPRs of every K step, 32 bits each) from the tile
    at `tile` (transpose loads: on the GPU only, through clang's builtins)."""
    tile, name = plan.tile, _name(plan)
    bits = plan.element_bits
    registers = max((s.register for s in plan.slots), default=0) + 1
    registers += registers % 2
    lines = [PRELUDE.rstrip("\n"),
             f"// LDS loads of {plan.matrix} for {plan.instruction} ({plan.architecture}, "
             f"wave{plan.wave}, {plan.k_steps} K step(s)): tile {tile.text},",
             f"// {bits}-bit elements; phase model {plan.model.key}: worst "
             f"{plan.worst}-way, {len(plan.loads)} load(s). out[] holds {registers} "
             "VGPRs (32 bits each).",
             f"#ifndef {name.upper()}_DEFINED  /* the same plan emitted twice: defined once */",
             f"#define {name.upper()}_DEFINED",
             f"MC_FN unsigned int {name}_offset(unsigned int row, unsigned int col) {{"]
    if tile.swizzle:
        vec, per_phase, max_phase = tile.swizzle
        lines.append(f"    col = ((col / {vec}u) ^ ((row / {per_phase}u) % {max_phase}u)) * "
                     f"{vec}u + col % {vec}u;")
    lines += [f"    return row * {tile.cols + tile.pad}u + col;", "}"]
    if tile.xor:  # (a kernel's XOR swizzle acts on the byte offset from the tile's start)
        lines += [f"MC_FN unsigned int {name}_xor(unsigned int a) {{"]
        lines += [f"    a ^= ((a >> {src}u) & 1u) << {dst}u;" for dst, src in tile.xor]
        lines += ["    return a;", "}"]
    lines += [
              f"MC_FN unsigned int {name}_address(unsigned int lane, int load) {{",
              "    switch (load) {"]
    for number in range(len(plan.loads)):
        starts = read_starts(plan, number)
        row = _fit({lane: r for lane, (r, _) in starts.items()}, plan.wave)
        col = _fit({lane: c for lane, (_, c) in starts.items()}, plan.wave)
        scaled = f" * {bits // 8}u" if bits % 8 == 0 else f" * {bits}u / 8u"
        if bits == 8:
            scaled = ""
        at = f"{name}_offset({row}, {col}){scaled}"
        if tile.xor:
            at = f"{name}_xor({at})"
        lines.append(f"    case {number}: return {tile.base}u + {at};")
    lines += ["    default: return 0u;", "    }", "}",
              f"MC_FN void {name}_load(const unsigned char* tile, unsigned int lane, "
              f"unsigned int out[{registers}]) {{"]
    for number, load in enumerate(plan.loads):
        target = f"(unsigned char*)out + {(load.register * 32 + load.at) // 8}"
        source = f"tile + {name}_address(lane, {number})"
        size, align = load.load.bytes, alignment(load.load)
        lines.append(f"    /* load {number}: {load.instruction} */")
        if load.load.transpose:
            builtin, element, count = TRANSPOSE_BUILTINS[load.instruction]
            vector = f"{element} __attribute__((ext_vector_type({count})))"
            lines += ["#if defined(__AMDGCN__)",
                      f"    {{ typedef {vector} mc_v; typedef __attribute__((address_space(3))) "
                      "mc_v mc_lds_v;",
                      f"      mc_v v = {builtin}((mc_lds_v*)({source}));",
                      f"      __builtin_memcpy({target}, &v, {size}); }}",
                      "#else  /* a transpose load gathers from other lanes: GPU only */",
                      "    (void)tile; (void)lane; (void)out;",
                      "#endif"]
        else:
            lines.append(f"    __builtin_memcpy({target}, __builtin_assume_aligned({source}, "
                         f"{align}), {size});")
    lines += ["}", f"#endif  /* {name.upper()}_DEFINED */", ""]
    return "\n".join(lines)

