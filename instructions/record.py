"""The collector pause of the calculator's largest computations."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from gc import disable, enable, isenabled
from typing import ParamSpec, TypeVar

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
