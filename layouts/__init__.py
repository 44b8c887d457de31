"""Operand layouts of every instruction family, with modifiers applied.

`Operand(inst, matrix, mods, wave)` is the one object every query reads: the places of
an element (element -> registers) and the elements of a register/lane (the inverse,
derived by enumerating the same forward map).
"""
from __future__ import annotations

from functools import cached_property, lru_cache

from instructions.model import Instruction
from instructions.modifiers import MODIFIERS as MODIFIER_SPECS

from layouts.algebra import LayoutMap
from layouts.core import CalcError, Elem, Layout, Place
from layouts.family import FAMILIES, hooks
from layouts.legality import check
from layouts.modifiers import BLGP_LANES, Modifiers, blgp_negates, cbsz_blocks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from instructions.model import FamilyFacts

__all__ = ["COORDINATES", "FAMILIES", "MATRICES", "CalcError", "Modifiers", "Operand", "Place",
           "base_layout", "check_matrix", "check_modifiers", "operand"]

MATRICES = ("A", "B", "C", "D", "K", "SA", "SB")
# Which of the coordinates i, j, k index each matrix's rows and columns (scales: k is kb).
COORDINATES = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j"), "D": ("i", "j"),
               "K": ("i", "k"), "SA": ("i", "k"), "SB": ("k", "j")}


def base_layout(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                wave: int = 64) -> Layout:
    """The layout of `matrix` with no lane/block modifiers (K: the selected index set):
    the generator of the family's module (layouts/family.py)."""
    return hooks(inst).layout(inst, matrix, wave, mods)


def family_facts(inst: Instruction) -> FamilyFacts:
    """Facts a layout family adds to (or replaces in) matrix_api.facts: {} for most."""
    facts = hooks(inst).facts
    return facts(inst) if facts else {}


