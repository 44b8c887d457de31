"""The emitted HIP index arithmetic, compiled with the host C compiler, against the engine.

One C file holds the index functions (formats.hip.index_functions, the text the HIP
output contains) of every operand of every instruction of every architecture and wave
size, plus a sample of modifiers; its main() prints, for every lane and value, the tile
offset and the register bit. Every (lane, value) must name an element the engine places
at that lane and bit, and every slot the engine fills must be loaded exactly as often as
it holds values. Linear-layout bases are expanded and compared with the engine the
same way. Skips without a C compiler, except under CI=true.
"""
import os
import shutil
import subprocess

import pytest

from formats import hip
from layouts import Modifiers, operand
from layouts.core import NONE
from layouts.fragment import bit_of, fragment, source_lane
from layouts.linear import bases_of
from layouts.modifiers import BLGP_SOURCE
from matrix_library import api as mc


def hip_architectures():
    """The architectures --emit hip writes for: those with a clang target (not NVIDIA's)."""
    return [arch for arch in mc.architectures() if arch.target]


def _compiler():
    for name in (os.environ.get("CC"), "gcc", "cc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    if os.environ.get("CI") == "true":
        pytest.fail("no C compiler (gcc/cc/clang) found: CI must run the HIP harness")
    pytest.skip("no C compiler (gcc/cc/clang): cannot compile the emitted index arithmetic")


def _cdna_modifiers(inst):
    """_sample_modifiers of the MFMA/SMFMAC fields: CBSZ/ABID broadcasts, ABID index
    sets, BLGP lane patterns."""
    out = []
    if inst.cbsz and not inst.sparse and inst.blocks > 1:
        for cbsz in range(1, inst.blocks.bit_length()):
            for abid in range(1 << cbsz):
                out.append(("A", Modifiers(cbsz=cbsz, abid=abid)))
    if inst.sparse:
        for abid in (1, 2, 3):
            try:
                mc.register_count(inst, "K", mods={"abid": abid})
            except mc.CalcError:
                continue
            out.append(("K", Modifiers(abid=abid)))
    if inst.blgp and inst.out_type.bits != 64:
        out += [("B", Modifiers(blgp=blgp)) for blgp in range(1, 8)]
    return out


def _format_modifiers(inst):
    """The format fields: CBSZ/BLGP (CDNA4), matrix_a/b_fmt (gfx1250)."""
    first, second = inst.format_fields
    return [(m, Modifiers(**{first: a, second: b}))
            for a in range(5) for b in range(5) for m in ("A", "B")]


def _sample_modifiers(inst):
    """(matrix, mods) beyond the defaults that change a layout or the emitted loads."""
    wmma = inst.kind in ("wmma", "swmmac")
    out = [] if wmma else _cdna_modifiers(inst)
    if inst.f8f6f4:
        out += _format_modifiers(inst)
    if inst.scaled:  # the scales' byte (CDNA4 OPSEL) or lane-half (gfx1250) selects
        out += [("SA", Modifiers(opsel_a=s)) for s in range(1, 4)]
        out += [("SB", Modifiers(opsel_b=s)) for s in range(1, 4)]
        out += [("SA", Modifiers(matrix_a_scale=1)), ("SB", Modifiers(matrix_b_scale=1))]
    if wmma and inst.opsel:
        if inst.arch == "RDNA3":
            out += [("C", Modifiers(opsel=4)), ("D", Modifiers(opsel=4))]
        else:
            out += [("K", Modifiers(opsel=s)) for s in range(1, 4)]
    return out


def _cases():
    cases = []
    for arch in hip_architectures():
        for wave in arch.waves:
            for inst in arch.instructions:
                for matrix in mc.matrices(inst):
                    cases.append((inst, matrix, Modifiers(), wave))
                for matrix, mods in _sample_modifiers(inst):
                    try:
                        mc.register_count(inst, matrix, mods=mods, wave=wave,
                                          output_calc=matrix == "D")
                    except mc.CalcError:
                        continue
                    cases.append((inst, matrix, mods, wave))
    return cases


def _engine(op):
    """{(lane, bit): set of elements} the hardware reads there (modifiers applied)."""
    slots = {}
    for elem in op.layout.elements():
        for p in op.places(*elem):
            slots.setdefault((p.lane, p.reg * 32 + p.lo), set()).add(elem)
    return slots


def _to_engine(op, frag, elem, bit):
    """A compressed (memory) element and its bit -> the engine's element and slot bit."""
    none = [f for f in op.layout.factors if f.dest == NONE]
    if not none:
        return elem, bit
    sub = op.layout.width // frag.bits
    row, col, block = elem
    if none[0].coord == "col":
        return (row, col // sub * none[0].size, block), bit - col % sub * frag.bits
    return (row // sub * none[0].size, col, block), bit - row % sub * frag.bits


ORDER_LD = {"row": 3, "col": 5}  # padding of the leading dimension beyond the tile


def VECTOR_LD(cols):
    """A leading dimension every vector path accepts (a multiple of 128 elements)."""
    return -(-cols // 128) * 128 + 128


def _tile_bytes(frag, ld):
    rows, _, blocks = frag.shape
    return -(-blocks * rows * ld * frag.bits // 8) + 1


def pattern(i):
    """Byte i of the test tile, and word i of the test fragment (low byte)."""
    return (i * 131 + 7) % 251


HARNESS_MAIN = r"""
static unsigned char TILE[1 << 20] __attribute__((aligned(16)));
int main(void) {
    for (unsigned t = 0; t < sizeof TABLE / sizeof TABLE[0]; ++t) {
        const struct row* r = &TABLE[t];
        printf("I %d %s", r->n, r->order == 'r' ? "row" : "col");
        for (int l = 0; l < r->wave; ++l) for (int v = 0; v < r->count; ++v)
            printf(" %ld %d", r->offset(l, v, r->ld), r->bit(v));
        printf("\n");
    }
    for (unsigned t = 0; t < sizeof WORDS / sizeof WORDS[0]; ++t) {
        const struct words* r = &WORDS[t];
        for (int i = 0; i < r->bytes; ++i) TILE[i] = (unsigned char)((i * 131 + 7) % 251);
        printf("W %d %ld", r->n, r->ld);
        for (int l = 0; l < r->wave; ++l) {
            unsigned int w[64] = {0};
            r->gather(TILE, r->ld, l, w);
            for (int i = 0; i < r->words; ++i) printf(" %u", w[i]);
        }
        printf("\n");
        if (!r->scatter) continue;
        for (int i = 0; i < r->bytes; ++i) TILE[i] = 0;
        for (int l = 0; l < r->wave; ++l) {
            unsigned int w[64];
            for (int i = 0; i < 64; ++i)
                w[i] = 0x01010101u * (unsigned)((((l * 64 + i) * 131 + 7) % 251));
            r->scatter(TILE, r->ld, l, w);
        }
        printf("S %d %ld", r->n, r->ld);
        for (int i = 0; i < r->bytes; ++i) printf(" %d", TILE[i]);
        printf("\n");
    }
    return 0;
}
"""


def build_harness(folder):
    """Compile and run the harness: (cases, lines of its output)."""
    cc = _compiler()
    cases = _cases()
    src = ["#include <stdio.h>", hip.PRELUDE]
    table = []
    words = []
    for n, (inst, matrix, mods, wave) in enumerate(cases):
        resolved = mc.with_formats(inst, mods)
        frag = fragment(operand(resolved, matrix, mods, wave))
        # column-major for the unmodified operands (the offsets do not depend on mods)
        for order in ("row", "col") if mods == Modifiers() else ("row",):
            name = f"c{n}{order[0]}"
            options = hip.Options(order=order)
            src.append(hip.index_functions(frag, options, name))
            rows, cols, _ = frag.shape
            ld = (cols if order == "row" else rows) + ORDER_LD[order]
            table.append(f"    {{{name}_offset, {name}_bit, {n}, '{order[0]}', {wave}, "
                         f"{frag.values}, {ld}}},")
            if order == "row":
                src.append(hip.word_functions(frag, options, name))
                scatter = f"{name}_scatter" if matrix in ("C", "D") else "0"
                # a padded ld (the value-by-value path) and an aligned one (vector moves)
                for width in (ld, VECTOR_LD(cols)):
                    words.append(f"    {{{name}_gather, {scatter}, {n}, {wave}, "
                                 f"{frag.registers + 1}, {width}, "
                                 f"{_tile_bytes(frag, width)}}},")
    src += ["struct row { long (*offset)(int, int, long); int (*bit)(int); int n; char order;",
            "             int wave, count; long ld; };",
            "static const struct row TABLE[] = {"] + table + ["};",
            "struct words { void (*gather)(const void*, long, int, unsigned int*);",
            "               void (*scatter)(void*, long, int, const unsigned int*);",
            "               int n, wave, words; long ld; int bytes; };",
            "static const struct words WORDS[] = {"] + words + ["};",
            HARNESS_MAIN]
    (folder / "harness.c").write_text("\n".join(src) + "\n")
    subprocess.run([cc, "-O0", "-Wall", "-Werror", "-o", str(folder / "harness"),
                    str(folder / "harness.c")], check=True, capture_output=True)
    out = subprocess.run([str(folder / "harness")], check=True, capture_output=True,
                         text=True).stdout
    return cases, out.splitlines()


@pytest.mark.slow
def test_emitted_c_matches_engine(tmp_path):
    """One harness build (not one per xdist worker) for the three checks below."""
    harness = build_harness(tmp_path)
    check_coverage(harness)
    check_index_arithmetic(harness)
    check_gather_and_scatter(harness)


def check_coverage(harness):
    cases, lines = harness
    seen = {(c[0].arch, c[0].mnemonic, c[1], c[3]) for c in cases}
    for arch in hip_architectures():
        for wave in arch.waves:
            for inst in arch.instructions:
                for matrix in mc.matrices(inst):
                    assert (arch.name, inst.mnemonic, matrix, wave) in seen
    assert sum(line.startswith("I ") for line in lines) >= len(cases)


def check_index_arithmetic(harness):
    """Every (lane, value) names an element the engine places at that lane and bit, and
    every engine slot is loaded."""
    cases, lines = harness
    checked = 0
    for line in lines:
        fields = line.split()
        if fields[0] != "I":
            continue
        n, order, values = int(fields[1]), fields[2], list(map(int, fields[3:]))
        inst, matrix, mods, wave = cases[n]
        op = operand(mc.with_formats(inst, mods), matrix, mods, wave)
        frag = fragment(op)
        rows, cols, _ = frag.shape
        ld = (cols if order == "row" else rows) + ORDER_LD[order]
        engine = _engine(op)
        loaded = {}
        at = 0
        for lane in range(wave):
            for _v in range(frag.values):
                off, bit = values[at], values[at + 1]
                at += 2
                if off < 0:
                    continue
                outer_extent = rows if order == "row" else cols
                block, rest = divmod(off, outer_extent * ld)
                outer, inner = divmod(rest, ld)
                assert inner < (cols if order == "row" else rows), (inst.mnemonic, matrix)
                elem = (outer, inner, block) if order == "row" else (inner, outer, block)
                elem, slot = _to_engine(op, frag, elem, bit)
                where = (inst.arch, inst.mnemonic, matrix, mods, wave, order, lane)
                assert elem in engine.get((lane, slot), ()), where
                loaded[(lane, slot)] = loaded.get((lane, slot), 0) + 1
                checked += 1
        assert set(loaded) == set(engine), (inst.mnemonic, matrix, mods, wave)
    assert checked > 1_000_000


# BLGP's loads: the lane source and the guard of each pattern (lanes a guard leaves out
# load nothing; "rotate48": lane X holds lane (X + 48) % 64's elements).
BLGP_LOAD = {1: (None, ("lane", 32, 0)), 2: (None, ("lane", 32, 1)), 3: ("rotate48", None),
             4: (None, ("lane", 16, 0)), 5: (None, ("lane", 16, 1)),
             6: (None, ("lane", 16, 2)), 7: (None, ("lane", 16, 3))}


def test_blgp_load_table_inverts_the_lane_source():
    for blgp, (source, guard) in BLGP_LOAD.items():
        frag = fragment(operand(mc.find_instruction("cdna2", "v_mfma_f32_32x32x8f16"),
                                "B", Modifiers(blgp=blgp)))
        assert (frag.lane_source, frag.guard) == (source, guard)
        for lane in range(64):
            if guard is not None and (lane // guard[1]) % (64 // guard[1]) != guard[2]:
                assert all(BLGP_SOURCE[blgp](x) != lane for x in range(64))
                continue
            assert BLGP_SOURCE[blgp](source_lane(frag, lane)) == lane


def _xor(vec, index, bases):
    """`vec` XOR the bases of the set bits of `index`."""
    for b, base in enumerate(bases):
        if index >> b & 1:
            vec = [x ^ y for x, y in zip(vec, base)]
    return vec


@pytest.mark.slow
def test_linear_layout_bases_match_engine():
    """Wherever bases exist, XOR-expanding them gives the engine's element for every
    lane and value; the linear-layout module checks that itself, so here the bases are
    re-expanded independently from the engine's places."""
    linear = other = 0
    for arch in hip_architectures():
        for wave in arch.waves:
            for inst in arch.instructions:
                for matrix in mc.matrices(inst):
                    op = operand(inst, matrix, Modifiers(), wave)
                    result = bases_of(op)
                    if result.bases is None:
                        assert result.reason
                        other += 1
                        continue
                    linear += 1
                    frag = fragment(op)
                    engine = _engine(op)
                    regs, lanes = result.bases["register"], result.bases["lane"]
                    for lane in range(wave):
                        for v in range(frag.values):
                            vec = _xor([0] * len(result.out_dims), v, regs)
                            vec = _xor(vec, lane, lanes)
                            elem = (vec[1], vec[2], vec[0]) if len(vec) == 3 else (
                                vec[0], vec[1], 0)
                            bit = bit_of(frag, v)
                            elem, slot = _to_engine(op, frag, elem, bit)
                            assert elem in engine[(lane, slot)], (inst.mnemonic, matrix)
    assert linear > 300 and other >= 4


def test_linear_layout_refusals_say_why():
    inst = mc.find_instruction("cdna2", "v_mfma_f32_32x32x8f16")
    rotated = bases_of(operand(inst, "B", Modifiers(blgp=3)))
    assert rotated.bases is None and "rotates" in rotated.reason
    broadcast = bases_of(operand(mc.find_instruction("cdna3", "v_mfma_f32_32x32x4_2b_f16"),
                                 "A", Modifiers(cbsz=1, abid=1)))
    assert broadcast.bases is None and "broadcast" in broadcast.reason
    short = bases_of(operand(mc.find_instruction("rdna4", "v_wmma_i32_16x16x16_iu4"), "A",
                             Modifiers(), 64))
    assert short.bases is None and "lanes 0-31" in short.reason


def test_known_bases():
    """CDNA3 16x16x16 f16 A (the guides' layout: lane % 16 is the row, lane / 16 picks
    four K values, v the value): register -> col 1, 2; lane -> rows 1..8, col 4, 8."""
    inst = mc.find_instruction("cdna3", "v_mfma_f32_16x16x16_f16")
    result = bases_of(operand(inst, "A"))
    assert result.bases == {"register": [[0, 1], [0, 2]],
                            "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]]}


def _value(tile, at, bits):
    """The element at offset `at` of a packed tile (the emitted code's convention)."""
    if bits < 8:
        bit = at * bits
        x = tile[bit // 8] | tile[bit // 8 + 1] << 8
        return (x >> bit % 8) & ((1 << bits) - 1)
    size = bits // 8
    return int.from_bytes(bytes(tile[at * size:(at + 1) * size]), "little")


def check_gather_and_scatter(harness):
    """The C word packing (sub-byte fields, fp6 across two VGPRs, 64-bit pairs, 16-bit
    halves) puts each element's bits at the bit the engine gives, and the C/D stores put
    each bit field back at its element's offset."""
    from layouts.fragment import element
    cases, lines = harness
    gathered = scattered = 0
    for line in lines:
        kind, n, *numbers = line.split()
        if kind == "I":
            continue
        ld, numbers = int(numbers[0]), numbers[1:]
        inst, matrix, mods, wave = cases[int(n)]
        frag = fragment(operand(mc.with_formats(inst, mods), matrix, mods, wave))
        rows, cols, _ = frag.shape
        size = _tile_bytes(frag, ld)
        mask = (1 << frag.bits) - 1
        values = list(map(int, numbers))
        if kind == "W":
            tile = [pattern(i) for i in range(size)]
            per_lane = frag.registers + 1
            for lane in range(wave):
                got = values[lane * per_lane:(lane + 1) * per_lane]
                word = sum(w << 32 * i for i, w in enumerate(got))
                want = 0
                for v in range(frag.values):
                    elem = element(frag, lane, v)
                    if elem is None:
                        continue
                    row, col, block = elem
                    at = block * rows * ld + row * ld + col
                    want |= _value(tile, at, frag.bits) << bit_of(frag, v)
                assert word == want, (inst.mnemonic, matrix, mods, wave, lane)
                gathered += 1
        else:
            tile = [0] * size
            for lane in range(wave):
                words = sum((0x01010101 * pattern(lane * 64 + i)) << 32 * i
                            for i in range(64))
                for v in range(frag.values):
                    row, col, block = element(frag, lane, v)
                    at = block * rows * ld + row * ld + col
                    x = words >> bit_of(frag, v) & mask
                    tile[at * frag.bits // 8:(at + 1) * frag.bits // 8] = \
                        x.to_bytes(frag.bits // 8, "little")
            assert values == tile, (inst.mnemonic, matrix, wave)
            scattered += 1
    assert gathered > 200_000 and scattered > 700
