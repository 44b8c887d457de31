"""--emit hip with --store-d: the chosen route of an epilogue store plan as
two C functions. `<name>_write(lds, lane, d)` converts the lane's D registers d[] (32-bit
words) into the stored type and, on the LDS routes, writes them to `lds` (a __shared__
region of the plan's bytes for this wave); `<name>_store(tile, ld, lds, lane, d)` reads
back and stores into the global tile (`ld`: its leading dimension in values; the direct
route stores from d[] at once). Every lane of the wave runs _write before any runs
_store (one wave, in program order: LDS accesses of a wave complete in order).

Addresses are sums of lane bits (formats.hip_lds fits them and checks every lane). The
same text compiles with gcc: the conversions are then the host models of
scripts/check_convert_types.py and a transpose load is emulated through its lane map."""
from __future__ import annotations

from formats.hip.common import PRELUDE
from formats.hip.convert_types import HIP_TYPES, PAIRS
from formats.hip.lds import TRANSPOSE_BUILTINS, _fit
from matrix_library.api import CalcError
from matrix_library.lds_lanes import lane_map as lane_map_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matrix_library.answers import Route, Store
    from matrix_library.epilogue import StorePlan

GPU_TYPES = "MC_EPILOGUE_TYPES"


def name_of(plan: StorePlan) -> str:
    return "_".join(["mc_store", plan.instruction.lower()[2:], f"w{plan.wave}",
                     plan.store_type, plan.order, plan.chosen.name.replace("-", "_")])


def _pack(plan: StorePlan, registers: int) -> list[str]:
    """Lines converting d[] (D's words) into w[] (the stored values, packed in order)."""
    if not plan.pack:
        return [f"    for (int k = 0; k < {registers}; ++k) w[k] = d[k];"]
    pair = PAIRS.get(plan.store_type)
    if pair is None:
        raise CalcError(f"no HIP code converts D into {plan.store_type} here")
    if plan.bits == 16:
        return [f"    for (int k = 0; k < {registers}; ++k) w[k] = {pair}(d[2 * k], "
                "d[2 * k + 1]);"]
    return [f"    for (int k = 0; k < {registers}; ++k) w[k] = {pair}(d[4 * k], d[4 * k + 1])"
            f" | {pair}(d[4 * k + 2], d[4 * k + 3]) << 16;"]


def _fitted(values: dict[int, int], wave: int) -> str:
    return _fit(values, wave)


def _global(stores: list[Store], plan: StorePlan) -> str:
    """The byte address in the tile of these stores (one per lane), a C expression of
    lane and ld: (i * ld + j) * size (row-major) or (j * ld + i) * size."""
    i = _fitted({s.lane: s.elements[0][0] for s in stores}, plan.wave)
    j = _fitted({s.lane: s.elements[0][1] for s in stores}, plan.wave)
    outer, inner = (i, j) if plan.order == "row" else (j, i)
    return f"((long)({outer}) * ld + (long)({inner})) * {plan.bits // 8}"


def _numbered(items: tuple[Store, ...]) -> dict[int, list[Store]]:
    out: dict[int, list[Store]] = {}
    for s in items:
        out.setdefault(s.number, []).append(s)
    return out


def _uniform_source(stores: list[Store]) -> int:
    sources = {s.source for s in stores}
    if len(sources) != 1:
        raise CalcError("the lanes store from different registers: no single HIP statement")
    return sources.pop()


