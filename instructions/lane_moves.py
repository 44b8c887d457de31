"""Lane-move and packing instructions of each architecture, as data.

The conversion planner (matrix_plans/convert/planner.py) reads these records instead of comparing
architecture names: which instructions move a 32-bit value between lanes, which pack
f32 accumulators into narrower operand types, and what each costs in instructions.

Sources are the IDs of docs/facts/lds_and_lane_moves.md (L1 = AMD CDNA4 ISA guide,
L4 = AMD RDNA3.5 ISA guide, L7/L10 = LLVM MC tests and clang builtins, L26 = LLPC and
friends, L31 = LLVM MC test for gfx940 fp8 packs, L32 = gfx1250 subtarget features).
Every mnemonic below was assembled by `llvm-mc-22 -triple=amdgcn -mcpu=<target>
-show-encoding` for its target; tests/data/lane_moves_llvm_mc.txt records the answers
and the command that regenerates them (scripts/record_lane_moves.py).
"""


from __future__ import annotations

from instructions import ARCHITECTURES
from instructions.record import Record


class LaneMove(Record):
    """One way to move 32-bit values between lanes.

    kind (what the planner can ask of it):
      "swap32": v_permlane32_swap (lane l and l^32 of two registers trade values);
      "swap16": v_permlane16_swap (lane l and l^16, within each 32-lane half);
      "row": v_permlane16 (any gather inside each 16-lane row, one selector for all rows);
      "xrow": v_permlanex16 (the same gather from the other row of the 32-lane half);
      "half": v_permlane64 (lane l reads lane l^32; wave64 only);
      "gather": ds_bpermute_b32 (any lane from any lane; `reach` lanes at most);
      "dpp": v_mov_b32_dpp with one of `controls` (instructions/dpp.py: the lane each
        lane reads under each control);
      "dpp8": v_mov_b32_dpp with a dpp8 selector (any permutation within 8 lanes).
    builtin: the clang builtin that issues it; cost: what the planner weighs one use at
    (facts B.1 "Costs"): 1 for a VALU lane move, which needs no wait; a bpermute is 3:
    itself, its lane address (v_and/v_lshl) and the s_waitcnt for the LDS unit (~50
    cycles on MI300 against 4-12 for DPP, L12), although the program counts the address
    once per lane pattern and the wait once per plan; reach: the lanes a gather can read
    from (32: only within its 32-lane half in wave64); source: fact IDs."""
    kind: str
    mnemonic: str
    builtin: str
    cost: int = 1
    reach: int = 64
    source: str = ""
    controls: tuple[str, ...] = ()


