"""RDNA3 / RDNA4 (WMMA, SWMMAC): element facts from the project's sources, checked element
by element in both wave sizes.

1. Seed 001 (GPUOpen, "Using the Matrix Cores of AMD RDNA 4"): its load and store loops,
   re-implemented here, against the engine; its two kernels run on a register model.
2. facts/gfx1250_rdna4.md part B and facts/gfx1250_examples.txt part 2 (RDNA4 only), one
   test id per fact ID (see rdna_facts.py).
3. The RDNA examples of the upstream README, byte for byte (readme_examples_rdna.py).
4. REFERENCE_CLI.md §7 and §8.3-§8.6: wave sizes, OPSEL, NEG/NEG_HI, `-o`, and the error
   contract for RDNA-specific bad input.
5. Every printed -d formula (layouts.formulas_rdna) evaluated for every element and
   register slot, in both wave sizes; the reference's known misprints stay listed.

Golden replay (test_golden.py) and the generic round trip / coverage of every operand
(test_layouts.py) already include RDNA in both wave sizes; this file adds the RDNA-specific
properties and a guard that the golden RDNA selection is not empty.
"""
import random
import re
import shlex
from collections import defaultdict
from functools import cache

import pytest
import rdna_facts as facts
from conftest import absent_reason, golden_records, missing, shared_text
from readme_examples_rdna import README_RDNA_EXAMPLES
from test_facts import body
from test_formulas import (
    AXES,
    backward_label,
    backward_mismatches,
    compile_formula,
    compile_gpr,
    forward_label,
    span,
)

from formats.notation import register
from instructions import find_architecture
from layouts import Modifiers, Operand, Place
from layouts.formulas_rdna import LANES_0_31, NOTE, sections

RDNA3, RDNA4 = find_architecture("rdna3"), find_architecture("rdna4")
ARCHS = {"RDNA3": RDNA3, "RDNA4": RDNA4}
WAVES = (32, 64)
ALL = [inst for arch in (RDNA3, RDNA4) for inst in arch.instructions]


def find(arch, mnemonic):
    inst = ARCHS[arch].find(mnemonic)
    assert inst is not None, (arch, mnemonic)
    return inst


def matrices(inst):
    return ("A", "B", "K", "D") if inst.sparse else ("A", "B", "C", "D")


@cache
def operand(inst, matrix, wave, mods=Modifiers()):
    return Operand(inst, matrix, mods, wave)


def slots(op, lanes=None):
    """{(reg, lane): [(place, (elements held there, in order))]} of every register slot."""
    table = {}
    for reg in range(op.register_count):
        for lane in range(op.wave if lanes is None else lanes):
            held = defaultdict(list)
            for place, elem in op.entries(reg, lane):
                held[place].append(elem)
            table[reg, lane] = list(held.items())
    return table


def ids(inst, *rest):
    return "-".join([inst.arch, inst.mnemonic] + [str(r) for r in rest])


def cases(insts, waves=WAVES, per_matrix=True):
    out = []
    for inst in insts:
        for wave in waves:
            for matrix in (matrices(inst) if per_matrix else (None,)):
                args = (inst, wave, matrix) if per_matrix else (inst, wave)
                out.append(pytest.param(*args, id=ids(inst, f"w{wave}", *args[2:])))
    return out


def detail_value(out, section, key):
    """The value printed as `key: value` in -d output, below the `section:` heading."""
    lines = out.splitlines()
    start = lines.index(f"    {section}:") if section else 0
    for line in lines[start + 1:]:
        if line.strip().startswith(f"{key}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{key!r} not under {section!r}")


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


@pytest.mark.parametrize("arch, column, mnemonic, per_cu",
                         [pytest.param(*row, id=f"S001-L16-{row[0]}-{row[1]}")
                          for row in facts.THROUGHPUT])
def test_seed_throughput_table(run, arch, column, mnemonic, per_cu):
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


# ======================================================================================
# 2. facts/gfx1250_rdna4.md part B and facts/gfx1250_examples.txt part 2 (RDNA4)
# ======================================================================================

def test_fact_b1_identity(run):
    """B.1: gfx1200 and gfx1201 are RDNA4; both run wave32 and wave64."""
    for alias in ("gfx1200", "gfx1201", "GFX1201"):
        arch = find_architecture(alias)
        assert arch is RDNA4 and arch.waves == (32, 64)
        rc, out, err = run(["-a", alias, "-i", "v_wmma_f32_16x16x16_f16", "-w", "64",
                            "-g", "-A"])
        assert (rc, err) == (0, "") and out.startswith("Architecture: RDNA4\n")


def _table_row_ids():
    return [pytest.param(*row, id=f"B.2-{row[0]}") for row in facts.GFX12_TABLE]


@pytest.mark.parametrize("mnemonic, opcode, wave32, wave64, cycles", _table_row_ids())
def test_fact_b2_instruction(run, mnemonic, opcode, wave32, wave64, cycles):
    """B.2 (= R-ID-1/2/3, B.5 #1 and #6): opcode, VGPRs per wave size, the reference's
    cycles, as the engine has them and as -d prints them."""
    inst = RDNA4.find(mnemonic)
    assert (inst.opcode, inst.cycles) == (opcode, cycles)
    rc, out, err = run(["-a", "rdna4", "-i", mnemonic, "-d"])
    assert (rc, err) == (0, "")
    assert detail_value(out, None, "VOP3P Opcode") == f"{opcode:#x}"
    assert int(detail_value(out, "Execution statistics", "Execution cycles")) == cycles
    a, b, cd = ("A", "B", "D") if inst.sparse else ("A", "B", "C")
    for wave, counts in ((32, wave32), (64, wave64)):
        got = tuple(operand(inst, m, wave).register_count for m in (a, b, cd))
        assert got == counts, wave
        printed = tuple(int(detail_value(out, f"Wave{wave} register usage",
                                         f"GPRs required for {m}")) for m in (a, b, cd))
        assert printed == counts, wave
        if inst.sparse:  # "+ idx 1": one compression-index VGPR
            assert operand(inst, "K", wave).register_count == 1
        else:
            assert operand(inst, "D", wave).register_count == counts[2]


