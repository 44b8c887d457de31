"""--emit hip with --preshuffle: each lane's loads of a preshuffled buffer.

`<name>_address(lane, load, br, bc, ld)` is the byte offset lane `lane` reads for load
number `load` of block (br, bc) (br counts blocks along the stored matrix's outer index,
bc along its inner index; ld: the stored matrix's inner extent in values);
`<name>_load(buf, lane, br, bc, ld, out)` fills out[] (the lane's VGPRs, tile after
tile) with one aligned copy per load, which clang lowers to one global load of the
plan's width when `buf` points to global memory. The lane's byte offset is a sum of
lane bits (formats.hip_lds fits it and checks every lane). The same text compiles with
gcc for the lane emulation (tests/plans/test_preshuffle.py)."""
from __future__ import annotations

from formats.hip.common import PRELUDE
from formats.hip.lds import _fit
from matrix_library.api import CalcError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.preshuffle import PreshufflePlan


def name_of(plan: PreshufflePlan) -> str:
    """mc_pre_<instruction>_<matrix>_<order>_w<width>[_st<R>x<C>]_b<bits>: plans that
    differ in code differ in name."""
    rows, cols = plan.supertile
    parts = ["mc_pre", plan.instruction.lower()[2:], plan.matrix.lower(), plan.order,
             f"w{plan.width}", f"b{plan.element_bits}"]
    if rows * cols > 1:
        parts.append(f"st{rows}x{cols}")
    return "_".join(parts)


def _rank(plan: PreshufflePlan) -> tuple[dict[int, int], int, int]:
    """(lane - first -> its rank among the loading lanes (mirrors as their source),
    the first lane that loads, the lanes from it that load: a power of two, aligned)."""
    rank = {lane: q for q, lane in enumerate(plan.lanes)}
    rank.update({lane: rank[src] for lane, src in plan.mirrors})
    first, count = min(rank), max(rank) - min(rank) + 1
    if len(rank) != count or count & (count - 1) or first % count:
        raise CalcError("the loading lanes are not an aligned power-of-two range of the "
                        "wave: no closed form for the HIP code")
    return {lane - first: q for lane, q in rank.items()}, first, count


def emit(plan: PreshufflePlan) -> str:
    name = name_of(plan)
    outer, inner = plan.block
    per = len(plan.lanes) * plan.width
    rank, first, count = _rank(plan)
    expr = _fit({lane: q * plan.width for lane, q in rank.items()}, count)
    regs = max(1, (plan.loads * plan.width + 3) // 4)
    lines = [PRELUDE.rstrip("\n"),
             f"// Preshuffled {plan.matrix} of {plan.instruction} ({plan.architecture}, "
             f"wave{plan.wave}): blocks of {plan.supertile[0]}x{plan.supertile[1]} tile(s) = "
             f"{outer} x {inner} {plan.element_bits}-bit values of the {plan.order}-major "
             "stored matrix,",
             f"// {plan.block_bytes} bytes each. Every lane loads {plan.loads} x {plan.load} "
             f"({plan.width} bytes); out[] holds {regs} VGPRs, tile after tile:"]
    for t, tile in enumerate(plan.tiles):
        select = f", {plan.selector} {tile.select}" if plan.selector else ""
        lines.append(f"//   tile {t} (M/N tile {tile.ir}, K tile {tile.ic}): out[{tile.vgpr}]"
                     f"{select}")
    lines += [f"#ifndef {name.upper()}_DEFINED  /* the same plan emitted twice: defined once */",
              f"#define {name.upper()}_DEFINED",
              f"MC_FN long {name}_address(unsigned int lane, int load, long br, long bc, "
              "long ld) {",
              *([f"    lane -= {first}u;"] if first else []),
              f"    return (br * (ld / {inner}) + bc) * {plan.block_bytes} + (long)load * {per}"
              f" + (long)({expr});", "}",
              f"MC_FN void {name}_load(const unsigned char* buf, unsigned int lane, long br, "
              f"long bc, long ld, unsigned int out[{regs}]) {{"]
    if count < plan.wave:
        test = f"lane - {first}u >= {count}u" if first else f"lane >= {count}u"
        lines.append(f"    if ({test}) return;  /* these lanes load nothing */")
    align = plan.width if plan.width & (plan.width - 1) == 0 else 4
    for load in range(plan.loads):
        lines.append(f"    __builtin_memcpy((unsigned char*)out + {load * plan.width}, "
                     f"__builtin_assume_aligned(buf + {name}_address(lane, {load}, br, bc, "
                     f"ld), {align}), {plan.width});")
    lines += ["}", f"#endif  /* {name.upper()}_DEFINED */", ""]
    return "\n".join(lines)
