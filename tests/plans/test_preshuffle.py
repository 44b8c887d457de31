"""Preshuffled operands: the seed's cases (the MI355X write-up's B and B-scale
shuffles), every plan checked slot by slot against the layout engine by running its NumPy
function on distinct values and emulating each lane's loads, the inverse, the named
schemes against their sources' chains, the command line, the JSON schema and the
--emit hip code (gcc lane emulation; clang-22's instructions recorded)."""
import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from formats.hip.preshuffle import emit, name_of
from layouts import COORDINATES, operand
from matrix_library import api as mc
from matrix_plans.preshuffle.presets import scheme, scheme_map
from tests.helpers import REPO, call, need_module
from tests.helpers.hip_records import CLANG, device_asm, recorded, regenerate

SCALE16 = ("cdna4", "v_mfma_scale_f32_16x16x128_f8f6f4")


def plan(arch, name, matrix, **options):
    return mc.preshuffle(mc.find_instruction(arch, name), matrix, **options)


# ---- the seed's cases (shared seed 003, "Matrix core layouts")

def test_seed_b_fp4_one_dwordx4_per_lane():
    """B of v_mfma_scale_f32_16x16x128_f8f6f4 with fp4 weights (--blgp 4): each lane
    loads its 16 bytes with one global_load_dwordx4, lane l at byte 16 l of a 1 KiB block;
    the write-up's host shuffle and aiter's (16, 16) layout are the same permutation."""
    found = plan(*SCALE16, "B", mods={"blgp": 4}, preset="seed-b")
    assert (found.load, found.loads, found.width, found.block_bytes) == \
        ("global_load_dwordx4", 1, 16, 1024)
    assert found.lanes == tuple(range(64)) and found.element_bits == 4
    assert found.preset.agrees
    assert plan(*SCALE16, "B", mods={"blgp": 4}, preset="aiter").preset.agrees
    assert "x.reshape(o // 16, 16, i // 64, 4, 16)" in found.numpy
    lane5 = [s for s in found.slots if s.lane == 5]
    assert {s.element.j for s in lane5} == {5} and [s.element.k for s in lane5] == \
        list(range(32))   # lane 5: N 5, K 0..31 (lane 21: K 32..63)


