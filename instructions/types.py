"""Data types of matrix operands, referenced by name from the instruction tables."""
from __future__ import annotations

from typing import NamedTuple


class DataType(NamedTuple):
    """key: the token used in mnemonics (f32, bf16, i8, fp8 ...); label: the short name
    --detail-instruction prints, with `description` beside it."""
    key: str
    label: str
    description: str
    bits: int
    is_int: bool = False

    def describe(self) -> str:
        return f"{self.label} ({self.description})"


Row = tuple[str, str, str, int] | tuple[str, str, str, int, bool]


def _types(*rows: Row) -> dict[str, DataType]:
    return {t.key: t for t in (DataType(*r) for r in rows)}


def _renamed(key: str, label: str, of: str, rows: tuple[Row, ...]) -> Row:
    """Another vendor's name for the type `of` of `rows`: its encoding, bits and sign."""
    found = next(r for r in rows if r[0] == of)
    return (key, label, *found[2:])


# Integer types are printed in lower case on CDNA and as IU* on RDNA, like the reference.
_AMD: tuple[Row, ...] = (
    ("f64", "FP64", "IEEE binary64 floating point", 64),
    ("f32", "FP32", "IEEE binary32 floating point", 32),
    ("xf32", "FP32", "IEEE binary32 floating point", 32),
    ("f16", "FP16", "IEEE binary16 floating point", 16),
    ("bf16", "BF16", "Brain floating point", 16),
    ("i32", "int32", "Signed 32-bit integer", 32, True),
    ("i8", "int8", "Signed 8-bit integer", 8, True),
    ("iu8", "IU8", "Signed/unsigned 8-bit integer", 8, True),
    ("iu4", "IU4", "Signed/unsigned 4-bit integer", 4, True),
    # 8-bit floats: AMD's FNUZ encoding on CDNA3, OCP on RDNA4 and CDNA4.
    ("fp8_fnuz", "FP8", "AMD 4-bit exponent, 3-bit mantissa floating point", 8),
    ("bf8_fnuz", "BF8", "AMD 5-bit exponent, 2-bit mantissa floating point", 8),
    ("fp8", "FP8", "OCP 4-bit exponent, 3-bit mantissa floating point", 8),
    ("bf8", "BF8", "OCP 5-bit exponent, 2-bit mantissa floating point", 8),
    ("fp6", "FP6", "OCP 2-bit exponent, 3-bit mantissa floating point", 6),
    ("bf6", "BF6", "OCP 3-bit exponent, 2-bit mantissa floating point", 6),
    ("fp4", "FP4", "OCP 2-bit exponent, 1-bit mantissa floating point", 4),
    # gfx1250's name for fp4 in v_wmma_*_32x16x128_f4.
    ("f4", "FP4", "OCP 2-bit exponent, 1-bit mantissa floating point", 4),
    ("e8m0", "E8M0", "OCP 8-bit exponent-only block scale, value 2^(v-127)", 8),
)
TYPES = _types(
    *_AMD,
    # NVIDIA's PTX type names (instructions/nvidia.py): tf32 is an f32 register whose low
    # 13 mantissa bits are ignored; e4m3/e5m2 are the OCP fp8/bf8 encodings, s32/s8 the
    # signed integers.
    ("tf32", "TF32", "NVIDIA TensorFloat-32 in a 32-bit register", 32),
    _renamed("e4m3", "E4M3", "fp8", _AMD),
    _renamed("e5m2", "E5M2", "bf8", _AMD),
    _renamed("s32", "S32", "i32", _AMD),
    _renamed("s8", "S8", "i8", _AMD),
    ("u8", "U8", "Unsigned 8-bit integer", 8, True),
    ("s4", "S4", "Signed 4-bit integer", 4, True),
    ("u4", "U4", "Unsigned 4-bit integer", 4, True),
    ("b16", "B16", "16 untyped bits", 16),
)
