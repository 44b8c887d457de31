"""What every part of the emitted HIP shares: the options, the names, the header with
the command line and the compile command, the prelude, and the C types of operands."""


from __future__ import annotations

from instructions.record import Record

from matrix_library.api import CalcError, Modifiers
from matrix_library.checks import shown
from matrix_library.drawing import Fragment, fragment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction

INT_MAX = 2**31 - 1  # C int: every number written into the code is checked against it


class Options(Record):
    """ld: a fixed leading dimension (None: a run-time `ld` parameter); order: "row" or
    "col"; lds: the tile is in LDS (__shared__) rather than global memory; prefix: name
    prefix of the emitted functions (None: made from the instruction, the wave size, the
    modifiers and these options, so that different outputs never share a name);
    command: the command line recorded in the header (None: no header line for it)."""
    ld: int | None = None
    order: str = "row"
    lds: bool = False
    prefix: str | None = None
    command: str | None = None


DEFAULT = Options()
ORDERS = ("row", "col")
LOWER = {"A": "a", "B": "b", "C": "c", "D": "d", "K": "k", "SA": "sa", "SB": "sb"}


def check_options(options: Options) -> None:
    """Raise CalcError for an order, leading dimension or prefix C cannot take."""
    if options.order not in ORDERS:
        raise CalcError(f"unknown storage order {shown(options.order)}: use row or col")
    ld = options.ld
    if ld is not None and (type(ld) is not int or not 1 <= ld <= INT_MAX):
        raise CalcError(f"the leading dimension (--ld) must be a whole number from 1 to "
                        f"{INT_MAX} (a C int), not {ld!r}")
    prefix = options.prefix
    if prefix is not None and not (prefix and prefix[0].isascii() and
                                   (prefix[0].isalpha() or prefix[0] == "_") and
                                   prefix.replace("_", "a").isalnum() and prefix.isascii()):
        raise CalcError(f"--prefix takes a C identifier (letters, digits and _, not starting "
                        f"with a digit), not {prefix!r}")


def resolve(inst: Instruction, matrix: str | None, mods: object,
            wave: int) -> tuple[Instruction, Modifiers]:
    """(instruction with f8f6f4 formats applied, Modifiers), checked."""
    from matrix_library import api as matrix_api
    waves = matrix_api.architecture_of(inst).waves
    if wave not in waves:
        raise CalcError(f"wave size {wave} is not available on {inst.arch}; use "
                        + " or ".join(map(str, waves)))
    if matrix is not None and matrix not in LOWER:
        raise CalcError(f"unknown matrix {shown(matrix)}; {inst.name} has "
                        + ", ".join(matrix_api.matrices(inst)))
    checked = matrix_api.modifiers(mods)  # type: ignore[arg-type]
    return matrix_api.with_formats(inst, checked), checked


def fragment_of(inst: Instruction, matrix: str, mods: Modifiers, wave: int) -> Fragment:
    """The fragment of the library's checked operand (D as with -o: it takes the inputs'
    modifiers)."""
    from matrix_library import api as matrix_api
    return fragment(matrix_api.operand(inst, matrix, mods=mods, wave=wave,
                                       output_calc=matrix == "D"))


def default_prefix(inst: Instruction, mods: Modifiers, wave: int, options: Options) -> str:
    """mc_<mnemonic>[_w<wave>][_<modifier><value>...][_col][_ld<N>][_lds]: every output
    that differs in code differs in name, so any number of them compile together."""
    from matrix_library import api as matrix_api
    parts = ["mc", inst.mnemonic[2:]]
    if len(matrix_api.architecture_of(inst).waves) > 1:
        parts.append(f"w{wave}")
    parts += [f"{name}{value}" for name, value in zip(mods._fields, mods) if value]
    if options.order != "row":
        parts.append(options.order)
    if options.ld is not None:
        parts.append(f"ld{options.ld}")
    if options.lds:
        parts.append("lds")
    return "_".join(parts)


def prefix_of(inst: Instruction, mods: Modifiers, wave: int, options: Options) -> str:
    return options.prefix or default_prefix(inst, mods, wave, options)


def compile_command(inst: Instruction, wave: int) -> tuple[str, str]:
    """(target, clang command) for the generated file: with ROCm, and as checked here
    without it (clang-22, -nogpuinc). Wave sizes other than the target's default need
    -mwavefrontsize<N>."""
    from matrix_library import api as matrix_api
    arch = matrix_api.architecture_of(inst)
    target = arch.target
    wave_flag = f" -mwavefrontsize{wave}" if wave != arch.waves[0] else ""
    return target, f"--offload-arch={target}{wave_flag}"


