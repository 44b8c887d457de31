"""The host half of `--emit probe` (formats/hip/probe.py) as C text: the value formats,
the random tiles, the reference product and the comparison, shared by the real program
(HIP runtime) and the lane emulation (scripts/check_probe.py, gcc), which defines
MC_EMULATION and supplies its own launcher.

A variant (struct mc_variant) says what the hardware computes: D[b][i][j] = C[b][i][j]
+ sum_k A[src_b][i][k] * B[b][k][j] (src_b: the block CBSZ/ABID broadcast to block b;
sparse A expanded from its two kept values per group of four by the 4-bit codes of K,
bits 1:0 and 3:2 naming their K positions; block scales multiplying A and B by
2^(e - 127) for each `scale_k` K values), with the variant's negations and signedness.
Values are drawn so that every product and sum is exact in every format: small
integers (-2 .. 2) for floating inputs, the whole range for 8-bit and 4-bit integers,
powers of two for the scales, -8 .. 8 for floating C; the reference is computed in
double and compared bit for bit (after decoding) with what the instruction stored.
"""
from __future__ import annotations

# The format codes, in the order of HOST's mc_formats[] table.
FORMAT_CODES = ("F64", "F32", "F16", "BF16", "FP8", "BF8", "FP8N", "BF8N", "FP6", "BF6", "FP4",
                "E8M0", "I32", "I8", "U8", "I4", "U4")

# Operand type keys (instructions/model.py TYPES) -> format code; iu8/iu4 by signedness.
TYPE_FORMATS = {"f64": "F64", "f32": "F32", "xf32": "F32", "f16": "F16", "bf16": "BF16",
                "fp8": "FP8", "bf8": "BF8", "fp8_fnuz": "FP8N", "bf8_fnuz": "BF8N",
                "fp6": "FP6", "bf6": "BF6", "fp4": "FP4", "f4": "FP4", "e8m0": "E8M0",
                "i32": "I32", "i8": "I8"}

HOST = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef unsigned long long mc_u64;
/* Value formats: bits, exponent bits, mantissa bits, bias, integer (1 signed, 2 unsigned). */
enum { MC_F64, MC_F32, MC_F16, MC_BF16, MC_FP8, MC_BF8, MC_FP8N, MC_BF8N, MC_FP6, MC_BF6,
       MC_FP4, MC_E8M0, MC_I32, MC_I8, MC_U8, MC_I4, MC_U4 };
static const struct { int bits, ebits, mbits, bias, integer; const char* name; } mc_formats[] = {
    {64, 11, 52, 1023, 0, "f64"}, {32, 8, 23, 127, 0, "f32"}, {16, 5, 10, 15, 0, "f16"},
    {16, 8, 7, 127, 0, "bf16"}, {8, 4, 3, 7, 0, "fp8"}, {8, 5, 2, 15, 0, "bf8"},
    {8, 4, 3, 8, 0, "fp8 (fnuz)"}, {8, 5, 2, 16, 0, "bf8 (fnuz)"}, {6, 2, 3, 1, 0, "fp6"},
    {6, 3, 2, 3, 0, "bf6"}, {4, 2, 1, 1, 0, "fp4"}, {8, 8, 0, 127, 0, "e8m0"},
    {32, 0, 0, 0, 1, "i32"}, {8, 0, 0, 0, 1, "i8"}, {8, 0, 0, 0, 2, "u8"},
    {4, 0, 0, 0, 1, "i4"}, {4, 0, 0, 0, 2, "u4"}};

