"""--emit cute and --emit gluon, checked by their consumers' own code, and ck_tile's counts.

tests/data/exports/checks.json.gz holds what tensor-layouts and Triton answered for every
AMD instruction, wave size and operand (and each layout-moving modifier at its first
nonzero values), written by scripts/check_exports.py. The replay checks that today's
exports are the ones checked (CuTe's shape and stride; Triton's own linear map of the
emitted Gluon code) and that the consumers agreed with the engine, lane by lane; where
tensor-layouts is installed it evaluates the exports again (live), and where Triton is
installed (the external tier) it runs the emitted Python again.
"""
import gzip
import importlib
import importlib.metadata
import importlib.util
import json
import subprocess
import sys
from collections import defaultdict
from functools import cache

import pytest

import matrix_calculator as mc
from tests.helpers import REPO, data_file, missing, need_module

ARCHS = [a.name for a in mc.architectures() if a.vendor == "amd"]


@cache
def record():
    with gzip.open(data_file("exports", "checks.json.gz"), "rt", encoding="utf-8") as handle:
        return json.load(handle)


@cache
def by_arch():
    found = defaultdict(list)
    for case in record()["cases"]:
        found[case["architecture"]].append(case)
    return found


def script():
    """scripts/check_exports.py as a module."""
    if str(REPO / "scripts") not in sys.path:
        sys.path.insert(0, str(REPO / "scripts"))
    return importlib.import_module("check_exports")


def _args(case):
    inst = mc.find_instruction(case["architecture"], case["instruction"])
    return inst, case["matrix"], mc.modifiers(case["modifiers"]), case["wave"]


def _replay(case):
    inst, matrix, mods, wave = _args(case)
    from matrix_library.exports import export
    if "cute" in case:
        found = export(inst, matrix, "cute", mods=mods, wave=wave)
        doc = json.loads(mc_json(found))
        assert {"shape": doc["shape"], "stride": doc["stride"]} == case["cute"], case
        assert case["tensor_layouts"] == "agree", case
    else:
        with pytest.raises(mc.CalcError) as refused:
            export(inst, matrix, "cute", mods=mods, wave=wave)
        assert str(refused.value) == case["cute_refused"]
    if "gluon" in case:
        layout = export(inst, matrix, "gluon", mods=mods, wave=wave).gluon
        recorded = case["gluon"]
        assert [list(b) for b in layout.reg_bases] == recorded["reg_bases"], case
        assert [list(b) for b in layout.lane_bases] == recorded["lane_bases"], case
        assert list(layout.shape) == recorded["shape"]
        assert (layout.named is not None, layout.packed) == (recorded["named"], recorded["packed"])
        assert case["triton"] == "agree", case
    else:
        with pytest.raises(mc.CalcError) as refused:
            export(inst, matrix, "gluon", mods=mods, wave=wave)
        assert str(refused.value) == case["gluon_refused"]


def mc_json(found):
    from formats.exports import export_json
    return export_json(found)


def test_the_record_covers_every_amd_instruction_operand_and_modifier_kind():
    cases = record()["cases"]
    assert record()["summary"]["failures"] == 0
    assert set(record()["versions"]) == {"tensor-layouts", "triton"}
    seen = {(c["architecture"], c["instruction"], c["matrix"], c["wave"]) for c in cases}
    for arch in mc.architectures():
        if arch.vendor != "amd":
            continue
        for inst in arch.instructions:
            for wave in inst.wave_sizes:
                for matrix in mc.matrices(inst):
                    assert (arch.name, inst.mnemonic, matrix, wave) in seen
    kinds = {name for c in cases for name in c["modifiers"]}
    moving = {spec.name for spec in mc_modifier_specs() if spec.shapes}
    assert moving <= kinds, moving - kinds
    agree = sum(c.get("tensor_layouts") == "agree" for c in cases)
    assert agree == sum(c.get("triton") == "agree" for c in cases) > 2000


def mc_modifier_specs():
    from instructions.modifiers import MODIFIERS
    return MODIFIERS


