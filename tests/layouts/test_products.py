"""The product check of the gfx1250 / gfx1251 layouts (scripts/check_products.py):
values placed where the layout engine says, an executable model run on the registers, D
read back where the engine says D lives, compared with C + A*B.

Recorded: rocjitsu's answers (tests/data/gfx1250_products_rocjitsu.txt.gz, AMD's executable
model at the commit its header names) for inputs placed three ways: by the calculator, by
the alternatives `-d` names for rocjitsu, and by composable_kernel's reading. Live: the
independent host model (scripts/product_model.py) on a sample of every instruction and
modifier set. docs/gfx1250.md says what the results decide.
"""
from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import check_products as cp

RECORD = REPO / "tests" / "data" / "gfx1250_products_rocjitsu.txt.gz"
MIXED = ("matrix_a_fmt=0,matrix_b_fmt=2", "matrix_a_fmt=2,matrix_b_fmt=0")


def dissent(name: str) -> bool:
    """The cases where rocjitsu reads other products than the calculator (the contested
    layouts of docs/gfx1250.md): every SWMMAC, and the unscaled f8f6f4 pairs of one 8-bit
    and one sub-byte format."""
    if "swmmac" in name:
        return True
    if "_f8f6f4[" not in name or "scale" in name:
        return False
    formats = dict(part.split("=") for part in name.split("[")[1].rstrip("]").split(","))
    return (int(formats["matrix_a_fmt"]) < 2) != (int(formats["matrix_b_fmt"]) < 2)


@cache
def replayed() -> list[tuple[str, str, str, int]]:
    return cp.replay_record(str(RECORD))


def test_the_record_names_its_model_and_commit() -> None:
    import gzip
    with gzip.open(RECORD, "rt") as stream:
        head = stream.readline()
    assert "rocjitsu" in head and "2aac5a1a761721cba813c7d3ddc2076fa2b5fc36" in head


@pytest.mark.slow
def test_recorded_inputs_are_the_current_layouts() -> None:
    """Each recorded case rebuilt from today's layouts gives the registers rocjitsu was
    given (else re-record: the command is in the record's header)."""
    changed = [name for name, layouts, what, _ in replayed() if what]
    assert not changed, changed[:3]
    assert {layouts for _, layouts, _, _ in replayed()} == {"calculator", "rocjitsu", "ck"}


@pytest.mark.slow
def test_rocjitsu_agrees_where_the_docs_say_and_only_there() -> None:
    """Placed by the calculator: rocjitsu's D is C + A*B for every dense, f64, 32x16 f4 and
    equal-width f8f6f4 case, and is not for the contested ones (every SWMMAC, the mixed
    pairs): the dissent -d and docs/gfx1250.md show."""
    rows = [(name, bad) for name, layouts, _, bad in replayed() if layouts == "calculator"]
    assert len(rows) == 78
    assert [name for name, bad in rows if bool(bad) != dissent(name)] == []
    assert sum(dissent(name) for name, _ in rows) == 40  # 14 SWMMACs x 2 keys + 12 pairs


@pytest.mark.slow
def test_rocjitsu_agrees_with_its_alternatives() -> None:
    """Placed by the alternatives `-d` names for rocjitsu (layouts/gfx1250.py
    alternative_layouts: its A' and B for a SWMMAC with the calculator's index, its
    sub-byte order for a mixed pair) and D by the calculator: every product right,
    including v_swmmac_bf16f32's bf16 D."""
    rows = [(name, bad) for name, layouts, _, bad in replayed() if layouts == "rocjitsu"]
    assert len(rows) == 40 and all(dissent(name) for name, _ in rows)
    assert [name for name, bad in rows if bad] == []


def test_composable_kernels_reading_is_the_calculators() -> None:
    """composable_kernel's A, index and B (check_products.CkPlaces): rocjitsu dissents
    exactly where it does from the calculator; the host model agrees everywhere."""
    rows = [(name, bad) for name, layouts, _, bad in replayed() if layouts == "ck"]
    assert len(rows) == 39
    assert [name for name, bad in rows if bool(bad) != dissent(name)] == []
    picks = [case for case in cp.cases(names="v_swmmac_f16_16x16x64_f16,"
                                              "v_wmma_f32_16x16x128_f8f6f4")
             if not case[2].get("index_key")
             and ("swmmac" in case[0] or case[0].split("[")[1].rstrip("]") in MIXED)]
    assert len(picks) == 3
    for name, inst, mods in picks:
        built = cp.build(name, inst, mods, random.Random(name), "ck")
        assert cp.compare(built, cp.host(built)) == [], name


def _sample() -> list[tuple[str, Any, dict[str, int]]]:
    """One modifier set of every instruction, index_key 1 of two SWMMACs, the second scale
    lanes, and the mixed f8f6f4 pairs (fp8 with fp6, fp4 with bf8 and the reverse)."""
    out, seen = [], set()
    for name, inst, mods in cp.cases():
        first = inst.mnemonic not in seen
        seen.add(inst.mnemonic)
        extra = (mods.get("index_key") and inst.mnemonic in ("v_swmmac_f32_16x16x64_f16",
                                                             "v_swmmac_i32_16x16x128_iu8")) \
            or (mods.get("matrix_a_scale") and not inst.format_fields) \
            or (inst.format_fields and not inst.scale_k and name.split("[")[-1].rstrip("]")
                in MIXED + ("matrix_a_fmt=4,matrix_b_fmt=1", "matrix_a_fmt=1,matrix_b_fmt=4"))
        if first or extra:
            out.append((name, inst, mods))
    return out


@pytest.mark.parametrize("name, inst, mods", _sample(), ids=[n for n, _, _ in _sample()])
def test_host_model_agrees_live(name: str, inst: Any, mods: dict[str, int]) -> None:
    built = cp.build(name, inst, mods, random.Random(f"29:{name}:calculator"))
    assert cp.compare(built, cp.host(built)) == []


def test_the_check_sees_a_wrong_pairing() -> None:
    """The same check fails when A, B and the index are placed by another source's
    triple (rocjitsu's) and run on the host model: it can tell products apart."""
    name, inst, mods = next(c for c in cp.cases(names="v_swmmac_f32_16x16x64_bf16"))
    built = cp.build(name, inst, mods, random.Random(1), "rocjitsu")
    assert len(cp.compare(built, cp.host(built))) > 200


def test_every_instruction_is_a_case() -> None:
    names = {name.split(":")[1].split("[")[0] for name, _, _ in cp.cases()}
    from matrix_library import api as mc
    for arch in ("gfx1250", "gfx1251"):
        assert {i.mnemonic for i in mc.instructions(mc.find_architecture(arch))} <= names
