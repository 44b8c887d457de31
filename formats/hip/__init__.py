"""HIP code for kernel writers: fragment loads/stores and the builtin call of an
instruction, derived from the layout engine's digits (layouts.fragment).

`emit(inst, matrix, mods, wave, options)` (or `written(answer, options)`, of the
library's answer to an "emit" Request, matrix_library.code.Code) with a matrix gives
`__device__` functions that load (A, B, C, K, SA, SB) or store (D) the calling lane's
fragment from or to a tile in memory; without one, a `__global__` wave-level example:
every load, the builtin call with the chosen modifiers (each argument named), and the
store of D.

The parts: `common` (options, names, header, prelude, C types), `loads` (the index
arithmetic and the vector/scalar moves of one operand), `calls` (clang's builtin
conventions: names, types, argument lists), `kernel` (whole outputs).

Memory convention: a tile is row-major (`order="row"`: element (r, c) at r*ld + c) or
column-major (c*ld + r); the blocks of a multi-block operand follow each other (block b
starts at b * rows * ld, row-major; b * cols * ld, column-major). Sub-byte values (fp4,
iu4, fp6, the 4-bit sparse indices) are packed densely: element e occupies bits
[e*bits, (e+1)*bits) of the byte string, low bits first. Sparse A is the compressed
M x K/2 matrix (the two kept values of every group of four K), K the M x K/4 matrix of
4-bit index codes, SA the M x K/32 and SB the K/32 x N E8M0 scales.

Every output names its functions after the instruction, the wave size, the modifiers
and the storage options (or `Options.prefix`), and guards its definitions and the
shared prelude, so any number of outputs compile together in one file.
"""
from __future__ import annotations

from formats.hip.calls import builtin_name, call_arguments, named_arguments, operand_type
from formats.hip.common import (
           DEFAULT,
           INT_MAX,
           LOWER,
           ORDERS,
           PRELUDE,
           CType,
           Options,
           default_prefix,
)
from formats.hip.kernel import emit, emit_parts, written
from formats.hip.loads import (
           Chunk,
           VectorPlan,
           bit_terms,
           index_functions,
           offset_terms,
           vector_plan,
           word_functions,
)

__all__ = ["DEFAULT", "INT_MAX", "LOWER", "ORDERS", "PRELUDE", "CType", "Chunk", "Options",
           "VectorPlan", "bit_terms", "builtin_name", "call_arguments", "default_prefix",
           "emit", "emit_parts", "index_functions", "named_arguments", "offset_terms",
           "operand_type", "vector_plan", "word_functions", "written"]
