"""NVIDIA's fragments against what an NVIDIA GPU did and what CuTe says.

tests/data/nvidia/hardware_sm*.json.gz are raw answers of an H200 (scripts/nvidia_probe.sh):
per mma.sync / wgmma instruction, every thread's A, B, C register words as filled (random
exact values, no layout involved) and its D words after one run; per ldmatrix/stmatrix, a
tile of distinct values and every thread's register words. Here the calculator's layouts
read the inputs into matrices, multiply them on the host, and must find the product in D
where its layout says; every matrix move must agree slot for slot.
tests/data/nvidia/cute_layouts.json holds CuTe's thread-value layouts (MMA_Traits,
Copy_Traits) read from NVIDIA/cutlass at the commit it names.
"""
import gzip
import json
import struct
from functools import cache

import pytest

from instructions import find_architecture
from instructions.modifiers import Modifiers
from layouts import base_layout
from tests.helpers import call, data_file


@cache
def record(target):
    with gzip.open(data_file("nvidia", f"hardware_{target}.json.gz"), "rt") as handle:
        return json.load(handle)


def words(text):
    return [int(text[i:i + 8], 16) for i in range(0, len(text), 8)]


def value(key, bits):
    """The number an element's bits encode (the probe's values are small exact ones)."""
    width = {"f64": 64, "f32": 32, "tf32": 32, "s32": 32, "f16": 16, "bf16": 16, "b16": 16,
             "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "s4": 4, "u4": 4}[key]
    if key == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if key == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    if key in ("f32", "tf32"):
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if key == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if key in ("e4m3", "e5m2"):
        mant = 3 if key == "e4m3" else 2
        sign = -1 if bits & 0x80 else 1
        exp, frac = (bits & 0x7F) >> mant, bits & ((1 << mant) - 1)
        bias = 7 if key == "e4m3" else 15
        return sign * (1 + frac / (1 << mant)) * 2.0 ** (exp - bias) if exp else \
            sign * frac / (1 << mant) * 2.0 ** (1 - bias)
    if key[0] == "u" or key == "b16":
        return bits
    return bits - (1 << width) if bits >> (width - 1) else bits


def read(inst, matrix, regs, per_lane):
    """{(row, col, block): value} of `matrix` read from every lane's register words by the
    calculator's layout."""
    layout = base_layout(inst, matrix, Modifiers(), inst.wave_sizes[0])
    key = {"A": inst.a_type, "B": inst.b_type, "C": inst.c_type, "D": inst.d_type}[matrix].key
    out = {}
    for elem in layout.elements():
        (place,) = layout.places(*elem)
        raw = 0
        for i, reg in enumerate(place.regs):
            raw |= regs[place.lane * per_lane + reg] << (32 * i)
        out[elem] = value(key, (raw >> place.lo) & ((1 << place.width) - 1))
    return out


def check_product(inst, rec):
    na, nb, nc, nd = rec["words"]
    a = read(inst, "A", words(rec["A"]), na)
    if inst.kind == "wgmma":  # B from the host matrix (shared memory); C: scale-d = 0
        flat = words(rec["Bkn"])
        b = {(k, n, 0): value(inst.b_type.key, flat[k * inst.n + n])
             for k in range(inst.k) for n in range(inst.n)}
        c = dict.fromkeys(((i, j, 0) for i in range(inst.m) for j in range(inst.n)), 0)
    else:
        b = read(inst, "B", words(rec["B"]), nb)
        c = read(inst, "C", words(rec["C"]), nc)
    d = read(inst, "D", words(rec["D"]), nd)
    wrong = [(i, j, blk) for (i, j, blk), got in d.items()
             if got != c[i, j, blk] + sum(a[i, k, blk] * b[k, j, blk] for k in range(inst.k))]
    return wrong, len(d)


def check_move(inst, rec):
    """ldmatrix: thread l gives the address of tile row (13 l + 5) % 32 (row l % 8 of
    matrix l / 8); stmatrix the same, the other way."""
    load = inst.kind == "ldmatrix"
    tile, regs = (words(rec["in"]), words(rec["out"])) if load else \
        (words(rec["out"]), words(rec["in"]))
    frag = read(inst, "D", regs, inst.blocks)
    wrong = []
    for (row, col, blk), got in frag.items():
        at = ((8 * blk + row) * 13 + 5) % 32 * 8 + col
        if got != (tile[at // 2] >> (16 * (at % 2))) & 0xFFFF:
            wrong.append((row, col, blk))
    return wrong, len(frag)


def instruction(arch, spelling):
    inst = find_architecture(arch).find(spelling)
    assert inst is not None, spelling
    return inst


RECORDS = [(t, i) for t, n in (("sm80", 43), ("sm89", 16), ("sm90", 61)) for i in range(n)]


@pytest.mark.parametrize(("target", "index"), RECORDS)
def test_layout_agrees_with_the_hardware(target, index):
    rec = record(target)["records"][index]
    inst = instruction(target, rec["ptx"])
    wrong, total = (check_move if "matrix" in inst.kind else check_product)(inst, rec)
    assert total and not wrong, f"{rec['ptx']}: {len(wrong)} of {total} differ, first {wrong[:3]}"


def test_every_instruction_ran_on_hardware():
    """Each NVIDIA table line has a hardware record (wgmma: each type, at N = 8, 24, 64;
    the run covered every N, tests/data/README.md)."""
    ran = {instruction("sm90", r["ptx"]).mnemonic for t in ("sm80", "sm89", "sm90")
           for r in record(t)["records"]}
    table = find_architecture("sm90").instructions
    missing = [i.mnemonic for i in table if i.mnemonic not in ran
               and not (i.kind == "wgmma" and i.n not in (8, 24, 64))]
    assert not missing and len(table) == 524
    assert record("sm90")["device"] == "NVIDIA H200" and record("sm80")["target"] == "sm80"


@cache
def cute():
    return json.loads(data_file("nvidia", "cute_layouts.json").read_text())


def flat(shape, stride):
    if isinstance(shape, list):
        return [p for s, d in zip(shape, stride) for p in flat(s, d)]
    return [(shape, stride)]


def evaluate(shape, stride, index):
    out = 0
    for size, step in flat(shape, stride):
        out, index = out + (index % size) * step, index // size
    return out


def size(shape):
    total = 1
    for s, _ in flat(shape, shape):
        total *= s
    return total


def substitute(x, n8):
    return [substitute(y, n8) for y in x] if isinstance(x, list) else (n8 if x == "N/8" else x)


def cute_mismatches(inst, matrix, tv, rows, thr=None, transpose=False):
    """CuTe's (thread, value) -> index (col-major over `rows`) against the calculator's
    (lane, bit = value * bits) of the same element."""
    layout = base_layout(inst, matrix, Modifiers(), inst.wave_sizes[0])
    (ts, vs), (td, vd) = tv
    bad = 0
    for t in range(size(ts)):
        lane = evaluate(thr[0], thr[1], t) if thr else t
        for v in range(size(vs)):
            idx = evaluate(ts, td, t) + evaluate(vs, vd, v)
            r, c = idx % rows, idx // rows
            (place,) = layout.places(*((c, r) if transpose else (r, c)), 0)  # (quad pair 0)
            bad += (place.lane, 32 * place.reg + place.lo) != (lane, v * layout.width)
    return bad


MMA_TRAITS = sorted(k for k, v in cute()["traits"].items() if "mnk" in v
                    and tuple(v["mnk"]) not in ((8, 8, 16), (8, 8, 32)))  # (sm75 shapes: not ours)


@pytest.mark.parametrize("trait", MMA_TRAITS)
def test_mma_layouts_agree_with_cute(trait):
    entry = cute()["traits"][trait]
    m, n, k = entry["mnk"]
    inst = next(i for i in find_architecture("sm90").instructions
                if dict(i.facts).get("cute") == trait)
    thr = entry["ThrID"] if inst.blocks == 4 else None
    assert (inst.m, inst.n, inst.k) == (m, n, k)
    assert cute_mismatches(inst, "A", entry["ALayout"], m, thr) == 0
    assert cute_mismatches(inst, "B", entry["BLayout"], n, thr, transpose=True) == 0
    assert cute_mismatches(inst, "C", entry["CLayout"], m, thr) == 0


@pytest.mark.parametrize("n", range(8, 257, 8))
def test_wgmma_layouts_agree_with_cute(n):
    gmma = cute()["traits"]
    shape, stride = gmma["GMMA::CLayout_64xN"]["layout"]
    for name, a_key in (("f32.f16.f16", "ALayout_64x16"), ("f16.e4m3.e5m2", "ALayout_64x32"),
                        ("f32.tf32.tf32", "ALayout_64x8")):
        k = {"ALayout_64x16": 16, "ALayout_64x32": 32, "ALayout_64x8": 8}[a_key]
        inst = instruction("h100", f"wgmma.mma_async.m64n{n}k{k}.{name}")
        tv = (substitute(shape, n // 8), substitute(stride, n // 8))
        assert cute_mismatches(inst, "D", tv, 64) == 0
        assert cute_mismatches(inst, "A", gmma["GMMA::" + a_key]["layout"], 64) == 0


@pytest.mark.parametrize("atom", ["U32x1_LDSM_N", "U32x2_LDSM_N", "U32x4_LDSM_N",
                                  "U16x2_LDSM_T", "U16x4_LDSM_T", "U16x8_LDSM_T"])
def test_matrix_moves_agree_with_cute(atom):
    """CuTe's ldmatrix register layouts are in bits of 8x8 b16 matrices stored by rows
    (stmatrix's are the same layouts, copy_traits_sm90.hpp)."""
    (ts, vs), (td, vd) = cute()["traits"]["COPY::SM75_" + atom]["layout"]
    num = size(vs) // 32
    for op in ("ldmatrix", "stmatrix"):
        inst = instruction("sm90", f"{op}.m8n8.x{num}{'.trans' if atom[-1] == 'T' else ''}.b16")
        layout = base_layout(inst, "D", Modifiers(), 32)
        for t in range(32):
            for v in range(size(vs)):
                idx = evaluate(ts, td, t) + evaluate(vs, vd, v)
                (place,) = layout.places(idx % 1024 // 128, idx % 128 // 16, idx // 1024)
                assert (place.lane, 32 * place.reg + place.lo + idx % 16) == (t, v)


def test_the_ptx_isa_example():
    """PTX ISA 9.7.14.5.8 (m16n8k16 .f16 A): A[5][6] is a0 of thread groupID * 4 +
    threadID_in_group = 5 * 4 + 3 = 23: register 0, bits 15:0."""
    status, out, err = call(["-a", "sm80", "-i", "mma.m16n8k16.f32.f16.f16.f32", "-g", "-A",
                             "-I", "5", "-K", "6"])
    assert (status, err) == (0, "") and out.endswith("A[5][6] = v0{23}.[15:0]\n"), out


@pytest.mark.parametrize("spelling", ["MMA.SYNC.ALIGNED.M16N8K16.ROW.COL.F32.F16.F16.F32",
                                      "mma.m16n8k16.row.col.f32.f16.f16.f32",
                                      "mma.sync.aligned.m16n8k16.f32.f16.f16.f32"])
def test_ptx_spellings(spelling):
    assert instruction("a100", spelling).mnemonic == "mma.m16n8k16.f32.f16.f16.f32"


def test_architectures_and_their_tables():
    assert instruction("l40s", "mma.m16n8k32.f32.e4m3.e5m2.f32").arch == "SM89"
    assert find_architecture("sm80").find("mma.m16n8k32.f32.e4m3.e4m3.f32") is None
    assert find_architecture("sm89").find("wgmma.mma_async.m64n8k16.f32.f16.f16") is None
    assert instruction("h200", "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16").blocks == 4
    status, out, err = call(["-a", "sm80", "-i", "mma.m8n8k4.f16.f16.f16.f16", "-g", "-A"])
    assert status == 2 and out == "" and "mma.m8n8k4.f16.f16.f16.f16" in err.lower()


def test_wgmma_has_only_register_operands():
    status, out, err = call(["-a", "h100", "-i", "wgmma.mma_async.m64n64k16.f32.f16.f16",
                             "-g", "-B"])
    assert (status, out) == (2, "") and "no B register operand" in err
    status, out, err = call(["-a", "h100", "-i", "wgmma.mma_async.m64n64k16.f32.f16.f16",
                             "-g", "-D", "-I", "45", "-J", "11"])
    # row 45: warp 2 (rows 32-47), groupID 5, + 8 (d2, d3 of an n-block); column 11:
    # n-block 1 (d4-d7), threadID_in_group 1, odd: lane 64 + 4 * 5 + 1, register 4 + 2 + 1
    assert (status, err) == (0, "") and out.endswith("D[45][11] = v7{85}\n"), out


@pytest.mark.parametrize(("argv", "says"), [
    (["-a", "h100", "-i", "wgmma.mma_async.m64n8k16.f32.f16.f16", "-g", "-D", "-o"],
     "only A and D in registers"),
    (["-a", "sm80", "-i", "mma.m16n8k16.f32.f16.f16.f32", "--emit", "hip"], "AMD targets"),
    (["-a", "sm80", "-i", "ldmatrix.m8n8.x2.b16", "-g", "-A"], "query D"),
    (["-a", "h100", "-i", "wgmma.mma_async.m64n8k16.f32.f16.f16", "-g", "-A", "-w", "32"],
     "use 128")])
def test_what_nvidia_instructions_refuse(argv, says):
    status, out, err = call(argv)
    assert (status, out) == (2, "") and says in err and err.count("\n") == 1, err


def test_detail_prints_the_facts_with_sources():
    status, out, err = call(["-a", "h100", "-i", "wgmma.mma_async.m64n64k16.f32.bf16.bf16", "-d"])
    assert (status, err) == (0, "")
    assert "PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" in out
    assert "cute::SM90::GMMA::MMA_64x64x16_F32BF16BF16_RS" in out
    assert "include/cute/atom/mma_traits_sm90_gmma.hpp" in out
    assert "Threads: 128 (a warpgroup" in out and "        D: 32 (FP32" in out


def test_ptx_spelling_is_what_ran():
    """-d's PTX line for each recorded instruction is the spelling the probe compiled."""
    from instructions.nvidia import ptx_spelling
    for target in ("sm80", "sm89", "sm90"):
        for rec in record(target)["records"]:
            assert ptx_spelling(instruction("sm90", rec["ptx"])) == rec["ptx"]
