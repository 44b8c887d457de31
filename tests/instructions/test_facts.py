"""Element facts and modifier facts stated as literals, from the project's sources:
STYLE.md (§2), the upstream README examples (seed 004, see readme_examples.py),
REFERENCE_CLI.md (§6, §8, §9, §11) and the README's prose on CBSZ/ABID and BLGP.
"""
import re
import shlex

import pytest

from instructions import find_architecture
from layouts import Modifiers, Operand
from matrix_library.records import register_name
from tests.helpers import body, reference_examples
from tests.helpers.readme_examples import README_EXAMPLES


def instruction(arch, mnemonic):
    inst = find_architecture(arch).find(mnemonic)
    assert inst is not None, (arch, mnemonic)
    return inst


# ---- engine facts: (arch, instruction, matrix, (row, col, block), register text) ----------
# Coordinates are the matrix's own: A[i][k], B[k][j], C/D[i][j], K[i][k].
PLACES = (
    ("cdna1", "v_mfma_f32_32x32x8f16", "A", (5, 6, 0), "v1{37}.[15:0]"),     # STYLE.md §2
    ("cdna1", "v_mfma_f32_32x32x8f16", "D", (13, 7, 0), "v5{39}"),           # STYLE.md §2
    ("cdna2", "v_mfma_f32_4x4x4f16", "A", (1, 2, 4), "v1{17}.[15:0]"),       # README
    ("cdna2", "v_mfma_f32_4x4x4f16", "D", (3, 2, 1), "v3{6}"),               # README
    ("cdna2", "v_mfma_f32_4x4x4f16", "D", (2, 1, 8), "v2{33}"),              # README
    ("cdna2", "v_mfma_f64_4x4x4f64", "D", (1, 2, 0), "v[1:0]{18}"),          # README
    ("cdna2", "v_mfma_f64_16x16x4f64", "A", (5, 0, 0), "v[1:0]{5}"),         # REFERENCE §6.2
    ("cdna3", "v_mfma_f64_16x16x4_f64", "C", (4, 7, 0), "v[3:2]{7}"),        # REFERENCE §8.2
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "K", (2, 31, 0), "v0{50}.[7:4]"),  # README
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "K", (3, 5, 0), "v0{3}.[7:4]"),   # REFERENCE §8.1
    ("cdna3", "v_smfmac_f32_16x16x32_f16", "K", (1, 8, 0), "v0{17}.[3:0]"),  # REFERENCE §9
)


@pytest.mark.parametrize("arch, mnemonic, matrix, elem, text", PLACES)
def test_element_place(arch, mnemonic, matrix, elem, text):
    places = Operand(instruction(arch, mnemonic), matrix).places(*elem)
    assert [register_name(p) for p in places] == [text]


