"""The command line that helps: suggestions in error messages, failed writes, grouped
help with architectures and examples, --list-architectures, shell completion generated
from the option table, --format dispatch, --json --compact and --json-schema."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from instructions import ARCHITECTURES
from matrix_frontends.cli import command as matrix_cli
from matrix_frontends.cli import options as cli_options
from tests.helpers import call
from tests.helpers.completion import bash_complete

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "matrix_calculator.py")


def error(argv):
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
    return err


# ---- did you mean

def test_a_misspelt_instruction_gets_suggestions_and_its_other_architectures():
    err = error(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8f16", "-g", "-A"])
    assert "did you mean v_mfma_f32_32x32x8_f16" in err
    assert "v_mfma_f32_32x32x8f16 is an instruction of CDNA1 and CDNA2" in err


def test_an_instruction_of_another_architecture_is_named_with_it():
    err = error(["-a", "cdna1", "-i", "v_wmma_f32_16x16x16_f16", "-g", "-A"])
    assert "is an instruction of RDNA3 and RDNA4" in err


@pytest.mark.parametrize("value, suggested", [("cdna4x", "cdna4"), ("gfx9422", "gfx942"),
                                              ("mi300xx", "mi300x"), ("rdan3", "rdna3")])
def test_an_unknown_architecture_gets_suggestions(value, suggested):
    assert f"did you mean {suggested}" in error(["-a", value, "-L"])


@pytest.mark.parametrize("word, suggested", [("--transpsoe", "--transpose"),
                                             ("--markdwn", "--markdown"),
                                             ("--frmat", "--format")])
def test_an_unknown_option_gets_a_suggestion(word, suggested):
    err = error(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A", word])
    assert f"did you mean {suggested}?" in err and "-h" in err


def test_an_unknown_format_names_the_formats():
    err = error(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A", "--format", "rest"])
    assert "'rest'" in err and "long-csv" in err and "did you mean rst" in err
    assert "--format" in error(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A",
                                "--format"])
    assert "--csv" in error(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A",
                             "--format", "rst", "--csv"])
    assert "--json" in error(["-a", "cdna3", "-L", "--format", "rst", "--json"])


# ---- failed writes

def run_script(args, **kwargs):
    return subprocess.run([sys.executable, SCRIPT] + args, text=True, timeout=60, check=False,
                          **kwargs)


FULL = "/dev/full"


@pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["-a", "cdna3", "-L"], ["--help"],
                                  ["-a", "cdna3", "-i", "v_mfma_f32_32x32x1_2b_f32", "-R",
                                   "-D"], ["--completion", "bash"]], ids=" ".join)
def test_a_full_disk_is_one_line_and_status_1(args):
    with open(FULL, "w") as full:
        proc = run_script(args, stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 1
    assert proc.stderr == "matrix_calculator.py: error: cannot write output: " \
                          "No space left on device\n"


@pytest.mark.skipif(os.name != "posix", reason="closes a file descriptor (POSIX)")
@pytest.mark.parametrize("args", [["-a", "cdna3", "-L"], ["--help"]], ids=" ".join)
def test_a_closed_stdout_is_one_line_and_status_1(args):
    command = f'exec "{sys.executable}" "{SCRIPT}" {" ".join(args)} >&-'
    proc = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=False,
                          timeout=60)
    assert proc.returncode == 1
    assert proc.stderr == "matrix_calculator.py: error: cannot write output: " \
                          "standard output is closed\n"


def test_a_stream_closed_in_process_is_reported(monkeypatch):
    import io
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stdout", closed)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert matrix_cli.main(["-a", "cdna3", "-L"]) == 1
    assert err.getvalue().startswith("matrix_calculator.py: error: cannot write output: ")


# ---- help, architectures, completion

def test_help_groups_options_lists_architectures_and_ends_with_examples():
    status, out, err = call(["-h"])
    assert status == 0 and err == ""
    titles = list(cli_options.GROUPS)
    at = [out.index(f"\n{title}:\n") for title in titles]
    assert at == sorted(at)
    for arch in ARCHITECTURES:
        assert arch.name.lower() in out and all(alias in out for alias in arch.aliases)
    examples = out.split("\nexamples:\n", 1)[1]
    assert examples.count("matrix_calculator.py -") == len(matrix_cli.EXAMPLES)
    for _, args in matrix_cli.EXAMPLES:  # every example runs
        status, example_out, _ = call(args.split())
        assert status == 0 and example_out


def test_every_option_is_in_a_help_group_and_has_one_row():
    assert {o.group for o in matrix_cli.OPTIONS} == set(cli_options.GROUPS)
    dests = [o.dest for o in matrix_cli.OPTIONS]
    assert len(dests) == len(set(dests))
    spellings = [s for o in matrix_cli.OPTIONS for s in o.spellings]
    assert len(spellings) == len(set(spellings))
    out = call(["-h"])[1]
    assert all(s in out for s in spellings)


def test_list_architectures():
    status, out, _ = call(["--list-architectures"])
    assert status == 0
    lines = out.split("\n\n")[0].splitlines()[1:]  # (the LLVM targets follow)
    assert [line.split()[0] for line in lines] == [a.name.lower() for a in ARCHITECTURES]
    assert "gfx942" in out and "mi355x" in out and "wave32/64" in out


def test_the_installed_name_is_used_when_run_as_matrix_calculator(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/usr/bin/matrix-calculator"])
    assert matrix_cli.program_name() == "matrix-calculator"
    out = call(["--version"])[1]
    assert out == f"matrix-calculator {matrix_cli.__version__}\n"
    assert call(["-h"])[1].startswith("usage: matrix-calculator")
    monkeypatch.setattr(sys, "argv", ["matrix_calculator.py"])
    assert call(["--version"])[1].startswith("matrix_calculator.py ")


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_scripts_name_every_option_spelling(shell):
    """Each once: an underscore twin of a dashed spelling is read, not offered."""
    from matrix_frontends.cli.completion import shown_spellings
    status, out, _ = call(["--completion", shell])
    assert status == 0
    for word in shown_spellings():
        assert word in out, word
    twins = [w for w in matrix_cli.spellings() if w not in shown_spellings()]
    assert twins and all("_" in w and w.replace("_", "-") in shown_spellings() for w in twins)
    assert "long-csv" in out and "gfx942" in out and "v_mfma_f32_32x32x8_f16" in out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completion_completes_options_values_and_instructions_of_the_architecture():
    assert bash_complete(["--transp"]) == ["--transpose"]
    assert bash_complete(["-a", "gfx94"]) == ["gfx940", "gfx941", "gfx942"]
    assert bash_complete(["--format", "long"]) == ["long-csv"]
    found = bash_complete(["-a", "cdna1", "-i", "v_mfma_f32_32x32x8"])
    assert found == ["v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8f16"] or \
        all(f.startswith("v_mfma_f32_32x32x8") for f in found)
    assert "v_wmma_f32_16x16x16_f16" not in bash_complete(["-a", "cdna3", "-i", "v_"])


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_the_zsh_script_is_valid_zsh():
    script = call(["--completion", "zsh"])[1]
    proc = subprocess.run(["zsh", "-n"], input=script, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr


# ---- JSON

def test_json_compact_is_one_line_and_the_same_document():
    argv = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-R", "-A", "--json"]
    pretty, compact = call(argv)[1], call(argv + ["--compact"])[1]
    assert compact.count("\n") == 1 and json.loads(compact) == json.loads(pretty)
    assert len(compact) < len(pretty) / 2
    assert "--json" in error(argv[:-1] + ["--compact"])


def test_format_json_is_json():
    argv = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"]
    assert call(argv + ["--format", "json"]) == call(argv + ["--json"])


def test_json_schema_prints_the_packaged_schema():
    status, out, _ = call(["--json-schema"])
    assert status == 0
    assert out == (ROOT / "formats" / "output.schema.json").read_text(encoding="utf-8")
    assert json.loads(out)["$schema"].startswith("https://json-schema.org/")


# ---- --format: documents for -R/-M, point queries unchanged

def test_point_queries_refuse_format_but_ignore_the_legacy_flags():
    """--format is ours: a mode that does not use it refuses it; --markdown is the
    reference's, which point queries ignore as the reference does."""
    argv = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"]
    assert call(argv + ["--markdown"]) == call(argv)
    for mode in (["-g", "-A"], ["-m", "-A"], ["-d"], ["-L"], ["--emit", "hip"]):
        err = error(argv[:4] + mode + ["--format", "rst"])
        assert "--format" in err and "drop it" in err


def test_long_forms_need_a_layout():
    assert "-R or -M" in error(["--catalog", "--format", "long-csv"])
