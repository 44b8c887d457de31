"""One message path: every refusal, argparse's own included, is one line with
control characters escaped and long values cut short; every whole-number option of the
option table names itself and its range and takes ASCII digits only."""
import pytest

from matrix_frontends.cli.messages import MESSAGE_LENGTH
from matrix_frontends.cli.options import (
    BY_DEST,
    NUMBERS,
    OPTIONS,
    Args,
    ArgumentError,
    message_text,
    number,
)
from tests.helpers import call

MFMA = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16"]


def one_clean_line(argv):
    status, out, err = call(argv)
    assert status == 2 and out == "" and err.count("\n") == 1, (status, err)
    assert err[:-1].isprintable() and len(err) < MESSAGE_LENGTH + 100, err
    return err


@pytest.mark.parametrize("argv, shown", [
    (MFMA + ["-g", "-A", "\x1b[31mRED\x07"], "\\x1b[31mRED\\x07"),
    (MFMA + ["-g", "-A", "a\0b"], "a\\x00b"),
    (MFMA + ["-g", "-A", "--\x1b"], "\\x1b"),
    (MFMA + ["--ar\x1b=1", "-g"], "\\x1b"),
    (["-a", "\x1b]0;title\x07"], "\\x1b]0;title\\x07"),
])
def test_argparse_refusals_escape_control_characters(argv, shown):
    assert shown in one_clean_line(argv)


@pytest.mark.parametrize("argv", [
    MFMA + ["-g", "-A", "x" * 100000],
    MFMA + ["-g", "-A", "--" + "y" * 100000],
    ["-a", "z" * 100000],
    MFMA + ["-g", "-A", "-I", "\x1b" * 100000],
])
def test_a_long_value_is_cut_short(argv):
    assert "characters" in one_clean_line(argv)


def test_message_text_is_one_printable_line():
    text = message_text("a\nb\tc \x1b[2J " + "w" * 500 + " \u202e end")
    assert text.isprintable() and "\n" not in text and "\\x1b[2J" in text
    assert "(500 characters)" in text and "\\u202e" in text and text.endswith("end")
    assert len(message_text("word " * 1000)) <= 1000


@pytest.mark.parametrize("dest", NUMBERS)
@pytest.mark.parametrize("value", ["²", "١٢", "１", "0x1", "-1"])
def test_every_number_option_names_itself_its_range_and_ascii_digits(dest, value):
    """Every NUMBER row of the option table (new ones included) refuses digits of other
    scripts, naming the option and the range it takes."""
    option = BY_DEST[dest]
    if option.reference and value in ("١٢", "１"):  # (AMD's calculator reads them: golden)
        return
    args = Args({o.dest: o.default for o in OPTIONS} | {dest: value})
    with pytest.raises(ArgumentError) as refused:
        number(args, dest)
    message = str(refused.value)
    assert option.name in message and repr(value) in message
    names = option.choices and not option.choices[0].isdigit()
    assert names or "ASCII digits" in message
    assert names or (f"0 to {option.limit}" if option.limit else ">= 0") in message


@pytest.mark.parametrize("dest", [d for d in NUMBERS if BY_DEST[d].limit])
def test_a_number_past_an_options_limit_names_the_range(dest):
    option = BY_DEST[dest]
    args = Args({o.dest: o.default for o in OPTIONS} | {dest: str(option.limit + 1)})
    with pytest.raises(ArgumentError, match=f"takes 0 to {option.limit}"):
        number(args, dest)