# ---- CLI facts: (arguments, the lines after the header) ------------------------------------
CLI_FACTS = (
    ("-a cdna1 -i v_mfma_f32_32x32x8f16 -g -A -I 5 -K 6", ["A[5][6] = v1{37}.[15:0]"]),
    ("-a cdna1 -i v_mfma_f32_32x32x8f16 -g -D -I 13 -J 7", ["D[13][7] = v5{39}"]),
    ("-a cdna1 -i v_mfma_f32_32x32x8f16 -m -D -r 5 -l 39", ["v5{39} = D[13][7]"]),
    # 64-bit values: either register of the pair names the pair (REFERENCE §6.2)
    ("-a cdna2 -i v_mfma_f64_16x16x4f64 -m -A -r 0 -l 5", ["v[1:0]{5} = A[5][0]"]),
    ("-a cdna2 -i v_mfma_f64_16x16x4f64 -m -A -r 1 -l 5", ["v[1:0]{5} = A[5][0]"]),
    # the compression index: four K values share a nibble (REFERENCE §9)
    ("-a cdna3 -i v_smfmac_f32_16x16x32_f16 -m -k -l 17",
     [f"v0{{17}}.[{hi}:{lo}] = K[1][{k}]" for hi, lo, ks in ((3, 0, range(8, 12)),
                                                            (7, 4, range(12, 16))) for k in ks]),
    # -m truncates a broadcast slot's list (REFERENCE §11 item 5)
    ("-a cdna3 -i v_mfma_f32_4x4x4_16b_f16 -m -A --cbsz 2 --abid 1 -l 4",
     [f"v0{{4}}.[15:0] = A[0][0].B{b}" for b in range(4)]),
    ("-a cdna3 -i v_mfma_f32_16x16x4_f32 -m -B --blgp 1", ["v0{0} = B[0][0]", "v0{0} = B[2][0]"]),
    # CDNA3 FP64: BLGP negates; plain -g never shows it, -m and -o do (REFERENCE §8.2, §11.6)
    ("-a cdna3 -i v_mfma_f64_16x16x4_f64 -g -A --blgp 3", ["A[0][0] = v[1:0]{0}"]),
    ("-a cdna3 -i v_mfma_f64_16x16x4_f64 -m -A --blgp 3", ["v[1:0]{0} = -A[0][0]"]),
    ("-a cdna3 -i v_mfma_f64_16x16x4_f64 -m -C -r 2 -l 7 --blgp 4", ["v[3:2]{7} = -C[4][7]"]),
    ("-a cdna3 -i v_mfma_f64_16x16x4_f64 -g -D -o --blgp 7 -I 1 -J 2",
     ["D[1][2] = Vdst_v[1:0]{18} = " + " + ".join(
         f"-Src0_v[1:0]{{{16 * k + 1}}}*-Src1_v[1:0]{{{16 * k + 2}}}" for k in range(4))
      + " - Src2_v[1:0]{18}"]),
    ("-a cdna3 -i v_mfma_f64_16x16x4_f64 -g -D -o --blgp 3 -I 1 -J 2",
     ["D[1][2] = Vdst_v[1:0]{18} = " + " + ".join(
         f"-Src0_v[1:0]{{{16 * k + 1}}}*-Src1_v[1:0]{{{16 * k + 2}}}" for k in range(4))
      + " + Src2_v[1:0]{18}"]),
)


@pytest.mark.parametrize("command, lines", CLI_FACTS, ids=[c for c, _ in CLI_FACTS])
def test_cli_fact(run, command, lines):
    rc, out, err = run(shlex.split(command))
    assert (rc, err) == (0, "")
    assert body(out) == lines


# ---- the README examples, byte for byte -----------------------------------------------------
# Seed lines whose README output the reference itself does not print. README line 1042
# shows ABID 3 selecting the top index nibble with CBSZ 1; the recorded reference (golden
# corpus; REFERENCE_CLI.md §8.1) ignores ABID whenever CBSZ != 0 on a sparse instruction.
README_NOT_REFERENCE = {1042: "K[2][31] = v0{50}.[7:4]"}


@pytest.mark.parametrize("line, command, expected", README_EXAMPLES,
                         ids=[f"seed-line-{e[0]}" for e in README_EXAMPLES])
def test_readme_example(run, line, command, expected):
    rc, out, err = run(shlex.split(command))
    assert (rc, err) == (0, "")
    if line in README_NOT_REFERENCE:
        assert out != expected
        assert body(out) == [README_NOT_REFERENCE[line]]
    else:
        assert out == expected


def test_readme_examples_are_those_of_the_seed():
    """README_EXAMPLES are the CDNA examples of AMD's calculator's README, line by line."""
    found = [(line, args, out) for line, args, out in reference_examples() if " cdna" in args]
    assert tuple(found) == README_EXAMPLES


# ---- sparse compression-index sets (REFERENCE_CLI §8.1; README) ---------------------------
SPARSE_16BIT = ("v_smfmac_f32_16x16x32_f16", "v_smfmac_f32_32x32x16_f16",
                "v_smfmac_f32_16x16x32_bf16", "v_smfmac_f32_32x32x16_bf16")
SPARSE_8BIT = ("v_smfmac_i32_16x16x64_i8", "v_smfmac_f32_32x32x32_fp8_bf8")
# (instructions, CBSZ, ABID, where K[3][5] lives)
INDEX_SETS = (
    (SPARSE_16BIT, 0, 0, "v0{3}.[7:4]"),
    (SPARSE_16BIT, 0, 1, "v0{3}.[15:12]"),
    (SPARSE_16BIT, 0, 2, "v0{3}.[23:20]"),
    (SPARSE_16BIT, 0, 3, "v0{3}.[31:28]"),
    (SPARSE_16BIT, 1, 3, "v0{3}.[7:4]"),   # CBSZ != 0: ABID ignored
    (SPARSE_16BIT, 3, 2, "v0{3}.[7:4]"),
    (SPARSE_8BIT, 0, 0, "v0{3}.[7:4]"),
    (SPARSE_8BIT, 0, 1, "v0{3}.[23:20]"),
    (SPARSE_8BIT, 2, 1, "v0{3}.[7:4]"),
)


