# ruff: noqa: E501  (the CUDA program is written as long string lines)
"""The NVIDIA fragment probe: writes one CUDA program per target (sm80 and sm89 as PTX, JIT-compiled
on the device; sm90a as machine code) that records raw hardware answers, with no layout in it.

For every mma.sync / wgmma.mma_async instruction it fills each thread's A, B and C register words
(wgmma: A registers and a K-major B tile in shared memory) with random exact small values of the
operand's type, runs the instruction once and dumps every thread's D register words. For ldmatrix it
loads a tile of distinct 16-bit values through a known row-address permutation and dumps every
thread's registers; for stmatrix it stores distinct register values and dumps the tile. The test
suite (tests/layouts/test_nvidia.py) then checks the calculator's layouts against the record:
inputs read by the layout, multiplied on the host, must equal D read by the layout.

  python3 scripts/nvidia_probe.py --out DIR          # writes DIR/probe_sm80.cu, probe_sm89.cu, probe_sm90.cu
  nvcc -O1 -gencode arch=compute_80,code=compute_80 DIR/probe_sm80.cu -o DIR/p80   (and 89; sm_90a for 90)
  DIR/p80 > nvidia_sm80.json ...

(scripts/nvidia_probe.sh runs the whole thing.)
"""
from __future__ import annotations

import argparse
import os

# ---- element types: name -> (bits, C encoder name)
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "e4m3": 8, "e5m2": 8,
        "s8": 8, "u8": 8, "s4": 4, "u4": 4, "s32": 32, "b16": 16}
CODE = {name: i for i, name in enumerate(BITS)}


def _sm80_entries():
    out = []
    for k in (8, 16):
        for d in ("f16", "f32"):
            out.append((f"m16n8k{k}", "sm80", 16, 8, k, d, "f16", "f16", d, "row.col"))
        out.append((f"m16n8k{k}", "sm80", 16, 8, k, "f32", "bf16", "bf16", "f32", "row.col"))
    for k in (4, 8):
        out.append((f"m16n8k{k}", "sm80", 16, 8, k, "f32", "tf32", "tf32", "f32", "row.col"))
    for k, t in ((16, ("s8", "u8")), (32, ("s8", "u8")), (32, ("s4", "u4")), (64, ("s4", "u4"))):
        out += [(f"m16n8k{k}", "sm80", 16, 8, k, "s32", a, b, "s32", "row.col") for a in t for b in t]
    out.append(("m8n8k4", "sm80", 8, 8, 4, "f64", "f64", "f64", "f64", "row.col"))
    for lay in ("row.col", "row.row", "col.col", "col.row"):
        for d, c in (("f32", "f32"), ("f16", "f16"), ("f32", "f16")):
            out.append(("m8n8k4", "sm80", 8, 8, 4, d, "f16", "f16", c, lay))
    return out


def mma_entries():
    """(shape, target, m, n, k, dtype, atype, btype, ctype, layouts) of every mma.sync probed."""
    out = _sm80_entries()
    fp8 = ("e4m3", "e5m2")
    out += [(f"m16n8k{k}", "sm89", 16, 8, k, d, a, b, d, "row.col")
            for k in (16, 32) for a in fp8 for b in fp8 for d in ("f32", "f16")]
    out += [(f"m16n8k{k}", "sm90", 16, 8, k, "f64", "f64", "f64", "f64", "row.col") for k in (4, 8, 16)]
    return out


def wgmma_entries():
    """(n, dtype, atype, btype, k) of every wgmma.mma_async with A in registers."""
    out = []
    dense = range(8, 257, 8)
    ints = [8, 16, 24] + list(range(32, 257, 16))
    for n in dense:
        for d in ("f32", "f16"):
            out.append((n, d, "f16", "f16", 16))
        out.append((n, "f32", "bf16", "bf16", 16))
        out.append((n, "f32", "tf32", "tf32", 8))
        for a in ("e4m3", "e5m2"):
            for b in ("e4m3", "e5m2"):
                for d in ("f32", "f16"):
                    out.append((n, d, a, b, 32))
    for n in ints:
        for a in ("s8", "u8"):
            for b in ("s8", "u8"):
                out.append((n, "s32", a, b, 32))
    return out


def words(rows, cols, bits, threads):
    return rows * cols * bits // (32 * threads)


def c_reg(t):
    """(C type, asm constraint) of one register of element type t."""
    if t in ("f32",):
        return "float", "f"
    if t == "f64":
        return "double", "d"
    return "uint32_t", "r"


