"""LLVM's targets as data (instructions/targets.py) and the names users type for an
architecture: target IDs with features, generic targets, product names; the gfx1170 MC
test's instructions against the RDNA4 table."""
import re
import shutil
import subprocess

import pytest

import matrix_calculator as mc
from instructions import ARCHITECTURES, find_architecture, resolve
from instructions.products import PRODUCTS
from instructions.targets import SOURCES, TARGETS, split_target_id, target_of
from layouts import Operand
from matrix_library.checks import target_note
from tests.helpers import DATA, call, missing

ARCH_NAMES = {arch.name for arch in ARCHITECTURES}


def mnemonics(arch):
    return {inst.mnemonic for inst in arch.instructions}


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_target_record_names_known_things(target):
    assert target.arch in ARCH_NAMES | {""}
    assert set(target.source) <= set(SOURCES)
    assert target.confidence in ("SRC", "INF")
    assert target.features in ((), ("sramecc", "xnack"))
    found = resolve(target.name)
    if target.arch:
        assert found.name == target.arch
    else:  # a generic target without matrix instructions: refused, saying why
        assert "no matrix instructions" in found


GENERICS = [t for t in TARGETS if t.generic and t.arch]


def _one_meaning(inst):
    # an fp8/bf8 operand means FNUZ on gfx942 and OCP on gfx950: not in gfx9-4-generic
    return inst.a_type.bits > 8 or inst.is_int


@pytest.mark.parametrize("target", GENERICS, ids=lambda t: t.name)
def test_generic_target_answers_what_every_member_shares(target):
    shared = set.intersection(*(mnemonics(find_architecture(m)) for m in target.members))
    generic = find_architecture(target.name)
    if generic.members:  # its own table: less than the intersection (the test below)
        assert mnemonics(generic) < shared
    else:
        assert mnemonics(generic) == shared


def test_gfx9_4_generic_is_cdna3_without_xf32_and_fp8():
    generic = find_architecture("gfx9-4-generic")
    cdna3 = find_architecture("cdna3")
    assert mnemonics(generic) == {i.mnemonic for i in cdna3.instructions
                                  if "xf32" not in i.mnemonic and _one_meaning(i)}
    assert generic.find("v_mfma_f64_16x16x4_f64").cycles == 64  # the slower member's



@pytest.mark.parametrize("argv, what", [
    (["-i", "v_mfma_f32_16x16x16_f16", "--emit", "hip"], "HIP code (--emit hip)"),
    (["-i", "v_mfma_f32_16x16x16_f16", "-A", "--lds-tile", "16x16"], "LDS plans"),
    (["--convert", "v_mfma_f32_16x16x16_f16:D", "v_mfma_f32_16x16x16_f16:A"],
     "conversion plans"),
    (["--convert", "sm80:mma.m16n8k16.f32.f16.f16.f32:A", "v_mfma_f32_16x16x16_f16:A"],
     "port plans")])
def test_a_generic_target_names_its_members_for_code_and_plans(argv, what):
    status, out, err = call(["-a", "gfx9-4-generic", *argv])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert f"GFX9-4-GENERIC has no {what}: it is a generic target" in err
    assert "members (-a cdna3 or -a cdna4)" in err and "port its fragments" not in err
    if argv[0] == "-i":  # (another vendor's architecture is still told to port)
        other = call(["-a", "sm90", "-i", "mma.m16n8k16.f32.f16.f16.f32", *argv[2:]])
        assert other[0] == 2 and "port its fragments" in other[2]


DONE = {"gfx1170": "RDNA4", "gfx1171": "RDNA4", "gfx1172": "RDNA4", "gfx1154": "RDNA3",
        "gfx12-5-generic": "GFX1250", "gfx1310": "GFX1250", "gfx13-generic": "GFX1250",
        "gfx11-7-generic": "RDNA4", "gfx11-generic": "RDNA3", "gfx12-generic": "RDNA4",
        "gfx1250-strict": "GFX1250", "gfx942:sramecc+:xnack-": "CDNA3",
        "gfx90a:xnack+": "CDNA2", "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-": "CDNA3",
        "7900xtx": "RDNA3", "9070xt": "RDNA4", "Radeon RX 9070 XT": "RDNA4",
        "rx7900": "RDNA3", "mi30": "CDNA3", "rtx4090": "SM89", "GFX1170": "RDNA4"}


@pytest.mark.parametrize("name", sorted(DONE))
def test_names_users_type_resolve(name):
    assert mc.find_architecture(name).name == DONE[name]
    status, out, err = call(["-a", name, "-L"])
    assert status == 0, err
    assert f"Available instructions in the {DONE[name]} architecture:" in out


def test_every_product_name_resolves_to_its_architecture():
    for product in PRODUCTS:
        assert mc.find_architecture(product.name).name == product.arch
        for alias in product.aliases:
            assert mc.find_architecture(alias).name == product.arch


@pytest.mark.parametrize("name,says", [
    ("xt", r"ambiguous architecture 'xt': it could mean Radeon RX 7900 XT \(rdna3\).*"
           r"Radeon RX 9070 XT \(rdna4\)"),
    ("gfx1100:xnack+", r"gfx1100 has no target feature .xnack. \(it takes no target features\)"),
    ("gfx942:sramecc", "target feature 'sramecc' of 'gfx942:sramecc': write it as NAME+"),
    ("gfx942:xnack+:xnack-", "target feature 'xnack' given twice"),
    ("gfx9999:xnack+", "no LLVM target 'gfx9999'"),
    ("gfx9-generic", "gfx9-generic: a generic target of gfx900, .*no matrix instructions"),
])
def test_bad_or_ambiguous_names_say_why(name, says):
    status, out, err = call(["-a", name, "-L"])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and re.search(says, err), err
    with pytest.raises(mc.CalcError, match=says):
        mc.find_architecture(name)
    assert find_architecture(name) is None


