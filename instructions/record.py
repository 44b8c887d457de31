"""Immutable records and computed-once attributes, built without `collections` and
`functools`.

Every query of the calculator loads its instruction tables and layouts, whose records
were named tuples with functools' caches. Importing those two modules (and the ones they
load: operator, keyword, reprlib, types) was about 4 ms, a quarter of the interpreter's
own start-up on the development machine, and creating each named-tuple class (its
`__new__` is compiled from source) a few hundred microseconds more. This module gives
the same few things at no import cost:

- `record(name, fields, defaults)`: a tuple subclass with named fields, defaults for the
  last fields, keyword arguments, `_fields`, `_field_defaults`, `_replace` and
  `_asdict`, as `collections.namedtuple` makes it (tests/test_record.py compares them);
- `cached`: an attribute computed on first use and then stored on the instance, as
  `functools.cached_property`;
- `memoize`: a function whose results are kept per combination of arguments, as
  `functools.lru_cache`.
"""
from _operator import itemgetter  # the C module behind `operator`, loaded with Python

_MISSING = object()


def record(name, fields, defaults=(), module=None):
    """A named-tuple class `name` with `fields` (a list or a space-separated string);
    `defaults` apply to the last fields."""
    fields = tuple(fields.split() if isinstance(fields, str) else fields)
    defaults = tuple(defaults)
    required = len(fields) - len(defaults)
    position = {field: at for at, field in enumerate(fields)}

    def __new__(cls, *args, **kwargs):
        if len(args) == len(fields) and not kwargs:
            return tuple.__new__(cls, args)
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} values, {len(args)} given")
        values = list(args) + [_MISSING] * (len(fields) - len(args))
        for key, value in kwargs.items():
            at = position.get(key)
            if at is None:
                raise TypeError(f"{name}() got an unexpected field {key!r}")
            if values[at] is not _MISSING:
                raise TypeError(f"{name}() got two values for field {key!r}")
            values[at] = value
        for at in range(len(args), len(fields)):
            if values[at] is _MISSING:
                if at < required:
                    raise TypeError(f"{name}() is missing field {fields[at]!r}")
                values[at] = defaults[at - required]
        return tuple.__new__(cls, values)

    def __repr__(self):
        inner = ", ".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"{type(self).__name__}({inner})"

    def _replace(self, **changes):
        values = [changes.pop(field, value) for field, value in zip(fields, self)]
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return tuple.__new__(type(self), values)

    def _asdict(self):
        return dict(zip(fields, self))

    def __getnewargs__(self):
        return tuple(self)

    namespace = {"__slots__": (), "__new__": __new__, "__repr__": __repr__,
                 "_replace": _replace, "_asdict": _asdict, "__getnewargs__": __getnewargs__,
                 "_fields": fields, "_field_defaults": dict(zip(fields[required:], defaults)),
                 "__doc__": f"{name}({', '.join(fields)})", "__module__": module or __name__}
    for at, field in enumerate(fields):
        namespace[field] = property(itemgetter(at), doc=f"field {at}: {field}")
    return type(name, (tuple,), namespace)


class cached:
    """A method turned into an attribute computed on first use and stored on the
    instance (which must have a __dict__), like functools.cached_property."""

    def __init__(self, compute):
        self.compute, self.name, self.__doc__ = compute, compute.__name__, compute.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


def memoize(function=None, *, limit=None):
    """`function` with its result kept for each combination of arguments, like
    functools.lru_cache; with a `limit`, the kept results are dropped when it is reached.
    Used bare (@memoize) or with a limit (@memoize(limit=512))."""
    if function is None:
        return lambda f: memoize(f, limit=limit)
    results = {}

    def memoized(*args, **kwargs):
        key = args + (_MISSING,) + tuple(sorted(kwargs.items())) if kwargs else args
        try:
            return results[key]
        except KeyError:
            if limit and len(results) >= limit:
                results.clear()
            value = results[key] = function(*args, **kwargs)
            return value
    memoized.__name__, memoized.__doc__ = function.__name__, function.__doc__
    memoized.__wrapped__, memoized.cache_clear = function, results.clear
    return memoized
