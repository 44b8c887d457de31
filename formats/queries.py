"""Text of the four query modes (-g, -m, -R, -M), rendered from the library's answers.

Every answer comes from matrix_api (locate, elements_at, calculation, calculations_at,
layout, slots), the same calls JSON and library users make; the reference's output
quirks are applied by the named filters of formats/quirks.py. Point queries return
lines; layout queries return tables (title, header, rows) for the renderers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from formats import quirks
from formats.notation import marked
from matrix_library import api
from matrix_library.api import CalcError

if TYPE_CHECKING:
    from collections.abc import Callable

    from instructions.model import Instruction

    from matrix_library.api import Modifiers

    Cell = list[str] | str | int
    Table = tuple[str | None, list[Cell], list[list[Cell]]]

# How the -R header names the two axes of each matrix, untransposed.
AXES = {"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N"), "D": ("M", "N"), "K": ("M", "K"),
        "SA": ("M", "KB"), "SB": ("KB", "N")}
SOURCES = {"A": "Src0", "B": "Src1", "C": "Src2", "D": "Vdst", "SA": "ScaleA", "SB": "ScaleB"}


def name(inst: Instruction, element: api.Element, mark: str = "") -> str:
    return marked(api.element_text(inst, element), mark)


def _without_sign(location: api.Location) -> str:
    return "|" if location.absolute else ""


def output_terms(calc: api.Calculation, text: Callable[[api.Entry, bool], str],
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


def _source_text(entry: api.Entry, drop_sign: bool) -> str:
    loc = entry.location
    mark = _without_sign(loc) if drop_sign else loc.mark
    return marked(f"{SOURCES[entry.element.matrix]}_{loc.text}", mark)


def _element_texter(inst: Instruction) -> Callable[[api.Entry, bool], str]:
    def text(entry: api.Entry, drop_sign: bool) -> str:
        loc = entry.location
        return name(inst, entry.element, _without_sign(loc) if drop_sign else loc.mark)
    return text


def _calculation(inst: Instruction, calc: api.Calculation, mods: Modifiers,
                 wave: int) -> api.Calculation:
    return quirks.output_b_by_row(inst, calc, mods=mods, wave=wave)


def get_lines(inst: Instruction, matrix: str, mods: Modifiers, wave: int,
              numbers: dict[str, int], output_calc: bool) -> list[str]:
    """-g: the locations of element (I, J, K) of block B; with -o how D is computed."""
    i, j, k, block = (numbers[n] for n in ("i", "j", "k", "block"))
    if output_calc:
        api.locate(inst, matrix, i, j, k, block, mods=mods, wave=wave, output_calc=True)
        calc = _calculation(inst, api.calculation(inst, i, j, block, mods=mods, wave=wave),
                            mods, wave)
        d = calc.d
        terms = output_terms(calc, _source_text, inst.scale_k)
        return [f"{name(inst, d.element)} = Vdst_{d.location.text} = {terms}"]
    locations = api.locate(inst, matrix, i, j, k, block, mods=mods, wave=wave)
    elem = api.element_of(matrix, i, j, k, block)
    return [f"{name(inst, elem)} = {loc.text}" for loc in locations]


def entry_lines(inst: Instruction, matrix: str, mods: Modifiers, wave: int,
                numbers: dict[str, int], output_calc: bool) -> list[str]:
    """-m: the elements VGPR R holds in lane L; with -o how each D value is computed."""
    reg, lane = numbers["register"], numbers["lane"]
    operand = api.operand(inst, matrix, mods=mods, wave=wave, output_calc=output_calc)
    if output_calc:
        text = _element_texter(inst)
        lines = [f"{c.d.location.text} = {name(inst, c.d.element)} = "
                 + output_terms(_calculation(inst, c, mods, wave), text, inst.scale_k)
                 for c in api.calculations_at(inst, reg, lane, mods=mods, wave=wave)]
    else:
        entries = api.elements_at(inst, matrix, reg, lane, mods=mods, wave=wave,
                                  output_calc=output_calc)
        entries = quirks.broadcast_skip_walk(inst, entries, operand.remapped)
        if matrix == "K":
            entries = quirks.index_entry_first_register(inst, entries,
                                                        operand.layout.base_bit)
        lines = [f"{e.location.text} = {name(inst, e.element, e.location.mark)}"
                 for e in entries]
    if lines:
        return lines
    if matrix == "A" and operand.remapped:
        return [f"Due to instruction modifiers CBSZ and ABID, lane {lane} "
                "is not used for this instruction."]
    used = _spans([n for n in range(operand.wave) if operand.entries(reg, n)]) or "none"
    if matrix == "B" and operand.remapped:
        raise CalcError(f"with BLGP {mods.blgp} no B value is read from lane {lane}; "
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


def register_layout(inst: Instruction, matrix: str, mods: Modifiers, wave: int,
                    transpose: bool = False) -> list[Table]:
    """-R: one table per block, an element grid whose cells name registers."""
    first, second = AXES[matrix]
    if transpose:
        first, second = second, first
    blocks = api.operand(inst, matrix, mods=mods, wave=wave).blocks
    tables: list[Table] = []
    for title, block in block_groups(inst, matrix, mods, blocks):
        grid = api.register_grid(inst, matrix, block, mods=mods, wave=wave)
        if transpose:
            grid = [list(column) for column in zip(*grid)]
        body: list[list[Cell]] = [[r, *row] for r, row in enumerate(grid)]
        header: list[Cell] = [f"{matrix}[{first}][{second}]", *range(len(grid[0]))]
        tables.append((title, header, body))
    return tables


def matrix_layout(inst: Instruction, matrix: str, mods: Modifiers, wave: int,
                  transpose: bool = False) -> tuple[list[Cell], list[list[Cell]]]:
    """-M: lanes x register slots, cells naming the elements each slot holds."""
    names, rows = api.slot_grid(inst, matrix, mods=mods, wave=wave)
    if transpose:
        lanes = [lane for lane, _ in rows]
        return (["register", *lanes],
                [[name, *column] for name, column in zip(names, zip(*(cells for _, cells
                                                                       in rows)))])
    return ["lane", *names], [[lane, *cells] for lane, cells in rows]


def answer(inst: Instruction, matrix: str, mods: Modifiers, wave: int, mode: str,
           numbers: dict[str, int], output_calc: bool, fmt: str, transpose: bool) -> str:
    """The text of one query (after the header lines)."""
    from formats import render as draw
    render: Callable[[str, list[Cell], list[list[Cell]]], str] = draw  # (typed here)
    if mode == "get":
        lines = get_lines(inst, matrix, mods, wave, numbers, output_calc)
    elif mode == "entry":
        lines = entry_lines(inst, matrix, mods, wave, numbers, output_calc)
    elif mode == "rlayout":
        return "".join(("" if title is None else f"{title}\n") + render(fmt, header, rows)
                       + "\n" for title, header, rows
                       in register_layout(inst, matrix, mods, wave, transpose))
    else:
        header, rows = matrix_layout(inst, matrix, mods, wave, transpose)
        if transpose:
            from formats.quirks import transposed_lane_corner
            header = transposed_lane_corner(inst, header)
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
