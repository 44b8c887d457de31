"""The instructions that copy a tile from global memory into LDS, per architecture, as
data: the global and buffer loads of the register route and the DS writes that
follow them, the direct-to-LDS loads (a wave-uniform LDS base plus lane x stride), gfx1250's
asynchronous loads (a per-lane LDS address) and its tensor data mover, and the LDS write
phase models. Every row carries its source, tagged as in the fact sheet docs/lds_copy.md
([SRC] AMD or LLVM text or tool answer, [SEC] library code or measurement, [INF]
inference or assumption). layouts.lds_copy reads this table; nothing here computes.
"""


from __future__ import annotations

from instructions.lds import PhaseModel, PhaseRow, _runs
from instructions.record import Record


class CopyOp(Record):
    """One copy instruction. route: "load" (global/buffer load into VGPRs), "write" (a DS
    write of those VGPRs), "direct" (global -> LDS at M0 + INST.OFFSET + lane x
    lds_stride), "async" (global -> LDS at a per-lane address), "tdm" (the tensor data
    mover: a descriptor in SGPRs); bytes: bytes per lane (0 for the tensor data mover);
    memory: "global" or "buffer" (where the addresses come from); builtin: clang's
    builtin (or "" when plain C code lowers to it); source: where it is stated."""
    name: str
    route: str
    bytes: int
    memory: str = "global"
    lds_stride: int = 0
    builtin: str = ""
    source: str = ""


_MC = "[SRC] llvm-mc-22 (tests/data/lds_copy_llvm_mc.txt)"
_LDS_ADDR = ("CDNA4 ISA 10.3 'DWORDX1: LDS_ADDR = LDSbase + M0 + INST.OFFSET + ThreadID*4', "
             "'DWORDX4: ... ThreadID*16'; 9.1.9: x3 'writes 3 dwords and skips the 4th'")
_BUF_LDS = "__builtin_amdgcn_raw_ptr_buffer_load_lds"
_GLOBAL_LDS = "__builtin_amdgcn_global_load_lds"


def _gfx9_loads() -> tuple[CopyOp, ...]:
    ops = []
    for size, suffix in ((4, ""), (8, "x2"), (12, "x3"), (16, "x4")):
        ops.append(CopyOp(f"global_load_dword{suffix}", "load", size, source=_MC))
        ops.append(CopyOp(f"buffer_load_dword{suffix}", "load", size, "buffer",
                          builtin=f"__builtin_amdgcn_raw_buffer_load_b{size * 8}",
                          source=_MC))
    return tuple(ops)


def _gfx11_loads(buffer: bool = True) -> tuple[CopyOp, ...]:
    ops = []
    for size in (4, 8, 12, 16):
        ops.append(CopyOp(f"global_load_b{size * 8}", "load", size, source=_MC))
        if buffer:
            ops.append(CopyOp(f"buffer_load_b{size * 8}", "load", size, "buffer",
                              builtin=f"__builtin_amdgcn_raw_buffer_load_b{size * 8}",
                              source=_MC))
    return tuple(ops)


def _writes(prefix: str) -> tuple[CopyOp, ...]:
    return tuple(CopyOp(f"{prefix}_b{size * 8}", "write", size, "lds",
                        source="[SRC] ISA DS opcodes; " + _MC) for size in (16, 12, 8, 4))


def _direct(sizes: tuple[int, ...], buffer: bool, global_name: str) -> tuple[CopyOp, ...]:
    """The direct-to-LDS loads of `sizes` bytes: buffer_load_dword{,x3,x4} ... lds and the
    global form (global_name % suffix)."""
    ops = []
    for size in sizes:
        suffix = {4: "", 12: "x3", 16: "x4"}[size]
        stride = 4 if size == 4 else 16
        if buffer:
            ops.append(CopyOp(f"buffer_load_dword{suffix}", "direct", size, "buffer", stride,
                              _BUF_LDS, f"{_MC}; {_LDS_ADDR}"))
        ops.append(CopyOp(global_name % suffix, "direct", size, "global", stride, _GLOBAL_LDS,
                          f"{_MC}; {_LDS_ADDR}"))
    return tuple(ops)


_ASYNC = tuple(CopyOp(f"global_load_async_to_lds_b{size * 8}", "async", size, "global", 0,
                      f"__builtin_amdgcn_global_load_async_to_lds_b{size * 8}",
                      f"{_MC} (per-lane LDS address operand; no b96); clang-22 puts the LDS "
                      "pointer in the first VGPR operand")
               for size in (16, 8, 4))
_TDM = CopyOp("tensor_load_to_lds", "tdm", 0, "global", 0, "__builtin_amdgcn_tensor_load_to_lds",
              f"{_MC}; descriptor: Triton TDMUtility.cpp, CK ck_tile TDM descriptor "
              "(docs/lds_copy.md section 5)")


# ---- LDS write phase models ---------------------------------------------------------