def _transpose_read(route: Route, plan: StorePlan, number: int, size: int,
                    r: str) -> list[str]:
    name = next(n for n, _ in route.counts if n in TRANSPOSE_BUILTINS)
    builtin, element, count = TRANSPOSE_BUILTINS[name]
    lane_map = lane_map_of(plan.engine.arch, name)
    group = count * (32 if element == "int" else 16) // plan.bits
    base = number * plan.wave * group * size
    reads = [f"    {{ const unsigned char* at = lds + {base} + lane * {group * size}u;",
             "#if defined(__AMDGCN__)",
             f"      typedef {element} mc_v __attribute__((ext_vector_type({count})));",
             "      typedef __attribute__((address_space(3))) mc_v mc_lds_v;",
             f"      mc_v v = {builtin}((mc_lds_v*)at);",
             f"      __builtin_memcpy({r}, &v, {group * size}); }}",
             "#else  /* the hardware's gather, by its lane map (source lane, element) */",
             "      (void)at;"]
    elem = _fitted({lane: lane_map(lane, 0)[1] for lane in range(plan.wave)}, plan.wave)
    for e in range(group):
        src = _fitted({lane: lane_map(lane, e)[0] for lane in range(plan.wave)}, plan.wave)
        reads.append(f"      __builtin_memcpy({r} + {e * size}, lds + {base} + ({src}) * "
                     f"{group * size}u + ({elem}) * {size}u, {size}); }}"
                     if e == group - 1 else
                     f"      __builtin_memcpy({r} + {e * size}, lds + {base} + ({src}) * "
                     f"{group * size}u + ({elem}) * {size}u, {size});")
    reads.append("#endif")
    return reads


def emit(plan: StorePlan) -> str:
    route = plan.chosen
    name = name_of(plan)
    size = plan.bits // 8
    d_regs = plan.engine.d_registers
    w_regs = max(1, d_regs * 32 // plan.engine.d_bits * plan.bits // 32)
    lines = [PRELUDE.rstrip("\n"),
             f"#if defined(__HIP__) && !defined({GPU_TYPES})",
             f"#define {GPU_TYPES}",
             "#ifndef MC_F32",
             "#define MC_F32(x) __builtin_bit_cast(float, (unsigned int)(x))",
             "#endif",
             HIP_TYPES.rstrip("\n"), "#endif",
             f"// Epilogue of D for {plan.instruction} ({plan.architecture}, wave{plan.wave}): "
             f"route {route.name} ({', '.join(f'{c} x {n}' for n, c in route.counts)}),",
             f"// D as {plan.store_type} into a {plan.order}-major tile; lds: {route.lds_bytes} "
             "bytes per wave. Run _write in every lane of the wave, then _store.",
             f"#ifndef {name.upper()}_DEFINED",
             f"#define {name.upper()}_DEFINED",
             f"MC_FN void {name}_write(unsigned char* lds, unsigned int lane, "
             f"const unsigned int d[{d_regs}]) {{",
             f"    unsigned int w[{w_regs}];"]
    lines += _pack(plan, w_regs)
    for number, writes in _numbered(route.writes).items():
        at = _fitted({s.lane: s.address for s in writes}, plan.wave)
        lines.append(f"    __builtin_memcpy(lds + ({at}), (unsigned char*)w + "
                     f"{_uniform_source(writes)}, {writes[0].bytes});  /* write {number} */")
    if not route.writes:
        lines += ["    (void)lds; (void)lane; (void)w;"]
    lines += ["}",
              f"MC_FN void {name}_store(unsigned char* tile, long ld, const unsigned char* lds,"
              f" unsigned int lane, const unsigned int d[{d_regs}]) {{"]
    if route.name == "direct":
        lines += ["    (void)lds;", f"    unsigned int w[{w_regs}];"] + _pack(plan, w_regs)
        for number, stores in _numbered(route.stores).items():
            lines.append(f"    __builtin_memcpy(tile + {_global(stores, plan)}, (unsigned char*)w"
                         f" + {_uniform_source(stores)}, {stores[0].bytes});  /* store "
                         f"{number} */")
    else:
        lines.append("    (void)d;")
        reads: dict[int, dict[int, int]] = {}
        for lane, number, address in route.reads:
            reads.setdefault(number, {})[lane] = address
        for number, stores in _numbered(route.stores).items():
            width = stores[0].bytes
            lines.append(f"    unsigned char r{number}[{width}];")
            if route.name == "lds":
                at = _fitted(reads[number], plan.wave)
                lines.append(f"    __builtin_memcpy(r{number}, lds + ({at}), {width});")
            else:
                lines += _transpose_read(route, plan, number, size, f"r{number}")
            lines.append(f"    __builtin_memcpy(tile + {_global(stores, plan)}, r{number}, "
                         f"{width});  /* store {number} */")
    lines += ["}", f"#endif  /* {name.upper()}_DEFINED */", ""]
    return "\n".join(lines)
