"""The command line as data and its contracts: the Option table
drives every face of the command line; numbers are bounded before use; our own options a
mode does not read are errors while the reference's keep its behaviour; --batch;
completion values; aligned columns."""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from instructions import ARCHITECTURES
from matrix_frontends.cli import modes as cli_modes
from matrix_frontends.cli import options as cli_options
from matrix_library import request as matrix_request
from tests.helpers import call

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "matrix_calculator.py")
MFMA = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]


def error(argv):
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
    return err


# ---- the table

def test_every_row_is_complete_and_every_mode_reads_only_known_options():
    dests = {o.dest for o in cli_options.OPTIONS}
    for option in cli_options.OPTIONS:
        assert option.spellings and option.help and option.group in cli_options.GROUPS
        assert all(s.startswith("-") for s in option.spellings)
        if option.kind in ("value", "number", "append"):
            assert option.metavar, option.dest
        if option.kind == "number" and not option.reference:
            assert option.limit > 0, option.dest
    for mode in cli_modes.MODES:
        assert set(mode.uses) <= dests, mode.name
    assert set(cli_options.MODIFIERS) == set(matrix_request.Modifiers._fields)


def test_a_new_row_reaches_argparse_the_plain_reader_help_and_completion(monkeypatch):
    row = cli_options.Option("extra", ("--extra-thing",), cli_options.OTHER, "a new option",
                             "value", "WORD", ("alpha", "beta"))
    options = (*cli_options.OPTIONS, row)
    monkeypatch.setattr(cli_options, "OPTIONS", options)
    monkeypatch.setattr(cli_options, "BY_DEST", {o.dest: o for o in options})
    monkeypatch.setattr(cli_options, "_SPELLINGS",
                        {s: o for o in options for s in o.spellings})
    from matrix_frontends.cli import completion as cli_complete
    monkeypatch.setattr(cli_complete, "OPTIONS", options)
    assert cli_options.parse_plain(["--extra-thing", "alpha"]).extra == "alpha"
    parsed = cli_options.build_parser().parse_args(["--extra-th=beta"])
    assert parsed.extra == "beta"
    assert "--extra-thing" in cli_options.build_parser().format_help()
    script = cli_complete.completion("bash")
    assert '--extra-thing) words="alpha beta"' in script
    assert "--extra-thing" in cli_options.spellings()


# ---- numbers are bounded before use (constant time: the value's digits are not read)

@pytest.mark.parametrize("argv, allowed", [
    (["-g", "-A", "--cbsz", "9223372036854775808"], "--cbsz takes 0 to 7"),
    (["-g", "-A", "--cbsz", str(10 ** 32)], "--cbsz takes 0 to 7"),
    (["-g", "-A", "--abid", "9" * 100000], "--abid takes 0 to 15"),
    (["-g", "-A", "--blgp", "8"], "--blgp takes 0 to 7"),
    (["-g", "-A", "-w", str(10 ** 32)], "takes 0 to 128"),  # (128: a wgmma warpgroup)
    (["-A", "--emit", "hip", "--ld", str(10 ** 32)], "--ld takes 0 to 2147483647"),
    (["-g", "-A", "-I", "9" * 5000], "at most 4300 digits"),
])
def test_numbers_are_bounded_with_the_range_named(argv, allowed):
    start = time.process_time()
    assert allowed in error(MFMA + argv)
    assert time.process_time() - start < 1  # (not a timing test: a runaway would take minutes)


def test_the_library_checks_the_instructions_own_range_within_the_field():
    err = error(MFMA + ["-g", "-A", "--cbsz", "3"])
    assert "CBSZ" in err and "3" in err
    err = error(MFMA + ["-g", "-A", "-I", str(10 ** 32)])
    assert "0 to 31" in err


def test_an_unused_coordinate_of_the_reference_is_not_checked():
    """The reference ignores -I with -m, however large."""
    status, out, _ = call(MFMA + ["-m", "-A", "-I", "99999999999999999999"])
    assert status == 0 and out.startswith("Architecture: CDNA3")


# ---- options a mode does not read

@pytest.mark.parametrize("mode", [["-g", "-A"], ["-m", "-A"], ["-d"], ["-L"],
                                  ["-A", "--emit", "hip"], ["--list-architectures", "--json"]])
def test_format_is_refused_where_it_does_nothing(mode):
    argv = (MFMA if mode[0] != "--list-architectures" else []) + mode + ["--format", "rst"]
    assert "--format" in error(argv)


@pytest.mark.parametrize("argv, blamed", [
    (MFMA + ["-R", "-A", "--ld", "5"], "--ld"),
    (MFMA + ["-g", "-A", "--order", "col"], "--order"),
    (MFMA + ["-g", "-A", "--lds"], "--lds"),
    (MFMA + ["-L", "--matrix-a-fmt", "fp4"], "--matrix-a-fmt"),
    (MFMA + ["-d", "--neg-lo", "1"], "--neg-lo"),
    (["-v", "--filter", "m=4"], "--filter"),
    (MFMA + ["-g", "-A", "--color-by", "lane"], "--color-by"),
    (MFMA + ["--emit", "hip", "-A", "--json"], "--json"),
])
def test_our_unused_options_are_blamed_by_name(argv, blamed):
    err = error(argv)
    assert f"does not use {blamed}" in err and "--emit does not use --ld" not in err


@pytest.mark.parametrize("argv", [
    ["-a", "cdna3", "-L", "-w", "7", "-I", "x", "--csv", "--markdown"],
    MFMA + ["-d", "-g", "-A", "-B", "-I", "x", "-r", "999", "--cbsz", "9", "--csv",
            "--markdown"],
    MFMA + ["-g", "-A", "--transpose", "--csv"],
])
def test_the_references_options_keep_its_behaviour(argv):
    status, out, err = call(argv)
    assert status == 0 and out and err == ""