def test_target_id_features_read():
    assert split_target_id("gfx942:sramecc+:xnack-") == ("gfx942", (("sramecc", "+"),
                                                                     ("xnack", "-")))


@pytest.mark.parametrize("name", ["gfx1170", "gfx1310", "gfx12-5-generic", "gfx9-4-generic"])
def test_list_and_detail_say_what_the_target_answers(name):
    listed = call(["-a", name, "-L"])[1]
    assert listed.startswith(f"Target: {name}: ")
    inst = mc.instructions(mc.find_architecture(name))[0].mnemonic
    shown = call(["-a", name, "-d", "-i", inst])[1].splitlines()
    assert shown[2].startswith(f"Target: {name}: ")


def test_provisional_target_says_so_with_its_source():
    for name in ("gfx1310", "gfx13-generic"):
        line = call(["-a", name, "-L"])[1].splitlines()[0]
        assert "PROVISIONAL" in line and "#177355" in line and "identical to gfx1250" in line


def _note_from_the_table(name):
    """The Target line of `name` read off the target table: none for an architecture's
    own name or alias unless its target is generic or provisional."""
    target, arch = target_of(name), find_architecture(name)
    if target is None or arch is None or (
            target.name in (arch.name.lower(), *arch.aliases)
            and not (target.generic or target.provisional)):
        return ""
    return target.summary()


@pytest.mark.parametrize("name", sorted(
    {n for arch in ARCHITECTURES for n in (arch.name.lower(), *arch.aliases)}
    | {t.name for t in TARGETS} | {"gfx942:sramecc+:xnack-", "GFX1310", "7900xtx"}))
def test_the_target_line_of_every_name_is_the_target_tables(name):
    """target_note skips the table for an architecture's own names: what the table says."""
    assert target_note(name) == _note_from_the_table(name)
    assert any(_note_from_the_table(t.name) for t in TARGETS)  # (the reading finds some)


def test_aliases_keep_the_reference_listing():
    # an alias the reference knows prints no Target line (its -L stays byte for byte)
    assert call(["-a", "gfx942", "-L"]) == call(["-a", "cdna3", "-L"])


def test_list_architectures_names_the_targets():
    text = call(["--list-architectures"])[1]
    for name in ("gfx1154", "gfx1170", "gfx11-7-generic", "gfx1310", "gfx12-5-generic",
                 "gfx9-4-generic", "gfx1250-strict"):
        assert f"\n  {name}: " in text


def test_catalog_filter_reads_targets():
    status, _, err = call(["--catalog", "--filter", "arch=gfx942:sramecc+:xnack-", "--json"])
    assert status == 0, err
    rows = mc.catalog(filters={"arch": ["gfx1170"]})
    assert rows and {row["architecture"] for row in rows} == {"RDNA4"}


# ---- gfx1170: LLVM's MC test against the RDNA4 table

def _mc_lines():
    rows = []
    for line in (DATA / "gfx1170_llvm_mc.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            text, encoding = line.split("\t")
            rows.append((text, [int(b, 16) for b in encoding.strip("[]").split(",")]))
    return rows


def _width(operand):
    first, _, last = operand.strip().lstrip("v").strip("[]").partition(":")
    return int(last) - int(first) + 1 if last else 1


def test_gfx1170_mc_test_is_the_rdna4_table():
    rows = _mc_lines()
    rdna4 = find_architecture("gfx1170")
    assert {text.split()[0] for text, _ in rows} == mnemonics(rdna4)
    for text, encoding in rows:
        mnemonic, operands = text.split(" ", 1)
        inst = rdna4.find(mnemonic)
        assert encoding[2] == inst.opcode and encoding[3] == 0xCC  # VOP3P, the opcode
        widths = [_width(op) for op in operands.split(" index_key")[0].split(",")]
        third = "K" if inst.sparse else "C"
        expected = [Operand(inst, m, wave=32).register_count for m in ("D", "A", "B", third)]
        assert widths == expected, text


@pytest.mark.external
def test_gfx1170_mc_lines_encode_as_gfx1200_in_llvm_22():
    tool = shutil.which("llvm-mc-22")
    if tool is None:
        missing("llvm-mc-22 is not installed")
    text = "\n".join(t for t, _ in _mc_lines()) + "\n"
    out = subprocess.run([tool, "-triple=amdgcn", "-mcpu=gfx1200", "-show-encoding"],
                         input=text, capture_output=True, text=True, check=True).stdout
    found = re.findall(r"encoding: (\[[^\]]*\])", out)
    assert found == [f"[{','.join(f'0x{b:02x}' for b in e)}]" for _, e in _mc_lines()]


def test_product_option_says_what_an_ambiguous_name_could_mean():
    status, out, err = call(["-a", "gfx1201", "-d", "-i", "v_wmma_f32_16x16x16_f16",
                             "--product", "xt"])
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert "ambiguous product 'xt': it could mean Radeon RX 7900 XT;" in err
    status, out, _ = call(["-a", "gfx1201", "-d", "-i", "v_wmma_f32_16x16x16_f16",
                           "--product", "9070xt"])
    assert status == 0 and "Peak on Radeon RX 9070 XT" in out
