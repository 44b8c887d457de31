"""The modifier table: every instruction modifier once, as data.

A `ModifierSpec` says how a modifier is spelled (the library's name, the command-line
options, LLVM's assembler name), how it is shown in -h, the values it may take and the
matrices it acts on. An instruction takes a modifier when its table line declares it
(`Instruction.modifiers`). Where the allowed values depend on the instruction (CBSZ's
largest value is set by the block count, OPSEL's by the index bits per lane...), the
spec names a range function (`range`); the layout engine's legality check
(layouts/legality.py) looks that name up in its family's registry record
(layouts/family.py) or in the shared range functions, and gets a `Rule` back.

Nothing here computes a layout: the effects are described by `effect` and applied by the
family's generator. Two effects are data the renderers read as well: `shapes`, the
matrices whose layout a value moves (the HIP emitter names and builds each operand's
functions by the modifiers that shape it), and `negation`, what each bit of a negation
mask does to which matrix (the HIP emitter negates on the values what the builtin has no
argument for). A rule's `meaning` overrides `shapes` where a modifier has more than one
use (SHAPES_BY_MEANING: CBSZ as a format, BLGP as a negation mask).
"""
from __future__ import annotations

from instructions.record import Record

# The matrices a modifier may name (layouts.MATRICES).
A, B, C, D, K, SA, SB = "A", "B", "C", "D", "K", "SA", "SB"

EVERY = (A, B, C, D, K, SA, SB)

# The modifier sets CDNA's MFMA table lines declare: BLGP alone, and the block broadcast
# (CBSZ, ABID) with it.
BLGP = ("blgp",)
BROADCAST = ("cbsz", "abid", "blgp")

# What one bit of a negation mask does to its matrix's values (ModifierSpec.negation).
LOW = "low"        # negates the low 16-bit half of each VGPR (wider values: the value)
HIGH = "high"      # negates the high 16-bit halves (wider values: nothing)
NEGATE = "negate"  # negates every value
ABS = "abs"        # takes every value's absolute value

# Names of codes 0, 1, ... of the enumerated modifiers.
F8F6F4_NAMES = ("fp8", "bf8", "fp6", "bf6", "fp4")
SCALE_SELECTS = ("row0", "row1")  # matrix_*_scale: the scales in lanes 0-15 / 16-31
SCALE_FORMATS = ("e8", "e5m3", "e4m3")

# The -h groups, in order (a spec names one in `group`).
CDNA = "CDNA modifiers (MFMA, SMFMAC)"
RDNA = "RDNA modifiers (WMMA, SWMMAC)"
CDNA4_SCALE = "CDNA4 block-scale modifiers (v_mfma_scale_*)"
GFX1250 = "gfx1250 modifiers (LLVM's names)"
GROUPS = (CDNA, RDNA, CDNA4_SCALE, GFX1250)