def test_fact_b2_covers_rdna4():
    """B.2: all 22 instructions; R-ID-3: WMMA opcodes 0x40-0x4a, SWMMAC 0x50-0x5a."""
    assert sorted(row[0] for row in facts.GFX12_TABLE) == sorted(
        i.mnemonic for i in RDNA4.instructions)
    dense = sorted(i.opcode for i in RDNA4.instructions if not i.sparse)
    sparse = sorted(i.opcode for i in RDNA4.instructions if i.sparse)
    assert (dense, sparse) == (list(range(0x40, 0x4B)), list(range(0x50, 0x5B)))


@pytest.mark.parametrize("inst", RDNA4.instructions, ids=lambda i: f"B.2-same-opcode-{i.mnemonic}")
def test_fact_b2_one_opcode_for_both_waves(run, inst):
    """B.2: the same opcode in wave32 and wave64; -d prints both waves whatever -w says."""
    outs = {run(["-a", "rdna4", "-i", inst.mnemonic, "-d"] + w)[1]
            for w in ([], ["-w", "32"], ["-w", "64"])}
    assert len(outs) == 1
    text = outs.pop()
    assert "Wave32 register usage:" in text and "Wave64 register usage:" in text


@pytest.mark.parametrize("mnemonic, opcode, byte1, key", [
    pytest.param("v_wmma_f32_16x16x16_f16", 0x40, 0x40, 0, id="R-ENC-1"),
    pytest.param("v_swmmac_f32_16x16x32_f16", 0x50, 0x48, 1, id="R-ENC-2")])
def test_fact_encodings(run, mnemonic, opcode, byte1, key):
    """R-ENC-1/2: LLVM's bytes carry the opcode in byte 2 and VOP3P's 110011 in byte 3;
    index_key 1 (bit 11, byte 1 0x08) is legal in wave32, index_key 2 is not."""
    encoding = {0x40: [0x08, 0x40, 0x40, 0xcc, 0x00, 0x09, 0x22, 0x1c],
                0x50: [0x0c, 0x48, 0x50, 0xcc, 0x00, 0x09, 0x52, 0x1c]}[opcode]
    inst = RDNA4.find(mnemonic)
    assert encoding[2] == inst.opcode and encoding[3] >> 2 == 0b110011
    assert inst.encoding == "VOP3P" and (encoding[1] >> 3) & 1 == key == int(inst.opsel)
    if inst.sparse:
        assert run(["-a", "rdna4", "-i", mnemonic, "-g", "-k", "--opsel", "1"])[0] == 0
        assert run(["-a", "rdna4", "-i", mnemonic, "-g", "-k", "--opsel", "2"])[0] == 2


@pytest.mark.parametrize("inst", [i for i in RDNA4.instructions if not i.sparse],
                         ids=lambda i: f"B.3-no-dense-opsel-{i.mnemonic}")
def test_fact_b3_dense_wmma_has_no_opsel(run, inst):
    """B.3: no OPSEL on dense GFX12 WMMA (the GFX11 OPSEL[2] of 16-bit C/D must be 0)."""
    assert not inst.opsel
    base = ["-a", "rdna4", "-i", inst.mnemonic]
    for query in (["-g", "-A"], ["-g", "-C"], ["-g", "-D", "-o"], ["-R", "-D"]):
        for value in ("1", "4"):
            rc, out, err = run(base + query + ["--opsel", value])
            assert rc == 2 and out == "" and "OPSEL" in err, (query, value)


def _neg_cases():
    out = []
    for inst in RDNA4.instructions:
        if inst.a_type.bits == 8 and not inst.is_int:
            tag = "B.3-fp8-neg-R-LEG-1-B.5-2"
        elif inst.is_int:
            tag = "B.3-int-neg"
        else:
            continue
        out.append(pytest.param(inst, id=f"{tag}-{inst.mnemonic}"))
    return out


_ENTRY = re.compile(r"^(\S+) = (-?)([AB]\[\d+\]\[\d+\])$")


@pytest.mark.parametrize("inst", _neg_cases())
def test_fact_b3_neg_legality(run, inst):
    """B.3: iu8/iu4 take NEG[1:0] (signedness) but no NEG[2] and no NEG_HI. fp8/bf8: LLVM
    rejects A/B negation and accepts it on C; the reference (and so this project) rejects
    every NEG/NEG_HI bit (R-LEG-1 / B.5 #2, its side of the disagreement)."""
    base = ["-a", "rdna4", "-i", inst.mnemonic]
    for neg in range(8):
        for neg_hi in range(8):
            for matrix in ("A", "B"):
                rc, out, err = run(base + ["-m", f"-{matrix}", "-l", "4", "--neg", str(neg),
                                           "--neg_hi", str(neg_hi)])
                legal = neg == neg_hi == 0 or (inst.is_int and neg <= 3 and neg_hi == 0)
                if not legal:
                    assert rc == 2 and out == "" and err.count("\n") == 1, (neg, neg_hi)
                    continue
                assert (rc, err) == (0, "")
                for line in body(out):
                    reg, sign, _ = _ENTRY.match(line).groups()
                    assert sign == expected_mark(inst, matrix, reg, neg, neg_hi), line


@pytest.mark.parametrize("mnemonic", [i.mnemonic for i in RDNA4.instructions if i.sparse],
                         ids=lambda m: f"B.5-3-R-LEG-2-{m}")
def test_fact_swmmac_neg_c_is_accepted_and_changes_nothing(run, mnemonic):
    """B.5 #3 / R-LEG-2: LLVM rejects NEG[2]/NEG_HI[2] on SWMMAC (its Src2 is the index);
    the reference accepts --neg 4 silently. Where NEG is supported at all, so does this
    project, and the output is the same as without it."""
    inst = RDNA4.find(mnemonic)
    base = ["-a", "rdna4", "-i", mnemonic, "-g", "-D", "-o", "-I", "3", "-J", "5"]
    plain = run(base)
    assert plain[0] == 0 and "Src2" not in plain[1]
    for flags in (["--neg", "4"], ["--neg_hi", "4"], ["--neg", "4", "--neg_hi", "4"]):
        if inst.neg and not inst.is_int:
            assert run(base + flags) == plain, flags
        else:
            assert run(base + flags)[0] == 2, flags


@pytest.mark.parametrize("mnemonic", sorted(facts.OPSEL_TOP),
                         ids=lambda m: f"B.3-index-key-R-SP-8-REF-§8.4-{m}")
