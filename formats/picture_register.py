"""The register view of a layout picture (-R), laid out as cells (formats/pictures.py
draws them; formats/picture_views.py holds what both views share, and the matrix view).

The matrix as a grid, one panel per block (blocks reading identical registers, as CBSZ
broadcasts make them, share one) and per run of columns where the matrix is too wide; a
cell names its register, lane and bits; an element read from several lanes (RDNA3's
replicated A and B) is split into one stripe per copy. A picture has thousands of cells:
the cells are grouped, measured and placed in bulk (C-level maxima, one sort per panel).
"""

from __future__ import annotations

from _operator import itemgetter  # (the C module: operator itself loads more)
from itertools import chain

from instructions.record import Record

from formats import palette
from formats.picture_views import (
    FONT,
    GAP,
    MARGIN,
    MARK_ROOM,
    MAX_WIDTH,
    READABLE,
    SMALL,
    Picture,
    Shape,
    axis_names,
    chunk_of,
    fits,
    index_step,
    label_height,
    namer,
    positions,
    slot_texts,
)
from formats.svg import text_width
from matrix_library.records import Element, Entry, Location

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class Panel(Record):
    blocks: list[int]
    cells: dict[tuple[int, int], list[Entry]]  # (row, col) -> entries, copies in order


def _panels(entries: list[Entry], transpose: bool) -> list[Panel]:
    """One panel per block; consecutive blocks whose cells read the same locations
    share one (a CBSZ broadcast)."""
    by_block: dict[int, dict[tuple[int, int], list[Entry]]] = {}
    place = positions(entries[0].element.matrix)  # (row, col, block) of an element
    for entry in entries:
        row, col, block = place(entry[0])
        cells = by_block.get(block)
        if cells is None:
            cells = by_block[block] = {}
        cell = (col, row) if transpose else (row, col)
        found = cells.get(cell)
        if found is None:
            cells[cell] = [entry]
        else:
            found.append(entry)
    panels: list[Panel] = []
    for block in sorted(by_block):  # (each block's lists are its panel's own)
        cells = by_block[block]
        if panels and _same_locations(panels[-1].cells, cells):
            panels[-1].blocks.append(block)
            for key, found in cells.items():
                panels[-1].cells[key].extend(found)
        else:
            panels.append(Panel([block], cells))
    return panels


def _same_locations(first: dict[tuple[int, int], list[Entry]],
                    second: dict[tuple[int, int], list[Entry]]) -> bool:
    if first.keys() != second.keys():
        return False
    return all({e.location for e in first[key]} == {e.location for e in second[key]}
               for key in second)


def _copies(found: list[Entry]) -> list[tuple[Location, tuple[Element, ...]]]:
    """The distinct locations of one panel cell, each with the elements read there."""
    out: dict[Location, list[Element]] = {}
    for entry in found:
        out.setdefault(entry.location, []).append(entry.element)
    return [(loc, tuple(elems)) for loc, elems in out.items()]


def register_labels(loc: Location) -> tuple[list[list[str]], tuple[str, str, str]]:
    """(the label variants of a register-view cell, richest first; the location's text
    (marked), VGPRs and bits): every variant names the register and the lane, and the
    bits where the register holds more than one value."""
    return _labelled(_PIECES.get(loc[:2] + loc[3:]) or _pieces(loc), loc[2])


def _labelled(pieces: tuple[str, str, str, str, str, str, str, str],
              lane_: int) -> tuple[list[list[str]], tuple[str, str, str]]:
    """register_labels() of lane `lane_` of a slot of `pieces` (_pieces())."""
    head, tail, reg_head, after, bits_only, shown_reg, reg, bits = pieces
    lane = f"{{{lane_}}}"
    full = head + lane + tail
    if not bits_only:  # no bit range: the whole register (or pair)
        return [[full], [shown_reg, lane]], (full, reg, bits)
    return [[full], [reg_head + lane + after, bits_only], [shown_reg, lane, bits_only]], \
        (full, reg, bits)


