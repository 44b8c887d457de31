"""The formula evaluator of the tests: a small parser for the texts of -d formulas
(integers, the variables below, + - * %, floor(a / b), parentheses) that compiles a
text to a function of its variables, and the helpers that compare the reference's
texts (formats/reference_formulas_*.py) with the engine; tests/layouts/test_formula_evaluator.py
uses it for the formulas derived from the layouts, tests/formats/test_reference_formulas.py for
the reference's texts.
"""
import math
import re
from collections import defaultdict
from fractions import Fraction

from layouts import Operand

# ---- the evaluator -----------------------------------------------------------------------

VARIABLES = ("i", "j", "k", "kb", "block", "lane", "GPR_num", "GPR_bits", "OPSEL_A", "OPSEL_B",
             "b", "p", "c")
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(\S))")


def _tokens(text):
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        number, name, symbol = match.groups()
        if name is not None and name not in VARIABLES + ("floor",):
            raise ValueError(f"unknown name {name!r} in {text!r}")
        if symbol is not None and symbol not in "+-*/%()":
            raise ValueError(f"unexpected {symbol!r} in {text!r}")
        out.append(number or name or symbol)
        pos = match.end()
    return out


class _Parser:
    """Recursive descent over the tokens, emitting an equivalent Python expression.

    Division is only allowed inside floor(...): floor(a / b) becomes a // b, and any
    other division there is computed exactly (Fraction) before flooring."""

    def __init__(self, text):
        self.text, self.toks, self.pos = text, _tokens(text), 0
        self.division = None  # (code, numerator, denominator) of the last division

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, expected=None):
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise ValueError(f"expected {expected or 'more'} in {self.text!r}")
        self.pos += 1
        return tok

    def parse(self):
        code = self.sum(divide=False)
        if self.peek() is not None:
            raise ValueError(f"trailing {self.peek()!r} in {self.text!r}")
        return code

    def sum(self, divide):
        code = self.product(divide)
        while self.peek() in ("+", "-"):
            code = f"({code} {self.take()} {self.product(divide)})"
        return code

    def product(self, divide):
        code = self.atom(divide)
        while self.peek() in ("*", "%") or (divide and self.peek() == "/"):
            op = self.take()
            right = self.atom(divide)
            if op == "/":
                left, code = code, f"(_F({code}) / {right})"
                self.division = (code, left, right)
            else:
                code = f"({code} {op} {right})"
        return code

    def atom(self, divide):
        tok = self.take()
        if tok == "floor":
            self.take("(")
            inner = self.sum(divide=True)
            self.take(")")
            if self.division and self.division[0] == inner:  # exactly floor(a / b)
                return f"({self.division[1]} // {self.division[2]})"
            return f"_floor({inner})"
        if tok == "(":
            inner = self.sum(divide)
            self.take(")")
            return f"({inner})"
        if tok == "-":
            return f"(-{self.atom(divide)})"
        if tok.isdigit() or tok in VARIABLES:
            return tok
        raise ValueError(f"unexpected {tok!r} in {self.text!r}")


_NAMESPACE = {"__builtins__": {}, "_F": Fraction, "_floor": math.floor}


def compile_formula(text):
    """A function of keyword variables computing the integer value of `text`."""
    code = compile(_Parser(text).parse(), text, "eval")

    def value(**variables):
        result = eval(code, _NAMESPACE, variables)
        assert result == int(result), (text, variables, result)
        return int(result)
    return value


def compile_function(text, names):
    """`text` as a plain function of the positional variables `names` (for formulas that
    divide only inside floor(a / b), which compiles to a // b: whole numbers throughout);
    much faster than compile_formula's keyword call where millions are evaluated."""
    code = _Parser(text).parse()
    unknown = set(_tokens(text)) & set(VARIABLES) - set(names)
    if unknown:
        raise ValueError(f"{text!r} uses {sorted(unknown)}, not among {names}")
    return eval(f"lambda {', '.join(names)}: {code}", _NAMESPACE)


def _split_range(text):
    """'hi : lo' -> (hi, lo) texts (the colon is never inside an expression)."""
    high, low = text.split(":")
    return high, low


def compile_gpr(text):
    """A GPR formula -> function giving the value's bits as (first, last), counted over
    the lane's whole register file (VGPR r holds bits 32*r to 32*r+31).

    Forms: `r` (all of VGPR r), `r.[hi : lo]` (bits of VGPR r), `[r2:r1]` (all of the
    VGPRs r1..r2, e.g. a pair holding a 64-bit value) and `[r2:r1].[hi : lo]` (bits
    counted across the VGPRs r1..r2)."""
    text = text.strip()
    bits = None
    if text.endswith("]") and ".[" in text:
        text, bits = text[:-1].split(".[", 1)
    if text.startswith("["):
        assert text.endswith("]"), text
        last, first = map(compile_formula, _split_range(text[1:-1]))
    else:
        first = last = compile_formula(text)
    if bits is None:
        return lambda **v: (32 * first(**v), 32 * last(**v) + 31)
    high, low = map(compile_formula, _split_range(bits))
    return lambda **v: (32 * first(**v) + low(**v), 32 * first(**v) + high(**v))


