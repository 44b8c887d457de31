"""The exports as text (docs/exports.md): `--emit cute` as C++ (a CUTLASS-style atom's
layout), `--emit gluon` as Python that binds `layout` with Triton's Gluon, either as one
JSON document, and ck_tile's warp-gemm counts as -d's text (`--ck-tile`). Functions of
the library's answers (matrix_library/exports.py).
"""
from __future__ import annotations

from formats.json_text import text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.exports import CkTile, CuteLayout, Export, GluonLayout

    Nested = int | tuple["Nested", ...]

# Each matrix's dims as the atom names them (rows x cols of the engine), and the name
# CUTLASS gives the layout of that operand in an MMA atom's traits.
DIMS = {"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N"), "D": ("M", "N"),
        "K": ("M", "K/4 index groups"), "SA": ("M", "K/scale block"),
        "SB": ("K/scale block", "N")}
ATOM_NAMES = {"A": "ALayout", "B": "BLayout", "C": "CLayout", "D": "CLayout", "K": "ELayout",
              "SA": "SFALayout", "SB": "SFBLayout"}
SCHEMA_VERSION = 1


def _cpp(value: Nested, kind: str) -> str:
    """A shape or stride as cute:: types: an int is cute::_N, a tuple cute::Shape<...>."""
    if isinstance(value, int):
        return f"cute::_{value}"
    return f"cute::{kind}<" + ", ".join(_cpp(v, kind) for v in value) + ">"


def _lists(value: Nested) -> object:
    return value if isinstance(value, int) else [_lists(v) for v in value]


def _title(found: Export) -> str:
    inst, matrix, extent = found.inst, found.matrix, found.extent
    rows, cols = DIMS[matrix]
    size = f"{extent[0]} x {extent[1]} ({rows} x {cols})"
    if extent[2] > 1:
        size += f" x {extent[2]} blocks"
    given = [f"{name.upper()} {value}" for name, value in found.mods._asdict().items() if value]
    mods = f", {', '.join(given)}" if given else ""
    return f"{inst.name} ({inst.arch}), {matrix}: {size}, wave{found.wave}{mods}"


def cute_cpp(found: Export) -> str:
    """--emit cute: the operand's (T, V) -> offset layout as a CUTLASS atom writes it."""
    layout = found.cute
    assert layout is not None
    name = ATOM_NAMES[found.matrix]
    lines = [f"// {_title(found)}",
             f"// (T, V) -> {layout.offset}: T the lane, V the lane's values in increasing "
             "(VGPR, bit) order",
             *([f"// {layout.note}"] if layout.note else []),
             f"using {name} = cute::Layout<{_cpp(layout.shape, 'Shape')},",
             " " * (len(name) + 22) + f"{_cpp(layout.stride, 'Stride')}>;"]
    return "\n".join(lines) + "\n"


def _bases(bases: tuple[tuple[int, ...], ...]) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]"


def _linear(layout: GluonLayout) -> str:
    return (f"ttgl.DistributedLinearLayout(reg_bases={_bases(layout.reg_bases)}, "
            f"lane_bases={_bases(layout.lane_bases)}, warp_bases=[], block_bases=[], "
            f"shape={list(layout.shape)})")


def _parent(layout: GluonLayout) -> str:
    named = layout.named
    assert named is not None
    shape = list(named.instr_shape)
    if named.parent == "AMDMFMALayout":
        width = "" if named.element_bitwidth == 32 else \
            f", element_bitwidth={named.element_bitwidth}"
        return (f"ttgl.amd.AMDMFMALayout(version={named.version}, instr_shape={shape}, "
                f"transposed=False, warps_per_cta=[1, 1]{width})")
    return (f"ttgl.amd.AMDWMMALayout(version={named.version}, transposed=False, "
            f"warp_bases=[], instr_shape={shape})")


