"""The layout-family registry's hooks (layouts/family.py): one typed function each, which
imports the module that does the work on its first call, so that a point query loads
only its own family's modules, and a reader or a type checker follows each registry line
to the code it names.

A new family's generator brings its own hooks the same way: a function that imports its
module and calls it (or the module's function itself, where loading it always is cheap).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from instructions.model import Instruction
    from instructions.modifiers import ModifierSpec, Rule

    from layouts.core import Layout, Place
    from layouts.family import FamilyFacts
    from layouts.formulas import Section
    from layouts.modifiers import Modifiers


# ---- generators: (inst, matrix, wave, mods) -> Layout

def cdna_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from layouts.cdna import family_layout
    return family_layout(inst, matrix, wave, mods)


def rdna3_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from layouts.rdna import rdna3_layout as made
    return made(inst, matrix, wave, mods)


def rdna4_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from layouts.rdna import rdna4_layout as made
    return made(inst, matrix, wave, mods)


def gfx1250_layout(inst: Instruction, matrix: str, wave: int, mods: Modifiers) -> Layout:
    from layouts.gfx1250 import family_layout
    return family_layout(inst, matrix, wave, mods)


# ---- the formula derivation every family uses

def derive(layout_of: Callable[[str, int], Layout], matrices: Sequence[str],
           waves: Sequence[int], sparse: bool) -> dict[int, Section]:
    from layouts.formulas import derive as derived
    return derived(layout_of, matrices, waves, sparse)


# ---- marks: (inst, matrix, mods) -> mark of a whole operand; half marks add the place

def blgp_mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    from layouts.modifiers import blgp_mark as mark
    return mark(inst, matrix, mods)


def rdna_c_mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    from layouts.modifiers import rdna_c_mark as mark
    return mark(inst, matrix, mods)


def rdna_half_mark(inst: Instruction, matrix: str, mods: Modifiers, place: Place) -> str:
    from layouts.modifiers import rdna_half_mark as mark
    return mark(inst, matrix, mods, place)


def gfx1250_mark(inst: Instruction, matrix: str, mods: Modifiers) -> str:
    from layouts.gfx1250 import mark
    return mark(inst, matrix, mods)


def gfx1250_half_mark(inst: Instruction, matrix: str, mods: Modifiers, place: Place) -> str:
    from layouts.gfx1250 import half_mark
    return half_mark(inst, matrix, mods, place)


# ---- modifier ranges a family defines for itself (instructions/modifiers.py range names)

def cd_half_opsel(spec: ModifierSpec, inst: Instruction, mods: Modifiers,
                  wave: int) -> Rule | None:
    from layouts.ranges import cd_half_opsel as rule
    return rule(spec, inst, mods, wave)


def index_set_opsel(spec: ModifierSpec, inst: Instruction, mods: Modifiers,
                    wave: int) -> Rule | None:
    from layouts.ranges import index_set_opsel as rule
    return rule(spec, inst, mods, wave)


def llvm_neg(spec: ModifierSpec, inst: Instruction, mods: Modifiers,
             wave: int) -> Rule | None:
    from layouts.ranges import llvm_neg as rule
    return rule(spec, inst, mods, wave)


# ---- facts a family adds to matrix_api.facts

def gfx1250_facts(inst: Instruction) -> FamilyFacts:
    from layouts.gfx1250_facts import facts
    return facts(inst)
