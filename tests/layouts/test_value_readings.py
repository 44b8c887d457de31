"""The readings of an operand's layout value (layouts/values.py): its Fragment
(layouts/fragment.py), its linear-layout bases (layouts/linear.py) and its mapping
formulas (layouts/formulas.py), for every instruction, wave size and operand, with no
modifiers and under each modifier value that moves values or selects a slice (OPSEL,
index sets, CBSZ/ABID, BLGP, scale bytes and lane halves), against the recorded
readings (tests/data/value_readings.txt: a SHA-256 per instruction and reading, of the
readings' whole text)."""
import hashlib

import pytest

from instructions import ARCHITECTURES
from layouts import CalcError, Modifiers, check_modifiers, operand
from layouts.formulas import formula_sections
from layouts.fragment import fragment
from layouts.linear import bases_of
from matrix_library.api import matrices
from tests.helpers import DATA, sampled, swept
from tests.helpers.modifier_values import moving_values

RECORD = DATA / "value_readings.txt"
READINGS = ("fragments", "linear", "formulas")


def _legal(inst, matrix, mods, wave):
    try:
        check_modifiers(inst, matrix, mods, False, wave=wave)
    except CalcError:
        return False
    return True


def readings(inst):
    """{reading: its text} of one instruction: every wave size, operand and modifier
    value, one line each."""
    texts = {name: [] for name in READINGS}
    for wave in inst.wave_sizes:
        for mods in (Modifiers(), *moving_values(inst, wave)):
            for matrix in matrices(inst):
                if not _legal(inst, matrix, mods, wave):
                    continue
                op = operand(inst, matrix, mods, wave)
                head = f"w{wave} {matrix} {tuple(mods)}"
                texts["fragments"].append(f"{head} {fragment(op)!r}")
                texts["linear"].append(f"{head} {bases_of(op)!r}")
            if all(_legal(inst, m, mods, wave) for m in matrices(inst)):
                texts["formulas"].append(f"w{wave} {tuple(mods)} "
                                         f"{formula_sections(inst, mods, (wave,))!r}")
    return {name: "\n".join(lines) for name, lines in texts.items()}


def _digest(text):
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _line(arch, inst):
    found = readings(inst)
    return f"{arch.name} {inst.mnemonic} " + " ".join(
        f"{name}={_digest(found[name])}" for name in READINGS)


def _instructions():
    return [(arch, inst) for arch in ARCHITECTURES for inst in swept(arch)]


def _recorded():
    lines = RECORD.read_text().splitlines()
    return {tuple(line.split()[:2]): line for line in lines if not line.startswith("#")}


CASES = _instructions()


@pytest.mark.parametrize("arch, inst", sampled(CASES, [f"{a.name}-{i.mnemonic}"
                                                       for a, i in CASES]))
def test_the_readings_of_each_value_are_the_recorded_ones(arch, inst):
    assert _line(arch, inst) == _recorded()[(arch.name, inst.mnemonic)]


def test_the_record_has_every_instruction_once():
    assert sorted(_recorded()) == sorted((a.name, i.mnemonic) for a, i in CASES)


if __name__ == "__main__":  # pragma: no cover (regenerates the record)
    RECORD.write_text("# python3 -m tests.layouts.test_value_readings: per instruction, "
                      "the SHA-256 (first 24 hex digits) of its Fragments, linear layouts "
                      "and formula sections, every wave size, operand and modifier value "
                      "that moves values\n"
                      + "".join(_line(arch, inst) + "\n" for arch, inst in CASES))
