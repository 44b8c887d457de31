"""Bad command lines end the same way whatever is wrong with them: exit status 2, exactly
one line on stderr that names the bad value and says what is allowed, nothing on stdout,
and no exception out of main(). Good command lines print something and nothing on stderr
(but -d's notes on the reference's known-wrong formula lines).

The table covers every class of bad input once; the property test draws whole argument
vectors, good and bad, from the option grammar; the golden corpus adds every error the
reference tool reports.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import matrix_calculator
from instructions import ARCHITECTURES
from matrix_frontends.cli import respond as cli_respond
from tests.helpers import call, golden_records

ROOT = Path(__file__).resolve().parents[2]




def assert_clean_error(status, out, err):
    assert status == 2, (status, out, err)
    assert out == "", out
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert "Traceback" not in err


def assert_clean_success(status, out, err):
    assert status == 0, (status, err)
    assert out, "no output"
    # (only -d's notes on the reference's known-wrong formula lines, one line each)
    assert all(line.startswith("matrix_calculator.py: note: -d's line ")
               for line in err.splitlines()), err


DENSE = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]       # 1 block, no CBSZ/BLGP
MULTI = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x4_2b_f16"]    # 2 blocks, CBSZ/ABID, BLGP
SPARSE = ["-a", "cdna3", "-i", "v_smfmac_f32_16x16x32_f16"]
OLD = ["-a", "cdna1", "-i", "v_mfma_f32_32x32x2f32"]          # BLGP
RDNA3 = ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16"]      # NEG/NEG_HI, no OPSEL
RDNA3_F16 = ["-a", "rdna3", "-i", "v_wmma_f16_16x16x16_f16"]  # OPSEL on C/D

# (id, argv, texts the message must contain: the bad value first, then what is allowed)
BAD = [
    # architecture and instruction
    ("arch-unknown", ["-a", "rdna9", "-L"], ["rdna9", "cdna3"]),
    ("arch-empty", ["-a", "", "-L"], ["''", "cdna3"]),
    ("arch-spaces", ["-a", " cdna3", "-L"], ["' cdna3'", "cdna3"]),
    ("arch-missing", ["-L"], ["-a", "cdna3"]),
    ("arch-no-value", ["-a"], ["-a", "cdna3"]),
    ("arch-no-value-before-option", ["-a", "-L"], ["-a", "cdna3"]),
    ("inst-unknown", ["-a", "cdna3", "-i", "v_mfma_bogus", "-g", "-A"], ["v_mfma_bogus", "-L"]),
    ("inst-other-arch", ["-a", "cdna1", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"],
     ["v_mfma_f32_32x32x8_f16", "-L"]),
    ("inst-empty", ["-a", "cdna3", "-i", "", "-g", "-A"], ["''", "-L"]),
    ("inst-missing", ["-a", "cdna3", "-g", "-A"], ["-i", "-L"]),
    ("inst-no-value", ["-a", "cdna3", "-g", "-A", "-i"], ["-i", "-L"]),
    # query mode, matrix, -o, output format
    ("mode-none", DENSE + ["-A"], ["none", "-g", "-m", "-R", "-M"]),
    ("mode-several", DENSE + ["-g", "-M", "-A"], ["-g and -M", "-R"]),
    ("matrix-none", DENSE + ["-g"], ["none", "-A", "-D", "-k"]),
    ("matrix-several", DENSE + ["-R", "-A", "-B"], ["-A and -B", "-C"]),
    ("output-without-D", DENSE + ["-g", "-B", "-o"], ["-B", "-D"]),
    ("formats-several", DENSE + ["-R", "-A", "--csv", "--markdown"],
     ["--csv", "--markdown", "--asciidoc"]),
    ("formats-several-point", DENSE + ["-g", "-A", "-c", "--asciidoc"], ["--csv", "--asciidoc"]),
    ("sparse-has-no-C", SPARSE + ["-g", "-C"], ["C", "-k"]),
    ("dense-has-no-K", DENSE + ["-g", "-k"], ["-k", "A, B, C or D"]),
    # numbers that are not whole numbers written in digits
    ("int-letters", DENSE + ["-g", "-A", "-I", "x"], ["'x'", "-I", "whole number"]),
    ("int-fraction", DENSE + ["-g", "-A", "-J", "1.5"], ["'1.5'", "-J", "whole number"]),
    ("int-negative", DENSE + ["-g", "-A", "-K", "-1"], ["'-1'", "-K", "whole number"]),
    ("int-plus", DENSE + ["-g", "-A", "-b", "+1"], ["'+1'", "-b", "whole number"]),
    ("int-leading-space", DENSE + ["-m", "-A", "-r", " 1"], ["' 1'", "-r", "whole number"]),
    ("int-trailing-space", DENSE + ["-m", "-A", "-l", "1 "], ["'1 '", "-l", "whole number"]),
    ("int-inner-space", DENSE + ["-m", "-A", "-l", "1 2"], ["'1 2'", "-l", "whole number"]),
    ("int-empty", MULTI + ["-g", "-A", "--cbsz", ""], ["''", "--cbsz", "whole number"]),
    ("int-hex", MULTI + ["-g", "-A", "--abid", "0x1"], ["'0x1'", "--abid", "whole number"]),
    ("int-exponent", MULTI + ["-g", "-B", "--blgp", "1e2"], ["'1e2'", "--blgp", "whole number"]),
    ("int-superscript", DENSE + ["-g", "-A", "-I", "\u00b2"], ["\u00b2", "-I", "whole number"]),
    ("int-huge-digits", DENSE + ["-g", "-A", "-I", "9" * 5000], ["9999", "-I", "whole number"]),
    ("int-no-value", DENSE + ["-g", "-A", "-I"], ["-I", "whole number"]),
    ("int-no-value-before-option", DENSE + ["-m", "-r", "-A"], ["-r", "whole number"]),
    ("int-unused-still-checked", DENSE + ["-g", "-A", "-r", "x"], ["'x'", "-r"]),
    # coordinates, blocks, registers and lanes out of range for the instruction
    ("i-out-of-range", DENSE + ["-g", "-A", "-I", "32"], ["32", "0 to 31"]),
    ("j-out-of-range", DENSE + ["-g", "-B", "-J", "32"], ["32", "0 to 31"]),
    ("k-out-of-range", DENSE + ["-g", "-A", "-K", "8"], ["8", "0 to 7"]),
    ("k-checked-for-C", DENSE + ["-g", "-C", "-K", "8"], ["8", "0 to 7"]),
    ("block-out-of-range", MULTI + ["-g", "-A", "-b", "2"], ["2", "0 to 1"]),
    ("coordinate-huge", DENSE + ["-g", "-A", "-I", "9" * 30], ["9" * 30, "0 to 31"]),
    ("register-out-of-range", DENSE + ["-m", "-A", "-r", "2"], ["2", "0 to 1"]),
    ("register-out-of-range-D", DENSE + ["-m", "-D", "-r", "16"], ["16", "0 to 15"]),
    ("lane-out-of-range", DENSE + ["-m", "-A", "-l", "64"], ["64", "0 to 63"]),
    ("lane-huge", DENSE + ["-m", "-A", "-l", "9" * 25], ["9" * 25, "0 to 63"]),
    # modifiers: out of range, not supported by the instruction, not for this matrix
    ("cbsz-out-of-range", MULTI + ["-g", "-A", "--cbsz", "2"], ["2", "0 to 1"]),
    ("abid-out-of-range", MULTI + ["-g", "-A", "--cbsz", "1", "--abid", "2"], ["2", "0 to 1"]),
    ("abid-without-cbsz", MULTI + ["-g", "-A", "--abid", "1"],
     ["1", "use 0 (the only value here)"]),
    ("blgp-out-of-range", OLD + ["-g", "-B", "--blgp", "8"], ["8", "0 to 7"]),
    ("cbsz-unsupported", DENSE + ["-g", "-A", "--cbsz", "1"], ["CBSZ", "only 0"]),
    ("blgp-unsupported", DENSE + ["-g", "-B", "--blgp", "1"], ["BLGP", "only 0"]),
    ("cbsz-wrong-matrix", MULTI + ["-g", "-B", "--cbsz", "1"], ["CBSZ", "B", "A matrix"]),
    ("blgp-wrong-matrix", OLD + ["-g", "-A", "--blgp", "1"], ["BLGP", "A", "B matrix"]),
    ("opsel-on-cdna", DENSE + ["-g", "-A", "--opsel", "1"], ["OPSEL", "1"]),
    ("neg-on-cdna", DENSE + ["-g", "-A", "--neg", "1"], ["NEG", "1"]),
    ("neg-hi-on-cdna", DENSE + ["-g", "-A", "--neg_hi", "2"], ["NEG_HI", "2"]),
    ("blgp-unread-lane", MULTI + ["-m", "-B", "--blgp", "1", "-l", "40"], ["40", "0 to 31"]),
    ("opsel-unsupported-rdna", RDNA3 + ["-g", "-C", "--opsel", "4"], ["OPSEL", "only 0"]),
    ("opsel-out-of-range-rdna", RDNA3_F16 + ["-g", "-C", "--opsel", "5"], ["5", "0", "4"]),
    ("opsel-wrong-matrix-rdna", RDNA3_F16 + ["-g", "-A", "--opsel", "4"], ["OPSEL", "A", "C"]),
    ("neg-out-of-range-rdna", RDNA3 + ["-g", "-A", "--neg", "8"], ["8", "0 to 7"]),
    ("neg-hi-out-of-range-rdna", RDNA3 + ["-g", "-A", "--neg_hi", "9"], ["9", "0 to 7"]),
    ("neg-unsupported-rdna", ["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_fp8_fp8", "-g", "-A",
                              "--neg", "1"], ["NEG", "only 0"]),
    ("cbsz-on-rdna", RDNA3 + ["-g", "-A", "--cbsz", "1"], ["CBSZ", "1"]),
    ("register-lane-pair-empty", ["-a", "rdna4", "-i", "v_wmma_i32_16x16x16_iu4", "-w", "64",
                                  "-m", "-A", "-l", "40"], ["40", "0 to 31"]),
    ("lane-out-of-range-wave32", RDNA3 + ["-m", "-A", "-l", "32"], ["32", "0 to 31"]),
    # wave size
    ("wave-not-allowed", DENSE + ["-g", "-A", "-w", "32"], ["32", "64"]),
    ("wave-not-allowed-with-d", DENSE + ["-d", "-w", "32"], ["32", "64"]),
    ("wave-not-allowed-rdna", RDNA3 + ["-g", "-A", "-w", "48"], ["48", "32", "64"]),
    ("wave-not-a-number", DENSE + ["-g", "-A", "-w", "wave64"], ["'wave64'", "whole number"]),
    ("wave-no-value", DENSE + ["-g", "-A", "-w"], ["-w", "32 or 64"]),
    # unknown, misspelt and ambiguous options, stray words
    ("option-unknown", DENSE + ["-g", "-A", "--bogus"], ["--bogus", "-h"]),
    ("option-wrong-case", ["--ARCHITECTURE", "cdna3", "-L"], ["--ARCHITECTURE", "-h"]),
    ("option-unknown-short", DENSE + ["-g", "-A", "-x"], ["-x", "-h"]),
    ("option-with-value-attached", DENSE + ["-g", "-A", "--csv=1"], ["--csv", "'1'", "no value"]),
    ("stray-word", DENSE + ["-g", "-A", "extra"], ["extra", "-h"]),
    ("stray-number", DENSE + ["-g", "-A", "7"], ["7", "-h"]),
    ("prefix-ambiguous", DENSE + ["--bl", "1", "-g", "-B"], ["--bl", "--blgp", "--block"]),
    ("version-with-bad-option", ["-v", "--bogus"], ["--bogus", "-h"]),
]


@pytest.mark.parametrize("argv, texts", [pytest.param(a, t, id=i) for i, a, t in BAD])
def test_bad_input_is_one_clear_line(argv, texts):
    status, out, err = call(argv)
    assert_clean_error(status, out, err)
    for text in texts:
        assert text in err, f"{text!r} missing from {err!r}"


def test_the_table_covers_each_class_once():
    assert len({case[0] for case in BAD}) == len(BAD)


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_every_architecture_names_its_wave_sizes(arch):
    inst = arch.instructions[0]
    status, out, err = call(["-a", arch.name, "-i", inst.mnemonic, "-g", "-A", "-w", "16"])
    assert_clean_error(status, out, err)
    assert "16" in err and all(str(wave) in err for wave in inst.wave_sizes), err


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_every_architecture_bounds_coordinates_and_lanes(arch):
    inst = arch.instructions[0]
    base = ["-a", arch.name, "-i", inst.mnemonic]
    status, out, err = call(base + ["-g", "-D", "-I", str(inst.m)])
    assert_clean_error(status, out, err)
    assert f"0 to {inst.m - 1}" in err, err
    wave = arch.waves[0]
    status, out, err = call(base + ["-m", "-D", "-l", str(wave)])
    assert_clean_error(status, out, err)
    assert f"0 to {wave - 1}" in err, err


# Repeating an option is not an error: the last value wins, repeated flags are harmless.
REPEATS = [
    (DENSE + ["-g", "-A", "-I", "9", "-I", "3"], DENSE + ["-g", "-A", "-I", "3"]),
    (["-a", "bogus", "-a", "cdna3", "-L"], ["-a", "cdna3", "-L"]),
    (["-a", "cdna3", "-i", "nothing"] + DENSE[2:] + ["-m", "-B", "-l", "5"],
     DENSE + ["-m", "-B", "-l", "5"]),
    (DENSE + ["-R", "-A", "-A", "--csv", "--csv"], DENSE + ["-R", "-A", "--csv"]),
    (DENSE + ["-g", "-g", "-D", "-o", "-o"], DENSE + ["-g", "-D", "-o"]),
]


@pytest.mark.parametrize("argv, same_as", REPEATS)
def test_repeated_options_are_accepted(argv, same_as):
    status, out, err = call(argv)
    assert_clean_success(status, out, err)
    assert (status, out, err) == call(same_as)


def test_a_real_process_reports_an_error_without_traceback():
    proc = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py")] + DENSE
                          + ["-g", "-A", "-I", "\u00b2"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert_clean_error(proc.returncode, proc.stdout, proc.stderr)


def test_a_defect_is_reported_on_one_line(monkeypatch):
    def broken(_args):
        raise RuntimeError("two\nlines")
    monkeypatch.setattr(cli_respond, "run", broken)  # main() answers through cli_respond
    status, out, err = call(DENSE + ["-g", "-A"])
    assert status not in (0, 2)
    assert out == "" and err.count("\n") == 1 and "RuntimeError" in err


# ---------------------------------------------------------------------------------------
# Property test: argument vectors drawn from the option grammar, valid and invalid.

def _spellings(dest):
    return next(o.spellings for o in matrix_calculator.OPTIONS if o.dest == dest)


NAMES = sorted({name for arch in ARCHITECTURES
                for name in (arch.name, arch.name.lower()) + tuple(arch.aliases)})
MNEMONICS = sorted({inst.mnemonic for arch in ARCHITECTURES for inst in arch.instructions})
VALUE_DESTS = [o.dest for o in matrix_calculator.OPTIONS if o.kind == "number"]
FLAG_DESTS = [o.dest for o in matrix_calculator.OPTIONS if o.kind == "flag" and o.dest != "version"]

good_numbers = st.one_of(st.integers(0, 8).map(str), st.sampled_from(
    ["0", "00", "07", "15", "16", "31", "32", "63", "64", "127", "\uff11"]))
bad_numbers = st.sampled_from(["", "x", "-1", "+1", " 1", "1 ", "1.5", "0x1", "1e2", "\u00b2",
                               "9" * 25, "9" * 5000, "-", "--", "1,2", "\u0661\u00b2"])
junk = st.sampled_from(["--bogus", "-x", "extra", "7", "--ARCH", "--bl", "--neg-hi", "-"])


def _option(spelling, value):
    """One option with its value, in one of the forms argparse accepts."""
    return st.sampled_from(["separate", "equals"]).map(
        lambda form: [spelling, value] if form == "separate" or value.startswith(" ")
        else [f"{spelling}={value}"])


@st.composite
def argument_vectors(draw):
    arch = draw(st.sampled_from(ARCHITECTURES))
    groups = []
    if draw(st.integers(0, 9)):
        name = draw(st.sampled_from([arch.name, arch.name.lower()] + list(arch.aliases))
                    if draw(st.integers(0, 5)) else st.sampled_from(NAMES + ["rdna9", ""]))
        groups.append(draw(_option(draw(st.sampled_from(["-a", "--architecture"])), name)))
    if draw(st.integers(0, 9)):
        mnemonics = [inst.mnemonic for inst in arch.instructions]
        name = draw(st.sampled_from(mnemonics) if draw(st.integers(0, 5))
                    else st.sampled_from(MNEMONICS + ["v_bogus", ""]))
        if draw(st.booleans()):
            name = name.upper()
        groups.append(draw(_option(draw(st.sampled_from(["-i", "--instruction"])), name)))
    modes = draw(st.lists(st.sampled_from(["-g", "-m", "-R", "-M", "-L", "-d"]),
                          min_size=0, max_size=2))
    matrices = draw(st.lists(st.sampled_from(["-A", "-B", "-C", "-D", "-k"]),
                             min_size=0, max_size=2))
    groups += [[flag] for flag in modes + matrices]
    for dest in draw(st.lists(st.sampled_from(VALUE_DESTS), max_size=4, unique=True)):
        spelling = draw(st.sampled_from(_spellings(dest)))
        value = draw(good_numbers if draw(st.integers(0, 4)) else bad_numbers)
        if dest == "wavefront" and draw(st.booleans()):
            value = draw(st.sampled_from(["32", "64", "0"]))
        groups.append(draw(_option(spelling, value)) if draw(st.integers(0, 9))
                      else [spelling])
    for dest in draw(st.lists(st.sampled_from(FLAG_DESTS), max_size=3)):
        groups.append([draw(st.sampled_from(_spellings(dest)))])
    if not draw(st.integers(0, 7)):
        groups.append([draw(junk)])
    order = draw(st.permutations(range(len(groups))))
    return [token for index in order for token in groups[index]]


def _mode_groups(draw, inst, mode, matrix):
    """valid_vectors' option groups of the mode: the matrix, -o, the element or register
    and lane, the table format."""
    groups = []
    if mode in ("-g", "-m", "-R", "-M"):
        groups.append([matrix])
    if mode in ("-g", "-m") and matrix == "-D" and not inst.matrices and draw(st.booleans()):
        groups.append(["-o"])  # (-o reads A, B and C registers: not wgmma's, ldmatrix's)
    if mode == "-g":
        for spelling, top in (("-I", inst.m), ("-J", inst.n), ("-K", inst.k),
                              ("-b", inst.blocks)):
            if draw(st.booleans()):
                groups.append(draw(_option(spelling, str(draw(st.integers(0, top - 1))))))
    if mode == "-m":
        groups.append(["-r", "0"])
        groups.append(draw(_option("-l", str(draw(st.integers(0, 15))))))
    if mode in ("-R", "-M"):
        fmt = draw(st.sampled_from([[], ["-c"], ["--csv"], ["--markdown"], ["--asciidoc"]]))
        groups.append(fmt + draw(st.sampled_from([[], ["--transpose"]])))
    return groups


@st.composite
def valid_vectors(draw):
    """Command lines the calculator must answer: every value legal for the instruction."""
    arch = draw(st.sampled_from(ARCHITECTURES))
    inst = draw(st.sampled_from(arch.instructions))
    name = draw(st.sampled_from([arch.name, arch.name.lower()] + list(arch.aliases)))
    mnemonic = draw(st.sampled_from([inst.mnemonic, inst.mnemonic.upper()]))
    groups = [draw(_option(draw(st.sampled_from(["-a", "--architecture"])), name)),
              draw(_option(draw(st.sampled_from(["-i", "--instruction"])), mnemonic))]
    matrices = ["-A", "-B", "-D"] + (["-k"] if inst.sparse else ["-C"])
    if inst.matrices:  # only these are register operands (wgmma: A, D)
        matrices = [f"-{m}" for m in inst.matrices]
    matrix = draw(st.sampled_from(matrices))
    mode = draw(st.sampled_from(["-L", "-d", "-g", "-m", "-R", "-M"]))
    groups.append([mode])
    groups += _mode_groups(draw, inst, mode, matrix)
    if draw(st.booleans()):
        groups.append(draw(_option("-w", draw(st.sampled_from(["0"] + [str(w) for w in
                                                                       inst.wave_sizes])))))
    for name in draw(st.lists(st.sampled_from(["--cbsz", "--abid", "--blgp", "--opsel",
                                                "--neg", "--neg_hi"]), max_size=2)):
        groups.append([name, "0"])  # 0 is always legal
    if draw(st.booleans()):  # a repeated option: the last one wins
        groups.append(groups[draw(st.integers(0, len(groups) - 1))])
    order = draw(st.permutations(range(len(groups))))
    return [token for index in order for token in groups[index]]


EXAMPLES = int(os.environ.get("MATRIX_CALCULATOR_EXAMPLES", "200"))
PROPERTY = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow
@PROPERTY
@given(argument_vectors())
def test_any_argument_vector_ends_cleanly(argv):
    status, out, err = call(argv)  # an exception out of main() fails the test here
    if status == 0:
        assert_clean_success(status, out, err)
    else:
        assert_clean_error(status, out, err)


@PROPERTY
@given(valid_vectors())
def test_valid_argument_vectors_succeed(argv):
    assert_clean_success(*call(argv))


# ---------------------------------------------------------------------------------------
# Every error of the golden corpus, reported our way.

def _golden_errors():
    return [r["args"] for r in golden_records() if r["rc"] != 0 and not r.get("any")]


EXTENSIONS = tuple(arch.name for arch in ARCHITECTURES if not getattr(arch, "public", True))


def _extension_answer(status, out, err):
    """A clean answer about an architecture the reference tool does not know (CDNA4)."""
    first = out.split("\n", 1)[0]
    return status == 0 and err == "" and any(name in first.split() for name in EXTENSIONS)


def test_every_golden_error_is_one_clean_line():
    failures = []
    for argv in _golden_errors():
        status, out, err = call(argv)
        if _extension_answer(status, out, err):
            continue
        if status != 2 or out or err.count("\n") != 1 or not err.endswith("\n"):
            failures.append((argv, status, out[:80], err[:200]))
    assert not failures, f"{len(failures)} unclean errors, e.g. {failures[:3]}"
