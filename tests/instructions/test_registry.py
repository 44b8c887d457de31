"""The architecture and instruction registry: counts, order, uniqueness, opcodes, names."""
import re
from functools import cache

import pytest

from formats.detail import detail
from instructions import ARCHITECTURES, find_architecture
from tests.helpers import golden_records

COUNTS = {"CDNA1": 20, "CDNA2": 27, "CDNA3": 46}

# Accepted spellings besides the canonical name (REFERENCE_CLI.md §2.2).
ALIASES = {
    "CDNA1": ("cdna", "gfx908", "mi100", "arcturus"),
    "CDNA2": ("gfx90a", "mi200", "mi210", "mi250", "mi250x", "aldebaran"),
    "CDNA3": ("gfx940", "gfx941", "gfx942", "mi300", "mi300a", "mi300x", "mi325x",
              "aqua_vanjaram"),
}

# VOP3P opcodes that the reference prints wrongly (docs/facts/errata.md, E1).
ERRATA_OPCODES = {
    ("CDNA1", "v_mfma_i32_16x16x16i8"): 0x55,
    ("CDNA2", "v_mfma_i32_16x16x16i8"): 0x55,
    ("CDNA3", "v_mfma_i32_32x32x16_i8"): 0x56,
    ("CDNA3", "v_mfma_i32_16x16x32_i8"): 0x57,
}


def arch_named(name):
    return next(a for a in ARCHITECTURES if a.name == name)


def test_cdna_architectures_are_registered_in_order():
    names = [a.name for a in ARCHITECTURES]
    assert names[:3] == ["CDNA1", "CDNA2", "CDNA3"]


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_instruction_count(name):
    assert len(arch_named(name).instructions) == COUNTS[name]


@cache
def encoding(inst):
    """The encoding that --detail-instruction names for the instruction."""
    found = re.findall(r"^    Encoding: (\S+)$", detail(inst), re.M)
    assert len(found) == 1, inst.mnemonic
    return found[0]


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_mnemonics_and_opcodes_are_unique(arch):
    mnemonics = [i.mnemonic for i in arch.instructions]
    assert len(set(mnemonics)) == len(mnemonics)
    # (a 128-bit pair is told apart by its first opcode: gfx1250's scale and scale16)
    codes = [(encoding(i), i.prefix_opcode or 0, i.opcode) for i in arch.instructions
             if i.encoding_bits]  # (PTX instructions have no machine encoding here)
    duplicated = sorted({f"{e} {pre:#x} {op:#x}" for e, pre, op in codes
                         if codes.count((e, pre, op)) > 1})
    assert not duplicated, f"{arch.name}: opcodes used twice: {duplicated}"


def test_cdna_encodings():
    for name in COUNTS:
        assert {encoding(i) for i in arch_named(name).instructions} == {"VOP3P-MAI"}


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_instructions_belong_to_their_architecture(arch):
    for inst in arch.instructions:
        assert inst.arch == arch.name
        assert inst.mnemonic == inst.mnemonic.lower() and inst.name == inst.mnemonic.upper()
        assert arch.find(inst.mnemonic.upper()) is inst
        assert arch.find(inst.mnemonic.title()) is inst


@pytest.mark.parametrize("key", sorted(ERRATA_OPCODES), ids="-".join)
def test_errata_opcodes(key, run):
    arch, mnemonic = key
    inst = arch_named(arch).find(mnemonic)
    assert inst.opcode == ERRATA_OPCODES[key]
    rc, out, err = run(["-a", arch, "-i", mnemonic, "-d"])
    assert rc == 0
    assert f"    VOP3P Opcode: {ERRATA_OPCODES[key]:#x}\n" in out
    assert f"    VOP3P-MAI Opcode: {ERRATA_OPCODES[key] & 0x3F:#x}\n" in out


def test_list_order_matches_the_golden_lists(run):
    records = golden_records()
    checked = set()
    for rec in records:
        if rec["mode"] != "list" or rec["rc"] != 0 or rec["arch"].upper() not in COUNTS:
            continue
        lines = rec["stdout"].splitlines()
        name = rec["arch"].upper()
        assert lines[0] == f"Available instructions in the {name} architecture:"
        assert [line.strip() for line in lines[1:]] == [
            i.mnemonic for i in arch_named(name).instructions]
        assert run(["-a", name.lower(), "-L"])[1] == rec["stdout"]
        checked.add(name)
    assert checked == set(COUNTS)


def test_list_order_first_and_last():
    firsts = {a: arch_named(a).instructions[0].mnemonic for a in COUNTS}
    lasts = {a: arch_named(a).instructions[-1].mnemonic for a in COUNTS}
    assert firsts == {"CDNA1": "v_mfma_f32_32x32x1f32", "CDNA2": "v_mfma_f32_32x32x1f32",
                      "CDNA3": "v_mfma_f32_16x16x8_xf32"}
    assert lasts == {"CDNA1": "v_mfma_f32_16x16x8bf16", "CDNA2": "v_mfma_f64_4x4x4f64",
                     "CDNA3": "v_smfmac_f32_32x32x32_fp8_fp8"}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_reference_aliases_resolve(name):
    for spelling in (name, name.lower()) + ALIASES[name]:
        for variant in (spelling, spelling.upper(), spelling.capitalize()):
            arch = find_architecture(variant)
            assert arch is not None and arch.name == name, variant


@pytest.mark.parametrize("arch", ARCHITECTURES, ids=lambda a: a.name)
def test_every_registered_alias_resolves(arch):
    for spelling in (arch.name,) + tuple(arch.aliases):
        for variant in (spelling.lower(), spelling.upper(), spelling.swapcase()):
            assert find_architecture(variant) is arch, variant


def test_aliases_are_not_shared():
    spellings = [s.lower() for a in ARCHITECTURES for s in (a.name,) + tuple(a.aliases)]
    assert len(spellings) == len(set(spellings))


OTHER_NAMES = ("cdna4", "gfx950", "mi350x", "mi355x", "rdna", "rdna3", "rdna4", "gfx1100",
               "gfx1151", "gfx1200", "gfx1201", "gfx1250", "aqua-vanjaram", "", " cdna3",
               "cdna3 ", "cdna0", "gfx90")


@pytest.mark.parametrize("name", OTHER_NAMES)
def test_other_names_do_not_resolve_to_cdna1_to_3(name):
    arch = find_architecture(name)
    assert arch is None or arch.name not in COUNTS


@pytest.mark.parametrize("name", ["", " cdna3", "cdna0", "rdna", "aqua-vanjaram"])
def test_unknown_architecture_on_the_command_line(run, name):
    rc, out, err = run(["-a", name, "-L"])
    assert rc == 2 and out == "" and len(err.splitlines()) == 1