# A slot's label pieces (a picture has a few slots in many lanes): before and after the
# lane (the marked text), the marked VGPRs before the lane and what follows, the bits
# suffix alone, the VGPRs marked, the VGPRs, the bits
_PIECES: dict[tuple[object, ...], tuple[str, str, str, str, str, str, str, str]] = {}


def _pieces(loc: Location) -> tuple[str, str, str, str, str, str, str, str]:
    before, after, name, suffix, reg, shown_reg, bits = slot_texts(loc)
    found = _PIECES[loc[:2] + loc[3:]] = (before + name, suffix + after, before + reg, after,
                                          suffix[1:], shown_reg, reg, bits)
    return found


def _cell_size(labels: list[list[list[str]]], cols: int, copies: int,
               is_marked: bool) -> tuple[float, float]:
    """(width, height) of a register-view cell: the richest labels at FONT where the
    picture stays within MAX_WIDTH, never less than the last variant at READABLE."""
    room = MARK_ROOM / 2 * is_marked
    preferred = list(map(itemgetter(1), labels))
    last = list(map(itemgetter(-1), labels))
    # (fits of the longest line: a label's width grows with its longest line)
    widest = fits(["x" * max(map(len, chain.from_iterable(preferred)))], FONT, room)[0]
    longest = max(map(len, chain.from_iterable(last)))
    if min(map(len, last)) == max(map(len, last)):
        least_lines = len(last[0])
    else:  # (the most lines among the labels with the longest line)
        least_lines = max(len(v) for v in last if max(map(len, v)) == longest)
    least = fits(["x" * longest], READABLE, room)[0]
    cell_w = max(least, min(widest, MAX_WIDTH / cols))
    lines = max(map(len, preferred)) if cell_w >= widest else least_lines
    return cell_w, max(label_height(lines, FONT), label_height(least_lines, READABLE)) * copies


def _panel_title(panel: Panel, single: bool, chunk: int, cols: int, start: int, end: int,
                 axis: str) -> str:
    blocks = panel.blocks
    name = "" if single else (f"Block {blocks[0]}" if len(blocks) == 1 else
                              "Blocks " + ", ".join(map(str, blocks)))
    if chunk < cols:
        name += (", " if name else "") + f"{axis} {start}-{end - 1}"
    return name


def _readers(entries: list[Entry]) -> dict[Location, int]:
    """How many entries read each location (a location hashes slowly: counted only where
    one repeats)."""
    locations = list(map(itemgetter(1), entries))
    shared = dict.fromkeys(locations, 1)
    if len(shared) < len(locations):
        shared = dict.fromkeys(shared, 0)
        for loc in locations:
            shared[loc] += 1
    return shared