PRELUDE = r'''#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
static uint64_t rng_state;
static uint64_t next_rand() {  /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static void seed_from(const char* s) { rng_state = 1469598103934665603ull; for (; *s; ++s) rng_state = (rng_state ^ (unsigned char)*s) * 1099511628211ull; }
/* a random nonzero exact value of element type t, encoded in its bits */
static uint64_t rand_elem(int t) {
  static const int small[6] = {-3, -2, -1, 1, 2, 3};
  int v = small[next_rand() % 6];
  switch (t) {
%(cases)s
  }
  return 0;
}
static void hexwords(FILE* f, const char* key, const uint32_t* w, size_t n) {
  fprintf(f, ",\"%s\":\"", key);
  for (size_t i = 0; i < n; ++i) fprintf(f, "%08x", w[i]);
  fprintf(f, "\"");
}
'''

CASES = {
    "f16": "{ __half h = __float2half((float)v); uint16_t b; memcpy(&b, &h, 2); return b; }",
    "bf16": "{ float x = (float)v; uint32_t b; memcpy(&b, &x, 4); return b >> 16; }",
    "tf32": "{ float x = (float)v; uint32_t b; memcpy(&b, &x, 4); return b; }",
    "f32": "{ float x = (float)v; uint32_t b; memcpy(&b, &x, 4); return b; }",
    "f64": "{ double x = (double)v; uint64_t b; memcpy(&b, &x, 8); return b; }",
    # e4m3: bias 7, 3 mantissa bits; e5m2: bias 15, 2 mantissa bits (1: 1.0, 2: 2.0, 3: 1.5 * 2)
    "e4m3": "{ static const uint8_t p[4] = {0, 0x38, 0x40, 0x44}; return p[v < 0 ? -v : v] | (v < 0 ? 0x80 : 0); }",
    "e5m2": "{ static const uint8_t p[4] = {0, 0x3c, 0x40, 0x42}; return p[v < 0 ? -v : v] | (v < 0 ? 0x80 : 0); }",
    "s8": "{ int x = (int)(next_rand() % 15) - 7; if (!x) x = 5; return (uint8_t)x; }",
    "u8": "return 1 + next_rand() % 15;",
    "s4": "{ int x = (int)(next_rand() % 15) - 7; if (!x) x = -8; return (uint8_t)x & 15; }",
    "u4": "return 1 + next_rand() % 15;",
    "s32": "return (uint32_t)(int32_t)((int)(next_rand() % 201) - 100);",
    "b16": "return next_rand() & 0xffff;",
}


def prelude():
    cases = "\n".join(f"    case {CODE[t]}: {CASES[t]}" for t in BITS)
    return PRELUDE.replace("%(cases)s", cases)


def fill_code(var, count, t, bits):
    """host code: fill `count` 32-bit words of var with random elements of type t."""
    per = 32 // bits if bits <= 32 else 0
    if bits == 64:
        return (f"  for (int i = 0; i < {count}; i += 2) {{ uint64_t e = rand_elem({CODE[t]}); "
                f"{var}[i] = (uint32_t)e; {var}[i + 1] = (uint32_t)(e >> 32); }}\n")
    return (f"  for (int i = 0; i < {count}; ++i) {{ uint32_t w = 0; for (int s = 0; s < {per}; ++s) "
            f"w |= (uint32_t)rand_elem({CODE[t]}) << ({bits} * s); {var}[i] = w; }}\n")


def reg_decls(name, t, nwords, src):
    """device code: registers of operand `name` (type t) loaded from src words (lane-major)."""
    ctype, _ = c_reg(t)
    if t == "f64":
        n = nwords // 2
        body = "".join(f"  {name}[{i}] = __hiloint2double((int){src}[{2 * i + 1}], (int){src}[{2 * i}]);\n"
                       for i in range(n))
        return f"  double {name}[{n}];\n" + body, n
    conv = "__uint_as_float" if ctype == "float" else ""
    body = "".join(f"  {name}[{i}] = {conv}({src}[{i}]);\n" for i in range(nwords))
    return f"  {ctype} {name}[{nwords}];\n" + body, nwords


def reg_store(name, t, n, dst):
    if t == "f64":
        return "".join(f"  {{ long long b = __double_as_longlong({name}[{i}]); {dst}[{2 * i}] = (uint32_t)b; "
                       f"{dst}[{2 * i + 1}] = (uint32_t)(b >> 32); }}\n" for i in range(n))
    conv = "__float_as_uint" if c_reg(t)[0] == "float" else ""
    return "".join(f"  {dst}[{i}] = {conv}({name}[{i}]);\n" for i in range(n))