def test_list_architectures_as_json_and_csv():
    status, out, _ = call(["--list-architectures", "--json"])
    document = json.loads(out)
    assert status == 0 and document["schema_version"] >= 1
    assert document["mode"] == "architectures"
    assert [a["name"] for a in document["architectures"]] == [a.name for a in ARCHITECTURES]
    status, out, _ = call(["--list-architectures", "--format", "csv"])
    lines = out.splitlines()
    assert status == 0 and lines[0] == "architecture,waves,aliases,instructions"
    assert len(lines) == 1 + len(ARCHITECTURES)


def test_list_architectures_and_help_columns_are_aligned():
    lines = [line for line in call(["--list-architectures"])[1].split("\n\n")[0]
             .splitlines()[1:] if len(line.split()) > 2]  # (the rows with aliases)
    import re
    starts = {(line.index(" wave") + 1, re.search(r"wave\S+\s+", line).end())
              for line in lines}
    assert len({s[0] for s in starts}) == 1 and len({s[1] for s in starts}) == 1
    help_text = call(["-h"])[1]
    columns = {line.index(text) for o in cli_options.OPTIONS
               for line in help_text.splitlines() for text in [o.help[:20]]
               if text in line and not line.lstrip().startswith(o.help[:20])}
    assert len(columns) == 1, columns


def test_detail_heading_names_the_modifiers_its_formulas_use():
    argv = ["-a", "gfx950", "-i", "v_mfma_f32_16x16x128_f8f6f4", "-d"]
    plain, chosen = call(argv)[1], call(argv + ["--cbsz", "2", "--blgp", "4"])[1]
    assert "mapping with no modifiers:" in plain
    assert "mapping with no modifiers:" not in chosen
    assert "mapping with CBSZ 2, BLGP 4:" in chosen


# ---- --batch

BATCH = "\n".join([
    "-a cdna3 -i v_mfma_f32_32x32x8_f16 -g -A -I 5 -K 6",
    "",
    "# a comment",
    "-a cdna3 -i v_bogus -g -A",
    "-a rdna3 -i 'v_wmma_f32_16x16x16_f16' -m -B -l 3",
    "-a cdna3 -L --batch x",
]) + "\n"


def _batch(tmp_path, *extra):
    path = tmp_path / "queries.txt"
    path.write_text(BATCH)
    return call(["--batch", str(path), *extra])


def test_batch_answers_every_line_and_reports_bad_ones_by_number(tmp_path):
    status, out, err = _batch(tmp_path)
    assert status == 2
    one = call(MFMA + ["-g", "-A", "-I", "5", "-K", "6"])[1]
    five = call(["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-m", "-B", "-l", "3"])[1]
    assert out == f"{one}#--- 1\n#--- 4\n{five}#--- 5\n#--- 6\n"
    assert "line 4: error:" in err and "line 6: error:" in err and "--batch" in err
    assert "line 1" not in err and "line 5" not in err


def test_batch_json_lines_carry_results_and_errors(tmp_path):
    status, out, _ = _batch(tmp_path, "--json")
    documents = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert [(d["line"], d["mode"]) for d in documents] == \
        [(1, "get"), (4, "error"), (5, "entry"), (6, "error")]
    assert documents[0] == dict(json.loads(call(MFMA + ["-g", "-A", "-I", "5", "-K", "6",
                                                        "--json"])[1]), line=1)
    assert "v_bogus" in documents[1]["error"]


def test_batch_reads_standard_input():
    proc = subprocess.run([sys.executable, SCRIPT, "--batch", "-"], input=BATCH.split("\n")[0],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.endswith("#--- 1\n")


def test_batch_of_a_missing_file_is_one_line():
    assert "--batch cannot read" in error(["--batch", "/nonexistent/queries"])


# ---- completion

def bash_complete(*words):
    script = call(["--completion", "bash"])[1]
    line = " ".join(f"'{w}'" for w in words)
    test = (f'exec 3>&2\n{script}\ncompopt() {{ echo "compopt $*" >&3; }}\n'
            f'COMP_WORDS=(matrix-calculator {line}); COMP_CWORD={len(words)}; '
            f'_matrix_calculator; printf "%s\\n" "${{COMPREPLY[@]}}"')
    proc = subprocess.run(["bash", "-c", test], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split(), proc.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize("option, expected", [
    ("--matrix-a-fmt", "fp4"), ("--color-by", "register"), ("--emit", "hip"),
    ("--order", "col"), ("--matrix-a-scale", "row1"), ("--completion", "zsh"),
    ("-w", "64"), ("--format", "long-csv"), ("-a", "gfx942"),
])
def test_bash_completes_the_values_of_every_value_option(option, expected):
    found, _ = bash_complete(option, "")
    assert expected in found and "--help" not in found


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize("words", [["--architecture", "=", "cdna1"], ["-a", "MI100"],
                                   ["-acdna1"], ["--arch", "cdna1"]])
def test_bash_completes_instructions_of_the_architecture_in_any_spelling(words):
    found, _ = bash_complete(*words, "-i", "v_mfma_f32_32x32x8")
    assert found and "v_mfma_f32_32x32x8_f16" not in found  # (CDNA3's spelling)
    assert "v_mfma_f32_32x32x8f16" in found


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_adds_no_space_after_a_filter_key():
    found, said = bash_complete("--filter", "ty")
    assert found == ["type="] and "compopt -o nospace" in said
    found, said = bash_complete("--transp")
    assert found == ["--transpose"] and "nospace" not in said
