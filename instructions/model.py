"""The instruction record: one line of table data, everything else derived from it.

A table line gives the mnemonic, opcode and cycles, and the instruction's traits (see
`_DEFAULTS`); the shape, block count, operand types, sparsity and block-scale size are
read from the mnemonic by `parse_mnemonic`. The architecture's traits (layout family,
compute unit, wave sizes, reference quirks) are reached through `Instruction.architecture`.
"""
from .record import memoize, record
from .types import TYPES

# CBSZ / BLGP codes of the f8f6f4 formats (CDNA4 ISA, "Matrix formats").
F8F6F4_FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")

KINDS = ("mfma", "smfmac", "wmma", "swmmac")

# Every instruction modifier a table line may declare (in `modifiers`), in the order the
# library lists them. The Modifiers record (layouts/modifiers.py) has a field for each
# one the engine implements.
MODIFIERS = ("cbsz", "abid", "blgp", "opsel", "neg", "neg_hi", "opsel_a", "opsel_b",
             # declared by later architectures (gfx1250); not yet in Modifiers:
             "neg_lo", "matrix_a_fmt", "matrix_b_fmt", "index_key", "matrix_a_scale",
             "matrix_b_scale", "matrix_a_scale_fmt", "matrix_b_scale_fmt", "matrix_a_reuse",
             "matrix_b_reuse")

# How an instruction whose A/B token is a format family (f8f6f4) learns its formats.
FORMAT_SELECTORS = ("", "cbsz_blgp", "matrix_fmt")
# The modifiers whose values are the A and B format codes, per selector.
FORMAT_FIELDS = {"cbsz_blgp": ("cbsz", "blgp"), "matrix_fmt": ("matrix_a_fmt", "matrix_b_fmt")}

# Encodings: name -> instruction bits. VOP3PX is CDNA4's 128-bit pair of a
# v_mfma_ld_scale_b32 (its opcode in `prefix_opcode`) and the MFMA.
ENCODINGS = {"VOP3P-MAI": 64, "VOP3P": 64, "VOP3PX": 128,
             # gfx1250's scaled WMMA: a v_wmma_ld_scale*_paired pair, then the WMMA
             "VOP3PX2": 128}
MAI_ENCODINGS = ("VOP3P-MAI", "VOP3PX")  # the ones with a MAI opcode field


class Mnemonic(record("Mnemonic", "kind scale d c m n k blocks a b", module=__name__)):
    """The parts of a mnemonic v_<kind>_[scale[NN]_]<D>[<C>]_<M>x<N>x<K>[_<n>b][_]<A>[_<B>][_1k].

    kind: mfma, smfmac, wmma or swmmac; scale: K values per block scale (0: not
    scaled; `scale` alone means 32); d, c: the D and C type tokens (c is d unless the
    out token names two types, as bf16f32 = D bf16, C f32); m, n, k, blocks (0 when the
    name has no _<n>b); a, b: the A and B type tokens (b is a unless named)."""
    __slots__ = ()


def _is_token(text):
    return text[:1].isalpha() and text.isalnum()


def _out_types(token):
    """(D, C) tokens of the out token: one type key (D = C) or two glued, D first."""
    if token in TYPES:
        return token, token
    for cut in range(2, len(token) - 1):
        if token[:cut] in TYPES and token[cut:] in TYPES:
            return token[:cut], token[cut:]
    return (token, token) if _is_token(token) else None


def _scale(token):
    """K values per scale of a scale token (scale -> 32, scaleNN -> NN), or None."""
    if token == "scale":
        return 32
    digits = token[5:]
    if token.startswith("scale") and digits.isdigit() and int(digits) > 0:
        return int(digits)
    return None


def _split_name(mnemonic):
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
    blocks = 0
    if rest and rest[0].endswith("b") and rest[0][:-1].isdigit():
        blocks, rest = int(rest[0][:-1]), rest[1:]
    operands = ([glued] if glued else []) + rest
    if not (m.isdigit() and n.isdigit() and k.isdigit()) or not 1 <= len(operands) <= 2:
        return None
    if not all(map(_is_token, operands)) or 0 in (int(m), int(n), int(k)):
        return None
    a = operands[0]
    return Mnemonic(tokens[1], scale, types[0], types[1], int(m), int(n), int(k), blocks,
                    a, operands[1] if len(operands) == 2 else a)


