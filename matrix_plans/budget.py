"""A kernel's budget: the peak of an instruction on a product, and for a block tile made
of the instruction (instruction tiles per wave, waves per workgroup, K steps held in
registers, LDS buffers) the registers, LDS bytes, occupancy, arithmetic intensity and
roofline bound. Reads the instruction's operand fragments (register counts, stored
elements) and the architecture's limits (instructions/products.py)."""


from __future__ import annotations

from instructions.model import Instruction
from instructions.products import VGPR_OVERRIDES, GpuProduct, Limits, limits_of
from instructions.record import Record, short_repr
from layouts import Operand
from layouts.core import CalcError
from layouts.fragment import fragment


class Peak(Record):
    """An instruction's peak on a product: FLOPs (or integer ops) per unit per cycle, the
    units (CUs or WGPs) and clock it is multiplied by, and the result in FLOP/s; for a
    sparse instruction the effective rate (its K counts the zeros skipped)."""
    product: str
    flops_per_cycle: int
    unit: str
    units: int
    clock_mhz: int
    flops: float
    sparse: bool


def peak(inst: Instruction, flops_per_cycle: int | None, product: GpuProduct) -> Peak:
    """The peak of `inst` (whose FLOPs/unit/cycle, under its modifiers, is given) on
    `product`: flops_per_cycle x units x clock. CalcError where a figure is missing."""
    if product.arch != inst.arch:
        raise CalcError(f"{product.name} is {product.arch} ({product.target}), not "
                        f"{inst.arch}: pick a {inst.arch} product (--list-products)")
    if flops_per_cycle is None:
        raise CalcError(f"{inst.name} has no cycle count on {inst.arch}: no peak")
    if product.cus is None or product.clock is None:
        raise CalcError(f"{product.name}: AMD has not published its compute units and "
                        "peak clock: no peak")
    limits = limits_of(product.arch)
    units = product.cus // limits.cus_per_unit
    return Peak(product.name, flops_per_cycle, limits.unit, units, product.clock,
                float(flops_per_cycle) * units * product.clock * 1e6, inst.sparse)


class Tile(Record):
    """A block tile: `wave_tile` (instruction tiles along M, N per wave), `waves` (waves
    along M, N per workgroup), `k_steps` (instruction K steps per LDS stage, their A/B
    fragments all held in registers), `buffers` (LDS stages), `pad` (elements added to
    each LDS row), `order` ("k": rows hold K, as LDS plans store A and B)."""
    wave_tile: tuple[int, int] = (1, 1)
    waves: tuple[int, int] = (1, 1)
    k_steps: int = 1
    buffers: int = 2
    pad: int = 0
    order: str = "k"


class Part(Record):
    """One register or LDS item of the budget: what it holds (`name`), `copies` of `each`
    registers (or bytes) making `total`, in which file."""
    name: str
    copies: int
    each: int
    total: int
    file: str  # "v" (ArchVGPRs), "a" (AGPRs), "lds" (bytes)
    note: str = ""


class Occupancy(Record):
    """Waves per SIMD each limit allows, as LLVM counts them (`limits`: name, waves), the
    smallest (`waves`) and the limits that give it (`binding`); `groups`: workgroups per
    unit (CU; RDNA: WGP) and `waves_per_unit` the waves they hold; `resident`: whether
    one workgroup fits on the unit at all."""
    limits: tuple[tuple[str, int], ...]
    waves: int
    binding: tuple[str, ...]
    groups: int
    waves_per_unit: int
    resident: bool = True


