"""How clang-22 spells the matrix builtins of each layout family, as data.

Each layout family's registry line (layouts/family.py) carries its record, and the
HIP emitter (formats/hip) reads it there instead of testing a family: the
wave suffix and generation suffix of a WMMA builtin's name, whether OPSEL or the
modifiers are arguments, the element type of bf16 vectors, the sparse-index argument's
width, and the A types clang has no builtin for. scripts/check_hip.py compiles every
emitted example with clang-22 and checks the assembly against these records.
"""
from __future__ import annotations

from typing import NamedTuple

from instructions import ARCHITECTURES


class WmmaBuiltins(NamedTuple):
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


# The clang --offload-arch of each architecture's generated code, from its Architecture
# line (instructions/__init__.py, `target`).
TARGETS = {arch.name: arch.target for arch in ARCHITECTURES if arch.target}
