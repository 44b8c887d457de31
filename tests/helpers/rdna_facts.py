"""RDNA3 / RDNA4 facts as literal data, each under the ID its source gives it.

Sources: docs/facts/gfx1250_rdna4.md part B (IDs "B.<section>...") and
facts/gfx1250_examples.txt part 2 (IDs "R-...", "X-..."), REFERENCE_CLI.md (IDs "REF-§..."),
and the GPUOpen RDNA4 article, seed 001 (IDs "S001-L<line>"). Coordinates are the
matrix's own: A[i][k] -> (i, k), B[k][j] -> (k, j), C/D[i][j] -> (i, j), K[i][k] -> (i, k).
Only RDNA4 (gfx12) facts are here; the gfx1250 facts of the same files are not
implemented by this project.
"""

# B.2: mnemonic, VOP3P opcode, wave32 (A, B, C or D) and wave64 VGPRs, the reference's cycles.
# Sparse rows: the third count is D's, and the compression index takes 1 VGPR in both waves.
GFX12_TABLE = (
    ("v_wmma_f32_16x16x16_f16", 0x40, (4, 4, 8), (2, 2, 4), 16),
    ("v_wmma_f32_16x16x16_bf16", 0x41, (4, 4, 8), (2, 2, 4), 16),
    ("v_wmma_f16_16x16x16_f16", 0x42, (4, 4, 4), (2, 2, 2), 16),
    ("v_wmma_bf16_16x16x16_bf16", 0x43, (4, 4, 4), (2, 2, 2), 16),
    ("v_wmma_i32_16x16x16_iu8", 0x44, (2, 2, 8), (1, 1, 4), 8),
    ("v_wmma_i32_16x16x16_iu4", 0x45, (1, 1, 8), (1, 1, 4), 8),
    ("v_wmma_f32_16x16x16_fp8_fp8", 0x46, (2, 2, 8), (1, 1, 4), 8),
    ("v_wmma_f32_16x16x16_fp8_bf8", 0x47, (2, 2, 8), (1, 1, 4), 8),
    ("v_wmma_f32_16x16x16_bf8_fp8", 0x48, (2, 2, 8), (1, 1, 4), 8),
    ("v_wmma_f32_16x16x16_bf8_bf8", 0x49, (2, 2, 8), (1, 1, 4), 8),
    ("v_wmma_i32_16x16x32_iu4", 0x4A, (2, 2, 8), (1, 1, 4), 8),
    ("v_swmmac_f32_16x16x32_f16", 0x50, (4, 8, 8), (2, 4, 4), 16),
    ("v_swmmac_f32_16x16x32_bf16", 0x51, (4, 8, 8), (2, 4, 4), 16),
    ("v_swmmac_f16_16x16x32_f16", 0x52, (4, 8, 4), (2, 4, 2), 16),
    ("v_swmmac_bf16_16x16x32_bf16", 0x53, (4, 8, 4), (2, 4, 2), 16),
    ("v_swmmac_i32_16x16x32_iu8", 0x54, (2, 4, 8), (1, 2, 4), 8),
    ("v_swmmac_i32_16x16x32_iu4", 0x55, (1, 2, 8), (1, 1, 4), 8),
    ("v_swmmac_i32_16x16x64_iu4", 0x56, (2, 4, 8), (1, 2, 4), 8),
    ("v_swmmac_f32_16x16x32_fp8_fp8", 0x57, (2, 4, 8), (1, 2, 4), 8),
    ("v_swmmac_f32_16x16x32_fp8_bf8", 0x58, (2, 4, 8), (1, 2, 4), 8),
    ("v_swmmac_f32_16x16x32_bf8_fp8", 0x59, (2, 4, 8), (1, 2, 4), 8),
    ("v_swmmac_f32_16x16x32_bf8_bf8", 0x5A, (2, 4, 8), (1, 2, 4), 8),
)

