"""The mnemonic parser (instructions.model.parse_mnemonic): every registered name, the
name forms of later architectures (gfx1250), and malformed names."""
import pytest

from instructions import ARCHITECTURES
from instructions.model import Mnemonic, _block_count, parse_mnemonic


def parts(mnemonic):
    return parse_mnemonic(mnemonic)._asdict()


@pytest.mark.parametrize("mnemonic, expected", [
    # CDNA1: the input type glued to K; CDNA3: the block count as _<n>b
    ("v_mfma_f32_32x32x1f32", ("mfma", 0, "f32", "f32", 32, 32, 1, 0, "f32", "f32")),
    ("v_mfma_f32_32x32x1_2b_f32", ("mfma", 0, "f32", "f32", 32, 32, 1, 2, "f32", "f32")),
    ("v_mfma_f32_4x4x4_16b_f16", ("mfma", 0, "f32", "f32", 4, 4, 4, 16, "f16", "f16")),
    ("v_mfma_f32_32x32x4bf16_1k", ("mfma", 0, "f32", "f32", 32, 32, 4, 0, "bf16", "bf16")),
    ("v_mfma_f32_16x16x8_xf32", ("mfma", 0, "f32", "f32", 16, 16, 8, 0, "xf32", "xf32")),
    ("v_mfma_f64_4x4x4_4b_f64", ("mfma", 0, "f64", "f64", 4, 4, 4, 4, "f64", "f64")),
    ("v_mfma_f32_16x16x32_bf8_fp8", ("mfma", 0, "f32", "f32", 16, 16, 32, 0, "bf8", "fp8")),
    ("v_smfmac_i32_32x32x32_i8", ("smfmac", 0, "i32", "i32", 32, 32, 32, 0, "i8", "i8")),
    ("v_mfma_scale_f32_16x16x128_f8f6f4",
     ("mfma", 32, "f32", "f32", 16, 16, 128, 0, "f8f6f4", "f8f6f4")),
    ("v_wmma_bf16_16x16x16_bf16", ("wmma", 0, "bf16", "bf16", 16, 16, 16, 0, "bf16", "bf16")),
    ("v_swmmac_i32_16x16x64_iu4", ("swmmac", 0, "i32", "i32", 16, 16, 64, 0, "iu4", "iu4")),
    # gfx1250 name forms
    ("v_wmma_scale16_f32_16x16x128_f8f6f4",
     ("wmma", 16, "f32", "f32", 16, 16, 128, 0, "f8f6f4", "f8f6f4")),
    ("v_wmma_scale_f32_16x16x128_f8f6f4",
     ("wmma", 32, "f32", "f32", 16, 16, 128, 0, "f8f6f4", "f8f6f4")),
    ("v_wmma_bf16f32_16x16x32_bf16",  # D bf16, C f32
     ("wmma", 0, "bf16", "f32", 16, 16, 32, 0, "bf16", "bf16")),
    ("v_wmma_f32_32x16x128_f4", ("wmma", 0, "f32", "f32", 32, 16, 128, 0, "f4", "f4")),
    ("v_wmma_f32_16x16x4_f32", ("wmma", 0, "f32", "f32", 16, 16, 4, 0, "f32", "f32")),
    ("v_wmma_f64_16x16x4_f64", ("wmma", 0, "f64", "f64", 16, 16, 4, 0, "f64", "f64")),
    ("v_swmmac_f32_16x16x128_fp8_bf8",
     ("swmmac", 0, "f32", "f32", 16, 16, 128, 0, "fp8", "bf8")),
    ("v_wmma_i32_16x16x64_iu8", ("wmma", 0, "i32", "i32", 16, 16, 64, 0, "iu8", "iu8")),
    ("V_WMMA_F32_16X16X4_F32", ("wmma", 0, "f32", "f32", 16, 16, 4, 0, "f32", "f32")),
])
def test_parts_of_a_name(mnemonic, expected):
    assert parse_mnemonic(mnemonic) == Mnemonic(*expected)


@pytest.mark.parametrize("mnemonic", [
    "", "v", "v_", "v_mfma", "v_mfma_f32", "v_mfma_f32_32x32x8", "x_mfma_f32_32x32x8_f16",
    "v_mxma_f32_32x32x8_f16", "v_mfma_f32_32x32_f16", "v_mfma_f32_32x32x8x2_f16",
    "v_mfma_f32_axbx8_f16", "v_mfma_f32_32x32x_f16", "v_mfma_f32_32x32x8_", "v_mfma__32x32x8_f16",
    "v_mfma_f32_32x32x8_f16_f16_f16", "v_mfma_f32_0x32x8_f16", "v_mfma_f32_32x32x8_8_f16",
    "v_wmma_scale0_f32_16x16x128_f8f6f4", "v_wmma_scalex_f32_16x16x128_f8f6f4",
    "v_wmma_scale_16x16x128_f8f6f4", "v_wmma_scale16", "v_mfma_f-32_32x32x8_f16",
    "v_mfma_f32_32x32x8_f16 ", "v_mfma_f32_32x32x8_2b", "v_wmma_f32_16x16x16_f16_1k_1k",
])
def test_malformed_names_are_refused(mnemonic):
    with pytest.raises(ValueError, match="cannot parse mnemonic"):
        parse_mnemonic(mnemonic)


def test_the_block_count_is_the_parsers():
    for name in ("v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_4x4x4_16b_f16",
                 "v_mfma_f64_4x4x4_4b_f64", "v_mfma_f32_32x32x8_f16", "v_wmma_f32_16x16x16_bf16",
                 "v_smfmac_f32_16x16x64_bf8_bf8"):
        assert _block_count(name) == (parse_mnemonic(name).blocks or 1), name


def test_every_registered_name_parses_to_its_shape():
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            if inst.parts is not None:  # a name not AMD-style (NVIDIA's): its parts given
                with pytest.raises(ValueError):
                    parse_mnemonic(inst.mnemonic)
                continue
            p = parse_mnemonic(inst.mnemonic)
            assert (p.m, p.n, p.k) == (inst.m, inst.n, inst.k)
            assert p.kind == inst.kind, inst.mnemonic
            assert inst.c_type.key == (inst.c_type_key or p.c)  # bf16f32: C f32, D bf16
            assert inst.out_type.key == (inst.d_type_key or p.d)
            assert (p.scale != 0) == inst.scaled
            assert inst.blocks == (p.blocks or inst.blocks)
            # (the table reads the block count off the _<n>b token alone)
            assert _block_count(inst.mnemonic) == (p.blocks or 1), inst.mnemonic


def test_separate_c_and_d_types():
    from instructions.model import instruction
    inst = instruction("v_wmma_bf16f32_16x16x32_bf16", 0, 8, arch="RDNA4")
    assert (inst.out_type.key, inst.c_type.key, inst.a_type.key) == ("bf16", "f32", "bf16")
    assert inst.d_type == inst.out_type
    scaled = instruction("v_wmma_scale16_f32_16x16x128_f8f6f4", 0, 8, arch="RDNA4")
    assert scaled.scaled and scaled.scale_k == 16
    assert scaled._replace(scale_block=32).scale_k == 32
