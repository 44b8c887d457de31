"""The instruction record: one line of table data, everything else derived from it; the
data types it names (TYPES) and the records of instructions' facts (FamilyFacts,
WmmaBuiltins).

A table line gives the mnemonic, opcode and cycles, and the instruction's traits (see
`_DEFAULTS`); the shape, block count, operand types, sparsity and block-scale size are
read from the mnemonic by `parse_mnemonic`. The architecture's traits (layout family,
compute unit, wave sizes, reference quirks) are reached through `Instruction.architecture`.
"""

from __future__ import annotations

from functools import cache

from instructions import Architecture, architecture_named
from instructions.modifiers import NAMES as MODIFIER_NAMES
from instructions.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:  # (types for a type checker only: start-up loads no typing)
    from collections.abc import Mapping
    from typing import Protocol, TypedDict

    class TableLine(Protocol):
        """A constructor of one block of table lines (table_block())."""
        def __call__(self, mnemonic: str, opcode: int, cycles: int,
                     **facts: object) -> Instruction: ...

    class FamilyFacts(TypedDict, total=False):
        """What a layout family's `facts` function (layouts/family.py Hooks) adds to (or
        replaces in) an instruction's facts (matrix_api.facts)."""
        cycles: int | None
        flops_per_cycle: int | None
        prefix_opcode: int | None
        provenance: Mapping[str, object]


# ---- data types of matrix operands, referenced by name from the instruction tables

class DataType(Record):
    """key: the token used in mnemonics (f32, bf16, i8, fp8 ...); label: the short name
    --detail-instruction prints, with `description` beside it."""
    key: str
    label: str
    description: str
    bits: int
    is_int: bool = False

    def describe(self) -> str:
        return f"{self.label} ({self.description})"


Row = tuple[str, str, str, int] | tuple[str, str, str, int, bool]


def _types(*rows: Row) -> dict[str, DataType]:
    return {t.key: t for t in (DataType(*r) for r in rows)}


def _renamed(key: str, label: str, of: str, rows: tuple[Row, ...]) -> Row:
    """Another vendor's name for the type `of` of `rows`: its encoding, bits and sign."""
    found = next(r for r in rows if r[0] == of)
    return (key, label, *found[2:])


# Integer types are printed in lower case on CDNA and as IU* on RDNA, like the reference.
_AMD: tuple[Row, ...] = (
    ("f64", "FP64", "IEEE binary64 floating point", 64),
    ("f32", "FP32", "IEEE binary32 floating point", 32),
    ("xf32", "FP32", "IEEE binary32 floating point", 32),
    ("f16", "FP16", "IEEE binary16 floating point", 16),
    ("bf16", "BF16", "Brain floating point", 16),
    ("i32", "int32", "Signed 32-bit integer", 32, True),
    ("i8", "int8", "Signed 8-bit integer", 8, True),
    ("iu8", "IU8", "Signed/unsigned 8-bit integer", 8, True),
    ("iu4", "IU4", "Signed/unsigned 4-bit integer", 4, True),
    # 8-bit floats: AMD's FNUZ encoding on CDNA3, OCP on RDNA4 and CDNA4.
    ("fp8_fnuz", "FP8", "AMD 4-bit exponent, 3-bit mantissa floating point", 8),
    ("bf8_fnuz", "BF8", "AMD 5-bit exponent, 2-bit mantissa floating point", 8),
    ("fp8", "FP8", "OCP 4-bit exponent, 3-bit mantissa floating point", 8),
    ("bf8", "BF8", "OCP 5-bit exponent, 2-bit mantissa floating point", 8),
    ("fp6", "FP6", "OCP 2-bit exponent, 3-bit mantissa floating point", 6),
    ("bf6", "BF6", "OCP 3-bit exponent, 2-bit mantissa floating point", 6),
    ("fp4", "FP4", "OCP 2-bit exponent, 1-bit mantissa floating point", 4),
    # gfx1250's name for fp4 in v_wmma_*_32x16x128_f4.
    ("f4", "FP4", "OCP 2-bit exponent, 1-bit mantissa floating point", 4),
    ("e8m0", "E8M0", "OCP 8-bit exponent-only block scale, value 2^(v-127)", 8),
)
TYPES = _types(
    *_AMD,
    # NVIDIA's PTX type names (instructions/nvidia.py): tf32 is an f32 register whose low
    # 13 mantissa bits are ignored; e4m3/e5m2 are the OCP fp8/bf8 encodings, s32/s8 the
    # signed integers.
    ("tf32", "TF32", "NVIDIA TensorFloat-32 in a 32-bit register", 32),
    _renamed("e4m3", "E4M3", "fp8", _AMD),
    _renamed("e5m2", "E5M2", "bf8", _AMD),
    _renamed("s32", "S32", "i32", _AMD),
    _renamed("s8", "S8", "i8", _AMD),
    ("u8", "U8", "Unsigned 8-bit integer", 8, True),
    ("s4", "S4", "Signed 4-bit integer", 4, True),
    ("u4", "U4", "Unsigned 4-bit integer", 4, True),
    ("b16", "B16", "16 untyped bits", 16),
)


