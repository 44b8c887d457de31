"""Copy plans: how the waves of a workgroup copy an operand's tile from global memory
into LDS, before the read plan (matrix_plans/lds/reads.py) loads each lane's fragment.

The tile is the read plan's (matrix_plans.lds.tile.Tile: shape, order, padding, swizzle, base); the
global tile is the same elements in a matrix stored by rows or columns (`global_order`)
with a leading dimension `ld` (elements). Routes (instructions/lds_copy.py):

- register: a global or buffer load of W bytes per lane, then DS writes of W/V bytes each:
  each lane takes W contiguous global bytes (chunks in global order: coalesced) and
  writes them where the tile (its padding and swizzle) keeps them;
- direct (gfx9): the LDS address of a lane is M0 + INST.OFFSET + lane x S (S = 4, or 16
  for x3/x4), fixed: each instruction fills the next wave x S bytes of the tile's LDS
  image, and each lane fetches the global bytes of the elements stored there, so the
  swizzle moves into the global addresses (or the plan is refused with the reason);
- async (gfx1250): a per-lane LDS address: chunks in global order, as the register route.

Each instruction of each wave is listed with every lane's global byte offset (from the
tile's first element) and LDS byte address, the 64- and 128-byte segments it touches,
and its LDS write phases under the architecture's write model. `check` replays a plan:
every element of the tile lands exactly where the tile's address function puts it.
"""

from __future__ import annotations

from collections.abc import Iterable

from instructions.lds import PhaseModel, PhaseRow
from instructions.lds_copy import CopyOp
from instructions.record import Record
from layouts.core import CalcError, shown

from matrix_plans.lds.tile import Phase, Tile

SEGMENTS = (64, 128)


class CopyLane(Record):
    """One lane of a copy instruction: `bytes` bytes from global byte `global_at`
    (offset from the tile's first element) to LDS byte `lds_at` (None: not this step's
    side: a load only reads, a lane masked off does neither)."""
    lane: int
    global_at: int | None
    lds_at: int | None
    bytes: int


class Segments(Record):
    """The global requests of one instruction: `touched` aligned segments of `size` bytes
    touched, `used` bytes of them read."""
    size: int
    touched: int
    used: int

    @property
    def efficiency(self) -> float:
        return self.used / (self.touched * self.size) if self.touched else 1.0


class CopyStep(Record):
    """One copy instruction of wave `wave` (its `number`-th): lanes, global segments
    (loads), LDS write phases (writes). `m0`: a direct load's LDS address of lane 0."""
    wave: int
    number: int
    instruction: str
    route: str
    lanes: tuple[CopyLane, ...]
    segments: tuple[Segments, ...]
    phases: tuple[Phase, ...]
    m0: int | None = None

    @property
    def worst(self) -> int:
        return max((p.conflict for p in self.phases), default=0)


class CopyPlan(Record):
    """A whole copy: the route, the instructions (`load`, and `write` on the register
    route), the global tile (order, ld), the waves and how they split the tile, every
    step, the write model and the notes."""
    route: str
    load: CopyOp
    write: CopyOp | None
    global_order: str
    ld: int
    waves: int
    wave_split: str
    element_bits: int
    steps: tuple[CopyStep, ...]
    write_model: PhaseModel
    notes: tuple[str, ...]
    k_axis: int = 1  # the global matrix's K axis (Global.k_axis)

    @property
    def glob(self) -> Global:
        return Global(self.global_order, self.ld, self.k_axis)

    @property
    def worst_write(self) -> int:
        return max((s.worst for s in self.steps), default=0)

    def coalescing(self, size: int) -> Segments:
        used = count = 0
        for step in self.steps:
            for seg in step.segments:
                if seg.size == size:
                    used, count = used + seg.used, count + seg.touched
        return Segments(size, count, used)

    def per_wave(self) -> dict[str, int]:
        """Instructions of wave 0, by name."""
        counts: dict[str, int] = {}
        for step in self.steps:
            if step.wave == 0:
                counts[step.instruction] = counts.get(step.instruction, 0) + 1
        return counts


