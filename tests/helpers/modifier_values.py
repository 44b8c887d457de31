"""The modifier values that move an operand's values, for the tests that sweep them
(tests/layouts/test_algebra.py, tests/layouts/test_value_readings.py)."""
from instructions.modifiers import MODIFIERS
from layouts import Modifiers
from layouts.legality import rule


def moving_values(inst, wave):
    """Every legal value of each modifier of `inst` that moves values (the modifier
    table's `shapes`), one at a time, and CBSZ with each ABID it allows."""
    none = Modifiers()
    abid = next(spec for spec in MODIFIERS if spec.name == "abid")
    for spec in MODIFIERS:
        found = rule(spec, inst, none, wave)
        if found is None or not spec.shapes:
            continue
        for v in range(1, found.top + 1):
            mods = none._replace(**{spec.name: v})
            yield mods
            group = rule(abid, inst, mods, wave) if spec.name == "cbsz" else None
            yield from (mods._replace(abid=a) for a in range(1, group.top + 1)) if group else ()
