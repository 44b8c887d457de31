"""The type conversions of scripts/check_convert.py's wavefront emulation:
C models of the conversion builtins, and Python models that give the expected values.

Two kinds of pass run every converting class:
  - tag passes (mc_shift >= 0): a conversion returns bits `shift`.. of the source word,
    so the check shows that every value lands in its planned slot (and, with several
    shifts, which value it is);
  - a value pass (mc_shift == -1): the macros run the C models below on real values,
    and the expected words come from the Python models, so the check shows the
    conversion itself, value by value.

The semantics modelled (the ISA's: round to nearest even everywhere; L1 for the f32
packs, the OCP 8-bit and MX specifications for the formats):
  - f32 -> f16/bf16/fp8/bf8/fp6/bf6/fp4: round to nearest, ties to even, with gradual
    underflow; fp8/bf8 OCP (e4m3 bias 7, e5m2 bias 15) or FNUZ (bias 8 and 16, CDNA3);
    fp6 e2m3 (bias 1) and bf6 e3m2 (bias 3), fp4 e2m1 (bias 1), at scale 1.0. The
    value pass draws values inside each format's finite range (magnitudes from twice
    the smallest subnormal to half the largest normal), where the encodings agree on
    every result; overflow, NaN and infinity handling are not exercised.
  - f16 and bf16 sources widen to f32 exactly, then convert as f32.
  - i32 -> i8/u8/i4/u4: saturation to [-128, 127], [0, 255], [-8, 7], [0, 15] (the
    v_med3_i32 clamp), two's complement bits; the value pass includes values beyond
    the range on both sides.
The C model encodes by arithmetic (frexp/rint); the Python model picks the nearest of
all the format's encodings (ties: the even one), so the two are independent.
"""
from __future__ import annotations

import math
import struct
from bisect import bisect_left

# (exponent bits, mantissa bits, bias, FNUZ) of each destination format
FORMATS = {"f16": (5, 10, 15, False), "bf16": (8, 7, 127, False),
           "fp8": (4, 3, 7, False), "bf8": (5, 2, 15, False),
           "fp8_fnuz": (4, 3, 8, True), "bf8_fnuz": (5, 2, 16, True),
           "fp6": (2, 3, 1, False), "bf6": (3, 2, 3, False), "fp4": (2, 1, 1, False),
           "f4": (2, 1, 1, False)}
INTS = {"i8": (-128, 127, 8), "u8": (0, 255, 8), "i4": (-8, 7, 4), "u4": (0, 15, 4)}
_KIND = {name: index for index, name in enumerate([*FORMATS, *INTS])}

