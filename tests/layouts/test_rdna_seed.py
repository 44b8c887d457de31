"""RDNA4 seed 001 (GPUOpen, "Using the Matrix Cores of AMD RDNA 4"): its load and
store loops, re-implemented here, against the engine; its two kernels on a register model.

(Shared helpers: tests/helpers/rdna_common.py.)
"""
import random
from collections import defaultdict

import pytest

from layouts import Place
from tests.helpers import rdna_facts as facts
from tests.helpers.rdna_common import ALL, RDNA3, RDNA4, detail_value, ids, operand

# ======================================================================================
# 1. Seed 001: the GPUOpen RDNA4 article (wave32, v_wmma_f32_16x16x16_f16)
# ======================================================================================
# Lines 50-52: each lane keeps 8 values of a matrix (WMMA_DATA_WIDTH); a lane is identified
# by `laneWrapped` (lane mod 16) and `laneGroup` (lane div 16). Lines 53-57 (again 101-107,
# 112-118): fragment element `ele` of lane (group, wrapped) is A's row `wrapped`, column
# `ele + 8 * group` (a[16 * wrapped + ...]), and B's row `ele + 8 * group`, column
# `wrapped` (b[16 * (...) + wrapped]). Lines 59-62 (and 122-125) store C/D the way B is
# loaded. Lines 71-77 view the 16-bit fragment as pairs (a half_2 pointer): elements 2m and
# 2m+1 form pair m, one 32-bit VGPR, the even element in the low half (little-endian); a
# 32-bit fragment (C/D) takes one VGPR per element. The article covers the f16 intrinsic
# only; the bf16 one has the same operand sizes and is checked too (our extension).
SEED_INSTRUCTIONS = ("v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16")


