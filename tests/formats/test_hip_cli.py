"""The command line of the code emitter: --emit hip, --ld, --order, --lds, --prefix,
--linear-layout, their errors, and the code excerpts of docs/hip.md."""
import json
import re
import shlex
from pathlib import Path

import pytest

from matrix_library import api as mc
from tests.helpers import call, documentation

README = Path(__file__).resolve().parents[2] / "docs" / "hip.md"


def excerpts():
    """(arguments, lines) of every ```c block of docs/hip.md that starts with
    `// $ matrix-calculator ARGS (excerpt)`."""
    found = []
    for block in re.findall(r"^```c\n(.*?)^```", documentation(),
                            flags=re.MULTILINE | re.DOTALL):
        first, *lines = block.splitlines()
        match = re.match(r"// \$ matrix-calculator (.*?)\s+\(excerpt\)$", first)
        if match:
            found.append((match.group(1), lines))
    return found


def test_readme_has_cdna_and_rdna_code_examples():
    args = " ".join(a for a, _ in excerpts())
    assert "-a cdna3" in args and "-a rdna4" in args


@pytest.mark.parametrize("args, lines", excerpts(), ids=[a for a, _ in excerpts()])
def test_readme_excerpt_is_in_the_output(args, lines):
    status, out, err = call(shlex.split(args))
    assert (status, err) == (0, "")
    printed = out.splitlines()
    for line in lines:
        assert line in printed, line


