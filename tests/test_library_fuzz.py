"""Junk thrown at every public function of the library (issue 23): each call returns an
answer (consumed in full when it is an iterator) or raises CalcError with a clean
message; nothing else escapes."""
import inspect

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amd_matrix_calculator import matrix_api as api
from amd_matrix_calculator.matrix_api import CalcError

INSTRUCTIONS = [api.find_instruction(a, m) for a, m in (
    ("cdna3", "v_mfma_f32_32x32x8_f16"), ("cdna3", "v_smfmac_f32_16x16x32_f16"),
    ("cdna4", "v_mfma_f32_32x32x64_f8f6f4"), ("rdna3", "v_wmma_f32_16x16x16_f16"),
    ("rdna4", "v_swmmac_i32_16x16x64_iu4"), ("gfx1250", "v_wmma_f32_16x16x32_f16"))]

numbers = st.one_of(st.integers(-3, 70), st.integers(), st.sampled_from([10**30, 2**63, -1]))
texts = st.one_of(st.sampled_from(["A", "b", "D", "k", "SA", "Z", "", "cdna3", "gfx942",
                                   "rdna4", "type=fp8", "m=16", "arch=cdna3", "\x1b[2J",
                                   "shape=16x16x*", "²", "sparse=yes"]), st.text(max_size=12))
modifier_maps = st.dictionaries(st.sampled_from(["cbsz", "abid", "blgp", "neg", "neg_hi",
                                                 "opsel", "nope", "matrix_a_fmt"]),
                                numbers, max_size=3)
junk = st.deferred(lambda: st.one_of(
    st.none(), st.booleans(), numbers, st.floats(allow_nan=True), texts,
    st.sampled_from(INSTRUCTIONS), modifier_maps, st.sampled_from([api.Modifiers()]),
    st.builds(api.Element, st.sampled_from(["A", "B", "Z", None]), numbers | st.none(),
              numbers | st.none(), numbers | st.none(), numbers),
    st.lists(texts, max_size=3), st.dictionaries(texts, texts | numbers, max_size=2)))

FUNCTIONS = [name for name in api.__all__ if callable(getattr(api, name))
             and inspect.isfunction(getattr(api, name))]
KEYWORDS = {"mods", "wave", "output_calc", "strict"}


def clean(message):
    return message.isprintable() and len(message) < 1000


def consume(answer):
    if hasattr(answer, "__next__"):
        return list(answer)
    return answer


def test_every_public_function_is_fuzzed():
    assert {"locate", "layout", "layout_rows", "slots", "catalog", "parse_filters",
            "element_of", "element_text", "facts", "formulas", "wave_size", "modifiers",
            "linear_layout", "register_grid", "slot_grid", "calculation",
            "calculations_at", "elements_at", "check_filters"} <= set(FUNCTIONS)


@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_junk_gets_an_answer_or_a_calc_error(name, data):
    function = getattr(api, name)
    parameters = inspect.signature(function).parameters.values()
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    count = data.draw(st.integers(0, len(positional)), label="positional count")
    args = [data.draw(st.sampled_from(INSTRUCTIONS) | junk if n == 0 and p.name == "inst"
                      else junk, label=p.name) for n, p in enumerate(positional[:count])]
    kwargs = {p.name: data.draw(junk, label=p.name) for p in parameters
              if p.name in KEYWORDS and p.kind == p.KEYWORD_ONLY
              and data.draw(st.booleans(), label=f"give {p.name}")}
    try:
        consume(function(*args, **kwargs))
    except CalcError as error:
        assert clean(str(error)), str(error)
    except TypeError as error:  # a wrong number of arguments is Python's own refusal
        assert "argument" in str(error) and "positional" in str(error) or \
            "required" in str(error), error