@pytest.mark.parametrize("wave", WAVES)
def test_fact_opsel_range_and_effect(run, mnemonic, wave):
    """B.3 / R-SP-8 / REFERENCE_CLI §8.4: the legal index_key range per wave size; each
    value moves every compression index by one index set (a half or a byte)."""
    inst = RDNA4.find(mnemonic)
    top = facts.OPSEL_TOP[mnemonic][WAVES.index(wave)]
    base = ["-a", "rdna4", "-i", mnemonic, "-w", str(wave), "-g", "-k", "-I", "3", "-K", "5"]
    for value in range(top + 2):
        rc, out, err = run(base + ["--opsel", str(value)])
        if value <= top:
            assert (rc, err) == (0, ""), value
        else:
            assert rc == 2 and out == "" and str(value) in err and f"0 to {top}" in err
    width = 32 // (top + 1)  # bits of one index set
    plain = operand(inst, "K", wave)
    for value in range(1, top + 1):
        moved = operand(inst, "K", wave, Modifiers(opsel=value))
        for elem in plain.elements():
            (p,), (q,) = plain.places(*elem), moved.places(*elem)
            assert q == Place(p.reg, p.lane, p.lo + width * value, p.width), elem


@pytest.mark.parametrize("inst, wave", cases([i for i in RDNA4.instructions if i.sparse],
                                             per_matrix=False))
def test_fact_b4_index_bits_follow_the_a_values(inst, wave):
    """B.4 (LLVM: "for each 2 elements in lane you need 4 bits in index"): every lane
    holds one 4-bit index per stored pair of A values, so the index set of a lane spans
    2 bits per A value, and the OPSEL range is the number of such sets in 32 bits."""
    a, k = slots(operand(inst, "A", wave)), slots(operand(inst, "K", wave))
    bits = set()
    for lane in range(wave):
        a_values = sum(2 for reg in range(operand(inst, "A", wave).register_count)
                       for _ in a[reg, lane])
        index_bits = 4 * len(k[0, lane])
        assert index_bits == 2 * a_values, lane
        bits.add(index_bits)
    used = max(bits)
    assert bits <= {0, used}
    assert 32 // used - 1 == facts.OPSEL_TOP[inst.mnemonic][WAVES.index(wave)]


# ---- B.4: the reference's RDNA4 formulas, wave32, every element / slot -------------------
def by_types(*bits, sparse=False):
    return [i for i in RDNA4.instructions if i.sparse == sparse and i.a_type.bits in bits]


