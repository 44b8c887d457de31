"""CDNA4 on the command line: aliases, -L, -d, the fp6 straddle notation, scale queries,
errors.

(Shared helpers: tests/helpers/cdna4_common.py.)
"""
import pytest

from tests.helpers.cdna4_common import CDNA4, body, detail, detail_value, fails
from tests.helpers.cdna4_facts import S16, S32, U16, U32

# ---- the command line --------------------------------------------------------------------

@pytest.mark.parametrize("alias", ["cdna4", "CDNA4", "gfx950", "mi350x", "MI355X", "mi355x"])
def test_aliases(run, alias):
    rc, out, err = run(["-a", alias, "-L"])
    lines = out.splitlines()
    assert rc == 0 and err == ""
    assert lines[0] == "Available instructions in the CDNA4 architecture:"
    assert [line.strip() for line in lines[1:]] == [i.mnemonic for i in CDNA4.instructions]
    assert len(lines) == 1 + 68
    rc, out, _ = run(["-a", alias, "-i", U16, "-g", "-A"])
    assert rc == 0 and out.startswith("Architecture: CDNA4\n")


def test_detail_of_a_scaled_instruction(run):
    lines = detail(run, S16, 4, 2)
    assert "Matrix formats:" in lines
    assert detail_value(lines, "A matrix format (CBSZ 4)") == "FP4 (E2M1)"
    assert detail_value(lines, "B matrix format (BLGP 2)") == "FP6 (E2M3)"
    text = "\n".join(lines)
    assert "E8M0" in text and "2^(v-127)" in text
    assert detail_value(lines, "Assembly").startswith(f"{S16} vD, vA, vB, vC, vSA, vSB ")
    assert detail_value(lines, "GPRs required for A") == "4"
    assert detail_value(lines, "GPRs required for B") == "6"


def test_detail_without_formats_is_fp8(run):
    rc, out, _ = run(["-a", "cdna4", "-i", U32, "-d"])
    assert rc == 0
    assert "A matrix format (CBSZ 0): FP8 (E4M3)" in out
    assert "Execution cycles: 64" in out


@pytest.mark.parametrize("args, want", [
    (["-i", U16, "-g", "-A", "-I", "0", "-K", "5", "--cbsz", "2"], "A[0][5] = v[1:0]{0}.[35:30]"),
    (["-i", S16, "-g", "-A", "-I", "4", "-K", "42", "--cbsz", "3"],
     "A[4][42] = v[2:1]{20}.[33:28]"),
    (["-i", S16, "-g", "--A-scale", "-I", "5", "-K", "2", "--opsel-a", "1"],
     "SA[5][2] = v0{37}.[15:8]"),
    (["-i", S16, "-g", "--A_scale", "-I", "5", "-K", "2", "--opsel_a", "1"],
     "SA[5][2] = v0{37}.[15:8]"),
    (["-i", S32, "-g", "--B-scale", "-J", "20", "-K", "1", "--opsel-b", "3"],
     "SB[1][20] = v0{52}.[31:24]"),
    (["-i", S32, "-g", "-B", "-K", "35", "-J", "7", "--blgp", "4"], "B[35][7] = v0{39}.[15:12]"),
])
def test_point_queries(run, args, want):
    rc, out, err = run(["-a", "cdna4"] + args)
    assert rc == 0 and err == "" and body(out) == [want]


def test_register_query_lists_the_straddler(run):
    rc, out, _ = run(["-a", "cdna4", "-i", U16, "-m", "-A", "--cbsz", "2", "-r", "1", "-l", "0"])
    assert rc == 0
    lines = body(out)
    assert lines[0] == "v[1:0]{0}.[35:30] = A[0][5]"
    assert lines[-1] == "v[2:1]{0}.[33:28] = A[0][10]"