class ModifierSpec(Record):
    """One instruction modifier.

    name: the `Modifiers` field and library key; options: command-line spellings, the
    canonical first; llvm: LLVM's assembler name; metavar, help: for -h; names: the
    names of codes 0, 1, ... when the value is an enumeration; flag: takes no value on
    the command line (0/1); matrices: the matrices it acts on (also D with -o when
    `output`); top: the largest value when it is the same for every instruction that
    takes it; mask: the value is a bit mask (bit n acts on matrices[n]); range: the
    name of the range function when the allowed values depend on the instruction
    (layouts/legality.py); effect: what it does to the layout (one line); group: its
    -h group (GROUPS); shown: the -d line saying whether the instruction takes it
    ("" for none); title: how messages name it (its option when empty); anywhere: an
    instruction-wide setting, accepted with a query of any matrix (as LLVM's assembler
    takes it on the instruction); shapes: the matrices whose layout the value moves
    (a format: every matrix, as it sets the instruction's types; an instruction's rule
    may narrow or override this, see `shaped`); negation: where the instruction uses
    the value as a negation mask (its rule's meaning is "negate"), the (matrix, what it
    does: LOW, HIGH, NEGATE or ABS) of bit 0, 1, 2...; field: the largest value its
    encoding field holds where the range depends on the instruction (the command line's
    limit; the library then checks the instruction's own range); reference: AMD's
    calculator has the option too (its behaviours are kept)."""
    name: str
    options: tuple[str, ...]
    llvm: str
    metavar: str
    help: str
    names: tuple[str, ...] = ()
    flag: bool = False
    matrices: tuple[str, ...] = ()
    output: bool = True
    top: int = 0
    mask: bool = False
    range: str = ""
    effect: str = ""
    group: str = ""
    shown: str = ""
    title: str = ""
    anywhere: bool = False
    shapes: tuple[str, ...] = ()
    negation: tuple[tuple[str, str], ...] = ()
    field: int = 255
    reference: bool = False

    @property
    def label(self) -> str:
        """How messages name it: CBSZ, NEG_HI, --matrix-a-fmt."""
        return self.title or self.option

    @property
    def option(self) -> str:
        """The canonical command-line spelling (--cbsz, --neg-hi)."""
        return self.options[0]

    def value_text(self, value: int) -> str:
        """A value as -h and messages name it: `fp4 (4)` for a named code, else `4`."""
        if self.names and 0 <= value < len(self.names):
            return f"{self.names[value]} ({value})"
        return str(value)


class Rule(Record):
    """What one instruction allows of one modifier (a range function's answer).

    top: the largest value; matrices: the matrices the value acts on (also D with -o
    when `output`); values: the only values allowed besides 0 when not every value up
    to `top` is; mask: the bits allowed when the value is a bit mask (-1: not a mask);
    names: names of codes 0, 1, ...; meaning: what the value selects here when the
    modifier has more than one use (a capability the renderers read: "format",
    "negate", "lane_pattern", "cd_half", "index_set", ...); needs: a note added to a
    range message (what the range depends on, e.g. "with CBSZ 1")."""
    top: int
    matrices: tuple[str, ...]
    output: bool = True
    values: tuple[int, ...] = ()
    mask: int = -1
    names: tuple[str, ...] = ()
    meaning: str = ""
    needs: str = ""


def _value(name: str, options: tuple[str, ...], help: str, group: str,
           **facts: object) -> ModifierSpec:
    """A spec whose LLVM name is its library name and whose value is a number."""
    metavar = "#" if "names" not in facts else "NAME"
    return ModifierSpec(name, options, name, metavar, help, group=group,
                        **facts)  # type: ignore[arg-type]


