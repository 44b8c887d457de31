"""Junk thrown at every public function of the library: each call returns an
answer (consumed in full when it is an iterator) or raises CalcError with a clean
message; nothing else escapes."""
import inspect

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matrix_library import api
from matrix_library.api import CalcError

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
    assert {"locate", "layout", "layout_rows", "layout_keys", "layout_columns", "slot_rows",
            "slots", "catalog", "parse_filters",
            "element_of", "element_text", "facts", "formulas", "wave_size", "modifiers",
            "linear_layout", "register_grid", "slot_grid", "calculation",
            "calculations_at", "elements_at", "check_filters"} <= set(FUNCTIONS)


@pytest.mark.slow
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


# ---- every keyword, int subclasses with odd comparisons, Requests

class OddInt(int):
    """An int whose comparisons all say yes (a caller's subclass): the library must use
    the number's value, never the object's own arithmetic."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __lt__(self, other):
        return True

    __le__ = __gt__ = __ge__ = __lt__
    __hash__ = int.__hash__


odd = st.builds(OddInt, st.integers(-2, 70))
tiles = st.one_of(st.sampled_from(["16x64", "²x4", "16x٦٤", "99999999x99999999", "0x0",
                                   "16x" + "9" * 5000, "x", "16X64", " 16 x 64 "]),
                  st.tuples(numbers | odd, numbers | odd), st.lists(numbers | odd, max_size=3))
swizzles = st.one_of(st.none(), st.sampled_from(["1,1,2", "²,1,1", "8,2,8", "1,1," + "9" * 5000,
                                                 "8,,8", ""]),
                     st.tuples(numbers | odd, numbers | odd, numbers | odd))
more_junk = st.one_of(junk, odd, tiles, swizzles)
ALL_KEYWORDS = {"tile": tiles, "swizzle": swizzles, "pad": more_junk, "base": more_junk,
                "k_steps": more_junk, "order": more_junk, "load": more_junk,
                "model": more_junk, "mods": more_junk, "wave": more_junk,
                "src_mods": more_junk, "dst_mods": more_junk, "transposed": more_junk,
                "advice": more_junk, "route": more_junk, "output_calc": more_junk,
                "strict": more_junk}


@pytest.mark.slow
@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_junk_in_every_keyword_gets_an_answer_or_a_calc_error(name, data):
    function = getattr(api, name)
    parameters = list(inspect.signature(function).parameters.values())
    args = []
    for p in parameters:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        good = (st.sampled_from(INSTRUCTIONS) if p.name.endswith("inst") else
                st.sampled_from(["A", "B", "C", "D"]) if p.name.endswith("matrix") else more_junk)
        args.append(data.draw(good | more_junk, label=p.name))
    kwargs = {p.name: data.draw(ALL_KEYWORDS.get(p.name, more_junk), label=p.name)
              for p in parameters if p.kind == p.KEYWORD_ONLY
              and (p.default is p.empty or data.draw(st.booleans(), label=f"give {p.name}"))}
    try:
        consume(function(*args, **kwargs))
    except CalcError as error:
        assert clean(str(error)), str(error)
    except TypeError as error:  # (a function taking **options: a required one not given)
        assert "required" in str(error) and "argument" in str(error), error


@pytest.mark.parametrize("function", [
    api.catalog, lambda wave: api.wave_size(INSTRUCTIONS[0], wave),
    lambda wave: api.locate(INSTRUCTIONS[0], "A", wave=wave),
    lambda wave: api.conversion(INSTRUCTIONS[0], "D", INSTRUCTIONS[0], "A", wave=wave)])
def test_an_int_subclass_is_read_by_its_value(function):
    """OddInt(64) is 64 (the wave size CDNA3 has), OddInt(7) is 7 (none has)."""
    consume(function(wave=OddInt(64)) if function is api.catalog else function(OddInt(64)))
    with pytest.raises(CalcError):
        consume(function(wave=OddInt(7)) if function is api.catalog else function(OddInt(7)))


MODES = ["list", "detail", "query", "catalog", "linear", "emit"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(mode=st.sampled_from(MODES) | more_junk,
       arch=st.none() | st.sampled_from([i.architecture for i in INSTRUCTIONS]) | more_junk,
       inst=st.none() | st.sampled_from(INSTRUCTIONS) | more_junk,
       matrix=st.none() | st.sampled_from(["A", "B", "C", "D", "K"]) | more_junk,
       mods=st.sampled_from([api.Modifiers()]) | more_junk, wave=more_junk,
       numbers=st.tuples(*[numbers | odd] * 6) | more_junk,
       options=st.lists(st.tuples(texts, more_junk), max_size=3).map(tuple) | more_junk,
       given=st.sets(st.sampled_from(["arch", "inst", "matrix", "mods", "wave", "numbers",
                                      "options"])))
def test_any_request_gets_an_answer_or_a_calc_error(mode, arch, inst, matrix, mods, wave,
                                                     numbers, options, given):
    fields = {key: value for key, value in (("arch", arch), ("inst", inst), ("matrix", matrix),
                                            ("mods", mods), ("wave", wave),
                                            ("numbers", numbers), ("options", options))
              if key in given}
    try:
        request = api.Request(mode, **fields)
        consume(api.answer(request))
    except CalcError as error:
        assert clean(str(error)), str(error)


@pytest.mark.parametrize("request_", [
    lambda: api.Request(mode="catalog", arch="D"), lambda: api.Request(mode="detail", inst="x"),
    lambda: api.Request(mode="catalog", options=5), lambda: api.Request(mode=5),
    lambda: api.Request(mode="query", inst=INSTRUCTIONS[0], matrix="A", mods=5),
    lambda: api.Request(mode="query", inst=INSTRUCTIONS[0], matrix="A", wave="64"),
])
def test_the_probe_requests_get_a_calc_error(request_):
    with pytest.raises(CalcError):
        api.answer(request_())


LONG = "x" * 100000


@pytest.mark.parametrize("call_", [
    lambda: api.lds_plan(INSTRUCTIONS[0], "A", tile="16x64", load=LONG),
    lambda: api.lds_plan(INSTRUCTIONS[0], "A", tile="16x64", model=LONG),
    lambda: api.lds_plan(INSTRUCTIONS[0], "A", tile=LONG),
    lambda: api.lds_plan(INSTRUCTIONS[0], "A", tile="16x64", swizzle=LONG),
    lambda: api.lds_plan(INSTRUCTIONS[0], "A", tile="16x64", order=LONG),
    lambda: api.conversion(INSTRUCTIONS[0], "D", INSTRUCTIONS[0], "A", route=LONG),
    lambda: api.conversion(INSTRUCTIONS[0], LONG, INSTRUCTIONS[0], "A"),
    lambda: api.find_architecture(LONG), lambda: api.answer(api.Request(LONG)),
])
def test_a_long_value_gets_a_short_message(call_):
    with pytest.raises(CalcError) as refused:
        call_()
    assert clean(str(refused.value)) and len(str(refused.value)) < 300
