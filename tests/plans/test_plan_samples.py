"""The planners answer what their record says: a sample of conversion plans (with their
advice), LDS plans and LDS searches, recorded move for move and slot for slot as digests
of the whole answer in tests/data/plan_samples.txt by scripts/record_plan_samples.py
(which says what a digest covers), compared here with what the planners answer."""
import sys

import pytest

from tests.helpers import REPO, data_text, sampled

sys.path.insert(0, str(REPO / "scripts"))
import record_plan_samples as samples

ROWS = [line.split("\t") for line in data_text("plan_samples.txt").splitlines()
        if line and not line.startswith("#")]


def test_the_sample_covers_every_architecture_and_kind():
    kinds = {(row[0], row[1]) for row in ROWS}
    archs = {row[1] for row in ROWS}
    assert len(archs) == 8
    assert {(kind, arch) for kind in ("convert", "lds", "search") for arch in archs} <= kinds


@pytest.mark.parametrize("row", sampled([(r,) for r in ROWS],
                                        ["-".join(r[:-2]).replace(" ", "") for r in ROWS]))
def test_the_answer_is_the_recorded_one(row):
    *case, summary, digest = row
    assert samples.answer(tuple(case)) == (summary, digest)
