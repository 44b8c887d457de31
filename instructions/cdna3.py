"""CDNA3 (gfx940/941/942, MI300). Opcodes: LLVM VOP3PInstructions.td / MC test mai-gfx940.s."""
from instructions.model import table_block
from instructions.modifiers import BLGP, BROADCAST

mfma = table_block(arch="CDNA3", modifiers=BLGP)
multi = table_block(arch="CDNA3", modifiers=BROADCAST)
new = table_block(arch="CDNA3")                                  # CDNA3 additions: no BLGP
f32 = table_block(arch="CDNA3", coexec=False, modifiers=BLGP)    # FP32 MFMAs do not co-execute
f32_multi = table_block(arch="CDNA3", coexec=False, modifiers=BROADCAST)
fp64 = table_block(arch="CDNA3", coexec=False, modifiers=BLGP)   # BLGP here is a negation mask
# CBSZ/ABID of an SMFMAC: ABID picks the compression-index set (with CBSZ 0)
smfmac = table_block(arch="CDNA3", coexec_gap=8, modifiers=("cbsz", "abid"))

INSTRUCTIONS = (
    new("v_mfma_f32_16x16x8_xf32", 0x3E, 16),
    new("v_mfma_f32_32x32x4_xf32", 0x3F, 32),
    f32_multi("v_mfma_f32_32x32x1_2b_f32", 0x40, 64),
    f32_multi("v_mfma_f32_16x16x1_4b_f32", 0x41, 32),
    f32_multi("v_mfma_f32_4x4x1_16b_f32", 0x42, 8),
    f32("v_mfma_f32_32x32x2_f32", 0x44, 64),
    f32("v_mfma_f32_16x16x4_f32", 0x45, 32),
    multi("v_mfma_f32_32x32x4_2b_f16", 0x48, 64),
    multi("v_mfma_f32_16x16x4_4b_f16", 0x49, 32),
    multi("v_mfma_f32_4x4x4_16b_f16", 0x4A, 8),
    new("v_mfma_f32_32x32x8_f16", 0x4C, 32),
    new("v_mfma_f32_16x16x16_f16", 0x4D, 16),
    multi("v_mfma_i32_32x32x4_2b_i8", 0x50, 64),
    multi("v_mfma_i32_16x16x4_4b_i8", 0x51, 32),
    multi("v_mfma_i32_4x4x4_16b_i8", 0x52, 8),
    new("v_mfma_i32_32x32x16_i8", 0x56, 32),
    new("v_mfma_i32_16x16x32_i8", 0x57, 16),
    multi("v_mfma_f32_32x32x4_2b_bf16", 0x5D, 64),
    multi("v_mfma_f32_16x16x4_4b_bf16", 0x5E, 32),
    multi("v_mfma_f32_4x4x4_16b_bf16", 0x5F, 8),
    new("v_mfma_f32_32x32x8_bf16", 0x60, 32),
    new("v_mfma_f32_16x16x16_bf16", 0x61, 16),
    smfmac("v_smfmac_f32_16x16x32_f16", 0x62, 16),
    smfmac("v_smfmac_f32_32x32x16_f16", 0x64, 32),
    smfmac("v_smfmac_f32_16x16x32_bf16", 0x66, 16),
    smfmac("v_smfmac_f32_32x32x16_bf16", 0x68, 32),
    smfmac("v_smfmac_i32_16x16x64_i8", 0x6A, 16),
    smfmac("v_smfmac_i32_32x32x32_i8", 0x6C, 32),
    fp64("v_mfma_f64_16x16x4_f64", 0x6E, 32),
    fp64("v_mfma_f64_4x4x4_4b_f64", 0x6F, 16),
    new("v_mfma_f32_16x16x32_bf8_bf8", 0x70, 16),
    new("v_mfma_f32_16x16x32_bf8_fp8", 0x71, 16),
    new("v_mfma_f32_16x16x32_fp8_bf8", 0x72, 16),
    new("v_mfma_f32_16x16x32_fp8_fp8", 0x73, 16),
    new("v_mfma_f32_32x32x16_bf8_bf8", 0x74, 32),
    new("v_mfma_f32_32x32x16_bf8_fp8", 0x75, 32),
    new("v_mfma_f32_32x32x16_fp8_bf8", 0x76, 32),
    new("v_mfma_f32_32x32x16_fp8_fp8", 0x77, 32),
    smfmac("v_smfmac_f32_16x16x64_bf8_bf8", 0x78, 16),
    smfmac("v_smfmac_f32_16x16x64_bf8_fp8", 0x79, 16),
    smfmac("v_smfmac_f32_16x16x64_fp8_bf8", 0x7A, 16),
    smfmac("v_smfmac_f32_16x16x64_fp8_fp8", 0x7B, 16),
    smfmac("v_smfmac_f32_32x32x32_bf8_bf8", 0x7C, 32),
    smfmac("v_smfmac_f32_32x32x32_bf8_fp8", 0x7D, 32),
    smfmac("v_smfmac_f32_32x32x32_fp8_bf8", 0x7E, 32),
    smfmac("v_smfmac_f32_32x32x32_fp8_fp8", 0x7F, 32),
)
