"""Text of the four query modes (-g, -m, -R, -M), rendered from the library's answers,
and the two header lines (architecture, instruction) that open an instruction's answers.

Each renders the library's answer (matrix_library.answers: Point, Held, Layout), the
one JSON and pictures read too; the reference's output quirks are applied by the named
filters of formats/quirks.py. Point queries give lines; layout queries give tables
(title, header, rows) for the renderers.
"""
from __future__ import annotations

from formats import HEADER, quirks
from formats import render as draw
from matrix_library.answers import CalcError, Held, Layout, Point
from matrix_library.records import element_name, marked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from instructions.model import Instruction

    from matrix_library.answers import Modifiers, QueryAnswer
    from matrix_library.records import Calculation, Element, Entry, Location

    Cell = list[str] | str | int
    Table = tuple[str | None, list[Cell], list[list[Cell]]]


def header(inst: Instruction) -> str:
    """The two lines that open an instruction's answers (-g, -m, -R, -M, -d)."""
    return HEADER.format(inst=inst)


# How the -R header names the two axes of each matrix, untransposed.
AXES = {"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N"), "D": ("M", "N"), "K": ("M", "K"),
        "SA": ("M", "KB"), "SB": ("KB", "N")}
SOURCES = {"A": "Src0", "B": "Src1", "C": "Src2", "D": "Vdst", "SA": "ScaleA", "SB": "ScaleB"}


def name(inst: Instruction, element: Element, mark: str = "") -> str:
    """The element as the command line names it (blocks shown when there are several)."""
    return marked(element_name(element.matrix, (element.row, element.col, element.block),
                               inst.blocks), mark)


def _without_sign(location: Location) -> str:
    return "|" if location.absolute else ""


def output_terms(calc: Calculation, text: Callable[[Entry, bool], str],
                 scale_k: int) -> str:
    """D = sum_k A*B (+ C), each value named by `text(entry, drop_sign)`."""
    terms = [f"{text(p.a, False)}*{text(p.b, False)}" for p in calc.products]
    if calc.scales:  # each K block's partial dot product is scaled before accumulation
        terms = [f"{text(s.a, False)}*{text(s.b, False)}*("
                 + " + ".join(terms[kb * scale_k:(kb + 1) * scale_k]) + ")"
                 for kb, s in enumerate(calc.scales)]
    line = " + ".join(terms)
    if calc.c is not None:
        sign = "-" if calc.c.location.negated else "+"
        line += f" {sign} {text(calc.c, True)}"
    return line


def _source_text(entry: Entry, drop_sign: bool) -> str:
    loc = entry.location
    mark = _without_sign(loc) if drop_sign else loc.mark
    return marked(f"{SOURCES[entry.element.matrix]}_{loc.text}", mark)


def _element_texter(inst: Instruction) -> Callable[[Entry, bool], str]:
    def text(entry: Entry, drop_sign: bool) -> str:
        loc = entry.location
        return name(inst, entry.element, _without_sign(loc) if drop_sign else loc.mark)
    return text


def _calculation(inst: Instruction, calc: Calculation, mods: Modifiers,
                 wave: int) -> Calculation:
    return quirks.output_b_by_row(inst, calc, mods=mods, wave=wave)


def get_lines(point: Point) -> list[str]:
    """-g: the locations of element (I, J, K) of block B; with -o how D is computed."""
    inst = point.inst
    if point.calculation is not None:
        calc = _calculation(inst, point.calculation, point.mods, point.wave)
        d = calc.d
        terms = output_terms(calc, _source_text, inst.scale_k)
        return [f"{name(inst, d.element)} = Vdst_{d.location.text} = {terms}"]
    return [f"{name(inst, point.element)} = {loc.text}" for loc in point.locations]


