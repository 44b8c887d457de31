"""Lane-move and packing instructions of each architecture, as data (issue 20).

The conversion planner (layouts/convert.py) reads these records instead of comparing
architecture names: which instructions move a 32-bit value between lanes, which pack
f32 accumulators into narrower operand types, and what each costs in instructions.

Sources are the IDs of ../shared/facts/lds_and_lane_moves.md (L1 = AMD CDNA4 ISA guide,
L4 = AMD RDNA3.5 ISA guide, L7/L10 = LLVM MC tests and clang builtins, L26 = LLPC and
friends, L31 = LLVM MC test for gfx940 fp8 packs, L32 = gfx1250 subtarget features).
Every mnemonic below was assembled by `llvm-mc-22 -triple=amdgcn -mcpu=<target>
-show-encoding` for its target; tests/data/lane_moves_llvm_mc.txt records the answers
and the command that regenerates them (scripts/record_lane_moves.py).
"""
from __future__ import annotations

from .record import Record


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
    """Packing of 32-bit accumulator values into a narrower operand type: `mnemonics`
    converts `values` values into one 32-bit register (the sequence as issued)."""
    to: str                      # the operand type keys it produces (fp8 covers fp8_fnuz)
    mnemonics: tuple[str, ...]
    values: int
    source: str = ""
    single: tuple[str, ...] = ()  # converting one value alone (default: the first mnemonic)


class ArchMoves(Record):
    """The lane moves and packs of one architecture (`arch`: its canonical name).
    target: the LLVM processor the mnemonics were checked on."""
    arch: str
    target: str
    moves: tuple[LaneMove, ...]
    packs: tuple[Pack, ...]
    store: str = "ds_write_b"   # LDS store and load mnemonics, without the width
    load: str = "ds_read_b"     # (gfx11 renamed them ds_store_b*/ds_load_b*) [SRC] L8

    def lds(self, bits: int, load: bool = False) -> str:
        return f"{self.load if load else self.store}{bits}"


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
                   "L1 (VOP1 v_cvt_f16_f32, VOP3 v_pack_b32_f16); facts B.3 [INF]")
_F16_PAIR = Pack("f16", ("v_cvt_pk_f16_f32",), 2, "L1 L12881 (VOP3 615); L32")
_BF16_PAIR = Pack("bf16", ("v_cvt_pk_bf16_f32",), 2, "L1 L12890 (VOP3 616); L32")
# bf16 without a conversion instruction: round to nearest even in integer arithmetic,
# as compilers do (v_bfe_u32, v_add3_u32, v_cmp_u_f32, v_cndmask_b32 per value, a
# v_perm_b32 to pack) [INF].
_BF16_ONE = ("v_bfe_u32", "v_add3_u32", "v_cmp_u_f32", "v_cndmask_b32")
_BF16_INT = Pack("bf16", _BF16_ONE * 2 + ("v_perm_b32",), 2,
                 "integer round-to-nearest-even [INF]", _BF16_ONE)
# fp8/bf8: two values per instruction into one 16-bit half (OPSEL / word_sel picks it).
_FP8 = Pack("fp8", ("v_cvt_pk_fp8_f32", "v_cvt_pk_fp8_f32"), 4, "L1 L13213-13240; L31")
_BF8 = Pack("bf8", ("v_cvt_pk_bf8_f32", "v_cvt_pk_bf8_f32"), 4, "L1 L13213-13240; L31")

_RDNA = (_ROW, _XROW, _HALF, _DPP_GFX10, _DPP8, _BPERMUTE_HALVES)
_GFX125 = (_SWAP16, _ROW, _XROW, _DPP_GFX10, _DPP8, _BPERMUTE)
_GFX11_LDS = ("ds_store_b", "ds_load_b")
_PACKS_OLD = (_F16_SINGLE, _BF16_INT)

ARCH_MOVES = (
    ArchMoves("CDNA1", "gfx908", (_DPP_CDNA1, _BPERMUTE), _PACKS_OLD),
    ArchMoves("CDNA2", "gfx90a", (_DPP_CDNA2, _BPERMUTE), _PACKS_OLD),
    ArchMoves("CDNA3", "gfx942", (_DPP_CDNA2, _BPERMUTE), _PACKS_OLD + (_FP8, _BF8)),
    ArchMoves("CDNA4", "gfx950", (_SWAP32, _SWAP16, _DPP_CDNA2, _BPERMUTE),
              (_F16_PAIR, _BF16_PAIR, _FP8, _BF8)),
    ArchMoves("RDNA3", "gfx1100", _RDNA,
              (_F16_SINGLE, _BF16_INT), *_GFX11_LDS),
    ArchMoves("RDNA4", "gfx1200", _RDNA,
              (_F16_SINGLE, _BF16_INT, _FP8, _BF8), *_GFX11_LDS),
    ArchMoves("GFX1250", "gfx1250", _GFX125,
              (_F16_PAIR, _BF16_PAIR, _FP8, _BF8), *_GFX11_LDS),
    ArchMoves("GFX1251", "gfx1251", _GFX125,
              (_F16_PAIR, _BF16_PAIR, _FP8, _BF8), *_GFX11_LDS),
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
        names += [n for p in entry.packs for n in p.mnemonics]
        names += [SELECT, REPACK]
        names += [entry.lds(bits) for bits in STORE_BITS]
        names += [entry.lds(bits, load=True) for bits in LOAD_BITS]
        out[entry.target] = tuple(dict.fromkeys(names))
    return out
