"""The other branches' command-line hooks as rows of the option table and modes of
cli_modes: --prefix and the recorded command line of --emit hip, the LDS options, --convert,
--serve/--port/--host, and the --json documents of --list-architectures and
--linear-layout (formats/json_output)."""
import json

import pytest

from matrix_frontends.cli import command as matrix_cli
from matrix_frontends.cli import modes as cli_modes
from matrix_frontends.cli import options as cli_options
from matrix_frontends.cli.lds_mode import LDS_FLAGS, LDS_OPTIONS
from matrix_frontends.explorer import app as matrix_explorer
from tests.helpers import call

CDNA3 = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16"]
PAIR = ["v_mfma_f32_16x16x16_f16:D", "v_mfma_f32_16x16x16_f16:A"]


def test_every_hook_is_a_row_with_a_mode_that_reads_it():
    dests = {dest for dest, _, _ in (*LDS_OPTIONS, *LDS_FLAGS)} | {
        "prefix", "convert", "serve", "port", "host"}
    assert dests <= set(cli_options.BY_DEST)
    read = {dest for mode in cli_modes.MODES for dest in mode.uses}
    assert dests <= read
    assert cli_options.BY_DEST["convert"].kind == cli_options.PAIR
    assert cli_options.BY_DEST["port"].limit == 65535


def test_help_lists_the_new_groups():
    status, out, _ = call(["-h"])
    assert status == 0
    for text in ("LDS load plans:", "--lds-tile", "chaining instructions:",
                 "--convert FROM TO", "layout explorer:", "--serve", "--port", "--prefix"):
        assert text in out, text


def test_the_explorer_reads_its_rows_from_the_table():
    assert [row[1] for row in matrix_explorer.CLI_OPTIONS] == ["--serve", "--port", "--host"]
    assert matrix_explorer.DEFAULT_PORT == cli_options.EXPLORER_PORT == 8642
    offered = {m["name"]: m for m in matrix_explorer.modifier_options()}
    assert offered["matrix_a_fmt"]["names"][:2] == ["fp8", "bf8"]
    assert offered["neg"]["names"] == [] and offered["neg"]["flag"] is False


def test_respond_keeps_its_contract():
    status, text = matrix_cli.respond(["--version"])
    assert status == 0 and text.startswith("matrix_calculator.py ")
    status, text = matrix_cli.respond(["-a", "nope", "-L"])
    assert status == 2 and "unknown architecture 'nope'" in text
    assert matrix_cli.error_line("a\n  b") == "matrix_calculator.py: error: a b"


@pytest.mark.parametrize("args, words", [
    (CDNA3 + ["-A", "--lds-pad", "4"], "give the tile with --lds-tile"),
    (CDNA3 + ["-A", "--lds-tile", "16x64", "--ld", "4"], "gives the global tile of a copy"),
    (CDNA3 + ["-A", "--lds-tile", "16x64", "--color-by", "lane"], "does not use --color-by"),
    (CDNA3 + ["-A", "--lds-tile", "16x64", "--lds-order", "x"], "--lds-order takes k or mn"),
    (CDNA3 + ["-A", "-R", "--prefix", "x"], "(it goes with --emit hip)"),
    (CDNA3 + ["-A", "--linear-layout", "--prefix", "x"], "does not use --prefix"),
    (["-a", "cdna3", "--convert", *PAIR, "-g"], "--convert is a mode of its own: drop -g"),
    (["-a", "cdna3", "--convert", *PAIR, "--lds-tile", "16x64"], "does not use --lds-tile"),
    (["-a", "cdna3", "--convert", PAIR[0]], "--convert takes two words, FROM TO"),
    (["--convert", *PAIR], "--convert needs the architecture"),
    (CDNA3 + ["-g", "-A", "--port", "80"], "does not use --port: drop it (it goes with --serve)"),
    (["--serve", "--port", "x"], "--port takes a port number"),
    (["--serve", "-a", "cdna3"], "takes only --port N and --host H"),
])
def test_misuse_is_one_line(args, words):
    status, out, err = call(args)
    assert (status, out) == (2, "") and words in err and err.count("\n") == 1


def test_lds_plan_reads_format_names_and_draws():
    args = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-A", "--lds-tile",
            "16x128"]
    fp8 = json.loads(call(args + ["--json"])[1])
    fp4 = json.loads(call(args + ["--matrix-a-fmt", "fp4", "--json"])[1])
    assert fp8["mode"] == fp4["mode"] == "lds" and fp8 != fp4
    status, out, _ = call(CDNA3 + ["-A", "--lds-tile", "16x64", "--format", "svg"])
    assert status == 0 and out.startswith("<svg")


def test_convert_answers_text_json_and_hip():
    base = ["-a", "cdna3", "--convert", *PAIR]
    status, out, _ = call(base)
    assert status == 0 and out.split("\n")[1].startswith("Conversion: D of V_MFMA_F32_16X16X16")
    assert json.loads(call(base + ["--json"])[1])["mode"] == "convert"
    status, out, _ = call(base + ["--emit", "hip"])
    assert status == 0 and "__device__" in out


def test_emit_hip_records_the_command_line_and_takes_a_prefix():
    args = CDNA3 + ["-A", "--emit", "hip", "--prefix", "mine"]
    status, out, _ = call(args)
    assert status == 0
    assert out.splitlines()[0].endswith("matrix_calculator.py " + " ".join(args))
    assert "mine_" in out and "mc_a_load" not in out


def test_json_documents_of_the_library_renderers():
    doc = json.loads(call(["--list-architectures", "--json"])[1])
    assert doc["mode"] == "architectures" and doc["architectures"][0]["name"]
    doc = json.loads(call(CDNA3 + ["-A", "--linear-layout", "--json"])[1])
    assert doc["mode"] == "linear_layout" and doc["modifiers"]["cbsz"] == 0
    assert doc["bases"]["lane"][:2] == [[1, 0], [2, 0]]


@pytest.mark.parametrize("option, value, words", [
    ("--k-steps", "9" * 5000, "--k-steps takes 0 to 1024"),
    ("--lds-pad", "9" * 4000, "--lds-pad takes 0 to 1048576"),
    ("--lds-base", "x", "--lds-base takes 0 to 1048576 (a whole number in ASCII digits)"),
])
def test_lds_numbers_are_bounded_before_use(option, value, words):
    status, out, err = call(CDNA3 + ["-A", "--lds-tile", "16x64", option, value])
    assert (status, out) == (2, "") and words in err and len(err) < 200
