"""--emit hip with --copy: the copy code of a plan, then the read code of the
same tile (formats/hip/lds.py). `<name>_copy(g, lds, lane, wave)` copies the wave's part
of the tile from the global tile at `g` (its first element) into LDS (`lds`: the start of
LDS; the tile at its base), each instruction of the plan one C statement: a global or
buffer load and DS writes (register route: plain copies clang lowers to the planned
instructions), or clang's direct-to-LDS and asynchronous builtins; `<name>_wait()` waits
for the copies and synchronises the workgroup. Positions are computed in the lane (the
tile's address function, its swizzle included, or its inverse on direct routes: each
swizzle here is its own inverse). Without __AMDGCN__ (gcc) the builtins are emulated by
copies with the hardware's addressing, for the lane-emulation check."""
from __future__ import annotations

import re

from formats.hip.lds import _name as read_name
from formats.hip.lds import emit_lds
from matrix_library.api import CalcError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.copies import LdsCopy

_WAIT = {"direct": "__builtin_amdgcn_s_waitcnt(0);  /* vmcnt(0): direct loads are not tracked */",
         "async": "__builtin_amdgcn_s_wait_asynccnt(0);",
         "tdm": "__builtin_amdgcn_s_wait_tensorcnt(0);"}


def name_of(found: LdsCopy) -> str:
    """mc_copy_<read plan's name parts>_<route instructions>[_w<waves><split>][_<order>ld<ld>]."""
    copy = found.copy
    parts = [read_name(found.read).replace("mc_lds_", "mc_copy_", 1), copy.load.name]
    if copy.write:
        parts.append(copy.write.name)
    if found.lds_type:
        parts.append(found.lds_type)
    if copy.waves > 1:
        parts.append(f"w{copy.waves}{copy.wave_split[0]}")
    parts.append(f"{copy.global_order}{copy.ld}")
    for pair in found.read.tile.xor:
        parts.append(f"x{pair[0]}_{pair[1]}")
    return re.sub(r"\W", "_", "_".join(parts))


def _align(values: list[int]) -> int:
    align = 16
    for value in values:
        while value % align:
            align //= 2
    return max(align, 1)


def _position(found: LdsCopy) -> list[str]:
    """C lines: `<name>_global(row, col)` (the global byte offset of a tile position),
    `<name>_lds(row, col)` (its LDS byte address), `<name>_tile_of(e, &row, &col)` (the
    tile position of the e-th element in global order) and `<name>_stored(p, &row, &col)`
    (the tile position whose element LDS byte p of the tile holds; 0: padding)."""
    copy, tile = found.copy, found.read.tile
    name, bits = name_of(found), copy.element_bits
    stride = (tile.cols + tile.pad) * bits // 8
    to_bytes = f" * {bits // 8}" if bits % 8 == 0 else f" * {bits} / 8"  # (elements -> bytes)
    to_elements = f" / {bits // 8}u" if bits % 8 == 0 else f" * 8u / {bits}u"
    lines = [f"MC_FN unsigned int {name}_col(unsigned int row, unsigned int col) {{"]
    if tile.swizzle:
        vec, per_phase, max_phase = tile.swizzle
        lines.append(f"    col = ((col / {vec}u) ^ ((row / {per_phase}u) % {max_phase}u)) * "
                     f"{vec}u + col % {vec}u;")
    lines += ["    (void)row;", "    return col;", "}",
              f"MC_FN unsigned int {name}_xor(unsigned int a) {{"]
    for dst, src in tile.xor:
        lines.append(f"    a ^= ((a >> {src}u) & 1u) << {dst}u;")
    lines += ["    return a;", "}"]
    k_axis = copy.k_axis
    mn_k = "row, col" if tile.order == "k" else "col, row"  # (mn, k)
    i_j = "mn, k" if k_axis else "k, mn"
    index = "i * LD + j" if copy.global_order == "row" else "j * LD + i"
    lines += [
        f"MC_FN unsigned long {name}_global(unsigned int row, unsigned int col) {{",
        f"    const unsigned long mn = {mn_k.split(', ')[0]}, k = {mn_k.split(', ')[1]};",
        f"    const unsigned long i = {i_j.split(', ')[0]}, j = {i_j.split(', ')[1]};",
        f"    return ({index.replace('LD', str(copy.ld) + 'ul')})"
        f"{to_bytes.replace(' /', 'ul /')}ul;",
        "}",
        f"MC_FN unsigned int {name}_lds(unsigned int row, unsigned int col) {{",
        f"    return {tile.base}u + {name}_xor(row * {stride}u + {name}_col(row, col)"
        f"{to_bytes.replace(' /', 'u /')}u);", "}"]
    extent = (tile.cols, tile.rows) if tile.order == "k" else (tile.rows, tile.cols)  # (k, mn)
    rows, cols = (extent[1], extent[0]) if k_axis else extent  # the matrix's i, j extents
    inner = cols if copy.global_order == "row" else rows
    outer, within = ("i", "j") if copy.global_order == "row" else ("j", "i")
    mn, k = ("i", "j") if k_axis else ("j", "i")
    tile_row, tile_col = (mn, k) if tile.order == "k" else (k, mn)
    lines += [
        f"MC_FN void {name}_tile_of(unsigned int e, unsigned int* row, unsigned int* col) {{",
        f"    const unsigned int {outer} = e / {inner}u, {within} = e % {inner}u;",
        f"    *row = {tile_row}; *col = {tile_col};", "}",
              f"MC_FN int {name}_stored(unsigned int p, unsigned int* row, unsigned int* col) {{",
              f"    const unsigned int q = {name}_xor(p);",
              f"    *row = q / {stride}u;",
              f"    if (q % {stride}u >= {tile.cols * bits // 8}u || *row >= {tile.rows}u) "
              "return 0;",
              f"    *col = {name}_col(*row, q % {stride}u{to_elements});",
              "    return 1;", "}"]
    return lines