def check_register_view(inst, matrix, k_of):
    """Every slot (lane, VGPR, value index) of wave32 holds row/column lane % 16 and the
    K that k_of(lane group, VGPR, value index) gives; every slot is used."""
    op = operand(inst, matrix, 32)
    width = op.layout.width
    for (reg, lane), held in slots(op).items():
        assert [p.lo for p, _ in held] == list(range(0, 32, width)), (reg, lane)
        for place, ((row, col, _),) in held:
            mn, k = (row, col) if matrix == "A" else (col, row)
            assert mn == lane % 16
            assert k == k_of(lane // 16, reg, place.lo // width), (reg, lane, place)


B4_AB = [  # (fact ID, instructions, K of (lane group g, VGPR v, value index e in the VGPR))
    ("B.4-16bit-AB-B.5-4-S21", by_types(16),
     lambda g, v, e: 8 * ((2 * v + e) // 4) + 4 * g + (2 * v + e) % 4),
    ("B.4-8bit-AB", by_types(8), lambda g, v, e: 8 * g + 4 * v + e),
    ("B.4-iu4-K32", [RDNA4.find("v_wmma_i32_16x16x32_iu4")], lambda g, v, e: 16 * g + 8 * v + e),
    ("B.4-iu4-K16", [RDNA4.find("v_wmma_i32_16x16x16_iu4")], lambda g, v, e: 8 * g + e),
]


@pytest.mark.parametrize("insts, k_of", [pytest.param(*row[1:], id=row[0]) for row in B4_AB])
@pytest.mark.parametrize("matrix", ["A", "B"])
def test_fact_b4_dense_ab_registers(insts, k_of, matrix):
    assert insts
    for inst in insts:
        check_register_view(inst, matrix, k_of)


@pytest.mark.parametrize("inst", by_types(16), ids=lambda i: f"B.4-16bit-AB-forward-{i.mnemonic}")
def test_fact_b4_dense_16bit_ab_elements(inst):
    """B.4: A[i][k] -> VGPR 2 floor(k/8) + floor(k/2) mod 2, half k mod 2, lane
    16 (floor(k/4) mod 2) + i; B the same with j."""
    for matrix in "AB":
        op = operand(inst, matrix, 32)
        for row, col, block in op.elements():
            mn, k = (row, col) if matrix == "A" else (col, row)
            want = Place(2 * (k // 8) + (k // 2) % 2, 16 * ((k // 4) % 2) + mn, 16 * (k % 2), 16)
            assert op.places(row, col, block) == [want], (matrix, row, col)


@pytest.mark.parametrize("inst", RDNA4.instructions, ids=lambda i: f"B.4-CD-{i.mnemonic}")
def test_fact_b4_cd_elements(inst):
    """B.4: 32-bit C/D: VGPR i mod 8, lane 16 floor(i/8) + j; 16-bit C/D: VGPR
    floor((i mod 8)/2), half i mod 2, the same lane."""
    for matrix in ("D",) if inst.sparse else ("C", "D"):
        op = operand(inst, matrix, 32)
        bits = inst.out_type.bits
        for i, j, b in op.elements():
            lane = 16 * (i // 8) + j
            want = Place(i % 8, lane, 0, 32) if bits == 32 else \
                Place((i % 8) // 2, lane, 16 * (i % 2), 16)
            assert op.places(i, j, b) == [want], (matrix, i, j)


@pytest.mark.parametrize("insts, index", [
    pytest.param(by_types(16, sparse=True),
                 lambda i, k: (16 * ((k // 8) % 2) + i, 8 * (k // 16) + 4 * ((k // 4) % 2)),
                 id="B.4-index-16bit"),
    pytest.param(by_types(8, sparse=True),
                 lambda i, k: (16 * (k // 16) + i, 4 * ((k // 4) % 4)), id="B.4-index-8bit")])
def test_fact_b4_compression_index(insts, index):
    """B.4: wave32 compression indices (VGPR 0, lane, low bit); index_key 1 adds 16."""
    assert len(insts) in (4, 5)
    for inst in insts:
        for key in (0, 1):
            op = operand(inst, "K", 32, Modifiers(opsel=key))
            for i, k, b in op.elements():
                lane, lo = index(i, k)
                assert op.places(i, k, b) == [Place(0, lane, lo + 16 * key, 4)], (i, k, key)


def lane_values(op, lane):
    """The elements a lane holds, slot by slot in register order."""
    return [tuple(elems) for reg in range(op.register_count)
            for _, elems in slots_of(op)[reg, lane]]


@cache
def _slots_of(inst, matrix, wave, mods):
    return slots(operand(inst, matrix, wave, mods))


def slots_of(op):
    return _slots_of(op.inst, op.matrix, op.wave, op.mods)


@pytest.mark.parametrize("inst, matrix", [
    pytest.param(inst, m, id=f"B.4-R-CD-2-{inst.mnemonic}-{m}")
    for inst in RDNA4.instructions for m in matrices(inst)])
def test_fact_b4_wave64_splits_each_lane(inst, matrix):
    """B.4 and R-CD-2: in wave64, lane n keeps the first half of what the wave32 lane n
    holds and lane n + 32 gets the other half; at VGPR level, wave32 VGPR v >= n/2 becomes
    VGPR v - n/2 of lane + 32 (n: wave32 VGPRs). One-VGPR operands (4-bit A/B of
    v_wmma_i32_16x16x16_iu4, A of v_swmmac_i32_16x16x32_iu4 and its index) stay in lanes
    0-31 (B.2, B.5 #5). The index K moves with its A (R-SP-3/4), so the VGPR rule does
    not apply to it: its one VGPR never splits."""
    w32, w64 = operand(inst, matrix, 32), operand(inst, matrix, 64)
    owner = operand(inst, "A", 32) if matrix == "K" else w32
    stays = owner.register_count == 1
    for lane in range(32):
        values = lane_values(w32, lane)
        half = len(values) if stays else len(values) // 2
        assert lane_values(w64, lane) == values[:half], lane
        assert lane_values(w64, lane + 32) == values[half:], lane
    if matrix == "K":
        return
    n = w32.register_count
    for elem in w32.elements():
        (p,) = w32.places(*elem)
        reg, lane = (p.reg, p.lane) if n == 1 or p.reg < n // 2 else (p.reg - n // 2, p.lane + 32)
        assert w64.places(*elem) == [Place(reg, lane, p.lo, p.width)], elem


@pytest.mark.parametrize("mnemonic", ["v_wmma_i32_16x16x16_iu4", "v_swmmac_i32_16x16x32_iu4"],
                         ids=lambda m: f"B.2-B.5-5-{m}")
def test_fact_wave64_lanes_above_31_ignored(run, mnemonic):
    """B.2 / B.5 #5: 4-bit A (and B, or the index) leave lanes 32-63 empty in wave64; the
    reference's note says "> 32" (lane 32 is empty too)."""
    inst = RDNA4.find(mnemonic)
    quiet = ("A", "B") if not inst.sparse else ("A", "K")
    for matrix in quiet:
        lanes = {p.lane for e in operand(inst, matrix, 64).elements()
                 for p in operand(inst, matrix, 64).places(*e)}
        assert lanes == set(range(32)), matrix
    rc, out, err = run(["-a", "rdna4", "-i", mnemonic, "-d"])
    assert "All lanes > 32 are ignored for A matrix" in out
    flag = "-k" if inst.sparse else "-A"
    rc, out, err = run(["-a", "rdna4", "-i", mnemonic, "-w", "64", "-m", flag, "-l", "32"])
    assert rc == 2 and out == "" and err.count("\n") == 1 and "32" in err


@pytest.mark.parametrize("fact, arch, mnemonic, wave, matrix, elem, opsel, texts",
                         [pytest.param(*row, id=f"{row[0]}-{row[2]}-w{row[3]}-{row[4]}"
                                                f"{list(row[5])}-opsel{row[6]}")
                          for row in facts.ELEMENTS])
def test_fact_element(run, fact, arch, mnemonic, wave, matrix, elem, opsel, texts):
    """R-A-*, R-CD-*, R-SP-*, X-* and REFERENCE_CLI examples: the engine's places, and
    what -g prints for them."""
    inst = find(arch, mnemonic)
    places = operand(inst, matrix, wave, Modifiers(opsel=opsel)).places(*elem)
    assert [register(p) for p in places] == texts
    coords = dict(zip(AXES[matrix], elem))
    rc, out, err = run(["-a", arch, "-i", mnemonic, "-w", str(wave), "-g",
                        "-k" if matrix == "K" else f"-{matrix}", "--opsel", str(opsel),
                        "-I", str(coords.get("i", 0)), "-J", str(coords.get("j", 0)),
                        "-K", str(coords.get("k", 0))])
    assert (rc, err) == (0, "")
    name = f"{matrix}[{elem[0]}][{elem[1]}]"
    assert body(out) == [f"{name} = {text}" for text in texts]


# ======================================================================================
# 3. The RDNA examples of the upstream README, byte for byte
# ======================================================================================

@pytest.mark.parametrize("line, command, expected", README_RDNA_EXAMPLES,
                         ids=[f"seed-line-{e[0]}" for e in README_RDNA_EXAMPLES])
def test_readme_rdna_example(run, line, command, expected):
    rc, out, err = run(shlex.split(command))
    assert (rc, err) == (0, "")
    assert out == expected


def test_readme_rdna_examples_are_those_of_the_seed():
    text = shared_text("seeds", "004_ce971d2592b01a50.txt")
    if text is None:
        missing(absent_reason("seeds", "004_ce971d2592b01a50.txt"))
    found = []
    for match in re.finditer(r"^(?:\$ )?\./matrix_calculator\.py (.*--architecture rdna.*)\n"
                             r"((?:.+\n)+)", text, re.M):
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, match.group(1), match.group(2)))
    assert tuple(found) == README_RDNA_EXAMPLES


# ======================================================================================
# 4. REFERENCE_CLI.md §7, §8.3-§8.6: wave sizes and modifiers
# ======================================================================================

@pytest.mark.parametrize("inst, wave, matrix", cases(ALL))
def test_replication_and_single_places(inst, wave, matrix):
    """§7: RDNA3 A/B elements are in 2 (wave32) or 4 (wave64) lanes, x + 16c, at the same
    bits; every other RDNA element, RDNA4 included, is in exactly one place."""
    op = operand(inst, matrix, wave)
    copies = wave // 16 if inst.arch == "RDNA3" and matrix in "AB" else 1
    for elem in op.elements():
        places = op.places(*elem)
        assert len(places) == copies, elem
        first = places[0]
        assert places == [Place(first.reg, first.lane + 16 * c, first.lo, first.width)
                          for c in range(copies)], elem


def test_replicated_elements_print_every_copy(run):
    for wave, lanes in ((32, (3, 19)), (64, (3, 19, 35, 51))):
        rc, out, err = run(["-a", "rdna3", "-i", "v_wmma_bf16_16x16x16_bf16", "-w", str(wave),
                            "-g", "-B", "-K", "5", "-J", "3"])
        assert (rc, err) == (0, "")
        assert body(out) == [f"B[5][3] = v2{{{lane}}}.[31:16]" for lane in lanes]


def test_empty_register_lane_pairs():
    """§6.2 / §7: register/lane pairs inside the bounds that hold nothing exist only for
    4-bit RDNA4 data in wave64, lanes 32-63."""
    empty = set()
    for inst in ALL:
        for wave in WAVES:
            for matrix in matrices(inst):
                for (reg, lane), held in slots_of(operand(inst, matrix, wave)).items():
                    if not held:
                        empty.add((inst.mnemonic, matrix, wave, reg, lane))
    expected = {(m, x, 64, 0, lane) for lane in range(32, 64)
                for m, x in (("v_wmma_i32_16x16x16_iu4", "A"), ("v_wmma_i32_16x16x16_iu4", "B"),
                             ("v_swmmac_i32_16x16x32_iu4", "A"),
                             ("v_swmmac_i32_16x16x32_iu4", "K"))}
    assert empty == expected


@pytest.mark.parametrize("arch", ["rdna3", "rdna4"])
def test_wave_size_option(run, arch):
    """§7: default 32; 0 is the default; 064 is 64; the lane bound is W - 1."""
    base = ["-a", arch, "-i", "v_wmma_f32_16x16x16_f16"]
    default = run(base + ["-R", "-D", "-c"])
    assert default == run(base + ["-R", "-D", "-c", "-w", "0"])
    assert default == run(base + ["-R", "-D", "-c", "-w", "32"])
    assert run(base + ["-R", "-D", "-c", "-w", "064"]) == run(base + ["-R", "-D", "-c", "-w", "64"])
    assert default != run(base + ["-R", "-D", "-c", "-w", "64"])
    for wave in WAVES:
        assert run(base + ["-w", str(wave), "-m", "-D", "-l", str(wave - 1)])[0] == 0
        rc, out, err = run(base + ["-w", str(wave), "-m", "-D", "-l", str(wave)])
        assert rc == 2 and out == "" and f"0 to {wave - 1}" in err


@pytest.mark.parametrize("inst", RDNA3.instructions, ids=lambda i: f"REF-§8.3-{i.mnemonic}")
def test_rdna3_opsel(run, inst):
    """§8.3: only the two 16-bit-output instructions take OPSEL, values 0 and 4, on C and
    D (D with -o too); 4 moves every C/D value to the upper half."""
    base = ["-a", "rdna3", "-i", inst.mnemonic]
    for value in range(1, 8):
        for query in (["-g", "-C"], ["-g", "-D"], ["-g", "-D", "-o"], ["-R", "-C"], ["-g", "-A"],
                      ["-m", "-B"]):
            rc, out, err = run(base + query + ["--opsel", str(value)])
            legal = inst.opsel and value == 4 and query[1] in ("-C", "-D")
            assert (rc == 0) == legal, (value, query)
            if not legal:
                assert out == "" and err.count("\n") == 1
    if not inst.opsel:
        return
    for wave in WAVES:
        for matrix in "CD":
            low, high = operand(inst, matrix, wave), operand(inst, matrix, wave, Modifiers(opsel=4))
            for elem in low.elements():
                (p,), (q,) = low.places(*elem), high.places(*elem)
                assert (p.lo, q) == (0, Place(p.reg, p.lane, 16, 16)), elem


def expected_mark(inst, matrix, header, neg, neg_hi):
    """§8.5 / B.3 / the README's NEG section: A and B halves are negated by NEG (bits
    15:0) and NEG_HI (bits 31:16), bit 0 for A and bit 1 for B, and the mark is shown only
    where the printed slot is one 16-bit half (never 8/4-bit data, the 32-bit pairs of a
    16-bit sparse A, or K); C is negated by NEG[2] and made absolute by NEG_HI[2].
    Integer instructions follow the same display rule: their NEG[1:0] (signedness) shows
    only on the 16-bit pairs of v_swmmac_i32_16x16x32_iu8's A, as the golden record
    `-a rdna4 -i v_swmmac_i32_16x16x32_iu8 -m -A -r 0 -l 4 --neg 3` shows (§8.5's
    "nothing is displayed" for integers does not hold there)."""
    if not inst.neg:
        return ""
    if matrix == "C":
        return ("-" if neg & 4 else "") + ("|" if neg_hi & 4 else "")
    if matrix not in "AB" or not header.endswith((".[15:0]", ".[31:16]")):
        return ""
    mask = neg if header.endswith(".[15:0]") else neg_hi
    return "-" if mask & (1 if matrix == "A" else 2) else ""


_MARKED = re.compile(r"^(-?)(\|?)([ABCK]\[\d+\]\[\d+\])\|?$")


@pytest.mark.parametrize("inst", [i for i in ALL if i.neg and not i.is_int],
                         ids=lambda i: f"REF-§8.5-B.3-{i.arch}-{i.mnemonic}")
def test_neg_display_in_matrix_layouts(run, inst):
    """Every cell of -M for A, B and C (K for SWMMAC), all 64 NEG/NEG_HI pairs, wave32."""
    for neg in range(8):
        for neg_hi in range(8):
            for matrix in ("A", "B", "K" if inst.sparse else "C"):
                flag = "-k" if matrix == "K" else f"-{matrix}"
                rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-M", flag, "-c",
                                    "--neg", str(neg), "--neg_hi", str(neg_hi)])
                assert (rc, err) == (0, "")
                header, *rows = body(out)
                columns = header.split(",")[1:]
                for row in rows:
                    for column, cell in zip(columns, row.split(",")[1:]):
                        for token in cell.split():
                            sign, bars, _ = _MARKED.match(token).groups()
                            want = expected_mark(inst, matrix, column, neg, neg_hi)
                            assert sign + bars == want, (neg, neg_hi, matrix, column, token)


def test_neg_display_examples(run):
    """§8.5's examples; and plain -g never shows a mark (§11 item 6)."""
    f16 = ["-a", "rdna3", "-i", "v_wmma_f16_16x16x16_f16"]
    rc, out, _ = run(f16 + ["-m", "-A", "-r", "2", "-l", "3", "--neg", "1", "--neg_hi", "1"])
    assert body(out) == ["v2{3}.[15:0] = -A[3][4]", "v2{3}.[31:16] = -A[3][5]"]
    rc, out, _ = run(f16 + ["-R", "-A", "-c", "--neg", "1"])
    assert body(out)[1].split(",")[1] == "-v0{0}.[15:0] -v0{16}.[15:0]"
    rc, out, _ = run(f16 + ["-m", "-C", "-l", "0", "--neg", "4", "--neg_hi", "4"])
    assert body(out) == ["v0{0}.[15:0] = -|C[0][0]|"]
    rc, out, _ = run(f16 + ["-m", "-C", "-l", "0", "--neg_hi", "4"])
    assert body(out) == ["v0{0}.[15:0] = |C[0][0]|"]
    rc, out, _ = run(f16 + ["-g", "-D", "-o", "--neg", "7", "--neg_hi", "4"])
    (line,) = body(out)
    assert line.startswith("D[0][0] = Vdst_v0{0}.[15:0] = -Src0_v0{0}.[15:0]*-Src1_v0{0}.[15:0] + ")
    assert line.endswith(" - |Src2_v0{0}.[15:0]|")
    for inst in (i for i in ALL if i.neg):
        flags = ["--neg", "3"] + ([] if inst.is_int else ["--neg_hi", "3"])
        rc, out, _ = run(["-a", inst.arch, "-i", inst.mnemonic, "-g", "-A"] + flags)
        assert rc == 0 and "-" not in "".join(body(out)), inst.mnemonic


_TERM = re.compile(r"(-?)Src0_(\S+?)\*(-?)Src1_(\S+)")
_C_TERM = re.compile(r" ([+-]) (\|?)Src2_(\S+?)\|?$")


@pytest.mark.parametrize("inst", [i for i in ALL if i.neg and not i.is_int],
                         ids=lambda i: f"REF-§8.5-o-{i.arch}-{i.mnemonic}")
def test_neg_in_output_calculation(run, inst):
    """§8.5: -o marks each Src0/Src1 half as -m would, subtracts C for NEG[2] and wraps it
    in |...| for NEG_HI[2]; the sparse A is never marked (§11 item 7)."""
    a, b = operand(inst, "A", 32), operand(inst, "B", 32)
    column = 3 if inst.arch == "RDNA3" else 5  # RDNA3 pairs A[i][k] with B[k][i] (see below)
    for neg in range(8):
        for neg_hi in range(8):
            rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-g", "-D", "-o", "-I", "3",
                                "-J", "5", "--neg", str(neg), "--neg_hi", str(neg_hi)])
            assert (rc, err) == (0, "")
            (line,) = body(out)
            terms = _TERM.findall(line)
            assert len(terms) == inst.k
            for k, (sign0, src0, sign1, src1) in enumerate(terms):
                pa, pb = a.places(3, k)[0], b.places(k, column)[0]
                assert (src0, src1) == (register(pa), register(pb))
                want0 = expected_mark(inst, "A", src0, neg, neg_hi)
                want1 = expected_mark(inst, "B", src1, neg, neg_hi)
                assert (sign0, sign1) == (want0, want1), (neg, neg_hi, k)
                if inst.sparse:
                    assert sign0 == ""
            c_term = _C_TERM.search(line)
            if inst.sparse:
                assert c_term is None
            else:
                sign, bars, _ = c_term.groups()
                assert (sign, bars) == ("-" if neg & 4 else "+", "|" if neg_hi & 4 else "")


@pytest.mark.parametrize("inst, wave", cases(ALL, per_matrix=False))
def test_output_calculation_pairs(run, inst, wave):
    """-m -D -o for every D register and lane: D[i][j] = sum of A[i][k]*B[k][x] (+ C[i][j]
    when dense), where x is j on RDNA4 but i on RDNA3, as the reference prints it."""
    d = operand(inst, "D", wave)
    for (reg, lane), held in slots_of(d).items():
        rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-w", str(wave), "-m", "-D",
                            "-o", "-r", str(reg), "-l", str(lane)])
        assert (rc, err) == (0, "")
        lines = body(out)
        assert len(lines) == len(held), (reg, lane)
        for line, (place, ((i, j, _),)) in zip(lines, held):
            x = i if inst.arch == "RDNA3" else j
            terms = " + ".join(f"A[{i}][{k}]*B[{k}][{x}]" for k in range(inst.k))
            tail = "" if inst.sparse else f" + C[{i}][{j}]"
            assert line == f"{register(place)} = D[{i}][{j}] = {terms}{tail}"


# ---- the error contract for RDNA-specific bad input -------------------------------------
R3 = ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16"]
R3_F16 = ["-a", "rdna3", "-i", "v_wmma_f16_16x16x16_f16"]
R4_SPARSE = ["-a", "rdna4", "-i", "v_swmmac_f32_16x16x32_f16"]
BAD = [  # (id, argv, texts the one stderr line must contain)
    ("wave-48", R3 + ["-g", "-A", "--wavefront", "48"], ["48", "32", "64"]),
    ("wave-32-on-cdna", ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A", "-w", "32"],
     ["32", "64"]),
    ("wave-32-on-cdna-detail", ["-a", "cdna1", "-i", "v_mfma_f32_32x32x8f16", "-d", "-w", "32"],
     ["32", "64"]),
    ("cbsz-on-rdna4", ["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_f16", "-g", "-A", "--cbsz", "1"],
     ["CBSZ", "1"]),
    ("abid-on-rdna3", R3 + ["-g", "-A", "--abid", "1"], ["ABID", "1"]),
    ("blgp-on-rdna3", R3 + ["-g", "-B", "--blgp", "1"], ["BLGP", "1"]),
    ("opsel-without-opsel", R3 + ["-g", "-C", "--opsel", "1"], ["OPSEL", "1", "0"]),
    ("opsel-2-on-wmma-f16", R3_F16 + ["-g", "-C", "--opsel", "2"], ["2", "4"]),
    ("opsel-on-rdna3-a", R3_F16 + ["-g", "-A", "--opsel", "4"], ["OPSEL", "A"]),
    ("opsel-2-wave32-swmmac", R4_SPARSE + ["-g", "-k", "--opsel", "2"], ["2", "0 to 1"]),
    ("opsel-4-wave64-swmmac", R4_SPARSE + ["-w", "64", "-g", "-k", "--opsel", "4"],
     ["4", "0 to 3"]),
    ("opsel-swmmac-not-k", R4_SPARSE + ["-g", "-B", "--opsel", "1"], ["OPSEL", "B", "-k"]),
    ("opsel-iu4-k64-wave32", ["-a", "rdna4", "-i", "v_swmmac_i32_16x16x64_iu4", "-g", "-k",
                              "--opsel", "1"], ["1", "0 to 0"]),
    ("neg-8", R3 + ["-g", "-A", "--neg", "8"], ["8", "0 to 7"]),
    ("neg-hi-8", R3 + ["-g", "-A", "--neg_hi", "8"], ["8", "0 to 7"]),
    ("neg-hi-on-integer", ["-a", "rdna3", "-i", "v_wmma_i32_16x16x16_iu8", "-g", "-A",
                           "--neg_hi", "1"], ["NEG_HI", "1"]),
    ("neg-4-on-integer", ["-a", "rdna4", "-i", "v_wmma_i32_16x16x32_iu4", "-g", "-A",
                          "--neg", "4"], ["NEG", "4", "0-3"]),
    ("neg-on-d-without-o", R3 + ["-g", "-D", "--neg", "1"], ["NEG", "-D", "-o"]),
    ("neg-on-d-layout-with-o", R3 + ["-R", "-D", "-o", "--neg", "1"], ["NEG", "-D", "-o"]),
    ("neg-on-fp8", ["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_fp8_fp8", "-g", "-A", "--neg", "1"],
     ["NEG", "1"]),
    ("neg-hi-on-fp8-swmmac", ["-a", "rdna4", "-i", "v_swmmac_f32_16x16x32_bf8_fp8", "-g", "-B",
                              "--neg_hi", "2"], ["NEG", "2"]),
    ("sparse-has-no-c", R4_SPARSE + ["-g", "-C"], ["C", "-k"]),
    ("dense-has-no-k", R3 + ["-g", "-k"], ["-k"]),
    ("lane-32-in-wave32", R3 + ["-m", "-A", "-l", "32"], ["32", "0 to 31"]),
    ("lane-64-in-wave64", R3 + ["-w", "64", "-m", "-A", "-l", "64"], ["64", "0 to 63"]),
    ("pair-not-valid", ["-a", "rdna4", "-i", "v_wmma_i32_16x16x16_iu4", "-w", "64", "-m", "-B",
                        "-l", "45"], ["45", "0 to 31"]),
    ("register-out-of-range-wave64", R3 + ["-w", "64", "-m", "-D", "-r", "4"], ["4", "0 to 3"]),
]


@pytest.mark.parametrize("argv, texts", [pytest.param(a, t, id=i) for i, a, t in BAD])
def test_rdna_bad_input_is_one_clear_line(run, argv, texts):
    rc, out, err = run(argv)
    assert rc == 2 and out == "", (rc, out)
    assert err.endswith("\n") and err.count("\n") == 1, err
    for text in texts:
        assert text in err, f"{text!r} missing from {err!r}"


def test_rdna_inventory():
    """§10 and §9: instruction, sparse, OPSEL and NEG counts of RDNA3 and RDNA4."""
    def count(arch, test):
        return sum(1 for inst in arch.instructions if test(inst))
    assert [len(RDNA3.instructions), count(RDNA3, lambda i: i.opsel),
            count(RDNA3, lambda i: i.neg)] == [6, 2, 6]
    assert [len(RDNA4.instructions), count(RDNA4, lambda i: i.sparse),
            count(RDNA4, lambda i: i.opsel), count(RDNA4, lambda i: i.neg)] == [22, 11, 11, 14]
    assert all(i.opsel == i.sparse for i in RDNA4.instructions)


def test_golden_rdna_selection_is_not_empty():
    """test_golden.py replays every RDNA record; this guards what it selects."""
    records = golden_records()
    if records is None:
        missing(absent_reason("golden", "public.jsonl.gz"))
    from test_golden import ENABLED_ARCHS
    assert {"rdna3", "rdna4"} <= ENABLED_ARCHS
    rdna = [r for r in records if r["arch"] in ("rdna3", "rdna4")]
    wave64 = {r["arch"] for r in rdna if "64" in r["args"] and ("-w" in r["args"]
                                                                  or "--wavefront" in r["args"])}
    assert wave64 == {"rdna3", "rdna4"}
    assert {r["mode"] for r in rdna} >= {"detail", "get-register", "matrix-entry",
                                          "register-layout", "matrix-layout"}
    assert len(rdna) > 1000


# ======================================================================================
# 5. The printed -d formulas, evaluated for every element and register slot
# ======================================================================================
# (arch, mnemonic, wave, label): a formula the reference prints wrongly (reproduced for
# byte compatibility), with the text that would be right. Each must still fail as printed
# and pass repaired, so this list cannot go stale.
def _strip_bits(text):
    return text[:-len(".[15:0]")] if text.endswith(".[15:0]") else text


def _close(text):
    return text + ")"


def _group(formula):
    def repair(text):
        return text.replace("4 * floor(GPR_bits / 4) % 4)", "4 * (floor(GPR_bits / 4) % 4)")
    return tuple(repair(t) for t in formula[:2]) + formula[2:]


KNOWN_REFERENCE_DEFECTS = {
    # RDNA3 16-bit C/D: the row index is printed with a bit range, `(...).[15:0]`
    **{("RDNA3", m, w, "C or D i"): _strip_bits
       for m in ("v_wmma_f16_16x16x16_f16", "v_wmma_bf16_16x16x16_bf16") for w in WAVES},
    # v_swmmac_i32_16x16x32_iu4: unbalanced parentheses
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 32, "compression k"): _group,
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 64, "compression k"): _group,
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 64, "A[i][k] Lane"): _close,
    ("RDNA4", "v_swmmac_i32_16x16x32_iu4", 64, "compression[i][k] Lane"): _close,
}
NOTE_MATRICES = {"A matrix": "A", "B matrix": "B", "compression indices": "K"}


class Slots:
    """What test_formulas.backward_mismatches reads: the matrix and its register slots
    (GPR_num, lane, the value's bits inside that VGPR, elements)."""

    def __init__(self, op, lanes):
        self.matrix = op.matrix
        self.slots = [(reg, lane, (p.lo, min(p.hi, 31)), elems)
                      for (reg, lane), held in slots(op, lanes).items() for p, elems in held]


def lane_formulas(text):
    """'i and i+16' / 'i, i+16, i+32, and i+48' / one expression -> compiled lanes."""
    return [compile_formula(part) for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", text)]


def forward_wrong(op, kind, text):
    """How many elements the element -> register formula gets wrong."""
    compute = compile_gpr(text) if kind == "GPR" else lane_formulas(text)
    wrong = 0
    for elem in op.elements():
        places = op.places(*elem)
        names = dict(zip(AXES[op.matrix], elem[:2]))
        if kind == "GPR":
            wrong += {span(p) for p in places} != {compute(**names)}
        else:
            wrong += {p.lane for p in places} != {f(**names) for f in compute}
    return wrong


def backward_wrong(op, coord, formula):
    """How many register slots the register -> element formula gets wrong."""
    lanes = 32 if formula[2:] == (LANES_0_31,) else None
    if isinstance(formula, tuple):
        formula = formula[:2]
    return backward_mismatches(Slots(op, lanes), coord, formula)[0]


def verdict(inst, wave, label, text):
    """Wrong evaluations of one formula line (a text that does not parse counts as one)."""
    if label == NOTE:
        matrix = NOTE_MATRICES[re.fullmatch(r"All lanes > 32 are ignored for (.*)", text)[1]]
        op = operand(inst, matrix, wave)
        return sum(1 for e in op.elements() for p in op.places(*e) if p.lane >= 32)
    forward = "[" in label
    names, what = forward_label(label) if forward else backward_label(label)
    check = forward_wrong if forward else backward_wrong
    try:
        return sum(check(operand(inst, m, wave), what, text) for m in names)
    except ValueError:
        return 1


def formula_lines(inst):
    for wave, (forward, backward) in sections(inst).items():
        for label, text in forward + backward:
            yield wave, label, text


@pytest.mark.parametrize("inst, wave", cases(ALL, per_matrix=False))
def test_rdna_formulas_agree_with_the_engine(inst, wave):
    forward, backward = sections(inst)[wave]
    described = defaultdict(set)
    for label, _ in forward + backward:
        if label != NOTE:
            names, what = forward_label(label) if "[" in label else backward_label(label)
            for m in names:
                described[m].add(what)
    for matrix in matrices(inst):
        assert described[matrix] >= {"GPR", "Lane", *AXES[matrix]}, matrix
    wrong = {}
    for label, text in forward + backward:
        key = (inst.arch, inst.mnemonic, wave, label)
        bad = verdict(inst, wave, label, text)
        if key in KNOWN_REFERENCE_DEFECTS:
            assert bad, f"{key} is right now: drop it from KNOWN_REFERENCE_DEFECTS"
            repaired = KNOWN_REFERENCE_DEFECTS[key](text)
            assert verdict(inst, wave, label, repaired) == 0, (key, repaired)
        elif bad:
            wrong[label] = (text, bad)
    assert not wrong, wrong


def test_rdna_notes_name_every_half_empty_operand():
    """The -d notes ("All lanes > 32 are ignored ...") appear exactly for the wave64
    operands whose lanes 32-63 are empty (index matrix and A/B; D is never half empty)."""
    noted = {(inst.mnemonic, wave, NOTE_MATRICES[text.rsplit(" for ", 1)[1]])
             for inst in ALL for wave, label, text in formula_lines(inst) if label == NOTE}
    empty = set()
    for inst in ALL:
        for matrix in matrices(inst):
            op = operand(inst, matrix, 64)
            if all(p.lane < 32 for e in op.elements() for p in op.places(*e)):
                empty.add((inst.mnemonic, 64, matrix))
    # The reference has no B note for v_swmmac_i32_16x16x32_iu4 (its B uses all lanes).
    assert noted == empty


def test_known_defects_name_real_formulas():
    labels = {(inst.arch, inst.mnemonic, wave, label)
              for inst in ALL for wave, label, _ in formula_lines(inst)}
    assert set(KNOWN_REFERENCE_DEFECTS) <= labels


def test_detail_prints_every_rdna_formula(run):
    """Each formula line under its own heading of -d (long ones wrapped into `through`)."""
    heading = re.compile(r"Wave(32|64) (matrix element to register|register to matrix element) "
                         r"mapping with no modifiers:")
    for inst in ALL:
        rc, out, err = run(["-a", inst.arch, "-i", inst.mnemonic, "-d"])
        assert (rc, err) == (0, "")
        parts = heading.split(" ".join(out.split()))
        shown = {(int(wave), kind.startswith("matrix")): text
                 for wave, kind, text in zip(parts[1::3], parts[2::3], parts[3::3])}
        assert len(shown) == 4
        for wave in WAVES:
            for is_forward, lines in zip((True, False), sections(inst)[wave]):
                for label, formula in lines:
                    if isinstance(formula, tuple):
                        marker = "(lanes 0-31 only) " if formula[2:] == (LANES_0_31,) else ""
                        formula = marker + " through ".join(formula[:2])
                    line = formula if label == NOTE else f"{label}: {formula}"
                    assert line in shown[wave, is_forward], (inst.mnemonic, wave, label)
