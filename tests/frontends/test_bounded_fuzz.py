"""A bounded fuzz of the LDS, conversion and batch options, beside the argv
fuzz of test_errors.py: each command line ends with its answer (status 0) or one clean
line (status 2), within the CPU bound of test_bounds; the whole fuzz takes seconds.
MATRIX_CALCULATOR_EXAMPLES sets the examples of each property (CI: the default)."""
import json
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matrix_frontends.cli.messages import MESSAGE_LENGTH
from tests.helpers import call
from tests.helpers.bounds import CPU_SECONDS

EXAMPLES = int(os.environ.get("MATRIX_CALCULATOR_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

INSTRUCTIONS = [("cdna3", "v_mfma_f32_16x16x16_f16"), ("cdna3", "v_mfma_f32_32x32x8_f16"),
                ("cdna3", "v_smfmac_f32_16x16x32_f16"), ("gfx950", "v_mfma_f32_16x16x128_f8f6f4"),
                ("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4"),
                ("rdna3", "v_wmma_f32_16x16x16_f16"), ("rdna4", "v_wmma_f32_16x16x16_f16"),
                ("gfx1250", "v_wmma_f32_16x16x32_f16"), ("gfx1250", "v_wmma_f32_32x16x128_f4")]
JUNK = ["", "x", "-1", "²", "١٢", "9" * 30, "9" * 5000, "\x1b[31mRED\x07", "\0", "1,2",
        "16x", "x16", "16x64x2", "0x0", "16 x 64", "99999999x99999999"]
numbers = st.one_of(st.integers(0, 70).map(str), st.sampled_from(JUNK))
tiles = st.one_of(st.tuples(st.sampled_from([8, 16, 32, 64, 128, 256, 4096, 99999999]),
                            st.sampled_from([16, 32, 64, 128, 256, 1024, 8192, 99999999]))
                  .map(lambda t: f"{t[0]}x{t[1]}"), st.sampled_from(JUNK))
swizzles = st.one_of(st.tuples(*[st.sampled_from([1, 2, 4, 8, 16, 3, 99999999])] * 3)
                     .map(lambda t: ",".join(map(str, t))), st.sampled_from(JUNK))


def bounded(argv):
    """(status, out, err) of the command line, which must end cleanly within the bound."""
    start = time.process_time()
    status, out, err = call(argv)
    assert time.process_time() - start < CPU_SECONDS, argv
    assert "Traceback" not in err and status in (0, 2), (argv, status, err)
    if status == 2:
        assert out == "" and err.count("\n") == 1 and err[:-1].isprintable(), (argv, err)
        assert len(err) < MESSAGE_LENGTH + 100 and "\x1b" not in err and "\0" not in err
    else:
        assert out and err == "", (argv, err)
    return status, out, err


@st.composite
def lds_lines(draw):
    arch, name = draw(st.sampled_from(INSTRUCTIONS))
    words = ["-a", arch, "-i", name, draw(st.sampled_from(["-A", "-B", "-k", "--A-scale",
                                                           "-C", "-A"]))]
    words += ["--lds-tile", draw(tiles)]
    for option, values in (("--lds-swizzle", swizzles), ("--lds-pad", numbers),
                           ("--lds-base", numbers), ("--k-steps", numbers),
                           ("--lds-order", st.sampled_from(["k", "mn", "x"])),
                           ("--load", st.sampled_from(["ds_read_b64", "ds_read_b128",
                                                       "ds_load_b128", "ds_read_b999", ""])),
                           ("--lds-model", st.sampled_from(["rocroller", "banks64", "x"])),
                           ("--matrix-a-fmt", st.sampled_from(["fp4", "fp8", "9"]))):
        if not draw(st.integers(0, 3)):
            words += [option, draw(values)]
    # (searches are the costly part: a few of them)
    words += draw(st.sampled_from([[], [], [], [], ["--json"], ["--emit", "hip"],
                                   ["--format", "svg"], ["--lds-search"],
                                   ["--lds-search", "--json"]]))
    return words


@FUZZ
@given(lds_lines())
def test_any_lds_command_line_ends_cleanly_within_the_bound(argv):
    bounded(argv)


@st.composite
def conversion_lines(draw):
    arch = draw(st.sampled_from(["cdna3", "gfx950", "rdna3", "rdna4", "gfx1250", "x"]))
    names = [n for a, n in INSTRUCTIONS if a == arch] or ["v_bogus"]
    source = draw(st.sampled_from(names)) + ":" + draw(st.sampled_from(["D", "C", "A", "", "Z"]))
    target = draw(st.sampled_from(names)) + ":" + draw(st.sampled_from(["A", "B", "D", "Z"]))
    words = ["-a", arch, "--convert", source, target]
    words += draw(st.sampled_from([[], ["--transpose"], ["-o"], ["--json"], ["--emit", "hip"],
                                   ["--emit", "hip", "--transpose"], ["--json", "--compact"],
                                   ["--cbsz", draw(numbers)], ["-w", draw(numbers)],
                                   ["--matrix-a-fmt", "fp4"]]))
    return words


@FUZZ
@given(conversion_lines())
def test_any_conversion_ends_cleanly_within_the_bound(argv):
    bounded(argv)


batch_lines = st.one_of(
    lds_lines().map(" ".join), conversion_lines().map(" ".join),
    st.sampled_from(["-a cdna3 -i v_mfma_f32_16x16x16_f16 -g -A -I 1 -K 2", "-h", "--help",
                     "--batch -", "--serve", "-v", "--completion bash", "--json-schema",
                     "# comment", "", "   ", "'unclosed", 'a "b c', "x\\", "\x1b[2J\0",
                     "-a cdna3 -L", "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip"]),
    st.text(max_size=30))


@pytest.mark.slow
@FUZZ
@given(st.lists(batch_lines, min_size=1, max_size=6), st.booleans(), st.booleans())
def test_any_batch_ends_cleanly_with_one_answer_per_line(tmp_path_factory, lines, as_json,
                                                         bom):
    path = tmp_path_factory.mktemp("batch") / "lines.txt"
    text = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "replace"))
    start = time.process_time()
    status, out, err = call(["--batch", str(path)] + (["--json"] if as_json else []))
    assert time.process_time() - start < CPU_SECONDS * len(lines)
    assert status in (0, 2) and "Traceback" not in err and "\x1b" not in err
    answered = [n for n, line in enumerate(text.split("\n")[:-1], 1)
                if line.strip() and not line.lstrip().startswith("#")]
    if as_json:
        documents = [json.loads(line) for line in out.splitlines()]
        assert [d["line"] for d in documents] == answered
        assert all(isinstance(d, dict) for d in documents)
        assert (status == 2) == any(d["mode"] == "error" for d in documents)
    else:
        assert [line for line in out.splitlines() if line.startswith("#--- ")][-len(answered):] \
            == [f"#--- {n}" for n in answered]