@memoize
def parse_mnemonic(mnemonic):
    """The Mnemonic of a matrix instruction's name (any case); ValueError when the name
    does not have the form v_<kind>_[scale_]<D>_<M>x<N>x<K>_<A>[_<B>]."""
    parts = _split_name(str(mnemonic).lower())
    if parts is None:
        raise ValueError(f"cannot parse mnemonic {mnemonic!r}: expected "
                         "v_<mfma|smfmac|wmma|swmmac>_[scale_]<D type>_<M>x<N>x<K>_<A type>"
                         "[_<B type>]")
    return parts


# (field, default) of an instruction's table line, after mnemonic, opcode and cycles.
_DEFAULTS = (
    ("arch", ""),              # the architecture's canonical name (instructions.ARCHITECTURES)
    ("blocks", 0),             # 0: from the mnemonic's _<n>b suffix, else 1
    ("coexec_gap", 4),         # VALU co-execution cycles = cycles - gap (<= 0: none)
    ("coexec", True),          # False: cannot co-execute with VALU at all
    ("align", 8),              # GPR alignment requirement in bytes
    ("modifiers", ()),         # the modifiers it takes (names from MODIFIERS)
    ("cd_arch_vgpr", True),    # C/D may live in ArchVGPRs (False on CDNA1; None: no AccVGPRs)
    ("fp8_flavour", "_fnuz"),  # CDNA3 fp8/bf8 are FNUZ; OCP elsewhere
    ("opcode_bits", 6),        # width of the printed VOP3P-MAI opcode (7 on CDNA4)
    ("formats", ()),           # a format family's (A, B) formats, chosen by the selector
    ("encoding", "VOP3P-MAI"),  # one of ENCODINGS
    ("prefix_opcode", None),   # 128-bit encodings: the opcode of the first instruction
    ("format_selector", ""),   # how an f8f6f4-style instruction picks formats (FORMAT_SELECTORS)
    ("waves", ()),             # wave sizes when narrower than the architecture's
    ("scale_block", 0),        # K values per block scale; 0: from the mnemonic
    ("c_type_key", ""),        # the C type when the mnemonic does not say it
    ("d_type_key", ""),        # the D type when it is not the mnemonic's (gfx1250 bf16f32 SWMMAC)
)


