"""The LDS tile and the records of a load plan (matrix_plans/lds/reads.py makes the
plans): how an operand's tile is stored (shape, order, padding, swizzle, base), the
swizzles Triton and CK choose, the check that a tile can hold a fragment, and the plan's
loads, phases and register slots."""


from __future__ import annotations

from instructions.lds import LdsFacts, Load, PhaseModel
from instructions.record import Record
from layouts.core import CalcError, shown


class Tile(Record):
    """An operand tile as stored in LDS: `rows` x `cols` elements, rows contiguous, row r
    starting (cols + pad) elements after row r-1, at byte `base`. order "k": a row holds
    K values (rows index M/N, blocks after one another); "mn": a row holds M/N values
    (rows index K). swizzle (vec, per_phase, max_phase): chunk c of vec elements of row r
    is stored at chunk c ^ ((r // per_phase) % max_phase), as Triton and CK define it.
    xor ((dst, src), ...): bit dst of each byte's offset from the tile's start is XORed
    with its bit src (a kernel's hand-written swizzle, e.g. ((4, 8), (5, 9), (7, 10)))."""
    rows: int
    cols: int
    order: str = "k"
    pad: int = 0
    swizzle: tuple[int, int, int] | None = None
    base: int = 0
    xor: tuple[tuple[int, int], ...] = ()

    def offset(self, row: int, col: int) -> int:
        """The element offset of (row, col) from the tile's start."""
        if self.swizzle:
            vec, per_phase, max_phase = self.swizzle
            col = ((col // vec) ^ ((row // per_phase) % max_phase)) * vec + col % vec
        return row * (self.cols + self.pad) + col

    def bit_offset(self, row: int, col: int, bits: int) -> int:
        """The bit offset of (row, col) from the tile's start, the XOR swizzle applied."""
        at = self.offset(row, col) * bits
        for dst, src in self.xor:
            at ^= ((at >> (src + 3)) & 1) << (dst + 3)
        return at

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
        if self.xor:
            parts.append("swizzle " + xor_text(self.xor))
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


# ---- checks of the tile ------------------------------------------------------------

def xor_text(pairs: tuple[tuple[int, int], ...]) -> str:
    """The --lds-swizzle spelling of an XOR swizzle: xor:4^8,5^9."""
    return "xor:" + ",".join(f"{dst}^{src}" for dst, src in pairs)


def _check_xor(tile: Tile, bits: int) -> None:
    """CalcError unless the XOR swizzle moves whole elements within their row and is its
    own inverse (no bit is both changed and read)."""
    dsts = [dst for dst, _ in tile.xor]
    text = xor_text(tile.xor)
    if len(set(dsts)) != len(dsts) or any(src in dsts for _, src in tile.xor):
        raise CalcError(f"swizzle {text}: a bit is changed twice or changed and read; each "
                        "DST^SRC changes bit DST by bit SRC, DST distinct and never a SRC",
                        "swizzle")
    for dst, src in tile.xor:
        if dst == src:
            raise CalcError(f"swizzle {text}: {dst}^{src} XORs a bit with itself", "swizzle")
        if (1 << (dst + 3)) < bits:
            raise CalcError(f"swizzle {text}: bit {dst} is inside a {bits}-bit element; "
                            f"the lowest bit a swizzle may change is "
                            f"{(bits // 8).bit_length() - 1}", "swizzle")
        span = 1 << (dst + 4)  # bits of the aligned block bit dst moves within
        if (tile.cols + tile.pad) * bits % span or tile.cols * bits % span:
            stride = (tile.cols + tile.pad) * bits // 8
            raise CalcError(f"swizzle {text}: bit {dst} moves bytes across rows: a row "
                            f"holds {tile.cols * bits // 8} bytes ({stride} with padding), "
                            f"not a multiple of {span // 8}", "swizzle")


def check_tile(tile: Tile, frag_rows: int, frag_cols: int, bits: int,
               facts: LdsFacts) -> None:
    """CalcError unless the tile holds the fragment, fits in LDS and swizzles within rows."""
    if tile.order not in ("k", "mn"):
        raise CalcError(f"the tile order is k (K contiguous) or mn (M/N contiguous), "
                        f"not {shown(tile.order)}", "order")
    if tile.rows < frag_rows or tile.cols < frag_cols:
        raise CalcError(f"a {tile.rows}x{tile.cols} tile (order {tile.order}) cannot hold "
                        f"the fragment: it needs at least {frag_rows}x{frag_cols}", "tile")
    end = tile.base + tile.bytes(bits)
    if end > facts.lds_bytes:
        raise CalcError(f"the tile ends at byte {end}, beyond the {facts.lds_bytes} bytes of "
                        f"LDS a workgroup may use on {facts.arch}", "base" if tile.base else "tile")
    if tile.swizzle:
        vec, per_phase, max_phase = tile.swizzle
        if tile.cols % vec:
            raise CalcError(f"swizzle VEC {vec} must divide the tile's {tile.cols} columns",
                            "swizzle")
        chunks = tile.cols // vec
        phases = min(max_phase - 1, (tile.rows - 1) // per_phase)  # (the largest phase)
        reach = max_xor(phases, chunks - 1)  # (not a walk over rows x chunks)
        if reach >= chunks:
            raise CalcError(f"swizzle {vec},{per_phase},{max_phase} moves chunks past the "
                            f"row's {chunks} chunks of {vec}; lower MAX_PHASE to at most "
                            f"{1 << (chunks.bit_length() - 1)}", "swizzle")
    if tile.xor:
        if tile.swizzle:
            raise CalcError("give one swizzle: VEC,PER_PHASE,MAX_PHASE or xor:DST^SRC,...",
                            "swizzle")
        _check_xor(tile, bits)


def max_xor(a: int, b: int) -> int:
    """The largest x ^ y for 0 <= x <= a and 0 <= y <= b, in time proportional to their
    bits (a swizzle's farthest chunk: phase ^ chunk): bit by bit from the top, the best
    value so far for each of the four ways x and y may still be bound by a and b."""
    best = {(True, True): 0}
    for bit in reversed(range(max(a, b).bit_length())):
        top_a, top_b = a >> bit & 1, b >> bit & 1
        following: dict[tuple[bool, bool], int] = {}
        for (bound_a, bound_b), value in best.items():
            for x in range(1 + (not bound_a or top_a)):
                for y in range(1 + (not bound_b or top_b)):
                    key = (bound_a and x == top_a, bound_b and y == top_b)
                    found = value | (x ^ y) << bit
                    if following.get(key, -1) < found:
                        following[key] = found
        best = following
    return max(best.values())


# ---- the settings a search tries, and the swizzles of Triton and CK

def _powers(limit: int) -> list[int]:
    return [1 << n for n in range(limit.bit_length()) if 1 << n <= limit]


def search_settings(bits: int, cols: int) -> list[tuple[int, tuple[int, int, int] | None]]:
    """The (pad, swizzle) settings a search of a tile `cols` elements of `bits` wide
    tries: paddings of 0 to one row of 128 bytes more, and swizzles of powers of two
    (chunks of at most 512 bits)."""
    found: list[tuple[int, tuple[int, int, int] | None]] = [
        (pad_elems, None) for pad_elems in range(0, max(1, 1024 // bits) + 1)]
    for vec in _powers(cols):
        if vec * bits > 512:
            break
        found += [(0, (vec, per_phase, max_phase)) for per_phase in _powers(16)
                  for max_phase in _powers(cols // vec)[1:]]
    return found


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
