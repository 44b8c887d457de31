"""`--emit probe`: one self-checking HIP program (host and device) that runs an
instruction, or every instruction of an architecture, under every variant of the
modifiers that move elements, and compares what it stores with a host reference.

Each variant's device code is the calculator's own fragment code (the gather/scatter
functions `--emit hip` emits for each operand, formats/hip/loads.py, under the modifiers
that shape that operand), the builtin call `--emit hip` makes (formats/hip/calls.py),
and the store of D through D's scatter function. The host half (probe_host.HOST) draws
the tiles, computes the reference and prints PASS/FAIL per variant with the first
differing element. The variants come from the modifier table's rules (`variants`):
CBSZ/ABID broadcasts, BLGP lane patterns, OPSEL halves, index sets, negations and
signedness the builtin takes as arguments, format pairs, scale selects. The same text
runs in the lane emulation of scripts/check_probe.py (gcc, MC_EMULATION defined), which
models each instruction from the layout engine's places.
"""


from __future__ import annotations

from instructions.modifiers import ABS, HIGH, LOW, MODIFIERS, NEGATE
from instructions.record import Record
from instructions.verification import REPORT

from formats.hip.calls import call_text, check_builtin, negation_acts, operand_type
from formats.hip.common import LOWER, PRELUDE, CType, Options, fragment_of, typedefs, words
from formats.hip.kernel import _negations, accumulator_type
from formats.hip.loads import index_functions, word_functions
from formats.hip.probe_asm import asm_modifiers, asm_op, by_assembly
from formats.hip.probe_host import FORMAT_CODES, HOST, TYPE_FORMATS
from matrix_library import api as matrix_api
from matrix_library.api import CalcError, Modifiers
from matrix_library.code import Fragment, bit_of, check_example, element, fragment
from matrix_library.code import shaping as shaping_of
from matrix_library.drawing import engine_operand, index_readings, rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from instructions.model import Instruction
    from instructions.modifiers import Rule

    from matrix_library.api import Place

    class Placed(Protocol):
        """An operand or an engine layout: the places of an element."""
        def places(self, row: int, col: int, block: int = 0) -> list[Place]: ...

SPECS = {spec.name: spec for spec in MODIFIERS}

# The tiles of a variant, in HOST's order (MC_A ... MC_D); the lane function's arguments.
TILES = ("A", "B", "C", "K", "SA", "SB", "D")


class Variant(Record):
    """One run of one instruction: the instruction (formats applied), its modifiers,
    the wave size, the values' semantics and the fragments of its operands."""
    inst: Instruction
    mods: Modifiers
    wave: int
    label: str
    negated: tuple[int, int, int, int]   # -A, -B, -C, |C|
    signed: tuple[bool, bool]            # integer A, B signed
    # Other readings of a sparse index: (name, what it reads, the K tile element the
    # hardware reads as each element under it, -1 for none); the probe says which D follows.
    readings: tuple[tuple[str, str, tuple[int, ...]], ...] = ()
    asm: bool = False                    # issued by inline assembly (probe_asm.py)


# ---- the variants


def _candidates(inst: Instruction, wave: int) -> list[dict[str, int]]:
    """Modifier settings that move elements or change the values (the rules' meanings)."""
    out: list[dict[str, int]] = [{}]
    fields = inst.format_fields
    if fields:
        out += [{fields[0]: a, fields[1]: b} for a in range(5) for b in range(5) if a or b]
    negations = []
    for spec in MODIFIERS:
        found = rule(spec, inst, Modifiers(), wave)
        if found is None or spec.name in fields or found.meaning == "format":
            continue
        if found.meaning == "negate":
            negations.append((spec.name, found.mask))
        else:
            out += _settings(spec.name, found)
    for bit in (1, 2, 4, 7):  # each matrix, then all: every negation spec at once
        out.append({name: mask & bit for name, mask in negations if mask & bit})
    out += [{name: mask & 4} for name, mask in negations if mask & 4]  # -C alone, |C| alone
    unique: list[dict[str, int]] = []
    for mods in out:
        if mods not in unique and (mods or not unique):
            unique.append(mods)
    return unique


