"""The collector pause of the calculator's largest computations, and the short repr of
their records."""

from collections.abc import Callable
from functools import wraps
from gc import disable, enable, isenabled
from typing import NamedTuple, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


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


def short_repr(record: NamedTuple) -> str:
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
