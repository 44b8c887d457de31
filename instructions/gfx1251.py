"""gfx1251 (Instinct MI430X according to secondary sources): gfx1250's WMMA set plus
v_wmma_f64_16x16x4_f64 (opcode 0x5b; A/B 4 VGPRs, C/D 16). Source: LLVM's gfx1251 MC
test (fact sheet S4); LLVM 22.1.8 does not know the instruction yet (its assembler
answers "invalid instruction", recorded in tests/data/gfx1250_llvm_mc.txt), so its
facts are S4's and its latency is unknown (no scheduling row: `cycles` 0 is not shown
as a latency). Which neg/reuse modifiers it takes is not known: none are declared.
"""
from instructions.gfx1250 import BASE
from instructions.gfx1250 import INSTRUCTIONS as GFX1250
from instructions.model import table_block, variant

f64 = table_block(**{**BASE, "arch": "GFX1251"})

INSTRUCTIONS = tuple(variant(inst, arch="GFX1251") for inst in GFX1250) + (
    f64("v_wmma_f64_16x16x4_f64", 0x5B, 0),
)
