"""RDNA3 (gfx1100-1103, gfx1150-1153). Opcodes: LLVM VOP3PInstructions.td (GFX11 WMMA)."""
from instructions.model import table_block

NEG = ("neg", "neg_hi")

wmma = table_block(arch="RDNA3", encoding="VOP3P", align=4, coexec=False, cd_arch_vgpr=None,
              modifiers=NEG)
# OPSEL[2]: the C/D half of 16-bit results
wmma16 = table_block(arch="RDNA3", encoding="VOP3P", align=4, coexec=False, cd_arch_vgpr=None,
                modifiers=("opsel",) + NEG)
# Integer inputs: NEG[1:0] marks A and B signed; no NEG_HI.
wmma_int = table_block(arch="RDNA3", encoding="VOP3P", align=4, coexec=False, cd_arch_vgpr=None,
                  modifiers=("neg",))

INSTRUCTIONS = (
    wmma("v_wmma_f32_16x16x16_f16", 0x40, 32),
    wmma("v_wmma_f32_16x16x16_bf16", 0x41, 32),
    wmma16("v_wmma_f16_16x16x16_f16", 0x42, 32),
    wmma16("v_wmma_bf16_16x16x16_bf16", 0x43, 32),
    wmma_int("v_wmma_i32_16x16x16_iu8", 0x44, 32),
    # 16 cycles: RDNA3's INT4 rate is twice its INT8 rate (no public -d record of the reference).
    wmma_int("v_wmma_i32_16x16x16_iu4", 0x45, 16),
)
