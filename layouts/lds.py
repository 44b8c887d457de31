"""LDS load plans: how a wave loads one operand fragment from a tile stored in LDS.

Input: an Operand (its layout says which element every register slot of every lane
holds), a tile description (how the operand's elements are stored: shape, order,
padding, swizzle, base address), a load instruction and an architecture's phase model
(instructions/lds.py). Output: every lane's byte address for every load, the lanes the
LDS serves together (phases), the banks each phase touches and its worst conflict, and
the element each register slot receives.

The slots are read from the layout engine (Layout.block_places): a load of W bits
fills bits [jW, (j+1)W) of a lane's registers, so a plain load is possible when the
elements of those bits are contiguous in LDS; a transpose load when its lane map
(LANE_MAPS) sends each destination element to a source lane whose W bits are
contiguous. Addresses follow from the elements, nothing is searched.

K steps: `k_steps` consecutive issues of the instruction are loaded together, the
registers of step s following those of step s-1. Each lane's K values come in runs of
`kw` consecutive K (4 for CDNA's 16x16x16 f16 A); the tile's K column of step s, k is
(k // kw) * kw * steps + s * kw + k % kw, so the runs of the steps sit side by side and
one wide load can fill several steps (kw*steps K values per lane), as kernels store them.
With one step the column is k.
"""
from __future__ import annotations

from amd_matrix_calculator.instructions.lds import LdsFacts, Load, PhaseModel, PhaseRow
from amd_matrix_calculator.instructions.record import TYPE_CHECKING, Record

from . import COORDINATES, Operand
from .core import CalcError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    Elem = tuple[int, int, int]
    LaneMap = Callable[[int, int], tuple[int, int]]


