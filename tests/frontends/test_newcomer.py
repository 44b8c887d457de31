"""The defects a newcomer hit, each pinned: what the command says with no
arguments or no mode, the architecture list in every table form, the catalog as JSON
Lines, the corner of a transposed -M table, and what completion offers."""
import json
import shutil
import subprocess
import sys

import pytest

from tests.helpers import call
from tests.helpers.completion import bash_complete

QUERY = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]


def error_of(argv):
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    return err


def test_no_arguments_point_at_a_query_and_at_help():
    err = error_of([])
    assert "-h" in err and "-a cdna3 -L" in err and "needs a value" not in err


def test_a_query_without_a_mode_names_every_mode():
    err = error_of(QUERY + ["-A"])
    assert all(flag in err for flag in ("-g", "-m", "-R", "-M", "-d", "-L"))


@pytest.mark.parametrize("fmt", ["rst", "latex", "mediawiki"])
def test_the_architecture_list_is_titled_architectures(fmt):
    status, out, _ = call(["--list-architectures", "--format", fmt])
    assert status == 0 and "Architectures" in out and "Instruction catalog" not in out


@pytest.mark.parametrize("flag, mark", [("--markdown", "|--"), ("--csv", "architecture,waves"),
                                        ("--asciidoc", "|===")])
def test_the_architecture_list_takes_the_legacy_table_flags(flag, mark):
    status, out, _ = call(["--list-architectures", flag])
    assert status == 0 and mark in out and "gfx942" in out


def test_the_architecture_list_and_the_catalog_take_html_and_jsonl():
    status, out, _ = call(["--list-architectures", "--format", "html"])
    assert status == 0 and "<table" in out and "<h1>Architectures</h1>" in out
    status, out, _ = call(["--list-architectures", "--format", "jsonl"])
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and {"name": "CDNA3", "waves": [64]}.items() <= lines[2].items()
    status, out, _ = call(["-a", "cdna3", "--catalog", "--format", "jsonl"])
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(rows) == len(call(["-a", "cdna3", "-L"])[1].splitlines()) - 1
    whole = json.loads(call(["-a", "cdna3", "--catalog", "--json"])[1])
    assert rows == whole["instructions"]  # (the objects of --json, one a line)


def test_a_transposed_matrix_layout_heads_its_register_column_register():
    """The reference's text keeps `lane` there (quirk transposed_lane_corner); --format
    tables and architectures beyond the reference say what the column holds."""
    legacy = call(QUERY + ["-M", "-A", "--transpose", "--csv"])[1].splitlines()[2]
    assert legacy.startswith("lane,0,1,")
    ours = call(QUERY + ["-M", "-A", "--transpose", "--format", "csv"])[1]
    assert "register,0,1," in ours and "lane,0,1" not in ours
    cdna4 = call(["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_f16", "-M", "-A", "--transpose",
                  "--csv"])[1].splitlines()[2]
    assert cdna4.startswith("register,0,1,")
    plain = call(QUERY + ["-M", "-A", "--format", "csv"])[1]
    assert "lane,v0" in plain.replace(" ", "")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_completion_offers_files_lds_names_convert_filters_and_any_case(tmp_path):
    (tmp_path / "queries.txt").write_text("-a cdna3 -L\n")
    assert bash_complete(["--batch", str(tmp_path / "que")]) == [str(tmp_path / "queries.txt")]
    assert "ds_read_b64_tr_b16" in bash_complete(["-a", "cdna4", "--load", "ds_read_b64"])
    assert bash_complete(["--lds-model", "rocr"]) == ["rocroller"]
    assert "v_mfma_f32_32x32x8_f16" in bash_complete(["-a", "cdna3", "--convert",
                                                      "v_mfma_f32_32x32x8"])
    assert set(bash_complete(["--filter", "type", "=", "bf"])) >= {"bf16", "bf8"}
    assert "cdna3" in bash_complete(["--filter", "arch", "=", ""])
    assert "v_wmma_f32_16x16x16_f16" in bash_complete(["-a", "rdna3", "-i", "V_WMMA_F32_16"])


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_the_zsh_script_completes_files_and_filter_values():
    script = call(["--completion", "zsh"])[1]
    assert "--batch=" in script and ":batch:_files'" in script
    assert "(type) found=(" in script
    proc = subprocess.run(["zsh", "-n"], input=script, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr




def test_the_library_lists_its_lazy_names():
    """dir() and help() name the whole API before any lazy part is loaded (a fresh
    interpreter: tab completion sees what the docs promise)."""
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import matrix_calculator, pydoc; "
             "import matrix_calculator as mc; "
             "names = set(dir(mc)); text = pydoc.render_doc(mc, renderer=pydoc.plaintext); "
             "wanted = {'facts', 'catalog', 'formulas', 'linear_layout', 'lds_plan', 'answer', "
             "'Facts', 'Request', 'value_meanings'}; "
             "print(sorted(wanted - names), [w for w in sorted(wanted) if w not in text])")
    from pathlib import Path
    root = str(Path(__file__).resolve().parents[2])
    proc = subprocess.run([sys.executable, "-c", probe, root], capture_output=True, text=True)
    assert proc.stdout.split("\n")[0] == "[] []", proc.stdout + proc.stderr


