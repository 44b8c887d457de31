"""Epilogue store plans: D (optionally converted) from the instruction's
registers into a tile of global memory, row- or column-major with leading dimension ld,
by three routes, each read off the layout engine:

* direct: every lane stores its values where they belong; values consecutive in the
  lane's (packed) registers and in global memory go in one store of up to 16 bytes;
* lds: every lane writes its values into an LDS copy of the tile (in the global order),
  then reads back `width` contiguous bytes per lane and stores them with wide stores;
* lds-transpose: every lane writes groups of values with one store each, a transpose
  load (gfx950's ds_read_b64_tr_b16, gfx1250's ds_load_tr16_b128) gathers them across
  lanes so that each lane holds consecutive values of a row, one wide store each.

Each route names the element every stored byte receives (`stores`), so a test checks
every element lands at its address once; the LDS accesses are counted with the
architecture's phase model (bank conflicts) and the global stores by the aligned
128-byte segments they touch (coalescing). The cheapest route is chosen: a global store
weighs GLOBAL_COST instructions, an LDS access its worst conflict, an LDS round trip one
wait (WAIT_COST).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from instructions.lane_moves import WAIT_COST, arch_moves
from instructions.lds import Load, lds_facts
from instructions.model import TYPES
from instructions.preshuffles import GLOBAL_STORES
from instructions.record import Record
from layouts import Operand
from layouts.core import CalcError
from layouts.fragment import element, fragment

from matrix_plans.lds.reads import LANE_MAPS, read_phases

LaneMap = Callable[[int, int], tuple[int, int]]
Values = dict[int, list[tuple[int, int]]]


GLOBAL_COST = 4   # a global store against one LDS access ([INF], docs/epilogue.md)
SEGMENT = 128     # bytes of one coalescing segment (CDNA3/CDNA4 L2 line)
WIDTHS = (16, 8, 4, 2, 1)


class Store(Record):
    """One store (global, or an LDS write) of one lane: its instruction number, byte
    address (in the global tile, or in LDS), bytes, the elements (i, j) it writes in
    address order, and `source`: the byte of the lane's converted registers it stores
    from (-1: from what the lane read back from LDS)."""
    lane: int
    number: int
    address: int
    bytes: int
    elements: tuple[tuple[int, int], ...]
    source: int = -1


class Route(Record):
    name: str
    counts: tuple[tuple[str, int], ...]   # (mnemonic, issues per wave)
    lds_bytes: int
    conflicts: tuple[tuple[str, int], ...]   # (LDS mnemonic, worst conflict)
    segments: tuple[int, ...]   # 128-byte segments per global store instruction
    stores: tuple[Store, ...]
    cost: int
    refused: str = ""
    writes: tuple[Store, ...] = ()   # the LDS writes (LDS routes)
    reads: tuple[tuple[int, int, int], ...] = ()   # (lane, number, LDS byte address)


class Epilogue(Record):
    """The routes of one store plan (`chosen`: the cheapest possible); `arch`: the
    architecture's canonical name; D's value bits and VGPRs per lane."""
    arch: str
    d_bits: int
    d_registers: int
    wave: int
    bits: int          # bits of a stored value
    order: str
    ld: int
    shape: tuple[int, int]
    pack: tuple[str, ...]   # the conversion's instructions per lane ('' none)
    routes: tuple[Route, ...]

    @property
    def chosen(self) -> Route:
        return min((r for r in self.routes if not r.refused), key=lambda r: r.cost)


def type_bits(key: str) -> int:
    """The bits of the stored type `key` (8 for a key instructions.model TYPES does not know)."""
    return int(TYPES[key].bits) if key in TYPES else 8


def pack_issues(arch: str, frm: str, to: str, values: int) -> tuple[str, ...]:
    """The conversion's instructions for `values` D values of type `frm` stored as `to`
    (none when the types agree), from the architecture's packs."""
    if frm == to:
        return ()
    for pack in arch_moves(arch).packs:
        if pack.frm == frm and pack.to == to and not pack.span:
            per = 32 // type_bits(to)
            return pack.issues(per) * (values // per)
    raise CalcError(f"{arch} has no conversion of {frm} D values into {to} (the conversion "
                    "packs: docs/chaining.md)", "store_type")


def _lane_values(operand: Operand, wave: int) -> Values:
    """lane -> the (i, j) of its values in register order (v order)."""
    frag = fragment(operand)
    out: Values = {}
    for lane in range(wave):
        values = [element(frag, lane, v) for v in range(frag.values)]
        if all(v is None for v in values):
            continue
        if any(v is None for v in values):
            raise CalcError(f"lane {lane} holds part of D only: no store plan")
        out[lane] = [(v[0], v[1]) for v in values if v is not None]
    return out


def _address(i: int, j: int, order: str, ld: int) -> int:
    return i * ld + j if order == "row" else j * ld + i


def _runs(addresses: list[int]) -> list[tuple[int, int]]:
    """(first index, length) of runs of consecutive addresses."""
    runs: list[tuple[int, int]] = []
    for n, a in enumerate(addresses):
        if runs and addresses[n - 1] + 1 == a:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((n, 1))
    return runs


def _chunks(start: int, count: int, byte: int, reg_byte: int, size: int) -> list[tuple[int, int]]:
    """Split `count` values from index `start` (global byte `byte`, register byte
    `reg_byte`, `size` bytes each) into stores: (first index, values), widest aligned
    first (a store of 4 bytes or more starts at a register boundary)."""
    out = []
    n = 0
    while n < count:
        for width in WIDTHS:
            values = width // size if width >= size else 0
            b, r = byte + n * size, reg_byte + n * size
            if values and n + values <= count and b % width == 0 and \
                    (width < 4 or r % 4 == 0) and r % min(width, 4) == 0:
                out.append((start + n, values))
                n += values
                break
        else:
            raise CalcError("a value does not fit a store")
    return out


def _lane_stores(values: Values, bits: int, place: Callable[[int, int], int]
                 ) -> dict[int, list[tuple[int, int, tuple[int, ...]]]]:
    """lane -> [(byte address, bytes, value indices)] for values placed by `place`."""
    size = bits // 8
    out = {}
    for lane, elems in values.items():
        addresses = [place(i, j) for i, j in elems]
        stores = []
        for first, length in _runs(addresses):
            for start, count in _chunks(first, length, addresses[first] * size,
                                        first * size, size):
                stores.append((addresses[start] * size, count * size,
                               tuple(range(start, start + count))))
        out[lane] = stores
    return out


def _segments(stores: list[Store]) -> tuple[int, ...]:
    by_number: dict[int, set[int]] = {}
    for s in stores:
        segs = by_number.setdefault(s.number, set())
        segs.update(range(s.address // SEGMENT, (s.address + s.bytes - 1) // SEGMENT + 1))
    return tuple(len(by_number[n]) for n in sorted(by_number))


def _store_name(arch: str, width: int) -> str:
    """The global store of `width` bytes (gfx9 or gfx11+ spelling, by the LDS naming the
    architecture's lane-move record carries)."""
    return GLOBAL_STORES[arch_moves(arch).load][width]


def _uniform(per_lane: dict[int, list[tuple[int, int, tuple[int, ...]]]]) -> str:
    widths = {tuple(b for _, b, _ in stores) for stores in per_lane.values()}
    return "" if len(widths) == 1 else "the lanes store different widths"


def _conflicts(addresses: dict[int, int], bits: int, arch: str, wave: int,
               name: str) -> int:
    """Worst bank conflict of one LDS access (lane -> byte address), by the
    architecture's default phase model for that width."""
    facts = lds_facts(arch)
    if facts is None:
        return 1
    row = facts.model(None).row(max(32, bits))  # type: ignore[union-attr]
    found: list[int | None] = [addresses[lane] * 8 if lane in addresses else None
                               for lane in range(wave)]
    return max((p.conflict for p in read_phases(found, Load(name, bits), row, wave)), default=1)


def direct(values: Values, bits: int, order: str, ld: int, arch: str) -> Route:
    per_lane = _lane_stores(values, bits, lambda i, j: _address(i, j, order, ld))
    refused = _uniform(per_lane)
    stores = [Store(lane, n, a, b, tuple(values[lane][v] for v in idx), idx[0] * bits // 8)
              for lane, found in per_lane.items() for n, (a, b, idx) in enumerate(found)]
    first = next(iter(per_lane.values()))
    counts = _count(_store_name(arch, b) for _, b, _ in first)
    cost = GLOBAL_COST * len(first)
    return Route("direct", counts, 0, (), _segments(stores), tuple(stores), cost, refused)


def _count(names: Iterable[str]) -> tuple[tuple[str, int], ...]:
    out: dict[str, int] = {}
    for name in names:
        out[name] = out.get(name, 0) + 1
    return tuple(out.items())


def through_lds(values: Values, bits: int, order: str, shape: tuple[int, int], ld: int,
                arch: str, wave: int) -> Route:
    """Write the values into an LDS copy of the tile (global order, no padding), read
    `width` contiguous bytes per lane back, store them."""
    rows, cols = shape
    inner = cols if order == "row" else rows
    size = bits // 8
    moves = arch_moves(arch)

    def tile_at(i: int, j: int) -> int:
        return _address(i, j, order, inner)
    writes = _lane_stores(values, bits, tile_at)
    refused = _uniform(writes)
    tile_bytes = rows * cols * size
    share = tile_bytes // len(values)
    width = next((w for w in (16, 8, 4) if share % w == 0 and (inner * size) % w == 0), 0)
    if not width or tile_bytes % (wave * width):
        return Route("lds", (), tile_bytes, (), (), (), 0,
                     refused or "the tile does not split into whole reads per lane")
    conflicts = []
    first = next(iter(writes.values()))
    for n, (_, b, _) in enumerate(first):
        name = moves.lds(b * 8)
        conflicts.append((name, _conflicts({lane: w[n][0] for lane, w in writes.items()},
                                           b * 8, arch, wave, name)))
    reads = tile_bytes // (wave * width)
    where = {tile_at(i, j) * size: (i, j) for i in range(rows) for j in range(cols)}
    stores, read_at = [], []
    read_name = moves.lds(width * 8, load=True)
    for r in range(reads):
        at = {lane: (r * wave + lane) * width for lane in range(wave)}
        conflicts.append((read_name, _conflicts(at, width * 8, arch, wave, read_name)))
        for lane, byte in at.items():
            elems = tuple(where[byte + k * size] for k in range(width // size))
            i, j = elems[0]
            stores.append(Store(lane, r, _address(i, j, order, ld) * size, width, elems))
            read_at.append((lane, r, byte))
    counts = (_count(n for n, _ in conflicts) +
              _count(_store_name(arch, width) for _ in range(reads)))
    lds_cost = sum(c for _, c in conflicts) + WAIT_COST
    written = tuple(Store(lane, n, a, b, tuple(values[lane][v] for v in idx), idx[0] * size)
                    for lane, found in writes.items() for n, (a, b, idx) in enumerate(found))
    return Route("lds", counts, tile_bytes, tuple(conflicts), _segments(stores),
                 tuple(stores), GLOBAL_COST * reads + lds_cost, refused, written,
                 tuple(read_at))


def _slot_sets(lane_map: LaneMap, group: int, wave: int
               ) -> list[tuple[tuple[int, ...], list[int]]] | str:
    """[(the slots a lane set reads, in element order e; its G lanes, by the element x
    of those slots each takes)] of a transpose load, or why it gathers otherwise."""
    sets: dict[tuple[int, ...], dict[int, int]] = {}
    for lane in range(wave):
        pairs = [lane_map(lane, e) for e in range(group)]
        elems = {elem for _, elem in pairs}
        if len(elems) != 1:
            return "its lane map gives a lane elements of different positions"
        sets.setdefault(tuple(src for src, _ in pairs), {})[elems.pop()] = lane
    out = []
    for slots, by_elem in sorted(sets.items()):
        if sorted(by_elem) != list(range(group)):
            return "its lane map does not hand every element of a slot to one lane"
        out.append((slots, [by_elem[x] for x in range(group)]))
    return out


def _refusal(values: Values, load: Load, wave: int, group: int) -> str:
    if load.lane_map not in LANE_MAPS:
        return f"{load.name}'s lane map is not known"
    if load.waves and wave not in load.waves:
        return f"{load.name} runs in wave{'/'.join(map(str, load.waves))} only"
    if len(values) != wave:
        return f"{load.name} needs every lane active (EXEC all ones)"
    if any(len(v) % group for v in values.values()):
        return f"a lane's values do not split into groups of {group}"
    return ""


def _bundles(values: Values, k: int, group: int, order: str
             ) -> list[dict[int, int]] | str:
    """The writers of group k, in bundles of G: a bundle's groups hold, at each element
    position x, G values consecutive in global memory (the bundle maps their position
    in that run to the writing lane), sorted by where the runs are."""
    found: dict[tuple[tuple[int, int], ...], dict[int, int]] = {}
    for lane, elems in values.items():
        part = [(i, j // group, j % group) if order == "row" else (j, i // group, i % group)
                for i, j in elems[k * group:(k + 1) * group]]
        if len({p[2] for p in part}) != 1:
            return "a group's values are not at one position of their runs"
        found.setdefault(tuple((p[0], p[1]) for p in part), {})[part[0][2]] = lane
    if any(sorted(b) != list(range(group)) for b in found.values()):
        return "the groups do not form whole runs the transpose load can gather"
    return [found[key] for key in sorted(found)]


def transposed(values: Values, bits: int, order: str, ld: int, arch: str, wave: int,
               load: Load) -> Route:
    """Write groups of G values (one LDS store each) to the slots the transpose load
    gathers from, so that each lane receives G values consecutive in global memory and
    stores them at once."""
    group, size = load.bits // bits, bits // 8
    refused = _refusal(values, load, wave, group)
    sets = refused or _slot_sets(LANE_MAPS[load.lane_map], group, wave)
    if isinstance(sets, str):
        return Route("lds-transpose", (), 0, (), (), (), 0, sets)
    stores: list[Store] = []
    written: list[Store] = []
    read_at: list[tuple[int, int, int]] = []
    conflicts: list[tuple[str, int]] = []
    write_name = arch_moves(arch).lds(load.bits)
    groups = len(next(iter(values.values()))) // group
    for k in range(groups):
        bundles = _bundles(values, k, group, order)
        if isinstance(bundles, str) or len(bundles) != len(sets):
            return Route("lds-transpose", (), 0, (), (), (), 0, str(bundles) if isinstance(
                bundles, str) else "the groups do not match the load's lane sets")
        writes: dict[int, int] = {}
        for (slots, readers), by_pos in zip(sets, bundles):
            for e, slot in enumerate(slots):
                writes[by_pos[e]] = (k * wave + slot) * group * size
                lane = by_pos[e]
                written.append(Store(lane, k, writes[lane], group * size,
                                     tuple(values[lane][k * group:(k + 1) * group]),
                                     k * group * size))
            for x, lane in enumerate(readers):
                elems = tuple(values[by_pos[e]][k * group + x] for e in range(group))
                stores.append(Store(lane, k, _address(*elems[0], order, ld) * size,
                                    group * size, elems))
        reads = {lane: (k * wave + lane) * group * size for lane in range(wave)}
        read_at += [(lane, k, at) for lane, at in reads.items()]
        conflicts += [(write_name, _conflicts(writes, load.bits, arch, wave, write_name)),
                      (load.name, _conflicts(reads, load.bits, arch, wave, load.name))]
    for s in stores:
        addrs = [_address(i, j, order, ld) for i, j in s.elements]
        if addrs != list(range(addrs[0], addrs[0] + group)) or s.address % s.bytes:
            return Route("lds-transpose", (), 0, (), (), (), 0,
                         "a lane's gathered values are not one aligned run")
    counts = _count(n for n, _ in conflicts) + _count(_store_name(arch, group * size)
                                                       for _ in range(groups))
    cost = GLOBAL_COST * groups + sum(c for _, c in conflicts) + WAIT_COST
    return Route("lds-transpose", counts, groups * wave * group * size, tuple(conflicts),
                 _segments(stores), tuple(stores), cost, "", tuple(written), tuple(read_at))


def plan(operand: Operand, arch: str, store_bits: int, order: str = "row",
         ld: int | None = None, pack: tuple[str, ...] = ()) -> Epilogue:
    """The routes of storing D (`operand`) as values of `store_bits` into an `order`-major
    global tile with leading dimension `ld` (None: the tile's own), the cheapest chosen;
    `pack`: the conversion's instructions (for the text)."""
    wave = operand.wave
    if operand.blocks > 1:
        raise CalcError(f"{operand.inst.name} has {operand.blocks} blocks: store plans cover "
                        "single-block instructions")
    values = _lane_values(operand, wave)
    rows, cols = operand.shape[:2]
    ld = ld or (cols if order == "row" else rows)
    if ld < (cols if order == "row" else rows):
        raise CalcError(f"--ld {ld} is smaller than the tile's {cols if order == 'row' else rows}"
                        " values", "ld")
    routes = [direct(values, store_bits, order, ld, arch),
              through_lds(values, store_bits, order, (rows, cols), ld, arch, wave)]
    facts = lds_facts(arch)
    for load in (facts.loads if facts else ()):
        if load.transpose == store_bits and not load.at:
            routes.append(transposed(values, store_bits, order, ld, arch, wave, load))
    return Epilogue(arch, operand.layout.width, operand.register_count, wave, store_bits,
                    order, ld, (rows, cols), pack, tuple(routes))