@pytest.mark.parametrize("args, needle", [
    ("-a cdna4 -i v_mfma_f32_16x16x128_f8f6f4 --cbsz 2 --blgp 4 --emit hip",
     "__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, 2, 4, 0, 0, 0, 0)"),
    ("-a cdna4 -i v_mfma_scale_f32_32x32x64_f8f6f4 --opsel-a 1 --opsel-b 2 --emit hip",
     "__builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, 0, 0, 1, sa, 2, sb)"),
    ("-a cdna3 -i v_mfma_f32_32x32x4_2b_f16 --cbsz 1 --abid 1 --emit hip",
     "__builtin_amdgcn_mfma_f32_32x32x4f16(a, b, c, 1, 1, 0)"),
    ("-a cdna3 -i v_mfma_f32_32x32x4_2b_f16 --cbsz 1 --abid 1 -A --emit hip",
     "    if (!((lane / 32) % 2 == 1)) return -1;"),
    ("-a cdna2 -i v_mfma_f32_32x32x8f16 --blgp 3 -B --emit hip",
     "    const int src = (lane + 48) % 64;  /* BLGP 3: lane L feeds lane (L + 16) % 64 */"),
    ("-a cdna3 -i v_smfmac_f32_16x16x32_f16 --abid 1 --emit hip",
     "__builtin_amdgcn_smfmac_f32_16x16x32_f16(a, b, acc, k, 0, 1)"),
    ("-a rdna4 -i v_swmmac_f32_16x16x32_f16 --opsel 1 --emit hip",
     "__builtin_amdgcn_swmmac_f32_16x16x32_f16_w32(a, b, acc, (int)((unsigned int)k >> 16))"),
    ("-a rdna3 -i v_wmma_i32_16x16x16_iu8 -w 64 --neg 1 --emit hip",
     "__builtin_amdgcn_wmma_i32_16x16x16_iu8_w64(true, a, false, b, c, false)"),
    ("-a rdna3 -i v_wmma_f16_16x16x16_f16 --opsel 4 -D --emit hip",
     "mc_wmma_f16_16x16x16_f16_w32_opsel4_d_bit(int v) { return v * 32 + 16; }"),
    ("-a cdna3 -i v_mfma_f64_16x16x4_f64 --blgp 5 --emit hip",
     "__builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 5)"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --order col --ld 20",
     "    return ((lane / 16) * 4 + v) * 20L + lane % 16;"),
    # gfx1250: the modifiers are arguments, in clang-22's order (scripts/check_hip.py
    # compiles these calls to the instruction with the modifiers LLVM prints)
    ("-a gfx1250 -i v_wmma_f32_16x16x32_f16 --neg-lo 5 --neg-hi 1 --matrix-a-reuse --emit hip",
     "__builtin_amdgcn_wmma_f32_16x16x32_f16(true, a, false, b, (short)1, c, true, false)"),
    ("-a gfx1250 -i v_wmma_f32_16x16x4_f32 --neg-lo 2 --neg-hi 4 --emit hip",
     "__builtin_amdgcn_wmma_f32_16x16x4_f32(false, a, true, b, (short)2, c, false, false)"),
    ("-a gfx1250 -i v_wmma_f32_16x16x32_bf16 --neg-lo 1 --emit hip",
     "        if (bit % 32 == 0) a[bit / 16] = -a[bit / 16];"),
    ("-a gfx1250 -i v_wmma_f32_16x16x64_fp8_bf8 --matrix-b-reuse --emit hip",
     "__builtin_amdgcn_wmma_f32_16x16x64_fp8_bf8(a, b, (short)0, c, false, true)"),
    ("-a gfx1250 -i v_wmma_i32_16x16x64_iu8 --neg-lo 2 --emit hip",
     "__builtin_amdgcn_wmma_i32_16x16x64_iu8(false, a, true, b, c, false, false)"),
    ("-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --matrix-a-fmt fp6 --matrix-b-fmt fp4 --emit hip",
     "__builtin_amdgcn_wmma_f32_16x16x128_f8f6f4(2, a, 4, b, (short)0, c)"),
    ("-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --matrix-a-fmt fp4 -A --emit hip",
     "typedef int mc_i32x16 __attribute__((ext_vector_type(16)));"),
    ("-a gfx1250 -i v_wmma_scale16_f32_16x16x128_f8f6f4 --matrix-a-fmt bf6 --matrix-a-scale row1 "
     "--matrix-b-scale-fmt e4m3 --emit hip",
     "__builtin_amdgcn_wmma_scale16_f32_16x16x128_f8f6f4(3, a, 0, b, (short)0, c, 1, 0, sa, "
     "0, 2, sb, false, false)"),
    ("-a gfx1250 -i v_wmma_scale_f32_32x16x128_f4 --neg-hi 4 --emit hip",
     "__builtin_amdgcn_wmma_scale_f32_32x16x128_f4(a, b, (short)2, c, 0, 0, sa, 0, 0, sb, "
     "false, false)"),
    ("-a gfx1250 -i v_wmma_scale_f32_16x16x128_f8f6f4 --matrix-b-scale row1 --B-scale --emit hip",
     "    const int src = lane - 16;  /* the values sit in lanes 16-31 */"),
    ("-a gfx1250 -i v_swmmac_f32_16x16x64_f16 --index-key 1 --neg-lo 2 --neg-hi 2 --emit hip",
     "__builtin_amdgcn_swmmac_f32_16x16x64_f16(false, a, true, b, acc, "
     "(int)((unsigned int)k >> 16), false, false)"),
    ("-a gfx1250 -i v_wmma_bf16f32_16x16x32_bf16 --emit hip",
     "__global__ void mc_wmma_bf16f32_16x16x32_bf16_example(const unsigned short* a_tile, "
     "long lda, const unsigned short* b_tile, long ldb, const float* c_tile, long ldc, "
     "unsigned short* d_tile, long ldd) {"),
])
def test_emitted_text(args, needle):
    status, out, err = call(shlex.split(args))
    assert (status, err) == (0, ""), err
    assert needle in out.splitlines() or needle in flat(out)


def flat(code):
    """The code with each builtin call on one line and its /*name=*/ comments dropped."""
    code = re.sub(r"/\*[a-z_]+=\*/", "", code)
    return re.sub(r"([(,])\n +", lambda m: m.group(1) + ("" if m.group(1) == "(" else " "),
                  code)


def test_builtin_arguments_are_named():
    status, out, err = call(shlex.split("-a cdna4 -i v_mfma_scale_f32_32x32x64_f8f6f4 "
                                        "--opsel-a 1 --opsel-b 2 --emit hip"))
    assert status == 0
    call_lines = out[out.index("__builtin_amdgcn_mfma_scale"):].splitlines()[:10]
    assert [line.strip() for line in call_lines[1:]] == [
        "a,", "b,", "c,", "/*cbsz_a_format=*/0,", "/*blgp_b_format=*/0,", "/*opsel_a=*/1,",
        "/*scale_a=*/sa,", "/*opsel_b=*/2,", "/*scale_b=*/sb);"]


