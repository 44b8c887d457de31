"""Side by side: one matrix of two instructions, often an NVIDIA fragment and an
AMD operand, element by element, with both layouts' formulas; re-exported by matrix_api
as `compare(...)`.

    >>> import matrix_calculator as mc
    >>> nv = mc.find_instruction("sm80", "mma.m16n8k16.f32.f16.f16.f32")
    >>> amd = mc.find_instruction("gfx1100", "v_wmma_f32_16x16x16_f16")
    >>> cell = mc.compare(nv, amd, "D").cells[0]
    >>> cell.element, cell.first, cell.second
    ('D[0][0]', ('v0{0}',), ('v0{0}',))

The elements compared are those both operands have: rows and columns below both shapes.
"""


from __future__ import annotations

from instructions.model import Instruction
from instructions.record import Record, short_repr
from layouts.core import CalcError
from layouts.formulas import formula_sections

from matrix_library.checks import operand, shown, wave_size, whole
from matrix_library.records import register_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # (Section is an annotation-only alias of layouts.formulas)
    from layouts.formulas import Section


class Cell(Record):
    """One element (e.g. D[3][5]) and its places in each operand (register{lane} texts)."""
    element: str
    row: int
    col: int
    first: tuple[str, ...]
    second: tuple[str, ...]


class Comparison(Record):
    """`matrix` of `first` (in wave `first_wave`) beside it in `second`; `cells` cover the
    rows x cols elements both have; `formulas` are each side's lines for the matrix."""
    first: Instruction
    second: Instruction
    matrix: str
    first_wave: int
    second_wave: int
    rows: int
    cols: int
    cells: tuple[Cell, ...]
    formulas: tuple[Section, Section]

    def __repr__(self) -> str:  # (its kind and sizes: _asdict() has the whole content)
        return short_repr(self)


def _lines(inst: Instruction, matrix: str, wave: int) -> Section:
    forward, backward = formula_sections(inst, waves=(wave,))[wave]
    wanted = (f"{matrix}[", f"{matrix} ", "C or D")
    return ([line for line in forward if line[0].startswith(wanted)],
            [line for line in backward if line[0].startswith(wanted)])


def compare(first: Instruction, second: Instruction, matrix: str, *,
            first_wave: int | None = None, second_wave: int | None = None,
            element: tuple[int, int] | None = None) -> Comparison:
    """`matrix` (A, B, C or D) of two instructions, element by element (only `element`,
    (row, col), when given), in each one's wave size (None: its default)."""
    name = matrix.upper() if isinstance(matrix, str) else matrix
    if name not in ("A", "B", "C", "D"):
        raise CalcError(f"a comparison shows A, B, C or D, not {shown(matrix)}")
    sizes = wave_size(first, first_wave), wave_size(second, second_wave)
    ops = [operand(inst, name, wave=size, output_calc=name == "D")
           for inst, size in zip((first, second), sizes)]
    if any(op.shape[2] != 1 for op in ops):
        raise CalcError("a comparison shows single-block operands (each block of a "
                        "multi-block instruction is a product of its own)")
    rows, cols = (min(op.shape[0] for op in ops), min(op.shape[1] for op in ops))
    cells = []
    if element is not None and not (isinstance(element, tuple) and len(element) == 2):
        raise CalcError(f"element is a (row, col) pair of whole numbers, not {shown(element)}",
                        "element")
    wanted = [(whole("row", element[0], "element"), whole("col", element[1], "element"))] \
        if element is not None else [(r, c) for r in range(rows) for c in range(cols)]
    for r, c in wanted:
        if not (0 <= r < rows and 0 <= c < cols):
            raise CalcError(f"{name}[{r}][{c}] is outside the {rows} x {cols} elements both "
                            "operands have")
        a, b = (tuple(register_name(p) for p in op.places(r, c)) for op in ops)
        cells.append(Cell(f"{name}[{r}][{c}]", r, c, a, b))
    return Comparison(first, second, name, sizes[0], sizes[1], rows, cols, tuple(cells),
                      (_lines(first, name, sizes[0]), _lines(second, name, sizes[1])))
