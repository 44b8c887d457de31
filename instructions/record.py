"""Immutable records and computed-once attributes, built without `collections`,
`functools`, `typing` and `dataclasses`.

Every query of the calculator loads its instruction tables and layouts. Importing
`collections` and `functools` (and what they load: operator, keyword, reprlib, types)
was about 4 ms, a quarter of the interpreter's own start-up on the development machine,
`typing` about 5 ms and `dataclasses` (which loads inspect) about 8 ms; creating each
named-tuple class (its `__new__` is compiled from source) a few hundred microseconds more.
This module gives the same few things at no import cost:

- `Record`: a base class that makes a class body of annotated fields a named tuple, as
  `typing.NamedTuple` does (type checkers see `typing.NamedTuple` itself, see below):
  defaults for the last fields, keyword arguments, `_fields`, `_field_defaults`,
  `_replace` and `_asdict`; methods and properties in the body are kept;
- `record(name, fields, defaults)`: the same as `collections.namedtuple` makes it
  (tests/test_record.py compares them);
- `cached`: an attribute computed on first use and then stored on the instance, as
  `functools.cached_property`;
- `memoize`: a function whose results are kept per combination of arguments, as
  `functools.lru_cache`;
- `without_gc`: a function that runs with the cyclic garbage collector paused.
"""
from __future__ import annotations

from _operator import itemgetter  # the C module behind `operator`, loaded with Python
from gc import disable, enable, isenabled  # (a built-in module)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ParamSpec, Protocol, TypeVar

    P = ParamSpec("P")
    R = TypeVar("R")

    class _New(Protocol):
        """A record class's __new__ (made by _make_new)."""
        def __call__(self, cls: type[_Record], *args: object,
                     **kwargs: object) -> _Record: ...

_MISSING = object()

__all__ = ["TYPE_CHECKING", "Record", "cached", "memoize", "record", "without_gc"]


def _make_new(name: str, fields: tuple[str, ...],
              defaults: tuple[object, ...]) -> _New:
    required = len(fields) - len(defaults)
    position = {field: at for at, field in enumerate(fields)}
    count = len(fields)

    def __new__(cls: type[_Record], *args: object, **kwargs: object) -> _Record:
        if len(args) == count and not kwargs:
            return tuple.__new__(cls, args)
        if len(args) > count:
            raise TypeError(f"{name}() takes {count} values, {len(args)} given")
        values = list(args) + [_MISSING] * (count - len(args))
        for key, value in kwargs.items():
            at = position.get(key)
            if at is None:
                raise TypeError(f"{name}() got an unexpected field {key!r}")
            if values[at] is not _MISSING:
                raise TypeError(f"{name}() got two values for field {key!r}")
            values[at] = value
        for at in range(len(args), count):
            if values[at] is _MISSING:
                if at < required:
                    raise TypeError(f"{name}() is missing field {fields[at]!r}")
                values[at] = defaults[at - required]
        return tuple.__new__(cls, values)
    return __new__


def _repr(self: _Record) -> str:
    inner = ", ".join(f"{field}={value!r}" for field, value in zip(self._fields, self))
    return f"{type(self).__name__}({inner})"


def _replace(self: _Record, **changes: object) -> _Record:
    values = [changes.pop(field, value) for field, value in zip(self._fields, self)]
    if changes:
        raise ValueError(f"Got unexpected field names: {list(changes)!r}")
    return tuple.__new__(type(self), values)


def _asdict(self: _Record) -> dict[str, object]:
    return dict(zip(self._fields, self))


def _getnewargs(self: _Record) -> tuple[object, ...]:
    return tuple(self)