def test_option_spellings_agree_with_argparse():
    """--emit=hip goes through argparse, --emit hip through the plain-argv path."""
    plain = call(["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--emit", "hip",
                  "--ld", "16"])
    parsed = call(["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A", "--emit=hip", "--ld=16"])
    assert plain[0] == parsed[0] == 0
    # the same code; the header records each command line as given
    assert plain[1].split("\n", 1)[1] == parsed[1].split("\n", 1)[1]
    assert "--emit=hip --ld=16" in parsed[1].split("\n", 1)[0]


@pytest.mark.parametrize("args, words", [
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 --emit cuda", "--emit takes"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 --emit hip --order diagonal", "--order takes"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --ld 4", "--ld 4 is too small"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 --linear-layout", "needs a matrix"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip -g", "modes of their own"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -D --emit hip -o", "drop -o"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --json", "does not use --json"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A -B --emit hip", "at most one matrix"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --linear-layout --ld 16", "does not use --ld"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --ld 16", "drop it (it goes with --emit hip)"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --ld 2147483648", "0 to 2147483647"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --ld 4294967296", "0 to 2147483647"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --ld " + "9" * 33, "--ld"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -A --emit hip --prefix 1x", "C identifier"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -k --emit hip", "is dense"),
    ("-a cdna3 -i v_mfma_f32_16x16x16_f16 -B --blgp 3 --emit hip", "BLGP"),
    ("-a gfx1250 -i v_swmmac_f32_16x16x128_fp8_fp8 --emit hip",
     "reads a 64-bit sparse index, but clang 22's __builtin_amdgcn_swmmac_f32_16x16x128_fp8_fp8 "
     "takes a 32-bit one"),
    ("-a gfx1251 -i v_wmma_f64_16x16x4_f64 --emit hip", "clang 22 has no builtin for f64 WMMAs"),
])
def test_errors_are_one_line_status_2(args, words):
    status, out, err = call(shlex.split(args))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err, err


def test_linear_layout_json_matches_the_library():
    status, out, err = call(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-B", "--linear-layout",
                             "--json"])
    assert (status, err) == (0, "")
    doc = json.loads(out)
    inst = mc.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    assert {k: doc[k] for k in ("in_dims", "out_dims", "bases", "reason", "note")} == \
        mc.linear_layout(inst, "B")
    assert doc["bases"]["register"] == [[1, 0], [2, 0]]


def test_linear_layout_of_multi_block_and_refusal():
    inst = mc.find_instruction("cdna3", "v_mfma_f32_4x4x4_16b_f16")
    doc = mc.linear_layout(inst, "D")
    assert doc["out_dims"] == ["dim0", "dim1", "dim2"] and doc["bases"] is not None
    rotated = mc.linear_layout(mc.find_instruction("cdna2", "v_mfma_f32_32x32x8f16"), "B",
                               mods={"blgp": 3})
    assert rotated["bases"] is None and "not linear" in rotated["reason"]


def test_library_emit_checks_its_arguments():
    from formats import hip
    inst = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    for matrix, wave, options in (("A", 32, hip.Options()), ("K", 64, hip.Options()),
                                  ("Q", 64, hip.Options()), ("A", 64, hip.Options(order="x"))):
        with pytest.raises(mc.CalcError):
            hip.emit(inst, matrix, None, wave, options)
    for options in (hip.Options(ld=0), hip.Options(ld=2**31), hip.Options(ld=10**32),
                    hip.Options(ld=True), hip.Options(prefix="9a"), hip.Options(prefix="a-b")):
        with pytest.raises(mc.CalcError):
            hip.emit(inst, "A", None, 64, options)
    assert "mc_mfma_f32_16x16x16_f16_a_load" in hip.emit(inst, "A", {"cbsz": 0}, 64)
    assert "my_a_load(" in hip.emit(inst, "A", None, 64, hip.Options(prefix="my"))
