"""The type conversions of formats/hip/convert.py's conversion functions:
the macros that convert accumulator values into operand types with clang's builtins,
and the names the pack ops of a plan (matrix_plans/convert/planner.py, `Op` info) render with.

HIP_TYPES is defined for the GPU only (scripts/check_convert_types.py defines the
same names for its host emulation); COMMON_TYPES, the way the wide packs feed their
builtins, is shared by both, so the emulation runs it too.
"""
from __future__ import annotations

HIP_TYPES = r"""/* 16-bit sources (f16/bf16 D) into fp8/bf8: gfx1250 converts an f16 pair directly;
   elsewhere the value widens to f32 first (exact), then converts as f32. */
typedef _Float16 mc_h2 __attribute__((ext_vector_type(2)));
#define MC_H(x) __builtin_bit_cast(_Float16, (unsigned short)(x))
#define MC_CVT_FP8_F16(x) ((unsigned int)(unsigned short) \
    __builtin_amdgcn_cvt_pk_fp8_f16((mc_h2){MC_H(x), MC_H(x)}) & 0xffu)
#define MC_CVT_BF8_F16(x) ((unsigned int)(unsigned short) \
    __builtin_amdgcn_cvt_pk_bf8_f16((mc_h2){MC_H(x), MC_H(x)}) & 0xffu)
#define MC_WIDEN_F16(x) __builtin_bit_cast(unsigned int, (float)MC_H(x))
#define MC_WIDEN_BF16(x) ((unsigned int)(x) << 16)
typedef float mc_f32x2 __attribute__((ext_vector_type(2)));
typedef __bf16 mc_b2 __attribute__((ext_vector_type(2)));
#define MC_CVT2_F16(x, y) __builtin_bit_cast(unsigned int, \
    __builtin_convertvector((mc_f32x2){MC_F32(x), MC_F32(y)}, mc_h2))
#define MC_CVT2_BF16(x, y) __builtin_bit_cast(unsigned int, \
    __builtin_convertvector((mc_f32x2){MC_F32(x), MC_F32(y)}, mc_b2))
#define MC_CVT2_FP8(x, y) \
    ((unsigned int)__builtin_amdgcn_cvt_pk_fp8_f32(MC_F32(x), MC_F32(y), 0, false) & 0xffffu)
#define MC_CVT2_BF8(x, y) \
    ((unsigned int)__builtin_amdgcn_cvt_pk_bf8_f32(MC_F32(x), MC_F32(y), 0, false) & 0xffffu)
#define MC_CVT2_FP8_F16(x, y) ((unsigned int)(unsigned short) \
    __builtin_amdgcn_cvt_pk_fp8_f16((mc_h2){MC_H(x), MC_H(y)}))
#define MC_CVT2_BF8_F16(x, y) ((unsigned int)(unsigned short) \
    __builtin_amdgcn_cvt_pk_bf8_f16((mc_h2){MC_H(x), MC_H(y)}))
/* integers: saturate (a min of a max: v_med3_i32), keep the low bits */
#define MC_CLAMP(x, lo, hi) \
    __builtin_elementwise_min(__builtin_elementwise_max((int)(x), (lo)), (hi))
#define MC_SAT_I8(x) ((unsigned int)MC_CLAMP(x, -128, 127) & 0xffu)
#define MC_SAT_U8(x) ((unsigned int)MC_CLAMP(x, 0, 255))
#define MC_SAT_I4(x) ((unsigned int)MC_CLAMP(x, -8, 7) & 0xfu)
#define MC_SAT_U4(x) ((unsigned int)MC_CLAMP(x, 0, 15))
/* the wide packs' builtins at scale 1.0 (exponent 0: no scaling); w: registers */
typedef float mc_f32x8 __attribute__((ext_vector_type(8)));
typedef float mc_f32x16 __attribute__((ext_vector_type(16)));
#define MC_V8(...) ((mc_f32x8){__VA_ARGS__})
#define MC_V16(...) ((mc_f32x16){__VA_ARGS__})
#define MC_W_SPLIT(w, r, n) do { for (int mc_k = 0; mc_k < (n); mc_k++) \
    (w)[mc_k] = (r)[mc_k]; } while (0)
#define MC_B_PK_FP4(old, x, y, k) \
    __builtin_amdgcn_cvt_scalef32_pk_fp4_f32((old), (x), (y), 1.0f, (k))
#define MC_B_PK8_FP4(w, x) ((w)[0] = __builtin_amdgcn_cvt_scalef32_pk8_fp4_f32((x), 1.0f))
#define MC_B_PK16_FP6(w, x) \
    MC_W_SPLIT(w, __builtin_amdgcn_cvt_scalef32_pk16_fp6_f32((x), 1.0f), 3)
#define MC_B_PK16_BF6(w, x) \
    MC_W_SPLIT(w, __builtin_amdgcn_cvt_scalef32_pk16_bf6_f32((x), 1.0f), 3)
#define MC_B_2XPK16_FP6(w, x, y) \
    MC_W_SPLIT(w, __builtin_amdgcn_cvt_scalef32_2xpk16_fp6_f32((x), (y), 1.0f), 6)
#define MC_B_2XPK16_BF6(w, x, y) \
    MC_W_SPLIT(w, __builtin_amdgcn_cvt_scalef32_2xpk16_bf6_f32((x), (y), 1.0f), 6)
"""

