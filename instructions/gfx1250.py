"""gfx1250 ("CDNA 5", Instinct MI450 series): WMMA, scaled WMMA and SWMMAC, wave32 only.

Facts and sources: docs/facts/gfx1250_rdna4.md (Part A) and LLVM 22's assembler
(tests/data/gfx1250_llvm_mc.txt, recorded by tests/data/regen_gfx1250_llvm.py):
opcodes (the VOP3P OP field; for the 128-bit scaled forms the v_wmma_ld_scale*_paired
opcode of the first half in `prefix_opcode` and the WMMA's in `opcode`), operand widths
and the modifiers each instruction takes are LLVM's. `cycles` is the latency of LLVM's
gfx1250 scheduling model as llvm-mca-22 reports it (tests/data/gfx1250_llvm_mca.txt):
the compiler's model, not the ISA's, which publishes no WMMA cycle counts.

Modifiers (LLVM's names): neg_lo / neg_hi (which bits are legal depends on the data
types: layouts/gfx1250.py, `check`), matrix_a_fmt / matrix_b_fmt (f8f6f4), index_key
(SWMMAC), matrix_a_scale / matrix_b_scale and their *_fmt (scaled forms) and the reuse
hints matrix_a_reuse / matrix_b_reuse (not on the unscaled f8f6f4 and 32x16x128 f4).
"""
from instructions.model import table_block

BASE = {"arch": "GFX1250", "encoding": "VOP3P", "waves": (32,), "align": 8, "coexec": False,
        "cd_arch_vgpr": None, "fp8_flavour": ""}
NEG = ("neg_lo", "neg_hi")
REUSE = ("matrix_a_reuse", "matrix_b_reuse")
FMT = ("matrix_a_fmt", "matrix_b_fmt")
SCALE = ("matrix_a_scale", "matrix_b_scale", "matrix_a_scale_fmt", "matrix_b_scale_fmt")

wmma = table_block(**BASE, modifiers=NEG + REUSE)
wmma_int = table_block(**BASE, modifiers=("neg_lo",) + REUSE)   # neg_lo[0/1]: A/B signed
f8f6f4 = table_block(**BASE, modifiers=NEG + FMT, format_selector="matrix_fmt")
f4 = table_block(**BASE, modifiers=NEG)
# 128-bit: v_wmma_ld_scale_paired_b32 (0x35, 32-bit scales) or v_wmma_ld_scale16_paired_b64
# (0x3a, 64-bit scales), then the WMMA.
scale_f8f6f4 = table_block(**{**BASE, "encoding": "VOP3PX2"}, modifiers=NEG + FMT + SCALE + REUSE,
                      format_selector="matrix_fmt")
scale_f4 = table_block(**{**BASE, "encoding": "VOP3PX2"}, modifiers=NEG + SCALE + REUSE)
swmmac = table_block(**BASE, modifiers=NEG + ("index_key",) + REUSE)
swmmac8 = table_block(**BASE, modifiers=("index_key",) + REUSE)
swmmac_int = table_block(**BASE, modifiers=("neg_lo", "index_key") + REUSE)