# ---- the instruction record

# CBSZ / BLGP codes of the f8f6f4 formats (CDNA4 ISA, "Matrix formats").
F8F6F4_FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")

KINDS = ("mfma", "smfmac", "wmma", "swmmac")

# Every instruction modifier a table line may declare (in `modifiers`), in the order the
# library lists them: the names of the modifier table (instructions/modifiers.py).
MODIFIERS = MODIFIER_NAMES

# How an instruction whose A/B token is a format family (f8f6f4) learns its formats.
FORMAT_SELECTORS = ("", "cbsz_blgp", "matrix_fmt")
# The modifiers whose values are the A and B format codes, per selector.
FORMAT_FIELDS = {"cbsz_blgp": ("cbsz", "blgp"), "matrix_fmt": ("matrix_a_fmt", "matrix_b_fmt")}

# Encodings: name -> instruction bits. VOP3PX is CDNA4's 128-bit pair of a
# v_mfma_ld_scale_b32 (its opcode in `prefix_opcode`) and the MFMA.
ENCODINGS = {"VOP3P-MAI": 64, "VOP3P": 64, "VOP3PX": 128,
             # gfx1250's scaled WMMA: a v_wmma_ld_scale*_paired pair, then the WMMA
             "VOP3PX2": 128,
             # NVIDIA's instructions (instructions/nvidia.py): PTX, no machine encoding here
             "PTX": 0}
MAI_ENCODINGS = ("VOP3P-MAI", "VOP3PX")  # the ones with a MAI opcode field


class Mnemonic(Record):
    """The parts of a mnemonic v_<kind>_[scale[NN]_]<D>[<C>]_<M>x<N>x<K>[_<n>b][_]<A>[_<B>][_1k].

    kind: mfma, smfmac, wmma or swmmac; scale: K values per block scale (0: not
    scaled; `scale` alone means 32); d, c: the D and C type tokens (c is d unless the
    out token names two types, as bf16f32 = D bf16, C f32); m, n, k, blocks (0 when the
    name has no _<n>b); a, b: the A and B type tokens (b is a unless named)."""
    kind: str
    scale: int
    d: str
    c: str
    m: int
    n: int
    k: int
    blocks: int
    a: str
    b: str


def _is_token(text: str) -> bool:
    return text[:1].isalpha() and text.isalnum()


def _out_types(token: str) -> tuple[str, str] | None:
    """(D, C) tokens of the out token: one type key (D = C) or two glued, D first."""
    if token in TYPES:
        return token, token
    for cut in range(2, len(token) - 1):
        if token[:cut] in TYPES and token[cut:] in TYPES:
            return token[:cut], token[cut:]
    return (token, token) if _is_token(token) else None


def _scale(token: str) -> int | None:
    """K values per scale of a scale token (scale -> 32, scaleNN -> NN), or None."""
    if token == "scale":
        return 32
    digits = token[5:]
    if token.startswith("scale") and digits.isdigit() and int(digits) > 0:
        return int(digits)
    return None


def _blocks_token(token: str) -> int | None:
    """The block count a _<n>b token names (None for any other token)."""
    return int(token[:-1]) if token[-1:] == "b" and token[:-1].isdigit() else None