class Pack(Record):
    """Packing of accumulator values (type `frm`) into a narrower operand type `to`:
    `mnemonics` fills one 32-bit register with `values` values (the sequence as issued).

    How the count grows with the values n of one pack (issues()): `each` per value,
    `step` per `per` values, `join` per group beyond the first (a group: `per` values,
    or one value when per is 0). `paired`: the step reads its two 16-bit values from
    the halves of one register (another order costs a v_perm_b32 first). `span`: a wide
    pack, whose one step writes `span` registers (`values` values) at once.
    `builtin`: the clang builtin of the step or of the per-value conversion."""
    to: str                      # the operand type keys it produces (fp8 covers fp8_fnuz)
    mnemonics: tuple[str, ...]
    values: int
    source: str = ""
    single: tuple[str, ...] = ()  # converting one value alone (default: the first mnemonic)
    frm: str = "f32"
    each: tuple[str, ...] = ()
    step: tuple[str, ...] = ()
    per: int = 0
    join: tuple[str, ...] = ()
    paired: bool = False
    span: int = 0
    builtin: str = ""

    def issues(self, n: int) -> tuple[str, ...]:
        """The instructions converting and packing n values into one register."""
        if not (self.each or self.step or self.join):
            return self.mnemonics
        if n == 1 and self.single:
            return self.single
        groups = -(-n // self.per) if self.per else n
        return self.each * n + self.step * groups + self.join * max(0, groups - 1)


class ArchMoves(Record):
    """The lane moves and packs of one architecture (`arch`: its canonical name)."""
    arch: str
    moves: tuple[LaneMove, ...]
    packs: tuple[Pack, ...]
    store: str = "ds_write_b"   # LDS store and load mnemonics, without the width
    load: str = "ds_read_b"     # (gfx11 renamed them ds_store_b*/ds_load_b*) [SRC] L8

    def lds(self, bits: int, load: bool = False) -> str:
        return f"{self.load if load else self.store}{bits}"

    @property
    def target(self) -> str:
        """The LLVM processor the mnemonics are checked on: the architecture's clang
        target (its Architecture line)."""
        return next(a.target for a in ARCHITECTURES if a.name == self.arch)


_BPERMUTE = LaneMove("gather", "ds_bpermute_b32", "__builtin_amdgcn_ds_bpermute", cost=3,
                     source="L1 (DS op 63: src lane = (addr + offset) / 4 % 64)")
# RDNA in wave64: a bpermute reads only within the lane's own 32-lane half [L26].
_BPERMUTE_HALVES = _BPERMUTE._replace(reach=32, source="L1, L26 (wave64 halves on gfx10+)")
_SWAP16 = LaneMove("swap16", "v_permlane16_swap_b32", "__builtin_amdgcn_permlane16_swap",
                   source="L1 L7529-7543, L7, L10")
_SWAP32 = LaneMove("swap32", "v_permlane32_swap_b32", "__builtin_amdgcn_permlane32_swap",
                   source="L1 L7544-7556, L7, L10")
_ROW = LaneMove("row", "v_permlane16_b32", "__builtin_amdgcn_permlane16",
                source="L4 (VOP3 603)")
_XROW = LaneMove("xrow", "v_permlanex16_b32", "__builtin_amdgcn_permlanex16",
                 source="L4 (VOP3 604)")
_HALF = LaneMove("half", "v_permlane64_b32", "__builtin_amdgcn_permlane64",
                 source="L26 (swaps the 32-lane halves; nothing in wave32)")
# DPP controls by generation (facts B.2: L1 Tables 93/94, L11 printDPPCtrl): the row
# controls everywhere, the wave shifts and row_bcast on gfx9 (CDNA), row_newbcast on
# gfx90a+, row_share and row_xmask on gfx10+ (no wave shifts or row_bcast there), and
# DPP8 on gfx10+.
_DPP_ROWS = ("quad_perm", "row_shl", "row_shr", "row_ror", "row_mirror", "row_half_mirror")
_DPP_GFX9 = _DPP_ROWS + ("wave_shl", "wave_rol", "wave_shr", "wave_ror", "row_bcast")
_DPP_SOURCE = "L1 Tables 93/94, L11; dpp_ctrl codes: LLVM SIDefines.h DppCtrl"
_DPP_CDNA1 = LaneMove("dpp", "v_mov_b32_dpp", "__builtin_amdgcn_update_dpp",
                      source=_DPP_SOURCE, controls=_DPP_GFX9)
_DPP_CDNA2 = _DPP_CDNA1._replace(controls=_DPP_GFX9 + ("row_newbcast",))
_DPP_GFX10 = _DPP_CDNA1._replace(controls=_DPP_ROWS + ("row_share", "row_xmask"))
_DPP8 = LaneMove("dpp8", "v_mov_b32_dpp", "__builtin_amdgcn_mov_dpp8",
                 source="L12 (RDNA: DPP8/DPP16); LLVM dpp8 syntax")

# f16: two single conversions and a pack where there is no round-to-nearest pair
# conversion (v_cvt_pkrtz_f16_f32 rounds toward zero, so it is not used) [INF, B.3].
_F16_SINGLE = Pack("f16", ("v_cvt_f16_f32", "v_cvt_f16_f32", "v_pack_b32_f16"), 2,
                   "L1 (VOP1 v_cvt_f16_f32, VOP3 v_pack_b32_f16); facts B.3 [INF]",
                   each=("v_cvt_f16_f32",), join=("v_pack_b32_f16",))
_F16_PAIR = Pack("f16", ("v_cvt_pk_f16_f32",), 2, "L1 L12881 (VOP3 615); L32",
                 ("v_cvt_f16_f32",), step=("v_cvt_pk_f16_f32",), per=2)
_BF16_PAIR = Pack("bf16", ("v_cvt_pk_bf16_f32",), 2, "L1 L12890 (VOP3 616); L32",
                  step=("v_cvt_pk_bf16_f32",), per=2)
# bf16 without a conversion instruction: round to nearest even in integer arithmetic,
# as compilers do (v_bfe_u32, v_add3_u32, v_cmp_u_f32, v_cndmask_b32 per value, a
# v_perm_b32 to pack) [INF].
_BF16_ONE = ("v_bfe_u32", "v_add3_u32", "v_cmp_u_f32", "v_cndmask_b32")
_BF16_INT = Pack("bf16", _BF16_ONE * 2 + ("v_perm_b32",), 2,
                 "integer round-to-nearest-even [INF]", _BF16_ONE, each=_BF16_ONE,
                 join=("v_perm_b32",))
# fp8/bf8: two values per instruction into one 16-bit half (OPSEL / word_sel picks it).
_FP8 = Pack("fp8", ("v_cvt_pk_fp8_f32", "v_cvt_pk_fp8_f32"), 4, "L1 L13213-13240; L31",
            step=("v_cvt_pk_fp8_f32",), per=2, builtin="__builtin_amdgcn_cvt_pk_fp8_f32")
_BF8 = Pack("bf8", ("v_cvt_pk_bf8_f32", "v_cvt_pk_bf8_f32"), 4, "L1 L13213-13240; L31",
            step=("v_cvt_pk_bf8_f32",), per=2, builtin="__builtin_amdgcn_cvt_pk_bf8_f32")

# ---- f16 and bf16 accumulators into fp8/bf8 (RDNA4, gfx1250: f16/bf16-D WMMAs and
# fp8/bf8 WMMAs on one architecture). Evidence: llvm-mc-22 -mcpu=gfx1200/gfx1250
# assembles each mnemonic; clang-22 -O2 turns each builtin into it (tests/data/
# convert_clang.txt).
# RDNA4 has no 16-bit -> fp8 instruction: widen each f16 (v_cvt_f32_f16, exact) and
# convert pairs with v_cvt_pk_fp8_f32; a bf16 widens with one shift or mask (exact).
_F16_FP8_WIDE = Pack("fp8", ("v_cvt_f32_f16",) * 4 + ("v_cvt_pk_fp8_f32",) * 2, 4,
                     "llvm-mc-22 gfx1200; f16 -> f32 exact, then L1 L13213", frm="f16",
                     each=("v_cvt_f32_f16",), step=("v_cvt_pk_fp8_f32",), per=2)
_F16_BF8_WIDE = _F16_FP8_WIDE._replace(
    to="bf8", mnemonics=("v_cvt_f32_f16",) * 4 + ("v_cvt_pk_bf8_f32",) * 2,
    step=("v_cvt_pk_bf8_f32",))
_BF16_FP8_WIDE = Pack("fp8", ("v_lshlrev_b32",) * 4 + ("v_cvt_pk_fp8_f32",) * 2, 4,
                      "llvm-mc-22 gfx1200/gfx1250; bf16 -> f32 is a 16-bit shift [INF]",
                      frm="bf16", each=("v_lshlrev_b32",), step=("v_cvt_pk_fp8_f32",),
                      per=2)
_BF16_BF8_WIDE = _BF16_FP8_WIDE._replace(
    to="bf8", mnemonics=("v_lshlrev_b32",) * 4 + ("v_cvt_pk_bf8_f32",) * 2,
    step=("v_cvt_pk_bf8_f32",))
# gfx1250: v_cvt_pk_fp8_f16 / v_cvt_pk_bf8_f16 convert the two f16 halves of one
# register into one 16-bit half (op_sel picks it) [llvm-mc-22 gfx1250; clang-22
# __builtin_amdgcn_cvt_pk_fp8_f16(half2)].
_F16_FP8 = Pack("fp8", ("v_cvt_pk_fp8_f16",) * 2, 4,
                "llvm-mc-22 gfx1250 (VOP1 v_cvt_pk_fp8_f16); clang-22 builtin", frm="f16",
                step=("v_cvt_pk_fp8_f16",), per=2, paired=True,
                builtin="__builtin_amdgcn_cvt_pk_fp8_f16")
_F16_BF8 = _F16_FP8._replace(to="bf8", mnemonics=("v_cvt_pk_bf8_f16",) * 2,
                             step=("v_cvt_pk_bf8_f16",),
                             builtin="__builtin_amdgcn_cvt_pk_bf8_f16")

# ---- f32 into fp4, fp6 and bf6 (the f8f6f4 formats): the scalef32 conversions with
# scale 1.0 (exponent 0, i.e. no scaling), round to nearest even.
# gfx950: v_cvt_scalef32_pk_fp4_f32 writes two values into the byte OPSEL[3:2] picks,
# keeping the other bytes: four make a register [SRC L1 L12373-12383]; the first value
# in the low nibble [SEC: a public FlyDSL MXFP4 kernel].
_FP4_PAIRS = Pack("fp4", ("v_cvt_scalef32_pk_fp4_f32",) * 4, 8, "L1 L12373-12383",
                  step=("v_cvt_scalef32_pk_fp4_f32",), per=2, span=1,
                  builtin="__builtin_amdgcn_cvt_scalef32_pk_fp4_f32")
# gfx950: v_cvt_scalef32_2xpk16_fp6_f32 / _bf6_f32: 2 x 16 f32 -> 32 values in six
# registers [L1 L12691-12726 (the pk32 forms), llvm-mc-22 gfx950, clang-22 builtin];
# the sources interleave (value 2i from src0[i], 2i+1 from src1[i]) as a public FlyDSL
# MXFP6 kernel, a device test of the builtin and gem5's MI355X model (gem5/gem5
# src/arch/amdgpu/vega/insts/vop3_cvt.hh @ f147327f) state [SEC; not checked against the
# ISA pseudocode: docs/chaining.md].
_FP6_2X16 = Pack("fp6", ("v_cvt_scalef32_2xpk16_fp6_f32",), 32,
                 "L1 L12691-12726; llvm-mc-22 gfx950",
                 step=("v_cvt_scalef32_2xpk16_fp6_f32",), per=32, span=6,
                 builtin="__builtin_amdgcn_cvt_scalef32_2xpk16_fp6_f32")
_BF6_2X16 = _FP6_2X16._replace(to="bf6", mnemonics=("v_cvt_scalef32_2xpk16_bf6_f32",),
                               step=("v_cvt_scalef32_2xpk16_bf6_f32",),
                               builtin="__builtin_amdgcn_cvt_scalef32_2xpk16_bf6_f32")
# gfx1250: eight f32 -> one register of fp4; sixteen f32 -> three registers of fp6/bf6
# [llvm-mc-22 gfx1250; clang-22 __builtin_amdgcn_cvt_scalef32_pk8_fp4_f32 and
# __builtin_amdgcn_cvt_scalef32_pk16_{fp6,bf6}_f32]; value i at bits width*i [INF:
# the vector's order; no public statement found].
_FP4_PK8 = Pack("fp4", ("v_cvt_scalef32_pk8_fp4_f32",), 8, "llvm-mc-22 gfx1250",
                step=("v_cvt_scalef32_pk8_fp4_f32",), per=8, span=1,
                builtin="__builtin_amdgcn_cvt_scalef32_pk8_fp4_f32")
_FP6_PK16 = Pack("fp6", ("v_cvt_scalef32_pk16_fp6_f32",), 16, "llvm-mc-22 gfx1250",
                 step=("v_cvt_scalef32_pk16_fp6_f32",), per=16, span=3,
                 builtin="__builtin_amdgcn_cvt_scalef32_pk16_fp6_f32")
_BF6_PK16 = _FP6_PK16._replace(to="bf6", mnemonics=("v_cvt_scalef32_pk16_bf6_f32",),
                               step=("v_cvt_scalef32_pk16_bf6_f32",),
                               builtin="__builtin_amdgcn_cvt_scalef32_pk16_bf6_f32")

# ---- i32 into 8- and 4-bit integers: saturate each value with v_med3_i32 (the middle
# of value, low and high bounds: a clamp), then pack: bytes with v_perm_b32, nibbles
# with v_and_b32 (signed values only: drop the sign bits) and v_lshl_or_b32
# [llvm-mc-22 on every target; the operations are plain VOP3 integer arithmetic].
# `to`: i8 / u8 / i4 / u4, the signedness the destination reads (CDNA i8: signed;
# RDNA/gfx1250 iu8/iu4: the NEG / neg_lo bit of the operand).
_I8 = Pack("i8", ("v_med3_i32",) * 4 + ("v_perm_b32",) * 3, 4,
           "llvm-mc-22 (VOP3 v_med3_i32, v_perm_b32)", frm="i32", each=("v_med3_i32",),
           join=("v_perm_b32",))
_U8 = _I8._replace(to="u8")
_I4 = Pack("i4", ("v_med3_i32", "v_and_b32") * 8 + ("v_lshl_or_b32",) * 7, 8,
           "llvm-mc-22 (VOP3 v_med3_i32, v_and_b32, v_lshl_or_b32)", frm="i32",
           each=("v_med3_i32", "v_and_b32"), join=("v_lshl_or_b32",))
_U4 = Pack("u4", ("v_med3_i32",) * 8 + ("v_lshl_or_b32",) * 7, 8,
           "llvm-mc-22 (VOP3 v_med3_i32, v_lshl_or_b32)", frm="i32", each=("v_med3_i32",),
           join=("v_lshl_or_b32",))
_INTS = (_I8, _U8, _I4, _U4)

_RDNA = (_ROW, _XROW, _HALF, _DPP_GFX10, _DPP8, _BPERMUTE_HALVES)
_GFX125 = (_SWAP16, _ROW, _XROW, _DPP_GFX10, _DPP8, _BPERMUTE)
_GFX11_LDS = ("ds_store_b", "ds_load_b")
_PACKS_OLD = (_F16_SINGLE, _BF16_INT)
_PACKS_1250 = (_F16_PAIR, _BF16_PAIR, _FP8, _BF8, _F16_FP8, _F16_BF8, _BF16_FP8_WIDE,
               _BF16_BF8_WIDE, _FP4_PK8, _FP6_PK16, _BF6_PK16) + _INTS

ARCH_MOVES = (
    ArchMoves("CDNA1", (_DPP_CDNA1, _BPERMUTE), _PACKS_OLD + _INTS),
    ArchMoves("CDNA2", (_DPP_CDNA2, _BPERMUTE), _PACKS_OLD + _INTS),
    ArchMoves("CDNA3", (_DPP_CDNA2, _BPERMUTE), _PACKS_OLD + (_FP8, _BF8) + _INTS),
    ArchMoves("CDNA4", (_SWAP32, _SWAP16, _DPP_CDNA2, _BPERMUTE),
              (_F16_PAIR, _BF16_PAIR, _FP8, _BF8, _FP4_PAIRS, _FP6_2X16, _BF6_2X16) + _INTS),
    ArchMoves("RDNA3", _RDNA, (_F16_SINGLE, _BF16_INT) + _INTS, *_GFX11_LDS),
    ArchMoves("RDNA4", _RDNA,
              (_F16_SINGLE, _BF16_INT, _FP8, _BF8, _F16_FP8_WIDE, _F16_BF8_WIDE,
               _BF16_FP8_WIDE, _BF16_BF8_WIDE) + _INTS, *_GFX11_LDS),
    ArchMoves("GFX1250", _GFX125, _PACKS_1250, *_GFX11_LDS),
    ArchMoves("GFX1251", _GFX125, _PACKS_1250, *_GFX11_LDS),
)

# An LDS round trip stores values of these widths and loads 1, 2 or 4 registers at once.
STORE_BITS = (8, 16, 32, 64, 128)
LOAD_BITS = (32, 64, 128)

# The selection of one of several moved values per lane (a lane mask in SGPRs).
SELECT = "v_cndmask_b32"
# The wait for a ds_bpermute's result (or an LDS store/load).
WAIT = "s_waitcnt"
# What the choice between routes weighs one such wait at, in instructions: the LDS unit
# answers in about 50 cycles on MI300 where a VALU lane move (DPP, permlane) takes a
# few (facts B.1 "Costs", L12, L28), so a wait counts as itself and two more.
WAIT_COST = 3
# In-lane packing of same-type 8/16-bit values into one register (byte select).
REPACK = "v_perm_b32"


def arch_moves(arch: str) -> ArchMoves:
    """The record of the architecture whose canonical name is `arch`."""
    for entry in ARCH_MOVES:
        if entry.arch == arch:
            return entry
    raise KeyError(arch)


def mnemonics() -> dict[str, tuple[str, ...]]:
    """{target: every mnemonic the records name for it} (for the llvm-mc check)."""
    out = {}
    for entry in ARCH_MOVES:
        names = [m.mnemonic for m in entry.moves]
        names += [n for p in entry.packs
                  for n in p.mnemonics + p.single + p.each + p.step + p.join]
        names += [SELECT, REPACK]
        names += [entry.lds(bits) for bits in STORE_BITS]
        names += [entry.lds(bits, load=True) for bits in LOAD_BITS]
        out[entry.target] = tuple(dict.fromkeys(names))
    return out
