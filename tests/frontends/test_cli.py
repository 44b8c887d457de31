"""Command-line behaviour: header, version, help, errors, and a closed output pipe."""
import fcntl
import os
import subprocess
import sys

import pytest

import matrix_calculator
from tests.helpers import RECORDING_ENV, REPO

QUERY = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]


def test_header_lines(run):
    rc, out, err = run(["-a", "MI300X", "-i", "V_MFMA_F32_32X32X8_F16", "-g", "-A", "-I", "5",
                        "-K", "6"])
    assert (rc, err) == (0, "")
    assert out.splitlines()[:2] == ["Architecture: CDNA3", "Instruction: V_MFMA_F32_32X32X8_F16"]
    assert out.endswith("\n") and not out.endswith("\n\n")


@pytest.mark.parametrize("mode", [["-d"], ["-g", "-B"], ["-m", "-C"], ["-R", "-D"], ["-M", "-A"]])
def test_every_mode_starts_with_the_header(run, mode):
    rc, out, err = run(["-a", "gfx90a", "-i", "v_mfma_f64_4x4x4f64"] + mode)
    assert (rc, err) == (0, "")
    assert out.startswith("Architecture: CDNA2\nInstruction: V_MFMA_F64_4X4X4F64\n")


@pytest.mark.parametrize("argv", [["-v"], ["--version"], ["-v", "-a", "foo"],
                                  ["-v", "-a", "cdna3", "-i", "bogus", "-g"]])
def test_version(run, argv):
    rc, out, err = run(argv)
    assert (rc, err) == (0, "")
    assert out.count("\n") == 1 and matrix_calculator.__version__ in out


def test_version_after_a_parse_error(run):
    rc, out, err = run(["-v", "--bogus"])
    assert rc == 2 and out == "" and err.strip()


def test_help(run):
    rc, out, err = run(["-h"])
    assert (rc, err) == (0, "")
    assert out.startswith("usage: ")
    for option in ("--architecture", "--instruction", "--list-instructions",
                   "--detail-instruction", "--get-register", "--matrix-entry",
                   "--register-layout", "--matrix-layout", "--compression", "--cbsz", "--abid",
                   "--blgp", "--output-calculation", "--csv", "--markdown", "--asciidoc",
                   "--transpose", "--I-coordinate", "--block", "--register", "--lane"):
        assert option in out, option


def test_list_ignores_everything_else(run):
    rc, out, err = run(["-a", "cdna1", "-L", "-i", "bogus", "-I", "x", "-g", "-A", "-B",
                        "--csv", "--markdown"])
    assert (rc, err) == (0, "")
    assert out.splitlines()[0] == "Available instructions in the CDNA1 architecture:"
    assert len(out.splitlines()) == 21


def test_detail_ignores_query_options(run):
    rc, out, err = run(QUERY + ["-d", "-g", "-A", "-B", "-I", "x", "-r", "999", "--cbsz", "9",
                                "--csv", "--markdown"])
    assert (rc, err) == (0, "")
    assert "    Encoding: VOP3P-MAI\n" in out