def mma_kernel(idx, e):
    shape, _target, m, n, k, d, a, b, c, lay = e
    ptx = f"mma.sync.aligned.{shape}.{lay}.{d}.{a}.{b}.{c}"
    quad = shape == "m8n8k4" and a == "f16"
    rep = 4 if quad else 1  # m8n8k4 .f16: each of the four quad pairs holds its own 8x8x4 product
    na, nb = words(m * rep, k, BITS[a], 32), words(k * rep, n, BITS[b], 32)
    nc, nd = words(m * rep, n, BITS[c], 32), words(m * rep, n, BITS[d], 32)
    src = [f"__global__ void k{idx}(const uint32_t* in, uint32_t* out) {{\n",
           "  const int l = threadIdx.x;\n",
           f"  const uint32_t *ia = in + l * {na}, *ib = in + 32 * {na} + l * {nb}, "
           f"*ic = in + 32 * {na + nb} + l * {nc};\n"]
    counts = {}
    for name, t, nw, s in (("A", a, na, "ia"), ("B", b, nb, "ib"), ("C", c, nc, "ic")):
        code, cnt = reg_decls(name, t, nw, s)
        src.append(code)
        counts[name] = cnt
    dctype, dcon = c_reg(d)
    nd_regs = nd // 2 if d == "f64" else nd
    src.append(f"  {dctype} D[{nd_regs}];\n")
    ops, pos = [], 0
    groups = []
    for name, cnt, con in (("D", nd_regs, "=" + dcon), ("A", counts["A"], c_reg(a)[1]),
                           ("B", counts["B"], c_reg(b)[1]), ("C", counts["C"], c_reg(c)[1])):
        groups.append("{" + ", ".join(f"%{pos + i}" for i in range(cnt)) + "}")
        ops.append((name, cnt, con))
        pos += cnt
    outs = ", ".join(f'"{con}"({name}[{i}])' for name, cnt, con in ops[:1] for i in range(cnt))
    ins = ", ".join(f'"{con}"({name}[{i}])' for name, cnt, con in ops[1:] for i in range(cnt))
    src.append(f'  asm volatile("{ptx} {", ".join(groups)};\\n" : {outs} : {ins});\n')
    src.append(reg_store("D", d, nd_regs, f"(out + l * {nd})"))
    src.append("}\n")
    run = (f'  {{ static uint32_t in[{32 * (na + nb + nc)}], out[{32 * nd}]; seed_from("{ptx}");\n'
           + fill_code("in", 32 * na, a, BITS[a]) + fill_code(f"(in + {32 * na})", 32 * nb, b, BITS[b])
           + fill_code(f"(in + {32 * (na + nb)})", 32 * nc, c, BITS[c])
           + f"    launch(k{idx}, 32, 0, in, sizeof in, out, sizeof out);\n"
           + f'    fprintf(f, "%s{{\\"ptx\\":\\"{ptx}\\",\\"kind\\":\\"mma\\",\\"threads\\":32,'
             f'\\"words\\":[{na},{nb},{nc},{nd}]", sep); sep = ",\\n";\n'
           + f'    hexwords(f, "A", in, {32 * na}); hexwords(f, "B", in + {32 * na}, {32 * nb});\n'
           + f'    hexwords(f, "C", in + {32 * (na + nb)}, {32 * nc}); hexwords(f, "D", out, {32 * nd}); '
             f'fprintf(f, "}}"); }}\n')
    return "".join(src), run


