"""The instruction record: one line of table data, everything else derived from it."""
import re
from dataclasses import dataclass, field, replace
from functools import partial

from .types import TYPES

_NAME = re.compile(
    r"^v_(?P<kind>mfma|smfmac|wmma|swmmac)_(?:scale_)?(?P<out>[a-z0-9]+)_"
    r"(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)(?:_(?P<blocks>\d+)b)?_?"
    r"(?P<a>[a-z][a-z0-9]*?)(?:_(?P<b>[a-z][a-z0-9]*))?(?:_1k)?$")


@dataclass(frozen=True)
class Instruction:
    """One matrix instruction of one architecture.

    Only facts that cannot be read from the mnemonic are stored; M, N, K, the block
    count of CDNA3-style names, the operand types and sparsity are parsed from it.
    """
    mnemonic: str
    opcode: int
    cycles: int
    arch: str = ""
    blocks: int = 0            # 0: from the mnemonic's _<n>b suffix, else 1
    coexec_gap: int = 4        # VALU co-execution cycles = cycles - gap (<= 0: none)
    coexec: bool = True        # False: cannot co-execute with VALU at all
    align: int = 8             # GPR alignment requirement in bytes
    cbsz: bool = False         # CBSZ/ABID supported
    blgp: bool = True          # BLGP supported
    cd_arch_vgpr: bool = True  # C/D may live in ArchVGPRs (False on CDNA1)
    fp8_flavour: str = "_fnuz"  # CDNA3 fp8/bf8 are FNUZ; OCP elsewhere
    opsel: bool = False        # RDNA: OPSEL supported
    neg: bool = True           # RDNA: NEG/NEG_HI supported
    extra: tuple = field(default=())  # free-form (key, value) facts of later families

    def __post_init__(self):
        if not _NAME.match(self.mnemonic):
            raise ValueError(f"cannot parse mnemonic {self.mnemonic!r}")
        if self.blocks == 0:
            object.__setattr__(self, "blocks", int(self._parts["blocks"] or 1))

    @property
    def _parts(self):
        return _NAME.match(self.mnemonic).groupdict()

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

    def _type(self, key):
        if key in ("fp8", "bf8"):
            key += self.fp8_flavour
        return TYPES[key]

    @property
    def a_type(self):
        return self._type(self._parts["a"])

    @property
    def b_type(self):
        return self._type(self._parts["b"] or self._parts["a"])

    @property
    def out_type(self):
        return self._type(self._parts["out"])

    @property
    def is_int(self):
        return self.out_type.is_int

    @property
    def flops(self):
        return 2 * self.m * self.n * self.k * self.blocks

    @property
    def coexec_cycles(self):
        gap = self.cycles - self.coexec_gap
        return gap if self.coexec and gap > 0 else None


def family(**defaults):
    """A constructor with shared defaults for one block of table lines."""
    return partial(Instruction, **defaults)


def variant(inst, **changes):
    return replace(inst, **changes)
