"""Operand layouts of every instruction family, with modifiers applied.

`Operand(inst, matrix, mods, wave)` is the one object every query reads: the places of
an element (element -> registers) and the elements of a register/lane (the inverse,
derived by enumerating the same forward map).
"""
from __future__ import annotations

from instructions.record import TYPE_CHECKING, cached, memoize

from .core import CalcError, Elem, Layout, Place
from .modifiers import (
    BLGP_SOURCE,
    Modifiers,
    blgp_negates,
    cbsz_source_block,
    check_cdna,
    check_rdna,
    negated,
    rdna_c_mark,
    rdna_half_mark,
    refuse_gfx1250,
    sparse_index_set,
)
from .notation import mark_parts, slot_parts

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import Any

    from instructions.model import Instruction

    from .formulas_cdna import Section

__all__ = ["COORDINATES", "FAMILIES", "MATRICES", "CalcError", "Modifiers", "Operand", "Place",
           "base_layout", "check_matrix", "check_modifiers", "formula_sections", "operand"]

MATRICES = ("A", "B", "C", "D", "K", "SA", "SB")
# Which of the coordinates i, j, k index each matrix's rows and columns (scales: k is kb).
COORDINATES = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j"), "D": ("i", "j"),
               "K": ("i", "k"), "SA": ("i", "k"), "SB": ("k", "j")}


# The layout generator of each layout family (instructions.FAMILIES):
# (inst, matrix, wave, mods) -> Layout; each loads its family's module on first use, so
# that a query reads only its own family's generators.
def _cdna_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from . import cdna
    if matrix == "A":
        return cdna.a_matrix(inst)
    if matrix == "B":
        return cdna.b_matrix(inst)
    if matrix == "K":
        return cdna.index_matrix(inst, sparse_index_set(inst, mods))
    if matrix in ("SA", "SB"):
        return cdna.scale_matrix(inst, matrix, mods.opsel_a if matrix == "SA" else mods.opsel_b)
    return cdna.cd_matrix(inst)


def _rdna3_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from . import rdna
    return rdna.rdna3_layout(inst, matrix, wave, mods)


def _rdna4_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from . import rdna
    return rdna.rdna4_layout(inst, matrix, wave, mods)


def _gfx1250_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from . import gfx1250
    made: Layout = gfx1250.family_layout(inst, matrix, wave, mods)
    return made


FAMILIES = {"cdna": _cdna_layout, "rdna3": _rdna3_layout, "rdna4": _rdna4_layout,
            "gfx1250": _gfx1250_layout}


def base_layout(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                wave: int = 64) -> Layout:
    """The layout of `matrix` with no lane/block modifiers (K: the selected index set)."""
    return FAMILIES[inst.family](inst, matrix, wave, mods)


def formula_sections(inst: Instruction) -> Mapping[int, Section]:
    """{wave: (element -> register lines, register -> element lines)} of the printed
    mapping formulas of `inst`'s layout family (-d)."""
    if inst.family == "cdna":
        from .formulas_cdna import sections
        return {inst.wave_sizes[0]: sections(inst)}
    if inst.family == "gfx1250":
        from .gfx1250 import formulas
        return formulas(inst)
    from .formulas_rdna import sections as rdna_sections
    return rdna_sections(inst)


def family_facts(inst: Instruction) -> dict[str, Any]:
    """Facts a layout family adds to (or replaces in) matrix_api.facts: {} for most."""
    if inst.family == "gfx1250":
        from .gfx1250_facts import facts
        return facts(inst)
    return {}