@pytest.mark.parametrize("arch", ARCHS)
def test_exports_are_the_ones_checked_sample(arch):
    for case in by_arch()[arch][::8]:
        _replay(case)


@pytest.mark.slow
@pytest.mark.parametrize("arch", ARCHS)
def test_exports_are_the_ones_checked(arch):
    for case in by_arch()[arch]:
        _replay(case)


def test_tensor_layouts_evaluates_the_cute_exports():
    """Live: tensor-layouts' Layout(shape, stride)(lane, value) against the engine (a
    sample of each architecture's operands; the slow tier all of them)."""
    need_module("tensor_layouts", "the CuTe exports are checked by tensor-layouts")
    _live_cute(8)


@pytest.mark.slow
def test_tensor_layouts_evaluates_every_cute_export():
    need_module("tensor_layouts", "the CuTe exports are checked by tensor-layouts")
    _live_cute(1)


def _live_cute(every):
    check = script()
    from matrix_library.exports import export
    for arch in ARCHS:
        for case in [c for c in by_arch()[arch] if "cute" in c][::every]:
            inst, matrix, mods, wave = _args(case)
            doc = json.loads(mc_json(export(inst, matrix, "cute", mods=mods, wave=wave)))
            truth = check.engine(inst, matrix, mods, wave)
            assert check.check_cute(doc, truth, wave) == "agree", case


@pytest.mark.external
def test_triton_evaluates_the_gluon_exports():
    """Live: scripts/check_exports.py on a sample (every 8th operand): the emitted Python
    run with Triton's Gluon, its layout turned into a linear map by Triton's
    to_linear_layout, and tensor-layouts' evaluation, against the engine. (A process of
    its own: Triton's bindings report leaked objects when an interpreter ends.)"""
    for name in ("triton", "tensor_layouts"):
        if importlib.util.find_spec(name) is None:
            missing(f"{name} is not installed: the exports are checked by it")
    if not importlib.metadata.version("triton").startswith("3.9."):
        missing(f"triton {importlib.metadata.version('triton')} is installed: the Gluon "
                "exports are written for Triton 3.9's Gluon (requirements-dev.txt)")
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "check_exports.py"),
                           "--every", "8"], capture_output=True, text=True, timeout=600,
                          check=False)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0 and summary["failures"] == 0, done.stdout[-2000:]
    assert summary["triton"] == summary["tensor_layouts"] > 200


# ---- the command line

def test_cute_as_cpp(run):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "--emit", "cute", "-A"])
    assert (rc, err) == (0, "")
    assert out.splitlines()[2:] == [
        "using ALayout = cute::Layout<cute::Shape<cute::Shape<cute::_32, cute::_2>, cute::_4>,",
        "                             cute::Stride<cute::Stride<cute::_1, cute::_128>, "
        "cute::_32>>;"]


def test_cute_broadcast_is_stride_zero(run):
    rc, out, _ = run(["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "--emit", "cute", "-B",
                      "--json", "--compact"])
    doc = json.loads(out)
    assert rc == 0 and doc["shape"] == [[16, 2], 16] and doc["stride"] == [[1, 0], 16]


def test_an_operand_that_is_not_one_layout_is_refused(run):
    rc, out, err = run(["-a", "cdna2", "-i", "v_mfma_f32_32x32x8f16", "--emit", "cute", "-B",
                        "--blgp", "3"])
    assert (rc, out) == (2, "") and len(err.splitlines()) == 1
    assert "not one CuTe shape:stride" in err and "rotat" in err
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x4_2b_f16", "--emit", "gluon",
                        "-A", "--cbsz", "1", "--abid", "1"])
    assert (rc, out) == (2, "") and len(err.splitlines()) == 1 and "broadcast" in err


