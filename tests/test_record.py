"""instructions.record behaves as collections.namedtuple and functools do, for what the
calculator and its library users do with its records."""
import pickle
from collections import namedtuple
from functools import lru_cache

import pytest

from instructions.record import cached, memoize, record

FIELDS = "reg lane lo width"


@pytest.fixture(params=[(), (32,), (0, 32)], ids=["no defaults", "one", "two"])
def pair(request):
    """(ours, namedtuple's) class with the same fields and defaults."""
    defaults = request.param
    return (record("Slot", FIELDS, defaults=defaults),
            namedtuple("Slot", FIELDS, defaults=defaults))


CALLS = [((1, 2, 3, 4), {}), ((1, 2), {"lo": 3, "width": 4}), ((), {"width": 4, "lo": 3,
         "lane": 2, "reg": 1}), ((1, 2, 3), {}), ((1, 2), {}), ((1,), {}),
         ((1, 2, 3, 4, 5), {}), ((1, 2, 3, 4), {"lane": 9}), ((1, 2, 3), {"bits": 4})]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_construction_matches_namedtuple(pair, args, kwargs):
    ours, theirs = pair
    try:
        expected = tuple(theirs(*args, **kwargs))
    except TypeError:
        with pytest.raises(TypeError):
            ours(*args, **kwargs)
        return
    made = ours(*args, **kwargs)
    assert tuple(made) == expected and isinstance(made, tuple)
    assert [getattr(made, f) for f in FIELDS.split()] == list(expected)
    assert made._fields == theirs._fields
    assert made._field_defaults == theirs._field_defaults
    assert made._asdict() == theirs(*expected)._asdict()
    assert repr(made) == repr(theirs(*expected))
    assert made._replace(lane=7) == theirs(*expected)._replace(lane=7)
    assert type(made._replace(lane=7)) is ours
    with pytest.raises(ValueError):
        made._replace(bits=1)
    with pytest.raises(AttributeError):
        made.lane = 5


def test_the_calculators_records_pickle_and_copy():
    import copy

    from instructions import ARCHITECTURES
    from layouts import Modifiers, Place
    inst = ARCHITECTURES[2].instructions[0]
    for value in (Place(1, 2, 16, 16), Modifiers(cbsz=2, abid=1), inst, ARCHITECTURES[0]):
        assert pickle.loads(pickle.dumps(value)) == value
        assert type(pickle.loads(pickle.dumps(value))) is type(value)
        assert copy.copy(value) == value and copy.deepcopy(value) == value


def test_subclasses_keep_their_own_new_and_replace_bypasses_it():
    class Doubled(record("Doubled", "a b")):
        __slots__ = ()

        def __new__(cls, a, b):
            return super().__new__(cls, a, 2 * b)
    d = Doubled(1, 2)
    assert d == (1, 4) and d._replace(a=5) == (5, 4) and type(d._replace(a=5)) is Doubled
    assert not hasattr(d, "__dict__")


def test_cached_computes_once_per_instance():
    calls = []

    class Thing:
        @cached
        def value(self):
            calls.append(self)
            return len(calls)
    a, b = Thing(), Thing()
    assert (a.value, a.value, b.value, a.value) == (1, 1, 2, 1)
    assert "value" in a.__dict__ and Thing.value.__doc__ is None


def test_memoize_agrees_with_lru_cache_and_keeps_results():
    calls = []

    def square(x, y=1):
        calls.append((x, y))
        return x * x * y
    ours, theirs = memoize(square), lru_cache(maxsize=None)(square)
    for args, kwargs in [((3,), {}), ((3,), {}), ((3, 2), {}), ((3,), {"y": 2}), ((3,), {})]:
        assert ours(*args, **kwargs) == theirs(*args, **kwargs)
    assert calls.count((3, 1)) == 2  # once each: ours and lru_cache's


def test_memoize_limit_drops_old_results():
    seen = []
    limited = memoize(limit=2)(lambda x: seen.append(x) or x)
    for x in (1, 2, 3, 1):
        limited(x)
    assert seen == [1, 2, 3, 1]
