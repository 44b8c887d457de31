"""RDNA4 (gfx1200/1201). Opcodes: LLVM VOP3PInstructions.td (GFX12 WMMA/SWMMAC).

fp8/bf8 are OCP formats here. The FP8/BF8 instructions take no NEG/NEG_HI (as the
reference reports; LLVM accepts neg on C, see the README's open points); every
SWMMAC takes OPSEL as the compression-index set selector.
"""
from instructions.model import table_block
from instructions.rdna3 import NEG

WMMA = {"arch": "RDNA4", "encoding": "VOP3P", "align": 4, "coexec": False,
        "cd_arch_vgpr": None, "fp8_flavour": ""}
wmma = table_block(**WMMA, modifiers=NEG)
wmma8 = table_block(**WMMA)
# OPSEL of a SWMMAC: the compression-index set
swmmac = table_block(**WMMA, modifiers=("opsel",) + NEG)
swmmac8 = table_block(**WMMA, modifiers=("opsel",))
# Integer inputs: NEG[1:0] marks A and B signed; no NEG_HI. (The SWMMAC's OPSEL range
# depends on the wave size: v_swmmac_i32_16x16x64_iu4 takes only 0 in wave32.)
wmma_int = table_block(**WMMA, modifiers=("neg",))
swmmac_int = table_block(**WMMA, modifiers=("opsel", "neg"))

INSTRUCTIONS = (
    wmma("v_wmma_f32_16x16x16_f16", 0x40, 16),
    wmma("v_wmma_f32_16x16x16_bf16", 0x41, 16),
    wmma("v_wmma_f16_16x16x16_f16", 0x42, 16),
    wmma("v_wmma_bf16_16x16x16_bf16", 0x43, 16),
    wmma_int("v_wmma_i32_16x16x16_iu8", 0x44, 8),
    wmma_int("v_wmma_i32_16x16x16_iu4", 0x45, 8),
    wmma_int("v_wmma_i32_16x16x32_iu4", 0x4A, 8),
    wmma8("v_wmma_f32_16x16x16_fp8_fp8", 0x46, 8),
    wmma8("v_wmma_f32_16x16x16_fp8_bf8", 0x47, 8),
    wmma8("v_wmma_f32_16x16x16_bf8_fp8", 0x48, 8),
    wmma8("v_wmma_f32_16x16x16_bf8_bf8", 0x49, 8),
    swmmac("v_swmmac_f32_16x16x32_f16", 0x50, 16),
    swmmac("v_swmmac_f32_16x16x32_bf16", 0x51, 16),
    swmmac("v_swmmac_f16_16x16x32_f16", 0x52, 16),
    swmmac("v_swmmac_bf16_16x16x32_bf16", 0x53, 16),
    swmmac_int("v_swmmac_i32_16x16x32_iu8", 0x54, 8),
    swmmac_int("v_swmmac_i32_16x16x32_iu4", 0x55, 8),
    swmmac_int("v_swmmac_i32_16x16x64_iu4", 0x56, 8),
    swmmac8("v_swmmac_f32_16x16x32_fp8_fp8", 0x57, 8),
    swmmac8("v_swmmac_f32_16x16x32_fp8_bf8", 0x58, 8),
    swmmac8("v_swmmac_f32_16x16x32_bf8_fp8", 0x59, 8),
    swmmac8("v_swmmac_f32_16x16x32_bf8_bf8", 0x5A, 8),
)