COMMON_TYPES = r"""/* The wide packs (a: the words of the values in order; w: the registers):
   how the words feed each builtin. pk_fp4: value pair k into byte k (the even value in the low
   nibble); pk8/pk16: in order; 2xpk16 interleaves its sources (code 2i from src0[i],
   2i+1 from src1[i]), so it gets the even values, then the odd ones. */
#define MC_A8(a, o) MC_F32((a)[(o)]), MC_F32((a)[(o) + 1]), MC_F32((a)[(o) + 2]), \
    MC_F32((a)[(o) + 3]), MC_F32((a)[(o) + 4]), MC_F32((a)[(o) + 5]), MC_F32((a)[(o) + 6]), \
    MC_F32((a)[(o) + 7])
#define MC_E8(a, o) MC_F32((a)[(o)]), MC_F32((a)[(o) + 2]), MC_F32((a)[(o) + 4]), \
    MC_F32((a)[(o) + 6]), MC_F32((a)[(o) + 8]), MC_F32((a)[(o) + 10]), \
    MC_F32((a)[(o) + 12]), MC_F32((a)[(o) + 14])
#define MC_W_PK_FP4(w, a, k) \
    ((w)[0] = MC_B_PK_FP4((w)[0], MC_F32((a)[2 * (k)]), MC_F32((a)[2 * (k) + 1]), (k)))
#define MC_W_CVT_SCALEF32_PK_FP4_F32(w, a) do { (w)[0] = 0u; MC_W_PK_FP4(w, a, 0); \
    MC_W_PK_FP4(w, a, 1); MC_W_PK_FP4(w, a, 2); MC_W_PK_FP4(w, a, 3); } while (0)
#define MC_W_CVT_SCALEF32_PK8_FP4_F32(w, a) MC_B_PK8_FP4(w, MC_V8(MC_A8(a, 0)))
#define MC_W_CVT_SCALEF32_PK16_FP6_F32(w, a) \
    MC_B_PK16_FP6(w, MC_V16(MC_A8(a, 0), MC_A8(a, 8)))
#define MC_W_CVT_SCALEF32_PK16_BF6_F32(w, a) \
    MC_B_PK16_BF6(w, MC_V16(MC_A8(a, 0), MC_A8(a, 8)))
#define MC_W_CVT_SCALEF32_2XPK16_FP6_F32(w, a) \
    MC_B_2XPK16_FP6(w, MC_V16(MC_E8(a, 0), MC_E8(a, 16)), MC_V16(MC_E8(a, 1), MC_E8(a, 17)))
#define MC_W_CVT_SCALEF32_2XPK16_BF6_F32(w, a) \
    MC_B_2XPK16_BF6(w, MC_V16(MC_E8(a, 0), MC_E8(a, 16)), MC_V16(MC_E8(a, 1), MC_E8(a, 17)))
"""

CONVERT = {"f16": "MC_CVT_F16", "bf16": "MC_CVT_BF16", "fp8": "MC_CVT_FP8",
           "bf8": "MC_CVT_BF8", "fp8_fnuz": "MC_CVT_FP8", "bf8_fnuz": "MC_CVT_BF8",
           # the keys of matrix_plans/convert/planner.py _choose: f16/bf16 sources, integers
           "fp8_f16": "MC_CVT_FP8_F16", "bf8_f16": "MC_CVT_BF8_F16",
           "fp8_f16_via_f32": "MC_CVT_FP8(MC_WIDEN_F16", "bf8_f16_via_f32":
           "MC_CVT_BF8(MC_WIDEN_F16", "fp8_bf16_via_f32": "MC_CVT_FP8(MC_WIDEN_BF16",
           "bf8_bf16_via_f32": "MC_CVT_BF8(MC_WIDEN_BF16",
           "i8": "MC_SAT_I8", "u8": "MC_SAT_U8", "i4": "MC_SAT_I4", "u4": "MC_SAT_U4"}


# Conversions of two adjacent values at once (the pair instructions: clang selects
# v_cvt_pk_f16_f32 / v_cvt_pk_bf16_f32 for a two-lane vector conversion where the
# target has it, and two conversions and a pack elsewhere).
PAIRS = {"f16": "MC_CVT2_F16", "bf16": "MC_CVT2_BF16", "fp8": "MC_CVT2_FP8",
         "bf8": "MC_CVT2_BF8", "fp8_fnuz": "MC_CVT2_FP8", "bf8_fnuz": "MC_CVT2_BF8",
         "fp8_f16": "MC_CVT2_FP8_F16", "bf8_f16": "MC_CVT2_BF8_F16"}


def convert_expr(kind: str, value: str) -> str:
    """The C expression converting `value` (the source bits) as `kind` says."""
    macro = CONVERT[kind]
    return f"{macro}({value}){')' * macro.count('(')}"
