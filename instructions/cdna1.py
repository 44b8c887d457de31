"""CDNA1 (gfx908, MI100). Opcodes: LLVM VOP3PInstructions.td / MC test mai.s."""
from instructions.model import table_block
from instructions.modifiers import BLGP, BROADCAST

# C/D must be AccVGPRs on gfx908; VALU co-execution leaves 8 cycles of the pipe.
mfma = table_block(arch="CDNA1", align=4, coexec_gap=8, cd_arch_vgpr=False, modifiers=BLGP)
multi = table_block(arch="CDNA1", align=4, coexec_gap=8, cd_arch_vgpr=False,
               modifiers=BROADCAST)

INSTRUCTIONS = (
    multi("v_mfma_f32_32x32x1f32", 0x40, 64, blocks=2),
    multi("v_mfma_f32_16x16x1f32", 0x41, 32, blocks=4),
    multi("v_mfma_f32_4x4x1f32", 0x42, 8, blocks=16),
    mfma("v_mfma_f32_32x32x2f32", 0x44, 64),
    mfma("v_mfma_f32_16x16x4f32", 0x45, 32),
    multi("v_mfma_f32_32x32x4f16", 0x48, 64, blocks=2),
    multi("v_mfma_f32_16x16x4f16", 0x49, 32, blocks=4),
    multi("v_mfma_f32_4x4x4f16", 0x4A, 8, blocks=16),
    mfma("v_mfma_f32_32x32x8f16", 0x4C, 64),
    mfma("v_mfma_f32_16x16x16f16", 0x4D, 32),
    multi("v_mfma_i32_32x32x4i8", 0x50, 64, blocks=2),
    multi("v_mfma_i32_16x16x4i8", 0x51, 32, blocks=4),
    multi("v_mfma_i32_4x4x4i8", 0x52, 8, blocks=16),
    mfma("v_mfma_i32_32x32x8i8", 0x54, 64),
    mfma("v_mfma_i32_16x16x16i8", 0x55, 32),
    multi("v_mfma_f32_32x32x2bf16", 0x68, 64, blocks=2),
    multi("v_mfma_f32_16x16x2bf16", 0x69, 32, blocks=4),
    multi("v_mfma_f32_4x4x2bf16", 0x6B, 8, blocks=16),
    mfma("v_mfma_f32_32x32x4bf16", 0x6C, 64),
    mfma("v_mfma_f32_16x16x8bf16", 0x6D, 32),
)