def _split_name(mnemonic: str) -> Mnemonic | None:
    """The Mnemonic of `mnemonic`, or None when it is not a matrix instruction's name.

    (Hand-written rather than a regular expression: a point query then does not load
    the re module at start-up.)"""
    tokens = mnemonic.split("_")
    if len(tokens) < 4 or tokens[0] != "v" or tokens[1] not in KINDS:
        return None
    scale = _scale(tokens[2]) if tokens[2].startswith("scale") else 0
    if scale is None:
        return None
    rest = tokens[3:] if scale else tokens[2:]
    if len(rest) < 2:
        return None
    out, dims, rest = rest[0], rest[1], rest[2:]
    types = _out_types(out)
    if types is None or dims.count("x") != 2:
        return None
    m, n, k_and_type = dims.split("x")
    digits = len(k_and_type) - len(k_and_type.lstrip("0123456789"))
    k, glued = k_and_type[:digits], k_and_type[digits:]
    if rest[-1:] == ["1k"]:
        rest = rest[:-1]
    blocks = _blocks_token(rest[0]) if rest else None
    if blocks is None:
        blocks = 0
    else:
        rest = rest[1:]
    operands = ([glued] if glued else []) + rest
    if not (m.isdigit() and n.isdigit() and k.isdigit()) or not 1 <= len(operands) <= 2:
        return None
    if not all(map(_is_token, operands)) or 0 in (int(m), int(n), int(k)):
        return None
    a = operands[0]
    return Mnemonic(tokens[1], scale, types[0], types[1], int(m), int(n), int(k), blocks,
                    a, operands[1] if len(operands) == 2 else a)


@cache
def parse_mnemonic(mnemonic: str) -> Mnemonic:
    """The Mnemonic of a matrix instruction's name (any case); ValueError when the name
    does not have the form v_<kind>_[scale_]<D>_<M>x<N>x<K>_<A>[_<B>]."""
    parts = _split_name(str(mnemonic).lower())
    if parts is None:
        raise ValueError(f"cannot parse mnemonic {mnemonic!r}: expected "
                         "v_<mfma|smfmac|wmma|swmmac>_[scale_]<D type>_<M>x<N>x<K>_<A type>"
                         "[_<B type>]")
    return parts


