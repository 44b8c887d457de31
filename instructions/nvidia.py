"""NVIDIA's warp and warpgroup matrix instructions, one line each, as data.

Sources: the PTX ISA 9.0 (docs.nvidia.com/cuda/parallel-thread-execution), section 9.7.14
"Warp Level Matrix Multiply-Accumulate Instructions" (mma.sync: 9.7.14.5.x "Matrix Fragments
for mma.mXnYkZ"; ldmatrix 9.7.14.5.15; stmatrix 9.7.14.5.16) and 9.7.15 "Asynchronous
Warpgroup Level Matrix Multiply-Accumulate Instructions" (wgmma: 9.7.15.5.1 "Register
Fragments"); CUTLASS's CuTe atoms (NVIDIA/cutlass 7107b05535f8977f5ecb9d01ee203205b1fd9bc4,
include/cute/atom/mma_traits_sm70/80/89/90*.hpp, copy_traits_sm75/sm90.hpp).

A line is (PTX spelling, the first architecture that runs it, the CuTe atom or "", its
parts): the spelling is PTX's without `.sync.aligned` and without `.row.col` where that is
the only layout, and its kind, shape and types (the Instruction's `parts`) are made with
it, from the same values (a test reads them back from the spelling). The generators give
each line's spelling and first architecture with a maker of the rest, so that a lookup
(`find`) makes the one record it names, not the 524 of sm_90's table.
sm89 adds the fp8 mma.sync shapes to sm80's; sm90 adds the f64 m16n8kK shapes,
wgmma.mma_async with A in registers (every N the PTX ISA allows) and stmatrix. The layouts
are layouts/nvidia.py's; every one was run on an H200 (tests/data/nvidia/) and agrees with
CuTe (tests/layouts/test_nvidia.py).
"""
from __future__ import annotations

from functools import cache, partial

from instructions.model import Instruction, Mnemonic

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

# (PTX spelling, the first architecture that runs it, the CuTe atom or "", its kind, shape
# and types: the parts the spelling says, made where it is written)
Line = tuple[str, str, str, Mnemonic]
# A line as its generator gives it: (PTX spelling, first architecture, the maker of its
# atom and parts)
Spec = tuple[str, str, "Callable[[], tuple[str, Mnemonic]]"]
ORDER = ("SM80", "SM89", "SM90")  # each architecture runs the lines of those before it
MIN_ARCH = {"sm_75": "SM80", "sm_80": "SM80", "sm_89": "SM89", "sm_90": "SM90"}
CUTE = ("NVIDIA/cutlass 7107b05535f8977f5ecb9d01ee203205b1fd9bc4 "
        "include/cute/atom/{}")


def _mma_line(k: int, d: str, a: str, b: str, c: str, first: str, atom: str,
              shape: tuple[int, int] = (16, 8), layout: str = "") -> Spec:
    """mma.m<M>n<N>k<K>[.<layout>].<D>.<A>.<B>.<C>; m8n8k4 .f16 is four quad pairs, one
    product each (blocks 4)."""
    m, n = shape
    spelled = f"mma.m{m}n{n}k{k}.{layout + '.' if layout else ''}{d}.{a}.{b}.{c}"
    quad = (m, n, k) == (8, 8, 4) and a == "f16"
    return spelled, first, lambda: (atom, Mnemonic("mma", 0, d, c, m, n, k, 4 if quad else 1,
                                                     a, b))


def _mma() -> Iterator[Spec]:
    for k in (8, 16):
        yield _mma_line(k, "f16", "f16", "f16", "f16", "sm_80", f"SM80_16x8x{k}_F16F16F16F16_TN")
        yield _mma_line(k, "f32", "f16", "f16", "f32", "sm_80", f"SM80_16x8x{k}_F32F16F16F32_TN")
        yield _mma_line(k, "f32", "bf16", "bf16", "f32", "sm_80",
                        f"SM80_16x8x{k}_F32BF16BF16F32_TN")
    for k in (4, 8):
        yield _mma_line(k, "f32", "tf32", "tf32", "f32", "sm_80",
                        f"SM80_16x8x{k}_F32TF32TF32F32_TN")
    for k, types in ((16, ("s8", "u8")), (32, ("s8", "u8")), (32, ("s4", "u4")),
                     (64, ("s4", "u4"))):
        yield from (_mma_line(k, "s32", a, b, "s32", "sm_80",
                              f"SM80_16x8x{k}_S32{a.upper()}{b.upper()}S32_TN")
                    for a in types for b in types)
    yield _mma_line(4, "f64", "f64", "f64", "f64", "sm_80", "SM80_8x8x4_F64F64F64F64_TN",
                    shape=(8, 8))
    yield from _m8n8k4_f16()
    fp8 = ("e4m3", "e5m2")
    yield from (_mma_line(k, d, a, b, d, "sm_89",
                          f"SM89_16x8x32_{d.upper()}{a.upper()}{b.upper()}{d.upper()}_TN"
                          if k == 32 else "")
                for k in (16, 32) for a in fp8 for b in fp8 for d in ("f32", "f16"))
    for k in (4, 8, 16):
        yield _mma_line(k, "f64", "f64", "f64", "f64", "sm_90", f"SM90_16x8x{k}_F64F64F64F64_TN")


