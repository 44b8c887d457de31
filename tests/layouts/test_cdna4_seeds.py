"""The HIP kernels of seed 000 (AMD ROCm blog, "Matrix Core Programming on CDNA3 and
CDNA4") and the MI355X mxfp4 kernel of seed 003: their index arithmetic re-computed and
compared with Operand.places for every element.

(Shared helpers: tests/helpers/cdna4_common.py.)
"""
import pytest

from instructions import find_architecture
from layouts import Operand
from tests.helpers.cdna4_common import operand, where
from tests.helpers.cdna4_facts import S16, S32

# ---- seed 000: the blog's HIP kernels -----------------------------------------------------
# `tid` is threadIdx.x, the lane. Matrices are row-major in memory. A vector register
# variable of n-bit values holds value v in bits n*v .. n*v+n-1 of its VGPR group.

def vector_item(index, bits, lane):
    lo = index * bits
    return (lo // 32, lane, lo % 32, lo % 32 + bits - 1)


def row_major(flat, cols):
    return divmod(flat, cols)


def check_loads(op, loads):
    """`loads`: (element, expected place) pairs; every element of `op` appears once."""
    seen = set()
    for elem, want in loads:
        assert where(op, elem + (0,)) == want, (op.matrix, elem)
        seen.add(elem)
    assert seen == {e[:2] for e in op.elements()}, op.matrix


def c_store_32x32(op):
    """C[tid%32 + (tid/32)*4*32 + 32*r + i*32*8] = c_reg[i*4 + r]."""
    check_loads(op, [(row_major(tid % 32 + tid // 32 * 128 + 32 * r + 256 * i, 32),
                      (4 * i + r, tid, 0, 31))
                     for tid in range(64) for i in range(4) for r in range(4)])


SEED_ARCHS = ["cdna3", "cdna4"]


@pytest.mark.parametrize("arch", SEED_ARCHS)
def test_seed000_32x32x2_f32(arch):
    inst = find_architecture(arch).find("v_mfma_f32_32x32x2_f32")
    a, b, d = (Operand(inst, m) for m in "ABD")
    # a_reg = A[tid/32 + 2*(tid%32)]; b_reg = B[tid%32 + (tid/32)*32]
    check_loads(a, [(row_major(tid // 32 + 2 * (tid % 32), 2), (0, tid, 0, 31))
                    for tid in range(64)])
    check_loads(b, [(row_major(tid % 32 + tid // 32 * 32, 32), (0, tid, 0, 31))
                    for tid in range(64)])
    c_store_32x32(d)


@pytest.mark.parametrize("arch", SEED_ARCHS)
def test_seed000_16x16x16_f16(arch):
    inst = find_architecture(arch).find("v_mfma_f32_16x16x16_f16")
    a, b, d = (Operand(inst, m) for m in "ABD")
    # a_reg = *(fp16x4_t*)(A + 4*(tid/16) + 16*(tid%16)); b_reg[i] = B[i*16 + tid%16 + (tid/16)*64]
    check_loads(a, [(row_major(4 * (tid // 16) + 16 * (tid % 16) + v, 16), vector_item(v, 16, tid))
                    for tid in range(64) for v in range(4)])
    check_loads(b, [(row_major(16 * i + tid % 16 + tid // 16 * 64, 16), vector_item(i, 16, tid))
                    for tid in range(64) for i in range(4)])
    check_loads(d, [(row_major(16 * i + tid % 16 + tid // 16 * 64, 16), (i, tid, 0, 31))
                    for tid in range(64) for i in range(4)])


@pytest.mark.parametrize("arch", SEED_ARCHS)
def test_seed000_32x32x16_fp8(arch):
    inst = find_architecture(arch).find("v_mfma_f32_32x32x16_fp8_fp8")
    a, b, d = (Operand(inst, m) for m in "ABD")
    # a_reg = *(fp8x8_t*)(A + (tid/32)*8 + (tid%32)*16)
    # b_reg[i] = B[i*32 + tid%32 + (tid/32)*8*32]
    check_loads(a, [(row_major(tid // 32 * 8 + tid % 32 * 16 + v, 16), vector_item(v, 8, tid))
                    for tid in range(64) for v in range(8)])
    check_loads(b, [(row_major(32 * i + tid % 32 + tid // 32 * 256, 32), vector_item(i, 8, tid))
                    for tid in range(64) for i in range(8)])
    c_store_32x32(d)


def check_one_scale_per_lane(name, cbsz, blgp):
    """Each lane passes one E8M0 byte per scale operand with OPSEL 0: bits [7:0] of v0,
    and scale_a = scale_b = 127 means a factor of 2^(127-127) = 1."""
    for matrix in ("SA", "SB"):
        op = operand(name, matrix, cbsz, blgp)
        places = [where(op, e) for e in op.elements()]
        assert sorted(p[1] for p in places) == list(range(64))
        assert {(p[0], p[2], p[3]) for p in places} == {(0, 0, 7)}
    assert 2.0 ** (127 - 127) == 1.0


def test_seed000_scaled_32x32x64_fp8():
    a, b, d = (operand(S32, m) for m in "ABD")
    # ldg_a = A + (tid%32)*64 + (tid/32)*16; a_reg[i*16 + j] = ldg_a[i*32 + j]   (A: 32 x 64)
    # ldg_b = B + tid%32 + 32*16*(tid/32);   b_reg[i*16 + j] = ldg_b[32*j + i*32*32] (B: 64 x 32)
    loads_a, loads_b = [], []
    for tid in range(64):
        for i in range(2):
            for j in range(16):
                slot = vector_item(16 * i + j, 8, tid)
                loads_a.append((row_major(tid % 32 * 64 + tid // 32 * 16 + 32 * i + j, 64), slot))
                b_flat = tid % 32 + 512 * (tid // 32) + 32 * j + 1024 * i
                loads_b.append((row_major(b_flat, 32), slot))
    check_loads(a, loads_a)
    check_loads(b, loads_b)
    c_store_32x32(d)
    check_one_scale_per_lane(S32, 0, 0)


def test_seed000_scaled_32x32x64_fp4():
    a, b, d = (operand(S32, m, 4, 4) for m in "ABD")
    loads_a, loads_b = [], []
    for tid in range(64):
        for i in range(16):
            # a_reg[i] = ldg_a[i], ldg_a = A + (tid%32)*32 + (tid/32)*16: fp4x2 bytes of a
            # 32 x 64 fp4 A (32 bytes a row), the even K in the low nibble
            row, byte = row_major(tid % 32 * 32 + tid // 32 * 16 + i, 32)
            for nibble in range(2):
                loads_a.append(((row, 2 * byte + nibble), vector_item(2 * i + nibble, 4, tid)))
            # b_reg[i] = create_fp4x2(extract(ldg_b[16*2i], tid%2),
            #                         extract(ldg_b[16*(2i+1)], tid%2)),
            # ldg_b = B + (tid%32)/2 + 16*32*(tid/32): a 64 x 32 fp4 B, 16 bytes a row
            for nibble, offset in enumerate((32 * i, 32 * i + 16)):
                k, byte = row_major(tid % 32 // 2 + 512 * (tid // 32) + offset, 16)
                loads_b.append(((k, 2 * byte + tid % 2), vector_item(2 * i + nibble, 4, tid)))
    check_loads(a, loads_a)
    check_loads(b, loads_b)
    c_store_32x32(d)
    check_one_scale_per_lane(S32, 4, 4)


# ---- seed 003: the MI355X mxfp4 kernel (v_mfma_scale_f32_16x16x128_f8f6f4, fp4 x fp4) -----

def permuted(shape, order):
    """torch's x.view(shape).permute(order).contiguous().view(-1), as a list of the source
    flat indices in destination order."""
    strides = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    out = [0]
    for axis in order:
        out = [base + strides[axis] * x for base in out for x in range(shape[axis])]
    return out


def test_permuted_matches_a_transpose():
    assert permuted((2, 3), (1, 0)) == [0, 3, 1, 4, 2, 5]


SEED003_N, SEED003_K = 64, 512  # 4 output tiles of 16 columns, 4 K steps of 128


def test_seed003_a_and_a_scales():
    a, sa = operand(S16, "A", 4, 4), operand(S16, "SA", 4, 4)
    loads = []
    for lid in range(64):
        # lane lid quantizes A row (lid & 15), K (lid >> 4)*32 .. +31 (one mxfp4 block);
        # block.u32[r] byte s = cvt_scalef32_pk_fp4_bf16(dat.x2[4r + s]): the pair of
        # values 2*(4r+s) and 2*(4r+s)+1, the first in the low nibble
        for r in range(4):
            for s in range(4):
                for h in range(2):
                    k = (lid >> 4) * 32 + 2 * (4 * r + s) + h
                    loads.append(((lid & 15, k), (r, lid, 8 * s + 4 * h, 8 * s + 4 * h + 3)))
        # As: the scale of the lane's own block, OPSEL 0
        assert where(sa, (lid & 15, lid >> 4, 0)) == (0, lid, 0, 7)
    check_loads(a, loads)


def test_seed003_b_through_the_host_shuffle():
    b = operand(S16, "B", 4, 4)
    kbytes = SEED003_K // 2  # B_q: N x K/2 bytes, fp4x2 with the even K in the low nibble
    # B_swiz = B_q.view(-1, 16, K/2/16, 16).permute(0, 2, 1, 3)
    source = permuted((SEED003_N // 16, 16, kbytes // 16, 16), (0, 2, 1, 3))
    for tile in range(SEED003_N // 16):          # C_tile_x
        for it in range(0, SEED003_K, 128):      # the K step
            loads = []
            for lid in range(64):
                unit = (tile * SEED003_K + it) // 128 * 64 + lid  # B_ptr[...]: 16-byte units
                for byte in range(16):
                    n, kbyte = divmod(source[16 * unit + byte], kbytes)
                    for h in range(2):
                        elem = (2 * kbyte + h - it, n - 16 * tile)  # B[k][j] = B_q[j][k]
                        loads.append((elem, vector_item(2 * byte + h, 4, lid)))
            check_loads(b, loads)


def test_seed003_b_scales_through_the_host_shuffle():
    sb = operand(S16, "SB", 4, 4)
    blocks = SEED003_K // 32  # Bs: N x K/32 e8m0
    # Bs_swiz = Bs.view(-1, 2, 16, K/32/8, 2, 4).permute(0, 3, 5, 2, 4, 1)
    source = permuted((SEED003_N // 32, 2, 16, blocks // 8, 2, 4), (0, 3, 5, 2, 4, 1))
    for tile in range(SEED003_N // 16):
        for it in range(0, SEED003_K, 128):
            seen = set()
            for lid in range(64):
                index = ((tile // 2 * SEED003_K // 128 // 2 + it // 128 // 2) * 64 * 4 + lid * 4
                         + (it // 128 & 1) * 2 + (tile & 1))
                n, kb = divmod(source[index], blocks)
                elem = (kb - it // 32, n - 16 * tile)   # SB[kb][j] of this MFMA
                assert where(sb, elem + (0,)) == (0, lid, 0, 7), (tile, it, lid)
                seen.add(elem)
            assert len(seen) == 64


def test_seed003_c_store():
    # C_ptr[(C_y + (lid >> 4)*4 + i)*n + C_x + (lid & 15)] = C[i]
    check_loads(operand(S16, "D", 4, 4), [(((lid >> 4) * 4 + i, lid & 15), (i, lid, 0, 31))
                                          for lid in range(64) for i in range(4)])


def test_seed003_second_mfma_takes_byte_1():
    # The blocked kernel permutes the 4 loaded B-scale bytes (K step s, tile p at byte
    # 2s + p) with v_perm_b32(x, x, 0x01030200), shifts even waves by 0, and gives the
    # first MFMA OPSEL 0, the second OPSEL 1: both of tile 0, K steps 0 and 1.
    loaded = [(s, p) for s in range(2) for p in range(2)]
    permuted_bytes = [loaded[(0x01030200 >> (8 * n)) & 0xFF] for n in range(4)]
    assert permuted_bytes[0] == (0, 0) and permuted_bytes[1] == (1, 0)
    for opsel in range(4):
        op = operand(S16, "SB", 4, 4, opsel_b=opsel)
        for lid in range(64):
            assert where(op, (lid // 16, lid % 16, 0)) == (0, lid, 8 * opsel, 8 * opsel + 7)
