"""A preshuffle as digits: the reshape/permute chain of its NumPy and PyTorch functions
(one chain, two renderings), their inverses, and the index formula both ways, derived
from the plan's slots (matrix_plans.preshuffle.planner).

A digit moves `size` values of one storage axis (`step` apart) to buffer stride
`stride`. The digits are found from the buffer side: the smallest buffer stride not yet
covered takes the element found there as its step, and grows while the elements follow
in line. The chain is then checked against every slot; a permutation that is not a
digit permutation raises CalcError (none of the instruction layouts is one).
"""

from __future__ import annotations

from instructions.record import Record
from layouts.core import CalcError

from matrix_plans.preshuffle.planner import Digit, Preshuffle


class Chain(Record):
    """The permutation of one block in `unit`s of `bits`: digits (buffer order, finest
    first); the storage extents of the block in units; items per unit (bytes of a
    sub-byte type's unit, else 1)."""
    digits: tuple[Digit, ...]
    extents: tuple[int, int]
    unit_bits: int
    items: int


def chain(plan: Preshuffle, unit_bits: int | None = None) -> Chain:
    """The digits of the plan's block at `unit_bits` granularity (default: plan.unit)."""
    unit = unit_bits or plan.unit
    per = unit // plan.bits if unit >= plan.bits else 1
    if unit % plan.bits and plan.bits % unit:
        raise CalcError(f"unit {unit} bits does not hold whole {plan.bits}-bit values")
    outer, inner = plan.block
    if inner % per:
        raise CalcError(f"a block row of {inner} values does not fill whole units")
    extents = (outer, inner // per)
    at: dict[int, tuple[int, int]] = {}   # buffer unit -> (outer, inner unit)
    for slot in plan.slots:
        u, rest = divmod(slot.offset, unit)
        unit_in, sub = divmod(slot.inner, per)
        if rest != sub * plan.bits:
            raise CalcError("the preshuffle splits a unit of the stored matrix")
        cell = (slot.outer, unit_in)
        if at.setdefault(u, cell) != cell:
            raise CalcError("the preshuffle splits a unit of the stored matrix")
    total = extents[0] * extents[1]
    digits = _digits(at, total)
    _check(digits, at, extents)
    items = unit // 8 if plan.bits < 8 else 1
    return Chain(tuple(digits), extents, unit, items)


NOT_A_CHAIN = ("the preshuffle is not a reshape/permute of the stored matrix (a modifier "
               "rotates the lanes, as BLGP 3 does): no NumPy chain or digit formula for it")


def _digits(at: dict[int, tuple[int, int]], total: int) -> list[Digit]:
    digits: list[Digit] = []
    stride = 1
    while stride < total:
        o, i = at[stride]
        if o and i:
            raise CalcError(NOT_A_CHAIN)
        axis, step = (0, o) if o else (1, i)
        line = 1   # the elements follow in line for `line` steps
        while stride * (line + 1) <= total and at.get(stride * line) == (
                (step * line, 0) if axis == 0 else (0, step * line)):
            line += 1
        size = max(s for s in range(1, line + 1) if total % (stride * s) == 0)
        digits.append(Digit(axis, step, size, stride))
        stride *= size
    return digits


def _check(digits: list[Digit], at: dict[int, tuple[int, int]], extents: tuple[int, int]) -> None:
    """Every unit where the digits say, and each axis a mixed radix of its digits."""
    for axis in (0, 1):
        step = 1
        for d in sorted((d for d in digits if d.axis == axis), key=lambda d: d.step):
            if d.step != step:
                raise CalcError(NOT_A_CHAIN)
            step *= d.size
        if step != extents[axis]:
            raise CalcError(NOT_A_CHAIN)
    for u, cell in at.items():
        got = [0, 0]
        for d in digits:
            got[d.axis] += (u // d.stride) % d.size * d.step
        if tuple(got) != cell:
            raise CalcError(NOT_A_CHAIN)


def _axis_digits(ch: Chain, axis: int) -> list[Digit]:
    """The digits of one storage axis, most significant first (reshape order)."""
    return sorted((d for d in ch.digits if d.axis == axis), key=lambda d: -d.step)


def numpy_source(plan: Preshuffle, name: str = "preshuffle") -> str:
    """Python text of two functions, `name(x)` and `un<name>(y)`: NumPy reshape and
    transpose calls, no loop. x is the stored matrix as a 2-D array (outer, inner) of
    elements (of bytes for sub-byte types); y the buffer with the same shape."""
    return _source(plan, name, "array", "transpose", "")


def torch_source(plan: Preshuffle, name: str = "preshuffle") -> str:
    """The same chain as numpy_source for PyTorch tensors: reshape, permute (NumPy's
    transpose with axes), contiguous (the permuted view copied in its new order)."""
    return _source(plan, name, "tensor", "permute", ".contiguous()")


def _source(plan: Preshuffle, name: str, kind: str, permute: str, copy: str) -> str:
    """The functions of one chain (the reshape of the stored matrix into its digits, the
    permutation into buffer order, and back), rendered with `permute` and `copy`."""
    ch = chain(plan)
    rows = _axis_digits(ch, 0)
    cols = _axis_digits(ch, 1)
    inner_items = ch.extents[1] * ch.items
    src_dims = [f"o // {ch.extents[0]}"] + [str(d.size) for d in rows] + \
        [f"i // {inner_items}"] + [str(d.size) for d in cols]
    src_axes = [("O",)] + [("d", d) for d in rows] + [("I",)] + [("d", d) for d in cols]
    if ch.items > 1:
        src_dims.append(str(ch.items))
        src_axes.append(("U",))
    ordered = sorted(ch.digits, key=lambda d: -d.stride)
    dst_axes = [("O",), ("I",)] + [("d", d) for d in ordered] + \
        ([("U",)] if ch.items > 1 else [])
    perm = [src_axes.index(a) for a in dst_axes]
    inverse = [perm.index(k) for k in range(len(perm))]
    dst_dims = [src_dims[k] for k in perm]
    what = "bytes (two fp4 values a byte, low nibble first)" if plan.bits == 4 else \
        f"bytes ({ch.items} bytes hold {ch.unit_bits // plan.bits} values)" \
        if plan.bits < 8 else "elements"
    lines = [
        f"def {name}(x):",
        f'    """The {plan.matrix} operand stored {_order_text(plan)} as a 2-D {kind} of '
        f"{what}: outer extent a multiple of {ch.extents[0]}, inner of {inner_items}.\"\"\"",
        "    o, i = x.shape",
        f"    y = x.reshape({', '.join(src_dims)})",
        f"    return y.{permute}({', '.join(map(str, perm))}){copy}.reshape(o, i)",
        "",
        "",
        f"def un{name}(y):",
        f'    """The inverse of {name}: the stored matrix back from the buffer."""',
        "    o, i = y.shape",
        f"    x = y.reshape({', '.join(dst_dims)})",
        f"    return x.{permute}({', '.join(map(str, inverse))}){copy}.reshape(o, i)",
    ]
    return "\n".join(lines) + "\n"


def _order_text(plan: Preshuffle) -> str:
    inner = "K" if plan.k_inner else ("M" if plan.matrix in ("A", "SA", "K") else "N")
    return f"{plan.order}-major ({inner} contiguous)"


def formula(plan: Preshuffle, ld: int) -> tuple[str, str]:
    """(offset of element (r, c), (r, c) of offset p): r the outer and c the inner
    storage index, offsets in elements of the whole buffer, `ld` the inner extent."""
    ch = chain(plan, plan.bits)
    outer, inner = plan.block
    if ld % inner:
        raise CalcError(f"--ld {ld}: a multiple of the supertile's {inner} values is needed")
    block = outer * inner
    per_row = ld // inner
    start = f"r // {outer} * {per_row} + c // {inner}" if per_row > 1 else f"r // {outer}"
    terms = [f"({start}) * {block}"]
    for d in sorted(ch.digits, key=lambda d: -d.stride):
        terms.append(_term("r" if d.axis == 0 else "c", d))
    forward = "p = " + " + ".join(terms)
    if per_row > 1:
        back_r = [f"p // {block} // {per_row} * {outer}"]
        back_c = [f"p // {block} % {per_row} * {inner}"]
    else:
        back_r, back_c = [f"p // {block} * {outer}"], []
    for d in sorted(ch.digits, key=lambda d: -d.step):
        (back_r if d.axis == 0 else back_c).append(_back(d))
    return forward, "r = " + " + ".join(back_r) + "; c = " + " + ".join(back_c)


def _term(var: str, d: Digit) -> str:
    base = f"{var} % {d.size}" if d.step == 1 else f"{var} // {d.step} % {d.size}"
    return base if d.stride == 1 else f"({base}) * {d.stride}"


def _back(d: Digit) -> str:
    text = f"p // {d.stride} % {d.size}" if d.stride > 1 else f"p % {d.size}"
    return text if d.step == 1 else f"({text}) * {d.step}"