def _m8n8k4_f16() -> Iterator[Spec]:
    """m8n8k4 .f16: A and B layouts are chosen (.row/.col); CuTe's T is row (A) / col (B)."""
    for lay, tn in (("row.col", "TN"), ("col.row", "NT"), ("col.col", "NN"), ("row.row", "TT")):
        for d, c in (("f16", "f16"), ("f32", "f32"), ("f32", "f16")):
            atom = f"SM70_8x8x4_{d.upper()}F16F16{c.upper()}_{tn}" if d == c else ""
            yield _mma_line(4, d, "f16", "f16", c, "sm_80", atom, shape=(8, 8), layout=lay)


def _wgmma() -> Iterator[Spec]:
    """wgmma.mma_async with A in registers: N from 8 to 256 in steps of 8 (integer types:
    8, 16, 24, then steps of 16; PTX ISA 9.7.15.5); C is D."""
    def line(n: int, k: int, d: str, a: str, b: str, tn: str = "_TN") -> Spec:
        return (f"wgmma.mma_async.m64n{n}k{k}.{d}.{a}.{b}", "sm_90",
                lambda: (f"SM90::GMMA::MMA_64x{n}x{k}_{d.upper()}{a.upper()}{b.upper()}_RS{tn}",
                         Mnemonic("wgmma", 0, d, d, 64, n, k, 1, a, b)))

    for n in range(8, 257, 8):
        yield line(n, 16, "f16", "f16", "f16", "")
        yield line(n, 16, "f32", "f16", "f16", "")
        yield line(n, 16, "f32", "bf16", "bf16", "")
        yield line(n, 8, "f32", "tf32", "tf32")
        for a in ("e4m3", "e5m2"):
            for b in ("e4m3", "e5m2"):
                yield line(n, 32, "f16", a, b)
                yield line(n, 32, "f32", a, b)
    for n in (8, 16, 24, *range(32, 257, 16)):
        for a in ("s8", "u8"):
            for b in ("s8", "u8"):
                yield line(n, 32, "s32", a, b)


def _moves() -> Iterator[Spec]:
    """ldmatrix (sm_75) and stmatrix (sm_90): x1/x2/x4 8x8 b16 matrices, .trans (the
    fragment counted as operand D; `blocks` is the matrix count)."""
    for op, arch, sm, kind in (("ldmatrix", "sm_75", "SM75", "LDSM"),
                               ("stmatrix", "sm_90", "SM90", "STSM")):
        for num, plain, trans in ((1, "U32x1", "U16x2"), (2, "U32x2", "U16x4"),
                                  (4, "U32x4", "U16x8")):
            parts = Mnemonic(op, 0, "b16", "b16", 8, 8, 8, num, "b16", "b16")
            yield f"{op}.m8n8.x{num}.shared.b16", arch, _made(f"{sm}_{plain}_{kind}_N", parts)
            yield (f"{op}.m8n8.x{num}.trans.shared.b16", arch,
                   _made(f"{sm}_{trans}_{kind}_T", parts))


def _made(atom: str, parts: Mnemonic) -> Callable[[], tuple[str, Mnemonic]]:
    return lambda: (atom, parts)


def _specs() -> Iterator[Spec]:
    yield from _mma()
    yield from _wgmma()
    yield from _moves()


@cache
def lines() -> tuple[Line, ...]:
    """Every line, made whole, in table order."""
    return tuple((name, first, *make()) for name, first, make in _specs())