def _settings(name: str, found: Rule) -> list[dict[str, int]]:
    """The values of one modifier the probe runs, by what its rule says it does."""
    out: list[dict[str, int]] = []
    if found.meaning == "signed":
        out += [{name: value} for value in (1, 2, 3) if value & found.mask == value]
    elif found.meaning == "broadcast":
        for c in range(1, found.top + 1):
            out += [{name: c}, {name: c, "abid": (1 << c) - 1}]
    elif SPECS[name].shapes or found.meaning:
        values = found.values or tuple(range(1, found.top + 1))
        out += [{name: value} for value in values]
    return out


def _semantics(inst: Instruction, mods: Modifiers, wave: int
               ) -> tuple[tuple[int, int, int, int], tuple[bool, bool]] | None:
    """(negations, signedness) of the values, or None where a negation acts on one
    16-bit half only (the probe leaves those to the emitted example)."""
    negated = [0, 0, 0, 0]
    signed = [inst.a_type.key == "i8", inst.b_type.key == "i8"]
    for spec in MODIFIERS:
        value = getattr(mods, spec.name)
        found = rule(spec, inst, mods, wave) if value else None
        if found is not None and found.meaning == "signed":
            signed = [bool(value & 1) or signed[0], bool(value & 2) or signed[1]]
    for index, matrix in enumerate(("A", "B")):
        acts = negation_acts(inst, matrix, mods, wave)
        bits = (inst.a_type if matrix == "A" else inst.b_type).bits
        whole = NEGATE in acts or (LOW in acts and (HIGH in acts or bits > 16))
        if acts and not whole:
            return None
        negated[index] = int(whole)
    acts = negation_acts(inst, "C", mods, wave)
    negated[2], negated[3] = int(NEGATE in acts), int(ABS in acts)
    return (negated[0], negated[1], negated[2], negated[3]), (signed[0], signed[1])


def _label(inst: Instruction, mods: Modifiers, wave: int) -> str:
    set_mods = " ".join(f"{name}={value}" for name, value in zip(mods._fields, mods) if value)
    return f"{inst.mnemonic} wave{wave}" + (f" {set_mods}" if set_mods else "")


def variants(inst: Instruction, wave: int) -> list[Variant]:
    """Every variant of `inst` the probe runs in `wave` (those the builtin can express);
    raises CalcError when clang has no builtin call for the instruction."""
    asm = by_assembly(inst, wave)
    out = []
    for settings in _candidates(inst, wave):
        try:
            mods = matrix_api.modifiers(settings)
            resolved = matrix_api.with_formats(inst, mods)
            check_example(resolved, mods, wave)
            if asm:
                asm_modifiers(resolved, mods, wave)
            else:
                check_builtin(resolved, wave)
        except CalcError:
            continue
        meaning = _semantics(resolved, mods, wave)
        if meaning is None or _code_negations(resolved, mods, wave):
            continue
        out.append(Variant(resolved, mods, wave, _label(inst, mods, wave), *meaning,
                           readings=_readings(resolved, mods, wave), asm=asm))
    return out


def _readings(inst: Instruction, mods: Modifiers, wave: int
              ) -> tuple[tuple[str, str, tuple[int, ...]], ...]:
    """Each other reading of the sparse index (matrix_library.drawing.index_readings) as
    the K tile element the hardware reads for each element of K under it: the element
    whose place, by the calculator's layout, is where the reading reads."""
    found = index_readings(inst, mods)
    if not found:
        return ()
    held = {(p.lane, bit): e for e, (p, bit) in enumerate(_index_places(inst, mods, wave))
            if bit < index_width(inst, wave)}
    return tuple((name, what, tuple(held.get((p.lane, bit), -1)
                                    for p, bit in _group_places(inst, layout)))
                 for name, what, layout in found)


def index_width(inst: Instruction, wave: int) -> int:
    """Bits a lane's index operand has (the assembler's src2: index_key 0's registers)."""
    return 32 * engine_operand(inst, "K", Modifiers(), wave).register_count


def _index_places(inst: Instruction, mods: Modifiers, wave: int) -> list[tuple[Place, int]]:
    """(place, its bit in the lane) of each K tile element (row-major groups), as the
    calculator reads the index under `mods`."""
    return _group_places(inst, engine_operand(inst, "K", shaping_of(inst, "K", mods, wave),
                                              wave))


