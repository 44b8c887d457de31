"""Every golden record of the enabled architectures, replayed in-process.

The matching rules are those of the team's golden comparison tool (judge()), plus one rule of
our own: a failing command prints nothing on stdout, and a successful one nothing on
stderr but -d's notes on the reference's known-wrong formula lines. Enabling a further
architecture (rdna3, rdna4, ...) is a change to ENABLED_ARCHS (tests/helpers) alone.

Records whose -a names an architecture that this project adds beyond the reference
(Architecture.public is False, e.g. `-a mi355x` for CDNA4) recorded the reference's
"unknown architecture" error; they are checked separately, for the new answer.
"""
import re
import shlex

import pytest

from instructions import find_architecture
from tests.helpers import ENABLED_ARCHS, golden_records, sampled


def architecture_named(args):
    """The registered architecture the record's last -a/--architecture names, or None."""
    value = None
    for n, arg in enumerate(args):
        if arg in ("-a", "--architecture") and n + 1 < len(args):
            value = args[n + 1]
        elif arg.startswith(("--architecture=", "-a=")):
            value = arg.split("=", 1)[1]
    return None if value is None else find_architecture(value)


def beyond_reference(rec):
    arch = architecture_named(rec["args"])
    return arch is not None and not arch.public


def _params(select):
    """The selected records, one in eight of them (in the corpus's order, so every
    architecture and mode) in the quick run (`sampled`)."""
    records = golden_records()
    if records is None:
        return [pytest.param(None, id="golden-absent")]  # the test calls missing()
    chosen = [r for r in records if r["arch"] in ENABLED_ARCHS and select(r)]
    return sampled([(r,) for r in chosen], [f"{r['arch']}-{r['id']}" for r in chosen])


def notes_only(err):
    """Whether stderr holds only -d's notes on the reference's known-wrong formula lines
    (stdout keeps the reference's bytes; tests/formats/test_reference_formulas.py)."""
    return all(re.fullmatch(r"matrix_calculator\.py: note: -d's line .*", line)
               for line in err.splitlines())


def verdict(rec, rc, out, err):
    """None when (rc, out, err) is an acceptable answer to `rec`, else why not."""
    clean_error = rc != 0 and err.strip()
    if rc != 0 and out:
        return f"rc {rc} but stdout is not empty: {out[:200]!r}"
    if rc == 0 and err and not notes_only(err):
        return f"rc 0 but stderr is not empty: {err[:200]!r}"
    if rec.get("loose"):
        return None if rc == 0 and out.strip() else "expected rc 0 and some stdout"
    if rec.get("lenient") and clean_error:
        return None
    if rec.get("any"):
        clean = (rc == 0 and out.strip()) or clean_error
        return None if clean else "neither a clean success nor a clean error"
    if rec["rc"] == 0:
        if rc != 0:
            return f"expected rc 0, got {rc}: {err.strip()}"
        return None if out == rec["stdout"] else "stdout differs"
    if rc == 0:
        return f"expected a failure (reference rc {rec['rc']}), got rc 0"
    return None if err.strip() else "failed without a message on stderr"


@pytest.mark.parametrize("rec", _params(lambda r: not beyond_reference(r)))
def test_golden_record(rec, run):
    rc, out, err = run(rec["args"])
    why = verdict(rec, rc, out, err)
    if why == "stdout differs":
        assert out == rec["stdout"], shlex.join(rec["args"])
    assert why is None, f"{shlex.join(rec['args'])}: {why}"


def test_every_enabled_arch_has_records():
    """Guards the selection itself: a misspelt label would silently test nothing."""
    records = golden_records()
    labels = {r["arch"] for r in records}
    assert ENABLED_ARCHS <= labels
    selected = [r for r in records if r["arch"] in ENABLED_ARCHS]
    modes = {r["mode"] for r in selected}
    assert {"list", "detail", "get-register", "matrix-entry", "register-layout",
            "matrix-layout"} <= modes
    assert len(selected) > 3000


@pytest.mark.parametrize("rec", _params(beyond_reference))
def test_record_naming_an_architecture_beyond_the_reference(rec, run):
    """The reference rejected the name; here it selects the added architecture."""
    arch = architecture_named(rec["args"])
    assert rec["rc"] != 0 and rec["arch"] == "none"
    rc, out, err = run(rec["args"])
    assert (rc, err) == (0, "")
    assert out.startswith((f"Available instructions in the {arch.name} architecture:\n",
                           f"Architecture: {arch.name}\n"))
