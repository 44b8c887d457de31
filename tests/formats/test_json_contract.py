"""One JSON contract: every --json output of every mode carries schema_version
and mode and validates against the shipped schema; the test covers every mode the schema
names (a new mode adds its command line here)."""
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from formats import json_output
from instructions import ARCHITECTURES
from matrix_library import api
from tests.helpers import call, swept

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "formats" / "output.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA)
CDNA3 = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]
LDS = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x64"]
GFX1250 = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16"]

# One command line (or more) per mode of the schema.
COMMANDS = {
    "version": [["--version"]],
    "architectures": [["--list-architectures"]],
    "list": [["-a", "rdna4", "-L"]],
    "detail": [CDNA3 + ["-d"], GFX1250 + ["-d"], CDNA3 + ["-d", "--product", "mi300x"]],
    "get": [CDNA3 + ["-g", "-A", "-I", "3", "-K", "2"], CDNA3 + ["-g", "-D", "-o"]],
    "entry": [CDNA3 + ["-m", "-B", "-r", "1", "-l", "5"]],
    "register_layout": [CDNA3 + ["-R", "-C"]],
    "matrix_layout": [GFX1250 + ["-M", "-A"]],
    "catalog": [["--catalog", "--filter", "type=fp8"], ["-L", "-a", "all", "-w", "32"],
                ["--catalog", "-a", "cdna4", "--product", "mi355x"]],
    "linear_layout": [CDNA3 + ["--linear-layout", "-B"],
                      CDNA3 + ["--linear-layout", "-B", "--blgp", "0"],
                      ["-a", "cdna3", "-i", "v_mfma_f32_16x16x4_4b_f16", "--linear-layout", "-A",
                       "--cbsz", "2", "--abid", "1"]],
    "export": [CDNA3 + ["--emit", "cute", "-A"], CDNA3 + ["--emit", "gluon", "-D"],
               ["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "--emit", "gluon", "-B"],
               ["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "--emit", "cute", "-C"]],
    "lds": [LDS + ["--load", "ds_read_b64"]],
    "lds_search": [LDS + ["--lds-search"]],
    "lds_copy_search": [LDS + ["--copy", "global_load_dwordx4+ds_write_b64", "--load",
                               "ds_read_b64", "--lds-search"]],
    "lds_copy": [LDS + ["--copy", "global_load_dwordx4+ds_write_b64", "--load", "ds_read_b64"],
                 ["-a", "gfx950", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "-A", "--cbsz", "4",
                  "--lds-type", "bf16", "--lds-tile", "16x128", "--copy", "buffer_load_dwordx4",
                  "--lds-swizzle", "xor:4^8,5^9,7^10"],
                 GFX1250 + ["-A", "--lds-tile", "16x32", "--copy", "tensor_load_to_lds",
                            "--tdm-pad-interval", "16", "--tdm-pad-amount", "4", "--lds-pad", "8"]],
    "convert": [["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16:D",
                 "v_mfma_f32_16x16x16_f16:A"]],
    "products": [["--list-products"], ["--list-products", "-a", "rdna4"]],
    "budget": [CDNA3 + ["--budget", "--wave-tile", "2x2", "--waves-per-group", "2x2"],
               CDNA3 + ["--budget", "--product", "mi325x", "--k-steps", "2"]],
    "preshuffle": [["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4", "--B-scale",
                    "--preshuffle", "--supertile", "2x2", "--preset", "aiter-scale"]],
    "store": [["-a", "cdna4", "-i", "v_mfma_f32_16x16x32_bf16", "--store-d", "--store-type",
               "bf16"]],
    "compare": [["-a", "sm80", "-i", "mma.m16n8k16.f32.f16.f16.f32", "-D", "--compare",
                 "gfx1100:v_wmma_f32_16x16x16_f16"],
                ["-a", "gfx942", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--compare",
                 "sm89:mma.m16n8k16.f32.f16.f16.f32"]],
}


def valid(doc, where):
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, f"{where}: {errors[0].message[:300]} at {list(errors[0].absolute_path)}"
    assert doc["schema_version"] == json_output.SCHEMA_VERSION
    return doc


def test_every_mode_of_the_schema_is_tried():
    assert set(COMMANDS) == set(SCHEMA["properties"]["mode"]["enum"])


@pytest.mark.parametrize("mode, argv", [(m, a) for m, argvs in COMMANDS.items() for a in argvs],
                         ids=[f"{m}-{n}" for m, argvs in COMMANDS.items()
                              for n in range(len(argvs))])
def test_every_json_output_validates(mode, argv):
    for extra in (["--json"], ["--json", "--compact"]):
        status, out, err = call(argv + extra)
        assert (status, err) == (0, ""), (argv, err)
        if "--compact" in extra and mode == "architectures":
            out = json.dumps(json.loads(out))  # (compact or not: the same document)
        doc = valid(json.loads(out), argv)
        assert doc["mode"] == mode


@pytest.mark.slow
def test_every_operands_linear_layout_validates():
    """--linear-layout --json of every operand of every instruction in every wave size:
    schema_version, mode, and null (not "") where there is no reason or note."""
    count = 0
    for arch in ARCHITECTURES:
        for inst in swept(arch):
            for wave in inst.wave_sizes:
                for matrix in api.matrices(inst):
                    found = api.linear_layout(inst, matrix, wave=wave)
                    doc = valid(json.loads(json_output.linear_layout(
                        inst, matrix, api.modifiers(), wave, found)), (inst.name, matrix, wave))
                    assert doc["mode"] == "linear_layout"
                    assert (doc["bases"] is None) == (doc["reason"] is not None)
                    assert doc["note"] != ""
                    count += 1
    assert count > 1000


def test_list_architectures_json_says_what_the_text_says():
    doc = valid(json.loads(call(["--list-architectures", "--json"])[1]), "architectures")
    assert [a["name"] for a in doc["architectures"]] == [a.name for a in ARCHITECTURES]
    status, text, _ = call(["--list-architectures"])
    for entry in doc["architectures"]:
        line = next(x for x in text.splitlines() if x.split()[:1] == [entry["name"].lower()])
        assert all(alias in line for alias in entry["aliases"])
        assert "/".join(map(str, entry["waves"])) in line


def test_a_document_without_its_mode_keys_fails():
    """(the checks above can fail: the schema refuses a document that lacks its keys or
    writes "" for a missing reason)"""
    inst = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    doc = json.loads(json_output.linear_layout(inst, "B", api.modifiers(), 64,
                                               api.linear_layout(inst, "B", wave=64)))
    assert not VALIDATOR.is_valid({k: v for k, v in doc.items() if k != "schema_version"})
    assert not VALIDATOR.is_valid({**doc, "reason": ""})
    assert not VALIDATOR.is_valid({"schema_version": 1, "mode": "architectures"})


@pytest.mark.parametrize("fmt", ["long-csv"])  # (jsonl: one instruction a line)
def test_the_catalog_refuses_the_long_forms_clearly(fmt):
    status, out, err = call(["--catalog", "--format", fmt])
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "-R or -M" in err and "Traceback" not in err
