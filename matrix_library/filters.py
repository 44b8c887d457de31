"""The catalog's filter keys and the spellings of type names, shared by the catalog, the
store plans, -h and completion (a small module: the command line loads it at start-up).

A type is named by its key (f16, fp8, i8), its family (fp8 for fp8_fnuz), its printed
label (fp16, int8) or another vendor's name for the same encoding (NVIDIA's e4m3 is OCP
fp8, e5m2 bf8, s8 i8, s32 i32), in any case, with surrounding spaces ignored.
"""
from __future__ import annotations

from instructions.model import TYPES

FILTERS = ("arch", "vendor", "type", "shape", "sparse", "kind", "m", "n", "k", "blocks",
           "checked")
NUMBER_FILTERS = ("m", "n", "k", "blocks")

# Other names of one encoding: NVIDIA's PTX names (instructions/model.py renames them from
# AMD's) and gfx1250's f4.
SAME_ENCODING = (("fp8", "e4m3"), ("bf8", "e5m2"), ("i8", "s8"), ("i32", "s32"), ("fp4", "f4"))

_SPELLINGS: dict[str, frozenset[str]] = {}


def type_spellings(key: str) -> frozenset[str]:
    """Every spelling of type `key` (lower case): its key, family and label, and those of
    the types of the same encoding (SAME_ENCODING)."""
    found = _SPELLINGS.get(key)
    if found is None:
        keys = {key, *(other for pair in SAME_ENCODING if key in pair for other in pair)}
        found = frozenset({key.split("_")[0], *keys}
                          | {TYPES[k].label.lower() for k in keys if k in TYPES})
        _SPELLINGS[key] = found
    return found


def type_key(name: str, keys: tuple[str, ...]) -> str | None:
    """The key among `keys` that `name` spells (type_spellings), or None."""
    wanted = name.strip().lower()
    return next((key for key in keys if wanted in type_spellings(key)), None)
