"""The text notation of registers and elements lives in matrix_notation (the library
names places and elements too); re-exported here for the renderers."""
from matrix_library.notation import (
           BIT_MASK,
           LANE_SHIFT,
           element,
           held_slots,
           key_order,
           mark_parts,
           marked,
           register,
           slot_parts,
           split_keys,
)

__all__ = ["BIT_MASK", "LANE_SHIFT", "element", "held_slots", "key_order", "mark_parts", "marked",
           "register", "slot_parts", "split_keys"]