# B.3 / R-SP-8 / REFERENCE_CLI §8.4: the largest legal SWMMAC OPSEL (index_key), wave32 and
# wave64. 16-bit keys pick a half of the index VGPR, 8-bit keys a byte.
OPSEL_TOP = {
    "v_swmmac_f32_16x16x32_f16": (1, 3),
    "v_swmmac_f32_16x16x32_bf16": (1, 3),
    "v_swmmac_f16_16x16x32_f16": (1, 3),
    "v_swmmac_bf16_16x16x32_bf16": (1, 3),
    "v_swmmac_i32_16x16x32_iu8": (1, 3),
    "v_swmmac_f32_16x16x32_fp8_fp8": (1, 3),
    "v_swmmac_f32_16x16x32_fp8_bf8": (1, 3),
    "v_swmmac_f32_16x16x32_bf8_fp8": (1, 3),
    "v_swmmac_f32_16x16x32_bf8_bf8": (1, 3),
    "v_swmmac_i32_16x16x32_iu4": (1, 1),
    "v_swmmac_i32_16x16x64_iu4": (0, 1),
}

# Single elements: (fact ID, arch, mnemonic, wave, matrix, (row, col), OPSEL, what -g prints).
W = "v_wmma_f32_16x16x16_f16"
H = "v_wmma_f16_16x16x16_f16"
S = "v_swmmac_f32_16x16x32_f16"
ELEMENTS = (
    ("R-A-1", "RDNA4", W, 32, "A", (3, 5), 0, ["v0{19}.[31:16]"]),
    ("R-A-1", "RDNA4", W, 64, "A", (3, 5), 0, ["v0{19}.[31:16]"]),
    ("R-A-2", "RDNA4", W, 32, "A", (3, 13), 0, ["v2{19}.[31:16]"]),
    ("R-A-2", "RDNA4", W, 64, "A", (3, 13), 0, ["v0{51}.[31:16]"]),
    ("R-A-3", "RDNA4", W, 32, "B", (6, 9), 0, ["v1{25}.[15:0]"]),
    ("R-A-4", "RDNA4", "v_wmma_i32_16x16x16_iu8", 32, "A", (2, 11), 0, ["v0{18}.[31:24]"]),
    ("R-A-5", "RDNA4", "v_wmma_i32_16x16x32_iu4", 32, "B", (21, 4), 0, ["v0{20}.[23:20]"]),
    ("R-A-6", "RDNA4", "v_wmma_i32_16x16x16_iu4", 32, "A", (1, 9), 0, ["v0{17}.[7:4]"]),
    ("R-A-7", "RDNA4", "v_wmma_f32_16x16x16_fp8_fp8", 32, "A", (15, 15), 0, ["v1{31}.[31:24]"]),
    ("R-A-7", "RDNA4", "v_wmma_f32_16x16x16_fp8_fp8", 64, "A", (15, 15), 0, ["v0{63}.[31:24]"]),
    ("R-CD-1", "RDNA4", W, 32, "D", (10, 5), 0, ["v2{21}"]),
    ("R-CD-1", "RDNA4", W, 64, "D", (10, 5), 0, ["v2{21}"]),
    ("R-CD-2", "RDNA4", H, 64, "D", (5, 3), 0, ["v0{35}.[31:16]"]),
    ("R-CD-3", "RDNA4", H, 32, "D", (5, 3), 0, ["v2{3}.[31:16]"]),
    ("R-CD-3", "RDNA4", H, 64, "D", (5, 3), 0, ["v0{35}.[31:16]"]),
    ("R-SP-1", "RDNA4", S, 32, "A", (4, 22), 0, ["v3{4}"]),
    ("R-SP-1", "RDNA4", S, 32, "A", (4, 21), 0, ["v3{4}"]),
    ("R-SP-1", "RDNA4", S, 64, "A", (4, 22), 0, ["v1{36}"]),
    ("R-SP-2", "RDNA4", S, 32, "B", (22, 4), 0, ["v7{4}.[15:0]"]),
    ("R-SP-2", "RDNA4", S, 64, "B", (22, 4), 0, ["v3{36}.[15:0]"]),
    ("R-SP-3", "RDNA4", S, 32, "K", (4, 22), 0, ["v0{4}.[15:12]"]),
    ("R-SP-3", "RDNA4", S, 32, "K", (4, 22), 1, ["v0{4}.[31:28]"]),
    ("R-SP-4", "RDNA4", S, 64, "K", (4, 22), 0, ["v0{36}.[7:4]"]),
    ("R-SP-4", "RDNA4", S, 64, "K", (4, 22), 1, ["v0{36}.[15:12]"]),
    ("R-SP-4", "RDNA4", S, 64, "K", (4, 22), 2, ["v0{36}.[23:20]"]),
    ("R-SP-5", "RDNA4", "v_swmmac_i32_16x16x32_iu8", 32, "K", (4, 22), 0, ["v0{20}.[7:4]"]),
    ("R-SP-5", "RDNA4", "v_swmmac_i32_16x16x32_iu8", 32, "A", (4, 22), 0, ["v0{20}.[31:16]"]),
    ("R-SP-5", "RDNA4", "v_swmmac_i32_16x16x32_iu8", 32, "B", (22, 4), 0, ["v1{20}.[23:16]"]),
    ("R-SP-6", "RDNA4", "v_swmmac_i32_16x16x64_iu4", 32, "K", (4, 50), 0, ["v0{20}.[19:16]"]),
    ("R-SP-6", "RDNA4", "v_swmmac_i32_16x16x64_iu4", 64, "K", (4, 50), 0, ["v0{52}.[3:0]"]),
    ("R-SP-7", "RDNA4", "v_swmmac_f32_16x16x32_fp8_fp8", 32, "K", (4, 22), 0, ["v0{20}.[7:4]"]),
    # X-1..X-3: the RDNA4 side of the cross-architecture checks
    ("X-1", "RDNA4", W, 32, "D", (10, 5), 0, ["v2{21}"]),
    ("X-2", "RDNA4", H, 32, "D", (5, 3), 0, ["v2{3}.[31:16]"]),
    ("X-3", "RDNA4", H, 32, "A", (3, 5), 0, ["v0{19}.[31:16]"]),
    ("X-3", "RDNA4", H, 32, "A", (3, 13), 0, ["v2{19}.[31:16]"]),
    # REFERENCE_CLI.md: §7 (the wave size moves C/D), §6.1 (RDNA3 A/B in two lanes), §8.4
    ("REF-§7", "RDNA3", H, 32, "C", (3, 2), 0, ["v1{18}.[15:0]"]),
    ("REF-§7", "RDNA3", H, 64, "C", (3, 2), 0, ["v0{50}.[15:0]"]),
    ("REF-§6.1", "RDNA3", W, 32, "A", (3, 5), 0, ["v2{3}.[31:16]", "v2{19}.[31:16]"]),
    ("REF-§8.3", "RDNA3", H, 32, "C", (3, 2), 4, ["v1{18}.[31:16]"]),
    ("REF-§8.4", "RDNA4", S, 32, "K", (3, 5), 0, ["v0{3}.[7:4]"]),
    ("REF-§8.4", "RDNA4", S, 32, "K", (3, 5), 1, ["v0{3}.[23:20]"]),
)

# Seed 001, lines 16-19: FLOPS per clock per CU, RX 7900 XTX (RDNA3) and RX 9070 XT (RDNA4),
# with the instruction that delivers each column. A WGP is two CUs.
THROUGHPUT = (
    ("RDNA3", "FP16", "v_wmma_f32_16x16x16_f16", 512),
    ("RDNA3", "BF16", "v_wmma_f32_16x16x16_bf16", 512),
    ("RDNA3", "I8", "v_wmma_i32_16x16x16_iu8", 512),
    ("RDNA4", "FP16", "v_wmma_f32_16x16x16_f16", 1024),
    ("RDNA4", "BF16", "v_wmma_f32_16x16x16_bf16", 1024),
    ("RDNA4", "I8", "v_wmma_i32_16x16x16_iu8", 2048),
)
