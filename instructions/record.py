"""The calculator's records, the collector pause of its largest computations, and the
short repr of their records.

`Record` is the base of every record: to a type checker it is `typing.NamedTuple`, and at
run time it builds the same class with `collections.namedtuple` from the class body's
field annotations, defaults, methods and docstring. A start-up boundary
(docs/internals.md): importing `typing` alone takes about as long as the interpreter's
own start-up (bench/bench.py shows it), so the modules a query loads do not import it;
they say `TYPE_CHECKING = False`, which type checkers read as true.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from functools import wraps
from gc import disable, enable, isenabled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NamedTuple as Record
    from typing import ParamSpec, TypeVar

    P = ParamSpec("P")
    R = TypeVar("R")
else:
    if sys.version_info >= (3, 14):  # (class bodies keep their annotations deferred)
        import annotationlib

    # Names a record's body may not define, as typing.NamedTuple refuses them.
    _PROHIBITED = frozenset(("__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                             "_field_defaults", "_make", "_replace", "_asdict", "_source"))
    _OWN = frozenset(("__module__", "__qualname__", "__annotations__", "__classcell__"))

    class _RecordType(type):
        """Makes `class Name(Record): field: type [= default] ...` a named tuple."""

        def __new__(cls, name, bases, namespace):
            if not bases:  # Record itself
                return super().__new__(cls, name, bases, namespace)
            if bases != (Record,):
                raise TypeError(f"record {name}: Record is its only base")
            fields = namespace.get("__annotations__")
            if fields is None:  # Python 3.14's deferred annotations: read their names
                annotate = annotationlib.get_annotate_from_class_namespace(namespace)
                fields = {} if annotate is None else annotationlib.call_annotate_function(
                    annotate, annotationlib.Format.FORWARDREF)
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field not in namespace for field in tuple(fields)[len(fields) - len(defaults):]):
                raise TypeError(f"record {name}: a field without a default follows one "
                                "with a default")
            record = namedtuple(name, fields, defaults=defaults,
                                module=namespace["__module__"])
            record.__qualname__ = namespace["__qualname__"]
            record.__annotations__ = fields
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"record {name}: cannot define {key}")
                if key not in _OWN and key not in fields:
                    setattr(record, key, value)
            return record

    class Record(metaclass=_RecordType):
        """The base of the calculator's records (typing.NamedTuple to a type checker)."""

__all__ = ["Record", "short_repr", "without_gc"]


def without_gc(function: Callable[P, R]) -> Callable[P, R]:
    """`function` run with Python's cyclic garbage collector paused (where it was on):
    for the planners and the largest renderers, which build tens of thousands of
    records, none in a cycle, that the collector would otherwise scan again and again as
    they pile up (a fifth to a quarter of a large plan's time); what it would collect it
    collects after. Nested calls leave it to the outermost."""
    @wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        if not isenabled():
            return function(*args, **kwargs)
        disable()
        try:
            return function(*args, **kwargs)
        finally:
            enable()
    return paused


def short_repr(record: Record) -> str:
    """A record in one short line: its kind and its small fields (names, numbers, the
    route), each large one by its size (`slots=<65536 items>`); `record._asdict()` gives
    the whole content. The repr of the plans, whose fields hold thousands of slots."""
    parts = []
    for name, value in zip(record._fields, record):
        if isinstance(value, (tuple, list, dict, frozenset, set)) and not hasattr(value, "_fields"):
            parts.append(f"{name}=<{len(value)} item{'s' * (len(value) != 1)}>")
        elif hasattr(value, "_fields"):
            called = getattr(value, "name", None)
            parts.append(f"{name}=<{type(value).__name__}"
                         + (f" {called}>" if isinstance(called, str) else ">"))
        elif len(text := repr(value)) > 60:
            parts.append(f"{name}=<{type(value).__name__} of {len(text)} characters>")
        else:
            parts.append(f"{name}={text}")
    return f"{type(record).__name__}({', '.join(parts)})"
