"""Every public library function (the door's, matrix_library.api.__all__) refuses a wrongly
typed argument with a CalcError: generated from the signatures, each parameter of a
known-good call replaced, one at a time, by values of the wrong type for its annotation
(an object, a float, a bool where a number or a name is wanted, bytes, a list, a negative
number ...), those the function does not read included (element_of's k of D). A call
that returns, or raises anything else, fails."""
import inspect

import pytest

from matrix_library import api

DENSE = api.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
GFX1250 = api.find_instruction("gfx1250", "v_wmma_f32_16x16x32_f16")
PTX = api.find_instruction("sm80", "mma.m16n8k16.f32.f16.f16.f32")

# A known-good call of each function: (positional arguments, keyword arguments)
GOOD = {
    "architecture_of": ((DENSE,), {}),
    "calculation": ((DENSE, 1, 2, 0), {"mods": None, "wave": None}),
    "calculations_at": ((DENSE, 0, 0), {"mods": None, "wave": None}),
    "catalog": (({"arch": "cdna3"}, None), {"strict": False}),
    "check_filters": (({"arch": "cdna3"}, None), {}),
    "element_of": (("A", 1, 0, 2, 0), {}),
    "element_text": ((DENSE, api.element_of("A", 1, 0, 2)), {}),
    "elements_at": ((DENSE, "A", 0, 0), {"mods": None, "wave": None, "output_calc": False}),
    "facts": ((DENSE, None, None), {}),
    "description": ((DENSE, None, None), {}),
    "find_architecture": (("cdna3",), {}),
    "find_instruction": (("cdna3", "v_mfma_f32_32x32x8_f16"), {}),
    "formulas": ((DENSE,), {"mods": None, "wave": None}),
    "instructions": (("cdna3",), {}),
    "layout": ((DENSE, "A"), {"mods": None, "wave": None}),
    "layout_columns": ((DENSE, "A"), {"mods": None, "wave": None}),
    "layout_keys": ((DENSE, "A"), {"mods": None, "wave": None}),
    "layout_rows": ((DENSE, "A"), {"mods": None, "wave": None}),
    "linear_layout": ((DENSE, "A"), {"mods": None, "wave": None}),
    "layout_value": ((DENSE, "A"), {"mods": None, "wave": None}),
    "export": ((DENSE, "A", "cute"), {"mods": None, "wave": None}),
    "ck_tile_counts": ((DENSE,), {"wave": None}),
    "locate": ((DENSE, "A", 1, 0, 2, 0), {"mods": None, "wave": None, "output_calc": False}),
    "matrices": ((DENSE,), {}),
    "modifiers": ((None,), {}),
    "operand": ((DENSE, "A"), {"mods": None, "wave": None, "output_calc": False}),
    "parse_filters": ((["type=fp8"],), {}),
    "register_count": ((DENSE, "A"), {"mods": None, "wave": None, "output_calc": False}),
    "register_grid": ((DENSE, "A", 0), {"mods": None, "wave": None}),
    "slot_grid": ((DENSE, "A"), {"mods": None, "wave": None}),
    "slot_rows": ((DENSE, "A"), {"mods": None, "wave": None}),
    "slots": ((DENSE, "A"), {"mods": None, "wave": None}),
    "supported_modifiers": ((DENSE,), {}),
    "value_meanings": ((DENSE, 64), {}),
    "wave_size": ((DENSE, None), {}),
    "with_formats": ((DENSE, None), {}),
    "lds_plan": ((DENSE, "A"), {"tile": "32x8", "order": "k", "pad": 0, "swizzle": None,
                                "base": 0, "load": None, "k_steps": 1, "model": None,
                                "mods": None, "wave": None, "lds_type": ""}),
    "lds_search": ((DENSE, "A"), {"tile": "32x8", "order": "k", "base": 0, "load": None,
                                  "k_steps": 1, "model": None, "mods": None, "wave": None,
                                  "pad": 0, "swizzle": None, "lds_type": ""}),
    "lds_copy": ((DENSE, "A"), {"tile": "32x8", "copy": "global_load_dwordx4",
                                "order": "k", "pad": 0, "swizzle": None, "base": 0,
                                "load": None, "k_steps": 1, "model": None, "mods": None,
                                "wave": None, "lds_type": "", "global_order": None,
                                "ld": None, "waves": 1, "wave_split": "block",
                                "tdm_pad_interval": None, "tdm_pad_amount": None}),
    "lds_copy_search": ((DENSE, "A"), {"limit": 16, "tile": "32x8",
                                       "copy": "global_load_dwordx4"}),
    "conversion": ((DENSE, "D", DENSE, "A"), {"mods": None, "src_mods": None,
                                              "dst_mods": None, "wave": None,
                                              "transposed": False, "advice": False,
                                              "route": None}),
    "port": ((PTX, "A", GFX1250, "A"), {"wave": None, "route": None}),
    "compare": ((DENSE, DENSE, "A"), {"first_wave": None, "second_wave": None,
                                      "element": None}),
    "architecture_limits": (("cdna3",), {}),
    "budget": ((DENSE,), {"wave_tile": (1, 1), "waves": (1, 1), "k_steps": 1,
                          "lds_buffers": 2, "lds_pad": 0, "lds_order": "k", "mods": None,
                          "wave": None, "product": None}),
    "find_product": (("mi300x",), {}),
    "peak": ((DENSE, "mi300x"), {"mods": None}),
    "products": (("cdna3",), {}),
    "preshuffle": ((DENSE, "A"), {"mods": None, "wave": None, "load_width": None,
                                  "supertile": (1, 1), "order": None, "ld": None,
                                  "preset": None}),
    "store_plan": ((DENSE,), {"mods": None, "wave": None, "store_type": None,
                              "order": "row", "ld": None, "route": None}),
}
NOT_CHECKED = {"architectures": "takes nothing", "answer": "takes a Request (its own checks)"}