static double mc_pow2(int e) {
    double x = 1.0;
    for (; e > 0; e--) x *= 2.0;
    for (; e < 0; e++) x *= 0.5;
    return x;
}
/* The value of the bit pattern x in format f (finite values only). */
static double mc_decode(int f, mc_u64 x) {
    const int bits = mc_formats[f].bits, eb = mc_formats[f].ebits, mb = mc_formats[f].mbits;
    if (mc_formats[f].integer == 2) return (double)x;
    if (mc_formats[f].integer == 1) {
        long long v = (long long)x;
        if (x >> (bits - 1) & 1) v -= (long long)1 << (bits - 1) << 1;
        return (double)v;
    }
    if (f == MC_E8M0) return mc_pow2((int)x - 127);
    const int sign = (int)(x >> (bits - 1) & 1);
    const int exponent = (int)(x >> mb & ((1u << eb) - 1));
    const double mant = (double)(x & (((mc_u64)1 << mb) - 1)) / mc_pow2(mb);
    const double v = exponent ? (1.0 + mant) * mc_pow2(exponent - mc_formats[f].bias)
                              : mant * mc_pow2(1 - mc_formats[f].bias);
    return sign ? -v : v;
}
/* The bit pattern of v in format f; v is exactly representable (normal or zero). */
static mc_u64 mc_encode(int f, double v) {
    const int bits = mc_formats[f].bits, eb = mc_formats[f].ebits, mb = mc_formats[f].mbits;
    if (mc_formats[f].integer) return (mc_u64)(long long)v & (((mc_u64)1 << (bits - 1) << 1) - 1);
    if (v == 0) return 0;
    mc_u64 sign = 0;
    if (v < 0) { sign = (mc_u64)1 << (bits - 1); v = -v; }
    int e = 0;
    while (v >= 2.0) { v *= 0.5; e++; }
    while (v < 1.0) { v *= 2.0; e--; }
    if (f == MC_E8M0) return (mc_u64)(e + 127);
    const mc_u64 mant = (mc_u64)((v - 1.0) * mc_pow2(mb));
    return sign | (mc_u64)(e + mc_formats[f].bias) << mb | (mant & (((mc_u64)1 << mb) - 1));
    (void)eb;
}
static mc_u64 mc_get(const unsigned char* tile, long e, int bits) {
    mc_u64 x = 0;
    const long bit = e * bits;
    for (int k = 0; k < bits; k++)
        x |= (mc_u64)(tile[(bit + k) / 8] >> ((bit + k) % 8) & 1) << k;
    return x;
}
static void mc_set(unsigned char* tile, long e, int bits, mc_u64 x) {
    const long bit = e * bits;
    for (int k = 0; k < bits; k++) {
        unsigned char* p = &tile[(bit + k) / 8];
        const int at = (int)((bit + k) % 8);
        *p = (unsigned char)((*p & ~(1u << at)) | (unsigned)(x >> k & 1) << at);
    }
}

/* One matrix in memory: format, rows, columns, blocks (row-major, blocks one after another). */
struct mc_tile { int format, rows, cols, blocks; };
enum { MC_A, MC_B, MC_C, MC_K, MC_SA, MC_SB, MC_D, MC_TILES, MC_READINGS = 2 };
struct mc_variant {
    const char* name;
    int wave, m, n, k, blocks, sparse, scale_k;
    struct mc_tile tiles[MC_TILES];  /* rows == 0: the instruction has no such matrix */
    int neg_a, neg_b, neg_c, abs_c;  /* -A, -B, -C, |C| */
    int block_src[16];               /* CBSZ/ABID: the A block block b reads */
    const int* b_from;               /* BLGP broadcasts: the B element each B[k][j] is */
    /* Other readings of a sparse index: the name of each and the K element the hardware
       reads as each element of K under it (-1: none); D is told against each. */
    const char* reading[MC_READINGS];
    const int* k_from[MC_READINGS];
    /* The K elements the calculator places past the index operand (index_key 1: fields
       the hardware reads as 0), -1 ending the list; 0: none. */
    const int* k_past;
    void (*launch)(const struct mc_variant* v, unsigned char** tiles);
};
static long mc_elements(const struct mc_tile* t) { return (long)t->rows * t->cols * t->blocks; }
static long mc_bytes(const struct mc_tile* t) {
    return (mc_elements(t) * mc_formats[t->format].bits + 7) / 8 + 16;
}