_L12 = "shark-ai optimization guide (L12), CK lds_bank_conflicts.rst (L14)"
_L15W = "HipKittens ds_write_b64 phase measurement on MI350-class hardware (L15)"


def _writes_per_128(banks: int, note: str) -> tuple[PhaseRow, ...]:
    """128 bytes of each write served per phase: 32, 16, 8, 8 contiguous lanes."""
    return tuple(PhaseRow(bits, banks, _runs(1024 // max(bits, 128 * (bits == 96))), note)
                 for bits in (32, 64, 96, 128))


WRITE_CDNA3 = PhaseModel(
    "default", "32 banks; 128 bytes per phase: b32 32 lanes, b64 16, b96 and b128 8, "
    "contiguous", _L12,
    "[SEC] b128 (L12, L14: {0-7}, {8-15}, ...); b32, b64, b96 [INF] the same 128 bytes per "
    "phase", _writes_per_128(32, "[INF] except b128"), assumed=False)
WRITE_CDNA12 = WRITE_CDNA3._replace(
    confidence="[INF] no source for CDNA1/2: the gfx942 write model assumed", assumed=True)
WRITE_CDNA4 = PhaseModel(
    "default", "64 banks; 128 bytes per phase: b32 32 lanes, b64 16, b96 and b128 8, "
    "contiguous", _L15W,
    "[SEC] b64 measured (L15: {0-15}, {16-31}, ...); b32, b96, b128 [INF] the same 128 bytes "
    "per phase (gfx942's b128 has it too)", _writes_per_128(64, "[INF] except b64"),
    assumed=False)


class CopyFacts(Record):
    """The copy instructions of one architecture (named as in instructions.ARCHITECTURES)
    and its LDS write phase model (None: the read side's default model, assumed);
    `buffer_word3`: word 3 of a raw buffer resource (0: not recorded here; gfx9: the
    32-bit data format, as CK's CK_BUFFER_RESOURCE_3RD_DWORD for gfx90a/gfx94x/gfx950)."""
    arch: str
    ops: tuple[CopyOp, ...]
    write_model: PhaseModel | None
    waits: str  # how a kernel waits for its copies: the counter and the builtin
    buffer_word3: int = 0

    def op(self, name: str, route: str | None = None) -> CopyOp | None:
        key = name.lower()
        for op in self.ops:
            if op.name == key and (route is None or op.route == route):
                return op
        return None

    def direct(self, name: str) -> CopyOp | None:
        key = name.lower()
        for op in self.ops:
            if op.name == key and op.route in ("direct", "async", "tdm"):
                return op
        return None


_WAIT_GFX9 = "vmcnt: __builtin_amdgcn_s_waitcnt"
_WORD3_GFX9 = 0x00020000
_WAIT_GFX12 = "loadcnt: __builtin_amdgcn_s_wait_loadcnt"
_WAIT_GFX1250 = ("asynccnt: __builtin_amdgcn_s_wait_asynccnt; tensorcnt: "
                 "__builtin_amdgcn_s_wait_tensorcnt")

_GFX9_DIRECT = _direct((4,), True, "global_load_dword%s_lds")  # (gfx9: global_load_dword lds)
COPIES = (
    CopyFacts("CDNA1", _gfx9_loads() + _writes("ds_write") + _GFX9_DIRECT, WRITE_CDNA12,
              _WAIT_GFX9, _WORD3_GFX9),
    CopyFacts("CDNA2", _gfx9_loads() + _writes("ds_write") + _GFX9_DIRECT, WRITE_CDNA12,
              _WAIT_GFX9, _WORD3_GFX9),
    CopyFacts("CDNA3", _gfx9_loads() + _writes("ds_write")
              + _direct((4,), True, "global_load_lds_dword%s"), WRITE_CDNA3, _WAIT_GFX9,
              _WORD3_GFX9),
    CopyFacts("CDNA4", _gfx9_loads() + _writes("ds_write")
              + _direct((16, 12, 4), True, "global_load_lds_dword%s"), WRITE_CDNA4, _WAIT_GFX9,
              _WORD3_GFX9),
    CopyFacts("RDNA3", _gfx11_loads() + _writes("ds_store"), None,
              "loadcnt/vmcnt: __builtin_amdgcn_s_waitcnt"),
    CopyFacts("RDNA4", _gfx11_loads() + _writes("ds_store"), None, _WAIT_GFX12),
    CopyFacts("GFX1250", _gfx11_loads() + _writes("ds_store") + _ASYNC + (_TDM,), None,
              _WAIT_GFX1250),
    CopyFacts("GFX1251", _gfx11_loads() + _writes("ds_store") + _ASYNC + (_TDM,), None,
              _WAIT_GFX1250),
)


def copy_facts(arch: str) -> CopyFacts | None:
    """The copy facts of the architecture named `arch` (canonical name), or None."""
    for facts in COPIES:
        if facts.arch == arch:
            return facts
    return None