def wgmma_kernel(idx, e):
    n, d, a, b, k = e
    ptx = f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{d}.{a}.{b}"
    na = words(64, k, BITS[a], 128)
    nd = words(64, n, BITS[d], 128)
    nbytes = n * 32  # K-major B: 32 bytes of K per row n
    dctype, dcon = c_reg(d)
    if a in ("f16", "bf16"):
        tail = ", p, 1, 1, 0"
    elif a in ("s8", "u8"):
        tail = ", p"
    else:
        tail = ", p, 1, 1"
    dgroup = "{" + ", ".join(f"%{i}" for i in range(nd)) + "}"
    agroup = "{" + ", ".join(f"%{nd + i}" for i in range(na)) + "}"
    outs = ", ".join(f'"+{dcon}"(D[{i}])' for i in range(nd))
    ins = ", ".join(f'"r"(A[{i}])' for i in range(na)) + ', "l"(desc), "r"(0)'
    fence = "".join(f'  asm volatile("" : "+{dcon}"(D[{i}]) :: "memory");\n' for i in range(nd))
    src = (f"__global__ void k{idx}(const uint32_t* in, uint32_t* out) {{\n"
           f"#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
           f"  __shared__ __align__(1024) uint32_t tile[{nbytes // 4}];\n"
           f"  const int l = threadIdx.x;\n"
           f"  for (int i = l; i < {nbytes // 4}; i += 128) tile[i] = in[128 * {na} + i];\n"
           f'  asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");\n'
           f"  __syncthreads();\n"
           f"  uint32_t A[{na}]; for (int i = 0; i < {na}; ++i) A[i] = in[l * {na} + i];\n"
           f"  {dctype} D[{nd}]; for (int i = 0; i < {nd}; ++i) D[i] = 0;\n"
           f"  uint64_t addr = (uint64_t)__cvta_generic_to_shared(tile);\n"
           # no swizzle, K-major: core matrices of 8 rows x 16 bytes; LBO (K) 128 B, SBO (N) 256 B
           f"  uint64_t desc = ((addr & 0x3FFFF) >> 4) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);\n"
           f'  asm volatile("wgmma.fence.sync.aligned;\\n" ::: "memory");\n'
           f'  asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{nd + na + 1}, 0;\\n'
           f'{ptx} {dgroup}, {agroup}, %{nd + na}{tail};\\n}}\\n" : {outs} : {ins});\n'
           f'  asm volatile("wgmma.commit_group.sync.aligned;\\n" ::: "memory");\n'
           f'  asm volatile("wgmma.wait_group.sync.aligned 0;\\n" ::: "memory");\n'
           + fence
           + reg_store("D", d, nd, f"(out + l * {nd})")
           + "#endif\n}\n")
    bits = BITS[b]
    run = (f'  {{ static uint32_t in[{128 * na + nbytes // 4}], out[{128 * nd}], bm[{k * n}]; '
           f'seed_from("{ptx}");\n'
           + fill_code("in", 128 * na, a, BITS[a])
           + f"    for (int i = 0; i < {k * n}; ++i) bm[i] = (uint32_t)rand_elem({CODE[b]});\n"
           # the shared tile: element (k, n) at byte (n%8)*16 + (n/8)*256 + (kb/16)*128 + kb%16, kb = k*bits/8
           + f"    {{ uint8_t* t = (uint8_t*)(in + {128 * na}); memset(t, 0, {nbytes});\n"
           + f"      for (int kk = 0; kk < {k}; ++kk) for (int nn = 0; nn < {n}; ++nn) {{\n"
           + f"        int kbit = kk * {bits}, kb = kbit / 8; int off = (nn % 8) * 16 + (nn / 8) * 256 + (kb / 16) * 128 + kb % 16;\n"
           + f"        uint32_t e = bm[kk * {n} + nn];\n"
           + f"        for (int y = 0; y < {max(bits // 8, 1)}; ++y) t[off + y] |= (uint8_t)(e >> (8 * y)); }} }}\n"
           + f"    launch(k{idx}, 128, 0, in, sizeof in, out, sizeof out);\n"
           + f'    fprintf(f, "%s{{\\"ptx\\":\\"{ptx}\\",\\"kind\\":\\"wgmma\\",\\"threads\\":128,'
             f'\\"words\\":[{na},0,0,{nd}]", sep); sep = ",\\n";\n'
           + f'    hexwords(f, "A", in, {128 * na}); hexwords(f, "Bkn", bm, {k * n});'
             f' hexwords(f, "D", out, {128 * nd}); fprintf(f, "}}"); }}\n')
    return src, run


# row address of lane l: row PERM(l) of a 32-row tile of 8 b16 values (16 bytes) each
PERM = "((l * 13 + 5) % 32)"


