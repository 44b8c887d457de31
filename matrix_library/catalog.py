"""The catalog: the facts of every instruction, kept by filters.

The facts of every instruction are worked out once per wave size (and kept), each with
the values its filters compare; a filter value is then one test per instruction, so a
thousand filter values take milliseconds, not a catalog each.
"""


from __future__ import annotations

from instructions import ARCHITECTURES
from instructions.record import Record
from layouts.core import CalcError

from matrix_library.checks import find_architecture, flag, shown, whole
from matrix_library.facts import facts
from matrix_library.filters import FILTERS, NUMBER_FILTERS, type_spellings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from matrix_library.typed import Facts, TypeFacts
    FilterValue = str | int | bool
    Filters = Mapping[str, FilterValue | Iterable[FilterValue]]

LARGEST = 10**6  # (a number filter above this matches nothing and is refused)


class Row(Record):
    """One instruction's facts and the values its filters compare."""
    fact: Facts
    arch: str
    types: frozenset[str]
    kind: str
    sparse: bool
    dims: tuple[int, int, int]  # m, n, k
    blocks: int
    vendor: str  # the architecture's (amd or nvidia)
    checked: frozenset[str]  # the verification record's source keys


def _all_types(fact: Facts) -> list[TypeFacts]:
    """The types of the operands and the formats a modifier may choose."""
    types = fact["types"]
    c = [] if types["C"] is None else [types["C"]]
    return [types["A"], types["B"], *c, types["D"], *fact["formats"]]


def _type_keys(fact: Facts) -> frozenset[str]:
    """Every spelling a type filter may match: keys (f16, fp8_fnuz), their family (fp8),
    printed names (FP16, int8) and the other names of the same encoding (e4m3 for fp8),
    lower case (filters.type_spellings)."""
    keys: set[str] = set()
    for t in _all_types(fact):
        keys |= type_spellings(t["key"]) | {t["name"].lower()}
    return frozenset(keys)


_ROWS: dict[int | None, tuple[Row, ...]] = {}


def rows(wave: int | None) -> tuple[Row, ...]:
    """Every instruction's row for `wave` (None: each architecture's default), once."""
    found = _ROWS.get(wave)
    if found is None:
        found = _ROWS[wave] = tuple(
            Row(fact, fact["architecture"], _type_keys(fact), fact["kind"], fact["sparse"],
                (fact["m"], fact["n"], fact["k"]), fact["blocks"], arch.vendor,
                frozenset(c["source"] for c in fact["verification"]["checks"]
                          if c["source"] != "hardware" or c["detail"] != "none yet"))
            for arch in ARCHITECTURES for inst in arch.instructions
            if wave is None or wave in inst.wave_sizes
            for fact in [facts(inst, wave or inst.wave_sizes[0])])
    return found


def _plain(value: object) -> object:
    """A deep copy of JSON-like data (dicts, lists; the rest is immutable)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _copy(fact: Facts) -> Facts:
    """A copy of a kept fact for the caller, who may change it."""
    out = fact.copy()
    types = fact["types"]
    out["types"] = {"A": types["A"].copy(), "B": types["B"].copy(),
                    "C": None if types["C"] is None else types["C"].copy(),
                    "D": types["D"].copy()}
    out["formats"] = [t.copy() for t in fact["formats"]]
    out["waves"], out["modifiers"] = list(fact["waves"]), list(fact["modifiers"])
    out["registers"] = {w: dict(counts) for w, counts in fact["registers"].items()}
    out["fields"] = {w: dict(widths) for w, widths in fact["fields"].items()}
    out["verification"] = _plain(fact["verification"])  # type: ignore[typeddict-item]
    if "provenance" in fact:
        out["provenance"] = {k: _plain(v) for k, v in fact["provenance"].items()}
    return out


# ---- filter values

def _text(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise CalcError(f"{key}= takes a name (a string), not {shown(value)}")
    return value.strip()


def _yes_no(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = _text("sparse", value).lower()
    if text in ("yes", "true", "1", "y"):
        return True
    if text in ("no", "false", "0", "n"):
        return False
    raise CalcError(f"sparse= takes yes or no, not {shown(value)}")


def _number(key: str, value: object) -> int:
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 7:
            raise CalcError(f"{key}= takes a whole number from 0 to {LARGEST}, not "
                            f"{shown(value)}")
        value = int(text)
    number = whole(f"{key}=", value)
    if number > LARGEST:
        raise CalcError(f"{key}= takes a whole number from 0 to {LARGEST}, not {shown(number)}")
    return number


def _shape(value: object) -> tuple[int | None, ...]:
    parts = _text("shape", value).lower().split("x")
    if len(parts) not in (2, 3) or not all(
            p == "*" or p.isascii() and p.isdigit() and len(p) <= 7 for p in parts):
        raise CalcError(f"shape= takes MxNxK or MxN (a part may be *), e.g. 16x16x32, "
                        f"not {shown(value)}")
    return tuple(None if p == "*" else int(p) for p in parts)


def _vendor(value: object) -> Callable[[Row], bool]:
    vendor = _text("vendor", value).lower()
    vendors = sorted({a.vendor for a in ARCHITECTURES})
    if vendor not in vendors:
        raise CalcError(f"vendor= takes {' or '.join(vendors)}, not {shown(value)}")
    return lambda r: r.vendor == vendor


def _checked(value: object) -> Callable[[Row], bool]:
    """checked=SOURCE: the instructions whose verification record has that source."""
    from instructions.verification import SOURCE_KEYS
    source = _text("checked", value).lower()
    if source not in SOURCE_KEYS:
        raise CalcError(f"checked= takes a source: {', '.join(SOURCE_KEYS)}; not {shown(value)}")
    return lambda r: source in r.checked


_HELPERS = {"vendor": _vendor, "checked": _checked}


def matcher(key: str, value: object) -> Callable[[Row], bool]:
    """A test of one instruction's row for one filter value (checked here)."""
    if key == "arch":
        name = find_architecture(_text(key, value)).name
        return lambda r: r.arch == name
    helper = _HELPERS.get(key)  # (vendor=, checked=)
    if helper is not None:
        return helper(value)
    if key == "type":
        wanted = _text(key, value).lower()
        return lambda r: wanted in r.types
    if key == "shape":
        dims = _shape(value)
        return lambda r: all(w is None or w == d for w, d in zip(dims, r.dims))
    if key == "sparse":
        sparse = _yes_no(value)
        return lambda r: r.sparse == sparse
    if key == "kind":
        kind = _text(key, value).lower()
        return lambda r: r.kind == kind
    if key not in NUMBER_FILTERS:
        raise CalcError(f"unknown filter {shown(key)}; filter by {', '.join(FILTERS)}")
    number, index = _number(key, value), "mnk".find(key)
    if index < 0:
        return lambda r: r.blocks == number
    return lambda r: r.dims[index] == number