# The sources -d and --json name (formats/detail_nvidia.py, layouts/nvidia.py facts)
PTX = "PTX ISA 9.0 (docs.nvidia.com/cuda/parallel-thread-execution)"
SECTIONS = {"mma": "9.7.14.5 (Matrix Fragments for mma.m*n*k*)",
            "wgmma": "9.7.15.5.1 (Register Fragments and Shared Memory Matrix Layouts)",
            "ldmatrix": "9.7.14.5.15 (ldmatrix)", "stmatrix": "9.7.14.5.16 (stmatrix)"}
HARDWARE = ("tests/data/nvidia/ (an NVIDIA H200, driver 580.159.04, CUDA 13.0: sm_80 and "
            "sm_89 code as PTX compiled by the driver, sm_90a as machine code)")


def cute_source(atom: str) -> str:
    """The repository, commit and file of a CuTe atom's traits."""
    kind = "copy" if "LDSM" in atom or "STSM" in atom else "mma"
    arch = atom[2:4] if atom.startswith("SM") else ""
    gmma = "_gmma" if "::GMMA::" in atom else ""
    return (f"NVIDIA/cutlass 7107b05535f8977f5ecb9d01ee203205b1fd9bc4 "
            f"include/cute/atom/{kind}_traits_sm{arch}{gmma}.hpp")


def ptx_spelling(inst: Instruction) -> str:
    """The full PTX spelling: `.sync.aligned` (and mma's only layout, `.row.col`) put back."""
    head, _, rest = inst.mnemonic.partition(".")
    if head == "wgmma":  # wgmma.mma_async.sync.aligned.<shape>...
        verb, _, rest = rest.partition(".")
        head = f"{head}.{verb}"
    if head == "mma" and rest.split(".")[1] not in ("row", "col"):
        shape, _, types = rest.partition(".")
        rest = f"{shape}.row.col.{types}"
    return f"{head}.sync.aligned.{rest}"




def spelling(name: str) -> str:
    """The lines' spelling of a name as PTX may spell it: any case, with or without
    `.sync.aligned`, `.row.col` (where it is the only layout) and `.shared`."""
    tokens = [t for t in name.lower().split(".") if t not in ("sync", "aligned")]
    if tokens[:1] in (["ldmatrix"], ["stmatrix"]) and "shared" not in tokens:
        tokens.insert(len(tokens) - 1, "shared")
    if tokens[:1] == ["mma"] and tokens[2:4] == ["row", "col"] and \
            (tokens[1] != "m8n8k4" or tokens[5:6] != ["f16"]):
        del tokens[2:4]
    return ".".join(tokens)


# wgmma reads B from shared memory (a descriptor) and C is D; the matrix moves have one
# fragment, counted as D
_OPERANDS = {"wgmma": ("A", "D"), "ldmatrix": ("D",), "stmatrix": ("D",)}


def _instruction(arch: str, name: str, first: str, atom: str, p: Mnemonic) -> Instruction:
    """One line as an architecture's Instruction (threads: 32, a warp; 128 for wgmma, a
    warpgroup of four warps)."""
    return Instruction(name, 0, 0, arch=arch, blocks=p.blocks, coexec=False,
                       matrices=_OPERANDS.get(p.kind, ()), products=p.kind in ("mma", "wgmma"),
                       encoding="PTX", align=4, parts=p,
                       waves=(128,) if p.kind == "wgmma" else (32,),
                       facts=(("first", first), ("cute", atom)))


def _runs(arch: str) -> tuple[str, ...]:
    return ORDER[:ORDER.index(arch) + 1]


def table(arch: str) -> tuple[Instruction, ...]:
    """The lines an architecture runs, as Instructions."""
    runs = _runs(arch)
    return tuple(_instruction(arch, *line) for line in lines() if MIN_ARCH[line[1]] in runs)


def table_of(arch: str) -> tuple[Callable[[], tuple[Instruction, ...]],
                                 Callable[[str], Instruction | None]]:
    """An architecture's table module's instructions() and find(name)."""
    return partial(table, arch), partial(find, arch)


def find(arch: str, key: str) -> Instruction | None:
    """The Instruction of the line spelled `key` (a spelling of lines()) if `arch` runs it,
    made without the others."""
    for name, first, make in _specs():
        if name == key:
            return _instruction(arch, name, first, *make()) if MIN_ARCH[first] in _runs(arch) \
                else None
    return None
