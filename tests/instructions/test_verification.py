"""Every instruction's verification record (what its layouts
and facts were checked against) in -d, --json and the catalog, and docs/verification.md
generated from the same data."""
import json
import re
from pathlib import Path

import pytest

from instructions import verification
from instructions.verification_checks import alternatives_of, checks_of, rows
from matrix_library import api as mc

REPO = Path(__file__).resolve().parents[2]
RECORDED = sorted({row.split("\t")[1] for row in rows()})  # every architecture in the record
CHECKS = {arch: checks_of(arch) for arch in RECORDED}
ALTERNATIVES = {arch: alternatives_of(arch) for arch in RECORDED}


def test_every_instruction_has_a_record_and_nothing_else_does():
    names = {(a.name, i.mnemonic) for a in mc.architectures() if a.vendor == "amd"
             for i in a.instructions}
    recorded = {(a, m) for a, table in CHECKS.items() for m in table}
    assert recorded == names
    for arch, table in ALTERNATIVES.items():
        assert set(table) <= {m for a, m in names if a == arch}
    for table in CHECKS.values():
        for checks in table.values():
            keys = [key for key, _ in checks]
            assert keys == [k for k in verification.SOURCE_KEYS if k in keys]  # in order
            assert "hardware" not in keys  # no run recorded yet: "none yet" is added


def test_the_record_says_what_was_run():
    """Facts the record rests on: the probe passed every variant of every instruction it
    ran (emulation), LLVM's builtin compiles every instruction --emit hip writes, the
    reference's outputs exist only for its architectures."""
    for arch in mc.architectures():
        for inst in arch.instructions:
            found = dict(verification.checks(arch.name, inst.mnemonic))
            assert found["hardware"] == "none yet"
            for run in found.get("emulation", "").split("; ") if "emulation" in found else ():
                passed, total = re.fullmatch(r"wave\d+: (\d+) of (\d+) variants pass",
                                             run).groups()
                assert passed == total and int(total) >= 1
            if "reference" in found:
                assert arch.public
    gfx942 = {i.mnemonic: dict(verification.checks("CDNA3", i.mnemonic))
              for i in mc.find_architecture("gfx942").instructions}
    assert all("emulation" in c and "llvm" in c for c in gfx942.values())
    sparse = dict(verification.checks("GFX1250", "v_swmmac_f32_16x16x64_f16"))
    assert "composable_kernel" in sparse and "rocjitsu" in sparse
    assert verification.disagreements("GFX1250", "v_swmmac_f32_16x16x64_f16")


def test_detail_shows_the_record(run):
    """-d --verification adds it to -d's text, which without the option stays as it was
    (byte-compatible with AMD's calculator on its architectures)."""
    status, out, err = run(["-a", "gfx1250", "-i", "v_swmmac_f32_16x16x64_f16", "-d",
                            "--verification"])
    assert status == 0 and "    Verified against:\n" in out
    assert "        a run on the GPU: none yet\n" in out and "Where sources disagree:" in out
    status, plain, _ = run(["-a", "gfx942", "-i", "v_mfma_f32_16x16x16_f16", "-d"])
    assert status == 0 and "Verified against" not in plain
    status, more, _ = run(["-a", "gfx942", "-i", "v_mfma_f32_16x16x16_f16", "-d",
                           "--verification"])
    assert more.startswith(plain) and "        LLVM 22: clang-22 compiles" in more[len(plain):]


def test_json_and_catalog_carry_it(run):
    status, out, _ = run(["-a", "gfx942", "-i", "v_mfma_f32_16x16x16_f16", "-d", "--json"])
    record = json.loads(out)["facts"]["verification"]
    assert [c["source"] for c in record["checks"]][-1] == "hardware"
    assert record["report"] == verification.REPORT
    status, out, _ = run(["--catalog", "--filter", "checked=reference", "--json"])
    rows = json.loads(out)["instructions"] if out.lstrip().startswith("{") else json.loads(out)
    archs = {row["architecture"] for row in rows}
    assert status == 0 and archs and all(mc.find_architecture(a).public for a in archs)
    status, out, err = run(["--catalog", "--filter", "checked=hardware"])
    assert status == 2 and "no instruction has checked=hardware" in err
    status, out, err = run(["--catalog", "--filter", "checked=gpu"])
    assert status == 2 and "checked= takes a source: reference, llvm" in err
    llvm = mc.catalog({"checked": "llvm"})
    assert len(llvm) == len([1 for table in CHECKS.values() for checks in table.values()
                             if "llvm" in dict(checks)])


def test_the_document_is_generated_from_the_record():
    from formats.verification import document
    text = (REPO / "docs" / "verification.md").read_text()
    assert text == document()
    assert "## Run the probe on your GPU" in text and "--emit probe" in text
    rows = [line for line in text.splitlines() if line.startswith("| CDNA") or
            line.startswith("| RDNA") or line.startswith("| GFX")]
    assert len(rows) == sum(len(a.instructions) for a in mc.architectures() if a.vendor == "amd")


@pytest.mark.slow
def test_the_record_is_what_the_recorded_data_gives_now():
    """instructions/verification_checks.tsv equals what scripts/record_verification.py
    writes from tests/data today (the emulation's results taken as recorded: rerunning
    it is the script's job), so a new source row or golden record cannot leave it stale."""
    import sys
    sys.path.insert(0, str(REPO / "scripts"))
    import record_verification
    recorded = (REPO / "instructions" / "verification_checks.tsv").read_text(encoding="utf-8")
    assert record_verification.record(["(none: keep the recorded emulation)"]) == recorded