class Global(Record):
    """The global tile: element (i, j) of the operand's matrix (rows i, columns j) at
    element offset i * ld + j (order "row") or j * ld + i ("col"). `k_axis`: 1 when the
    matrix's columns are K (A, K, SA), 0 when its rows are (B, SB)."""
    order: str
    ld: int
    k_axis: int

    def offset(self, tile: Tile, row: int, col: int) -> int:
        k, mn = (col, row) if tile.order == "k" else (row, col)
        i, j = (mn, k) if self.k_axis else (k, mn)
        return i * self.ld + j if self.order == "row" else j * self.ld + i

    def extent(self, tile: Tile) -> tuple[int, int]:
        """(rows, columns) of the operand's matrix the tile covers."""
        k, mn = (tile.cols, tile.rows) if tile.order == "k" else (tile.rows, tile.cols)
        return (mn, k) if self.k_axis else (k, mn)


# ---- the maps of the tile -----------------------------------------------------------

def _lds_bits(tile: Tile, bits: int) -> list[int]:
    """The LDS bit address of every tile element, row by row (Tile.bit_offset in bulk)."""
    start, stride = tile.base * 8, (tile.cols + tile.pad) * bits
    cols = range(tile.cols)
    out: list[int] = []
    for row in range(tile.rows):
        if tile.swizzle:
            vec, per_phase, max_phase = tile.swizzle
            phase = (row // per_phase) % max_phase
            offsets = [((col // vec) ^ phase) * vec + col % vec for col in cols]
        else:
            offsets = list(cols)
        base = row * stride
        if tile.xor:
            out += [start + _xor(base + col * bits, tile.xor) for col in offsets]
        else:
            out += [start + base + col * bits for col in offsets]
    return out


def _xor(at: int, pairs: tuple[tuple[int, int], ...]) -> int:
    for dst, src in pairs:
        at ^= ((at >> (src + 3)) & 1) << (dst + 3)
    return at


class _Maps:
    """Bit addresses of every tile element in LDS and in global memory, both ways."""

    def __init__(self, tile: Tile, bits: int, glob: Global) -> None:
        self.bits = bits
        at = [(row, col) for row in range(tile.rows) for col in range(tile.cols)]
        lds = _lds_bits(tile, bits)
        # the global offset is linear in (row, col): one of them steps by ld
        first, second = glob.offset(tile, 1, 0), glob.offset(tile, 0, 1)
        glo = [(row * first + col * second) * bits for row, col in at]
        self.lds = dict(zip(lds, at))
        self.glob = dict(zip(glo, at))
        self.lds_of = dict(zip(at, lds))
        self.glob_of = dict(zip(at, glo))

    def run(self, table: dict[int, tuple[int, int]], start: int, count: int
            ) -> list[tuple[int, int] | None]:
        return [table.get(start + j * self.bits) for j in range(count)]


def segments(lanes: Iterable[CopyLane]) -> tuple[Segments, ...]:
    """The global segments of each size of SEGMENTS the lanes' reads touch, with the
    bytes they use of them (the coalescing of one copy instruction)."""
    out = []
    for size in SEGMENTS:
        touched: set[int] = set()
        used = 0
        for lane in lanes:
            if lane.global_at is None:
                continue
            used += lane.bytes
            touched.update(range(lane.global_at // size,
                                 (lane.global_at + lane.bytes - 1) // size + 1))
        out.append(Segments(size, len(touched), used))
    return tuple(out)


def write_phases(lanes: tuple[CopyLane, ...], row: PhaseRow) -> tuple[Phase, ...]:
    """The write phases of `row`: the distinct dwords each bank receives per lane group."""
    at = {lane.lane: lane for lane in lanes if lane.lds_at is not None}
    phases = []
    for group in row.groups:
        active = [at[lane] for lane in group if lane in at]
        if not active:
            continue
        dwords: list[set[int]] = [set() for _ in range(row.banks)]
        for lane in active:
            assert lane.lds_at is not None
            for dword in range(lane.lds_at // 4, (lane.lds_at + lane.bytes - 1) // 4 + 1):
                dwords[dword % row.banks].add(dword)
        counts = tuple(len(d) for d in dwords)
        phases.append(Phase(tuple(lane.lane for lane in active), max(counts), counts))
    return tuple(phases)


# ---- the plan ------------------------------------------------------------------------

def _groups(total: int, wave: int, waves: int, split: str) -> dict[tuple[int, int], int]:
    """(wave, number) -> the group of `wave` consecutive units it copies: "block": wave w
    takes the w-th block of consecutive groups; "interleave": group n*waves + w."""
    groups = -(-total // wave)
    per = -(-groups // waves)
    out = {}
    for g in range(groups):
        w, n = (g // per, g % per) if split == "block" else (g % waves, g // waves)
        out[(w, n)] = g
    return out


def _chunks(maps: _Maps, size: int) -> list[tuple[int, int]] | str:
    """The tile in global order cut in `size`-byte chunks: (global bit address, LDS bit
    address of the first element), or why a chunk is not contiguous in global memory."""
    order = sorted(maps.glob)
    count = size * 8 // maps.bits
    if count == 0 or len(order) % count:
        return f"the tile's {len(order)} elements do not split into {size}-byte pieces"
    chunks = []
    for q in range(0, len(order), count):
        first, last = order[q], order[q + count - 1]
        if last - first != (count - 1) * maps.bits:
            row, col = maps.glob[first]
            return (f"a lane's {size} bytes from tile element ({row}, {col}) would span two "
                    f"global rows: the tile's rows in global memory are not a multiple of "
                    f"{size} bytes")
        chunks.append((first, maps.lds_of[maps.glob[first]]))
    return chunks


def _contiguous_lds(maps: _Maps, glob_bit: int, size: int) -> int | str:
    """The LDS bit address of `size` global bytes from `glob_bit`, or why they are not
    contiguous in LDS (the padding or the swizzle splits them)."""
    count = size * 8 // maps.bits
    elems = maps.run(maps.glob, glob_bit, count)
    start = maps.lds_of[elems[0]]  # type: ignore[index]
    for j, elem in enumerate(elems):
        if elem is None or maps.lds_of[elem] != start + j * maps.bits:
            row, col = elems[0]  # type: ignore[misc]
            return (f"the {size} bytes from tile element ({row}, {col}) are not contiguous in "
                    f"LDS (the swizzle or the padding splits them): copy with a narrower "
                    f"write (+ds_write_b{size * 4}) or a swizzle that keeps {size} bytes "
                    "together")
    return start


def _check_align(address: int, size: int, what: str) -> str:
    align = 16 if size == 12 else size
    return "" if address % align == 0 else f"{what} {address} is not a multiple of {align}"


def _written(maps: _Maps, mine: list[tuple[int, int] | None], size: int, piece: int
             ) -> list[list[CopyLane]] | str:
    """The writes of a group of chunks (lane -> chunk, None: masked off): one list of
    lanes per `piece`-byte write of each lane's `size` bytes."""
    pieces: list[list[CopyLane]] = [[] for _ in range(size // piece)]
    for lane, chunk in enumerate(mine):
        for p, out in enumerate(pieces):
            if chunk is None:
                out.append(CopyLane(lane, None, None, 0))
                continue
            glob = chunk[0] + p * piece * 8
            lds = _contiguous_lds(maps, glob, piece)
            if isinstance(lds, str):
                return lds
            bad = _check_align(lds // 8, piece, "an LDS address")
            if bad:
                return f"lane {lane}: {bad}"
            out.append(CopyLane(lane, glob // 8, lds // 8, piece))
    return pieces


def register_steps(maps: _Maps, load: CopyOp, write: CopyOp | None, wave: int, waves: int,
                   split: str, model: PhaseModel) -> list[CopyStep] | str:
    """The steps of the register route (write: None for the async route, whose loads
    write LDS themselves)."""
    chunks = _chunks(maps, load.bytes)
    if isinstance(chunks, str):
        return chunks
    piece = write.bytes if write else load.bytes
    if load.bytes % piece:
        return f"{load.bytes}-byte loads do not split into {piece}-byte writes"
    steps: list[CopyStep] = []
    row = model.row(piece * 8)
    for (w, _), g in sorted(_groups(len(chunks), wave, waves, split).items()):
        mine = [chunks[q] if q < len(chunks) else None
                for q in range(g * wave, g * wave + wave)]
        pieces = _written(maps, mine, load.bytes, piece)
        if isinstance(pieces, str):
            return pieces
        number = sum(1 for s in steps if s.wave == w)
        if write is None:  # async: one instruction reads and writes
            lanes = tuple(pieces[0])
            steps.append(CopyStep(w, number, load.name, load.route, lanes, segments(lanes),
                                  write_phases(lanes, row)))
            continue
        reads = tuple(CopyLane(lane, None if c is None else c[0] // 8, None,
                               0 if c is None else load.bytes) for lane, c in enumerate(mine))
        steps.append(CopyStep(w, number, load.name, "load", reads, segments(reads), ()))
        for at, out in enumerate(pieces, 1):
            lanes = tuple(out)
            steps.append(CopyStep(w, number + at, write.name, "write", lanes, (),
                                  write_phases(lanes, row)))
    return steps


def direct_steps(maps: _Maps, tile: Tile, load: CopyOp, wave: int, waves: int, split: str,
                 model: PhaseModel) -> list[CopyStep] | str:
    """The steps of a direct route: instruction g fills LDS bytes [base + g*wave*S,
    base + (g+1)*wave*S) of the tile's image, lane l at base + g*wave*S + l*S."""
    stride, size, bits = load.lds_stride, load.bytes, maps.bits
    image = tile.bytes(bits)
    span = wave * stride
    count = size * 8 // bits
    row = model.row(size * 8)
    steps: list[CopyStep] = []
    lds, glob_of, new = maps.lds, maps.glob_of, tuple.__new__  # (lanes built directly)
    offsets = [j * bits for j in range(count)]
    for (w, n), g in sorted(_groups(-(-image // stride), wave, waves, split).items()):
        m0 = tile.base + g * span
        lanes = []
        for lane in range(wave):
            at = m0 + lane * stride
            elems = [lds.get(at * 8 + j) for j in offsets]
            if elems[0] is None and elems[-1] is None and not any(elems):
                lanes.append(new(CopyLane, (lane, None, None, 0)))
                continue
            if None in elems:
                return (f"lane {lane} of instruction {g} would write LDS bytes {at}-"
                        f"{at + size - 1}, partly padding: {load.name} writes {size} bytes "
                        f"per lane at lane x {stride}")
            glob = glob_of[elems[0]]  # type: ignore[index]
            if any(glob_of[elem] != glob + j for elem, j in zip(elems, offsets)):  # type: ignore[index]
                r, c = elems[0]  # type: ignore[misc]
                return (f"lane {lane} of instruction {g} writes LDS bytes {at}-"
                        f"{at + size - 1}, whose elements (from ({r}, {c})) are not "
                        f"contiguous in global memory: the swizzle or the global order "
                        f"breaks the {size}-byte runs {load.name} needs")
            if stride > size and any(e is not None for e in maps.run(
                    lds, (at + size) * 8, (stride - size) * 8 // bits)):
                return (f"{load.name} skips LDS bytes {at + size}-{at + stride - 1} of lane "
                        f"{lane} (it writes {size} of every {stride}), but the tile stores "
                        "elements there")
            if glob % 32:
                return f"lane {lane}: a global offset {glob // 8} is not a multiple of 4"
            lanes.append(new(CopyLane, (lane, glob // 8, at, size)))
        done = tuple(lanes)
        steps.append(CopyStep(w, n, load.name, "direct", done, segments(done),
                              write_phases(done, row), m0))
    return steps


def check(plan: CopyPlan, tile: Tile, glob: Global, maps: _Maps | None = None) -> list[str]:
    """Replays the plan: the element each lane's global bytes hold must be the one the
    tile keeps at the LDS bytes the lane writes, and every element is written once."""
    maps = maps or _Maps(tile, plan.element_bits, glob)
    bits = plan.element_bits
    written: dict[int, int] = {}
    errors = []
    for step in plan.steps:
        if step.route == "load":
            continue
        for lane in step.lanes:
            if lane.lds_at is None or lane.global_at is None:
                continue
            for j in range(lane.bytes * 8 // bits):
                src = maps.glob.get(lane.global_at * 8 + j * bits)
                dst = lane.lds_at * 8 + j * bits
                if maps.lds.get(dst) != src:
                    errors.append(f"wave {step.wave} {step.instruction} #{step.number} lane "
                                  f"{lane.lane}: LDS bit {dst} gets {src}, the tile keeps "
                                  f"{maps.lds.get(dst)} there")
                written[dst] = written.get(dst, 0) + 1
    missing = [a for a in maps.lds if written.get(a) != 1]
    if missing:
        errors.append(f"{len(missing)} elements not written exactly once (first at LDS bit "
                      f"{missing[0]})")
    return errors


def plan_copy(tile: Tile, bits: int, glob: Global, load: CopyOp, write: CopyOp | None,
              wave: int, waves: int, split: str, model: PhaseModel) -> CopyPlan:
    """The copy plan of `tile` (elements of `bits`) from the global tile `glob` with `load`
    (and `write` on the register route)."""
    if split not in ("block", "interleave"):
        raise CalcError(f"--wave-split is block or interleave, not {shown(split)}", "wave_split")
    maps = _Maps(tile, bits, glob)
    notes = []
    if load.route == "direct":
        found = direct_steps(maps, tile, load, wave, waves, split, model)
        notes.append(f"{load.name} writes lane l at M0 + INST.OFFSET + l x {load.lds_stride} "
                     "(CDNA4 ISA 9.1.9, 10.3): the tile's swizzle is applied to the global "
                     "addresses")
        if tile.base % 4 == 0:
            notes.append("M0 holds each instruction's LDS address (m0 column); the compiler "
                         "does not track direct-to-LDS writes: wait (vmcnt) and barrier "
                         "before reading")
    else:
        found = register_steps(maps, load, write if load.route == "load" else None, wave,
                               waves, split, model)
        if load.route == "async":
            notes.append("asynchronous loads write LDS at a per-lane address; wait with "
                         "s_wait_asynccnt, then barrier")
    if isinstance(found, str):
        name = load.name + (f" + {write.name}" if write and load.route == "load" else "")
        raise CalcError(f"{name} cannot copy this tile ({tile.text}): {found}", "copy")
    notes.append("global offsets are from the tile's first element, assumed 128-byte "
                 "aligned for the segment counts")
    if model.assumed:
        notes.append(f"write model assumed: {model.confidence}")
    plan = CopyPlan(load.route if load.route != "load" else "register", load,
                    write if load.route == "load" else None, glob.order, glob.ld, waves,
                    split, bits, tuple(found), model, tuple(notes), glob.k_axis)
    errors = check(plan, tile, glob, maps)
    if errors:  # (a plan that does not replay is a bug of the engine: say so)
        raise CalcError("internal: the copy plan does not replay: " + "; ".join(errors[:3]))
    return plan