OBJECT = object()
# Wrong values by the annotation of the parameter (its text, as written).
WRONG_NUMBER = ["1", 1.0, True, OBJECT, b"1", [1], -1]
WRONG_NAME = [1, 1.0, True, OBJECT, b"A", ["A"]]
WRONG_FLAG = [OBJECT, "yes", 1.0, [True], None]
WRONG_ANY = [OBJECT, 1.5, b"x", [OBJECT]]


def wrong_values(name, annotation):
    """The wrongly typed values of one parameter."""
    text = str(annotation)
    if text == "bool":
        return WRONG_FLAG
    if text in ("int", "int | None"):
        return [v for v in WRONG_NUMBER if not (v is None and "None" in text)]
    if text.startswith("str") or "Architecture" in text and name != "inst":
        return [v for v in WRONG_NAME if not (name == "arch" and v is None)]
    return WRONG_ANY


def cases():
    found = []
    for name in api.__all__:
        function = getattr(api, name)
        if not inspect.isfunction(function) or name in NOT_CHECKED:
            continue
        assert name in GOOD, f"{name}: add a known-good call to GOOD"
        args, kwargs = GOOD[name]
        params = list(inspect.signature(function).parameters.values())
        for at, param in enumerate(params):
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            for value in wrong_values(param.name, param.annotation):
                found.append(pytest.param(name, at, param.name, value,
                                          id=f"{name}-{param.name}-{value!r:.20}"))
    return found


def call_with(name, at, param, value):
    function = getattr(api, name)
    args, kwargs = GOOD[name]
    args, kwargs = list(args), dict(kwargs)
    if at < len(args):
        args[at] = value
    else:
        kwargs[param] = value
    result = function(*args, **kwargs)
    return list(result) if inspect.isgenerator(result) or hasattr(result, "__next__") \
        else result


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_good_calls_answer(name):
    args, kwargs = GOOD[name]
    result = getattr(api, name)(*args, **kwargs)
    if inspect.isgenerator(result):
        list(result)


@pytest.mark.parametrize("name, at, param, value", cases())
def test_a_wrongly_typed_argument_is_a_calc_error(name, at, param, value):
    with pytest.raises(api.CalcError):
        call_with(name, at, param, value)


# ---- short reprs

SHORT = 500  # characters


@pytest.mark.parametrize("name", sorted(GOOD))
def test_every_record_has_a_short_repr_and_its_whole_content_one_call_away(name):
    args, kwargs = GOOD[name]
    result = getattr(api, name)(*args, **kwargs)
    records = [result] if hasattr(result, "_fields") else []
    for record in records:
        text = repr(record)
        assert len(text) <= SHORT and text.startswith(type(record).__name__ + "("), text[:600]
        assert list(record._asdict()) == list(record._fields)


def test_a_conversions_repr_names_its_kind_route_and_sizes():
    inst = api.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    plan = api.conversion(inst, "D", inst, "A")
    assert len(repr(plan)) <= SHORT and len(repr(plan.advice)) <= SHORT
    for part in ("Conversion(", "kind='cross-lane'", "route='lds'", "moves=<256 items>",
                 "source=<Instruction V_MFMA_F32_16X16X16_F16>"):
        assert part in repr(plan), repr(plan)
    assert plan._asdict()["moves"] == plan.moves
