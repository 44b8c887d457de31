"""The documents of --format, --emit hip, --convert and --compare answer one Request:
the command line builds it, answer() checks it once and computes what the renderer
reads, and the renderer asks the library to resolve or check nothing again."""
from __future__ import annotations

import pytest

from formats import documents, hip
from matrix_frontends.cli.respond import respond
from matrix_library import api, bulk, checks, code, compare, conversion, queries, request

CDNA3 = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]
F8F6F4 = ["-a", "gfx950", "-i", "v_mfma_f32_16x16x128_f8f6f4"]
SCALED = ["-a", "gfx1250", "-i", "v_wmma_scale_f32_16x16x128_f8f6f4", "--matrix-a-fmt", "fp4",
          "--matrix-b-scale", "row1"]
CONVERT = ["-a", "cdna3", "--convert", "v_mfma_f32_16x16x16_f16:D", "v_mfma_f32_16x16x16_f16:A"]
PORT = ["-a", "gfx1100", "--convert", "sm80:mma.m16n8k16.f32.f16.f16.f32:A",
        "v_wmma_f32_16x16x16_f16:A"]
COMPARE = ["-a", "sm80", "-i", "mma.m16n8k16.f32.f16.f16.f32", "-D", "--compare",
           "gfx1100:v_wmma_f32_16x16x16_f16"]


def counted(monkeypatch, calls: dict[str, int], module: object, name: str) -> None:
    """Count the calls of `module.name` in `calls[name]`."""
    function = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls[name] = calls.get(name, 0) + 1
        return function(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapper)


def answered(argv: list[str], monkeypatch, *counts: tuple[object, str]) -> dict[str, int]:
    """The calls of answer, checked and `counts` while respond(argv) answers (status 0)."""
    calls: dict[str, int] = {}
    for module, name in ((request, "answer"), (request, "checked"), *counts):
        counted(monkeypatch, calls, module, name)
    status, out = respond(argv)
    assert status == 0 and out, out
    return calls


@pytest.mark.parametrize("argv", [
    CDNA3 + ["-R", "-A", "--format", "csv"], CDNA3 + ["-M", "-B", "--format", "markdown"],
    CDNA3 + ["-R", "-C", "--format", "rst", "--transpose"],
    CDNA3 + ["-R", "-A", "--format", "long-csv"], CDNA3 + ["-M", "-A", "--format", "jsonl"],
    CDNA3 + ["-R", "-A", "--format", "svg"],
    CDNA3 + ["-M", "-B", "--format", "html", "--color-by", "lane"],
    F8F6F4 + ["-R", "-A", "--cbsz", "2", "--format", "svg"],
    F8F6F4 + ["-M", "-B", "--blgp", "4", "--format", "tsv"]])
def test_a_format_document_is_drawn_from_one_checked_operand(argv, monkeypatch):
    calls = answered(argv, monkeypatch, (queries, "checked_operand"),
                     (bulk, "checked_operand"))
    assert calls == {"answer": 1, "checked": 1, "checked_operand": 1}


def _poison(monkeypatch) -> None:
    """Make every check and resolve of an operand, and answer(), fail if called."""
    def refused(*_args, **_kwargs):
        raise AssertionError("the renderer asked the library again")
    for module, name in ((checks, "_modifiers"), (checks, "check_matrix"),
                         (queries, "checked_operand"), (bulk, "checked_operand"),
                         (request, "answer")):
        monkeypatch.setattr(module, name, refused)


@pytest.mark.parametrize("fmt", ["csv", "markdown", "long-csv", "jsonl", "svg", "html"])
@pytest.mark.parametrize("view", ["rlayout", "mlayout"])
def test_the_documents_render_the_answer_alone(fmt, view, monkeypatch):
    inst = api.find_instruction("gfx950", "v_mfma_f32_16x16x128_f8f6f4")
    found = api.answer(api.Request("query", inst=inst, matrix="A", mods=api.Modifiers(cbsz=2),
                                   options=(("query", view),
                                            ("document", documents.form(fmt)))))
    expected = documents.render(fmt, documents.Query(found, True))
    _poison(monkeypatch)
    assert documents.render(fmt, documents.Query(found, True)) == expected
    assert ("A FP6, B FP8" in expected) == (fmt in ("svg", "html"))  # (a picture names the types)


