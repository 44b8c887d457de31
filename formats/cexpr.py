"""Index expressions of emitted code: sums of digit terms, simplified and printed as C.

A term is `((var / div) % mod) * coef`, where coef is a number times an optional
symbol (the leading dimension `ld`). Simplification: a division by 1 and a modulus the
variable's range cannot reach are dropped, terms on the same digit add up, and two
digits of one variable that continue each other (`lane % 16` and `(lane / 16) % 2`
with 16 times the weight) merge into one (`lane % 32`).
"""

from __future__ import annotations

from collections.abc import Iterable

from instructions.record import Record


class Term(Record):
    var: str
    div: int
    mod: int | None   # None: no modulus
    coef: int
    symbol: str = ""     # "" or a name multiplied in (e.g. "ld")


def _tidy(term: Term, ranges: dict[str, int]) -> Term:
    limit = ranges.get(term.var)
    if term.mod is not None and limit is not None and -(-limit // term.div) <= term.mod:
        term = term._replace(mod=None)
    return term


def _merge(terms: list[Term]) -> list[Term]:
    """Join (v / d) % m1 * c and (v / (d*m1)) % m2 * (c*m1) into (v / d) % (m1*m2) * c."""
    changed = True
    while changed:
        changed = False
        for a in terms:
            for b in terms:
                if a is b or a.var != b.var or a.symbol != b.symbol or a.mod is None:
                    continue
                if b.div == a.div * a.mod and b.coef == a.coef * a.mod:
                    mod = None if b.mod is None else a.mod * b.mod
                    terms = [t for t in terms if t is not a and t is not b]
                    terms.append(Term(a.var, a.div, mod, a.coef, a.symbol))
                    changed = True
                    break
            if changed:
                break
    return terms


def simplify(terms: Iterable[Term], ranges: dict[str, int]) -> list[Term]:
    """Drop zero terms, add up equal digits, merge continuing digits, in a stable order."""
    summed: dict[tuple[str, int, int | None, str], int] = {}
    for t in terms:
        if t.coef == 0:
            continue
        key = (t.var, t.div, t.mod, t.symbol)
        summed[key] = summed.get(key, 0) + t.coef
    out = [Term(v, d, m, c, s) for (v, d, m, s), c in summed.items() if c]
    out = [_tidy(t, ranges) for t in _merge([_tidy(t, ranges) for t in out])]
    order = {"": 0}
    return sorted(out, key=lambda t: (order.get(t.symbol, -1), t.var != "lane", t.div))


def _digit(t: Term) -> tuple[str, bool]:
    """The digit's text and whether it is a bare variable."""
    text = t.var if t.var != "const" else "1"
    if t.div != 1:
        text = f"{text} / {t.div}"
    if t.mod is not None:
        text = f"{text} % {t.mod}"
    return text, text == t.var


def _plain(terms: list[Term]) -> list[str]:
    parts = []
    const = 0
    for t in terms:
        if t.var == "const":
            const += t.coef
            continue
        text, bare = _digit(t)
        if t.coef != 1:
            text = (text if bare else f"({text})") + f" * {t.coef}"
        parts.append(text)
    if const:
        parts.append(str(const))
    return parts


def render(terms: list[Term]) -> str:
    """C text of a simplified sum ("0" when empty); the terms times a symbol are
    gathered: `((lane / 32) * 4 + v % 4) * ld + lane % 32`."""
    parts = []
    for symbol in sorted({t.symbol for t in terms if t.symbol}):
        inner = _plain([t._replace(symbol="") for t in terms if t.symbol == symbol])
        if inner == ["1"]:
            parts.append(symbol)
        elif len(inner) == 1:
            parts.append((inner[0] if " " not in inner[0] else f"({inner[0]})")
                         + f" * {symbol}")
        else:
            parts.append(f"({' + '.join(inner)}) * {symbol}")
    parts += _plain([t for t in terms if not t.symbol])
    return " + ".join(parts) if parts else "0"
