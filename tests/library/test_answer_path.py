"""One answer path: every front end builds a Request and calls answer(request) once; the
renderers read that answer; matrix_library.api is plain imports and a documented
__all__. The point query's run is traced: the product files whose functions run."""
from __future__ import annotations

import contextlib
import inspect
import io
import os
import sys
from pathlib import Path

import pytest

import matrix_calculator
from matrix_library import api, bulk, queries, request

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("instructions", "layouts", "matrix_plans", "matrix_library", "formats",
           "matrix_frontends")
POINT = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "5", "-K", "6"]
COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
OPTIMIZED = inspect.CO_OPTIMIZED  # (functions; module and class bodies lack it)


def _product_file(filename: str) -> str | None:
    path = Path(os.path.normpath(filename))  # (a module found through "scripts/..")
    if not path.is_absolute() or ROOT not in path.parents:
        return None
    relative = path.relative_to(ROOT)
    if relative.parts[0] in PRODUCT or str(relative) == "matrix_calculator.py":
        return str(relative)
    return None


def traced_files(argv: list[str]) -> tuple[str, set[str]]:
    """(the output, the product files in which a function ran) of one command line run
    in this process, after one warm-up run (the modules' bodies, loaded once)."""
    with contextlib.redirect_stdout(io.StringIO()):
        matrix_calculator.main(argv)
    files: set[str] = set()

    def profile(frame, event, _arg):
        if event != "call":
            return
        code = frame.f_code
        while code.co_name in COMPREHENSIONS and frame.f_back is not None:
            frame = frame.f_back  # (a comprehension counts as the code around it)
            code = frame.f_code
        if code.co_flags & OPTIMIZED:
            found = _product_file(code.co_filename)
            if found is not None:
                files.add(found)
    out = io.StringIO()
    sys.setprofile(profile)
    try:
        with contextlib.redirect_stdout(out):
            matrix_calculator.main(argv)
    finally:
        sys.setprofile(None)
    return out.getvalue(), files


# The product files a point query runs functions in: the command line (command, options,
# respond, modes, inputs), the library (request, queries, records), the tables (model),
# the engine (layouts, core) and the renderer (queries). A change that spreads the query
# further fails here.
POINT_FILES = 12


def test_the_point_query_runs_code_in_a_bounded_number_of_product_files():
    output, files = traced_files(POINT)
    assert output == ("Architecture: CDNA3\nInstruction: V_MFMA_F32_32X32X8_F16\n"
                      "A[5][6] = v1{37}.[15:0]\n")
    assert len(files) <= POINT_FILES, f"{len(files)} files: {sorted(files)}"


def test_the_point_query_reads_no_api_or_planner():
    """The command line asks matrix_library.request, not the facade, and no planner."""
    _, files = traced_files(POINT)
    assert "matrix_library/api.py" not in files
    assert not [f for f in files if f.startswith("matrix_plans/")]
    assert [f for f in files if f.startswith("formats/")] == ["formats/queries.py"], sorted(files)


@pytest.mark.parametrize("argv", [
    POINT, POINT[:4] + ["-g", "-D", "-o", "-I", "1"], POINT[:4] + ["-m", "-B", "-r", "1"],
    POINT[:4] + ["-m", "-D", "-o"], POINT[:4] + ["-R", "-A"], POINT[:4] + ["-M", "-B"],
    POINT[:4] + ["-R", "-A", "--json"], POINT[:4] + ["-M", "-C", "--json"],
    POINT[:4] + ["-g", "-A", "--json"], POINT[:4] + ["-m", "-A", "--json"],
    POINT[:4] + ["-R", "-A", "--format", "csv"]])
def test_each_query_is_answered_and_checked_once(argv, monkeypatch):
    """The mode asks answer() once, which checks the Request once and computes the query
    once (query_answer, or a whole layout's layout_answer); the renderer reads that
    answer."""
    calls = {"answer": 0, "checked": 0, "computed": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return wrapper
    monkeypatch.setattr(request, "answer", counted("answer", request.answer))
    monkeypatch.setattr(request, "checked", counted("checked", request.checked))
    monkeypatch.setattr(queries, "query_answer", counted("computed", queries.query_answer))
    monkeypatch.setattr(bulk, "layout_answer", counted("computed", bulk.layout_answer))
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert matrix_calculator.main(argv) == 0
    assert out.getvalue()
    assert calls == {"answer": 1, "checked": 1, "computed": 1}


@pytest.mark.parametrize("argv", [
    POINT[:4] + ["--linear-layout", "-A"], POINT[:4] + ["--linear-layout", "-B", "--json"],
    POINT[:4] + ["-d"], POINT[:4] + ["-d", "--json"], POINT[:2] + ["-L"],
    POINT[:2] + ["-L", "--json"]])
def test_the_other_modes_ask_answer_once(argv, monkeypatch):
    calls = []
    answer = request.answer
    monkeypatch.setattr(request, "answer", lambda r: calls.append(r.mode) or answer(r))
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert matrix_calculator.main(argv) == 0
    assert out.getvalue()
    assert len(calls) == 1, calls


def test_the_linear_layout_document_renders_the_answer(monkeypatch):
    from formats import json_output
    from matrix_library import facts
    inst = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    found = api.answer(api.Request("linear", inst=inst, matrix="A", wave=64))
    monkeypatch.setattr(facts, "linear_layout", None)
    monkeypatch.setattr(api, "linear_layout", None)
    assert '"bases"' in json_output.linear_layout(inst, "A", api.Modifiers(), 64, found)


def test_the_renderers_read_the_answer_not_the_library(monkeypatch):
    """With the answer computed, -g, -m, -R and -M text and JSON ask the library's
    queries for nothing more."""
    from formats import json_output
    from formats import queries as text
    inst = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    answers = [(query, document, api.answer(api.Request(
        "query", inst=inst, matrix="A", numbers=(5, 0, 6, 0, 1, 2),
        options=(("query", query), ("document", document)))))
        for query in ("get", "entry", "rlayout", "mlayout") for document in ("text", "json")]
    for name in ("locate", "elements_at", "operand", "checked_operand", "query_answer"):
        monkeypatch.setattr(queries, name, None)
    for name in ("layout_columns", "register_grid", "slot_grid", "layout_answer"):
        monkeypatch.setattr(bulk, name, None)
    monkeypatch.setattr(api, "operand", None)
    for _, document, found in answers:
        if document == "json":
            assert json_output.query(found, request.Request("q").number, False)
        else:
            assert text.text(found, False, "grid", False)


def test_api_is_plain_imports_with_no_string_keyed_module_maps():
    source = (ROOT / "matrix_library" / "api.py").read_text(encoding="utf-8")
    assert "def __getattr__" not in source
    for name, value in vars(api).items():
        if isinstance(value, dict):
            assert not any(isinstance(v, str) and v.split(".")[0] in PRODUCT
                           for v in value.values()), name
    for name in api.__all__:
        assert name in vars(api), name
        assert getattr(matrix_calculator, name) is getattr(api, name), name