def gluon_python(found: Export) -> str:
    """--emit gluon: Python binding `layout` to the operand's distributed layout (a
    named class where Triton has one, with the same map as a linear layout beside it)."""
    layout = found.gluon
    assert layout is not None
    rows, cols = DIMS[found.matrix]
    if found.matrix == "SB":  # (B's scales as Triton holds them: [N, K/scale block])
        rows, cols = cols, rows
    dims = f"[{rows}, {cols}]" if len(layout.shape) == 2 else f"[blocks, {rows}, {cols}]"
    held = ("value r" if layout.packed == 1 else
            f"byte r (values {layout.packed}r to {layout.packed}r+{layout.packed - 1})")
    lines = [f"# {_title(found)}",
             f"# tensor {list(layout.shape)} as {dims}; register r is the lane's {held} in "
             "increasing (VGPR, bit) order"]
    if layout.packed > 1:
        lines.append(f"# 4-bit values {layout.packed} to a byte along K, as Triton packs them: "
                     "the tensor's elements are those bytes")
    if layout.note:
        lines.append(f"# {layout.note}")
    lines += ["import triton.experimental.gluon.language as ttgl", ""]
    named = layout.named
    if named is None:
        lines.append(f"layout = {_linear(layout)}")
    elif named.operand_index < 0:
        lines += [f"layout = {_parent(layout)}",
                  f"# the same map (ttgl.to_linear_layout(layout, {list(layout.shape)})):",
                  f"linear = {_linear(layout)}"]
    elif named.scale:
        factor = "" if named.scale_factor == 32 else f", scale_factor={named.scale_factor}"
        lines += [f"parent = {_parent(layout)}",
                  f"scaled = ttgl.DotOperandLayout(operand_index={named.operand_index}, "
                  f"parent=parent, k_width={named.k_width})",
                  f"layout = ttgl.amd.{named.scale}(scaled, {list(layout.shape)}{factor})",
                  f"# the same map (ttgl.to_linear_layout(layout, {list(layout.shape)})):",
                  f"linear = {_linear(layout)}"]
    else:
        lines += [f"parent = {_parent(layout)}",
                  f"layout = ttgl.DotOperandLayout(operand_index={named.operand_index}, "
                  f"parent=parent, k_width={named.k_width})",
                  f"# the same map (ttgl.to_linear_layout(layout, {list(layout.shape)})):",
                  f"linear = {_linear(layout)}"]
    return "\n".join(lines) + "\n"


def _cute_fields(layout: CuteLayout) -> dict[str, object]:
    rows, cols, blocks = layout.extent
    return {"shape": _lists(layout.shape), "stride": _lists(layout.stride),
            "extent": {"rows": rows, "cols": cols, "blocks": blocks}, "offset": layout.offset,
            "note": layout.note or None}


def _gluon_fields(layout: GluonLayout) -> dict[str, object]:
    named = layout.named
    cls: dict[str, object] | None = None
    if named is not None:
        cls = {"parent": named.parent, "version": named.version,
               "instr_shape": list(named.instr_shape),
               "element_bitwidth": named.element_bitwidth,
               "operand_index": None if named.operand_index < 0 else named.operand_index,
               "k_width": None if named.operand_index < 0 else named.k_width,
               "scale": named.scale or None,
               "scale_factor": named.scale_factor or None}
    return {"shape": list(layout.shape), "reg_bases": [list(b) for b in layout.reg_bases],
            "lane_bases": [list(b) for b in layout.lane_bases], "packed": layout.packed,
            "named": cls, "note": layout.note or None}


def export_json(found: Export) -> str:
    """--emit cute/gluon --json: the layout as one document."""
    fields = (_cute_fields(found.cute) if found.cute is not None else
              _gluon_fields(found.gluon) if found.gluon is not None else {})
    return text({"schema_version": SCHEMA_VERSION, "mode": "export",
                 "language": found.language, "architecture": found.inst.arch,
                 "instruction": found.inst.name, "matrix": found.matrix, "wave": found.wave,
                 "modifiers": dict(found.mods._asdict()), **fields})


def ck_tile_json(counts: CkTile) -> dict[str, object]:
    """One wave's counts for -d --json: {"counts": {name: value} or None, "reason"}."""
    return {"counts": dict(counts.counts) if not counts.reason else None,
            "reason": counts.reason or None, "note": counts.note or None}


def ck_tile_text(by_wave: dict[int, CkTile]) -> str:
    """-d --ck-tile: the counts a ck_tile warp-gemm attribute block holds, per wave size."""
    lines = ["", "ck_tile warp-gemm attributes (per-lane counts, read off the layouts):"]
    for wave, counts in by_wave.items():
        if counts.reason:
            lines.append(f"    wave{wave}: none: {counts.reason}")
            continue
        lines.append(f"    wave{wave}: " + ", ".join(f"{name} = {value}"
                                                     for name, value in counts.counts))
        if counts.note:
            lines.append(f"    ({counts.note})")
    return "\n".join(lines) + "\n"
