"""--batch streams and is bounded: each answer is written when its line is
done, the input is read a line at a time within its bounds (an error naming the line
past them, exit 2), quotes split in linear time, --json gives one JSON object per line
whatever the line asks, -h is refused, a byte order mark is skipped."""
import json
import shlex
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matrix_frontends import batch as cli_batch
from tests.helpers import REPO, call
from tests.helpers.bounds import CPU_SECONDS, bounded_run

SCRIPT = str(REPO / "matrix_calculator.py")
GET = "-a cdna3 -i v_mfma_f32_16x16x16_f16 -g -A -I 1 -K 2"


def test_each_answer_is_written_when_its_line_is_done():
    """The answer of line 1 arrives while line 2 is not yet written."""
    child = subprocess.Popen([sys.executable, SCRIPT, "--batch", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for number in (1, 2):
            child.stdin.write(GET + "\n")
            child.stdin.flush()
            lines = []
            while not lines or lines[-1] and not lines[-1].startswith("#---"):
                lines.append(child.stdout.readline())
            assert lines[-1] == f"#--- {number}\n" and "A[1][2]" in "".join(lines)
        child.stdin.close()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("stdin, texts", [
    (b"\0" * 200000, ["line 1 is longer than 65,536 bytes"]),
    (b"-a cdna3 -L\n" + bytes(range(128, 256)) * 10 + b"\n", ["line 2 is not UTF-8"]),
    (f"{GET}\n".encode() + b"x" * (cli_batch.MAX_LINE + 10), ["line 2 is longer"]),
])
def test_input_past_a_bound_ends_the_batch_naming_its_line(stdin, texts):
    status, out, err, cpu = bounded_run(["--batch", "-"], stdin=stdin)
    assert status == 2 and err.count("\n") == 1 and cpu < CPU_SECONDS, (status, err)
    assert "Traceback" not in err and all(t in err for t in texts), err
    assert out.count(b"#---") == stdin.count(b"\n-a") + stdin.startswith(b"-a")


def test_endless_input_is_refused_within_the_bound():
    for device in ("/dev/zero", "/dev/urandom"):
        status, out, err, cpu = bounded_run(["--batch", device])
        assert status == 2 and "--batch line " in err and cpu < CPU_SECONDS, err


def test_the_line_and_input_bounds_name_the_line(monkeypatch, tmp_path):
    path = tmp_path / "many.txt"
    path.write_text("# a comment\n" * 5)
    monkeypatch.setattr(cli_batch, "MAX_LINES", 3)
    status, _, err = call(["--batch", str(path)])
    assert status == 2 and "line 4 is past the 3 lines a batch may have" in err
    monkeypatch.setattr(cli_batch, "MAX_LINES", 100)
    monkeypatch.setattr(cli_batch, "MAX_INPUT", 30)
    status, _, err = call(["--batch", str(path)])
    assert status == 2 and "line 3 is past the 30 bytes" in err


def test_a_byte_order_mark_is_skipped(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GET.encode() + b"\r\n")
    status, out, err = call(["--batch", str(path)])
    assert status == 0 and err == "" and out.endswith("#--- 1\n") and "A[1][2]" in out


def test_batch_without_a_value_says_what_to_give():
    status, out, err = call(["--batch"])
    assert status == 2 and out == "" and "None" not in err
    assert "needs a value: a FILE of command lines" in err and "- for standard input" in err


# ---- --json: one JSON object per line, whatever the line asks

ODD_LINES = [
    GET,
    "-h",
    "-a cdna3 --help",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --lds-tile 16x64 --emit hip",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip",
    "--completion bash",
    "-v",
    "--json-schema",
    "--serve",
    "--batch -",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -R -A --format svg",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --lds-tile 16x64 --lds-search",
    "--convert v_mfma_f32_16x16x16_f16:D v_mfma_f32_16x16x16_f16:A -a cdna3 --emit hip",
    "'unclosed",
    "\x1b[31mRED\x07 \0",
    "-a cdna3 -L",
]


def test_a_json_batch_gives_one_object_per_line_whatever_it_asks():
    stdin = "\n".join(ODD_LINES) + "\n"
    done = subprocess.run([sys.executable, SCRIPT, "--batch", "-", "--json"], input=stdin,
                          capture_output=True, text=True, timeout=120)
    documents = [json.loads(line) for line in done.stdout.splitlines()]
    assert [d["line"] for d in documents] == list(range(1, len(ODD_LINES) + 1))
    assert all(isinstance(d, dict) and d["schema_version"] == 1 for d in documents)
    errors = {d["line"] for d in documents if d["mode"] == "error"}
    assert {2, 3, 4, 5, 6, 9, 10, 11, 13, 14, 15} <= errors and 1 not in errors
    assert 16 not in errors and done.returncode == 2
    assert "-h/--help" in documents[1]["error"] and "usage" not in done.stdout
    assert all("\x1b" not in d.get("error", "") for d in documents)


def test_a_help_line_is_refused_in_a_text_batch_too(tmp_path):
    path = tmp_path / "help.txt"
    path.write_text(f"-h\n{GET}\n")
    status, out, err = call(["--batch", str(path)])
    assert status == 2 and "usage" not in out and "line 1: error: a --batch line cannot ask" \
        in err and out.endswith("#--- 2\n")


# ---- quote splitting

@pytest.mark.slow
@given(st.text(alphabet=" \t'\"\\ab-=\n", max_size=40))
@settings(max_examples=400, deadline=None)
def test_the_words_are_shlexs(line):
    try:
        expected = shlex.split(line)
    except ValueError:
        with pytest.raises(Exception, match="cannot split"):
            cli_batch.words(line)
        return
    assert cli_batch.words(line) == expected


def test_quote_splitting_is_linear():
    line = " ".join(['"a b"', "'c'", "d\\ e"] * 20000)  # about 300,000 characters
    start = time.process_time()
    found = cli_batch.words(line)
    took = time.process_time() - start
    assert len(found) == 60000 and found[:3] == ["a b", "c", "d e"]
    doubled = line + " " + line
    start = time.process_time()
    cli_batch.words(doubled)
    assert time.process_time() - start < 4 * took + 0.5


JSON_POINTS = [
    GET, "-a cdna3 -i v_mfma_f32_16x16x16_f16 -g -A -I 3 -K 5",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -g -B -J 2 -K 7",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -g -D -I 4 -J 9 -o",
    "-a cdna3 -i v_mfma_f32_16x16x16_f16 -g -A -I 1 -K 2 -w 64",
    "-a cdna1 -i v_mfma_f32_32x32x1f32 -g -A -I 1 -K 0 --cbsz 1 --abid 1",
    "-a cdna1 -i v_mfma_f32_32x32x1f32 -g -A -I 1 -K 0 --cbsz 1 --abid 0",
    "-a rdna3 -i v_wmma_f32_16x16x16_f16 -g -C -I 5 -J 6",
    GET,
]


def test_a_json_batch_line_is_the_compact_document_of_the_line_on_its_own(tmp_path):
    """Each -g line of a --json batch (lines of one operand in a row, other operands and
    modifiers between) is byte for byte the --json --compact document of that command
    line run alone, with its line number, and holds what the indented document holds."""
    source = tmp_path / "points.txt"
    source.write_text("\n".join(JSON_POINTS) + "\n")
    written: list[str] = []
    from matrix_frontends.cli.modes import respond
    cli_batch.run_batch(str(source), True, respond, written.append)
    assert len(written) == len(JSON_POINTS)
    for number, (line, text) in enumerate(zip(JSON_POINTS, written), 1):
        status, alone, _ = call([*shlex.split(line), "--json", "--compact"])
        assert status == 0
        assert text == alone[:-2] + f',"line":{number}}}\n'
        status, indented, _ = call([*shlex.split(line), "--json"])
        assert json.loads(text) == dict(json.loads(indented), line=number)
