"""The direct reading of plain command lines gives exactly what argparse gives."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matrix_frontends.cli import command as matrix_cli
from matrix_frontends.cli.options import DEFAULTS

VALUE_SPELLINGS = [s for o in matrix_cli.OPTIONS if o.kind != "flag" for s in o.spellings]
FLAG_SPELLINGS = [s for o in matrix_cli.OPTIONS if o.kind == "flag" for s in o.spellings]
VALUES = st.sampled_from(["0", "1", "7", "064", "cdna3", "v_mfma_f32_32x32x8_f16", "x", "",
                          "１", "99999999999999999999", "-1", "-L", "--csv", " 1"])
WORD = st.one_of(st.sampled_from(FLAG_SPELLINGS).map(lambda s: [s]),
                 st.tuples(st.sampled_from(VALUE_SPELLINGS), VALUES).map(list))


@pytest.mark.slow
@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(WORD, max_size=8).map(lambda parts: [w for part in parts for w in part]))
def test_plain_reading_agrees_with_argparse(words):
    plain = matrix_cli.parse_plain(words)
    try:
        full = vars(matrix_cli.build_parser().parse_args(words))
        full["filter"] = tuple(full["filter"])
    except matrix_cli.ArgumentError:
        full = None
    if plain is not None:  # read directly: argparse must accept it and agree
        assert full is not None
        assert full == {dest: plain.value(dest) for dest in full}
        # (Args holds the options given; every other one reads its default)
        assert set(vars(plain)) == {dest for dest, value in full.items()
                                    if value != DEFAULTS[dest]}


def test_plain_command_lines_skip_argparse():
    words = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-I", "5", "-K", "6"]
    assert matrix_cli.parse_plain(words) is not None
    for odd in (["-gA"], ["--arch", "cdna3"], ["-a=cdna3"], ["-h"], ["-I", "-1"], ["-a"]):
        assert matrix_cli.parse_plain(odd) is None, odd