def test_the_help_synopsis_shows_the_shapes_of_a_query():
    """-h opens with the command line's shapes, not every option with an optional value."""
    status, out, _ = call(["-h"])
    synopsis = out.split("\n\n", 1)[0]
    assert status == 0 and "[-a [ARCH]]" not in out and len(synopsis.splitlines()) <= 6
    assert "-a ARCH -i INSTRUCTION {-g,-m,-R,-M}" in synopsis and "-d" in synopsis
    assert "documentation: the docs/ pages named above are in" in out


def test_readme_example_6_is_a_table_pandoc_reads():
    """A Markdown table needs a blank line before it (pandoc -f gfm: else 0 rows): the
    README's example prints a heading, a blank line, then the table's 16 rows."""
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    example = readme.split("\n6. ", 1)[1].split("\n7. ", 1)[0]
    command = example.split("`matrix-calculator ", 1)[1].split("`", 1)[0].split()
    status, out, _ = call(command)
    lines = out.splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith("|"))
    assert status == 0 and first >= 1 and lines[first - 1] == ""
    assert sum(line.startswith("| ") and not line.startswith("|--") for line in lines) == 17


@pytest.mark.parametrize("argv", [
    ["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-M", "-A", "--cbsz", "2"],
    ["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-M", "-B", "--blgp", "3"]],
    ids=["fp6-A-M", "bf6-B-M"])
def test_no_vgpr_border_runs_through_a_cell(argv):
    """fp6/bf6 values straddle two VGPRs: the VGPR border is cut where such a cell
    crosses it, so no border runs through a label."""
    import re
    status, svg, _ = call(argv + ["--format", "svg"])
    number = r"(-?[\d.]+)"
    cells = [tuple(map(float, m)) for m in re.findall(
        rf'<rect class="cell" x="{number}" y="{number}" width="{number}" height="{number}"',
        svg)]
    borders = [tuple(map(float, m)) for m in re.findall(
        rf'<line x1="{number}" y1="{number}" x2="{number}" y2="{number}"[^>]*class="border"',
        svg)]
    assert status == 0 and cells and borders
    for x1, y1, x2, y2 in borders:
        for x, y, w, h in cells:
            if y1 == y2:  # horizontal: may not pass strictly inside a cell
                assert not (y < y1 < y + h and min(x2, x + w) - max(x1, x) > 1e-6)
            else:
                assert not (x < x1 < x + w and min(y2, y + h) - max(y1, y) > 1e-6)