C_TYPES = r"""
#include <math.h>
static int mc_fnuz;  /* the fp8/bf8 of the class are FNUZ (CDNA3) */
static unsigned int mc_mini(float f, int e, int m, int bias, int fnuz) {
    unsigned int sign = signbit(f) ? 1u : 0u;
    double a = fabs((double)f);
    if (a == 0.0) return fnuz ? 0u : sign << (e + m);
    int ex; frexp(a, &ex); ex -= 1;             /* a = 1.x * 2^ex */
    if (ex < 1 - bias) ex = 1 - bias;           /* subnormal: the smallest exponent */
    double q = rint(ldexp(a, m - ex));          /* round to nearest even */
    if (q >= ldexp(1.0, m + 1)) { q /= 2; ex += 1; }
    unsigned int field = q < ldexp(1.0, m) ? 0u : (unsigned int)(ex + bias);
    unsigned int mant = (unsigned int)q & ((1u << m) - 1u);
    if (q == 0.0 && fnuz) return 0u;
    return sign << (e + m) | field << m | mant;
}
static float mc_f16_value(unsigned int x) {
    unsigned int e = (x >> 10) & 31u, m = x & 1023u;
    float v = e ? ldexpf((float)(m | 1024u), (int)e - 25) : ldexpf((float)m, -24);
    return (x & 0x8000u) ? -v : v;
}
static float mc_f32_value(unsigned int x) { float f; memcpy(&f, &x, 4); return f; }
static int mc_clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
/* kind: the index in FORMATS then INTS (scripts/check_convert_types.py) */
static unsigned int mc_cv(unsigned int x, int kind, int from16, int bits) {
    if (mc_shift >= 0) return (x >> mc_shift) & ((1u << bits) - 1u);
    float f = from16 ? mc_f16_value(x) : mc_f32_value(x);
    switch (kind) {
%(cases)s
    }
    return 0xdeadu;
}
/* the builtins of the wide packs, on floats (tag passes: their bits) */
static unsigned int mc_cvf(float f, int kind, int bits) {
    unsigned int x; memcpy(&x, &f, 4);
    return mc_cv(x, kind, 0, bits);
}
static void mc_put(unsigned int* w, int at, int bits, unsigned int v) {
    for (int b = 0; b < bits; b++)
        if (v >> b & 1u) w[(at + b) / 32] |= 1u << ((at + b) %% 32);
}
static unsigned int mc_pk_fp4(unsigned int old, float x, float y, int k) {
    unsigned int byte = mc_cvf(x, %(fp4)d, 4) | mc_cvf(y, %(fp4)d, 4) << 4;
    return (old & ~(0xffu << (8 * k))) | byte << (8 * k);
}
static void mc_seq(unsigned int* w, const float* x, int n, int span, int kind, int bits) {
    for (int k = 0; k < span; k++) w[k] = 0u;
    for (int i = 0; i < n; i++) mc_put(w, i * bits, bits, mc_cvf(x[i], kind, bits));
}
static void mc_2xpk16(unsigned int* w, const float* x, const float* y, int kind) {
    for (int k = 0; k < 6; k++) w[k] = 0u;
    for (int i = 0; i < 16; i++) {   /* interleaved: code 2i from x[i], 2i+1 from y[i] */
        mc_put(w, 12 * i, 6, mc_cvf(x[i], kind, 6));
        mc_put(w, 12 * i + 6, 6, mc_cvf(y[i], kind, 6));
    }
}
#define MC_F32(x) mc_f32_value(x)
#define MC_V8(...) ((const float[8]){__VA_ARGS__})
#define MC_V16(...) ((const float[16]){__VA_ARGS__})
#define MC_B_PK_FP4(old, x, y, k) mc_pk_fp4((old), (x), (y), (k))
#define MC_B_PK8_FP4(w, x) mc_seq((w), (x), 8, 1, %(fp4)d, 4)
#define MC_B_PK16_FP6(w, x) mc_seq((w), (x), 16, 3, %(fp6)d, 6)
#define MC_B_PK16_BF6(w, x) mc_seq((w), (x), 16, 3, %(bf6)d, 6)
#define MC_B_2XPK16_FP6(w, x, y) mc_2xpk16((w), (x), (y), %(fp6)d)
#define MC_B_2XPK16_BF6(w, x, y) mc_2xpk16((w), (x), (y), %(bf6)d)
#undef MC_CVT_F16
#undef MC_CVT_BF16
#undef MC_CVT_FP8
#undef MC_CVT_BF8
#define MC_CVT_F16(x) mc_cv((x), %(f16)d, 0, 16)
#define MC_CVT_BF16(x) mc_cv((x), %(bf16)d, 0, 16)
#define MC_CVT_FP8(x) mc_cv((x), mc_fnuz ? %(fp8_fnuz)d : %(fp8)d, 0, 8)
#define MC_CVT_BF8(x) mc_cv((x), mc_fnuz ? %(bf8_fnuz)d : %(bf8)d, 0, 8)
#define MC_CVT_FP8_F16(x) mc_cv((x), %(fp8)d, 1, 8)
#define MC_CVT_BF8_F16(x) mc_cv((x), %(bf8)d, 1, 8)
/* widening is exact; tag passes keep the 16-bit source bits */
static unsigned int mc_widen(unsigned int x, int bf16) {
    if (mc_shift >= 0) return x;
    if (bf16) return x << 16;
    float f = mc_f16_value(x); unsigned int y; memcpy(&y, &f, 4); return y;
}
#define MC_WIDEN_F16(x) mc_widen((x), 0)
#define MC_WIDEN_BF16(x) mc_widen((x), 1)
#define MC_CVT2_F16(x, y) (MC_CVT_F16(x) | MC_CVT_F16(y) << 16)
#define MC_CVT2_BF16(x, y) (MC_CVT_BF16(x) | MC_CVT_BF16(y) << 16)
#define MC_CVT2_FP8(x, y) (MC_CVT_FP8(x) | MC_CVT_FP8(y) << 8)
#define MC_CVT2_BF8(x, y) (MC_CVT_BF8(x) | MC_CVT_BF8(y) << 8)
#define MC_CVT2_FP8_F16(x, y) (MC_CVT_FP8_F16(x) | MC_CVT_FP8_F16(y) << 8)
#define MC_CVT2_BF8_F16(x, y) (MC_CVT_BF8_F16(x) | MC_CVT_BF8_F16(y) << 8)
#define MC_SAT_I8(x) mc_cv((x), %(i8)d, 0, 8)
#define MC_SAT_U8(x) mc_cv((x), %(u8)d, 0, 8)
#define MC_SAT_I4(x) mc_cv((x), %(i4)d, 0, 4)
#define MC_SAT_U4(x) mc_cv((x), %(u4)d, 0, 4)
"""


def c_text() -> str:
    """The C models, after check_convert.HOST (which they partly redefine)."""
    cases = []
    for name, kind in _KIND.items():
        if name in FORMATS:
            e, m, bias, fnuz = FORMATS[name]
            cases.append(f"    case {kind}: return mc_mini(f, {e}, {m}, {bias}, {int(fnuz)});")
        else:
            lo, hi, bits = INTS[name]
            cases.append(f"    case {kind}: return (unsigned int)mc_clamp((int)x, {lo}, {hi})"
                         f" & {(1 << bits) - 1}u;")
    return C_TYPES % {"cases": "\n".join(cases), **_KIND}


