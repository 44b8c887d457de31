"""Renderers of epilogue store plans: the text answer and the --json document
(mode "store"). The numbers come from matrix_api.store_plan (layouts.epilogue)."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.answers import Route
    from matrix_library.epilogue import StorePlan


def _counts(route: Route) -> str:
    return ", ".join(f"{n} x {name}" for name, n in route.counts)


def _route_lines(route: Route, chosen: bool) -> list[str]:
    head = f"  {route.name}{' (chosen)' if chosen else ''}: "
    if route.refused:
        return [head + f"not possible: {route.refused}"]
    lines = [head + f"{_counts(route)}; cost {route.cost}"]
    if route.lds_bytes:
        worst = ", ".join(f"{name} {way}-way" for name, way in route.conflicts)
        lines.append(f"      LDS: {route.lds_bytes} bytes; bank conflicts (worst per access): "
                     f"{worst}")
    lines.append("      global: 128-byte segments per store instruction: "
                 + ", ".join(map(str, route.segments)))
    return lines


def text(plan: StorePlan) -> str:
    rows, cols = plan.shape
    lines = [f"Architecture: {plan.architecture}", f"Instruction: {plan.instruction}",
             f"Store: D ({rows} x {cols}, wave{plan.wave}) as {plan.store_type} into a "
             f"{plan.order}-major global tile, ld = {plan.ld}",
             "Conversion per lane: " + (", ".join(plan.pack) if plan.pack else "none"),
             "Routes (cost: a global store counts 4, an LDS access its worst conflict, an "
             "LDS round trip one wait of 3):"]
    for route in plan.routes:
        lines += _route_lines(route, route is plan.chosen)
    lines.append(f"First lanes of {plan.chosen.name} (lane: store -> byte address: elements):")
    for store in plan.chosen.stores[:8]:
        elems = " ".join(f"D[{i}][{j}]" for i, j in store.elements)
        lines.append(f"  lane {store.lane}, store {store.number}: {store.bytes} bytes at "
                     f"{store.address}: {elems}")
    return "\n".join(lines) + "\n"


def _route(route: Route) -> dict[str, object]:
    return {"name": route.name, "counts": [{"instruction": n, "count": c}
                                           for n, c in route.counts],
            "lds_bytes": route.lds_bytes,
            "conflicts": [{"instruction": n, "worst": c} for n, c in route.conflicts],
            "segments": list(route.segments), "cost": route.cost,
            "refused": route.refused or None,
            "stores": [{"lane": s.lane, "store": s.number, "address": s.address,
                        "bytes": s.bytes, "elements": [list(e) for e in s.elements]}
                       for s in route.stores]}


def document(plan: StorePlan) -> dict[str, object]:
    """The plan as the --json document (mode "store")."""
    return {"architecture": plan.architecture, "instruction": plan.instruction,
            "wave": plan.wave, "store_type": plan.store_type, "order": plan.order,
            "ld": plan.ld, "shape": list(plan.shape), "pack": list(plan.pack),
            "chosen": plan.chosen.name, "routes": [_route(r) for r in plan.routes]}