def _group_places(inst: Instruction, layout: Placed) -> list[tuple[Place, int]]:
    """(place, its bit in the lane) of each K tile element of `inst`, a group of four K
    each, row by row, where `layout` reads it."""
    return [(p, 32 * p.reg + p.lo) for r in range(inst.m) for g in range(inst.k // 4)
            for p in layout.places(r, 4 * g)[:1]]


def index_past(variant: Variant) -> list[int]:
    """The K tile elements the calculator places past the index operand (index_key 1:
    a lane's later entries, which the hardware reads as 0)."""
    inst, wave = variant.inst, variant.wave
    if not inst.sparse or "K" not in _matrices(inst):
        return []
    width = index_width(inst, wave)
    return [e for e, (_, bit) in enumerate(_index_places(inst, variant.mods, wave))
            if bit >= width]


def _code_negations(inst: Instruction, mods: Modifiers, wave: int) -> bool:
    """Whether the example would negate values in code (the builtin has no argument for
    the negation): such a variant would not test the instruction's modifier."""
    for matrix in ("A", "B", "C"):
        if matrix not in _matrices(inst):
            continue
        shaping = shaping_of(inst, matrix, mods, wave)
        frag = fragment_of(inst, matrix, shaping, wave)
        if _negations(inst, matrix, mods, wave, frag, operand_type(inst, matrix, wave), "x"):
            return True
    return False


def _matrices(inst: Instruction) -> tuple[str, ...]:
    return tuple(matrix_api.matrices(inst))


# ---- one variant's code


def tile_format(variant: Variant, matrix: str) -> str:
    """The FORMAT_CODES name of a matrix's values (C of a sparse instruction: the type of
    the operand whose layout it is loaded in, source_matrix)."""
    inst = variant.inst
    if matrix == "K":
        return "U4"
    if matrix in ("SA", "SB"):
        return "E8M0"
    types = {"A": inst.a_type, "B": inst.b_type, "C": inst.c_type, "D": inst.out_type}
    dtype = types[source_matrix(inst, matrix)]
    key = dtype.key
    if key in ("iu8", "iu4"):
        on = variant.signed[0 if matrix == "A" else 1]
        return ("I" if on else "U") + key[2:]
    if key == "i8" and matrix in ("A", "B") and not variant.signed[0 if matrix == "A" else 1]:
        return "U8"
    return TYPE_FORMATS[key]


def source_matrix(inst: Instruction, matrix: str) -> str:
    """The operand whose layout a tile has: a sparse instruction's C is its D register,
    loaded in D's layout, but where C's type is not D's (v_swmmac_bf16f32: the tied
    register holds 8 VGPRs of f32 C, D's bf16 packed into the first 4), in C's own."""
    tied = matrix == "C" and inst.sparse and inst.c_type.key == inst.out_type.key
    return "D" if tied else matrix


def tile_fragment(inst: Instruction, matrix: str, mods: Modifiers, wave: int) -> Fragment:
    """The fragment a tile is loaded through (source_matrix's): a sparse instruction's
    own C is the engine's C operand as is (the checked library refuses it as a query:
    its Src2 holds the index, C sits in D's register)."""
    source = source_matrix(inst, matrix)
    shaping = shaping_of(inst, source, mods, wave)
    if source == "C" and inst.sparse:
        return fragment(engine_operand(inst, "C", shaping, wave))
    return fragment_of(inst, source, shaping, wave)


def operands(variant: Variant) -> dict[str, tuple[Fragment, CType]]:
    """{tile: (fragment, C type)} of every tile the variant uses."""
    inst, mods, wave = variant.inst, variant.mods, variant.wave
    present = _matrices(inst)
    out = {}
    for matrix in TILES:
        source = source_matrix(inst, matrix)
        if source not in present and not (source == "C" and inst.sparse):
            continue
        out[matrix] = tile_fragment(inst, matrix, mods, wave), operand_type(inst, source, wave)
    return out


def variant_code(variant: Variant, n: int) -> tuple[str, str]:
    """(device and launch code, the mc_variant initializer) of variant number n."""
    inst, wave = variant.inst, variant.wave
    prefix = f"mc_p{n}"
    ops = operands(variant)
    parts = [f"/* ---- variant {n}: {variant.label} */"]
    declare, gather, load = [], [], []
    args = {}
    for matrix in TILES:
        var = LOWER[matrix]
        if matrix not in ops:
            declare.append(f"    unsigned int {var}w[1] = {{0}};")
            continue
        frag, ctype = ops[matrix]
        rows, cols, _ = frag.shape
        name = f"{prefix}_{var}"
        options = Options(ld=cols)
        if matrix != "C" or source_matrix(inst, "C") == "C":
            parts += [index_functions(frag, options, name),
                      word_functions(frag, options, name)]
        count = words(frag, ctype)
        declare.append(f"    unsigned int {var}w[{count}] = {{0}};")
        if matrix != "D":
            fn = f"{prefix}_d" if source_matrix(inst, matrix) == "D" else name
            gather.append(f"    {fn}_gather({var}, lane, {var}w);")
            load.append(f"    {ctype.name} {var}; "
                        f"__builtin_memcpy(&{var}, {var}w, sizeof {var});")
            args[matrix] = var
    d_type = ops["D"][1]
    acc_type = accumulator_type(inst, wave, d_type)
    # D: the result's first bytes where the builtin returns the wider tied C
    copied = "sizeof dv" if acc_type == d_type else str(4 * words(ops["D"][0], d_type))
    op = asm_op(inst, variant.mods, wave, d_type) if variant.asm else [
        f"    {acc_type.name} dv = {call_text(inst, variant.mods, wave, args, '    ')};"]
    params = ", ".join(f"const void* {LOWER[m]}" for m in TILES[:-1]) + ", void* d"
    words_params = ", ".join(f"const unsigned int* {LOWER[m]}w" for m in TILES[:-1])
    parts += [
        "#if defined(__HIP__) && !defined(MC_EMULATION)",
        *typedefs([ctype for _, ctype in ops.values()] + [acc_type]),
        f"__device__ static inline void {prefix}_op({words_params}, unsigned int* dw) {{",
        *load, *op,
        f"    __builtin_memcpy(dw, &dv, {copied});", "}", "#endif",
        f"MC_FN void {prefix}_lane(int lane, {params}) {{", *declare, *gather,
        f"    MC_PROBE_OP({n}, {prefix}_op, aw, bw, cw, kw, saw, sbw, dw);",
        f"    {prefix}_d_scatter(d, lane, dw);",
        "    (void)a; (void)b; (void)c; (void)k; (void)sa; (void)sb;", "}",
        "#ifdef MC_EMULATION", f"MC_EMULATE({n}, {wave})", "#else",
        f"extern \"C\" __global__ void {prefix}_kernel({params}) {{",
        f"    {prefix}_lane((int)(MC_THREAD_X % {wave}), a, b, c, k, sa, sb, d);", "}",
        "#endif", "#ifdef MC_RUNTIME",
        f"static void {prefix}_launch(const struct mc_variant* v, unsigned char** t) {{",
        "    mc_to_device(v, t);",
        f"    {prefix}_kernel<<<1, {wave}>>>(mc_dev[0], mc_dev[1], mc_dev[2], mc_dev[3], "
        "mc_dev[4], mc_dev[5], mc_dev[6]);",
        "    mc_from_device(v, t);", "}", "#endif"]
    read = effective_b(variant)
    if read is not None:
        parts.append(f"static const int {prefix}_b_from[] = {{{','.join(map(str, read))}}};")
    for r, (_, _, k_from) in enumerate(variant.readings):
        parts.append(f"static const int {prefix}_k_from{r}[] = {{{','.join(map(str, k_from))}}};")
    past = index_past(variant)
    if past:
        parts.append(f"static const int {prefix}_k_past[] = {{{','.join(map(str, past))},-1}};")
    return "\n".join(parts), _initializer(variant, ops, prefix)


def _initializer(variant: Variant, ops: dict[str, tuple[Fragment, CType]], prefix: str) -> str:
    inst = variant.inst
    tiles = []
    for matrix in TILES:
        if matrix not in ops:
            tiles.append("{0, 0, 0, 0}")
            continue
        rows, cols, blocks = ops[matrix][0].shape
        tiles.append(f"{{MC_{tile_format(variant, matrix)}, {rows}, {cols}, {blocks}}}")
    a_op = engine_operand(inst, "A", variant.mods, variant.wave)
    blocks = a_op.shape[2]
    source = a_op.block_source or (lambda b: b)
    src = ", ".join(str(source(b)) for b in range(blocks))
    neg = ", ".join(map(str, variant.negated))
    b_from = "0"
    read = effective_b(variant)
    if read is not None:
        b_from = f"{prefix}_b_from"
    names = ", ".join(f'"{name}"' for name, _, _ in variant.readings) or "0"
    k_from = ", ".join(f"{prefix}_k_from{r}" for r in range(len(variant.readings))) or "0"
    k_past = f"{prefix}_k_past" if index_past(variant) else "0"
    return (f"    {{\"{variant.label}\", {variant.wave}, {inst.m}, {inst.n}, {inst.k}, {blocks}, "
            f"{int(inst.sparse)}, {inst.scale_k},\n     {{{', '.join(tiles)}}},\n"
            f"     {neg}, {{{src}}}, {b_from}, {{{names}}}, {{{k_from}}}, {k_past}, "
            f"{prefix}_launch}},")


def effective_b(variant: Variant) -> list[int] | None:
    """Where a BLGP lane pattern makes the instruction read a B slot that holds another
    element (a broadcast: the lanes it does not read load nothing), the tile element
    each B[k][j] of the product is (-1: a slot no lane loads, zero); None where every
    element is read where it was loaded."""
    inst, wave = variant.inst, variant.wave
    shaping = shaping_of(inst, "B", variant.mods, wave)
    op = engine_operand(inst, "B", shaping, wave)
    if not op.remapped:
        return None
    frag = fragment_of(inst, "B", shaping, wave)
    held = {}
    for lane in range(wave):
        for v in range(frag.values):
            found = element(frag, lane, v)
            if found is not None:
                held[lane, bit_of(frag, v)] = found
    rows, cols, blocks = frag.shape
    out = []
    for b in range(blocks):
        for r in range(rows):
            for c in range(cols):
                p = op.places(r, c, b)[0]
                got = held.get((p.lane, p.reg * 32 + p.lo))
                out.append(-1 if got is None else (got[2] * rows + got[0]) * cols + got[1])
    return None if out == list(range(len(out))) else out


# ---- the program


DEVICE_HOST = r"""
#ifdef MC_RUNTIME
static void* mc_dev[MC_TILES];
static void mc_fail(hipError_t e, const char* what) {
    if (e != hipSuccess) { printf("HIP error in %s: %s\n", what, hipGetErrorString(e)); exit(3); }
}
static void mc_to_device(const struct mc_variant* v, unsigned char** t) {
    for (int i = 0; i < MC_TILES; i++) {
        if (!mc_dev[i]) mc_fail(hipMalloc(&mc_dev[i], 1 << 20), "hipMalloc");
        if (v->tiles[i].rows)
            mc_fail(hipMemcpy(mc_dev[i], t[i], (size_t)mc_bytes(&v->tiles[i]),
                              hipMemcpyHostToDevice), "hipMemcpy");
    }
}
static void mc_from_device(const struct mc_variant* v, unsigned char** t) {
    mc_fail(hipGetLastError(), "the kernel launch");
    mc_fail(hipDeviceSynchronize(), "the kernel");
    mc_fail(hipMemcpy(t[MC_D], mc_dev[MC_D], (size_t)mc_bytes(&v->tiles[MC_D]),
                      hipMemcpyDeviceToHost), "hipMemcpy");
}
#endif
"""

MAIN = r"""
#ifdef MC_RUNTIME
int main(void) {
    int count = 0;
    if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
        printf("no GPU: no HIP device is present (this probe needs a %s); nothing was run\n",
               MC_TARGET);
        return 2;
    }
    hipDeviceProp_t prop;
    mc_fail(hipGetDeviceProperties(&prop, 0), "hipGetDeviceProperties");
    const size_t n = strlen(MC_TARGET);
    const char next = prop.gcnArchName[n];
    if (strncmp(prop.gcnArchName, MC_TARGET, n) != 0 || (next && next != ':')) {
        printf("wrong GPU: this probe was made for %s, device 0 is %s (%s); make the probe for "
               "that architecture\n", MC_TARGET, prop.gcnArchName, prop.name);
        return 2;
    }
    printf("device 0: %s (%s)\n", prop.name, prop.gcnArchName);
    return mc_run_all(mc_variants, (int)(sizeof mc_variants / sizeof mc_variants[0]));
}
#endif
"""


def probe(insts: list[Instruction], wave: int, command: str | None = None) -> str:
    """The probe program for `insts` (one architecture) in `wave`; instructions without
    a builtin call are listed in its header. Raises CalcError when none has one."""

    arch = matrix_api.architecture_of(insts[0])
    target = arch.target
    chosen, refused = [], []
    for inst in insts:
        try:
            chosen += variants(inst, wave)
        except CalcError as error:
            refused.append(f"//   {inst.mnemonic}: {error}")
    if not chosen:
        raise CalcError(f"--emit probe: no instruction of {arch.name} has a builtin call in "
                        f"wave{wave}")
    flags = f"--offload-arch={target}" + (f" -mwavefrontsize{wave}" if wave != arch.waves[0]
                                          else "")
    head = [f"// Generated by matrix-calculator --emit probe{': ' + command if command else ''}",
            f"// A self-checking probe of {len(chosen)} variant(s) on {target}, wave{wave}: each "
            "loads random tiles through the",
            "// calculator's fragment code, runs the builtin, stores D and compares it with a "
            "host reference.",
            f"// Build: hipcc -O2 {flags} probe.hip -o probe && ./probe",
            f"//   (or: clang -x hip {flags} -nogpulib -O2 -D__AMDGCN_WAVEFRONT_SIZE={wave} "
            "probe.hip -lamdhip64 -o probe)",
            "// It prints PASS or FAIL per variant (FAIL: the first differing element of D, "
            "expected and seen) and a",
            "// summary; exit status 0 only when every variant passes. To report a run "
            "(docs/verification.md):",
            f"//   {REPORT}."]
    readings = sorted({(name, what) for variant in chosen for name, what, _ in variant.readings})
    if readings:
        head += ["// The sparse index: where sources read it otherwise, each variant (both "
                 "index keys) also says which reading D",
                 "// follows (the tiles are drawn so that the readings give different D): "
                 "the calculator's, or"]
        head += [f"//   {name} ({what})," for name, what in readings]
        head.append("// or neither.")
    by_asm = sorted({str(variant.inst.mnemonic) for variant in chosen if variant.asm})
    if by_asm:
        head.append("// Issued by inline assembly (clang's builtin cannot pass the index "
                    "they read): " + ", ".join(by_asm))
    if refused:
        head.append("// Not probed (no builtin call):")
        head += refused
    codes, inits = [], []
    for n, variant in enumerate(chosen):
        code, init = variant_code(variant, n)
        codes.append(code)
        inits.append(init)
    macros = ["// MC_DEVICE_ONLY: the device code alone (no HIP runtime header, no host program).",
              "#ifndef MC_EMULATION",
              "#define MC_PROBE_OP(n, f, aw, bw, cw, kw, saw, sbw, dw) "
              "f(aw, bw, cw, kw, saw, sbw, dw)", "#ifndef MC_DEVICE_ONLY", "#define MC_RUNTIME 1",
              "#include <hip/hip_runtime.h>", "#endif", "#endif", f'#define MC_TARGET "{target}"']
    table = ["#if defined(MC_RUNTIME) || defined(MC_EMULATION)",
             "static const struct mc_variant mc_variants[] = {", *inits, "};", "#endif"]
    return "\n".join(head + macros + [PRELUDE, HOST, DEVICE_HOST] + codes + table + [MAIN])


__all__ = ["FORMAT_CODES", "TILES", "Variant", "index_past", "index_width", "operands", "probe",
           "source_matrix",
           "tile_format", "tile_fragment", "variant_code", "variants"]
