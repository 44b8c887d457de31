"""RDNA3 (gfx1100-1103, gfx1150-1153). Opcodes: LLVM VOP3PInstructions.td (GFX11 WMMA)."""
from .model import family

wmma = family(arch="RDNA3", align=4, coexec=False, blgp=False)
wmma16 = family(arch="RDNA3", align=4, coexec=False, blgp=False, opsel=True)  # OPSEL[2]: C/D half

INSTRUCTIONS = (
    wmma("v_wmma_f32_16x16x16_f16", 0x40, 32),
    wmma("v_wmma_f32_16x16x16_bf16", 0x41, 32),
    wmma16("v_wmma_f16_16x16x16_f16", 0x42, 32),
    wmma16("v_wmma_bf16_16x16x16_bf16", 0x43, 32),
    wmma("v_wmma_i32_16x16x16_iu8", 0x44, 32),
    # 16 cycles: RDNA3's INT4 rate is twice its INT8 rate (no public -d record of the reference).
    wmma("v_wmma_i32_16x16x16_iu4", 0x45, 16),
)