static unsigned long long mc_state = 0x853c49e6748fea9bull;
static unsigned mc_random(void) {
    mc_state = mc_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(mc_state >> 33);
}
/* A random value of tile `which` in its format, exact in every product and sum. */
static double mc_draw(int which, int format) {
    if (which == MC_SA || which == MC_SB) return mc_pow2((int)(mc_random() % 5) - 2);
    if (which == MC_K) {  /* two distinct K positions, the first below the second */
        static const int codes[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
        return codes[mc_random() % 6];
    }
    const int bits = mc_formats[format].bits;
    if (mc_formats[format].integer == 2)
        return (double)(mc_random() % (1u << (bits > 8 ? 10 : bits)));
    if (mc_formats[format].integer == 1) {
        const int half = bits > 8 ? 1000 : 1 << (bits - 1);
        return (double)((int)(mc_random() % (unsigned)(2 * half)) - half);
    }
    if (which == MC_C) return (double)((int)(mc_random() % 17) - 8);
    return (double)((int)(mc_random() % 5) - 2);
}
/* Group e of K (row e / groups) has a field that a reading reads as 0, which names K
   position 0 twice: its second kept A value is drawn as 0, so that D does not depend on
   whether the hardware adds the two values named there (rocjitsu) or keeps the first. */
static void mc_unnamed(const struct mc_variant* v, unsigned char** tiles, long e) {
    const struct mc_tile* a = &v->tiles[MC_A];
    const long r = e / v->tiles[MC_K].cols, g = e % v->tiles[MC_K].cols;
    for (int b = 0; b < a->blocks; b++)
        mc_set(tiles[MC_A], ((long)b * a->rows + r) * a->cols + 2 * g + 1,
               mc_formats[a->format].bits, mc_encode(a->format, 0.0));
}
static void mc_fill(const struct mc_variant* v, unsigned char** tiles) {
    for (int t = 0; t < MC_TILES; t++) {
        const struct mc_tile* tile = &v->tiles[t];
        if (!tile->rows) continue;
        memset(tiles[t], t == MC_D ? 0xA5 : 0, (size_t)mc_bytes(tile));
        if (t == MC_D) continue;
        const int format = t == MC_K ? MC_U4 : tile->format;
        for (long e = 0; e < mc_elements(tile); e++)
            mc_set(tiles[t], e, mc_formats[format].bits, mc_encode(format, mc_draw(t, format)));
    }
    for (const int* p = v->k_past; p && *p >= 0; p++) {
        mc_set(tiles[MC_K], *p, 4, 0);
        mc_unnamed(v, tiles, *p);
    }
    for (int n = 0; n < MC_READINGS && v->k_from[n]; n++)
        for (long e = 0; e < mc_elements(&v->tiles[MC_K]); e++)
            if (v->k_from[n][e] < 0) mc_unnamed(v, tiles, e);
}

/* Element (r, c) of block b of one matrix, by the caller's means (tile or registers). */
typedef double (*mc_fetch)(void* ctx, int which, int r, int c, int b);
static double mc_from_tile(void* ctx, int which, int r, int c, int b) {
    const struct mc_variant* v = ((const struct mc_variant**)ctx)[0];
    unsigned char** tiles = ((unsigned char***)ctx)[1];
    const struct mc_tile* t = &v->tiles[which];
    if (which == MC_A) b = v->block_src[b];
    const int* k_from = ((const int**)ctx)[2];  /* a reading of the index, or none */
    const int format = which == MC_K ? MC_U4 : t->format;
    long e = ((long)b * t->rows + r) * t->cols + c;
    if (which == MC_B && v->b_from && (e = v->b_from[e]) < 0) return 0.0;
    if (which == MC_K && k_from && (e = k_from[e]) < 0) return 0.0;
    return mc_decode(format, mc_get(tiles[which], e, mc_formats[format].bits));
}
/* A as the product reads it: the kept values of sparse A at the K positions K names. */
static double mc_a_value(const struct mc_variant* v, mc_fetch get, void* ctx, int i, int k, int b) {
    if (!v->sparse) return get(ctx, MC_A, i, k, b);
    const int g = k / 4, code = (int)get(ctx, MC_K, i, g, 0);
    if ((code & 3) == k % 4) return get(ctx, MC_A, i, 2 * g, b);
    if ((code >> 2 & 3) == k % 4) return get(ctx, MC_A, i, 2 * g + 1, b);
    return 0.0;
}
/* The reference product D[b][i][j] (see the module text). */
static double mc_reference(const struct mc_variant* v, mc_fetch get, void* ctx, int b, int i,
                           int j) {
    double sum = 0.0;
    for (int k = 0; k < v->k; k++) {
        double a = mc_a_value(v, get, ctx, i, k, b), x = get(ctx, MC_B, k, j, b);
        if (v->scale_k) {
            a *= get(ctx, MC_SA, i, k / v->scale_k, 0);
            x *= get(ctx, MC_SB, k / v->scale_k, j, 0);
        }
        sum += (v->neg_a ? -a : a) * (v->neg_b ? -x : x);
    }
    double c = get(ctx, MC_C, i, j, b);
    if (v->abs_c && c < 0) c = -c;
    return sum + (v->neg_c ? -c : c);
}
/* The elements of the stored D that differ from the reference under the reading
   k_from (0: the calculator's); the first of them in first[], want and seen. */
static long mc_differ(const struct mc_variant* v, unsigned char** tiles, const int* k_from,
                      int* first, double* want, double* seen) {
    const void* ctx[3] = {v, tiles, k_from};
    const struct mc_tile* d = &v->tiles[MC_D];
    long bad = 0;
    for (int b = 0; b < v->blocks; b++)
        for (int i = 0; i < v->m; i++)
            for (int j = 0; j < v->n; j++) {
                const double r = mc_reference(v, mc_from_tile, (void*)ctx, b, i, j);
                const long e = ((long)b * d->rows + i) * d->cols + j;
                const int bits = mc_formats[d->format].bits;
                const double s = mc_decode(d->format, mc_get(tiles[MC_D], e, bits));
                if (r != s && !bad++) {
                    first[0] = b; first[1] = i; first[2] = j; *want = r; *seen = s;
                }
            }
    return bad;
}
/* Whether every other reading of the index gives a D other than the calculator's on
   the drawn tiles (the reference under it stored as D, then compared). */
static int mc_readings_differ(const struct mc_variant* v, unsigned char** tiles) {
    const struct mc_tile* d = &v->tiles[MC_D];
    const int bits = mc_formats[d->format].bits;
    int first[3];
    double want, seen;
    for (int n = 0; n < MC_READINGS && v->k_from[n]; n++) {
        const void* ctx[3] = {v, tiles, v->k_from[n]};
        for (int b = 0; b < v->blocks; b++)
            for (int i = 0; i < v->m; i++)
                for (int j = 0; j < v->n; j++)
                    mc_set(tiles[MC_D], ((long)b * d->rows + i) * d->cols + j, bits,
                           mc_encode(d->format, mc_reference(v, mc_from_tile, (void*)ctx,
                                                             b, i, j)));
        if (!mc_differ(v, tiles, 0, first, &want, &seen)) return 0;
    }
    return 1;
}
/* Run one variant; prints PASS or FAIL with the first differing element; 1 if it passed.
   Where the index has other readings, the tiles are drawn until each reading gives
   another D, and the line says which reading the stored D follows. */
static int mc_check(const struct mc_variant* v, unsigned char** tiles) {
    mc_fill(v, tiles);
    int told = 1;
    if (v->k_from[0])
        for (int tries = 0; !(told = mc_readings_differ(v, tiles)) && tries < 16; tries++)
            mc_fill(v, tiles);
    memset(tiles[MC_D], 0xA5, (size_t)mc_bytes(&v->tiles[MC_D]));
    v->launch(v, tiles);
    int first[3] = {0, 0, 0}, other[3];
    double want = 0, seen = 0, w, s;
    const long bad = mc_differ(v, tiles, 0, first, &want, &seen);
    int follows = -1;
    for (int n = 0; n < MC_READINGS && v->k_from[n] && bad; n++)
        if (!mc_differ(v, tiles, v->k_from[n], other, &w, &s)) follows = n;
    const char* alone = !v->k_from[0] ? "" : !told ? " (index: the readings give one D here)"
                                                     : " (index: hardware follows the "
                                                       "calculator's reading)";
    if (!bad) {
        printf("PASS %s%s\n", v->name, alone);
        return 1;
    }
    if (follows >= 0) {
        printf("FAIL %s: index: hardware follows %s reading, not the calculator's (%ld of %d "
               "elements differ from the calculator's D)\n", v->name, v->reading[follows], bad,
               v->blocks * v->m * v->n);
        return 0;
    }
    printf("FAIL %s: %ld of %d elements differ; first D[%d][%d][%d] (block, row, column): "
           "expected %.17g, seen %.17g%s\n", v->name, bad, v->blocks * v->m * v->n,
           first[0], first[1], first[2], want, seen,
           v->k_from[0] ? "; index: hardware follows neither reading" : "");
    return 0;
}
/* Every variant; the summary line; 0 only when all pass. */
static int mc_run_all(const struct mc_variant* variants, int count) {
    static unsigned char* tiles[MC_TILES];
    for (int t = 0; t < MC_TILES; t++) tiles[t] = (unsigned char*)malloc(1 << 20);
    int passed = 0;
    for (int n = 0; n < count; n++) passed += mc_check(&variants[n], tiles);
    printf("%d of %d variants pass%s\n", passed, count, passed == count ? "" : ": FAIL");
    return passed == count ? 0 : 1;
}
"""