def ldst_kernel(idx, op, num, trans):
    ptx = f"{op}.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16"
    regs = "{" + ", ".join(f"%{i + 1}" for i in range(num)) + "}"
    if op == "ldmatrix":
        outs = ", ".join(f'"=r"(R[{i}])' for i in range(num))
        body = (f'  asm volatile("{ptx} {{{", ".join(f"%{i}" for i in range(num))}}}, [%{num}];\\n" : {outs} : "r"(a));\n'
                + "".join(f"  out[l * {num} + {i}] = R[{i}];\n" for i in range(num)))
        pre = "  for (int i = l; i < 128; i += 32) tile[i] = in[i];\n  __syncthreads();\n"
        post = ""
        insize, outsize = 128, 32 * num
    else:
        ins = ", ".join(f'"r"(R[{i}])' for i in range(num))
        body = (f'  asm volatile("{ptx} [%0], {regs};\\n" :: "r"(a), {ins} : "memory");\n')
        pre = ("  for (int i = l; i < 128; i += 32) tile[i] = 0;\n  __syncthreads();\n"
               + "".join(f"  R[{i}] = in[l * {num} + {i}];\n" for i in range(num)))
        post = "  __syncthreads();\n  for (int i = l; i < 128; i += 32) out[i] = tile[i];\n"
        insize, outsize = 32 * num, 128
    guard = "#if __CUDA_ARCH__ >= 900\n" if op == "stmatrix" else "#if 1\n"
    src = (f"__global__ void k{idx}(const uint32_t* in, uint32_t* out) {{\n{guard}"
           f"  __shared__ __align__(128) uint32_t tile[128];\n  const int l = threadIdx.x;\n"
           f"  uint32_t R[{num}];\n{pre}"
           f"  uint32_t a = (uint32_t)__cvta_generic_to_shared(tile) + 16 * {PERM};\n"
           f"{body}{post}#endif\n}}\n")
    run = (f'  {{ static uint32_t in[{insize}], out[{outsize}]; seed_from("{ptx}");\n'
           f"    for (int i = 0; i < {insize}; ++i) in[i] = (uint32_t)(2 * i + 1) | ((uint32_t)(2 * i + 2) << 16);\n"
           f"    launch(k{idx}, 32, 0, in, sizeof in, out, sizeof out);\n"
           f'    fprintf(f, "%s{{\\"ptx\\":\\"{ptx}\\",\\"kind\\":\\"{op}\\",\\"threads\\":32,'
           f'\\"row_of_lane\\":\\"(l*13+5)%%32\\"", sep); sep = ",\\n";\n'
           f'    hexwords(f, "in", in, {insize}); hexwords(f, "out", out, {outsize}); fprintf(f, "}}"); }}\n')
    return src, run


MAIN = r'''
static void launch(void (*k)(const uint32_t*, uint32_t*), int threads, int smem, const uint32_t* in,
                   size_t nin, uint32_t* out, size_t nout) {
  uint32_t *din, *dout;
  CK(cudaMalloc(&din, nin)); CK(cudaMalloc(&dout, nout));
  CK(cudaMemcpy(din, in, nin, cudaMemcpyHostToDevice)); CK(cudaMemset(dout, 0xff, nout));
  k<<<1, threads, smem>>>(din, dout);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(out, dout, nout, cudaMemcpyDeviceToHost));
  CK(cudaFree(din)); CK(cudaFree(dout));
}
int main(int argc, char** argv) {
  FILE* f = stdout;
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  int drv = 0, rt = 0; cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt);
  fprintf(f, "{\"target\":\"%(target)s\",\"device\":\"%s\",\"cc\":\"%d.%d\",\"driver\":%d,\"runtime\":%d,"
             "\"records\":[\n", p.name, p.major, p.minor, drv, rt);
  const char* sep = "";
%(runs)s
  fprintf(f, "]}\n");
  return 0;
}
'''


# the programs that also hold the matrix moves: ldmatrix (sm_75+) and stmatrix, wgmma (sm_90)
LDMATRIX_TARGET, SM90_TARGET = "sm80", "sm90"


def program(target):
    jobs = []
    if target == LDMATRIX_TARGET:
        jobs += [(ldst_kernel, ("ldmatrix", num, trans)) for num in (1, 2, 4) for trans in (False, True)]
    if target == SM90_TARGET:
        jobs += [(ldst_kernel, ("stmatrix", num, trans)) for num in (1, 2, 4) for trans in (False, True)]
        jobs += [(wgmma_kernel, (e,)) for e in wgmma_entries()]
    jobs += [(mma_kernel, (e,)) for e in mma_entries() if e[1] == target]
    kernels, runs = zip(*(make(idx, *args) for idx, (make, args) in enumerate(jobs)))
    return prelude() + "".join(kernels) + MAIN.replace("%(target)s", target).replace(
        "%(runs)s", "".join(runs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for target in ("sm80", "sm89", "sm90"):
        with open(os.path.join(args.out, f"probe_{target}.cu"), "w") as fh:
            fh.write(program(target))


if __name__ == "__main__":
    main()
