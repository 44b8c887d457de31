"""The banks x phases picture of an LDS load plan: SVG, or an HTML page holding it with
the plan's text (formats/lds.py) and notes. It reads matrix_library.lds's answers only."""
from __future__ import annotations

from html import escape

from formats.lds import _way, text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.lds import LdsPlan

_CELL, _LEFT, _TOP = 14, 150, 40


def svg(plan: LdsPlan) -> str:
    """Banks (columns) x phases of every load (rows); a cell's shade and number give the
    distinct dwords the phase reads from the bank (white: none)."""
    rows: list[tuple[str, list[int], int]] = []
    for number, load in enumerate(plan.loads):
        for at, phase in enumerate(load.phases):
            rows.append((f"load {number} phase {at}", list(phase.banks),
                         phase.conflict))
    banks = max((len(r[1]) for r in rows), default=0)
    width, height = _LEFT + banks * _CELL + 90, _TOP + len(rows) * _CELL + 20
    worst = max(plan.worst, 1)
    title = (f"{plan.instruction} {plan.matrix}: {plan.tile.text}; model {plan.model.key}; "
             f"worst {_way(plan.worst)}")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="monospace" font-size="10">',
             f'<title>{escape(title)}</title>',
             f'<text x="4" y="14" font-size="12">{escape(title)}</text>']
    for bank in range(0, banks, 4):
        parts.append(f'<text x="{_LEFT + bank * _CELL + 2}" y="{_TOP - 6}">{bank}</text>')
    for row, (label, counts, conflict) in enumerate(rows):
        y = _TOP + row * _CELL
        parts.append(f'<text x="4" y="{y + 10}">{escape(label)}</text>')
        for bank, count in enumerate(counts):
            x = _LEFT + bank * _CELL
            shade = 255 - int(200 * count / worst) if count else 255
            fill = f"rgb(255,{shade},{shade})" if count > 1 else (
                "rgb(200,230,200)" if count else "white")
            parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                         f'fill="{fill}" stroke="#999"><title>bank {bank}: {count} '
                         f'dword(s)</title></rect>')
            if count:
                parts.append(f'<text x="{x + 3}" y="{y + 10}">{count}</text>')
        parts.append(f'<text x="{_LEFT + banks * _CELL + 6}" y="{y + 10}">'
                     f'{_way(conflict)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def html(plan: LdsPlan) -> str:
    notes = "".join(f"<li>{escape(n)}</li>" for n in plan.notes)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"{escape(plan.instruction)} {plan.matrix} LDS plan</title></head><body>\n"
            f"<pre>{escape(text(plan))}</pre>\n{svg(plan)}<ul>{notes}</ul>\n</body></html>\n")