def compile_values(text):
    """A register -> element formula: one value, or a (high, low) 'through' range."""
    if isinstance(text, tuple):
        high, low = map(compile_formula, text)
        return lambda **v: set(range(low(**v), high(**v) + 1))
    one = compile_formula(text)
    return lambda **v: {one(**v)}


# ---- labels -> matrices and coordinates --------------------------------------------------

# The name a formula label starts with -> the matrices it describes.
LABEL_MATRICES = {"A": ("A",), "B": ("B",), "C or D": ("C", "D"), "D": ("D",),
                  "compression": ("K",), "SA": ("SA",), "SB": ("SB",)}
# Element (row, col) coordinates of each matrix, by formula variable (SA/SB: the block
# scales of CDNA4's v_mfma_scale_*, kb counting blocks of K).
AXES = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j"), "D": ("i", "j"), "K": ("i", "k"),
        "SA": ("i", "kb"), "SB": ("kb", "j")}
NO_MODIFIERS = {"OPSEL_A": 0, "OPSEL_B": 0}  # the formulas describe unmodified operands


def _matrices(name, label):
    assert name in LABEL_MATRICES, (
        f"formula label {label!r} names {name!r}: teach LABEL_MATRICES and AXES what it means")
    return LABEL_MATRICES[name]


def forward_label(label):
    """'C or D[i][j].block GPR' -> (('C', 'D'), 'GPR')."""
    return _matrices(label.split("[", 1)[0], label), label.rsplit(" ", 1)[1]


def backward_label(label):
    """'C or D block' -> (('C', 'D'), 'block')."""
    name, coord = label.rsplit(" ", 1)
    return _matrices(name, label), coord


def element_variables(matrix, elem):
    row, col, block = elem
    first, second = AXES[matrix]
    return {first: row, second: col, "block": block, **NO_MODIFIERS}


def span(place):
    """First and last bit of a place over the lane's register file."""
    start = 32 * place.reg + place.lo
    return start, start + place.width - 1


class Views:
    """The engine's two views of one operand, computed once for all its formulas."""

    def __init__(self, inst, matrix):
        op = Operand(inst, matrix)
        self.matrix = matrix
        self.places = []  # (element, its one place)
        for elem in op.elements():
            (place,) = op.places(*elem)
            self.places.append((elem, place))
        self.slots = []   # (GPR_num, lane, the value's bits inside that VGPR, elements)
        for reg in range(op.register_count):
            for lane in range(op.wave):
                held = defaultdict(list)
                for place, elem in op.entries(reg, lane):
                    held[place].append(elem)
                for place, elems in held.items():
                    first, last = span(place)
                    bits = (max(first, 32 * reg) - 32 * reg, min(last, 32 * reg + 31) - 32 * reg)
                    self.slots.append((reg, lane, bits, elems))


def forward_mismatches(view, kind, formula):
    """Elements whose place the forward formula gets wrong (how many, and an example)."""
    compute = compile_gpr(formula) if kind == "GPR" else compile_formula(formula)
    bad, example = 0, None
    for elem, place in view.places:
        want = span(place) if kind == "GPR" else place.lane
        got = compute(**element_variables(view.matrix, elem))
        if got != want:
            bad += 1
            example = example or (elem, got, want)
    return bad, example


def backward_mismatches(view, coord, formula):
    """Register slots whose elements the backward formula gets wrong, evaluated at the
    lowest and the highest bit the value occupies in the VGPR."""
    compute = compile_values(formula)
    axis = {"block": 2, AXES[view.matrix][0]: 0, AXES[view.matrix][1]: 1}[coord]
    uses_bits = "GPR_bits" in str(formula)  # else both ends give the same value
    bad, example = 0, None
    for reg, lane, bits, elems in view.slots:
        want = {e[axis] for e in elems}
        for gpr_bits in bits if uses_bits else bits[:1]:
            got = compute(lane=lane, GPR_num=reg, GPR_bits=gpr_bits, **NO_MODIFIERS)
            if got != want:
                bad += 1
                example = example or ((reg, lane, gpr_bits), sorted(got), sorted(want))
    assert view.slots, (view.matrix, coord)
    return bad, example