class Instruction(Record):
    """One matrix instruction of one architecture: one line of table data (an immutable
    record; build it with `instruction()` or a `table_block()` constructor).

    Only facts that cannot be read from the mnemonic are stored; M, N, K, the block
    count of CDNA3-style names, the operand types and sparsity are parsed from it.
    """
    mnemonic: str
    opcode: int
    cycles: int
    arch: str = ""              # the architecture's canonical name (ARCHITECTURES)
    blocks: int = 0             # 0: from the mnemonic's _<n>b suffix, else 1 (instruction())
    coexec_gap: int = 4         # VALU co-execution cycles = cycles - gap (<= 0: none)
    coexec: bool = True         # False: cannot co-execute with VALU at all
    align: int = 8              # GPR alignment requirement in bytes
    modifiers: tuple[str, ...] = ()  # the modifiers it takes (names from MODIFIERS)
    cd_arch_vgpr: bool | None = True  # C/D may be ArchVGPRs (False: CDNA1; None: no AccVGPRs)
    fp8_flavour: str = "_fnuz"  # CDNA3 fp8/bf8 are FNUZ; OCP elsewhere
    opcode_bits: int = 6        # width of the printed VOP3P-MAI opcode (7 on CDNA4)
    formats: tuple[str, ...] = ()  # a format family's (A, B) formats, chosen by the selector
    encoding: str = "VOP3P-MAI"  # one of ENCODINGS
    prefix_opcode: int | None = None  # 128-bit encodings: the first instruction's opcode
    format_selector: str = ""   # how an f8f6f4-style instruction picks formats
    waves: tuple[int, ...] = ()  # wave sizes when narrower than the architecture's
    scale_block: int = 0        # K values per block scale; 0: from the mnemonic
    c_type_key: str = ""        # the C type when the mnemonic does not say it
    d_type_key: str = ""        # the D type when it is not the mnemonic's (gfx1250 bf16f32 SWMMAC)
    parts: Mnemonic | None = None  # kind, shape and types when the name is not AMD-style
    matrices: tuple[str, ...] = ()  # its register operands when not all of A B C/K D
    products: bool = True       # False: it moves a matrix and multiplies nothing (0 FLOPs)
    facts: tuple[tuple[str, str], ...] = ()  # a family's own facts, (label, text) ((): none)

    @property
    def _parts(self) -> Mnemonic:
        return self.parts or parse_mnemonic(self.mnemonic)

    @property
    def name(self) -> str:
        return self.mnemonic.upper()

    # ---- the architecture's traits

    @property
    def architecture(self) -> Architecture:
        return architecture_named(self.arch)

    @property
    def family(self) -> str:
        """The layout family (instructions.FAMILIES)."""
        return self.architecture.family

    @property
    def unit(self) -> str:
        """The compute unit FLOPs/unit/cycle counts: CU or WGP."""
        return self.architecture.unit

    @property
    def quirks(self) -> frozenset[str]:
        """The reference behaviours text output reproduces (instructions.QUIRKS)."""
        return self.architecture.quirks

    @property
    def wave_sizes(self) -> tuple[int, ...]:
        """Legal wave sizes, the default first: the instruction's, else the architecture's."""
        return self.waves or self.architecture.waves

    # ---- parsed from the mnemonic

    @property
    def kind(self) -> str:
        return self._parts.kind

    @property
    def sparse(self) -> bool:
        return self.kind in ("smfmac", "swmmac")

    @property
    def m(self) -> int:
        return self._parts.m

    @property
    def n(self) -> int:
        return self._parts.n

    @property
    def k(self) -> int:
        return self._parts.k

    @property
    def scale_k(self) -> int:
        """K values that share one block scale (0: not a block-scaled instruction)."""
        return self.scale_block or self._parts.scale

    @property
    def scaled(self) -> bool:
        """A block-scaled instruction (v_mfma_scale_*, v_wmma_scale*_*)."""
        return bool(self.scale_k)

    # ---- modifiers

    def takes(self, modifier: str) -> bool:
        """Whether the instruction declares `modifier` (a name from MODIFIERS)."""
        return modifier in self.modifiers

    @property
    def cbsz(self) -> bool:
        """CBSZ/ABID broadcast A blocks (not when CBSZ selects A's format)."""
        return "cbsz" in self.modifiers and self.format_selector != "cbsz_blgp"

    @property
    def blgp(self) -> bool:
        """BLGP is a B lane pattern or negation mask (not when it selects B's format)."""
        return "blgp" in self.modifiers and self.format_selector != "cbsz_blgp"

    @property
    def formats_by_cbsz_blgp(self) -> bool:
        """CBSZ and BLGP select the A and B formats (CDNA4's f8f6f4 instructions)."""
        return self.format_selector == "cbsz_blgp"

    @property
    def opsel(self) -> bool:
        return "opsel" in self.modifiers

    @property
    def neg(self) -> bool:
        return "neg" in self.modifiers

    # ---- types

    def _type(self, key: str, operand: int | None) -> DataType:
        if key == "f8f6f4":  # the format is chosen by a modifier (format_selector)
            key = self.formats[operand] if self.formats and operand is not None else "fp8"
        if key in ("fp8", "bf8"):
            key += self.fp8_flavour
        return TYPES[key]

    @property
    def a_type(self) -> DataType:
        return self._type(self._parts.a, 0)

    @property
    def b_type(self) -> DataType:
        return self._type(self._parts.b, 1)

    @property
    def f8f6f4(self) -> bool:
        """A and B formats chosen by modifiers (CBSZ/BLGP on CDNA4: `format_selector`)."""
        return self._parts.a == "f8f6f4"

    @property
    def out_type(self) -> DataType:
        """The type of D (and of C unless `c_type` differs)."""
        return self._type(self.d_type_key or self._parts.d, None)

    @property
    def d_type(self) -> DataType:
        return self.out_type

    @property
    def c_type(self) -> DataType:
        return self._type(self.c_type_key or self._parts.c, None)

    @property
    def is_int(self) -> bool:
        return self.out_type.is_int

    # ---- encoding and speed

    @property
    def encoding_bits(self) -> int:
        return ENCODINGS[self.encoding]

    @property
    def mai_opcode(self) -> int | None:
        """The printed VOP3P-MAI opcode (None for other encodings)."""
        if self.encoding not in MAI_ENCODINGS:
            return None
        return self.opcode & ((1 << self.opcode_bits) - 1)

    def with_formats(self, a_code: int, b_code: int) -> Instruction:
        """This f8f6f4 instruction with A and B in the formats of codes CBSZ and BLGP.

        Eight-bit inputs take twice the cycles of the table's fp6/fp4 figure."""
        for code in (a_code, b_code):
            if isinstance(code, bool) or not 0 <= code < len(F8F6F4_FORMATS):
                raise ValueError(f"format code {code!r}: use 0 to {len(F8F6F4_FORMATS) - 1}")
        fmts = (F8F6F4_FORMATS[a_code], F8F6F4_FORMATS[b_code])
        return self._replace(formats=fmts)

    @property
    def format_fields(self) -> tuple[str, ...]:
        """The modifiers that pick the A and B formats ((): none)."""
        return FORMAT_FIELDS.get(self.format_selector, ())

    @property
    def formats_by_matrix_fmt(self) -> bool:
        """matrix_a_fmt / matrix_b_fmt select the A and B formats (gfx1250's f8f6f4)."""
        return self.format_selector == "matrix_fmt"

    @property
    def effective_cycles(self) -> int:
        if self.formats_by_cbsz_blgp and self.a_type.bits != 8 and self.b_type.bits != 8:
            return self.cycles // 2
        return self.cycles

    @property
    def flops(self) -> int:
        """2*M*N*K per block; a sparse instruction counts its full (uncompressed) K."""
        return 2 * self.m * self.n * self.k * self.blocks if self.products else 0

    @property
    def coexec_cycles(self) -> int | None:
        gap = self.effective_cycles - self.coexec_gap
        return gap if self.coexec and gap > 0 else None


