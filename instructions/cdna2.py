"""CDNA2 (gfx90a, MI200). Opcodes: LLVM VOP3PInstructions.td / MC test mai-gfx90a.s.

CDNA2 keeps all of CDNA1's MFMAs (same opcodes, cycles and blocks); C/D may also live in
ArchVGPRs, registers align to 8 bytes and VALU co-execution leaves 4 cycles. It adds
the bf16_1k MFMAs (listed after the int8 ones, as the reference lists them) and FP64.
"""
from instructions.cdna1 import INSTRUCTIONS as CDNA1
from instructions.model import table_block, variant
from instructions.modifiers import BLGP, BROADCAST

CARRIED = tuple(variant(inst, arch="CDNA2", align=8, coexec_gap=4, cd_arch_vgpr=True)
                for inst in CDNA1)
FIRST_BF16 = next(n for n, inst in enumerate(CARRIED) if "bf16" in inst.mnemonic)

mfma = table_block(arch="CDNA2", modifiers=BLGP)
multi = table_block(arch="CDNA2", modifiers=BROADCAST)
fp64 = table_block(arch="CDNA2", coexec=False)

BF16_1K = (
    multi("v_mfma_f32_32x32x4bf16_1k", 0x63, 64, blocks=2),
    multi("v_mfma_f32_16x16x4bf16_1k", 0x64, 32, blocks=4),
    multi("v_mfma_f32_4x4x4bf16_1k", 0x65, 8, blocks=16),
    mfma("v_mfma_f32_32x32x8bf16_1k", 0x66, 64),
    mfma("v_mfma_f32_16x16x16bf16_1k", 0x67, 32),
)

INSTRUCTIONS = CARRIED[:FIRST_BF16] + BF16_1K + CARRIED[FIRST_BF16:] + (
    fp64("v_mfma_f64_16x16x4f64", 0x6E, 32),
    fp64("v_mfma_f64_4x4x4f64", 0x6F, 16, blocks=4),
)