ERRORS = {
    "unknown architecture": ["-a", "cdna9", "-L"],
    "architecture without value": ["-L", "-a"],
    "no architecture": ["-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"],
    "unknown instruction": ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8f16", "-g", "-A"],
    "other arch's instruction": ["-a", "cdna1", "-i", "v_mfma_f64_16x16x4f64", "-d"],
    "missing -i": ["-a", "cdna3", "-g", "-A"],
    "-i without value": ["-a", "cdna3", "-g", "-A", "-i"],
    "bad number": QUERY + ["-g", "-A", "-I", "x"],
    "negative number": QUERY + ["-g", "-A", "-I", "-1"],
    "number option without value": QUERY + ["-g", "-A", "-I"],
    "bad number in an unused option": QUERY + ["-g", "-A", "-r", "1.5"],
    "no mode": QUERY + ["-A"],
    "two modes": QUERY + ["-g", "-m", "-A"],
    "no matrix": QUERY + ["-g"],
    "two matrices": QUERY + ["-g", "-A", "-B"],
    "-o with -A": QUERY + ["-g", "-A", "-o"],
    "--csv and --markdown": QUERY + ["-R", "-A", "--csv", "--markdown"],
    "--csv and --asciidoc with -g": QUERY + ["-g", "-A", "-c", "--asciidoc"],
    "-I out of range": QUERY + ["-g", "-A", "-I", "32"],
    "-K out of range for C": QUERY + ["-g", "-C", "-K", "8"],
    "-b out of range": QUERY + ["-g", "-D", "-b", "1"],
    "-r out of range": QUERY + ["-m", "-A", "-r", "2"],
    "-l out of range": QUERY + ["-m", "-D", "-l", "64"],
    "huge number": QUERY + ["-g", "-A", "-J", "99999999999999999999"],
    "CBSZ unsupported": QUERY + ["-g", "-A", "--cbsz", "1"],
    "ABID unsupported": QUERY + ["-g", "-A", "--abid", "1"],
    "CBSZ on B": ["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "-g", "-B", "--cbsz", "1"],
    "CBSZ above log2(blocks)": ["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "-g", "-A",
                                "--cbsz", "3"],
    "ABID above 2^CBSZ-1": ["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "-g", "-A",
                            "--cbsz", "1", "--abid", "2"],
    "BLGP unsupported": QUERY + ["-g", "-B", "--blgp", "1"],
    "BLGP on A": ["-a", "cdna2", "-i", "v_mfma_f32_32x32x8f16", "-g", "-A", "--blgp", "1"],
    "BLGP 8": ["-a", "cdna2", "-i", "v_mfma_f32_32x32x8f16", "-g", "-B", "--blgp", "8"],
    "OPSEL on CDNA": QUERY + ["-g", "-C", "--opsel", "4"],
    "NEG on CDNA": QUERY + ["-g", "-A", "--neg", "1"],
    "C of a sparse instruction": ["-a", "cdna3", "-i", "v_smfmac_f32_16x16x32_f16", "-g", "-C"],
    "K of a dense instruction": QUERY + ["-g", "-k"],
    "wave32 on CDNA": QUERY + ["-d", "-w", "32"],
    "unknown option": QUERY + ["-g", "-A", "--bogus"],
    "stray argument": QUERY + ["-g", "-A", "extra"],
}


@pytest.mark.parametrize("argv", list(ERRORS.values()), ids=list(ERRORS))
def test_error(run, argv):
    rc, out, err = run(argv)
    assert rc == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n") and err.strip()


def test_leading_zeros_and_option_forms(run):
    plain = run(QUERY + ["-g", "-A", "-I", "5", "-K", "6"])
    assert plain[0] == 0
    for argv in (QUERY + ["-g", "-A", "-I", "005", "-K", "06"],
                 QUERY + ["-gA", "-I5", "-K6"],
                 ["--architecture=cdna3", "--instruction=V_MFMA_F32_32x32x8_F16", "-g", "-A",
                  "--I-coordinate=5", "--K_coordinate", "6"],
                 QUERY + ["-g", "-A", "-I", "9", "-I", "5", "-K", "6"]):
        assert run(argv) == plain, argv


def test_wave64_is_accepted_on_cdna(run):
    assert run(QUERY + ["-g", "-A", "-w", "064"]) == run(QUERY + ["-g", "-A"])


def _child(argv):
    env = dict(os.environ, **RECORDING_ENV)
    return [sys.executable, str(REPO / "matrix_calculator.py")] + argv, env


def _small_pipe():
    """A pipe whose buffer (4 KiB where Linux lets us set it) is far below the output."""
    read_end, write_end = os.pipe()
    if hasattr(fcntl, "F_SETPIPE_SZ"):
        fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    return read_end, write_end


def test_closed_pipe_after_the_first_line_is_quiet():
    """Like `matrix_calculator.py ... -R -D | head -1`: the reader takes one line and
    leaves while the calculator is still writing; no traceback, a clean exit."""
    argv, env = _child(["-a", "cdna3", "-i", "v_mfma_f32_32x32x1_2b_f32", "-R", "-D"])
    read_end, write_end = _small_pipe()
    child = subprocess.Popen(argv, stdout=write_end, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=env)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        first = reader.readline()
    err = child.stderr.read()
    child.stderr.close()
    assert child.wait(timeout=60) == 0
    assert first == b"Architecture: CDNA3\n"
    assert b"Traceback" not in err and err == b""


def test_pipe_closed_before_any_output_is_quiet():
    """The reader is gone before the first write: the write fails, the exit stays clean."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    argv, env = _child(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A"])
    try:
        done = subprocess.run(argv, stdout=write_end, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, env=env, timeout=60, check=False)
    finally:
        os.close(write_end)
    assert done.returncode == 0
    assert done.stderr == b""