class Instruction(record("Instruction", ("mnemonic", "opcode", "cycles")
                         + tuple(name for name, _ in _DEFAULTS),
                         defaults=tuple(value for _, value in _DEFAULTS), module=__name__)):
    """One matrix instruction of one architecture (an immutable record).

    Only facts that cannot be read from the mnemonic are stored; M, N, K, the block
    count of CDNA3-style names, the operand types and sparsity are parsed from it.
    """
    __slots__ = ()

    def __new__(cls, mnemonic, opcode, cycles, *values, **facts):
        inst = super().__new__(cls, mnemonic, opcode, cycles, *values, **facts)
        if not inst.blocks:  # from the mnemonic's _<n>b suffix, else 1
            inst = inst._replace(blocks=parse_mnemonic(mnemonic).blocks or 1)
        return inst

    @property
    def _parts(self):
        return parse_mnemonic(self.mnemonic)

    @property
    def name(self):
        return self.mnemonic.upper()

    # ---- the architecture's traits

    @property
    def architecture(self):
        from . import architecture_named
        return architecture_named(self.arch)

    @property
    def family(self):
        """The layout family (instructions.FAMILIES)."""
        return self.architecture.family

    @property
    def unit(self):
        """The compute unit FLOPs/unit/cycle counts: CU or WGP."""
        return self.architecture.unit

    @property
    def quirks(self):
        """The reference behaviours text output reproduces (instructions.QUIRKS)."""
        return self.architecture.quirks

    @property
    def wave_sizes(self):
        """Legal wave sizes, the default first: the instruction's, else the architecture's."""
        return self.waves or self.architecture.waves

    # ---- parsed from the mnemonic

    @property
    def kind(self):
        return self._parts.kind

    @property
    def sparse(self):
        return self.kind in ("smfmac", "swmmac")

    @property
    def m(self):
        return self._parts.m

    @property
    def n(self):
        return self._parts.n

    @property
    def k(self):
        return self._parts.k

    @property
    def scale_k(self):
        """K values that share one block scale (0: not a block-scaled instruction)."""
        return self.scale_block or self._parts.scale

    @property
    def scaled(self):
        """A block-scaled instruction (v_mfma_scale_*, v_wmma_scale*_*)."""
        return bool(self.scale_k)

    # ---- modifiers

    def takes(self, modifier):
        """Whether the instruction declares `modifier` (a name from MODIFIERS)."""
        return modifier in self.modifiers

    @property
    def cbsz(self):
        """CBSZ/ABID broadcast A blocks (not when CBSZ selects A's format)."""
        return "cbsz" in self.modifiers and self.format_selector != "cbsz_blgp"

    @property
    def blgp(self):
        """BLGP is a B lane pattern or negation mask (not when it selects B's format)."""
        return "blgp" in self.modifiers and self.format_selector != "cbsz_blgp"

    @property
    def formats_by_cbsz_blgp(self):
        """CBSZ and BLGP select the A and B formats (CDNA4's f8f6f4 instructions)."""
        return self.format_selector == "cbsz_blgp"

    @property
    def opsel(self):
        return "opsel" in self.modifiers

    @property
    def neg(self):
        return "neg" in self.modifiers

    # ---- types

    def _type(self, key, operand):
        if key == "f8f6f4":  # the format is chosen by a modifier (format_selector)
            key = self.formats[operand] if self.formats else "fp8"
        if key in ("fp8", "bf8"):
            key += self.fp8_flavour
        return TYPES[key]

    @property
    def a_type(self):
        return self._type(self._parts.a, 0)

    @property
    def b_type(self):
        return self._type(self._parts.b, 1)

    @property
    def f8f6f4(self):
        """A and B formats chosen by modifiers (CBSZ/BLGP on CDNA4: `format_selector`)."""
        return self._parts.a == "f8f6f4"

    @property
    def out_type(self):
        """The type of D (and of C unless `c_type` differs)."""
        return self._type(self.d_type_key or self._parts.d, None)

    d_type = out_type

    @property
    def c_type(self):
        return self._type(self.c_type_key or self._parts.c, None)

    @property
    def is_int(self):
        return self.out_type.is_int

    # ---- encoding and speed

    @property
    def encoding_bits(self):
        return ENCODINGS[self.encoding]

    @property
    def mai_opcode(self):
        """The printed VOP3P-MAI opcode (None for other encodings)."""
        if self.encoding not in MAI_ENCODINGS:
            return None
        return self.opcode & ((1 << self.opcode_bits) - 1)

    def with_formats(self, a_code, b_code):
        """This f8f6f4 instruction with A and B in the formats of codes CBSZ and BLGP.

        Eight-bit inputs take twice the cycles of the table's fp6/fp4 figure."""
        fmts = (F8F6F4_FORMATS[a_code], F8F6F4_FORMATS[b_code])
        return self._replace(formats=fmts)

    @property
    def format_fields(self):
        """The modifiers that pick the A and B formats ((): none)."""
        return FORMAT_FIELDS.get(self.format_selector, ())

    @property
    def formats_by_matrix_fmt(self):
        """matrix_a_fmt / matrix_b_fmt select the A and B formats (gfx1250's f8f6f4)."""
        return self.format_selector == "matrix_fmt"

    @property
    def effective_cycles(self):
        if self.formats_by_cbsz_blgp and self.a_type.bits != 8 and self.b_type.bits != 8:
            return self.cycles // 2
        return self.cycles

    @property
    def flops(self):
        """2*M*N*K per block; a sparse instruction counts its full (uncompressed) K."""
        return 2 * self.m * self.n * self.k * self.blocks

    @property
    def coexec_cycles(self):
        gap = self.effective_cycles - self.coexec_gap
        return gap if self.coexec and gap > 0 else None


def family(**defaults):
    """A constructor with shared defaults for one block of table lines."""
    def line(mnemonic, opcode, cycles, **facts):
        return Instruction(mnemonic, opcode, cycles, **{**defaults, **facts})
    return line


def variant(inst, **changes):
    return inst._replace(**changes)