def test_lanes_that_hold_nothing_repeat_the_others(run):
    """gfx1250's scales sit in lanes 0-15 (or 16-31): the exports repeat them in the other
    half, as Triton's own scale layout does (a zero lane basis, a stride 0)."""
    args = ["-a", "gfx1250", "-i", "v_wmma_scale_f32_16x16x128_f8f6f4", "--A-scale"]
    doc = json.loads(run([*args, "--emit", "cute", "--json", "--compact"])[1])
    assert doc["shape"] == [[16, 2], 4] and doc["stride"] == [[1, 0], 16]
    assert "lanes 0-15" in doc["note"]
    rc, out, _ = run([*args, "--emit", "gluon"])
    assert rc == 0 and "layout = ttgl.amd.gfx1250.get_wmma_scale_layout(scaled, [16, 4])" in out
    assert "[8, 0], [0, 0]]" in out


def test_gluon_names_the_class_and_gives_the_same_map(run):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "--emit", "gluon",
                        "-B"])
    assert (rc, err) == (0, "")
    assert "parent = ttgl.amd.AMDMFMALayout(version=3, instr_shape=[16, 16, 16]" in out
    assert "layout = ttgl.DotOperandLayout(operand_index=1, parent=parent, k_width=4)" in out
    assert "linear = ttgl.DistributedLinearLayout(" in out
    rc, out, _ = run(["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "--emit", "gluon", "-D"])
    assert rc == 0 and "layout = ttgl.DistributedLinearLayout(" in out and "parent" not in out


def test_fp4_is_packed_two_to_a_byte(run):
    rc, out, _ = run(["-a", "gfx1250", "-i", "v_wmma_f32_32x16x128_f4", "--emit", "gluon",
                      "-A", "--json", "--compact"])
    doc = json.loads(out)
    assert rc == 0 and doc["packed"] == 2 and doc["shape"] == [32, 64] and doc["named"] is None


def test_emit_needs_one_matrix(run):
    rc, out, err = run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "--emit", "gluon"])
    assert (rc, out) == (2, "") and "needs one matrix" in err


# ---- ck_tile

# composable_kernel's ck_tile (include/ck_tile/ops/gemm/warp/): warp_gemm_attribute_mfma_impl.hpp,
# WarpGemmAttributeMfmaImplF16F16F32M32N32K8 and ...M16N16K16, and the WmmaTraitsBase of
# gfx11 and gfx12 (warp_gemm_attribute_wmma_impl_base_traits.hpp), 16x16x16 f16.
MFMA = ("kAMLane", "kBNLane", "kABKLane", "kABKPerLane", "kCMLane", "kCNLane",
        "kCM0PerLane", "kCM1PerLane")
WMMA = ("kRepeat", "kAMLane", "kBNLane", "kABK0PerLane", "kABKLane", "kABK1PerLane",
        "kCMLane", "kCNLane", "kCM0PerLane", "kCM1PerLane")
CK = {("cdna3", "v_mfma_f32_32x32x8_f16"): (MFMA, (32, 32, 2, 4, 2, 32, 4, 4)),
      ("cdna3", "v_mfma_f32_16x16x16_f16"): (MFMA, (16, 16, 4, 4, 4, 16, 1, 4)),
      ("rdna3", "v_wmma_f32_16x16x16_f16"): (WMMA, (2, 16, 16, 1, 1, 16, 2, 16, 8, 1)),
      ("rdna4", "v_wmma_f32_16x16x16_f16"): (WMMA, (1, 16, 16, 1, 2, 8, 2, 16, 1, 8))}


@pytest.mark.parametrize("arch, mnemonic", sorted(CK))
def test_ck_tile_counts_are_composable_kernels(arch, mnemonic):
    from matrix_library.exports import ck_tile_counts
    found = ck_tile_counts(mc.find_instruction(arch, mnemonic))  # (the first wave size)
    names, values = CK[arch, mnemonic]
    assert tuple(dict(found.counts)[n] for n in names) == values
    assert bool(found.note) == (arch == "rdna4")  # (RDNA4 interleaves K: -R shows it)