class Budget(Record):
    """A block tile's budget. tile: the Tile asked for; block: (M, N, K) of the
    workgroup's tile per LDS stage; threads: the workgroup's; parts: the registers and
    LDS bytes, item by item; vgprs, agprs: the estimate per wave (fragments or staging,
    accumulators, addresses); least: the fewest VGPRs+AGPRs the data needs (accumulators,
    one operand's fragments of a K step and one of the other's); allocated: VGPRs (with
    AGPRs) as allocated; lds: bytes per workgroup; intensity_global: FLOPs per byte read
    from global memory (each value once per workgroup), intensity_lds: FLOPs per byte a
    wave reads from LDS; roofline: (compute, memory) bounds in FLOP/s against a product,
    bound: the lower one's name."""
    tile: Tile
    block: tuple[int, int, int]
    threads: int
    parts: tuple[Part, ...]
    vgprs: int
    agprs: int
    least: int
    allocated: int
    lds: int
    occupancy: Occupancy
    intensity_global: float
    intensity_lds: float
    flops_per_stage: int
    roofline: tuple[tuple[str, float], ...] | None
    bound: str | None

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def _round(n: int, step: int) -> int:
    return -(-n // step) * step


def vgpr_file(limits: Limits, target: str, wave: int) -> tuple[int, int]:
    """(VGPRs per SIMD, allocation granule) of `target` (a gfx name) in wave`wave`."""
    for size, total, granule in VGPR_OVERRIDES.get(target, limits.vgprs):
        if size == wave:
            return total, granule
    raise CalcError(f"{limits.arch} has no wave{wave}")


def occupancy(limits: Limits, target: str, wave: int, vgprs: int, agprs: int, lds: int,
              threads: int) -> Occupancy:
    """Waves per SIMD of a kernel using `vgprs` ArchVGPRs, `agprs` AGPRs and `lds` bytes
    per workgroup of `threads`, as LLVM 22 computes it (tests/data/llvm_occupancy.txt
    holds what it answered; 0 waves: more registers than a wave can address). A
    workgroup whose waves need more waves per SIMD than that is not `resident`: LLVM
    still reports the count, and may find no registers to allocate."""
    total, granule = vgpr_file(limits, target, wave)
    simds, group = limits.simds, -(-threads // wave)
    found: list[tuple[str, int]] = [("wave slots", limits.waves)]
    if limits.agprs == "unified" and agprs:
        used = _round(vgprs, 4) + agprs
        found.append(("VGPRs+AGPRs", total // _round(used, granule)))
    else:
        found.append(("VGPRs", total // _round(max(vgprs, 1), granule)))
        if limits.agprs == "separate" and agprs:
            found.append(("AGPRs", total // _round(agprs, granule)))
    fits = (vgprs <= min(256, limits.addressable) and agprs <= limits.addressable - 256
            if limits.agprs != "none" else vgprs <= limits.addressable)
    if not fits:
        found.append((f"addressable VGPRs ({limits.addressable})", 0))
    unit_waves = limits.waves * simds
    barrier = unit_waves if group == 1 else min(unit_waves // group, limits.barriers)
    found.append(("workgroups", -(-barrier * group // simds)))
    groups = [n * simds // group for name, n in found if name != "workgroups"]
    groups.append(barrier)
    if lds:
        found.append(("LDS", -(-(limits.lds // lds) * group // simds)))
        groups.append(limits.lds // lds)
    waves = min(n for _, n in found)
    binding = tuple(name for name, n in found if n == waves)
    return Occupancy(tuple(found), waves, binding, min(groups), min(groups) * group,
                     waves * simds >= group)


# The operands a tile holds per instruction tile along M (A, its index, its scales) and
# along N (B, its scales); D is the accumulator.
_ALONG_M = ("A", "K", "SA")
_ALONG_N = ("B", "SB")
# VGPRs a kernel spends on addresses and indices besides the tile's data: the thread and
# wave indices, the 64-bit global pointers, the LDS offsets. An estimate: the skeletons
# compiled by clang-22 (tests/data/budget_clang.txt) spend 0 to 17.
ADDRESSING = 12


def budget(inst: Instruction, operands: dict[str, Operand], tile: Tile, target: str,
           flops_per_cycle: int | None = None,
           product: GpuProduct | None = None) -> Budget:
    """The budget of `tile` made of `inst` whose operands (checked, under the modifiers,
    for the wave size) are given; `target`: the gfx name whose register file applies."""
    if inst.blocks > 1:
        raise CalcError(f"{inst.name} computes {inst.blocks} independent blocks: a block "
                        "tile is made of single-block instructions")
    limits = limits_of(inst.arch)
    wave = operands["A"].wave
    (tm, tn), (wm, wn) = tile.wave_tile, tile.waves
    threads = wm * wn * wave
    block = (wm * tm * inst.m, wn * tn * inst.n, tile.k_steps * inst.k)
    align = max(1, inst.align // 4)
    parts: list[Part] = []
    lds_stage = global_stage = lds_reads = staging = 0
    held = {"M": 0, "N": 0}  # fragment VGPRs of one instruction tile along M, along N
    acc_file = "a" if limits.agprs == "separate" else "v"
    acc = 0
    for name, op in operands.items():
        # (operands of more than one VGPR start at the instruction's alignment)
        regs = op.register_count if op.register_count == 1 else \
            _round(op.register_count, align)
        if name == "C":
            continue
        if name == "D":
            acc = tm * tn * regs
            parts.append(Part("accumulators (D)", tm * tn, regs, acc, acc_file,
                              "live across the K loop"))
            continue
        side = "M" if name in _ALONG_M else "N"
        per = tm if side == "M" else tn
        held[side] += regs
        parts.append(Part(f"{name} fragments", per * tile.k_steps, regs,
                          per * tile.k_steps * regs, "v", f"{tile.k_steps} K step(s)"))
        frag = fragment(op)
        rows, cols, _ = frag.shape
        along = (wm if side == "M" else wn) * per
        r, c = (along * rows, tile.k_steps * cols) if side == "M" else \
            (along * cols, tile.k_steps * rows)
        if tile.order == "mn":  # rows hold M (N) values: the padding ends K rows
            r, c = c, r
        lds_stage += -(-r * (c + tile.pad) * frag.bits // 8)
        stored = -(-r * c * frag.bits // 8)
        global_stage += stored
        staging += -(-stored // (threads * 16)) * 4
        lds_reads += per * tile.k_steps * -(-rows * cols * frag.bits // 8)
    parts.append(Part("global->LDS staging", staging // 4, 4, staging, "v",
                      "16-byte copies through VGPRs, not live with the fragments"))
    parts.append(Part("addresses and indices", 1, ADDRESSING, ADDRESSING, "v", "estimate"))
    lds = lds_stage * tile.buffers
    parts.append(Part("LDS stages", tile.buffers, lds_stage, lds, "lds"))
    frags = sum(p.total for p in parts if p.name.endswith("fragments"))
    loop = max(frags, staging) + ADDRESSING
    vgprs, agprs = loop + acc, 0
    if acc_file == "a":  # the accumulators stay in AGPRs; the epilogue reads them back
        vgprs, agprs = max(loop, acc + ADDRESSING), acc
    elif limits.agprs == "unified" and vgprs > 256:
        vgprs, agprs = loop, acc
    least = acc + min(tm * held["M"] + held["N"], tn * held["N"] + held["M"])
    if lds > limits.lds_group:
        raise CalcError(f"the tile needs {lds} bytes of LDS; {inst.arch} gives a workgroup "
                        f"at most {limits.lds_group}")
    occ = occupancy(limits, target, wave, vgprs, agprs, lds, threads)
    granule = vgpr_file(limits, target, wave)[1]
    used = _round(vgprs, 4) + agprs if limits.agprs == "unified" and agprs else vgprs
    flops = 2 * block[0] * block[1] * block[2]
    wave_flops = 2 * tm * inst.m * tn * inst.n * block[2]
    roofline = bound = None
    if product is not None:
        top = peak(inst, flops_per_cycle, product)
        memory = product.bandwidth * 1e9 * flops / global_stage
        roofline = (("compute", top.flops), ("memory", memory))
        bound = "compute" if top.flops <= memory else "memory"
    return Budget(tile, block, threads, tuple(parts), vgprs, agprs, least, _round(used, granule),
                  lds, occ, flops / global_stage, wave_flops / lds_reads, flops, roofline,
                  bound)