def header(inst: Instruction, wave: int, options: Options) -> str:
    """The first lines of an output: what made it, its target and how to compile it."""
    target, flags = compile_command(inst, wave)
    lines = ["// Generated by matrix-calculator --emit hip"
             + (f": {options.command}" if options.command else "")]
    lines.append(f"// Target: {target}, wave{wave}. Compile with ROCm: "
                 f"hipcc -O3 {flags} -c FILE.hip")
    lines.append(f"//   or without it: clang -x hip --cuda-device-only -nogpulib -nogpuinc "
                 f"{flags} -O3 -S FILE.hip")
    return "\n".join(lines) + "\n"


PRELUDE = """\
#ifndef MC_PRELUDE  /* shared by every --emit hip output: defined once per file */
#define MC_PRELUDE
// Lane contract: every function computes lane = threadIdx.x % <wavefront size>, the
// lane within the wavefront (never threadIdx.x itself), so the code is correct for any
// block size: each wavefront of the block loads and stores its own tile through the
// pointers it is given. Offsets are 64-bit (long): a tile may exceed 2^31 elements.
// The prelude includes no header: it reads the lane and syncs the wavefront through
// clang's builtins, and declares the HIP attributes only where no header did (clang's
// HIP wrapper, hip_runtime.h before or after it: the same definitions), so the code
// compiles beside any HIP headers, old ones (a distribution's ROCm 5) included, or none.
#if defined(__HIP__)
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#define MC_THREAD_X __builtin_amdgcn_workitem_id_x()
#define MC_SYNC() (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"), \\
                   __builtin_amdgcn_s_barrier(), \\
                   __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"))
#endif
#ifndef MC_FN
#if defined(__HIP__)
#define MC_FN static inline __device__
#else
#define MC_FN static inline
#endif
#endif
/* Whether a tile pointer has the alignment the vector loads and stores assume. Define
   MC_TILES_ALIGNED before the first output to promise 16-byte-aligned tiles: the check
   and its value-by-value fallback then drop out of fixed-ld code. */
#ifdef MC_TILES_ALIGNED
#define MC_ALIGNED(p, n) 1
#else
#define MC_ALIGNED(p, n) (((__UINTPTR_TYPE__)(p) & ((n) - 1)) == 0)
#endif
/* Bits [e*n, (e+1)*n) of a densely packed byte string (sub-byte formats). */
MC_FN unsigned int mc_bits(const unsigned char* p, long e, int n) {
    const long bit = e * n;
    unsigned int x = p[bit / 8];
    if (bit % 8 + n > 8) x |= (unsigned int)p[bit / 8 + 1] << 8;
    return (x >> (bit % 8)) & ((1u << n) - 1u);
}
#endif
"""


# ---- C types


FLOAT_TYPES = {"f32": "float", "xf32": "float", "f64": "double", "f16": "_Float16"}
RAW = {8: "unsigned char", 16: "unsigned short", 32: "unsigned int",
       64: "unsigned long long"}
SIZES = {"double": 8, "long": 8, "float": 4, "int": 4, "_Float16": 2, "short": 2, "__bf16": 2}


class CType(Record):
    element: str   # C element type
    length: int    # 1: a scalar

    @property
    def name(self) -> str:
        if self.length == 1:
            return self.element
        short = {"float": "f32", "double": "f64", "_Float16": "f16", "__bf16": "bf16",
                 "short": "i16", "int": "i32", "long": "i64"}[self.element]
        return f"mc_{short}x{self.length}"

    def typedef(self) -> str:
        """The vector typedef, guarded: every output may declare it."""
        guard = f"MC_TYPE_{self.name}"
        return (f"#ifndef {guard}\n#define {guard}\n"
                f"typedef {self.element} {self.name} "
                f"__attribute__((ext_vector_type({self.length})));\n#endif")


def typedefs(types: list[CType]) -> list[str]:
    seen: list[str] = []
    for t in types:
        if t.length > 1 and t.typedef() not in seen:
            seen.append(t.typedef())
    return seen


def memory_type(inst: Instruction, matrix: str, bits: int) -> str:
    """The element type of the tile pointer."""
    if bits < 8:
        return "unsigned char"
    if matrix in ("A", "B"):
        key = (inst.a_type if matrix == "A" else inst.b_type).key
    elif matrix in ("C", "D"):
        key = (inst.c_type if matrix == "C" else inst.out_type).key
    else:
        key = ""
    if key in FLOAT_TYPES:
        return FLOAT_TYPES[key]
    if key == "i32":
        return "int"
    return RAW[bits]


def words(frag: Fragment, ctype: CType) -> int:
    """32-bit words of the lane's fragment (at least the operand's VGPRs)."""
    return max(frag.registers, (SIZES[ctype.element] * ctype.length + 3) // 4)