MODIFIERS: tuple[ModifierSpec, ...] = (
    # ---- CDNA (MFMA, SMFMAC)
    _value("cbsz", ("--cbsz",), "CBSZ modifier (A-matrix block broadcast size)", CDNA,
           title="CBSZ", matrices=(A, K), range="cbsz", shown="CBSZ and ABID bits supported",
           shapes=(A, K),
           effect="A: each aligned group of 2^CBSZ blocks reads block ABID of the group; "
                  "SMFMAC: with ABID, the index set; f8f6f4: the A format",
           field=7, reference=True),
    _value("abid", ("--abid",), "ABID modifier (A-matrix broadcast block id)", CDNA,
           title="ABID", matrices=(A, K), range="abid", shapes=(A, K),
           effect="A: the block of each CBSZ group that is broadcast; SMFMAC with CBSZ 0: "
                  "the compression-index set",
           field=15, reference=True),
    _value("blgp", ("--blgp",), "BLGP modifier (B-matrix lane group pattern)", CDNA,
           title="BLGP", matrices=(B,), range="blgp", shown="BLGP bits supported",
           shapes=(B,), negation=((A, NEGATE), (B, NEGATE), (C, NEGATE)),
           effect="B: lanes read another lane's value (eight patterns); FP64 (CDNA3+): "
                  "negation mask of A, B, C; f8f6f4: the B format",
           field=7, reference=True),
    # ---- RDNA (WMMA, SWMMAC)
    _value("opsel", ("--opsel",), "OPSEL modifier (RDNA)", RDNA, title="OPSEL",
           matrices=(C, D, K), range="opsel", shown="OPSEL supported", shapes=(C, D, K),
           effect="RDNA3: OPSEL[2] puts 16-bit C/D values in the high halves; RDNA4 SWMMAC: "
                  "the compression-index set",
           field=7, reference=True),
    _value("neg", ("--neg",), "NEG modifier (RDNA)", RDNA, title="NEG",
           matrices=(A, B, C), mask=True, top=7, range="neg", shown="NEG bits supported",
           negation=((A, LOW), (B, LOW), (C, NEGATE)),
           effect="negates the low 16-bit halves of A (bit 0), B (bit 1), C (bit 2); "
                  "integer: the signedness of A and B",
           reference=True),
    _value("neg_hi", ("--neg_hi", "--neg-hi"),
           "NEG_HI modifier (RDNA; gfx1250: neg_hi bits as --neg-lo, 4 = |C|)", RDNA,
           title="NEG_HI", matrices=(A, B, C), mask=True, top=7, range="neg",
           negation=((A, HIGH), (B, HIGH), (C, ABS)),
           effect="negates the high 16-bit halves of A (bit 0), B (bit 1); bit 2: |C|",
           reference=True),
    # ---- CDNA4 v_mfma_scale_*
    _value("opsel_a", ("--opsel-a", "--opsel_a"),
           "byte (0-3) of the A-scale VGPR (CDNA4 v_mfma_scale_*)", CDNA4_SCALE,
           title="OPSEL_A", matrices=(SA,), top=3, shapes=(SA,),
           effect="SA: the byte of the scale VGPR that holds the A scales"),
    _value("opsel_b", ("--opsel-b", "--opsel_b"),
           "byte (0-3) of the B-scale VGPR (CDNA4 v_mfma_scale_*)", CDNA4_SCALE,
           title="OPSEL_B", matrices=(SB,), top=3, shapes=(SB,),
           effect="SB: the byte of the scale VGPR that holds the B scales"),
    # ---- gfx1250 / gfx1251 (LLVM's names)
    _value("neg_lo", ("--neg-lo", "--neg_lo"),
           "gfx1250 neg_lo bits (1 = A, 2 = B, 4 = C; which are legal depends on the types)",
           GFX1250, matrices=(A, B, C), mask=True, top=7, range="neg",
           negation=((A, LOW), (B, LOW), (C, NEGATE)),
           effect="negates A (bit 0) and B (bit 1) values (16-bit: the low halves) and "
                  "C (bit 2); integer: the signedness of A and B"),
    _value("matrix_a_fmt", ("--matrix-a-fmt", "--matrix_a_fmt"),
           "gfx1250 f8f6f4: A format, fp8, bf8, fp6, bf6, fp4 or 0-4", GFX1250,
           anywhere=True, names=F8F6F4_NAMES, matrices=(A, B, C, D), top=4, shapes=EVERY,
           effect="the format of A (and so its layout)"),
    _value("matrix_b_fmt", ("--matrix-b-fmt", "--matrix_b_fmt"),
           "gfx1250 f8f6f4: B format, fp8, bf8, fp6, bf6, fp4 or 0-4", GFX1250,
           anywhere=True, names=F8F6F4_NAMES, matrices=(A, B, C, D), top=4, shapes=EVERY,
           effect="the format of B (and so its layout)"),
    _value("index_key", ("--index-key", "--index_key"), "gfx1250 SWMMAC index_key (0-1)",
           GFX1250, anywhere=True, matrices=(K,), top=1, shapes=(K,),
           effect="which index set the instruction reads: 1 reads the upper half of the "
                  "index operand as its first entries (docs/gfx1250.md, decision 3)"),
    _value("matrix_a_scale", ("--matrix-a-scale", "--matrix_a_scale"),
           "gfx1250 scaled WMMA: lanes of the A scales, row0 (0-15) or row1 (16-31)",
           GFX1250, anywhere=True, names=SCALE_SELECTS, matrices=(SA,), top=1, shapes=(SA,),
           effect="SA: the lane half holding the A scales"),
    _value("matrix_b_scale", ("--matrix-b-scale", "--matrix_b_scale"),
           "gfx1250 scaled WMMA: lanes of the B scales, row0 (0-15) or row1 (16-31)",
           GFX1250, anywhere=True, names=SCALE_SELECTS, matrices=(SB,), top=1, shapes=(SB,),
           effect="SB: the lane half holding the B scales"),
    _value("matrix_a_scale_fmt", ("--matrix-a-scale-fmt", "--matrix_a_scale_fmt"),
           "gfx1250 scaled WMMA: A scale format, e8, e5m3, e4m3 or 0-2", GFX1250,
           anywhere=True, names=SCALE_FORMATS, matrices=(A, B, C, D, SA, SB), top=2,
           effect="the format of the A scales (one byte each: moves nothing)"),
    _value("matrix_b_scale_fmt", ("--matrix-b-scale-fmt", "--matrix_b_scale_fmt"),
           "gfx1250 scaled WMMA: B scale format, e8, e5m3, e4m3 or 0-2", GFX1250,
           anywhere=True, names=SCALE_FORMATS, matrices=(A, B, C, D, SA, SB), top=2,
           effect="the format of the B scales (one byte each: moves nothing)"),
    ModifierSpec("matrix_a_reuse", ("--matrix-a-reuse", "--matrix_a_reuse"), "matrix_a_reuse",
                 "", "gfx1250: A operand-cache reuse hint (accepted where LLVM accepts it; "
                 "moves nothing)", flag=True, matrices=(A, B, C, D, K, SA, SB), top=1,
                 group=GFX1250, anywhere=True, effect="an operand-cache hint: moves nothing"),
    ModifierSpec("matrix_b_reuse", ("--matrix-b-reuse", "--matrix_b_reuse"), "matrix_b_reuse",
                 "", "gfx1250: B operand-cache reuse hint (accepted where LLVM accepts it; "
                 "moves nothing)", flag=True, matrices=(A, B, C, D, K, SA, SB), top=1,
                 group=GFX1250, anywhere=True, effect="an operand-cache hint: moves nothing"),
)