INSTRUCTIONS = (
    wmma("v_wmma_f32_16x16x4_f32", 0x5D, 16),
    wmma("v_wmma_f32_16x16x32_f16", 0x60, 8),
    wmma("v_wmma_f16_16x16x32_f16", 0x61, 8),
    wmma("v_wmma_f32_16x16x32_bf16", 0x62, 8),
    wmma("v_wmma_bf16_16x16x32_bf16", 0x63, 8),
    wmma("v_wmma_bf16f32_16x16x32_bf16", 0x64, 8),
    wmma("v_wmma_f32_16x16x64_fp8_fp8", 0x6A, 8),
    wmma("v_wmma_f32_16x16x64_fp8_bf8", 0x6B, 8),
    wmma("v_wmma_f32_16x16x64_bf8_fp8", 0x6C, 8),
    wmma("v_wmma_f32_16x16x64_bf8_bf8", 0x6D, 8),
    wmma("v_wmma_f16_16x16x64_fp8_fp8", 0x6E, 8),
    wmma("v_wmma_f16_16x16x64_fp8_bf8", 0x6F, 8),
    wmma("v_wmma_f16_16x16x64_bf8_fp8", 0x70, 8),
    wmma("v_wmma_f16_16x16x64_bf8_bf8", 0x71, 8),
    wmma_int("v_wmma_i32_16x16x64_iu8", 0x72, 16),
    wmma("v_wmma_f32_16x16x128_fp8_fp8", 0x80, 8),
    wmma("v_wmma_f32_16x16x128_fp8_bf8", 0x81, 8),
    wmma("v_wmma_f32_16x16x128_bf8_fp8", 0x82, 8),
    wmma("v_wmma_f32_16x16x128_bf8_bf8", 0x83, 8),
    wmma("v_wmma_f16_16x16x128_fp8_fp8", 0x84, 8),
    wmma("v_wmma_f16_16x16x128_fp8_bf8", 0x85, 8),
    wmma("v_wmma_f16_16x16x128_bf8_fp8", 0x86, 8),
    wmma("v_wmma_f16_16x16x128_bf8_bf8", 0x87, 8),
    f8f6f4("v_wmma_f32_16x16x128_f8f6f4", 0x33, 8),
    f4("v_wmma_f32_32x16x128_f4", 0x88, 8),
    scale_f8f6f4("v_wmma_scale_f32_16x16x128_f8f6f4", 0x33, 8, prefix_opcode=0x35),
    scale_f8f6f4("v_wmma_scale16_f32_16x16x128_f8f6f4", 0x33, 8, prefix_opcode=0x3A),
    scale_f4("v_wmma_scale_f32_32x16x128_f4", 0x88, 8, prefix_opcode=0x35),
    scale_f4("v_wmma_scale16_f32_32x16x128_f4", 0x88, 8, prefix_opcode=0x3A),
    swmmac("v_swmmac_f32_16x16x64_f16", 0x65, 8),
    swmmac("v_swmmac_f32_16x16x64_bf16", 0x66, 8),
    swmmac("v_swmmac_f16_16x16x64_f16", 0x67, 8),
    swmmac("v_swmmac_bf16_16x16x64_bf16", 0x68, 8),
    # C f32 (8 VGPRs), D bf16 packed into the first 4 of them (rocjitsu; LLVM
    # types the tied operand v8f32: gfx1250_provenance.CD_BF16F32_SPARSE).
    swmmac("v_swmmac_bf16f32_16x16x64_bf16", 0x69, 8),
    swmmac8("v_swmmac_f32_16x16x128_fp8_fp8", 0x73, 8),
    swmmac8("v_swmmac_f32_16x16x128_fp8_bf8", 0x74, 8),
    swmmac8("v_swmmac_f32_16x16x128_bf8_fp8", 0x75, 8),
    swmmac8("v_swmmac_f32_16x16x128_bf8_bf8", 0x76, 8),
    swmmac8("v_swmmac_f16_16x16x128_fp8_fp8", 0x77, 8),
    swmmac8("v_swmmac_f16_16x16x128_fp8_bf8", 0x78, 8),
    swmmac8("v_swmmac_f16_16x16x128_bf8_fp8", 0x79, 8),
    swmmac8("v_swmmac_f16_16x16x128_bf8_bf8", 0x7A, 8),
    swmmac_int("v_swmmac_i32_16x16x128_iu8", 0x7B, 16),
)

# AMD origami's cycles per matrix instruction (ROCm/rocm-libraries
# shared/origami/include/origami/hardware.hpp @0192efda, INSTRUCTION_MAP[gfx1250]),
# keyed there by M, N, K and data type; no SWMMAC rows, and f8f6f4 only for a format
# pair of one type (fp8/bf8 128: 8, fp6: 8, fp4: 4). Beside LLVM's scheduling model
# (`cycles`) in -d and --json, never instead of it.
ORIGAMI_CYCLES = {
    "v_wmma_f64_16x16x4_f64": 16, "v_wmma_f32_16x16x4_f32": 16,
    **{f"v_wmma_{d}_16x16x32_{ab}": 8 for d, ab in (("f32", "f16"), ("f16", "f16"),
                                                     ("f32", "bf16"), ("bf16", "bf16"),
                                                     ("bf16f32", "bf16"))},
    **{f"v_wmma_{d}_16x16x{k}_{a}_{b}": k // 16 for d in ("f32", "f16") for k in (64, 128)
       for a in ("fp8", "bf8") for b in ("fp8", "bf8")},
    "v_wmma_i32_16x16x64_iu8": 8,
    "v_wmma_f32_32x16x128_f4": 8, "v_wmma_scale_f32_32x16x128_f4": 8,
    "v_wmma_scale16_f32_32x16x128_f4": 8,
}
ORIGAMI_F8F6F4 = {**{(a, b): 8 for a in ("fp8", "bf8") for b in ("fp8", "bf8")},
                  ("fp6", "fp6"): 8, ("fp4", "fp4"): 4}  # (A, B) formats -> cycles
