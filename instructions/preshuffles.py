"""Preshuffle schemes in use, as data: each is the reshape/permute chain its source
applies to a stored 2-D matrix (outer x inner items, the inner index contiguous), with
the source's repository, commit, path and function (docs/preshuffle.md and
docs/facts/preshuffle.md cite them). layouts.preshuffle_presets compares a scheme with
the instruction's layout; nothing here computes.

A chain splits the outer extent O into (O // prod(rows), *rows) and the inner extent I
into (I // prod(cols), *cols), then orders those axes as `perm` (0 is the outer block
axis, 1 .. len(rows) the row factors, then the inner block axis and the column
factors). Sizes may name `item`: 16 // item bytes (the items one 16-byte load holds).
"""
from __future__ import annotations

from instructions.record import Record


class Scheme(Record):
    """One preshuffle scheme: `key` (--preset), its title, the operands it serves
    ("weight": A or B data, K contiguous; "scale": SA or SB), the architectures whose
    kernels read it (by architecture name), the chain (rows, cols, perm; see the
    module text), the load width and supertile the kernels use, and its source."""
    key: str
    title: str
    operand: str
    archs: tuple[str, ...]
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    perm: tuple[int, ...]
    width: int
    supertile: tuple[int, int]
    source: str
    code: str


AITER = "ROCm/aiter @ e4048607a535ace3a2b51ded31b1c8c2d45c0879"
CK_OLD = "ROCm/composable_kernel @ 00e61e0b01671559d97a1a6b39db6068a0cc842c"
CK_NEW = "ROCm/rocm-libraries @ 0dade0e101f4929263573d1923dcbde24ce1bf72"
SEED = "the MI355X write-up (shared seed 003), section 'Matrix core layouts'"

SCHEMES = (
    Scheme("aiter", "aiter shuffle_weight, layout (16, 16)", "weight",
           ("cdna3", "cdna4"), ("16",), ("2", "item"), (0, 2, 3, 1, 4), 16, (1, 1),
           f"{AITER} aiter/ops/shuffle.py shuffle_weight",
           "x.view(-1, N // 16, 16, K // 32, 32 // item, item).permute(0, 1, 3, 4, 2, 5), "
           "item = 16 // element_size (K = 32 items: 2 x 16 bytes for 1-byte items)"),
    Scheme("aiter-scale", "aiter shuffle_scale / e8m0_shuffle (CDNA4 2x2 scale supertile)",
           "scale", ("cdna4",), ("2", "16"), ("2", "4"), (0, 3, 5, 2, 4, 1), 4, (2, 2),
           f"{AITER} aiter/ops/shuffle.py shuffle_scale (aiter/utility/fp4_utils.py "
           "e8m0_shuffle calls it)",
           "scale.view(M // 32, 2, 16, K // 8, 2, 4).permute(0, 3, 5, 2, 4, 1), after padding "
           "M to a multiple of 256 and K to a multiple of 8"),
    Scheme("aiter-gfx1250", "aiter gfx1250 WMMA weight shuffle", "weight", ("gfx1250",),
           ("16",), ("2", "16"), (0, 2, 3, 1, 4), 16, (1, 1),
           f"{AITER} aiter/ops/triton/utils/shuffle.py _shuffle_weight_gfx1250",
           "w.view(N // 16, 16, K // 32, 2, 16).permute(0, 2, 3, 1, 4) (bytes)"),
    Scheme("aiter-gfx1250-scale", "aiter gfx1250 scale tile (16 lanes x 4 K-blocks)",
           "scale", ("gfx1250",), ("16",), ("4",), (0, 2, 1, 3), 4, (1, 2),
           f"{AITER} aiter/ops/triton/utils/shuffle.py _shuffle_scale_tile_gfx1250 "
           "(preshuffle_factor 16, scale_kwidth 4)",
           "x.view(-1, M // 16, 16, K // 4, 4).permute(0, 1, 3, 2, 4)"),
    Scheme("ck", "composable_kernel ck_tile shuffle_b (CDNA, wave64)", "weight",
           ("cdna3", "cdna4"), ("N_warp",), ("K_warp_lanes", "K_per_lane"),
           (0, 2, 3, 1, 4), 0, (1, 1),
           f"{CK_OLD} include/ck_tile/host/tensor_shuffle_utils.hpp shuffle_b; the same "
           f"order in {CK_NEW} projects/composablekernel/include/ck_tile/host/"
           "tensor_shuffle_utils.hpp (ItemsPerAccess = K_Warp_Tile / KLane)",
           "HostTensor view {N / N_Warp_Tile, N_Warp_Tile, K / K_Warp_Tile, divisor, "
           "K_Warp_Tile / divisor}, reference_permute {0, 2, 3, 1, 4}; divisor = 2 for "
           "N_Warp_Tile 32, else 4 (the warp tile is the instruction's N x K)"),
    Scheme("seed-b", "the MI355X write-up's B shuffle (fp4x2 bytes)", "weight", ("cdna4",),
           ("16",), ("16",), (0, 2, 1, 3), 16, (1, 1), SEED,
           "B_q.view(-1, 16, K // 16, 16).permute(0, 2, 1, 3) (bytes)"),
    Scheme("seed-b-scale", "the MI355X write-up's B-scale shuffle (2x2 supertile)", "scale",
           ("cdna4",), ("2", "16"), ("2", "4"), (0, 3, 5, 2, 4, 1), 4, (2, 2), SEED,
           "Bs.view(-1, 2, 16, K // 8, 2, 4).permute(0, 3, 5, 2, 4, 1)"),
)


# The global memory accesses of one lane by bytes, in the two spellings LLVM uses: gfx9
# (CDNA) and gfx11+ (RDNA3/4, gfx1250), the same split as the LDS mnemonics of
# instructions.lane_moves (ArchMoves.load "ds_read_b" / "ds_load_b") [SRC] llvm-mc-22.
GLOBAL_LOADS = {
    "ds_read_b": {1: "global_load_ubyte", 2: "global_load_ushort", 4: "global_load_dword",
                  8: "global_load_dwordx2", 12: "global_load_dwordx3",
                  16: "global_load_dwordx4"},
    "ds_load_b": {1: "global_load_u8", 2: "global_load_u16", 4: "global_load_b32",
                  8: "global_load_b64", 12: "global_load_b96", 16: "global_load_b128"},
}
GLOBAL_STORES = {
    "ds_read_b": {1: "global_store_byte", 2: "global_store_short", 4: "global_store_dword",
                  8: "global_store_dwordx2", 12: "global_store_dwordx3",
                  16: "global_store_dwordx4"},
    "ds_load_b": {1: "global_store_b8", 2: "global_store_b16", 4: "global_store_b32",
                  8: "global_store_b64", 12: "global_store_b96", 16: "global_store_b128"},
}