def variants(dst: object) -> list[tuple[str, dict[str, int]]]:
    """(matrix, destination modifiers) to plan into: A and B plainly, plus each format
    an f8f6f4 operand can select and the signed reading of an iu8/iu4 operand."""
    out: list[tuple[str, dict[str, int]]] = []
    for index, matrix in enumerate("AB"):
        out.append((matrix, {}))
        fields = dst.format_fields  # type: ignore[attr-defined]
        if fields:
            out += [(matrix, {fields[index]: code}) for code in range(1, 5)]
        if matrix == "B" and dst.blgp:  # type: ignore[attr-defined]
            out.append((matrix, {"blgp": 3}))  # the lane rotation (a permutation)
        key = (dst.a_type if matrix == "A" else dst.b_type).key  # type: ignore[attr-defined]
        if key.startswith("iu"):
            name = "neg_lo" if dst.takes("neg_lo") else "neg"  # type: ignore[attr-defined]
            out.append((matrix, {name: 1 << index}))
    return out


# ---- the Python models


def _decode(code: int, fmt: tuple[int, int, int, bool]) -> float | None:
    e, m, bias, fnuz = fmt
    sign = code >> (e + m) & 1
    field = code >> m & ((1 << e) - 1)
    mant = code & ((1 << m) - 1)
    if fnuz and sign and not field and not mant:
        return None  # FNUZ: the NaN code
    # IEEE-style top exponent (f16, bf16, bf8): inf/NaN; OCP e4m3: only S.1111.111
    if not fnuz and e >= 4 and field == (1 << e) - 1 and (e > 4 or m != 3 or mant == 7):
        return None
    value = (mant / (1 << m)) * 2.0 ** (1 - bias) if not field else \
        (1 + mant / (1 << m)) * 2.0 ** (field - bias)
    return -value if sign else value


_TABLES: dict[str, tuple[list[float], list[int]]] = {}


def _table(name: str) -> tuple[list[float], list[int]]:
    """Every finite non-negative value of the format, ascending, with its code."""
    if name not in _TABLES:
        fmt = FORMATS[name]
        e, m = fmt[0], fmt[1]
        pairs = sorted((v, c) for c in range(1 << (e + m)) if (v := _decode(c, fmt)) is not None)
        _TABLES[name] = ([v for v, _ in pairs], [c for _, c in pairs])
    return _TABLES[name]


def nearest(value: float, name: str) -> int:
    """The code of the format nearest to `value` (ties: the even code)."""
    values, codes = _table(name)
    e, m = FORMATS[name][0], FORMATS[name][1]
    a = abs(value)
    at = bisect_left(values, a)
    best = [i for i in (at - 1, at) if 0 <= i < len(values)]
    best.sort(key=lambda i: (abs(values[i] - a), codes[i] & 1))
    code = codes[best[0]]
    return code | (1 << (e + m)) if value < 0 and code else code


def _f32(value: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", value))[0])


def _mix(ident: int) -> int:
    return (ident * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF


def source_value(key: str, ident: int) -> tuple[int, float | int]:
    """(source bits, source value) of identity `ident` for conversion `key`."""
    target = key.split("_")[0] if not key.endswith("fnuz") else key
    h = _mix(ident)
    if target in INTS:
        lo, hi, _ = INTS[target]
        span = hi - lo
        x = lo - span // 2 + h % (2 * span + 1)  # beyond the range on both sides
        return x & 0xFFFFFFFF, x
    e, m, bias, _ = FORMATS[target]
    top = _table(target)[0][-1] / 2
    low = max(2.0 ** (2 - bias - m), 2.0 ** -100)  # (f32 subnormals: not drawn)
    frac = (h >> 8) / float(1 << 24)
    value = math.exp(math.log(low) + frac * (math.log(top) - math.log(low)))
    value = -value if h & 1 else value
    source = key.split("_")[1] if "_" in key and not key.endswith("fnuz") else "f32"
    if source == "f16":
        bits = int(struct.unpack("<H", struct.pack("<e", value))[0])
        return bits, float(struct.unpack("<e", struct.pack("<H", bits))[0])
    bits = _f32(value)
    if source == "bf16":
        bits >>= 16
        return bits, float(struct.unpack("<f", struct.pack("<I", bits << 16))[0])
    return bits, float(struct.unpack("<f", struct.pack("<I", bits))[0])


def expected_value(key: str, ident: int) -> int:
    """The destination bits the conversion `key` gives the source of `ident`."""
    target = key.split("_")[0] if not key.endswith("fnuz") else key
    _, value = source_value(key, ident)
    if target in INTS:
        lo, hi, bits = INTS[target]
        return min(max(int(value), lo), hi) & ((1 << bits) - 1)
    return nearest(float(value), target)


def value_key(conv: object) -> str:
    """The conversion key of a plan (the first converting op's), "" when none."""
    for op in conv.plan.ops:  # type: ignore[attr-defined]
        if op.op in ("pack", "packw") and op.info[0]:
            return str(op.info[0])
    return ""


def planned_packs(conv: object) -> set[str]:
    """The conversion instructions a plan issues that the compiled code must show
    (the type-converting ones: v_cvt_*, v_med3_i32)."""
    steps = conv.steps  # type: ignore[attr-defined]
    return {step.instruction for step in steps
            if step.instruction.startswith(("v_cvt", "v_med3"))}
