"""The instruction record: one line of table data, everything else derived from it."""
from .record import memoize, record
from .types import TYPES

# CBSZ / BLGP codes of the f8f6f4 formats (CDNA4 ISA, "Matrix formats").
F8F6F4_FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")

KINDS = ("mfma", "smfmac", "wmma", "swmmac")


def _split_name(mnemonic):
    """The parts of v_<kind>_[scale_]<out>_<M>x<N>x<K>[_<n>b][_]<A>[_<B>][_1k], or None.

    (Hand-written rather than a regular expression: a point query then does not load
    the re module at start-up.)"""
    tokens = mnemonic.split("_")
    if len(tokens) < 4 or tokens[0] != "v" or tokens[1] not in KINDS:
        return None
    rest = tokens[3:] if tokens[2] != "scale" else tokens[4:]
    if len(rest) < 1 or tokens[2] == "scale" and len(tokens) < 5:
        return None
    out, dims, rest = tokens[-len(rest) - 1], rest[0], rest[1:]
    m, n, k_and_type = (dims.split("x") + ["", ""])[:3] if dims.count("x") == 2 else ("", "", "")
    digits = len(k_and_type) - len(k_and_type.lstrip("0123456789"))
    k, glued = k_and_type[:digits], k_and_type[digits:]
    if rest[-1:] == ["1k"]:
        rest = rest[:-1]
    blocks = None
    if rest and rest[0].endswith("b") and rest[0][:-1].isdigit():
        blocks, rest = rest[0][:-1], rest[1:]
    operands = ([glued] if glued else []) + rest
    if not (m.isdigit() and n.isdigit() and k.isdigit()) or not 1 <= len(operands) <= 2:
        return None
    if not all(t[:1].isalpha() and t.isalnum() for t in operands + [out]):
        return None
    return {"kind": tokens[1], "out": out, "m": m, "n": n, "k": k, "blocks": blocks,
            "a": operands[0], "b": operands[1] if len(operands) == 2 else None}


# (field, default) of an instruction's table line, after mnemonic, opcode and cycles.
_DEFAULTS = (
    ("arch", ""),
    ("blocks", 0),             # 0: from the mnemonic's _<n>b suffix, else 1
    ("coexec_gap", 4),         # VALU co-execution cycles = cycles - gap (<= 0: none)
    ("coexec", True),          # False: cannot co-execute with VALU at all
    ("align", 8),              # GPR alignment requirement in bytes
    ("cbsz", False),           # CBSZ/ABID supported
    ("blgp", True),            # BLGP supported
    ("cd_arch_vgpr", True),    # C/D may live in ArchVGPRs (False on CDNA1)
    ("fp8_flavour", "_fnuz"),  # CDNA3 fp8/bf8 are FNUZ; OCP elsewhere
    ("opsel", False),          # RDNA: OPSEL supported
    ("neg", True),             # RDNA: NEG/NEG_HI supported
    ("opcode_bits", 6),        # width of the printed VOP3P-MAI opcode (7 on CDNA4)
    ("formats", ()),           # f8f6f4 only: the (A, B) formats chosen by CBSZ and BLGP
)


@memoize
def _parse(mnemonic):
    parts = _split_name(mnemonic)
    if parts is None:
        raise ValueError(f"cannot parse mnemonic {mnemonic!r}")
    return parts


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
            inst = inst._replace(blocks=int(_parse(mnemonic)["blocks"] or 1))
        return inst

    @property
    def _parts(self):
        return _parse(self.mnemonic)

    @property
    def name(self):
        return self.mnemonic.upper()

    @property
    def kind(self):
        return self._parts["kind"]

    @property
    def sparse(self):
        return self.kind in ("smfmac", "swmmac")

    @property
    def is_rdna(self):
        return self.kind in ("wmma", "swmmac")

    @property
    def m(self):
        return int(self._parts["m"])

    @property
    def n(self):
        return int(self._parts["n"])

    @property
    def k(self):
        return int(self._parts["k"])

    def _type(self, key, operand):
        if key == "f8f6f4":  # the format is an instruction modifier (CBSZ for A, BLGP for B)
            key = self.formats[operand] if self.formats else "fp8"
        if key in ("fp8", "bf8"):
            key += self.fp8_flavour
        return TYPES[key]

    @property
    def a_type(self):
        return self._type(self._parts["a"], 0)

    @property
    def b_type(self):
        return self._type(self._parts["b"] or self._parts["a"], 1)

    @property
    def f8f6f4(self):
        return self._parts["a"] == "f8f6f4"

    @property
    def scaled(self):
        """v_mfma_scale_*: block-scaled MFMA with E8M0 scale operands."""
        return self.mnemonic.startswith("v_mfma_scale_")

    @property
    def encoding(self):
        if self.is_rdna:
            return "VOP3P"
        return "VOP3PX" if self.scaled else "VOP3P-MAI"

    @property
    def mai_opcode(self):
        return self.opcode & ((1 << self.opcode_bits) - 1)

    def with_formats(self, a_code, b_code):
        """This f8f6f4 instruction with A and B in the formats of codes CBSZ and BLGP.

        Eight-bit inputs take twice the cycles of the table's fp6/fp4 figure."""
        fmts = (F8F6F4_FORMATS[a_code], F8F6F4_FORMATS[b_code])
        return self._replace(formats=fmts)

    @property
    def effective_cycles(self):
        if self.f8f6f4 and self.a_type.bits != 8 and self.b_type.bits != 8:
            return self.cycles // 2
        return self.cycles

    @property
    def out_type(self):
        return self._type(self._parts["out"], None)

    @property
    def is_int(self):
        return self.out_type.is_int

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