def register_view(pic: Picture, matrix: str, blocks: int, entries: list[Entry],
                  transpose: bool, top: float) -> None:
    """The register view of `entries` (every element of `matrix` of an instruction of
    `blocks` blocks, and each location it is read from), as pic's shapes and frames."""
    panels = _panels(entries, transpose)
    rows = 1 + max(max(map(itemgetter(0), p.cells)) for p in panels)
    cols = 1 + max(max(map(itemgetter(1), p.cells)) for p in panels)
    copies = 1
    if max(max(map(len, p.cells.values())) for p in panels) > 1:  # (a cell of several)
        copies = max(len(found) > 1 and len(_copies(found)) for p in panels
                     for found in p.cells.values()) or 1
    shared = _readers(entries)
    is_marked = max(shared.values()) > 1 or max(map(len, map(itemgetter(1), shared))) > 1
    labels = dict(zip(shared, map(register_labels, shared)))
    cell_w, cell_h = _cell_size(list(map(itemgetter(0), labels.values())), cols, copies,
                                is_marked)
    first, second = axis_names(matrix)
    if transpose:
        first, second = second, first
    chunk = chunk_of(cols, cell_w)
    head_w = text_width(str(rows - 1), SMALL) + 10
    drawn = [(at, panel, start) for at, panel in enumerate(panels)
             for start in range(0, cols, chunk)]
    title_h = 18.0 if len(drawn) > 1 else 0.0
    panel_w = head_w + min(chunk, cols) * cell_w
    panel_h = title_h + 16 + rows * cell_h
    pic.grouped = any(len(panel.blocks) > 1 for panel in panels)
    per_row = max(1, min(len(drawn), int((MAX_WIDTH + GAP) // (panel_w + GAP))))
    canvas, name = pic.canvas, namer(matrix, blocks)
    runs = _runs(panels, chunk, -(-cols // chunk))
    for number_, (at, panel, start) in enumerate(drawn):
        end = min(cols, start + chunk)
        px = MARGIN + (number_ % per_row) * (panel_w + GAP)
        py = top + (number_ // per_row) * (panel_h + GAP)
        if title_h:
            canvas.text(px, py + 8, _panel_title(panel, len(panels) == 1, chunk, cols, start,
                                                 end, second),
                        SMALL + 2, palette.INK, "start", {"font-weight": "bold"})
        gx, gy = px + head_w, py + title_h + 16
        canvas.text(px + head_w / 2, gy - 8, f"{first}\\{second}", SMALL, palette.INK)
        for col in range(start, end, index_step(end - start, cell_w, SMALL)):
            canvas.text(gx + (col - start + 0.5) * cell_w, gy - 8, str(col), SMALL, palette.INK)
        for row in range(0, rows, index_step(rows, cell_h * 2.5, SMALL)):
            canvas.text(gx - 4, gy + (row + 0.5) * cell_h, str(row), SMALL, palette.INK, "end")
        _panel_cells(pic, runs[at][start // chunk], labels, shared, name,
                     (gx, gy, cell_w, cell_h), start)
        canvas.rect(gx, gy, (end - start) * cell_w, rows * cell_h, "none",
                    {"stroke": palette.INK, "stroke-width": 1.2})
    count = len(drawn)
    pic.width = max(pic.width, 2 * MARGIN + min(count, per_row) * (panel_w + GAP) - GAP)
    pic.height = top + -(-count // per_row) * (panel_h + GAP) - GAP


def _runs(panels: list[Panel], chunk: int, count: int
          ) -> list[list[list[tuple[tuple[int, int], list[Entry]]]]]:
    """Each panel's cells in (row, col) order, per run of `chunk` columns (`count` runs)."""
    runs = []
    for panel in panels:
        items = sorted(panel.cells.items())
        if count == 1:
            runs.append([items])
            continue
        buckets: list[list[tuple[tuple[int, int], list[Entry]]]] = [[] for _ in range(count)]
        for item in items:
            buckets[item[0][1] // chunk].append(item)
        runs.append(buckets)
    return runs


def _panel_cells(pic: Picture, cells: list[tuple[tuple[int, int], list[Entry]]],
                 labels: dict[Location, tuple[list[list[str]], tuple[str, str, str]]],
                 shared: dict[Location, int], name: Callable[[Element], str],
                 grid: tuple[float, float, float, float], start: int) -> None:
    """The shapes of the cells of a panel's run of columns from `start`, in (row, col)
    order (a cell split into one stripe per copy of its element); `name`: an element's."""
    gx, gy, cell_w, cell_h = grid
    shapes, new = pic.shapes, tuple.__new__  # (Shape's fields in order: thousands of cells)
    for (row, col), found in cells:
        x = gx + (col - start) * cell_w
        if len(found) == 1:  # (one entry: one shape, the whole cell)
            elem, loc = found[0]
            variants, (text, reg, bits) = labels[loc]
            shapes.append(new(Shape, (x, gy + row * cell_h, cell_w, cell_h, loc, (elem,),
                                      variants, shared[loc] > 1, (name(elem), text, reg, bits))))
            continue
        held = _copies(found)
        height = cell_h / len(held)
        for at, (loc, elems) in enumerate(held):
            variants, (text, reg, bits) = labels[loc]
            shapes.append(Shape(x, gy + row * cell_h + at * height, cell_w, height, loc, elems,
                                variants, shared[loc] > len(elems),
                                (" ".join(map(name, elems)), text, reg, bits)))
        if len(held) > 1:
            pic.frames.append((x, gy + row * cell_h, cell_w, cell_h))