class _RecordType(type):
    """Makes each class body of annotated fields a named tuple (see Record)."""

    # (the namespace holds anything a class body does: type.__new__'s own signature)
    def __new__(mcs, name: str, bases: tuple[type, ...],  # type: ignore[explicit-any]
                namespace: dict[str, Any]) -> _RecordType:
        fields = tuple(namespace.get("__annotations__", {}))
        if not fields:  # Record itself
            return super().__new__(mcs, name, bases, namespace)
        found = [f for f in fields if f in namespace]
        defaults = tuple(namespace.pop(f) for f in found)
        if tuple(found) != fields[len(fields) - len(found):]:
            raise TypeError(f"{name}: fields with defaults must come last")
        namespace.update({
            "__slots__": (), "__new__": _make_new(name, fields, defaults),
            "_fields": fields, "_field_defaults": dict(zip(found, defaults))})
        namespace.setdefault("__repr__", _repr)
        namespace.setdefault("__doc__", f"{name}({', '.join(fields)})")
        for at, field in enumerate(fields):
            namespace[field] = property(itemgetter(at), doc=f"field {at}: {field}")
        return super().__new__(mcs, name, bases, namespace)


class _Record(tuple, metaclass=_RecordType):  # type: ignore[type-arg]
    __slots__ = ()
    if TYPE_CHECKING:  # (set by _RecordType on each record class)
        _fields: tuple[str, ...]
    _replace = _replace
    _asdict = _asdict
    __getnewargs__ = _getnewargs


if TYPE_CHECKING:
    from functools import cached_property as cached
    from typing import NamedTuple as Record
else:
    Record = _Record


def record(name: str, fields: str | tuple[str, ...] | list[str],
           defaults: tuple[object, ...] = (), module: str | None = None) -> type:
    """A named-tuple class `name` with `fields` (a list or a space-separated string);
    `defaults` apply to the last fields."""
    names = tuple(fields.split() if isinstance(fields, str) else fields)
    defaults = tuple(defaults)
    namespace: dict[str, object] = {"__annotations__": dict.fromkeys(names, "object"),
                                 "__module__": module or __name__}
    namespace.update(zip(names[len(names) - len(defaults):], defaults))
    return _RecordType(name, (_Record,), namespace)


class _Cached:
    """A method turned into an attribute computed on first use and stored on the
    instance (which must have a __dict__), like functools.cached_property."""

    def __init__(self, compute: Callable[[object], object]) -> None:
        self.compute, self.name, self.__doc__ = compute, compute.__name__, compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> object:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


if not TYPE_CHECKING:  # (a type checker sees functools.cached_property, which this is)
    cached = _Cached


def _memoize(function: Callable[P, R] | None = None, *,
             limit: int | None = None) -> object:
    """`function` with its result kept for each combination of arguments, like
    functools.lru_cache; with a `limit`, the kept results are dropped when it is reached.
    Used bare (@memoize) or with a limit (@memoize(limit=512))."""
    if function is None:
        return lambda f: _memoize(f, limit=limit)
    results: dict[tuple[object, ...], R] = {}

    def memoized(*args: P.args, **kwargs: P.kwargs) -> R:
        key = args + (_MISSING,) + tuple(sorted(kwargs.items())) if kwargs else args
        try:
            return results[key]
        except KeyError:
            if limit and len(results) >= limit:
                results.clear()
            value = results[key] = function(*args, **kwargs)
            return value
    memoized.__name__, memoized.__doc__ = function.__name__, function.__doc__
    memoized.__wrapped__ = function  # type: ignore[attr-defined]
    memoized.cache_clear = results.clear  # type: ignore[attr-defined]
    return memoized


if TYPE_CHECKING:
    from typing import overload

    @overload
    def memoize(function: Callable[P, R], *, limit: int | None = None) -> Callable[P, R]: ...
    @overload
    def memoize(function: None = None, *,
                limit: int | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]: ...
    def memoize(function: Callable[P, R] | None = None, *,
                limit: int | None = None) -> object:
        return _memoize(function, limit=limit)
else:
    memoize = _memoize


def without_gc(function: Callable[P, R]) -> Callable[P, R]:
    """`function` run with Python's cyclic garbage collector paused (where it was on):
    for the planners, which build tens of thousands of records, none in a cycle, that
    the collector would otherwise scan again and again as they pile up (a fifth to a
    quarter of a large plan's time, issue 31); what it would collect it collects after.
    Nested calls leave it to the outermost."""
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        if not isenabled():
            return function(*args, **kwargs)
        disable()
        try:
            return function(*args, **kwargs)
        finally:
            enable()
    paused.__name__, paused.__doc__ = function.__name__, function.__doc__
    paused.__wrapped__ = function  # type: ignore[attr-defined]
    return paused
