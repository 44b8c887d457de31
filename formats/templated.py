"""Thousands of text records of a few templates, each filled with a few numbers (the JSON
-R and -M documents' arrays, long-csv's rows), written without a Python step per record:
each distinct template is cut at its placeholders once, numbers are spelled from a table,
and the pieces and numbers of every record are joined in one pass of C-level iterators
(zip, map, chain), without a % per record (which scans every template's characters)."""
from __future__ import annotations

from _operator import itemgetter  # (operator's C module, loaded with Python)
from itertools import chain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def joined(templates: list[str], columns: list[list[int]], opening: str, separator: str,
           closing: str, marker: str = "%d") -> list[str]:
    """The pieces of `opening + separator.join(record n) + closing`, record n being
    templates[n] with its markers replaced by columns[0][n], columns[1][n], ... in
    turn (as `templates[n] % (...)` with the marker %d; every template has as many
    markers as there are columns, and holds the marker nowhere else). A piece that
    follows the same marker in every template goes into that column's table (each
    number spelled with the piece after it); a column of one number is written into the
    templates; a column given twice (the same list) is read once; a column with a
    number below 0 makes every record by itself."""
    if not templates:
        return [opening, closing]
    ranges = {id(column): (min(column), max(column)) for column in columns}
    if any(low < 0 for low, _ in ranges.values()):  # (tables spell 0 and up)
        texts = []
        for template, values in zip(templates, zip(*columns)):
            pieces = template.split(marker)
            texts.append("".join(chain.from_iterable(zip(pieces, map(str, values))))
                         + pieces[-1])
        return [opening, separator.join(texts), closing]
    fixed = [low if low == high else None for low, high in
             (ranges[id(column)] for column in columns)]
    cut: dict[str, list[str]] = {}
    for template in dict.fromkeys(templates):
        pieces = template.split(marker)
        cut[template] = kept = [pieces[0]]
        for at, number in enumerate(fixed):
            if number is None:
                kept.append(pieces[at + 1])
            else:
                kept[-1] += f"{number}{pieces[at + 1]}"
    varying = [column for column, number in zip(columns, fixed) if number is None]
    # (every record's first piece after the separator, the first record's after `opening`)
    parts = list(map({template: [separator + pieces[0], *pieces[1:]]
                      for template, pieces in cut.items()}.__getitem__, templates))
    parts[0] = [opening + cut[templates[0]][0], *cut[templates[0]][1:]]
    streams: list[Iterable[str]] = [map(itemgetter(0), parts)]
    for at, column in enumerate(varying):
        after = {pieces[at + 1] for pieces in cut.values()}
        piece = after.pop() if len(after) == 1 else ""
        table = [f"{number}{piece}" for number in range(ranges[id(column)][1] + 1)]
        streams.append(map(table.__getitem__, column))
        if after:  # (a piece of each template's own)
            streams.append(map(itemgetter(at + 1), parts))
    pieces = list(chain.from_iterable(zip(*streams)))
    pieces.append(closing)
    return pieces
