"""CDNA4 (gfx950, MI350X/MI355X). Facts and sources: docs/facts/cdna4.md (S1 = CDNA4
ISA guide Tables 28/90, S2 = LLVM VOP3PInstructions.td, S3 = LLVM SISchedule.td).

CDNA4 keeps CDNA3's MFMA/SMFMAC set except the two xf32 instructions (S1, S2
HasXF32Insts), with OCP fp8/bf8 and 7-bit printed opcodes (the low six bits collide on
gfx950); only v_mfma_f64_16x16x4_f64 changes speed (16 passes, S1 Table 28, S3).
VALU co-execution figures follow CDNA3's rule: no gfx950 source gives them.
"""
from instructions.cdna3 import INSTRUCTIONS as CDNA3
from instructions.model import table_block, variant

CHANGED = {"v_mfma_f64_16x16x4_f64": {"cycles": 64}}

CARRIED = tuple(variant(inst, arch="CDNA4", fp8_flavour="", opcode_bits=7,
                        **CHANGED.get(inst.mnemonic, {}))
                for inst in CDNA3 if "xf32" not in inst.mnemonic)

new = table_block(arch="CDNA4", fp8_flavour="", opcode_bits=7)
smfmac = table_block(arch="CDNA4", fp8_flavour="", opcode_bits=7, coexec_gap=8,
                modifiers=("cbsz", "abid"))
smfmac8 = table_block(arch="CDNA4", fp8_flavour="", opcode_bits=7, coexec_gap=8)
# f8f6f4: CBSZ/BLGP pick the A/B formats (cycles here: with an fp8/bf8 input).
f8f6f4 = table_block(arch="CDNA4", fp8_flavour="", opcode_bits=7, modifiers=("cbsz", "blgp"),
                format_selector="cbsz_blgp")
# v_mfma_scale_*: a 128-bit pair of v_mfma_ld_scale_b32 (VOP3P opcode 0x2c, the scale
# VGPRs and their bytes, OPSEL_A/OPSEL_B) and the f8f6f4 MFMA; one scale per 32 K.
scaled = table_block(arch="CDNA4", fp8_flavour="", opcode_bits=7,
                modifiers=("cbsz", "blgp", "opsel_a", "opsel_b"), format_selector="cbsz_blgp",
                encoding="VOP3PX", prefix_opcode=0x2C)

INSTRUCTIONS = CARRIED + (
    new("v_mfma_f32_16x16x32_f16", 0x54, 16),
    new("v_mfma_f32_32x32x16_f16", 0x55, 32),
    new("v_mfma_f32_16x16x32_bf16", 0x35, 16),
    new("v_mfma_f32_32x32x16_bf16", 0x37, 32),
    new("v_mfma_i32_16x16x64_i8", 0x36, 16),
    new("v_mfma_i32_32x32x32_i8", 0x38, 32),
    f8f6f4("v_mfma_f32_16x16x128_f8f6f4", 0x2D, 32),
    f8f6f4("v_mfma_f32_32x32x64_f8f6f4", 0x2E, 64),
    scaled("v_mfma_scale_f32_16x16x128_f8f6f4", 0x2D, 32),
    scaled("v_mfma_scale_f32_32x32x64_f8f6f4", 0x2E, 64),
    smfmac("v_smfmac_f32_16x16x64_f16", 0x5A, 16),
    smfmac("v_smfmac_f32_32x32x32_f16", 0x5B, 32),
    smfmac("v_smfmac_f32_16x16x64_bf16", 0x39, 16),
    smfmac("v_smfmac_f32_32x32x32_bf16", 0x46, 32),
    smfmac8("v_smfmac_i32_16x16x128_i8", 0x3A, 16),
    smfmac8("v_smfmac_i32_32x32x64_i8", 0x47, 32),
    smfmac8("v_smfmac_f32_16x16x128_bf8_bf8", 0x3B, 16),
    smfmac8("v_smfmac_f32_16x16x128_bf8_fp8", 0x3C, 16),
    smfmac8("v_smfmac_f32_16x16x128_fp8_bf8", 0x3D, 16),
    smfmac8("v_smfmac_f32_16x16x128_fp8_fp8", 0x43, 16),
    smfmac8("v_smfmac_f32_32x32x64_bf8_bf8", 0x4B, 32),
    smfmac8("v_smfmac_f32_32x32x64_bf8_fp8", 0x4E, 32),
    smfmac8("v_smfmac_f32_32x32x64_fp8_bf8", 0x4F, 32),
    smfmac8("v_smfmac_f32_32x32x64_fp8_fp8", 0x53, 32),
)
