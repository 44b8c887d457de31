"""--emit hip with --lds-tile (issue 24): the LDS load code of a plan. A C function
computes each lane's tile row and column for every load (sums of lane bits, fitted to the
plan's addresses and checked against every lane), applies the padding and the swizzle,
and reads the bytes with one aligned copy per load, which clang lowers to the planned
ds_read/ds_load instruction when the tile is a __shared__ array. The same text compiles
with gcc for the lane-emulation check (tests/test_lds_hip.py)."""
from __future__ import annotations

from instructions.record import TYPE_CHECKING
from layouts.core import CalcError

from .hip import PRELUDE

if TYPE_CHECKING:
    from matrix_api_lds import LdsPlan


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
    return f"mc_lds_{plan.matrix.lower()}"


def emit_lds(plan: LdsPlan) -> str:
    """The HIP/C code of the plan's loads: `<name>_offset(row, col)` (the element offset
    of a tile position) and `<name>_load(tile, lane, out)`, which fills out[] (the
    operand's VGPRs of every K step, 32 bits each) from the tile at `tile`."""
    if any(load.load.transpose for load in plan.loads):
        raise CalcError("--emit hip writes plain LDS loads; a transpose load's code is not "
                        "written yet (the plan itself is available: drop --emit)")
    if plan.element_bits % 8:
        raise CalcError(f"--emit hip writes loads of whole bytes; {plan.element_bits}-bit "
                        "elements are not handled yet")
    tile, name = plan.tile, _name(plan)
    size = plan.element_bits // 8
    registers = max((s.register for s in plan.slots), default=0) + 1
    registers += registers % 2
    lines = [PRELUDE.rstrip("\n"),
             f"// LDS loads of {plan.matrix} for {plan.instruction} ({plan.architecture}, "
             f"wave{plan.wave}, {plan.k_steps} K step(s)): tile {tile.text},",
             f"// {size}-byte elements; phase model {plan.model.key}: worst "
             f"{plan.worst}-way, {len(plan.loads)} load(s). out[] holds {registers} "
             "VGPRs (32 bits each).",
             f"MC_FN unsigned int {name}_offset(unsigned int row, unsigned int col) {{"]
    if tile.swizzle:
        vec, per_phase, max_phase = tile.swizzle
        lines.append(f"    col = ((col / {vec}u) ^ ((row / {per_phase}u) % {max_phase}u)) * "
                     f"{vec}u + col % {vec}u;")
    lines += [f"    return row * {tile.cols + tile.pad}u + col;", "}",
              f"MC_FN void {name}_load(const unsigned char* tile, unsigned int lane, "
              f"unsigned int out[{registers}]) {{"]
    for number, load in enumerate(plan.loads):
        firsts: dict[int, tuple[int, int, int]] = {}  # lane -> (bit, row, col) of its first slot
        for slot in plan.slots:
            if slot.load != number:
                continue
            bit = slot.register * 32 + slot.bits[0]
            if slot.lane not in firsts or bit < firsts[slot.lane][0]:
                firsts[slot.lane] = (bit, *slot.tile_at)
        start = load.register * 32 + load.at
        rows = {lane: row for lane, (_, row, _) in firsts.items()}
        order_k = tile.order == "k"
        cols = {lane: col - ((bit - start) // plan.element_bits if order_k else 0)
                for lane, (bit, _, col) in firsts.items()}
        if not order_k:
            rows = {lane: row - (bit - start) // plan.element_bits
                    for lane, (bit, row, _) in firsts.items()}
        row_text, col_text = _fit(rows, plan.wave), _fit(cols, plan.wave)
        target = f"(unsigned char*)out + {start // 8}"
        lines += [f"    {{ /* load {number}: {load.instruction} */",
                  f"        const unsigned char* p = tile + {tile.base}u + "
                  f"{name}_offset({row_text}, {col_text}) * {size}u;",
                  f"        __builtin_memcpy({target}, __builtin_assume_aligned(p, "
                  f"{_alignment(load.load.bytes)}), {load.load.bytes});", "    }"]
    lines += ["}", ""]
    return "\n".join(lines)


def _alignment(size: int) -> int:
    align = 1
    while align < size:
        align *= 2
    return align