def test_ck_tile_in_detail_only_with_the_option(run):
    args = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-d"]
    plain, with_ck = run(args)[1], run([*args, "--ck-tile"])[1]
    assert with_ck.startswith(plain) and "kCM1PerLane = 4" in with_ck[len(plain):]
    doc = json.loads(run([*args, "--json", "--compact"])[1])
    assert doc["ck_tile"]["64"]["counts"]["kABKPerLane"] == 4


# ---- CUTLASS's own atoms: the conventions, on NVIDIA's instructions

def _flat(shape, stride):
    if isinstance(shape, list):
        return [p for s, d in zip(shape, stride) for p in _flat(s, d)]
    return [(shape, stride)]


def _evaluate(shape, stride, index):
    out = 0
    for size, step in _flat(shape, stride):
        out, index = out + (index % size) * step, index // size
    return out


def _size(shape):
    total = 1
    for size, _ in _flat(shape, shape):
        total *= size
    return total


def test_cute_exports_are_cutlass_atoms_on_nvidia():
    """--emit cute of NVIDIA's mma instructions is, as a function of (T, V), the ALayout,
    BLayout and CLayout of CUTLASS's own MMA_Traits (tests/data/nvidia/cute_layouts.json),
    for every atom whose threads are the warp's lanes (sm70's quad-pair atoms number the
    eight threads of one pair: ThrID)."""
    from matrix_library.exports import export
    traits = json.loads(data_file("nvidia", "cute_layouts.json").read_text())["traits"]
    checked = 0
    for name, entry in traits.items():
        inst = next((i for a in ("sm80", "sm89", "sm90") for i in mc.find_architecture(a)
                     .instructions if dict(i.facts).get("cute") == name), None)
        if inst is None or "ThrID" in entry and inst.blocks > 1:
            continue
        for matrix, key in (("A", "ALayout"), ("B", "BLayout"), ("C", "CLayout")):
            ours = json.loads(mc_json(export(inst, matrix, "cute", wave=inst.wave_sizes[0])))
            (ts, vs), (td, vd) = entry[key]
            (os_, ov), (od, ovd) = ours["shape"], ours["stride"]
            assert all(_evaluate(ts, td, t) + _evaluate(vs, vd, v) ==
                       _evaluate(os_, od, t) + _evaluate(ov, ovd, v)
                       for t in range(_size(ts)) for v in range(_size(vs))), (name, matrix)
            checked += 1
    assert checked >= 100


def test_the_export_mode_answers_through_the_one_path():
    inst = mc.find_instruction("cdna3", "v_mfma_f32_32x32x8_f16")
    found = mc.answer(mc.Request("export", inst.architecture, inst, "A",
                                 options=(("language", "cute"),)))
    assert found.cute.shape == ((32, 2), 4) and found.gluon is None
    with pytest.raises(mc.CalcError, match="the exports are cute and gluon"):
        mc.answer(mc.Request("export", inst.architecture, inst, "A",
                             options=(("language", "hip"),)))


def _from_cpp(text):
    """The (shape, stride) a `using XLayout = cute::Layout<...>;` line pair spells."""
    import re
    body = " ".join(line for line in text.splitlines() if not line.startswith("//"))
    body = body.split("cute::Layout<", 1)[1].rsplit(">;", 1)[0]
    body = re.sub(r"cute::(Shape|Stride)<", "[", body).replace(">", "]")
    body = re.sub(r"cute::_(\d+)", r"\1", body)
    return json.loads(f"[{body}]")


@pytest.mark.parametrize("arch", ARCHS)
def test_the_cpp_text_spells_the_checked_layout(arch):
    """--emit cute's C++ names the shape and stride the record's tensor-layouts check
    evaluated (its JSON form), for a sample of each architecture's operands."""
    from formats.exports import cute_cpp
    from matrix_library.exports import export
    for case in [c for c in by_arch()[arch] if "cute" in c][::8]:
        inst, matrix, mods, wave = _args(case)
        shape, stride = _from_cpp(cute_cpp(export(inst, matrix, "cute", mods=mods, wave=wave)))
        assert {"shape": shape, "stride": stride} == case["cute"], case