class Operand:
    """One matrix of one instruction under the given modifiers."""

    def __init__(self, inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                 wave: int = 64) -> None:
        self.inst, self.matrix, self.mods, self.wave = inst, matrix, mods, wave
        self.layout = base_layout(inst, matrix, mods, wave)
        self.mark = "-" if negated(inst, matrix, mods) else ""
        if inst.neg:
            self.mark = rdna_c_mark(inst, matrix, mods)
        self._half_mark = rdna_half_mark
        if inst.takes("neg_lo"):  # gfx1250: neg_lo / neg_hi
            from .gfx1250 import half_mark, mark
            self.mark, self._half_mark = mark(inst, matrix, mods), half_mark
        # What the modifiers do, settled once: every table cell asks again.
        self._marks_vary = (inst.neg or inst.takes("neg_lo")) and matrix in ("A", "B")
        self._half_marks: dict[tuple[int, int], str] = {}  # mark_of() by (lo, width)
        self._looked_up = False  # entries() was called before
        self._block_of = self._lane_of = None
        if matrix == "A" and mods.cbsz and inst.cbsz and not inst.sparse:
            self._block_of = lambda block: cbsz_source_block(block, mods.cbsz, mods.abid)
        if matrix == "B" and mods.blgp and inst.blgp and not blgp_negates(inst):
            self._lane_of = BLGP_SOURCE[mods.blgp]

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

    def register_texts(self, block: int = 0) -> list[list[list[str]]]:
        """The marked text of every place of every element of one block, as rows of
        cells (cell [r][c] names the places of element (r, c, block), as block_places()
        lists them; each text as notation.marked(register(place), mark_of(place))):
        an -R table's cells, without a Place per element."""
        if self._block_of:
            block = self._block_of(block)
        rows, cols, (lb, bb) = self.layout.block_offsets(block)
        layout, lane_of = self.layout, self._lane_of
        parts, copies = _SlotTexts(layout.width, self.mark_of, True), layout.copies
        if copies == [0] and lane_of is None:  # one place per element, as laid out
            return [[[f"{pre}{lr + lc + lb}{post}"]
                     for lc, bc in cols for pre, post in (parts[br + bc + bb],)]
                    for lr, br in rows]
        read = lane_of or (lambda lane: lane)
        return [[[f"{pre}{read(lr + lc + lb + copy)}{post}" for copy in copies]
                 for lc, bc in cols for pre, post in (parts[br + bc + bb],)]
                for lr, br in rows]

    def slot_texts(self, element_blocks: int
                   ) -> tuple[list[tuple[int, int, int]], list[tuple[int, list[list[str]]]]]:
        """The -M view in bulk: (slots, rows). `slots` are the register slots (reg, lo,
        width) that hold a value in any lane, in register then bit order; `rows` hold,
        for every lane that holds a value, in lane order, (lane, cells) with cells[s] the
        marked names of the elements slot s holds in that lane (in the order of
        elements(); [] for none): what entries() answers for every register and lane,
        without a Place per element. Elements are named as notation.element() names
        them with `element_blocks` blocks."""
        layout, matrix = self.layout, self.matrix
        copies, lane_of = layout.copies, self._lane_of
        # A slot of a lane is keyed (lane << 16) + bit: the lane and bit offsets of an
        # element's row and column digits then add up to its key as they are.
        keyed: list[tuple[int, str]] = []  # (key, element name), in elements() order
        for block in range(self.blocks):
            rows, cols, (lb, bb) = layout.block_offsets(
                self._block_of(block) if self._block_of else block)
            tail = f".B{block}" if element_blocks > 1 else ""
            heads = [(f"{matrix}[{r}][", (lane << 16) + bit) for r, (lane, bit) in enumerate(rows)]
            ends = [(f"{c}]{tail}", (lane + lb << 16) + bit + bb)
                    for c, (lane, bit) in enumerate(cols)]
            if self.column_major:  # the order of elements()
                keyed += [(hk + ek, h + e) for e, ek in ends for h, hk in heads]
            else:
                keyed += [(hk + ek, h + e) for h, hk in heads for e, ek in ends]
        if lane_of:
            keyed = [((lane_of((key >> 16) + copy) << 16) + (key & 0xFFFF), name)
                     for key, name in keyed for copy in copies]
        elif copies != [0]:
            keyed = [(key + (copy << 16), name) for key, name in keyed for copy in copies]
        held = {key: [name] for key, name in keyed}
        if len(held) < len(keyed):  # slots holding several elements
            held = {}
            for key, name in keyed:
                if key in held:
                    held[key].append(name)
                else:
                    held[key] = [name]
        bits = sorted({key & 0xFFFF for key in held})
        marks = _SlotTexts(layout.width, self.mark_of, False)
        decorated = {bit: marks[bit] for bit in bits if marks[bit] != ("", "")}
        if decorated:  # a mark depends on the bits alone
            for key, cell in held.items():
                if (key & 0xFFFF) in decorated:
                    before, after = decorated[key & 0xFFFF]
                    cell[:] = [f"{before}{name}{after}" for name in cell]
        width = layout.width
        empty: list[str] = []
        slots = [(bit >> 5, bit & 31, width) for bit in bits]
        return slots, [(lane, [held.get((lane << 16) + bit, empty) for bit in bits])
                       for lane in sorted({key >> 16 for key in held})]

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

    @cached
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

    @cached
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
        if "_by_register" in self.__dict__ or self.remapped or self._looked_up:
            return self._by_register.get((reg, lane), [])
        # A first look-up (a -m query makes one): scan the one lane instead of inverting
        # the whole layout; later ones (the API, a sweep) invert it once.
        self._looked_up = True
        found = [(p, e) for e, p in self.layout.places_in_lane(lane) if reg in p.regs]
        if self.column_major:  # the order of elements(): block, then M/N index, then K
            return sorted(found, key=lambda pe: (pe[0].reg * 32 + pe[0].lo, pe[1][2], pe[1][1]))
        return sorted(found, key=lambda pe: (pe[0].reg * 32 + pe[0].lo, pe[1][2], pe[1][0]))

    @cached
    def lanes(self) -> list[int]:
        return sorted({lane for _, lane in self._by_register})

    @cached
    def columns(self) -> list[tuple[int, int, int]]:
        """Distinct register slots (reg, lo, width) in use, in register then bit order."""
        return sorted({(p.reg, p.lo, p.width) for entries in self._by_register.values()
                       for p, _ in entries})