@pytest.mark.parametrize("mnemonics, cbsz, abid, text", INDEX_SETS)
def test_compression_index_set(run, mnemonics, cbsz, abid, text):
    for mnemonic in mnemonics:
        rc, out, err = run(["-a", "cdna3", "-i", mnemonic, "-g", "-k", "-I", "3", "-K", "5",
                            "--cbsz", str(cbsz), "--abid", str(abid)])
        assert (rc, err) == (0, "")
        assert body(out) == [f"K[3][5] = {text}"], mnemonic


@pytest.mark.parametrize("mnemonic, abid", [(SPARSE_16BIT[0], 4), (SPARSE_8BIT[0], 2)])
def test_compression_index_set_range(run, mnemonic, abid):
    rc, out, err = run(["-a", "cdna3", "-i", mnemonic, "-g", "-k", "--abid", str(abid)])
    assert rc == 2 and out == "" and err.strip()


def test_sparse_a_layout_ignores_cbsz_abid():
    inst = instruction("cdna3", "v_smfmac_f32_16x16x32_f16")
    plain = Operand(inst, "A")
    for mods in (Modifiers(cbsz=2, abid=1), Modifiers(abid=3)):
        op = Operand(inst, "A", mods)
        assert all(op.places(*e) == plain.places(*e) for e in plain.elements())


# ---- CBSZ / ABID: which block's A values each block reads (README prose) -------------------
# (CBSZ, ABID) -> the block read by each of the 16 blocks of a 16-block instruction
CBSZ_SOURCES = {
    (0, 0): tuple(range(16)),
    (1, 1): (1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15),
    (2, 1): (1,) * 4 + (5,) * 4 + (9,) * 4 + (13,) * 4,
    (2, 2): (2,) * 4 + (6,) * 4 + (10,) * 4 + (14,) * 4,
    (3, 6): (6,) * 8 + (14,) * 8,
    (4, 13): (13,) * 16,
}
SIXTEEN_BLOCKS = (("cdna1", "v_mfma_f32_4x4x4f16"), ("cdna2", "v_mfma_i32_4x4x4i8"),
                  ("cdna3", "v_mfma_f32_4x4x1_16b_f32"))


@pytest.mark.parametrize("arch, mnemonic", SIXTEEN_BLOCKS)
@pytest.mark.parametrize("cbsz, abid", sorted(CBSZ_SOURCES))
def test_cbsz_abid_source_block(arch, mnemonic, cbsz, abid):
    inst = instruction(arch, mnemonic)
    plain, op = Operand(inst, "A"), Operand(inst, "A", Modifiers(cbsz=cbsz, abid=abid))
    rows, cols, blocks = plain.shape
    assert blocks == 16
    for block, source in enumerate(CBSZ_SOURCES[cbsz, abid]):
        for i in range(rows):
            for k in range(cols):
                assert op.places(i, k, block) == plain.places(i, k, source), (i, k, block)


def test_cbsz_broadcast_in_the_register_layout(run):
    """Two-block groups: the -R tables are titled by group and show the ABID block's lanes."""
    rc, out, err = run(["-a", "cdna2", "-i", "v_mfma_f32_16x16x1f32", "-R", "-A", "-c",
                        "--cbsz", "1", "--abid", "1"])
    assert (rc, err) == (0, "")
    lines = body(out)
    assert [line for line in lines if line.startswith("Block")] == ["Blocks 0, 1", "Blocks 2, 3"]
    first = lines[lines.index("Blocks 0, 1") + 2]
    second = lines[lines.index("Blocks 2, 3") + 2]
    assert (first, second) == ("0,v0{16}", "0,v0{48}")


def test_cbsz_unused_lane_note(run):
    rc, out, err = run(["-a", "cdna2", "-i", "v_mfma_f32_16x16x1f32", "-m", "-A",
                        "--cbsz", "2", "--abid", "2", "-l", "5"])
    assert (rc, err) == (0, "")
    assert len(body(out)) == 1 and "lane 5" in body(out)[0]