class Operand:
    """One matrix of one instruction under the given modifiers."""

    def __init__(self, inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                 wave: int = 64) -> None:
        self.inst, self.matrix, self.mods, self.wave = inst, matrix, mods, wave
        family = hooks(inst)
        self.layout = family.layout(inst, matrix, wave, mods)
        mark, half_mark = family.mark, family.half_mark
        # (with every modifier 0 no value is marked)
        self.mark: str = mark(inst, matrix, mods) if mark and any(mods) else ""
        self._half_mark = half_mark
        # What the modifiers do, settled once: every table cell asks again. The halves
        # of packed A/B values may differ where a negation mask is taken.
        self._marks_vary = half_mark is not None and matrix in ("A", "B") and any(
            spec.mask and inst.takes(spec.name) for spec in MODIFIER_SPECS)
        self._half_marks: dict[tuple[int, int], str] = {}  # mark_of() by (lo, width)
        self._lane_scans: dict[int, list[tuple[Elem, Place]]] = {}  # entries()' lanes
        self._grids: dict[int, tuple[tuple[tuple[Place, ...], ...], ...]] = {}  # block_grid()
        # The modifiers that move values, as maps composed with the layout (the block
        # map before it, the lane map after it: layouts/values.py); None where none does.
        self.block_map: LayoutMap | None = None
        self.lane_map: LayoutMap | None = None
        if matrix == "A" and mods.cbsz and inst.cbsz and not inst.sparse:
            self.block_map = cbsz_blocks(self.layout.shape[2], mods.cbsz, mods.abid)
        if matrix == "B" and mods.blgp and inst.blgp and not blgp_negates(inst):
            self.lane_map = BLGP_LANES[mods.blgp]
        self._block_of = self.block_map.table.__getitem__ if self.block_map else None
        self._lane_of = self.lane_map.table.__getitem__ if self.lane_map else None

    @property
    def marks_vary(self) -> bool:
        """Whether mark_of() depends on the place (else it is always `mark`)."""
        return bool(self._marks_vary)

    def mark_of(self, place: Place | None) -> str:
        """The negation / absolute-value mark shown with the value at `place`."""
        if self._marks_vary and place is not None:
            # a half's mark depends only on its bits in the register (lo, width): a
            # table asks once per distinct slot shape, not once per cell
            key = place.lo, place.width
            marks = self._half_marks
            if key not in marks:
                assert self._half_mark is not None
                marks[key] = self._half_mark(self.inst, self.matrix, self.mods, place)
            return marks[key]
        return self.mark

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.layout.shape

    @property
    def blocks(self) -> int:
        return self.layout.shape[2]

    @property
    def register_count(self) -> int:
        # (an index set never spans two VGPRs; gfx1250's 8-bit SWMMAC index is 64 bits)
        return max(1, self.layout.register_count)

    @property
    def column_major(self) -> bool:
        """Whether elements() walks each block column by column: the order is block, then
        the M/N index, then K, and B's N index is its column."""
        return self.matrix == "B"

    def elements(self) -> Iterable[Elem]:
        """Every element, in the order the reference lists them: block first, then the
        M/N index, then K (see column_major)."""
        if self.column_major:
            return sorted(self.layout.elements(), key=lambda e: (e[2], e[1], e[0]))
        return self.layout.elements()

    def places(self, row: int, col: int, block: int = 0) -> list[Place]:
        """Places the hardware reads for the element, modifiers applied."""
        if self._block_of:  # CBSZ/ABID: the block broadcast to this one
            block = self._block_of(block)
        return self._read_lanes(self.layout.places(row, col, block))

    def _read_lanes(self, places: list[Place]) -> list[Place]:
        if self._lane_of:  # BLGP: the lane this lane's value is read from
            return [p._replace(lane=self._lane_of(p.lane)) for p in places]
        return places

    def block_places(self, block: int = 0) -> list[list[list[Place]]]:
        """places() of every element of one block, as rows of cells (in bulk)."""
        if self._block_of:
            block = self._block_of(block)
        grid = self.layout.block_places(block)
        if self._lane_of:
            grid = [[self._read_lanes(cell) for cell in row] for row in grid]
        return grid

    def block_grid(self, block: int = 0) -> tuple[tuple[tuple[Place, ...], ...], ...]:
        """block_places() of one block in tuples, made once per operand (operand() keeps
        them): for the planners, which read the same operands' grids again and again."""
        found = self._grids.get(block)
        if found is None:
            found = self._grids[block] = tuple(tuple(map(tuple, row))
                                               for row in self.block_places(block))
        return found

    def placed(self) -> Iterator[tuple[Elem, list[Place]]]:
        """(element, places) of every element, in the order of elements() (in bulk)."""
        # (the grids walked in that order directly: block, then the M/N index, then K)
        for block in range(self.blocks):
            grid = self.block_places(block)
            if self.column_major:
                for col in range(len(grid[0])):
                    for row, cells in enumerate(grid):
                        yield (row, col, block), cells[col]
            else:
                for row, cells in enumerate(grid):
                    for col, cell in enumerate(cells):
                        yield (row, col, block), cell

    @property
    def block_source(self) -> Callable[[int], int] | None:
        """CBSZ/ABID on A: the block whose values a block reads, or None (no broadcast)."""
        return self._block_of

    @property
    def lane_source(self) -> Callable[[int], int] | None:
        """BLGP on B: the lane whose value a lane reads, or None (no lane remap)."""
        return self._lane_of

    @property
    def remapped(self) -> bool:
        """True when a modifier changes which register slot an element is read from."""
        return bool(self._block_of or self._lane_of)

    @cached_property
    def _base_owner(self) -> dict[Place, Elem]:
        owner: dict[Place, Elem] = {}
        for elem in self.elements():
            for p in self.layout.places(*elem):
                owner.setdefault(p, elem)
        return owner

    def source(self, elem: Elem) -> Elem:
        """The element whose unmodified place the hardware reads for `elem`."""
        if not self.remapped:
            return elem
        return self._base_owner[self.places(*elem)[0]]

    @cached_property
    def _by_register(self) -> dict[tuple[int, int], list[tuple[Place, Elem]]]:
        table: dict[tuple[int, int], list[tuple[Place, Elem]]] = {}
        for elem, places in self.placed():
            for place in places:
                for reg in place.regs:
                    table.setdefault((reg, place.lane), []).append((place, elem))
        for entries in table.values():
            entries.sort(key=lambda pe: pe[0].reg * 32 + pe[0].lo)
        return table

    def entries(self, reg: int, lane: int) -> list[tuple[Place, Elem]]:
        """(place, element) pairs held by VGPR `reg` in `lane`, lowest bits first."""
        if "_by_register" in self.__dict__ or self.remapped or len(self._lane_scans) >= 4:
            return self._by_register.get((reg, lane), [])
        # The first look-ups in a few lanes (a -m query makes one or two) scan those lanes
        # instead of inverting the whole layout; more (the API, a sweep) invert it once.
        scan = self._lane_scans.get(lane)
        if scan is None:
            scan = self._lane_scans[lane] = list(self.layout.places_in_lane(lane))
        found = [(p, e) for e, p in scan if reg in p.regs]
        if self.column_major:  # the order of elements(): block, then M/N index, then K
            return sorted(found, key=lambda pe: (pe[0].reg * 32 + pe[0].lo, pe[1][2], pe[1][1]))
        return sorted(found, key=lambda pe: (pe[0].reg * 32 + pe[0].lo, pe[1][2], pe[1][0]))

    @cached_property
    def lanes(self) -> list[int]:
        return sorted({lane for _, lane in self._by_register})

    @cached_property
    def columns(self) -> list[tuple[int, int, int]]:
        """Distinct register slots (reg, lo, width) in use, in register then bit order."""
        return sorted({(p.reg, p.lo, p.width) for entries in self._by_register.values()
                       for p, _ in entries})


@lru_cache(maxsize=512)
def operand(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
            wave: int = 64) -> Operand:
    """The Operand for these arguments, built once (its inverse map is reused by later
    queries of the same process: the tests, the API and the render sweep)."""
    return Operand(inst, matrix, mods, wave)


def check_modifiers(inst: Instruction, matrix: str, mods: Modifiers, output_calc: bool,
                    mode: str = "get", wave: int = 64) -> None:
    """Raise CalcError when a modifier value is illegal for the instruction or matrix
    (the one check over the modifier table: layouts/legality.py; none is given when
    every modifier is 0)."""
    if any(mods):
        check(inst, matrix, mods, matrix == "D" and output_calc and mode in ("get", "entry"), wave)


def check_matrix(inst: Instruction, matrix: str) -> None:
    """Sparse instructions have the index matrix K instead of C; dense ones have no K;
    an instruction that names its register operands (`matrices`) has only those."""
    if inst.matrices and matrix not in inst.matrices:
        raise CalcError(f"{inst.name} has no {matrix} register operand: query "
                        f"{' or '.join(inst.matrices)}")
    if inst.sparse and matrix == "C":
        raise CalcError(f"{inst.name} is sparse: it has no C matrix (its Src2 holds the "
                        "compression indices, -k); query A, B, D or -k")
    if not inst.sparse and matrix == "K":
        raise CalcError(f"{inst.name} is dense: it has no compression-index matrix (-k); "
                        "query A, B, C or D")
    if matrix in ("SA", "SB") and not inst.scaled:
        raise CalcError(f"{inst.name} has no block scales; --A-scale/--B-scale apply to "
                        "the CDNA4 v_mfma_scale_* and gfx1250 v_wmma_scale*_* instructions")
