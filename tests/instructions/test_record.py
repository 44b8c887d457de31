"""instructions.record.Record builds the same class as typing.NamedTuple from the same
body: fields, defaults, methods, docstring, equality, hashing, pickling and the named
tuple's methods, and it refuses what typing.NamedTuple refuses."""
import pickle
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from instructions.record import Record


class Typed(NamedTuple):
    """A record."""
    name: str
    size: int = 4
    parts: tuple[int, ...] = ()

    def twice(self) -> int:
        return 2 * self.size

    @property
    def count(self) -> int:
        return len(self.parts)


class Built(Record):
    """A record."""
    name: str
    size: int = 4
    parts: tuple[int, ...] = ()

    def twice(self) -> int:
        return 2 * self.size

    @property
    def count(self) -> int:
        return len(self.parts)


def test_a_record_is_the_named_tuple_typing_would_build():
    typed, built = Typed("a", 3, (1, 2)), Built("a", 3, (1, 2))
    assert Built._fields == Typed._fields == ("name", "size", "parts")
    assert Built._field_defaults == Typed._field_defaults == {"size": 4, "parts": ()}
    assert Built.__match_args__ == Typed.__match_args__
    assert repr(built) == repr(typed).replace("Typed", "Built")
    assert repr(built) == "Built(name='a', size=3, parts=(1, 2))"
    assert built == typed and hash(built) == hash(typed) and tuple(built) == ("a", 3, (1, 2))
    assert built.twice() == typed.twice() == 6 and built.count == typed.count == 2
    assert Built.__doc__ == Typed.__doc__ == "A record."
    assert Built("b") == Built("b", 4, ()) and Built("b")._replace(size=8).size == 8
    assert built._asdict() == typed._asdict() and Built._make(typed) == built
    assert Built.__module__ == __name__ and Built.__qualname__ == "Built"
    assert pickle.loads(pickle.dumps(built)) == built
    assert isinstance(built, tuple) and not hasattr(built, "__dict__")
    assert list(Built.__annotations__) == list(Typed.__annotations__)


def test_a_record_refuses_what_a_named_tuple_refuses():
    with pytest.raises(TypeError):
        class Late(Record):
            first: int = 0
            second: int
    with pytest.raises(AttributeError):
        class Own(Record):
            x: int

            def _replace(self) -> "Own":
                return self
    with pytest.raises(TypeError):
        class Field(Record):
            x: int

        class Derived(Field, Record):
            y: int


def test_the_record_base_does_not_import_typing():
    code = ("import sys; from instructions.record import Record\n"
            "class A(Record):\n    x: int\n"
            "print('typing' in sys.modules, A(1))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=str(Path(__file__).parents[2]))
    assert proc.stdout == "False A(x=1)\n"
