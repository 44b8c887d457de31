"""The instruction record: one line of table data, everything else derived from it."""
import re
from collections import namedtuple
from functools import lru_cache, partial

from .types import TYPES

# CBSZ / BLGP codes of the f8f6f4 formats (CDNA4 ISA, "Matrix formats").
F8F6F4_FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")

_NAME = re.compile(
    r"^v_(?P<kind>mfma|smfmac|wmma|swmmac)_(?:scale_)?(?P<out>[a-z0-9]+)_"
    r"(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)(?:_(?P<blocks>\d+)b)?_?"
    r"(?P<a>[a-z][a-z0-9]*?)(?:_(?P<b>[a-z][a-z0-9]*))?(?:_1k)?$")


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


@lru_cache(maxsize=None)
def _parse(mnemonic):
    match = _NAME.match(mnemonic)
    if not match:
        raise ValueError(f"cannot parse mnemonic {mnemonic!r}")
    return match.groupdict()


class Instruction(namedtuple("Instruction", ("mnemonic", "opcode", "cycles")
                             + tuple(name for name, _ in _DEFAULTS),
                             defaults=tuple(value for _, value in _DEFAULTS))):
    """One matrix instruction of one architecture (an immutable record).

    Only facts that cannot be read from the mnemonic are stored; M, N, K, the block
    count of CDNA3-style names, the operand types and sparsity are parsed from it.
    """
    __slots__ = ()

    def __new__(cls, mnemonic, opcode, cycles, **facts):
        if not facts.get("blocks"):
            facts["blocks"] = int(_parse(mnemonic)["blocks"] or 1)
        return super().__new__(cls, mnemonic, opcode, cycles, **facts)

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
    return partial(Instruction, **defaults)


def variant(inst, **changes):
    return inst._replace(**changes)