NAMES = tuple(spec.name for spec in MODIFIERS)

# Where an instruction's rule gives a modifier another use, the matrices whose layout
# it then moves (instead of the spec's `shapes`): a format sets the instruction's types
# (every matrix); a negation mask or the signedness changes values, not places.
SHAPES_BY_MEANING: dict[str, tuple[str, ...]] = {"format": EVERY, "negate": (), "signed": ()}


def shaped(spec: ModifierSpec, rule: Rule) -> tuple[str, ...]:
    """The matrices whose layout `spec` moves on an instruction whose rule is `rule`."""
    moved = SHAPES_BY_MEANING.get(rule.meaning, spec.shapes)
    return tuple(matrix for matrix in moved if matrix in rule.matrices)
_BY_NAME = {spec.name: spec for spec in MODIFIERS}


def modifier(name: str) -> ModifierSpec:
    """The spec of the modifier called `name` (its library name); KeyError otherwise."""
    return _BY_NAME[name]


class Modifiers(Record):
    """The modifier values of one query (all 0 by default): one field per spec of
    MODIFIERS, in its order (tests/instructions/test_modifier_table.py)."""
    cbsz: int = 0
    abid: int = 0
    blgp: int = 0
    opsel: int = 0
    neg: int = 0
    neg_hi: int = 0
    opsel_a: int = 0
    opsel_b: int = 0
    neg_lo: int = 0
    matrix_a_fmt: int = 0
    matrix_b_fmt: int = 0
    index_key: int = 0
    matrix_a_scale: int = 0
    matrix_b_scale: int = 0
    matrix_a_scale_fmt: int = 0
    matrix_b_scale_fmt: int = 0
    matrix_a_reuse: int = 0
    matrix_b_reuse: int = 0
