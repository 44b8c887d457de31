"""How clang-22 spells the matrix builtins of each layout family, as data.

The HIP emitter (formats/hip) reads these records instead of testing a family: the
wave suffix and generation suffix of a WMMA builtin's name, whether OPSEL or the
modifiers are arguments, the element type of bf16 vectors, the sparse-index argument's
width, and the A types clang has no builtin for. scripts/check_hip.py compiles every
emitted example with clang-22 and checks the assembly against these records.
"""
from __future__ import annotations

from .record import TYPE_CHECKING, Record

if TYPE_CHECKING:
    from .model import Instruction


class WmmaBuiltins(Record):
    """clang's conventions for the WMMA/SWMMAC builtins of one layout family."""
    suffix: str            # after _w32/_w64 on WMMA builtins
    opsel_argument: bool   # 16-bit-output WMMAs take OPSEL (the C/D half) as an argument
    wave_suffix: bool = True  # the names end in _w32/_w64 (then `suffix`)
    # The modifiers are arguments: a negation (16/32-bit floats), signedness (integers) or
    # format code before A and B, a C modifier (bit 0 negates, bit 1 takes |C|), the
    # scales' lane-half select and format before each scale, the two reuse hints last.
    operand_modifiers: bool = False
    bf16: str = "short"    # element type of bf16 vectors
    index_bits: int = 16   # bits of the sparse-index argument
    index_keys: int = 1    # index_key values, each a slice of the index argument's bits
    missing: tuple[str, ...] = ()  # A types clang has no builtin for


# Keyed by layout family (instructions.FAMILIES); MFMA families have none.
WMMA_BUILTINS = {
    "rdna3": WmmaBuiltins("", True),
    "rdna4": WmmaBuiltins("_gfx12", False),
    # clang-22: no index_key argument; it selects index_key:1 when the index argument
    # is the index VGPR's high 16 bits (K >> 16). Its 8-bit SWMMACs take a 32-bit index
    # for their 64-bit one, and it has no f64 WMMA builtin (gfx1251).
    "gfx1250": WmmaBuiltins("", False, wave_suffix=False, operand_modifiers=True,
                            bf16="__bf16", index_bits=32, index_keys=2, missing=("f64",)),
}


def wmma_builtins(inst: Instruction) -> WmmaBuiltins | None:
    """clang's conventions for `inst`'s family (None: its builtins are not charted)."""
    return WMMA_BUILTINS.get(inst.family)


# The clang --offload-arch each architecture's generated code is compiled for (the
# first product of the architecture; any of its gfx aliases works the same).
TARGETS = {"CDNA1": "gfx908", "CDNA2": "gfx90a", "CDNA3": "gfx942", "CDNA4": "gfx950",
           "RDNA3": "gfx1100", "RDNA4": "gfx1200", "GFX1250": "gfx1250", "GFX1251": "gfx1251"}