def parse_filters(texts: Iterable[str]) -> dict[str, list[str]]:
    """{key: [values]} from strings 'key=value' (a value may list alternatives: a,b)."""
    if isinstance(texts, str) or not hasattr(texts, "__iter__"):
        raise CalcError(f"filters are given as a list of 'key=value' strings, not "
                        f"{shown(texts)}")
    found: dict[str, list[str]] = {}
    for text in texts:
        if not isinstance(text, str):
            raise CalcError(f"a filter is a string key=value (e.g. type=fp8), not {shown(text)}")
        key, sep, value = text.partition("=")
        key = key.strip().lower()
        if not sep or not value.strip():
            raise CalcError(f"a filter is written key=value (e.g. type=fp8), not {shown(text)}")
        if key not in FILTERS:
            raise CalcError(f"unknown filter {shown(key)}; filter by {', '.join(FILTERS)}")
        found.setdefault(key, []).extend(v.strip() for v in value.split(",") if v.strip())
    return found


def _tests(filters: Filters | None) -> (
        list[tuple[str, list[object], list[Callable[[Row], bool]]]]):
    """(key, values, tests) of every filter key, every value checked."""
    if filters is None:
        return []
    if not hasattr(filters, "items") or isinstance(filters, str):
        raise CalcError(f"filters are a mapping {{key: value or [values]}} (parse_filters "
                        f"reads 'key=value' strings), not {shown(filters)}")
    found = []
    for key, given in filters.items():
        if key not in FILTERS:
            raise CalcError(f"unknown filter {shown(key)}; filter by {', '.join(FILTERS)}")
        if isinstance(given, (str, int)):
            values: list[object] = [given]
        elif hasattr(given, "__iter__"):
            values = list(given)
        else:
            raise CalcError(f"filter {key} takes a value or a list of values, not "
                            f"{shown(given)}")
        found.append((key, values, [matcher(key, v) for v in values]))
    return found


def _wave(wave: object) -> int | None:
    if wave is None or type(wave) is int and wave == 0:
        return None
    sizes = sorted({size for arch in ARCHITECTURES for size in arch.waves})
    if whole("wave", wave) not in sizes:
        raise CalcError(f"wave size {shown(wave)} is not available on any architecture; "
                        f"use {' or '.join(map(str, sizes))}")
    return whole("wave", wave)


def known_values(key: str, every: Iterable[Row]) -> list[str]:
    """The values of filter `key` that some instruction has."""
    if key == "type":
        found = {t["key"] for r in every for t in _all_types(r.fact)}
        found |= {k.split("_")[0] for k in found}
    elif key == "shape":
        found = {"x".join(map(str, r.dims)) for r in every}
    elif key in ("arch", "kind"):
        found = {getattr(r, key).lower() for r in every}
    elif key == "sparse":
        found = {"yes", "no"}
    elif key == "blocks":
        found = {str(r.blocks) for r in every}
    elif key == "checked":
        found = {source for r in every for source in r.checked}
    else:
        found = {str(r.dims["mnk".index(key)]) for r in every}
    return sorted(found, key=lambda v: (len(v), v) if v.isdigit() else (0, v))


def check_filters(filters: Filters | None, wave: int | None = None) -> None:
    """Check `filters` as catalog() reads them, and raise CalcError naming a filter value
    that no instruction has alone (a value that matches nothing cannot narrow, so it is
    a mistake), with the values there are."""
    _check(_tests(filters), rows(_wave(wave)))


def _check(tests: list[tuple[str, list[object], list[Callable[[Row], bool]]]],
           every: tuple[Row, ...]) -> None:
    for key, values, alternatives in tests:
        for value, test in zip(values, alternatives):
            if not any(map(test, every)):
                raise CalcError(f"no instruction has {key}={shown(value, quote=False)}; "
                                f"the values of {key} are: "
                                f"{', '.join(known_values(key, every))}")


def catalog(filters: Filters | None = None, wave: int | None = None, *,
            strict: bool = False) -> list[Facts]:
    """The facts of every instruction of every architecture that passes `filters`:
    {key: value or [values]}, keys as in FILTERS; alternatives of one key are ORed,
    different keys ANDed. With `wave`, register counts are for that wave size and
    architectures without it are left out; otherwise each architecture's default.
    `strict`: check_filters() first (a value no instruction has is an error)."""
    tests, size = _tests(filters), _wave(wave)
    every = rows(size)
    if flag("strict", strict):
        _check(tests, every)
    return [_copy(r.fact) for r in every
            if all(any(t(r) for t in alternatives) for _, _, alternatives in tests)]