# ---- BLGP: the lane each lane's B value is read from (README prose) ------------------------
# BLGP -> for lanes 0-15, 16-31, 32-47, 48-63: the first lane of the group they read
BLGP_GROUPS = {
    0: (0, 16, 32, 48),    # as is
    1: (0, 16, 0, 16),     # lanes 0-31 also feed 32-63
    2: (32, 48, 32, 48),   # lanes 32-63 feed 0-31
    3: (16, 32, 48, 0),    # rotate down by 16: lane 0 reads lane 16, lane 48 reads lane 0
    4: (0, 0, 0, 0),       # lanes 0-15 feed every group
    5: (16, 16, 16, 16),
    6: (32, 32, 32, 32),
    7: (48, 48, 48, 48),
}
BLGP_INSTRUCTIONS = (("cdna1", "v_mfma_f32_32x32x8f16"), ("cdna2", "v_mfma_f32_16x16x2bf16"),
                     ("cdna2", "v_mfma_i32_4x4x4i8"), ("cdna3", "v_mfma_f32_32x32x1_2b_f32"),
                     ("cdna3", "v_mfma_i32_16x16x4_4b_i8"))


@pytest.mark.parametrize("arch, mnemonic", BLGP_INSTRUCTIONS)
@pytest.mark.parametrize("blgp", sorted(BLGP_GROUPS))
def test_blgp_lane_pattern(arch, mnemonic, blgp):
    inst = instruction(arch, mnemonic)
    plain, op = Operand(inst, "B"), Operand(inst, "B", Modifiers(blgp=blgp))
    for elem in plain.elements():
        (base,), (read,) = plain.places(*elem), op.places(*elem)
        expected = BLGP_GROUPS[blgp][base.lane // 16] + base.lane % 16
        assert (read.reg, read.lo, read.width) == (base.reg, base.lo, base.width)
        assert read.lane == expected, (elem, base.lane)


def test_blgp_readme_block_zero_reads_lane_32(run):
    rc, out, err = run(["-a", "cdna2", "-i", "v_mfma_f32_16x16x2bf16", "-g", "-B", "-K", "1",
                        "-J", "3", "--blgp", "2"])
    assert (rc, err) == (0, "")
    assert body(out) == ["B[1][3].B0 = v0{35}.[31:16]"]


@pytest.mark.parametrize("blgp, lane", [(1, 40), (2, 3), (4, 20), (5, 47), (7, 0)])
def test_blgp_unread_lane_is_an_error(run, blgp, lane):
    rc, out, err = run(["-a", "cdna2", "-i", "v_mfma_f32_32x32x2f32", "-m", "-B",
                        "--blgp", str(blgp), "-l", str(lane)])
    assert rc == 2 and out == "" and len(err.splitlines()) == 1


# ---- CDNA3 FP64: BLGP bit 0 negates A, bit 1 B, bit 2 C ------------------------------------
@pytest.mark.parametrize("mnemonic", ["v_mfma_f64_16x16x4_f64", "v_mfma_f64_4x4x4_4b_f64"])
@pytest.mark.parametrize("blgp", range(8))
def test_fp64_blgp_negation_display(run, mnemonic, blgp):
    base = ["-a", "cdna3", "-i", mnemonic, "--blgp", str(blgp)]
    for bit, matrix in ((1, "A"), (2, "B"), (4, "C")):
        rc, out, err = run(base + ["-m", f"-{matrix}", "-l", "1"])
        assert (rc, err) == (0, "")
        (line,) = body(out)
        sign = "-" if blgp & bit else ""
        pattern = rf"v\[1:0\]\{{1\}} = {sign}{matrix}\[\d+\]\[\d+\](\.B\d+)?"
        assert re.fullmatch(pattern, line), line
        rc, out, err = run(base + ["-g", f"-{matrix}"])
        assert rc == 0 and "-" not in "".join(body(out))
        rc, out, err = run(base + ["-R", f"-{matrix}", "-c"])
        cells = [c for row in body(out) for c in row.split(",")[1:] if "v[" in c]
        assert cells and all(c.startswith("-v[") == bool(blgp & bit) for c in cells)


@pytest.mark.parametrize("matrix", ["D", "k"])
def test_fp64_blgp_does_not_apply_to_d_or_k(run, matrix):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f64_16x16x4_f64", "-g", f"-{matrix}",
                        "--blgp", "1"])
    assert rc == 2 and out == "" and err.strip()


def test_cdna2_fp64_has_no_blgp(run):
    rc, out, err = run(["-a", "cdna2", "-i", "v_mfma_f64_16x16x4f64", "-g", "-B", "--blgp", "1"])
    assert rc == 2 and out == "" and err.strip()
