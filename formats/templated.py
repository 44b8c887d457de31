"""Thousands of text records of a few templates, each filled with a few numbers (the JSON
-R and -M documents' arrays, long-csv's rows), written without a Python step per record:
each distinct template is cut at its placeholders once, numbers are spelled from a table,
and the pieces and numbers of every record are joined in one pass of C-level iterators
(map, slice assignment), without a % per record (which scans every template's characters)."""
from __future__ import annotations

from itertools import chain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def joined(shapes: list[int], templates: Mapping[int, str], columns: list[list[int]],
           opening: str, separator: str, closing: str, marker: str = "%d") -> list[str]:
    """The pieces of `opening + separator.join(record n) + closing`, record n being
    templates[shapes[n]] with its markers replaced by columns[0][n], columns[1][n], ...
    in turn (as `template % (...)` with the marker %d; every template has as many
    markers as there are columns, and holds the marker nowhere else; shapes are small
    numbers of at least 0, such as a slot's bit offset). A piece that follows the same
    marker in every template goes into that column's table (each number spelled with
    the piece after it); a column of one number is written into the templates; a column
    given twice (the same list) is read once; a column with a number below 0 makes
    every record by itself."""
    if not shapes:
        return [opening, closing]
    ranges: dict[int, tuple[int, int]] = {}
    for column in columns:  # (a column given twice read once; min and max of its values:
        if id(column) not in ranges:  # a few hundred distinct numbers of thousands)
            distinct = set(column)
            ranges[id(column)] = (min(distinct), max(distinct))
    if any(low < 0 for low, _ in ranges.values()):  # (tables spell 0 and up)
        return [opening, separator.join(_one_by_one(shapes, templates, columns, marker)),
                closing]
    fixed = [low if low == high else None for low, high in
             (ranges[id(column)] for column in columns)]
    cut = {shape: _cut(separator + templates[shape], marker, fixed) for shape in set(shapes)}
    varying = [column for column, number in zip(columns, fixed) if number is None]
    size = max(cut) + 1

    def own(at: int) -> Iterable[str]:
        """The pieces at `at` of every record, by its shape."""
        table = [""] * size
        for shape, pieces in cut.items():
            table[shape] = pieces[at]
        return map(table.__getitem__, shapes)
    streams = [own(0)]
    for at, column in enumerate(varying):
        after = {pieces[at + 1] for pieces in cut.values()}
        piece = after.pop() if len(after) == 1 else ""
        table = [f"{number}{piece}" for number in range(ranges[id(column)][1] + 1)]
        streams.append(map(table.__getitem__, column))
        if after:  # (a piece of each template's own)
            streams.append(own(at + 1))
    width = len(streams)  # (each stream's pieces put in their places: a C loop each)
    pieces = [""] * (len(shapes) * width)
    for at, stream in enumerate(streams):
        pieces[at::width] = list(stream)
    pieces[0] = opening + pieces[0][len(separator):]  # (the first record's, after `opening`)
    pieces.append(closing)
    return pieces


def _cut(template: str, marker: str, fixed: list[int | None]) -> list[str]:
    """The pieces of `template` between its markers, a fixed column's number (not None)
    written in with the pieces around it."""
    pieces = template.split(marker)
    kept = [pieces[0]]
    for at, number in enumerate(fixed):
        if number is None:
            kept.append(pieces[at + 1])
        else:
            kept[-1] += f"{number}{pieces[at + 1]}"
    return kept


def _one_by_one(shapes: list[int], templates: Mapping[int, str], columns: list[list[int]],
                marker: str) -> list[str]:
    """Every record filled by itself (numbers below 0, which no table spells)."""
    texts = []
    for shape, values in zip(shapes, zip(*columns)):
        pieces = templates[shape].split(marker)
        texts.append("".join(chain.from_iterable(zip(pieces, map(str, values)))) + pieces[-1])
    return texts