def test_output_calculation_with_scales(run):
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-g", "-D", "-I", "1", "-J", "2", "-o",
                      "--cbsz", "4", "--blgp", "4", "--opsel-a", "1", "--opsel-b", "2"])
    assert rc == 0
    (line,) = body(out)
    head = "D[1][2] = Vdst_v1{2} = ScaleA_v0{1}.[15:8]*ScaleB_v0{2}.[23:16]*(Src0_v0{1}.[3:0]*"
    assert line.startswith(head)
    assert line.count("ScaleA_") == 4 and line.count("*Src1_") == 128
    assert line.endswith(" + Src2_v1{2}")
    assert "ScaleA_v0{49}.[15:8]*ScaleB_v0{50}.[23:16]*(Src0_v0{49}" in line  # K block 3
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-m", "-D", "-r", "0", "-l", "0", "-o"])
    (line,) = body(out)
    assert line.startswith("v0{0} = D[0][0] = SA[0][0]*SB[0][0]*(A[0][0]*B[0][0] + ")
    assert "SA[0][3]*SB[3][0]*(A[0][96]*B[96][0] + " in line


def test_scale_matrix_layout(run):
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-M", "--A-scale", "--opsel-a", "2", "--csv"])
    assert rc == 0
    lines = body(out)
    assert lines[0] == "lane,v0.[23:16]"
    assert lines[1:] == [f"{lane},SA[{lane % 16}][{lane // 16}]" for lane in range(64)]


def test_register_layout_of_a_format_has_one_block(run):
    # CBSZ picks the A format on f8f6f4, not a broadcast block group: one block, one table
    rc, out, _ = run(["-a", "cdna4", "-i", S16, "-R", "-A", "--cbsz", "4", "--csv"])
    assert rc == 0
    lines = body(out)
    assert lines[0] == "Block 0"
    assert lines[1].startswith("A[M][K],0,1,2,")
    assert lines[2].startswith("0,v0{0}.[3:0],v0{0}.[7:4],")
    assert len(lines) == 2 + 16


BAD_COMMANDS = {
    "cbsz-5": ["-i", U16, "-g", "-A", "--cbsz", "5"],
    "blgp-5": ["-i", S32, "-g", "-B", "--blgp", "5"],
    "abid-on-f8f6f4": ["-i", U16, "-g", "-A", "--abid", "1"],
    "opsel-a-4": ["-i", S16, "-g", "--A-scale", "--opsel-a", "4"],
    "opsel-b-4": ["-i", S32, "-g", "--B-scale", "--opsel-b", "4"],
    "opsel-a-non-scale": ["-i", U16, "-g", "-A", "--opsel-a", "1"],
    "opsel-a-dense": ["-i", "v_mfma_f32_16x16x32_f16", "-g", "-A", "--opsel-a", "1"],
    "opsel-a-with-B-scale": ["-i", S16, "-g", "--B-scale", "--opsel-a", "1"],
    "opsel-b-with-A": ["-i", S16, "-g", "-A", "--opsel-b", "1"],
    "A-scale-non-scale": ["-i", U16, "-g", "--A-scale"],
    "B-scale-dense": ["-i", "v_mfma_f32_32x32x16_f16", "-g", "--B-scale"],
    "fp6-register-6": ["-i", U16, "-m", "-A", "--cbsz", "2", "-r", "6"],
    "fp4-register-4": ["-i", S16, "-m", "-B", "--blgp", "4", "-r", "4"],
    "scale-register-1": ["-i", S16, "-m", "--A-scale", "-r", "1"],
    "scale-k-block-4": ["-i", S16, "-g", "--A-scale", "-K", "4"],
    "scale-k-block-2-32x32": ["-i", S32, "-g", "--B-scale", "-K", "2"],
    "xf32": ["-i", "v_mfma_f32_32x32x4_xf32", "-d"],
    "cbsz-smfmac-i8": ["-i", "v_smfmac_i32_16x16x128_i8", "-g", "-k", "--cbsz", "1"],
    "abid-smfmac-fp8": ["-i", "v_smfmac_f32_32x32x64_fp8_fp8", "-g", "-k", "--abid", "1"],
    "blgp-single-block": ["-i", "v_mfma_f32_16x16x32_f16", "-g", "-B", "--blgp", "1"],
    "opsel-rdna": ["-i", S16, "-g", "-A", "--opsel", "1"],
    "cbsz-5-detail": ["-i", S16, "-d", "--cbsz", "5"],
}


@pytest.mark.parametrize("args", BAD_COMMANDS.values(), ids=BAD_COMMANDS.keys())
def test_rejected(run, args):
    fails(run, ["-a", "cdna4"] + args)
