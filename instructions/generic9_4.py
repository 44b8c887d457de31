"""gfx9-4-generic (LLVM's generic target of gfx942 and gfx950): the matrix instructions
both members have with one meaning, as LLVM 22 builds it (llvm-mc-22 -mcpu=gfx9-4-generic,
recorded in tests/data/catalog_llvm_mc.txt): CDNA3's set without the two xf32 MFMAs,
which gfx950 lacks, and without the fp8/bf8 MFMAs and SMFMACs, whose operands are AMD's
FNUZ encoding on gfx942 and OCP on gfx950 (LLVM gives the generic target no fp8-insts:
"instruction not supported on this GPU").

Where the members differ otherwise the record says so: the printed opcode is the full
7-bit field (gfx950's, whose low six bits collide); the latency is the slower member's
(v_mfma_f64_16x16x4_f64: 32 cycles on gfx942, 64 on gfx950).
"""
from instructions.cdna3 import INSTRUCTIONS as CDNA3
from instructions.cdna4 import INSTRUCTIONS as CDNA4
from instructions.model import variant

_GFX950 = {inst.mnemonic: inst for inst in CDNA4}

INSTRUCTIONS = tuple(
    variant(inst, arch="GFX9-4-GENERIC", opcode_bits=7,
            cycles=max(inst.cycles, _GFX950[inst.mnemonic].cycles))
    for inst in CDNA3 if inst.mnemonic in _GFX950 and (inst.a_type.bits > 8 or inst.is_int))