class _SlotTexts(dict[int, tuple[str, str]]):
    """{bit offset: (text before, text after)}, filled on first use: what a value at
    that bit offset of any lane puts around its lane number (lane_braces: "-v3{" and
    "}.[15:0]", so that the two around a lane spell notation.marked(register(place),
    mark)) or around an element's name ("-" and ""): the same few slots name every
    cell of a table."""

    def __init__(self, width: int, mark_of: Callable[[Place], str],
                 lane_braces: bool) -> None:
        super().__init__()
        self.width, self.mark_of, self.lane_braces = width, mark_of, lane_braces

    def __missing__(self, bit: int) -> tuple[str, str]:
        reg, lo, width = bit >> 5, bit & 31, self.width
        before, after = mark_parts(self.mark_of(Place(reg, 0, lo, width)))
        if self.lane_braces:
            name, bits = slot_parts(reg, lo, width)
            before, after = f"{before}{name}{{", f"}}{bits}{after}"
        self[bit] = before, after
        return before, after


@memoize(limit=512)
def operand(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
            wave: int = 64) -> Operand:
    """The Operand for these arguments, built once (its inverse map is reused by later
    queries of the same process: the tests, the API and the render sweep)."""
    return Operand(inst, matrix, mods, wave)


def check_modifiers(inst: Instruction, matrix: str, mods: Modifiers, output_calc: bool,
                    mode: str = "get",
                    wave: int = 64) -> None:
    """Raise CalcError when a modifier value is illegal for the instruction or matrix."""
    if inst.family == "gfx1250":
        from .gfx1250 import check
        check(inst, matrix, mods, output_calc, mode, wave)
        return
    refuse_gfx1250(inst, mods)
    if inst.family == "cdna":
        check_cdna(inst, matrix, mods, output_calc)
    else:
        check_rdna(inst, matrix, mods, output_calc and mode in ("get", "entry"), wave)


def check_matrix(inst: Instruction, matrix: str) -> None:
    """Sparse instructions have the index matrix K instead of C; dense ones have no K."""
    if inst.sparse and matrix == "C":
        raise CalcError(f"{inst.name} is sparse: it has no C matrix (its Src2 holds the "
                        "compression indices, -k); query A, B, D or -k")
    if not inst.sparse and matrix == "K":
        raise CalcError(f"{inst.name} is dense: it has no compression-index matrix (-k); "
                        "query A, B, C or D")
    if matrix in ("SA", "SB") and not inst.scaled:
        raise CalcError(f"{inst.name} has no block scales; --A-scale/--B-scale apply to "
                        "the CDNA4 v_mfma_scale_* and gfx1250 v_wmma_scale*_* instructions")