@pytest.mark.parametrize("argv", [
    CDNA3 + ["-A", "--emit", "hip"], CDNA3 + ["-D", "--emit", "hip", "--ld", "64"],
    F8F6F4 + ["-B", "--emit", "hip", "--blgp", "2"], SCALED + ["--B-scale", "--emit", "hip"],
    ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-w", "64", "-A", "--emit", "hip",
     "--neg", "1"]])
def test_emit_hip_of_a_matrix_checks_its_operand_once(argv, monkeypatch):
    calls = answered(argv, monkeypatch, (checks, "check_matrix"))
    assert calls == {"answer": 1, "checked": 1, "check_matrix": 1}


@pytest.mark.parametrize("argv", [
    CDNA3 + ["--emit", "hip"], F8F6F4 + ["--emit", "hip", "--cbsz", "4", "--blgp", "2"],
    SCALED + ["--emit", "hip", "--lds"],
    ["-a", "rdna4", "-i", "v_swmmac_f32_16x16x32_f16", "--emit", "hip", "--opsel", "1"]])
def test_the_hip_example_checks_each_operand_once(argv, monkeypatch):
    calls = answered(argv, monkeypatch, (code, "code"), (code, "operand"))
    inst = api.find_instruction(argv[1], argv[3])
    assert calls == {"answer": 1, "checked": 1, "code": 1, "operand": len(api.matrices(inst))}


@pytest.mark.parametrize("matrix", [None, "A", "B", "D"])
def test_the_hip_writer_reads_the_answer_alone(matrix, monkeypatch):
    inst = api.find_instruction("gfx950", "v_mfma_f32_16x16x128_f8f6f4")
    found = api.answer(api.Request("emit", inst=inst, matrix=matrix,
                                   mods=api.Modifiers(cbsz=2, blgp=4), wave=64))
    options = hip.Options(ld=128, order="col")
    expected = hip.emit(inst, matrix, {"cbsz": 2, "blgp": 4}, 64, options)
    _poison(monkeypatch)
    assert hip.written(found, options) == expected
    assert found.inst.a_type.key == "fp6" and found.inst.b_type.key == "fp4"
    assert [op.matrix for op in found.operands] == ([matrix] if matrix else ["A", "B", "C", "D"])


@pytest.mark.parametrize(("argv", "module", "engine"), [
    (CONVERT, conversion, "conversion"), (CONVERT + ["-o"], conversion, "conversion"),
    (CONVERT + ["--json"], conversion, "conversion"),
    (CONVERT + ["--emit", "hip"], conversion, "conversion"),
    (PORT, conversion, "port"), (PORT + ["--emit", "hip"], conversion, "port"),
    (COMPARE, compare, "compare"), (COMPARE + ["-I", "3", "-J", "5", "--json"], compare,
                                    "compare")])
def test_convert_and_compare_answer_one_request(argv, module, engine, monkeypatch):
    calls = answered(argv, monkeypatch, (module, engine))
    assert calls == {"answer": 1, "checked": 1, engine: 1}


def test_the_conversion_requests_answer_as_the_library_calls_do():
    mfma = api.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    for transposed, kind in ((False, "cross-lane"), (True, "in-lane")):
        planned = api.answer(api.Request("convert", inst=mfma, matrix="A", options=(
            ("source", mfma), ("source_matrix", "D"), ("transposed", transposed))))
        assert planned == api.conversion(mfma, "D", mfma, "A", transposed=transposed)
        assert (planned.transposed, planned.kind) == (transposed, kind)
    nv = api.find_instruction("sm80", "mma.m16n8k16.f32.f16.f16.f32")
    wmma = api.find_instruction("gfx1100", "v_wmma_f32_16x16x16_f16")
    ported = api.answer(api.Request("port", inst=wmma, matrix="A", options=(
        ("source", nv), ("source_matrix", "A"))))
    assert ported == api.port(nv, "A", wmma, "A") and ported.architecture == "RDNA3"
    side = api.answer(api.Request("compare", inst=nv, matrix="D", options=(
        ("other", wmma), ("element", (3, 5)))))
    assert side == api.compare(nv, wmma, "D", element=(3, 5))
    assert [cell.element for cell in side.cells] == ["D[3][5]"]
    with pytest.raises(api.CalcError, match="source of a conversion is C or D"):
        api.answer(api.Request("convert", inst=mfma, matrix="A", options=(
            ("source", mfma), ("source_matrix", "A"))))