def test_seed_b_scale_2x2_supertile():
    """B scales of a 2x2 supertile: one 4-byte load per lane; tile (N tile n, K tile k)
    in byte 2k + n, picked with OPSEL_B 2k + n (the write-up's kernel indexes lid * 4 +
    (k tile & 1) * 2 + (n tile & 1)); the chain is the write-up's and aiter's."""
    found = plan(*SCALE16, "SB", supertile="2x2", preset="seed-b-scale")
    assert (found.load, found.loads, found.width) == ("global_load_dword", 1, 4)
    assert found.selector == "opsel_b"
    assert [(t.ir, t.ic, t.select, t.vgpr) for t in found.tiles] == \
        [(0, 0, 0, 0), (1, 0, 1, 0), (0, 1, 2, 0), (1, 1, 3, 0)]
    assert found.preset.agrees
    assert plan(*SCALE16, "SB", supertile="2x2", preset="aiter-scale").preset.agrees
    assert "x.reshape(o // 32, 2, 16, i // 8, 2, 4)" in found.numpy
    assert "transpose(0, 3, 5, 2, 4, 1)" in found.numpy
    for s in found.slots:   # byte 2k + n of lane l: scale (K block 4k + l // 16, N 16n + l % 16)
        k, n = divmod((s.register * 32 + s.bits[0]) // 8, 2)
        assert (s.element.j, s.element.k) == (16 * n + s.lane % 16, 4 * k + s.lane // 16)


# ---- every slot against the layout engine, through the NumPy function

CASES = [  # (arch, instruction, matrix, options)
    (*SCALE16, "B", {"mods": {"blgp": 4}}),
    (*SCALE16, "B", {}),
    (*SCALE16, "B", {"mods": {"blgp": 2}}),                   # fp6: 12-byte loads
    (*SCALE16, "A", {"mods": {"cbsz": 4}, "supertile": "1x2"}),
    (*SCALE16, "SB", {"supertile": "2x2"}),
    (*SCALE16, "SA", {"supertile": "2x2"}),
    (*SCALE16, "SB", {"supertile": "2x4"}),                    # two VGPRs of OPSEL bytes
    (*SCALE16, "SB", {}),                                      # one byte: global_load_ubyte
    ("cdna4", "v_mfma_scale_f32_32x32x64_f8f6f4", "B", {"mods": {"blgp": 4}}),
    ("cdna4", "v_mfma_scale_f32_32x32x64_f8f6f4", "SB", {"supertile": "1x4"}),
    ("gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "SB", {"supertile": "1x2"}),
    ("gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "SA", {}),  # lanes 0-15 only
    ("gfx1250", "v_wmma_scale16_f32_16x16x128_f8f6f4", "SB", {"supertile": "2x1"}),
    ("gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "B", {"mods": {"matrix_b_fmt": 4}}),
    ("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "B", {"supertile": "1x2"}),
    ("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "A", {"order": "col"}),
    ("cdna3", "v_mfma_f32_32x32x2_f32", "B", {}),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "A", {"load_width": 4}),
    ("rdna3", "v_wmma_f32_16x16x16_f16", "B", {}),              # lanes 16-31 copy 0-15
    ("rdna4", "v_wmma_f32_16x16x16_f16", "A", {}),
]


def _case_id(case):
    arch, name, matrix, options = case
    return f"{arch}-{name}-{matrix}-" + "-".join(f"{k}{v}" for k, v in options.items())


def _expected_bits(inst, matrix, found, mods):
    """{(lane, register bit): (stored row, stored column, bit of the value)} for every
    value of every tile of a block, from the layout engine's places (Operand.places),
    with each tile's selector value as the plan names it."""
    want = {}
    k_col = COORDINATES[matrix][1] == "k"
    for tile in found.tiles:
        picked = mods._replace(**{found.selector: tile.select}) if found.selector else mods
        op = operand(inst, matrix, picked, found.wave)
        rows, cols, _ = op.shape
        mn_ext, k_ext = (rows, cols) if k_col else (cols, rows)
        for r in range(rows):
            for c in range(cols):
                mn, k = (r, c) if k_col else (c, r)
                mn, k = mn + tile.ir * mn_ext, k + tile.ic * k_ext
                outer, inner = (mn, k) if found.k_inner else (k, mn)
                for place in op.places(r, c, 0):
                    for b in range(found.element_bits):
                        bit = (place.reg + tile.vgpr) * 32 + place.lo + b
                        want[place.lane, bit] = (outer, inner, b)
    return want


def _stored(np, found):
    """A stored matrix of distinct item numbers: two block rows by three block columns
    (items: elements, or bytes of a sub-byte type)."""
    item_bits = max(8, found.element_bits)
    outer, inner = found.block
    inner_items = inner * found.element_bits // item_bits
    return np.arange(2 * outer * 3 * inner_items, dtype=np.int64).reshape(
        2 * outer, 3 * inner_items)


def _check_lane_loads(inst, matrix, options, found, stored, buffer):
    """Every bit each lane loads from `buffer` (at the plan's addresses, aligned) holds
    what the layout engine puts in that lane's register bits (stored: the item numbers)."""
    item_bits = max(8, found.element_bits)
    outer, inner = found.block
    big_i = stored.shape[1]
    flat = buffer.ravel()
    mods = mc.modifiers(options.get("mods"))
    formatted = mc.with_formats(inst, mods)
    want = _expected_bits(formatted, matrix, found, mods)
    rank = {lane: q for q, lane in enumerate(found.lanes)}
    rank.update({lane: rank[src] for lane, src in found.mirrors})
    per = len(found.lanes) * found.width
    for br in range(2):
        for bc in range(3):
            base = (br * 3 + bc) * found.block_bytes
            for (lane, bit), (o, i, b) in want.items():
                load, at = divmod(bit, found.width * 8)
                start = base + load * per + rank[lane] * found.width
                assert start % found.width == 0 or found.width == 12
                pos = start * 8 + at          # the bit of the buffer the lane reads
                o, i = o + br * outer, i + bc * inner
                logical = (o * big_i * item_bits) + i * found.element_bits + b
                assert flat[pos // item_bits] == logical // item_bits, (lane, bit)
                assert pos % item_bits == logical % item_bits, (lane, bit)
    assert len(want) == len(found.lanes) * found.loads * found.width * 8 + \
        len(found.mirrors) * found.loads * found.width * 8


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_numpy_function_and_lane_loads_match_the_layout(case):
    """The emitted NumPy function, run on a stored matrix of distinct item numbers (two
    block rows by three block columns), gives a buffer whose every byte each lane loads
    (at the plan's addresses, aligned) holds what the layout engine puts in that lane's
    register bits; unpreshuffle restores the matrix; neither function loops."""
    np = need_module("numpy", "the NumPy functions of preshuffle plans run in the tests")
    arch, name, matrix, options = case
    inst = mc.find_instruction(arch, name)
    found = mc.preshuffle(inst, matrix, **options)
    assert not re.search(r"\b(for|while)\b", found.numpy)
    scope = {}
    exec(found.numpy, scope)
    stored = _stored(np, found)
    buffer = scope["preshuffle"](stored)
    assert (scope["unpreshuffle"](buffer) == stored).all()
    _check_lane_loads(inst, matrix, options, found, stored, buffer)


def _torch_shim():
    """tests/shims/torch.py loaded as a module named `torch` (not put in sys.modules: a
    real PyTorch stays importable beside it)."""
    path = Path(__file__).parents[1] / "shims" / "torch.py"
    spec = importlib.util.spec_from_file_location("torch", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _torches():
    """The PyTorch modules to run the functions with: the NumPy shim, and PyTorch itself
    where it is installed (it is not a test dependency)."""
    found = [pytest.param("shim", id="shim")]
    if importlib.util.find_spec("torch") is not None:
        found.append(pytest.param("torch", id="torch"))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("which", _torches())
@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_torch_function_is_the_numpy_chain(case, which):
    """The emitted PyTorch function (the same chain: reshape, permute, contiguous), run on
    a tensor of the same distinct item numbers, gives the NumPy function's buffer item for
    item, which every lane's loads check against the layout engine; unpreshuffle restores
    the tensor; neither function loops nor uses NumPy's names (the shim has only
    PyTorch's methods, so transpose(*axes) fails there)."""
    np = need_module("numpy", "the PyTorch shim and the reference buffer are NumPy arrays")
    torch = _torch_shim() if which == "shim" else need_module("torch", "PyTorch run for real")
    arch, name, matrix, options = case
    inst = mc.find_instruction(arch, name)
    found = mc.preshuffle(inst, matrix, **options)
    assert not re.search(r"\b(for|while|transpose|numpy|np)\b", found.torch)
    numpy_scope, torch_scope = {}, {}
    exec(found.numpy, numpy_scope)
    exec(found.torch, torch_scope)
    stored = _stored(np, found)
    tensor = torch.from_numpy(stored.copy())
    shuffled = torch_scope["preshuffle"](tensor)
    assert shuffled.is_contiguous() and tuple(shuffled.shape) == stored.shape
    buffer = shuffled.numpy()
    assert (buffer == numpy_scope["preshuffle"](stored)).all()
    _check_lane_loads(inst, matrix, options, found, stored, buffer)
    back = torch_scope["unpreshuffle"](shuffled)
    assert back.is_contiguous() and (back.numpy() == stored).all()


def test_torch_shim_has_torch_names_only():
    """The shim refuses NumPy's spelling of the chain, a wrong permutation and a shape
    that does not fit, as PyTorch does: a wrong chain cannot pass the test above."""
    np = need_module("numpy", "the PyTorch shim is built on NumPy")
    torch = _torch_shim()
    t = torch.from_numpy(np.arange(24).reshape(2, 3, 4))
    with pytest.raises(AttributeError):
        t.transpose(2, 0, 1)
    with pytest.raises(RuntimeError):
        t.permute(0, 1)
    with pytest.raises(RuntimeError):
        t.reshape(5, 5)
    view = t.permute(2, 0, 1)
    assert not view.is_contiguous() and view.contiguous().is_contiguous()
    assert (view.contiguous().reshape(4, 6).numpy() ==
            np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1).reshape(4, 6)).all()


def test_formula_both_ways_matches_the_slots():
    """The index formula (evaluated as Python) sends every slot's element to the buffer
    position the slot is loaded from, and back."""
    found = plan(*SCALE16, "SB", supertile="2x2", ld=64)
    forward, back = found.formula
    outer, inner = found.block
    for s in found.slots:
        r, c = s.element.j, s.element.k   # N, K: the stored matrix's row and column
        scope = {"r": r + outer, "c": c + 2 * inner}   # block (1, 2) of a 64-wide matrix
        exec(forward, scope)
        block = (1 * (64 // inner) + 2) * outer * inner
        assert scope["p"] == block + s.offset // found.element_bits
        back_scope = {"p": scope["p"]}
        exec(back, back_scope)
        assert (back_scope["r"], back_scope["c"]) == (r + outer, c + 2 * inner)


# ---- the named schemes against their sources

def _source_chain(key, x, item):
    """The scheme as its source writes it (transcribed from the code the fact sheet
    cites), on a NumPy array of N x K items."""
    n, k = x.shape
    if key == "aiter":      # aiter/ops/shuffle.py shuffle_weight, layout (16, 16)
        return x.reshape(-1, n // 16, 16, k // 32, 32 // item, item) \
            .transpose(0, 1, 3, 4, 2, 5).reshape(n, k)
    if key in ("aiter-scale", "seed-b-scale"):   # shuffle_scale / e8m0_shuffle; Bs_swiz
        return x.reshape(n // 32, 2, 16, k // 8, 2, 4).transpose(0, 3, 5, 2, 4, 1) \
            .reshape(n, k)
    if key == "aiter-gfx1250":   # _shuffle_weight_gfx1250
        return x.reshape(n // 16, 16, k // 32, 2, 16).transpose(0, 2, 3, 1, 4).reshape(n, k)
    if key == "aiter-gfx1250-scale":   # _shuffle_scale_tile_gfx1250 (16, 4)
        return x.reshape(-1, n // 16, 16, k // 4, 4).transpose(0, 1, 3, 2, 4).reshape(n, k)
    if key == "seed-b":      # B_swiz
        return x.reshape(-1, 16, k // 16, 16).transpose(0, 2, 1, 3).reshape(n, k)
    raise KeyError(key)


@pytest.mark.parametrize("key, item_bytes", [
    ("aiter", 1), ("aiter", 2), ("aiter-scale", 1), ("seed-b-scale", 1),
    ("aiter-gfx1250", 1), ("aiter-gfx1250-scale", 1), ("seed-b", 1)])
def test_scheme_table_is_its_source(key, item_bytes):
    """The table's chain of each scheme places every item where its source's code does."""
    np = need_module("numpy", "the schemes' source chains are NumPy reshapes")
    n, k = 64, 256
    x = np.arange(n * k).reshape(n, k)
    theirs = _source_chain(key, x, 16 // item_bytes).ravel()
    ours = scheme_map(scheme(key), n, k, item_bytes, (16, 32))
    where = np.empty(n * k, dtype=np.int64)
    where[np.array(ours)] = np.arange(n * k)
    assert (where == theirs).all()


def test_ck_scheme_is_its_source():
    """CK's shuffle_b (ck_tile, CDNA): view {N/NW, NW, K/KW, div, KW/div}, permute
    {0, 2, 3, 1, 4}, div 4 for NW 16, 2 for NW 32."""
    np = need_module("numpy", "the scheme's source chain is a NumPy reshape")
    for nw, kw in ((16, 32), (32, 16), (16, 16)):
        div = 2 if nw == 32 else 4
        n, k = 64, 128
        x = np.arange(n * k).reshape(n, k)
        theirs = x.reshape(n // nw, nw, k // kw, div, kw // div).transpose(0, 2, 3, 1, 4).ravel()
        ours = scheme_map(scheme("ck"), n, k, 1, (nw, kw))
        where = np.empty(n * k, dtype=np.int64)
        where[np.array(ours)] = np.arange(n * k)
        assert (where == theirs).all()


@pytest.mark.parametrize("arch, name, matrix, options, verdict", [
    (*SCALE16, "B", {"mods": {"blgp": 4}, "preset": "aiter"}, "agrees"),
    (*SCALE16, "B", {"preset": "aiter"}, "agrees"),                     # fp8: two loads
    ("cdna4", "v_mfma_f32_16x16x32_bf16", "B", {"preset": "aiter"}, "agrees"),
    ("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "B", {"preset": "aiter", "supertile": "1x2"},
     "k_only"),
    ("cdna3", "v_mfma_f32_16x16x16_bf16", "B", {"preset": "aiter", "supertile": "1x2"},
     "k_only"),
    ("cdna4", "v_mfma_scale_f32_32x32x64_f8f6f4", "SB", {"preset": "aiter-scale"},
     "disagrees"),
    ("gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "B",
     {"mods": {"matrix_b_fmt": 4}, "preset": "aiter-gfx1250"}, "agrees"),
    ("gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "SB", {"preset": "aiter-gfx1250-scale"},
     "agrees"),
    ("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "B", {"preset": "ck"}, "agrees"),
    ("cdna3", "v_mfma_f32_32x32x16_fp8_fp8", "B", {"preset": "ck"}, "agrees"),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "B", {"preset": "ck"}, "agrees"),
])
def test_scheme_verdicts(arch, name, matrix, options, verdict):
    """Each scheme agrees with the instruction's layout, or the answer says where not:
    aiter's (16, 16) gives CDNA3's 8-byte K runs 16 contiguous bytes (right only when A
    is shuffled alike); aiter's 2x16-lane scale tile is not the 32x32 MFMA's layout."""
    found = plan(arch, name, matrix, **options).preset
    got = "agrees" if found.agrees else "k_only" if found.k_only else "disagrees"
    assert got == verdict, found
    assert bool(found.first) == (verdict != "agrees")


# ---- the command line, JSON and errors

BASE = ["-a", "cdna4", "-i", "v_mfma_scale_f32_16x16x128_f8f6f4"]


def test_cli_text_and_json():
    status, out, err = call(BASE + ["-B", "--blgp", "4", "--preshuffle"])
    assert status == 0 and not err
    assert "1 x global_load_dwordx4 (16 bytes, aligned)" in out
    assert "def preshuffle(x):" in out and "def unpreshuffle(y):" in out
    assert out.count("def preshuffle(x):") == 2 and ".contiguous().reshape(o, i)" in out
    status, out, _ = call(BASE + ["--B-scale", "--preshuffle", "--supertile", "2x2", "--json"])
    doc = json.loads(out)
    assert doc["mode"] == "preshuffle" and doc["load"]["instruction"] == "global_load_dword"
    assert "y.permute(0, 3, 5, 2, 4, 1).contiguous()" in doc["torch"]
    assert [t["select"] for t in doc["tiles"]] == [0, 1, 2, 3]
    jsonschema = need_module("jsonschema", "the --json output is validated against its schema")
    schema = json.loads((REPO / "formats" / "output.schema.json").read_text())
    jsonschema.validate(doc, schema)


@pytest.mark.parametrize("argv, needle", [
    (["-B", "--preshuffle", "--load-width", "32"], "--load-width 32"),
    (["-B", "--preshuffle", "--supertile", "0x2"], "supertile"),
    (["-B", "--preshuffle", "--preset", "nope"], "--preset 'nope'"),
    (["-D", "--preshuffle"], "preshuffle"),
    (["--B-scale", "--preshuffle", "--opsel-b", "1"], "opsel_b"),
    (["-B", "--supertile", "2x2"], "--preshuffle"),
    (["-B", "--preshuffle", "--ld", "100"], "--ld 100"),
    (["-a", "cdna3", "-i", "v_mfma_f32_32x32x2_f32", "-B", "--blgp", "3", "--preshuffle"],
     "rotates the lanes"),
    (["-a", "cdna3", "-i", "v_mfma_f32_32x32x2_f32", "-B", "--blgp", "1", "--preshuffle"],
     "32 of the 64 elements"),
    (["-a", "gfx1250", "-i", "v_swmmac_f32_16x16x64_f16", "-k", "--preshuffle", "--supertile",
      "1x2"], "cannot place this many tiles"),
    (["-a", "cdna4", "-i", "v_smfmac_f32_16x16x32_f16", "-k", "--preshuffle", "--supertile",
      "1x2"], "not contiguous from bit 0"),
])
def test_cli_errors_are_one_line(argv, needle):
    status, out, err = call(BASE + argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and needle in err, err


# ---- --emit hip: gcc lane emulation and clang-22's instructions

HARNESS = """
#include <stdio.h>
int main(void) {
    for (unsigned int lane = 0; lane < %(wave)du; ++lane)
        for (int load = 0; load < %(loads)d; ++load)
            for (long br = 0; br < 2; ++br)
                for (long bc = 0; bc < 3; ++bc)
                    printf("%%u %%d %%ld %%ld %%ld\\n", lane, load, br, bc,
                           %(name)s_address(lane, load, br, bc, %(ld)d));
    return 0;
}
"""


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_emit_hip_gcc_emulation(tmp_path, case):
    """gcc runs the emitted address function for every lane, load and block: each is
    the plan's (block start + load x lanes x width + rank x width)."""
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed")
    arch, name, matrix, options = case
    found = plan(arch, name, matrix, **options)
    ld = 3 * found.block[1]
    source = tmp_path / "pre.c"
    source.write_text(emit(found) + HARNESS % {"wave": found.wave, "loads": found.loads,
                                               "name": name_of(found), "ld": ld})
    subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-o", str(tmp_path / "pre"),
                    str(source)], check=True)
    run = subprocess.run([str(tmp_path / "pre")], capture_output=True, text=True, check=True)
    rank = {lane: q for q, lane in enumerate(found.lanes)}
    rank.update({lane: rank[src] for lane, src in found.mirrors})
    seen = 0
    for line in run.stdout.split("\n"):
        if not line:
            continue
        lane, load, br, bc, address = map(int, line.split())
        if lane in rank:
            want = (br * 3 + bc) * found.block_bytes + \
                load * len(found.lanes) * found.width + rank[lane] * found.width
            assert address == want, line
            seen += 1
    assert seen == len(rank) * found.loads * 6


CLANG_CASES = [  # (gfx, arch, instruction, matrix, options)
    ("gfx950", *SCALE16, "B", {"mods": {"blgp": 4}}),
    ("gfx950", *SCALE16, "SB", {"supertile": "2x2"}),
    ("gfx950", *SCALE16, "B", {"mods": {"blgp": 2}}),
    ("gfx950", *SCALE16, "B", {}),
    ("gfx950", *SCALE16, "SB", {}),
    ("gfx1250", "gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "SB", {"supertile": "1x2"}),
    ("gfx1250", "gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "SA", {}),
    ("gfx1250", "gfx1250", "v_wmma_scale_f32_16x16x128_f8f6f4", "B",
     {"mods": {"matrix_b_fmt": 4}}),
    ("gfx942", "cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "B", {"supertile": "1x2"}),
    ("gfx1100", "rdna3", "v_wmma_f32_16x16x16_f16", "B", {}),
]
KERNEL = """
extern "C" __global__ void k(const unsigned char* buf, unsigned int* dst, long br, long bc) {
    unsigned int lane = __builtin_amdgcn_workitem_id_x() %% %(wave)du;
    unsigned int out[%(regs)d] = {0};
    %(name)s_load(buf, lane, br, bc, %(ld)d, out);
    for (int r = 0; r < %(regs)d; ++r) dst[lane * %(regs)d + r] = out[r];
}
"""
RECORDED = Path(__file__).parents[1] / "data" / "preshuffle_hip_asm.json"
COMMAND = (f"python3 -m tests.plans.test_preshuffle ({CLANG} on each case's --emit hip code "
           "in a kernel)")


def clang_cases():
    """Every CLANG_CASES entry with the global memory loads clang-22 compiles it to."""
    cases = []
    for gfx, arch, name, matrix, options in CLANG_CASES:
        found = plan(arch, name, matrix, **options)
        code = emit(found) + KERNEL % {"wave": found.wave, "name": name_of(found),
                                       "regs": max(1, (found.loads * found.width + 3) // 4),
                                       "ld": 4 * found.block[1]}
        asm = device_asm(code, gfx)
        loads = re.findall(r"^\s+(global_load\w*|buffer_load\w*|flat_load\w*)", asm, re.M)
        cases.append({"gfx": gfx, "arch": arch, "instruction": name, "matrix": matrix,
                      "options": options, "clang": loads})
    return cases


def test_emit_hip_clang_facts():
    """clang-22 compiled each case's code to exactly the planned loads (recorded with the
    command that regenerates the record)."""
    data = {"cases": recorded(RECORDED, COMMAND)}
    assert [(c["gfx"], c["arch"], c["instruction"], c["matrix"], c["options"])
            for c in data["cases"]] == CLANG_CASES
    for case in data["cases"]:
        found = plan(case["arch"], case["instruction"], case["matrix"], **case["options"])
        assert case["clang"] == [found.load] * found.loads, case


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_emit_hip_clang_live():
    """The record still holds: clang-22 gives the same instructions today."""
    assert clang_cases() == recorded(RECORDED, COMMAND)




def test_request_door():
    """The same plans through Request/answer (the one query flow of the library)."""
    inst = mc.find_instruction(*SCALE16)
    found = mc.answer(mc.Request("preshuffle", inst=inst, matrix="SB",
                                 options=(("supertile", "2x2"),)))
    assert found == mc.preshuffle(inst, "SB", supertile="2x2")
    stored = mc.answer(mc.Request("store", inst=mc.find_instruction("cdna4",
                                                                    "v_mfma_f32_16x16x32_bf16"),
                                  options=(("store_type", "bf16"),)))
    assert stored.chosen.name == "lds-transpose"


def test_picture_colours_each_byte_by_its_loading_lane():
    """--format svg: one cell per byte of a block; the lane of byte b is the lane of rank
    (b / width) % lanes (the buffer's order), and html holds the text and the picture."""
    status, out, _ = call(BASE + ["--B-scale", "--preshuffle", "--supertile", "2x2",
                                  "--format", "svg"])
    assert status == 0 and out.startswith("<svg")
    lanes = [int(x) for x in re.findall(r'class="cell"[^>]*data-lane="(-?\d+)"', out)]
    assert lanes == [(b // 4) % 64 for b in range(256)]
    status, out, _ = call(BASE + ["-B", "--blgp", "4", "--preshuffle", "--format", "html"])
    assert status == 0 and "<pre>" in out and "<svg" in out


# ---- the seed's kernel: preshuffled B and B scales into four scaled MFMAs

SEED_KERNEL = """
typedef float mc_f32x4 __attribute__((ext_vector_type(4)));
typedef int mc_i32x8 __attribute__((ext_vector_type(8)));
extern "C" __global__ void k(const unsigned char* b, const unsigned char* sb, mc_f32x4* out,
                             long ld, long sld) {
    unsigned int lane = __builtin_amdgcn_workitem_id_x() %% 64u;
    unsigned int s[1];
    %(scales)s_load(sb, lane, 0, 0, sld, s);
    mc_f32x4 acc[4] = {};
%(tiles)s
    for (int t = 0; t < 4; ++t) out[lane * 4 + t] = acc[t];
}
"""
TILE = """    {   unsigned int w[4];
        %(weights)s_load(b, lane, %(ir)d, %(ic)d, ld, w);
        mc_i32x8 v = {(int)w[0], (int)w[1], (int)w[2], (int)w[3], 0, 0, 0, 0};
        acc[%(t)d] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(v, v, acc[%(t)d], 4, 4, 0,
            127, %(select)d, (int)s[0]);   /* tile %(t)d: OPSEL_B %(select)d */
    }"""
SEED_RECORD = Path(__file__).parents[1] / "data" / "preshuffle_seed_kernel.txt"
SEED_COMMAND = (f"python3 -m tests.plans.test_preshuffle ({CLANG}, gfx950, on the --emit hip loads "
                "of B (--blgp 4) and of the 2x2 B-scale supertile of "
                "v_mfma_scale_f32_16x16x128_f8f6f4 in a kernel issuing one scaled MFMA per "
                "tile with the plan's OPSEL_B); the lines: the global loads and MFMAs")


def seed_kernel_lines():
    """The global loads and scaled MFMAs clang-22 makes of the seed's kernel, built from
    the plans' own code and OPSEL values."""
    weights = plan(*SCALE16, "B", mods={"blgp": 4})
    scales = plan(*SCALE16, "SB", supertile="2x2")
    tiles = "\n".join(TILE % {"weights": name_of(weights), "ir": tile.ir, "ic": tile.ic,
                              "t": t, "select": tile.select}
                      for t, tile in enumerate(scales.tiles))
    code = emit(weights) + emit(scales) + SEED_KERNEL % {"scales": name_of(scales),
                                                         "tiles": tiles}
    asm = device_asm(code, "gfx950")
    return [line.strip() for line in asm.splitlines()
            if re.match(r"\s+(global_load|v_mfma_scale)", line)]


def test_seed_kernel_clang_facts():
    """One global_load_dword fetches the four tiles' scales, one global_load_dwordx4 each
    tile's fp4 weights, and the four MFMAs read bytes 0-3 of the scale VGPR: OPSEL_B =
    2 op_sel_hi + op_sel of their second source (facts/cdna4.md 5.4)."""
    command, *lines = SEED_RECORD.read_text().splitlines()
    assert command == SEED_COMMAND
    loads = sorted(re.match(r"(\w+)", line).group(1) for line in lines if "load" in line)
    assert loads == ["global_load_dword"] + ["global_load_dwordx4"] * 4
    selects = set()
    for line in lines:
        if line.startswith("v_mfma_scale"):
            lo = re.search(r" op_sel:\[\d,(\d),\d\]", line)
            hi = re.search(r"op_sel_hi:\[\d,(\d),\d\]", line)
            selects.add(2 * int(hi.group(1) if hi else 0) + int(lo.group(1) if lo else 0))
    assert selects == {0, 1, 2, 3}


@pytest.mark.external
@pytest.mark.skipif(shutil.which("clang-22") is None, reason="clang-22 is not installed")
def test_seed_kernel_clang_live():
    assert SEED_RECORD.read_text().splitlines()[1:] == seed_kernel_lines()


if __name__ == "__main__":   # regenerate the records (clang-22 needed)
    regenerate(RECORDED, COMMAND, clang_cases())
    SEED_RECORD.write_text("\n".join([SEED_COMMAND, *seed_kernel_lines()]) + "\n")