def test_a_pasted_instruction_name_keeps_no_trailing_whitespace(run):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16 ", "-g", "-A", "-I", "5",
                        "-K", "6"])
    assert (rc, err) == (0, "") and out.endswith("A[5][6] = v1{37}.[15:0]\n")
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16\t\n", "-d"])
    assert rc == 0 and "V_MFMA_F32_32X32X8_F16" in out
    # a leading space is refused, as the reference refuses it (its record #578)
    rc, out, err = run(["-a", "cdna3", "-i", "\tv_mfma_f32_32x32x8_f16", "-d"])
    assert rc == 2 and out == "" and err.count("\n") == 1


def test_the_readme_fp8_example_finds_nvidias_fp8(run):
    rc, out, err = run(["--catalog", "--filter", "type=fp8", "--filter", "vendor=nvidia", "-c"])
    assert rc == 0 and out.count("\n") > 1 and "e4m3" in out


# ---- completion and messages a newcomer meets

def test_completion_offers_products_and_the_architectures_own_loads():
    from instructions.products import PRODUCTS, key_of
    assert set(bash_complete(["--product", ""])) >= {key_of(p.name) for p in PRODUCTS}
    assert "mi355x" in bash_complete(["-a", "cdna4", "--product", "mi3"])
    cdna3 = bash_complete(["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "--load", "ds_read"])
    assert "ds_read_b64" in cdna3 and not [w for w in cdna3 if "_tr_" in w]
    assert "ds_read_b64_tr_b16" in bash_complete(["-a", "gfx950", "--load", "ds_read"])
    assert "ds_load_tr16_b128" in bash_complete(["-agfx1250", "--load", "ds_"])


def test_completion_offers_each_option_once():
    words = bash_complete(["--"])
    assert "--matrix-layout" in words and "--matrix_layout" not in words
    assert len(words) == len(set(words))
    assert bash_complete(["--matrix_lay"]) == []  # (still read: not offered)


def test_a_one_block_instruction_says_it_has_one(run):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "0",
                        "-K", "0", "-b", "1"])
    assert rc == 2 and "use 0 (it has only one)" in err and "0 to 0" not in err


def test_a_modifier_with_one_allowed_value_says_so(run):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "-g", "-A", "-I", "0",
                        "-K", "0", "--abid", "1"])
    assert rc == 2 and out == "" and "with CBSZ 0: use 0 (the only value here)." in err
    assert "0 to 0" not in err


def test_the_store_type_help_names_every_type_a_store_takes(run):
    from matrix_library.epilogue import STORE_TYPES
    rc, out, err = run(["-h"])
    text = " ".join(out.split())
    named = text.split("with --store-d: the stored type (", 1)[1].split(";", 1)[0]
    assert named.split(", ") == list(STORE_TYPES)


def test_the_wave_size_without_a_value_names_the_sizes(run):
    rc, out, err = run(["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-g", "-A", "-w"])
    assert rc == 2 and err.endswith("the -w/--wavefront option needs a value: 32 or 64\n")


def test_vendors_are_written_as_they_write_themselves(run):
    rc, out, err = run(["-a", "sm80", "--emit", "probe"])
    assert rc == 2 and "NVIDIA's" in err and "nvidia's" not in err


def test_convert_with_one_word_names_both(run):
    rc, out, err = run(["-a", "cdna3", "--convert", "v_mfma_f32_32x32x8_f16:D"])
    assert rc == 2 and "--convert takes two words, FROM TO" in err
    assert "expected 2 arguments" not in err


def test_latex_writes_a_bar_as_textbar(run):
    args = ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-R", "-C", "--neg_hi", "4"]
    for fmt in ("latex", "latex_booktabs", "latex_longtable"):
        rc, out, err = run(args + ["--format", fmt])
        assert rc == 0 and "|" not in out and "\\textbar{}v0\\{0\\}\\textbar{}" in out, fmt