def entry_lines(held: Held, output_calc: bool) -> list[str]:
    """-m: the elements VGPR R holds in lane L; with -o how each D value is computed."""
    inst, matrix, reg, lane = held.inst, held.matrix, held.register, held.lane
    if output_calc:
        text = _element_texter(inst)
        lines = [f"{c.d.location.text} = {name(inst, c.d.element)} = "
                 + output_terms(_calculation(inst, c, held.mods, held.wave), text,
                                inst.scale_k)
                 for c in held.calculations]
    else:
        entries = quirks.broadcast_skip_walk(inst, list(held.entries), held.remapped)
        if matrix == "K":
            entries = quirks.index_entry_first_register(inst, entries, held.base_bit)
        lines = [f"{e.location.text} = {name(inst, e.element, e.location.mark)}"
                 for e in entries]
    if lines:
        return lines
    if matrix == "A" and held.remapped:
        return [f"Due to instruction modifiers CBSZ and ABID, lane {lane} "
                "is not used for this instruction."]
    used = _spans(list(held.used)) or "none"
    if matrix == "B" and held.remapped:
        raise CalcError(f"with BLGP {held.mods.blgp} no B value is read from lane {lane}; "
                        f"lanes read: {used}")
    raise CalcError(f"register {reg} in lane {lane} holds no {matrix} value; "
                    f"lanes that hold one: {used}")


def block_groups(inst: Instruction, matrix: str, mods: Modifiers,
                 blocks: int) -> list[tuple[str | None, int]]:
    """(title, block whose registers are shown) for each -R table."""
    if quirks.untitled_blocks(inst):  # one block, printed without a title
        return [(None, 0)]
    if matrix == "A" and mods.cbsz and inst.cbsz:  # (f8f6f4: CBSZ is a format)
        size = 1 << mods.cbsz
        starts = range(0, max(inst.blocks, size), size)
        return [("Blocks " + ", ".join(map(str, range(s, s + size))), s) for s in starts]
    return [(f"Block {b}", b) for b in range(blocks)]


def register_tables(layout: Layout, transpose: bool = False) -> list[Table]:
    """-R: one table per block, an element grid whose cells name registers."""
    matrix = layout.matrix
    first, second = AXES[matrix]
    if transpose:
        first, second = second, first
    grids = layout.grids or ()
    tables: list[Table] = []
    for title, block in block_groups(layout.inst, matrix, layout.mods, layout.blocks):
        grid = grids[block]
        if transpose:
            grid = [list(column) for column in zip(*grid)]
        body: list[list[Cell]] = [[r, *row] for r, row in enumerate(grid)]
        header: list[Cell] = [f"{matrix}[{first}][{second}]", *range(len(grid[0]))]
        tables.append((title, header, body))
    return tables


def slot_table(layout: Layout, transpose: bool = False) -> tuple[list[Cell], list[list[Cell]]]:
    """-M: lanes x register slots, cells naming the elements each slot holds."""
    names, rows = layout.slots or ([], [])
    if transpose:
        lanes = [lane for lane, _ in rows]
        return (["register", *lanes],
                [[name, *column] for name, column in zip(names, zip(*(cells for _, cells
                                                                       in rows)))])
    return ["lane", *names], [[lane, *cells] for lane, cells in rows]


def text(found: QueryAnswer, output_calc: bool, fmt: str, transpose: bool) -> str:
    """The text of one query's answer (after the header lines), tables drawn in `fmt`."""
    render: Callable[[str, list[Cell], list[list[Cell]]], str] = draw  # (typed here)
    if isinstance(found, Point):
        lines = get_lines(found)
    elif isinstance(found, Held):
        lines = entry_lines(found, output_calc)
    elif found.query == "rlayout":
        return "".join(("" if title is None else f"{title}\n") + render(fmt, header, rows)
                       + "\n" for title, header, rows in register_tables(found, transpose))
    else:
        header, rows = slot_table(found, transpose)
        if transpose:
            header = quirks.transposed_lane_corner(found.inst, header)
        return render(fmt, header, rows) + "\n"
    return "".join(line + "\n" for line in lines)


def _spans(numbers: list[int]) -> str:
    """'0 to 15, 32 to 47' for sorted whole numbers."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a} to {b}" if a != b else str(a) for a, b in spans)