class Tile(Record):
    """An operand tile as stored in LDS: `rows` x `cols` elements, rows contiguous, row r
    starting (cols + pad) elements after row r-1, at byte `base`. order "k": a row holds
    K values (rows index M/N, blocks after one another); "mn": a row holds M/N values
    (rows index K). swizzle (vec, per_phase, max_phase): chunk c of vec elements of row r
    is stored at chunk c ^ ((r // per_phase) % max_phase), as Triton and CK define it."""
    rows: int
    cols: int
    order: str = "k"
    pad: int = 0
    swizzle: tuple[int, int, int] | None = None
    base: int = 0

    def offset(self, row: int, col: int) -> int:
        """The element offset of (row, col) from the tile's start."""
        if self.swizzle:
            vec, per_phase, max_phase = self.swizzle
            col = ((col // vec) ^ ((row // per_phase) % max_phase)) * vec + col % vec
        return row * (self.cols + self.pad) + col

    def bytes(self, bits: int) -> int:
        """The LDS bytes the tile occupies (padding included), from its base."""
        return (self.rows * (self.cols + self.pad) * bits + 7) // 8

    @property
    def text(self) -> str:
        parts = [f"{self.rows}x{self.cols}", f"order {self.order}"]
        if self.pad:
            parts.append(f"pad {self.pad}")
        if self.swizzle:
            parts.append("swizzle {},{},{}".format(*self.swizzle))
        if self.base:
            parts.append(f"base {self.base}")
        return ", ".join(parts)


class LaneRead(Record):
    """One lane's read: `address` (bytes) and `bytes` read; a lane masked off (nothing of
    its fragment in this load) has address None and 0 bytes."""
    lane: int
    address: int | None
    bytes: int


class Phase(Record):
    """Lanes served together; `conflict`: the most distinct dwords any one bank holds
    (1 = conflict-free, 0 = no lane active); `banks[b]`: the distinct dwords it reads
    from bank b."""
    lanes: tuple[int, ...]
    conflict: int
    banks: tuple[int, ...]


class LoadPlan(Record):
    """One load instruction of the wave: it writes VGPRs from `register` (counted from
    the operand's first) on, from bit `at` of it."""
    instruction: str
    load: Load
    register: int
    lanes: tuple[LaneRead, ...]
    phases: tuple[Phase, ...]
    at: int = 0  # the bit of `register` a narrow load writes from

    @property
    def worst(self) -> int:
        return max((p.conflict for p in self.phases), default=0)

    @property
    def cycles(self) -> int:
        return sum(p.conflict for p in self.phases)


class SlotPlan(Record):
    """A register slot: bits `bits` (lo, hi) of VGPR `register` of `lane` receive element
    `element` (row, col, block of the operand's matrix) of K step `step`, read from byte
    `address` (bit `bit` of it: nonzero only for sub-byte elements) by load `load`;
    `tile_at`: its (row, col) in the tile."""
    lane: int
    register: int
    bits: tuple[int, int]
    element: tuple[int, int, int]
    step: int
    address: int
    bit: int
    load: int
    tile_at: tuple[int, int] = (0, 0)  # (row, col) of the element in the tile


class Plan(Record):
    """A whole plan; `worst`: the worst conflict of any phase of any load, `cycles`: the
    LDS cycle estimate (one cycle per phase and way), `notes`: requirements the loads
    place on the kernel (EXEC, VGPR alignment) and the model's assumptions."""
    tile: Tile
    model: PhaseModel
    facts: LdsFacts
    wave: int
    element_bits: int
    k_steps: int
    k_run: int
    loads: tuple[LoadPlan, ...]
    slots: tuple[SlotPlan, ...]
    notes: tuple[str, ...]
    share: int = 1  # K values one tile element serves (4: sparse A and indices)

    @property
    def worst(self) -> int:
        return max((load.worst for load in self.loads), default=0)

    @property
    def cycles(self) -> int:
        return sum(load.cycles for load in self.loads)

    @property
    def lds_bytes(self) -> int:
        return self.tile.bytes(self.element_bits)


# ---- transpose-load lane maps: (dest lane, dest element) -> (source lane, source element)

def _tr16_gfx950(lane: int, e: int) -> tuple[int, int]:
    # [SEC] rocjitsu PR #10175 and Triton's diagram agree (fact sheet A.3)
    return (lane & ~15) + 4 * e + ((lane >> 2) & 3), lane & 3


def _tr8_gfx1250(lane: int, e: int) -> tuple[int, int]:
    # [SEC] ROCm blog's lane bases (L18), formula [INF] (fact sheet A.3)
    return (16 * ((lane >> 4) & 1) + 8 * ((e >> 2) & 1) + 4 * ((lane >> 3) & 1) + (e & 3),
            lane & 7)


def _tr8_gfx950(lane: int, e: int) -> tuple[int, int]:
    # [INF] the gfx1250 rule in every 16-lane group
    source, elem = _tr8_gfx1250(lane & 31, e)
    return (lane & ~15) + (source & 15), elem


def _tr16_gfx1250(lane: int, e: int) -> tuple[int, int]:
    # [SEC] L18: 8x8 transposes in groups of 8 lanes
    return (lane & ~7) + e, lane & 7


LANE_MAPS: dict[str, LaneMap] = {
    "tr16_gfx950": _tr16_gfx950, "tr8_gfx950": _tr8_gfx950,
    "tr16_gfx1250": _tr16_gfx1250, "tr8_gfx1250": _tr8_gfx1250,
}


# ---- the fragment as the layout engine lays it out

def _placed(operand: Operand) -> list[list[tuple[int, tuple[int, int, int]]]]:
    """Every lane's (bit, (row, col, block)) slots, in bit order (the layout's places in
    bulk, lane by lane)."""
    layout = operand.layout
    placed: list[list[tuple[int, tuple[int, int, int]]]] = [[] for _ in range(operand.wave)]
    for block in range(layout.shape[2]):
        for row, cells in enumerate(layout.block_places(block)):
            for col, places in enumerate(cells):
                for p in places:
                    placed[p.lane].append((p.reg * 32 + p.lo, (row, col, block)))
    for held in placed:
        held.sort()
    return placed


def _share(placed: list[list[tuple[int, tuple[int, int, int]]]]) -> int:
    """How many elements a slot holds (those of the first lane's first slot)."""
    for held in placed:
        if held:
            return sum(1 for bit, _ in held if bit == held[0][0])
    return 1


class Fragment:
    """Every lane's register slots over `steps` K steps: slots[lane] = [(bit, element,
    step, (tile row, tile col))], bit counted from the first VGPR of step 0."""

    def __init__(self, operand: Operand, tile: Tile, steps: int) -> None:
        coords = COORDINATES.get(operand.matrix, ())
        if "k" not in coords:
            raise CalcError(f"an LDS plan loads an input operand (A, B, K, SA or SB), "
                            f"not {operand.matrix}")
        self.operand, self.tile, self.steps = operand, tile, steps
        layout = operand.layout
        self.bits = layout.width
        self.k_axis = coords.index("k")  # 0: the layout's rows are K (B, SB); 1: columns
        rows, cols, blocks = layout.shape
        self.k = (rows, cols)[self.k_axis]
        self.mn_per_block = (rows, cols)[1 - self.k_axis]
        self.mn = self.mn_per_block * blocks
        self.registers = operand.register_count
        placed = _placed(operand)
        # A slot holding several elements stores one value: a sparse A slot holds the
        # values kept of `share` = 4 K (the tile holds A compressed), an index slot the
        # index of 4 K; the tile's K column counts slots, k // share.
        self.share = _share(placed)
        if self.share > 1:
            placed = [held[::self.share] for held in placed]
            self.k //= self.share
        # (bit, element, k, mn) of every slot: k in slots (K // share), blocks one after
        # another along M/N
        k_axis, mn_axis, share, per_block = self.k_axis, 1 - self.k_axis, self.share, \
            self.mn_per_block
        lanes = [[(bit, elem, elem[k_axis] // share, elem[2] * per_block + elem[mn_axis])
                  for bit, elem in held] for held in placed]
        self.k_run = self._k_run(lanes)
        self._chunks: dict[int, list[int]] = {}
        self._addressed: Tile | None = None
        self._addresses: list[list[int]] = []
        step_bits, run, order_k = self.registers * 32, self.k_run, tile.order == "k"
        self.slots: list[list[tuple[int, tuple[int, int, int], int, tuple[int, int]]]] = []
        for mine in lanes:
            slots = []
            for s in range(steps):
                for bit, elem, k, mn in mine:
                    col = (k // run) * run * steps + s * run + k % run
                    where = (mn, col) if order_k else (col, mn)
                    slots.append((bit + s * step_bits, elem, s, where))
            self.slots.append(slots)

    def chunks(self, width: int) -> list[int]:
        """The loads j of `width` bits whose bits [j*width, (j+1)*width) hold anything."""
        if width not in self._chunks:
            total = self.registers * 32 * self.steps
            used = {bit for held in self.slots for bit, *_ in held}
            self._chunks[width] = [
                j for j in range(total // width)
                if any(bit < (j + 1) * width and bit + self.bits > j * width for bit in used)]
        return self._chunks[width]

    def _k_run(self, lanes: list[list[tuple[int, tuple[int, int, int], int, int]]]) -> int:
        """The largest kw dividing the start and the length of every run of consecutive
        K values in consecutive slots of a lane (K itself when no lane breaks it)."""
        from math import gcd
        run, width = 0, self.bits
        for held in lanes:
            start = length = 0
            last_bit = last_k = last_mn = -2
            for bit, _, k, mn in held:
                if bit == last_bit + width and k == last_k + 1 and mn == last_mn:
                    length += 1
                else:
                    if length:
                        run = gcd(run, gcd(start, length))
                    start, length = k, 1
                last_bit, last_k, last_mn = bit, k, mn
            if length:
                run = gcd(run, gcd(start, length))
        return run or self.k

    def addresses(self) -> list[list[int]]:
        """The bit address of every slot (as `slots` lists them) in the current tile."""
        tile = self.tile
        if self._addressed is not tile:
            start, bits, stride = tile.base * 8, self.bits, tile.cols + tile.pad
            if tile.swizzle:
                offset = tile.offset
                self._addresses = [[start + offset(*where) * bits for *_, where in held]
                                   for held in self.slots]
            else:
                self._addresses = [[start + (r * stride + c) * bits for *_, (r, c) in held]
                                   for held in self.slots]
            self._addressed = tile
        return self._addresses


# ---- checks of the tile ------------------------------------------------------------

def check_tile(tile: Tile, frag_rows: int, frag_cols: int, bits: int,
               facts: LdsFacts) -> None:
    """CalcError unless the tile holds the fragment, fits in LDS and swizzles within rows."""
    if tile.order not in ("k", "mn"):
        raise CalcError(f"the tile order is k (K contiguous) or mn (M/N contiguous), "
                        f"not {tile.order!r}", "order")
    if tile.rows < frag_rows or tile.cols < frag_cols:
        raise CalcError(f"a {tile.rows}x{tile.cols} tile (order {tile.order}) cannot hold "
                        f"the fragment: it needs at least {frag_rows}x{frag_cols}", "tile")
    if tile.swizzle:
        vec, per_phase, max_phase = tile.swizzle
        if tile.cols % vec:
            raise CalcError(f"swizzle VEC {vec} must divide the tile's {tile.cols} columns",
                            "swizzle")
        chunks = tile.cols // vec
        reach = max(((r // per_phase) % max_phase) ^ c for r in range(tile.rows)
                    for c in range(chunks))
        if reach >= chunks:
            raise CalcError(f"swizzle {vec},{per_phase},{max_phase} moves chunks past the "
                            f"row's {chunks} chunks of {vec}; lower MAX_PHASE to at most "
                            f"{1 << (chunks.bit_length() - 1)}", "swizzle")
    end = tile.base + tile.bytes(bits)
    if end > facts.lds_bytes:
        raise CalcError(f"the tile ends at byte {end}, beyond the {facts.lds_bytes} bytes of "
                        f"LDS a workgroup may use on {facts.arch}", "base" if tile.base else "tile")


# ---- one load -------------------------------------------------------------------

def alignment(load: Load) -> int:
    """Natural alignment in bytes ([INF]: the CDNA4 ISA states it for transpose loads;
    no unaligned DS access mode is assumed); a b96 load is aligned as a b128."""
    size = 1
    while size < load.bytes:
        size *= 2
    return size


def _transpose_refused(frag: Fragment, load: Load, mapped: bool) -> str:
    """Why a transpose load cannot read the fragment ('' when it can); `mapped`: its
    lane map is known."""
    if load.transpose != frag.bits:
        return (f"it transposes {load.transpose}-bit elements; the operand's are "
                f"{frag.bits}-bit")
    if not mapped:
        return "its lane map is not known (no source states it)"
    return ""


def _sources(frag: Fragment, load: Load, j: int) -> list[int | None] | str:
    """The bit address every lane reads for load j (None: nothing to read), or why the
    load cannot deliver these slots."""
    width, wave = load.bits, frag.operand.wave
    lo, hi = j * width, (j + 1) * width
    found: list[int | None] = [None] * wave
    lane_map = LANE_MAPS.get(load.lane_map)
    if load.transpose:
        refused = _transpose_refused(frag, load, lane_map is not None)
        if refused:
            return refused
    addresses = frag.addresses()
    for lane, held in enumerate(frag.slots):
        for (bit, *_), address in zip(held, addresses[lane]):
            if bit >= hi or bit + frag.bits <= lo:
                continue
            if lane_map is not None and (bit < lo or bit + frag.bits > hi):
                return f"an element of lane {lane} straddles two loads"
            offset = bit - lo  # (negative for an element begun by the load before)
            reader = lane
            if lane_map is not None:
                reader, elem = lane_map(lane, offset // frag.bits)
                offset = elem * frag.bits
            start = address - offset
            if found[reader] is None:
                found[reader] = start
            elif found[reader] != start:
                return (f"lane {reader} would need two addresses (the elements of its bits "
                        f"{lo}-{hi - 1} are not contiguous in LDS)")
    return found


def _legality(frag: Fragment, load: Load, found: list[int | None]) -> str:
    """Why the load is illegal ('' when legal)."""
    wave = frag.operand.wave
    if load.waves and wave not in load.waves:
        return f"it runs in wave{'/'.join(map(str, load.waves))} only, not wave{wave}"
    align = alignment(load)
    for lane, start in enumerate(found):
        if start is None:
            if load.transpose:
                return (f"lane {lane} has nothing to read, but a transpose load needs EXEC "
                        f"all ones")
            continue
        if start % 8 or start // 8 % align:
            where = f"{start // 8}" + (f" (+{start % 8} bits)" if start % 8 else "")
            return f"lane {lane} would read at byte {where}, not a multiple of {align}"
    return ""


def _phases(found: list[int | None], load: Load, row: PhaseRow, wave: int
            ) -> tuple[Phase, ...]:
    phases = []
    for group in row.groups:
        lanes = tuple(lane for lane in group if lane < wave)
        if not lanes:
            continue
        dwords: list[set[int]] = [set() for _ in range(row.banks)]
        for lane in lanes:
            start = found[lane]
            if start is None:
                continue
            first, last = start // 32, (start + load.bits - 1) // 32
            for dword in range(first, last + 1):
                dwords[dword % row.banks].add(dword)
        counts = tuple(len(d) for d in dwords)
        phases.append(Phase(lanes, max(counts), counts))
    return tuple(phases)


def _variant(facts: LdsFacts, load: Load, j: int) -> Load | None:
    """The load of chunk j: a narrow (d16) load is the one writing the chunk's bits of
    its VGPR (None: there is none)."""
    if load.bits >= 32:
        return load
    at = j * load.bits % 32
    return next((other for other in facts.loads
                 if other.bits == load.bits and other.at == at), None)


def _try(frag: Fragment, facts: LdsFacts, model: PhaseModel, load: Load
         ) -> tuple[LoadPlan, ...] | str:
    """Every load of the plan with `load`, or why it cannot be used. Chunks of bits no
    lane holds anything in are not loaded."""
    total = frag.registers * 32 * frag.steps
    if total % load.bits:
        return f"the fragment's {total} bits do not split into loads of {load.bits} bits"
    chunks = frag.chunks(load.bits)
    if load.bits >= 64 and facts.even_vgpr_tuples and not load.odd_vgpr:
        for j in chunks:
            register = j * load.bits // 32
            if register % 2:
                return (f"load {j} would write from v{register} (odd): loads of 64 bits or "
                        f"more need an even first VGPR on {facts.arch}")
    plans = []
    for j in chunks:
        lo = j * load.bits
        used = _variant(facts, load, j)
        if used is None:
            return f"no {load.bits}-bit load writes bits {lo % 32}-{lo % 32 + load.bits - 1}"
        found = _sources(frag, used, j)
        if isinstance(found, str):
            return found
        illegal = _legality(frag, used, found)
        if illegal:
            return illegal
        row = model.row(used.phase_bits)
        lanes = tuple(LaneRead(lane, None if a is None else a // 8,
                               0 if a is None else used.bytes)
                      for lane, a in enumerate(found))
        plans.append(LoadPlan(used.name, used, lo // 32, lanes,
                              _phases(found, used, row, frag.operand.wave), lo % 32))
    return tuple(plans)


def candidates(facts: LdsFacts) -> list[Load]:
    """The loads a default plan tries, widest first (a transpose load before a plain one
    of the same width; a d16 pair by its low half)."""
    usable = [load for load in facts.loads if not load.at]
    return sorted(usable, key=lambda load: (-load.bits, not load.transpose))


def plan(operand: Operand, tile: Tile, facts: LdsFacts, model: PhaseModel,
         load: Load | None = None, k_steps: int = 1, frag: Fragment | None = None,
         with_slots: bool = True) -> Plan:
    """The plan of loading `operand` (k_steps steps) from `tile` with `load` (None: the
    widest load that delivers the fragment legally). `frag`: the fragment of an earlier
    plan of the same operand, steps and tile order, and `with_slots` False (no slots
    listed): for a search, which tries many tiles."""
    if frag is None or frag.tile.order != tile.order or frag.steps != k_steps:
        frag = Fragment(operand, tile, k_steps)
    frag.tile = tile
    needed = (frag.mn, frag.k * k_steps) if tile.order == "k" else (frag.k * k_steps, frag.mn)
    check_tile(tile, *needed, frag.bits, facts)
    if load is not None:
        loads = _try(frag, facts, model, load)
        if isinstance(loads, str):
            raise CalcError(f"{load.name} cannot load the {operand.matrix} fragment of "
                            f"{operand.inst.mnemonic} from this tile ({tile.text}): {loads}")
    else:
        reasons = []
        for candidate in candidates(facts):
            loads = _try(frag, facts, model, candidate)
            if not isinstance(loads, str):
                break
            reasons.append(f"{candidate.name}: {loads}")
        else:
            raise CalcError(f"no LDS load of {facts.arch} delivers the {operand.matrix} "
                            f"fragment of {operand.inst.mnemonic} from this tile "
                            f"({tile.text}): " + "; ".join(_telling(reasons)))
    return Plan(tile, model, facts, operand.wave, frag.bits, k_steps, frag.k_run, loads,
                _slots(frag, loads) if with_slots else (), _notes(loads, model, facts),
                frag.share)


def _telling(reasons: list[str]) -> list[str]:
    """The reasons worth reading: those other than a width that does not divide."""
    telling = [r for r in reasons if "do not split" not in r]
    return (telling or reasons)[:3]


def _slots(frag: Fragment, loads: Iterable[LoadPlan]) -> tuple[SlotPlan, ...]:
    loads = tuple(loads)
    width = loads[0].load.bits if loads else 32
    number_of = {p.register * 32 + p.at: n for n, p in enumerate(loads)}
    slots: list[SlotPlan] = []
    new, last = tuple.__new__, frag.bits - 1  # (records built directly: a plan has many)
    for lane, (held, addresses) in enumerate(zip(frag.slots, frag.addresses())):
        for (bit, elem, step, where), address in zip(held, addresses):
            lo = bit & 31
            slots.append(new(SlotPlan, (lane, bit >> 5, (lo, lo + last), elem, step,
                                        address >> 3, address & 7,
                                        number_of[bit // width * width], where)))
    return tuple(slots)


def _notes(loads: tuple[LoadPlan, ...], model: PhaseModel, facts: LdsFacts) -> tuple[str, ...]:
    notes = []
    if any(p.load.transpose for p in loads):
        notes.append("transpose loads need EXEC all ones and addresses aligned to the data "
                     "size (CDNA4 ISA 11.4)")
    if facts.even_vgpr_tuples and any(p.load.bits >= 64 for p in loads):
        notes.append("the operand's first VGPR must be even (DS loads of 64 bits or more)")
    if any(lane.address is None for p in loads for lane in p.lanes):
        notes.append("lanes with nothing to read may be masked off (EXEC)")
    notes += _pairs(loads)
    if model.assumed:
        notes.append(f"phase model assumed: {model.confidence}")
    return tuple(notes)


def _pairs(loads: tuple[LoadPlan, ...]) -> list[str]:
    """Consecutive b32/b64 loads every lane issues a fixed distance apart (a multiple of
    the size, at most 255 of them): what LLVM merges into one ds_read2_b32/b64
    (ds_load_2addr_* on gfx11+), two addresses per lane in one instruction."""
    notes = []
    for first, second in zip(loads, loads[1:]):
        if first.load != second.load or first.load.bits not in (32, 64) or first.at:
            continue
        gaps = {b.address - a.address for a, b in zip(first.lanes, second.lanes)
                if a.address is not None and b.address is not None}
        size = first.load.bytes
        if len(gaps) == 1 and (gap := gaps.pop()) % size == 0 and 0 < gap // size <= 255:
            merged = first.instruction.replace("ds_read_b", "ds_read2_b").replace(
                "ds_load_b", "ds_load_2addr_b")
            notes.append(f"{first.instruction} to v{first.register} and to v{second.register} "
                         f"are {gap} bytes apart in every lane: a compiler may issue them "
                         f"as one {merged}")
    return notes


def triton_swizzle(facts: LdsFacts, inst_m: int, wmma: bool, bits: int, cols: int, vec: int,
                   order: str) -> tuple[int, int, int]:
    """The swizzle Triton's composeSharedLayoutForOperand picks [SEC] L21 (fact sheet C.1):
    (vec, per_phase, max_phase); (1, 1, 1) when K is not contiguous."""
    if order != "k":
        return (1, 1, 1)
    banks = 32 if wmma else facts.triton_banks
    per_row = banks * 32 // bits
    per_phase = max(1, per_row // cols)
    if wmma:
        vec = min(vec * bits, 128) // bits
        return (vec, per_phase, max(min(inst_m // per_phase, cols // vec), 1))
    max_phase = 4 if inst_m == 4 else max(min(16 // per_phase, cols // vec), 1)
    return (vec, per_phase, max_phase)


def ck_swizzle(bits: int, cols: int, order: str) -> tuple[int, int, int]:
    """CK's XOR preshuffle as the CK document shows it (L14): 16-byte chunks, x' = (y %
    (cols / vec)) ^ x, i.e. (vec, 1, cols / vec) [INF]; (1, 1, 1) when K is not
    contiguous."""
    if order != "k":
        return (1, 1, 1)
    vec = max(1, 128 // bits)
    return (vec, 1, max(1, cols // vec))
