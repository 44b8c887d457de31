"""RDNA on the command line (REFERENCE_CLI.md section 7 and 8.3-8.6): wave sizes, OPSEL,
NEG/NEG_HI, -o, and the error contract for RDNA-specific bad input.

(Shared helpers: tests/helpers/rdna_common.py.)
"""
import re

import pytest

from layouts import Modifiers, Place
from matrix_library.api import matrices
from matrix_library.records import register_name
from tests.helpers import ENABLED_ARCHS, body, golden_records
from tests.helpers.rdna_common import (
    ALL,
    RDNA3,
    RDNA4,
    WAVES,
    cases,
    expected_mark,
    operand,
    slots_of,
)

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


@pytest.mark.slow
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
                assert (src0, src1) == (register_name(pa), register_name(pb))
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
            assert line == f"{register_name(place)} = D[{i}][{j}] = {terms}{tail}"


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
                              "--opsel", "1"], ["1", "use 0 (the only value here)"]),
    ("neg-8", R3 + ["-g", "-A", "--neg", "8"], ["8", "0 to 7"]),
    ("neg-hi-8", R3 + ["-g", "-A", "--neg_hi", "8"], ["8", "0 to 7"]),
    ("neg-hi-on-integer", ["-a", "rdna3", "-i", "v_wmma_i32_16x16x16_iu8", "-g", "-A",
                           "--neg_hi", "1"], ["NEG_HI", "1"]),
    ("neg-4-on-integer", ["-a", "rdna4", "-i", "v_wmma_i32_16x16x32_iu4", "-g", "-A",
                          "--neg", "4"], ["NEG", "4", "0 to 3"]),
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
    assert {"rdna3", "rdna4"} <= ENABLED_ARCHS
    rdna = [r for r in records if r["arch"] in ("rdna3", "rdna4")]
    wave64 = {r["arch"] for r in rdna if "64" in r["args"] and ("-w" in r["args"]
                                                                  or "--wavefront" in r["args"])}
    assert wave64 == {"rdna3", "rdna4"}
    assert {r["mode"] for r in rdna} >= {"detail", "get-register", "matrix-entry",
                                          "register-layout", "matrix-layout"}
    assert len(rdna) > 1000
