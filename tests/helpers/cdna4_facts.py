"""Literal data of tests/data/facts/cdna4_examples.txt (the gfx950 fact list E01-E64),
kept here so that tests/instructions/test_cdna4_facts.py runs from the repository alone.

Places are written as (first VGPR, lane, low bit, high bit), the bits counted from bit 0
of the first VGPR: a value that straddles two VGPRs has a high bit above 31 (E31's
"VGPR 0 bits [31:30] + VGPR 1 bits [3:0]" is (0, 0, 30, 35)). Element coordinates are
in the matrix's own order: A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] -> (i, j),
K[i][k] -> (i, k), SA[i][kb] -> (i, kb), SB[kb][j] -> (kb, j).
"""

S16 = "v_mfma_scale_f32_16x16x128_f8f6f4"
S32 = "v_mfma_scale_f32_32x32x64_f8f6f4"
U16 = "v_mfma_f32_16x16x128_f8f6f4"
U32 = "v_mfma_f32_32x32x64_f8f6f4"
F8F6F4 = (U16, U32, S16, S32)

FACT_IDS = tuple(f"E{n:02d}" for n in range(1, 65))

# id: (instruction, matrix, element, modifiers, place)
PLACE_FACTS = {
    # F8F6F4 A/B (CBSZ = A format, BLGP = B format: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)
    "E21": (S16, "A", (3, 40), {"cbsz": 4}, (1, 19, 0, 3)),
    "E22": (U16, "A", (15, 127), {"cbsz": 4}, (3, 63, 28, 31)),
    "E23": (S32, "A", (31, 33), {"cbsz": 4}, (0, 63, 4, 7)),
    "E24": (S32, "B", (35, 7), {"blgp": 4}, (0, 39, 12, 15)),
    "E25": (U16, "A", (0, 70), {"cbsz": 0}, (5, 0, 16, 23)),
    "E26": (U16, "A", (5, 20), {"cbsz": 0}, (1, 21, 0, 7)),
    "E27": (S16, "B", (127, 2), {"blgp": 1}, (7, 50, 24, 31)),
    "E28": (U32, "A", (0, 16), {"cbsz": 0}, (0, 32, 0, 7)),
    "E29": (U32, "A", (10, 40), {"cbsz": 0}, (6, 10, 0, 7)),
    "E30": (S32, "B", (50, 20), {"blgp": 0}, (4, 52, 16, 23)),
    "E31": (U16, "A", (0, 5), {"cbsz": 2}, (0, 0, 30, 35)),
    "E32": (U16, "A", (1, 16), {"cbsz": 2}, (3, 1, 0, 5)),
    "E33": (S16, "A", (4, 42), {"cbsz": 3}, (1, 20, 28, 33)),
    "E34": (U32, "A", (7, 63), {"cbsz": 2}, (5, 39, 26, 31)),
    "E35": (U16, "B", (127, 9), {"blgp": 2}, (5, 57, 26, 31)),
    "E36": (S32, "B", (26, 0), {"blgp": 3}, (4, 0, 28, 33)),
    # new dense 16-/8-bit layouts and C/D
    "E37": ("v_mfma_f32_16x16x32_f16", "A", (3, 13), {}, (2, 19, 16, 31)),
    "E38": ("v_mfma_f32_32x32x16_bf16", "A", (31, 15), {}, (3, 63, 16, 31)),
    "E39": ("v_mfma_f32_16x16x32_bf16", "B", (30, 9), {}, (3, 57, 0, 15)),
    "E40": ("v_mfma_i32_16x16x64_i8", "A", (2, 37), {}, (1, 34, 8, 15)),
    "E41": ("v_mfma_i32_32x32x32_i8", "B", (20, 7), {}, (1, 39, 0, 7)),
    "E42": ("v_mfma_f32_16x16x32_f16", "D", (5, 3), {}, (1, 19, 0, 31)),
    "E43": ("v_mfma_f32_32x32x16_f16", "D", (13, 31), {}, (5, 63, 0, 31)),
    "E44": (S32, "D", (31, 0), {}, (15, 32, 0, 31)),
    "E45": ("v_mfma_i32_16x16x64_i8", "D", (15, 15), {}, (3, 63, 0, 31)),
    # block scales: one byte (OPSEL) of one VGPR, lane i + M*kb (A) / j + N*kb (B)
    "E46": (S16, "SA", (5, 2), {}, (0, 37, 0, 7)),
    "E47": (S16, "SB", (3, 15), {}, (0, 63, 0, 7)),
    "E48": (S32, "SB", (1, 20), {}, (0, 52, 0, 7)),
    # gfx950 SMFMAC B
    "E58": ("v_smfmac_f32_16x16x64_f16", "B", (40, 5), {}, (4, 21, 0, 15)),
    "E59": ("v_smfmac_f32_32x32x64_bf8_bf8", "B", (50, 3), {}, (4, 35, 16, 23)),
    "E60": ("v_smfmac_i32_16x16x128_i8", "B", (100, 9), {}, (5, 41, 0, 7)),
    "E61": ("v_smfmac_f32_32x32x32_f16", "B", (20, 1), {}, (6, 1, 0, 15)),
}

