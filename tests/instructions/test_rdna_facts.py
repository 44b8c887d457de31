"""RDNA4 facts of facts/gfx1250_rdna4.md part B and facts/gfx1250_examples.txt part 2,
one test id per fact ID (see rdna_facts.py).

(Shared helpers: tests/helpers/rdna_common.py.)
"""
import re

import pytest

from instructions import find_architecture
from layouts import Modifiers, Place
from matrix_library.api import matrices
from matrix_library.records import register_name
from tests.helpers import body, notes_only
from tests.helpers import rdna_facts as facts
from tests.helpers.formula_eval import AXES
from tests.helpers.rdna_common import (
    RDNA4,
    WAVES,
    cases,
    detail_value,
    expected_mark,
    find,
    operand,
    slots,
    slots_of,
)

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
    assert rc == 0 and notes_only(err), err
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


@pytest.mark.parametrize("mnemonic, opcode, _byte1, key", [
    pytest.param("v_wmma_f32_16x16x16_f16", 0x40, 0x40, 0, id="R-ENC-1"),
    pytest.param("v_swmmac_f32_16x16x32_f16", 0x50, 0x48, 1, id="R-ENC-2")])
def test_fact_encodings(run, mnemonic, opcode, _byte1, key):
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
            allowed = f"0 to {top}" if top else "use 0 (the only value here)"
            assert rc == 2 and out == "" and str(value) in err and allowed in err
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
    ("B.4-iu4-K16", [RDNA4.find("v_wmma_i32_16x16x16_iu4")], lambda g, _v, e: 8 * g + e),
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


@pytest.mark.parametrize("_fact, arch, mnemonic, wave, matrix, elem, opsel, texts",
                         [pytest.param(*row, id=f"{row[0]}-{row[2]}-w{row[3]}-{row[4]}"
                                                f"{list(row[5])}-opsel{row[6]}")
                          for row in facts.ELEMENTS])
def test_fact_element(run, _fact, arch, mnemonic, wave, matrix, elem, opsel, texts):
    """R-A-*, R-CD-*, R-SP-*, X-* and REFERENCE_CLI examples: the engine's places, and
    what -g prints for them."""
    inst = find(arch, mnemonic)
    places = operand(inst, matrix, wave, Modifiers(opsel=opsel)).places(*elem)
    assert [register_name(p) for p in places] == texts
    coords = dict(zip(AXES[matrix], elem))
    rc, out, err = run(["-a", arch, "-i", mnemonic, "-w", str(wave), "-g",
                        "-k" if matrix == "K" else f"-{matrix}", "--opsel", str(opsel),
                        "-I", str(coords.get("i", 0)), "-J", str(coords.get("j", 0)),
                        "-K", str(coords.get("k", 0))])
    assert (rc, err) == (0, "")
    name = f"{matrix}[{elem[0]}][{elem[1]}]"
    assert body(out) == [f"{name} = {text}" for text in texts]
