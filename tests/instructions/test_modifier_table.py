"""The modifier table (instructions/modifiers.py): each modifier once, every name the
library and the instruction tables use, spellings that do not collide."""
import pytest

from instructions import ARCHITECTURES
from instructions import FAMILIES as NAMED
from instructions.modifiers import GROUPS, MODIFIERS, NAMES, modifier
from layouts.family import FAMILIES, TRAITS, module_hooks
from layouts.modifiers import Modifiers

MATRICES = ("A", "B", "C", "D", "K", "SA", "SB")


def test_each_modifier_once_in_the_order_of_the_modifiers_record():
    assert len(set(NAMES)) == len(NAMES)
    assert NAMES == Modifiers._fields


def test_spellings_are_unique_options():
    spellings = [s for spec in MODIFIERS for s in spec.options]
    assert len(spellings) == len(set(spellings))
    assert all(s.startswith("--") for s in spellings)
    for spec in MODIFIERS:
        assert spec.option.replace("-", "_").strip("_") == spec.name


@pytest.mark.parametrize("spec", MODIFIERS, ids=NAMES)
def test_spec_is_complete(spec):
    assert spec.llvm and spec.help and spec.group in GROUPS
    assert spec.matrices and set(spec.matrices) <= set(MATRICES)
    assert spec.top or spec.range, "a fixed range or a range function"
    assert not spec.names or spec.top == len(spec.names) - 1
    assert not spec.mask or len(spec.matrices) == spec.top.bit_length()
    assert modifier(spec.name) is spec


def test_every_declared_modifier_is_in_the_table():
    declared = {m for arch in ARCHITECTURES for inst in arch.instructions for m in inst.modifiers}
    assert declared <= set(NAMES)
    assert modifier("neg_hi").options == ("--neg_hi", "--neg-hi")
    with pytest.raises(KeyError):
        modifier("nope")


def test_value_text_names_codes():
    assert modifier("matrix_a_fmt").value_text(4) == "fp4 (4)"
    assert modifier("cbsz").value_text(4) == "4"


def test_every_family_has_one_registry_line():
    assert set(NAMED) == set(FAMILIES) and len(NAMED) >= 4
    ranges = {spec.range for spec in MODIFIERS}
    for name, family in FAMILIES.items():
        hooks = module_hooks(family.module)  # the family module the line names
        assert family.name == name and callable(hooks.layout)
        assert set(family.traits) <= set(TRAITS)
        for hook in (hooks.mark, hooks.half_mark, hooks.facts, *hooks.ranges.values()):
            assert hook is None or callable(hook)
        assert set(hooks.ranges) <= ranges, name  # range names of the modifier table