def seed_k(lane, ele):
    """The row of B/C/D or the column of A that the article puts at fragment element `ele`."""
    return ele + 8 * (lane // 16)


def frag_slot(ele, bits):
    """(VGPR, low bit) of fragment element `ele` holding `bits`-bit values."""
    per_vgpr = 32 // bits
    return ele // per_vgpr, bits * (ele % per_vgpr)


@pytest.mark.parametrize("mnemonic", SEED_INSTRUCTIONS)
@pytest.mark.parametrize("matrix", ["C", "D"])
def test_seed_store_loop_is_the_cd_layout(mnemonic, matrix):
    """Lines 59-62: C/D agree with the engine for every element, exactly."""
    op = operand(RDNA4.find(mnemonic), matrix, 32)
    stored = set()
    for lane in range(32):
        for ele in range(8):
            elem = (seed_k(lane, ele), lane % 16, 0)
            reg, lo = frag_slot(ele, 32)
            assert op.places(*elem) == [Place(reg, lane, lo, 32)], elem
            stored.add(elem)
    assert len(stored) == 256


def engine_k_at_seed_slots(inst, matrix):
    """{(lane group, fragment element): K indices the engine keeps in that slot}.

    On the way: the slot is one 16-bit half, and its row (A) or column (B) is the
    article's `laneWrapped`, exactly."""
    op, order = operand(inst, matrix, 32), defaultdict(set)
    for lane in range(32):
        for ele in range(8):
            reg, lo = frag_slot(ele, 16)
            held = [(p, e) for p, e in op.entries(reg, lane) if p.lo == lo]
            assert len(held) == 1, (lane, ele, held)
            place, (row, col, _) = held[0]
            assert place == Place(reg, lane, lo, 16)
            mn, k = (row, col) if matrix == "A" else (col, row)
            assert mn == lane % 16, (lane, ele, row, col)
            order[lane // 16, ele].add(k)
    return order


@pytest.mark.parametrize("mnemonic", SEED_INSTRUCTIONS)
def test_seed_load_loops_agree_up_to_one_k_order(mnemonic):
    """Lines 53-57: rows of A and columns of B sit where the article loads them; the K
    order inside a lane differs (facts B.5 #4: the article uses a dense-equivalent K
    permutation), but it is one permutation, the same for A and B, so the product is
    unchanged. The article and the engine agree for K 0-3 and 12-15 only."""
    inst = RDNA4.find(mnemonic)
    order_a, order_b = engine_k_at_seed_slots(inst, "A"), engine_k_at_seed_slots(inst, "B")
    assert order_a == order_b
    assert all(len(ks) == 1 for ks in order_a.values())  # the same K for every row
    engine = {slot: ks.pop() for slot, ks in order_a.items()}
    assert sorted(engine.values()) == list(range(16))
    agree = {k for (group, ele), k in engine.items() if k == seed_k(16 * group, ele)}
    assert agree == {0, 1, 2, 3, 12, 13, 14, 15}


def wmma(inst, regs, wave=32):
    """D = A * B + C as the hardware computes it when each element is read from the slot
    the engine gives (the first copy where there are several); slots never loaded read
    0. `regs[matrix]` maps (lane, VGPR, low bit) to a value; returns D's register file."""
    def read(matrix, row, col):
        place = operand(inst, matrix, wave).places(row, col)[0]
        return regs[matrix].get((place.lane, place.reg, place.lo), 0)
    out = {}
    for i in range(16):
        for j in range(16):
            value = read("C", i, j) + sum(read("A", i, k) * read("B", k, j)
                                          for k in range(inst.k))
            for place in operand(inst, "D", wave).places(i, j):
                out[place.lane, place.reg, place.lo] = value
    return out


def seed_load(values, matrix):
    """The article's load loop for a row-major 16x16 `values` as `matrix` ('A' or 'B')."""
    regs = {}
    for lane in range(32):
        for ele in range(8):
            k, wrapped = seed_k(lane, ele), lane % 16
            reg, lo = frag_slot(ele, 16)
            regs[lane, reg, lo] = values[16 * wrapped + k] if matrix == "A" else \
                values[16 * k + wrapped]
    return regs


def seed_store(regs):
    """The article's store loop: row-major 16x16 values from D's register file."""
    out = [None] * 256
    for lane in range(32):
        for ele in range(8):
            out[16 * seed_k(lane, ele) + lane % 16] = regs.get((lane, *frag_slot(ele, 32)))
    return out


def matmul(a, b):
    return [sum(a[16 * i + k] * b[16 * k + j] for k in range(16))
            for i in range(16) for j in range(16)]


def small_matrices(count, seed):
    rng = random.Random(seed)
    return [[rng.randint(-4, 4) for _ in range(256)] for _ in range(count)]


@pytest.mark.parametrize("mnemonic", SEED_INSTRUCTIONS)
def test_seed_matmul_kernel_computes_the_product(mnemonic):
    """Lines 45-63 (wmma_matmul): load A and B, C = 0, one WMMA, store."""
    inst = RDNA4.find(mnemonic)
    a, b = small_matrices(2, 1)
    d = wmma(inst, {"A": seed_load(a, "A"), "B": seed_load(b, "B"), "C": {}})
    assert seed_store(d) == matmul(a, b)


@pytest.mark.parametrize("mnemonic", SEED_INSTRUCTIONS)
def test_seed_mlp_kernel_chains_d_into_b_without_lane_exchange(mnemonic):
    """Lines 92-126 (minimumMlp): D of the first WMMA becomes B of the second in place
    (line 115), and the second WMMA gets the first D as C again (line 120)."""
    inst = RDNA4.find(mnemonic)
    w0, w1, x = small_matrices(3, 2)
    d1 = wmma(inst, {"A": seed_load(w0, "A"), "B": seed_load(x, "B"), "C": {}})
    as_b = {(lane, *frag_slot(ele, 16)): d1[(lane, *frag_slot(ele, 32))]
            for lane in range(32) for ele in range(8)}
    d2 = wmma(inst, {"A": seed_load(w1, "A"), "B": as_b, "C": d1})
    hidden = matmul(w0, x)
    assert seed_store(d2) == [p + h for p, h in zip(matmul(w1, hidden), hidden)]


def test_seed_kernel_is_not_rdna3_compatible():
    """Line 14: RDNA4 changed the VGPR layout, so RDNA3 code cannot be reused (and the
    RDNA4 kernel computes something else on the RDNA3 layout)."""
    a, b = small_matrices(2, 3)
    d = wmma(RDNA3.find("v_wmma_f32_16x16x16_f16"),
             {"A": seed_load(a, "A"), "B": seed_load(b, "B"), "C": {}})
    assert seed_store(d) != matmul(a, b)


@pytest.mark.parametrize("mnemonic", SEED_INSTRUCTIONS)
def test_seed_each_lane_holds_8_values_and_each_value_one_lane(mnemonic):
    """Line 43: on RDNA4 each lane loads 8 elements of each matrix, and the wave loads
    every matrix exactly once; RDNA3 (the same instruction) duplicated A and B."""
    for arch in (RDNA4, RDNA3):
        inst = arch.find(mnemonic)
        for matrix in "ABCD":
            op = operand(inst, matrix, 32)
            per_lane = defaultdict(int)
            for elem in op.elements():
                places = op.places(*elem)
                for place in places:
                    per_lane[place.lane] += 1
                copies = 2 if arch is RDNA3 and matrix in "AB" else 1
                assert len(places) == copies, (arch.name, matrix, elem)
            if arch is RDNA4:
                assert set(per_lane.values()) == {8} and len(per_lane) == 32, matrix


@pytest.mark.parametrize("inst", RDNA3.instructions, ids=lambda i: i.mnemonic)
def test_seed_rdna3_cd_rows_split_even_odd_over_lane_halves(inst):
    """Line 84: on RDNA3 (wave32) the lower 16 lanes hold the even rows of C and D, the
    upper 16 lanes the odd rows, so D -> B needs a shuffle between lanes."""
    for matrix in "CD":
        op = operand(inst, matrix, 32)
        for i, j, b in op.elements():
            (place,) = op.places(i, j, b)
            assert place.lane == 16 * (i % 2) + j
    b_lanes = defaultdict(set)  # every lane needs all 16 K of its column of B ...
    for k, j, _ in operand(inst, "B", 32).elements():
        b_lanes[j].update(p.lane for p in operand(inst, "B", 32).places(k, j))
    assert all(lanes == {j, j + 16} for j, lanes in b_lanes.items())
    d_rows = defaultdict(set)  # ... but a lane holds only 8 rows of D
    for i, j, _ in operand(inst, "D", 32).elements():
        d_rows[operand(inst, "D", 32).places(i, j)[0].lane].add(i)
    assert all(len(rows) == 8 for rows in d_rows.values())


@pytest.mark.parametrize("inst", ALL, ids=lambda i: ids(i))
def test_seed_matrices_are_16_by_16(inst):
    """Line 25: WMMA works on 16x16 matrices only (K varies)."""
    assert (inst.m, inst.n) == (16, 16)


@pytest.mark.parametrize("arch, _column, mnemonic, per_cu",
                         [pytest.param(*row, id=f"S001-L16-{row[0]}-{row[1]}")
                          for row in facts.THROUGHPUT])
def test_seed_throughput_table(run, arch, _column, mnemonic, per_cu):
    """Lines 16-19: FLOPS/clock/CU; the calculator prints per WGP (two CUs). This is also
    fact B.2's "2048 and 4096 per WGP" for RDNA4 FP16 and I8."""
    rc, out, err = run(["-a", arch, "-i", mnemonic, "-d"])
    assert (rc, err) == (0, "")
    key = "Ops/WGP/cycle" if mnemonic.startswith("v_wmma_i32") else "FLOPs/WGP/cycle"
    assert int(detail_value(out, "Execution statistics", key)) == 2 * per_cu


def test_seed_intrinsic_name_gives_the_formats(run):
    """Lines 31, 37: wmma_<C, D format>_16x16x16_<A, B format>: f32 C/D, f16 A/B."""
    rc, out, err = run(["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_f16", "-d"])
    assert (rc, err) == (0, "")
    types = {key: detail_value(out, "Register data types", key).split()[0]
             for key in ("Src0", "Src1", "Src2", "Vdst")}
    assert types == {"Src0": "FP16", "Src1": "FP16", "Src2": "FP32", "Vdst": "FP32"}