def _groups(found: LdsCopy, count: int) -> list[str]:
    """C lines computing `grp`, the group instruction n of the wave copies."""
    copy = found.copy
    per = -(-count // copy.waves)
    if copy.wave_split == "block":
        return [f"        const unsigned int grp = w * {per}u + n;",
                f"        if (grp >= {count}u) continue;"]
    return [f"        const unsigned int grp = n * {copy.waves}u + w;",
            f"        if (grp >= {count}u) continue;"]


def _body(found: LdsCopy, arch_word3: int | None) -> tuple[list[str], int]:
    """The statements of <name>_copy and the instructions per wave."""
    copy, tile, name = found.copy, found.read.tile, name_of(found)
    load, wave = copy.load, found.read.wave
    steps = [s for s in copy.steps if s.route != "write"]
    waves = {s.wave for s in steps}
    per_wave = max(sum(1 for s in steps if s.wave == w) for w in waves)
    lines = ["    const unsigned int w = MC_UNIFORM(wave);",
             "#if defined(__clang__)", "#pragma unroll", "#endif",
             f"    for (unsigned int n = 0; n < {per_wave}u; ++n) {{"]
    buffer = load.memory == "buffer"
    if buffer and arch_word3 is None:
        raise CalcError(f"no buffer resource word 3 is recorded for {found.architecture}: no HIP "
                        "for buffer loads here (copy with a global load)")
    rsrc = (f"__builtin_amdgcn_make_buffer_rsrc((void*)g, (short)0, 0x7fffffff, "
            f"{arch_word3:#010x})" if buffer else "")
    if copy.route == "direct":
        span, size = wave * load.lds_stride, load.bytes
        count = -(-tile.bytes(copy.element_bits) // span)
        lines += _groups(found, count)
        lines += [f"        const unsigned int m0 = {tile.base}u + grp * {span}u;",
                  "        unsigned int row, col;",
                  f"        if (!{name}_stored(grp * {span}u + lane * {load.lds_stride}u, &row, "
                  "&col)) continue;",
                  f"        const unsigned long goff = {name}_global(row, col);",
                  "#if defined(__AMDGCN__)"]
        if buffer:
            lines.append(f"        {load.builtin}({rsrc}, (MC_LDS void*)(lds + m0), {size}, "
                         "(unsigned int)goff, 0, 0, 0);")
        else:
            lines.append(f"        {load.builtin}((MC_GLOBAL void*)(g + goff), "
                         f"(MC_LDS void*)(lds + m0), {size}, 0, 0);")
        lines += ["#else  /* the hardware's addressing: M0 + lane x stride */",
                  f"        __builtin_memcpy(lds + m0 + lane * {load.lds_stride}u, g + goff, "
                  f"{size});", "#endif", "    }"]
        return lines, per_wave
    size = load.bytes
    elems = size * 8 // copy.element_bits
    chunks = sum(1 for s in steps for lane in s.lanes if lane.bytes)
    count = -(-chunks // wave)
    galign = _align([lane.global_at for s in steps for lane in s.lanes
                     if lane.global_at is not None] + [copy.ld * copy.element_bits // 8])
    lines += _groups(found, count)
    lines += [f"        const unsigned int q = grp * {wave}u + lane;",
              f"        if (q >= {chunks}u) continue;",
              "        unsigned int row, col;",
              f"        {name}_tile_of(q * {elems}u, &row, &col);",
              f"        const unsigned long goff = {name}_global(row, col);"]
    if copy.route == "async":
        vec = {16: "int __attribute__((ext_vector_type(4)))",
               8: "int __attribute__((ext_vector_type(2)))", 4: "int"}[size]
        lines += [f"        const unsigned int loff = {name}_lds(row, col);",
                  "#if defined(__AMDGCN__)",
                  f"        {{ typedef {vec} mc_v;",
                  f"          {load.builtin}((MC_GLOBAL mc_v*)(g + goff), (MC_LDS mc_v*)(lds + "
                  "loff), 0, 0); }",
                  "#else", f"        __builtin_memcpy(lds + loff, g + goff, {size});", "#endif",
                  "    }"]
        return lines, per_wave
    assert copy.write is not None
    piece = copy.write.bytes
    lines.append(f"        unsigned char v[{size}];")
    if buffer:
        vec = {16: "unsigned int __attribute__((ext_vector_type(4)))",
               12: "unsigned int __attribute__((ext_vector_type(3)))",
               8: "unsigned int __attribute__((ext_vector_type(2)))", 4: "unsigned int"}[size]
        lines += ["#if defined(__AMDGCN__)",
                  f"        {{ {vec} x = {load.builtin}({rsrc}, (unsigned int)goff, 0, 0);",
                  f"          __builtin_memcpy(v, &x, {size}); }}",
                  "#else", f"        __builtin_memcpy(v, g + goff, {size});", "#endif"]
    else:
        lines.append(f"        __builtin_memcpy(v, __builtin_assume_aligned(g + goff, {galign}), "
                     f"{size});")
    align = 16 if piece == 12 else piece
    for p in range(size // piece):
        lines += [f"        {name}_tile_of(q * {elems}u + {p * piece * 8 // copy.element_bits}u, "
                  "&row, &col);" if p else "",
                  f"        __builtin_memcpy(__builtin_assume_aligned(lds + {name}_lds(row, col), "
                  f"{align}), v + {p * piece}, {piece});"]
    lines.append("    }")
    return [line for line in lines if line], per_wave


def _tdm_body(found: LdsCopy) -> tuple[list[str], int]:
    """The statements of <name>_copy for tensor_load_to_lds: wave w builds the descriptor
    of its block of rows (groups 0 and 1, 2D) and issues one load; without __AMDGCN__ the
    mover is emulated from the descriptor's own fields (sizes, stride, padding)."""
    copy, tile, name = found.copy, found.read.tile, name_of(found)
    assert found.tdm is not None
    fields = {f.name: f for f in found.tdm.fields}
    d0 = found.tdm.group1[0]
    size = copy.element_bits // 8
    inner = fields["tile_dim0"].value
    per = -(-tile.rows // copy.waves)
    pad = (fields["pad_interval"].value, fields["pad_amount"].value) if "pad_interval" in \
        fields else None
    padded = f"x + x / {pad[0] * 4}u * {pad[1] * 4}u" if pad else "x"
    lines = [f"    const unsigned int w = MC_UNIFORM(wave), first = w * {per}u;",
             f"    if (first >= {tile.rows}u) return;",
             f"    const unsigned int rows = first + {per}u > {tile.rows}u ? {tile.rows}u - first "
             f": {per}u;",
             f"    const unsigned int x = first * {inner * size}u;",
             f"    const unsigned int lds_at = {tile.base}u + ({padded});",
             f"    const unsigned long goff = {name}_global(first, 0);",
             f"    const unsigned int g1[8] = {{{d0:#010x}u, {copy.ld & 0xFFFF}u << 16, "
             f"{copy.ld >> 16}u | rows << 16, rows >> 16 | {inner}u << 16, rows, {copy.ld}u, "
             "0u, 0u};",
             "    (void)lane;",
             "#if defined(__AMDGCN__)",
             "    { typedef int mc_v4 __attribute__((ext_vector_type(4)));",
             "      typedef int mc_v8 __attribute__((ext_vector_type(8)));",
             "      const unsigned long ga = (unsigned long)(g + goff);",
             "      const unsigned int la = (unsigned int)(unsigned long)(MC_LDS void*)lds "
             "+ lds_at;",
             "      mc_v4 g0 = {1, (int)la, (int)ga, (int)((ga >> 32) & 0x1ffffffu) | (2 << 30)};",
             "      mc_v8 d1 = {(int)g1[0], (int)g1[1], (int)g1[2], (int)g1[3], (int)g1[4], "
             "(int)g1[5], (int)g1[6], (int)g1[7]};",
             "      mc_v4 z = {0, 0, 0, 0};",
             f"      {copy.load.builtin}(g0, d1, z, z, 0); }}",
             "#else  /* the mover, from the descriptor's fields */",
             "    { const unsigned int bytes = 1u << (g1[0] >> 16 & 3u);",
             "      const unsigned int interval = 4u << ((g1[0] >> 22 & 7u) + 1u);",
             "      const unsigned int amount = 4u * ((g1[0] >> 25 & 127u) + 1u);",
             "      const unsigned int dim0 = g1[3] >> 16, dim1 = g1[4] & 0xffffu;",
             "      for (unsigned int r = 0; r < dim1; ++r)",
             "          for (unsigned int c = 0; c < dim0; ++c) {",
             "              unsigned int y = (r * dim0 + c) * bytes;",
             "              if (g1[0] >> 20 & 1u) y += y / interval * amount;",
             "              __builtin_memcpy(lds + lds_at + y, g + goff + ((unsigned long)r * "
             "g1[5] + c) * bytes, bytes);",
             "          }",
             "    }",
             "#endif"]
    return lines, 1


def emit_copy(found: LdsCopy) -> str:
    """The HIP/C code of the copy and of the read of the same tile."""
    copy = found.copy
    name = name_of(found)
    body, per_wave = _tdm_body(found) if copy.route == "tdm" else \
        _body(found, found.buffer_word3 or None)
    wait = _WAIT.get(copy.route, "")
    lines = [emit_lds(found.read).rstrip("\n"),
             f"// Copy of {found.matrix}'s tile into LDS for {found.instruction} "
             f"({found.architecture}): {copy.load.name}"
             + (f" + {copy.write.name}" if copy.write else "") +
             f", {per_wave} per wave, {copy.waves} wave(s) split {copy.wave_split}; the global "
             f"tile {copy.global_order}-major with ld {copy.ld}.",
             "#ifndef MC_COPY_PRELUDE",
             "#define MC_COPY_PRELUDE",
             "#if defined(__AMDGCN__)",
             "#define MC_LDS __attribute__((address_space(3)))",
             "#define MC_GLOBAL __attribute__((address_space(1)))",
             "#define MC_UNIFORM(x) __builtin_amdgcn_readfirstlane(x)",
             "#else",
             "#define MC_UNIFORM(x) (x)",
             "#endif",
             "#endif",
             f"#ifndef {name.upper()}_DEFINED",
             f"#define {name.upper()}_DEFINED"]
    lines += _position(found)
    lines += [f"MC_FN void {name}_copy(const unsigned char* g, unsigned char* lds, "
              "unsigned int lane, unsigned int wave) {"] + body + ["}"]
    lines += [f"MC_FN void {name}_wait(void) {{", "#if defined(__AMDGCN__)",
              f"    {wait}" if wait else "    /* the compiler waits for its own DS writes */",
              "    MC_SYNC();", "#endif", "}", f"#endif  /* {name.upper()}_DEFINED */", ""]
    return "\n".join(lines)
