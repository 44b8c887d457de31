"""Layouts as values: finite maps between mixed-radix index spaces, with composition,
right inverse, product and the two projections.

A `LayoutMap` sends every point of its domain (a tuple of coordinates below `domain`,
the first coordinate outermost) to a point of its codomain, or to nothing. Points are
kept as flat indices (row-major over the shape), so a map is its table: entry x is the
flat codomain index of domain point x, -1 where the map is undefined.

The operand's layout (layouts/values.py) is the map (row, col, block, copy) -> (lane,
slot) of the matrix element (with its copy number, for values replicated over lanes)
to the lane and the value slot that holds it; the modifiers that move values (BLGP's
lane patterns, CBSZ/ABID's block broadcasts, OPSEL's halves and index sets) are maps
composed with it, and its right inverse is the (lane, slot) -> element map a fragment
reads. The laws, checked by tests/layouts/test_algebra.py:

    f.compose(g)(x) == f(g(x))                       (g first)
    f.compose(g).compose(h) == f.compose(g.compose(h))
    f.compose(f.inverse())(y) == y  for every y in f's image (a right inverse)
    f.inverse().compose(f)(x) == x  for every x, when f is injective
    f.product(g)((a, b)) == (f(a), g(b))
"""

from __future__ import annotations

from functools import lru_cache, reduce
from operator import mul

from instructions.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

Shape = tuple[int, ...]
Point = tuple[int, ...]


def size(shape: Shape) -> int:
    """The number of points of `shape` (reduce over mul rather than math.prod: math is an
    extension module, whose loading every query would pay)."""
    return reduce(mul, shape, 1)


def flat(shape: Shape, point: Sequence[int]) -> int:
    """The flat (row-major) index of `point` in `shape`."""
    index = 0
    for extent, x in zip(shape, point):
        index = index * extent + x
    return index


def point(shape: Shape, index: int) -> Point:
    """The point of `shape` whose flat index is `index`."""
    out = []
    for extent in reversed(shape):
        index, x = divmod(index, extent)
        out.append(x)
    return tuple(reversed(out))


def points(shape: Shape) -> Iterator[Point]:
    """Every point of `shape`, in flat order."""
    return (point(shape, x) for x in range(size(shape)))


class LayoutMap(Record):
    """A map from the points of `domain` to the points of `codomain`: `table[x]` is the
    flat codomain index of domain point x (-1: undefined there)."""
    domain: Shape
    codomain: Shape
    table: tuple[int, ...]

    def __repr__(self) -> str:  # (the table by its size: _asdict() has it whole)
        return (f"LayoutMap(domain={self.domain}, codomain={self.codomain}, "
                f"table=<{len(self.table)} items>)")

    @classmethod
    def of(cls, domain: Shape, codomain: Shape,
           function: Callable[[Point], Sequence[int] | None]) -> LayoutMap:
        """The map of `function` (a point or None for each domain point), tabulated."""
        table = []
        for x in points(domain):
            y = function(x)
            table.append(-1 if y is None else flat(codomain, y))
        return cls(domain, codomain, tuple(table))

    @classmethod
    def identity(cls, shape: Shape) -> LayoutMap:
        return cls(shape, shape, tuple(range(size(shape))))

    def __call__(self, x: Sequence[int]) -> Point | None:
        y = self.table[flat(self.domain, x)]
        return None if y < 0 else point(self.codomain, y)

    def compose(self, inner: LayoutMap) -> LayoutMap:
        """self after `inner` (inner first): x -> self(inner(x)); inner's codomain must
        be this map's domain."""
        if inner.codomain != self.domain:
            raise ValueError(f"cannot compose: {inner.codomain} is not the domain {self.domain}")
        outer = self.table
        return LayoutMap(inner.domain, self.codomain,
                         tuple([outer[y] if y >= 0 else -1 for y in inner.table]))

    def inverse(self) -> LayoutMap:
        """The right inverse: each point of the image to its first preimage (the lowest
        flat index), undefined off the image (the inverse where the map is a bijection)."""
        table = [-1] * size(self.codomain)
        for x in range(len(self.table) - 1, -1, -1):
            y = self.table[x]
            if y >= 0:
                table[y] = x
        return LayoutMap(self.codomain, self.domain, tuple(table))

    def product(self, other: LayoutMap) -> LayoutMap:
        """(a, b) -> (self(a), other(b)) on the concatenated shapes."""
        width = size(other.codomain)
        table = tuple([-1 if a < 0 or b < 0 else a * width + b
                       for a in self.table for b in other.table])
        return LayoutMap(self.domain + other.domain, self.codomain + other.codomain, table)

    def image(self) -> set[int]:
        """The flat indices of the codomain points the map reaches."""
        return {y for y in self.table if y >= 0}

    def preimages(self) -> dict[int, list[int]]:
        """Each reached codomain index's domain indices, in flat order (for an
        operand's map: place -> the elements it holds)."""
        out: dict[int, list[int]] = {}
        for x, y in enumerate(self.table):
            if y >= 0:
                out.setdefault(y, []).append(x)
        return out

    def injective(self) -> bool:
        defined = [y for y in self.table if y >= 0]
        return len(defined) == len(set(defined))

    def surjective(self) -> bool:
        return len(self.image()) == size(self.codomain)


def on_axis(shape: Shape, axis: int, function: Callable[[int], int]) -> LayoutMap:
    """The map of `shape` onto itself that sends coordinate `axis` through `function`
    and keeps the others (a modifier's lane or block map)."""
    return LayoutMap.of(shape, shape, lambda x: x[:axis] + (function(x[axis]),) + x[axis + 1:])


def shifted(shape: Shape, axis: int, by: int) -> LayoutMap:
    """Coordinate `axis` moved up by `by` (undefined where it leaves the shape): an
    OPSEL half, an index set, a lane half."""
    return LayoutMap.of(shape, shape, lambda x: x[:axis] + (x[axis] + by,) + x[axis + 1:]
                        if x[axis] + by < shape[axis] else None)


def permuted(shape: Shape, order: Sequence[int]) -> LayoutMap:
    """The map of `shape` onto the shape with its coordinates in `order`: x ->
    (x[order[0]], x[order[1]], ...) (a transpose: order (1, 0, ...))."""
    target = tuple(shape[a] for a in order)
    return LayoutMap.of(shape, target, lambda x: tuple(x[a] for a in order))


@lru_cache(maxsize=256)
def blocked(grid: tuple[int, int], shape: tuple[int, int]) -> LayoutMap:
    """Copies of a rows x cols `shape` tiled `grid` = (down, across) times, numbered
    row-major: (f, r, c) -> (top * rows + r, left * cols + c) with (top, left) =
    divmod(f, across), onto the (down * rows) x (across * cols) tile (CuTe's blocked
    product of the grid and the shape)."""
    (down, across), (rows, cols) = grid, shape
    width = across * cols
    table = tuple([(f // across * rows + r) * width + f % across * cols + c
                   for f in range(down * across) for r in range(rows) for c in range(cols)])
    return LayoutMap((down * across, rows, cols), (down * rows, width), table)
