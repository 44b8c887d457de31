"""Text of the four query modes (-g, -m, -R, -M), built from an Operand.

Point queries return lines; layout queries return tables (title, header, rows) for
the renderers. Nothing here prints.
"""
from layouts.core import CalcError

from .notation import element, marked, register

# How the -R header names the two axes of each matrix, untransposed.
AXES = {"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N"), "D": ("M", "N"), "K": ("M", "K"),
        "SA": ("M", "KB"), "SB": ("KB", "N")}
SOURCES = {"A": "Src0", "B": "Src1", "C": "Src2", "D": "Vdst", "SA": "ScaleA", "SB": "ScaleB"}


def element_of(operand, i, j, k, block):
    """The (row, col, block) coordinates of matrix element (i, j, k) of `operand`."""
    from layouts import COORDINATES
    values = {"i": i, "j": j, "k": k}
    row, col = (values[c] for c in COORDINATES[operand.matrix])
    return (row, col, block)


def name(operand, elem, mark=""):
    return marked(element(operand.matrix, elem, operand.inst.blocks), mark)


def get_register(operand, elem):
    return [f"{name(operand, elem)} = {register(p)}" for p in operand.places(*elem)]


def output_terms(calc, elem, reg_text):
    """Terms of D = sum_k A*B + C for D element `elem`; `reg_text` names one operand value."""
    row, col, block = elem
    a, b = calc["A"], calc["B"]
    if "output_b_by_row" in a.inst.quirks:  # the reference pairs A[i][k] with B[k][i]
        col = row
    terms = [f"{reg_text(a, (row, k, block))}*{reg_text(b, (k, col, block))}"
             for k in range(a.inst.k)]
    if "SA" in calc:  # each K block's partial dot product is scaled before accumulation
        size = a.inst.scale_k
        terms = [f"{reg_text(calc['SA'], (row, kb, 0))}*{reg_text(calc['SB'], (kb, col, 0))}*("
                 + " + ".join(terms[kb * size:(kb + 1) * size]) + ")"
                 for kb in range(len(terms) // size)]
    text = " + ".join(terms)
    if "C" in calc:
        c = calc["C"]
        sign = "-" if c.mark_of(None).startswith("-") else "+"
        text += f" {sign} {reg_text(c, elem, drop_sign=True)}"
    return text


def _mark(operand, place, drop_sign):
    mark = operand.mark_of(place)
    return mark[1:] if drop_sign and mark.startswith("-") else mark


def _source(prefix):
    def text(operand, elem, drop_sign=False):
        place = operand.places(*elem)[0]
        return marked(f"{prefix[operand.matrix]}_{register(place)}", _mark(operand, place, drop_sign))
    return text


def _element_text(operand, elem, drop_sign=False):
    place = operand.places(*elem)[0]
    return name(operand, operand.source(elem), _mark(operand, place, drop_sign))


def get_register_calc(calc, elem):
    d = calc["D"]
    dest = f"Vdst_{register(d.places(*elem)[0])}"
    return [f"{name(d, elem)} = {dest} = {output_terms(calc, elem, _source(SOURCES))}"]


def matrix_entry_calc(calc, reg, lane):
    d = calc["D"]
    return [f"{register(p)} = {name(d, elem)} = {output_terms(calc, elem, _element_text)}"
            for p, elem in d.entries(reg, lane)]


def matrix_entry(operand, reg, lane):
    """Lines `register = element` for one register and lane, lowest bits first.

    Like the reference, when a modifier remaps slots (CBSZ/ABID on A, BLGP on B), the
    walk over the register's slots skips ahead by the number of elements a slot
    listed, so a slot broadcast to n elements hides the next n-1 slots.
    """
    entries = operand.entries(reg, lane)
    if operand.remapped and entries:
        entries = _skip_walk(entries)
    if operand.matrix == "K" and "index_entry_first_register" in operand.inst.quirks:
        entries = _first_a_register(operand, entries)
    return [f"{register(p)} = {name(operand, e, operand.mark_of(p))}" for p, e in entries]


def _skip_walk(entries):
    width = entries[0][0].width
    by_slot = {}
    for p, e in entries:
        by_slot.setdefault(p.lo // width, []).append((p, e))
    shown, slot = [], 0
    while slot < 32 // width:
        found = by_slot.get(slot, [])
        shown += found
        slot += max(1, len(found))
    return shown


def _first_a_register(operand, entries):
    """Like the reference, -m -k on RDNA4 lists only the indices of the pairs held by
    the first A register (the -M layout shows them all)."""
    per_reg = 4 * (32 // (2 * operand.inst.a_type.bits))
    base = operand.layout.base_bit
    return [(p, e) for p, e in entries if p.lo - base < per_reg]


def block_groups(operand):
    """(title, block whose registers are shown) for each -R table."""
    inst, mods = operand.inst, operand.mods
    if "untitled_blocks" in inst.quirks:  # one block, printed without a title
        return [(None, 0)]
    if operand.matrix == "A" and mods.cbsz and inst.cbsz:  # (f8f6f4: CBSZ is a format)
        size = 1 << mods.cbsz
        starts = range(0, max(inst.blocks, size), size)
        return [("Blocks " + ", ".join(map(str, range(s, s + size))), s) for s in starts]
    return [(f"Block {b}", b) for b in range(operand.blocks)]


def register_layout(operand, transpose=False):
    """One table per block: element grid whose cells name registers."""
    first, second = AXES[operand.matrix]
    if transpose:
        first, second = second, first
    mark_of = operand.mark_of
    tables = []
    for title, block in block_groups(operand):
        places = operand.block_places(block)
        if transpose:
            places = list(map(list, zip(*places)))
        grid = [[r] + [[marked(register(p), mark_of(p)) for p in cell] for cell in row]
                for r, row in enumerate(places)]
        header = [f"{operand.matrix}[{first}][{second}]"] + list(range(len(grid[0]) - 1))
        tables.append((title, header, grid))
    return tables


def matrix_layout(operand, transpose=False):
    """Lanes x register slots, cells naming the elements each slot holds."""
    matrix, blocks, mark_of = operand.matrix, operand.inst.blocks, operand.mark_of
    cells = {}  # place -> names; one pass in element order, which each cell keeps
    for e, places in operand.placed():
        text = element(matrix, e, blocks)
        for p in places:
            cells.setdefault(p, []).append(marked(text, mark_of(p)))
    lanes = sorted({p.lane for p in cells})
    columns = sorted({(p.reg, p.lo, p.width) for p in cells})  # register slots
    names = [register(_slot_place(col), lane=False) for col in columns]
    # (a Place is a tuple (reg, lane, lo, width): the plain tuple finds it)
    if transpose:
        rows = [[n] + [cells.get((reg, lane, lo, width), []) for lane in lanes]
                for n, (reg, lo, width) in zip(names, columns)]
        return ["lane"] + lanes, rows
    rows = [[lane] + [cells.get((reg, lane, lo, width), []) for reg, lo, width in columns]
            for lane in lanes]
    return ["lane"] + names, rows


def _slot_place(col):
    from layouts.core import Place
    reg, lo, width = col
    return Place(reg, 0, lo, width)


def check_range(label, value, limit, what):
    if value >= limit:
        raise CalcError(f"{label} {value} is out of range for {what}: use 0 to {limit - 1}.")


def answer(inst, matrix, mods, wave, mode, numbers, output_calc, fmt, transpose):
    """The text of one query (after the header lines)."""
    from layouts import operand as make
    operand = make(inst, matrix, mods, wave)
    calc = None
    if output_calc:
        names = ("A", "B", "D") + (() if inst.sparse else ("C",))
        names += ("SA", "SB") if inst.scaled else ()
        calc = {m: make(inst, m, mods, wave) for m in names}
    if mode == "get":
        lines = _get(operand, calc, numbers)
    elif mode == "entry":
        lines = _entry(operand, calc, numbers)
    elif mode == "rlayout":
        return _tables(register_layout(operand, transpose), fmt)
    else:
        from . import render
        return render(fmt, *matrix_layout(operand, transpose)) + "\n"
    return "".join(line + "\n" for line in lines)


def _tables(tables, fmt):
    from . import render
    return "".join(("" if title is None else f"{title}\n") + render(fmt, header, rows) + "\n"
                   for title, header, rows in tables)


def _get(operand, calc, numbers):
    inst = operand.inst
    i, j, k, block = (numbers[n] for n in ("i", "j", "k", "block"))
    what = f"{inst.mnemonic}"
    check_range("row coordinate -I", i, inst.m, what)
    check_range("column coordinate -J", j, inst.n, what)
    if operand.matrix in ("SA", "SB"):
        check_range("K block -K", k, inst.k // max(1, inst.scale_k), f"the scales of {what}")
    else:
        check_range("coordinate -K", k, inst.k, what)
    check_range("block -b", block, inst.blocks, what)
    elem = element_of(operand, i, j, k, block)
    return get_register_calc(calc, elem) if calc else get_register(operand, elem)


def _entry(operand, calc, numbers):
    reg, lane = numbers["register"], numbers["lane"]
    check_range("register -r", reg, operand.register_count, f"the {operand.matrix} matrix")
    check_range("lane -l", lane, operand.wave, f"wave{operand.wave}")
    lines = matrix_entry_calc(calc, reg, lane) if calc else matrix_entry(operand, reg, lane)
    if lines:
        return lines
    if operand.matrix == "A" and operand.remapped:
        return [f"Due to instruction modifiers CBSZ and ABID, lane {lane} "
                "is not used for this instruction."]
    used = _spans([n for n in range(operand.wave) if operand.entries(reg, n)]) or "none"
    if operand.matrix == "B" and operand.remapped:
        raise CalcError(f"with BLGP {operand.mods.blgp} no B value is read from lane {lane}; "
                        f"lanes read: {used}")
    raise CalcError(f"register {reg} in lane {lane} holds no {operand.matrix} value; "
                    f"lanes that hold one: {used}")


def _spans(numbers):
    """'0 to 15, 32 to 47' for sorted whole numbers."""
    spans = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a} to {b}" if a != b else str(a) for a, b in spans)