# Sparse A and its compression index (the 4-group slot and the 4-bit index field).
SPARSE_FACTS = {
    # id: (instruction, A element, A place, [(cbsz, abid, index place)])
    "E55": ("v_smfmac_f32_16x16x64_f16", (2, 21), (1, 18, 0, 31),
            [(0, 0, (0, 18, 4, 7)), (0, 1, (0, 18, 20, 23))]),
    "E56": ("v_smfmac_i32_16x16x128_i8", (3, 45), (1, 19, 16, 31), [(0, 0, (0, 19, 12, 15))]),
    "E57": ("v_smfmac_f32_32x32x64_fp8_fp8", (1, 63), (3, 33, 16, 31),
            [(0, 0, (0, 33, 28, 31))]),
}

# VOP3P opcodes (E01-E05), as the ISA's Table 90 and LLVM's real-opcode lines give them.
OPCODES = {
    "v_mfma_f32_16x16x32_f16": 0x54,
    "v_mfma_f32_32x32x16_bf16": 0x37,
    U16: 0x2D, S16: 0x2D, U32: 0x2E, S32: 0x2E,
    "v_smfmac_f32_16x16x128_fp8_fp8": 0x43,
    "v_smfmac_f32_16x16x128_bf8_bf8": 0x3B,
    "v_smfmac_f32_16x16x128_bf8_fp8": 0x3C,
    "v_smfmac_f32_16x16x128_fp8_bf8": 0x3D,
    "v_smfmac_f32_32x32x32_bf16": 0x46,
    "v_smfmac_i32_32x32x64_i8": 0x47,
    "v_smfmac_f32_16x16x64_f16": 0x5A,  # E16 (byte 2 of its encoding, 0xda)
}
LD_SCALE_OPCODE = 0x2C

# Encodings quoted by the facts (LLVM MC tests), byte lists.
ENCODINGS = {
    # E01: v_mfma_f32_16x16x32_f16 v[0:3], v[0:3], v[0:3], v[0:3]
    "E01": ("v_mfma_f32_16x16x32_f16", [0x00, 0x00, 0xD4, 0xD3, 0x00, 0x01, 0x02, 0x04]),
    # E02: v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[0:3], v[0:15]
    "E02": ("v_mfma_f32_32x32x16_bf16", [0x00, 0x00, 0xB7, 0xD3, 0x00, 0x01, 0x02, 0x04]),
    # E15: v_mfma_f32_16x16x128_f8f6f4 a[0:3], a[4:11], a[4:9], a[0:3] cbsz:1 blgp:3
    "E15": (U16, [0x00, 0x81, 0xAD, 0xD3, 0x04, 0x09, 0x02, 0x7C]),
    # E16: v_smfmac_f32_16x16x64_f16 v[10:13], a[2:5], v[4:11], v3 cbsz:3 abid:1
    "E16": ("v_smfmac_f32_16x16x64_f16", [0x0A, 0x0B, 0xDA, 0xD3, 0x02, 0x09, 0x0E, 0x0C]),
    # E18: v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[20:23], v24, v25
    #      op_sel_hi:[0,0,0] (a v_mfma_ld_scale_b32 dword pair, then the MFMA pair)
    "E18": (S16, [0x00, 0x00, 0xAC, 0xD3, 0x18, 0x33, 0x02, 0x00,
                  0x00, 0x08, 0xAD, 0xD3, 0x04, 0x19, 0x52, 0x04]),
    # E51: the ld_scale dword with op_sel:[0,1,0]; byte 7 of the pair with op_sel_hi:[0,1,0]
    "E51": (S16, [0x00, 0x10, 0xAC, 0xD3]),
}

# E13: VGPRs of an A or B operand of the f8f6f4 instructions, by format code.
F8F6F4_REGISTERS = {0: 8, 1: 8, 2: 6, 3: 6, 4: 4}

# E63/E64: the formats by code, their exponent/mantissa widths and largest finite values.
FORMATS = {0: ("fp8", 4, 3, 448.0), 1: ("bf8", 5, 2, 57344.0), 2: ("fp6", 2, 3, 7.5),
           3: ("bf6", 3, 2, 28.0), 4: ("fp4", 2, 1, 6.0)}