def _block_count(mnemonic: str) -> int:
    """The block count of a mnemonic's _<n>b token (1 without one): what parse_mnemonic
    reads there, without parsing the rest (a table's lines are parsed when used)."""
    found = (n for n in map(_blocks_token, mnemonic.split("_")) if n is not None)
    return next(found, 1)


def instruction(mnemonic: str, opcode: int, cycles: int, **facts: object) -> Instruction:
    """The Instruction of a table line; its block count, unless given, from the
    mnemonic's _<n>b suffix (else 1)."""
    if not facts.get("blocks"):
        facts["blocks"] = _block_count(mnemonic)
    return Instruction(mnemonic, opcode, cycles, **facts)  # type: ignore[arg-type]


def table_block(**defaults: object) -> TableLine:
    """A constructor with shared defaults for one block of table lines."""
    def line(mnemonic: str, opcode: int, cycles: int, **facts: object) -> Instruction:
        return instruction(mnemonic, opcode, cycles, **{**defaults, **facts})
    return line


def variant(inst: Instruction, **changes: object) -> Instruction:
    return inst._replace(**changes)  # type: ignore[arg-type]


class WmmaBuiltins(Record):
    """How clang-22 spells the WMMA/SWMMAC builtins of one layout family, as data.

    Each layout family's registry line (layouts/family.py) carries its record, and the
    HIP emitter (formats/hip) reads it there instead of testing a family.
    scripts/check_hip.py compiles every emitted example with clang-22 and checks the
    assembly against these records."""
    suffix: str            # after _w32/_w64 on WMMA builtins
    opsel_argument: bool   # 16-bit-output WMMAs take OPSEL (the C/D half) as an argument
    wave_suffix: bool = True  # the names end in _w32/_w64 (then `suffix`)
    # The modifiers are arguments: a negation (16/32-bit floats), signedness (integers) or
    # format code before A and B, a C modifier (bit 0 negates, bit 1 takes |C|), the
    # scales' lane-half select and format before each scale, the two reuse hints last.
    operand_modifiers: bool = False
    bf16: str = "short"    # element type of bf16 vectors
    index_bits: int = 16   # bits of the sparse-index argument
    index_keys: int = 1    # index_key values, each a slice of the index argument's bits
    missing: tuple[str, ...] = ()  # A types clang has no builtin for
