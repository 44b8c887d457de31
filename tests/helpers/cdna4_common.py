"""Shared helpers of the CDNA4 test modules (test_cdna4_*.py): instructions under each
format pair, operands, -d readers and the encodings decoded from opcodes."""
from functools import cache

from instructions import find_architecture
from layouts import Modifiers, Operand
from tests.helpers import notes_only
from tests.helpers.cdna4_facts import (
    ENCODINGS,
    OPCODES,
)

CDNA4 = find_architecture("cdna4")
CDNA3 = find_architecture("cdna3")
PAIRS = [(a, b) for a in range(5) for b in range(5)]


def inst_of(name, cbsz=0, blgp=0):
    """The CDNA4 instruction; an f8f6f4 one with the formats CBSZ and BLGP select."""
    inst = CDNA4.find(name)
    assert inst is not None, name
    return inst.with_formats(cbsz, blgp) if inst.f8f6f4 else inst


@cache
def operand(name, matrix, cbsz=0, blgp=0, abid=0, opsel_a=0, opsel_b=0):
    mods = Modifiers(cbsz=cbsz, abid=abid, blgp=blgp, opsel_a=opsel_a, opsel_b=opsel_b)
    return Operand(inst_of(name, cbsz, blgp), matrix, mods)


def where(op, elem):
    """The one place of an element as (first VGPR, lane, low bit, high bit)."""
    places = op.places(*elem)
    assert len(places) == 1, (elem, places)
    p = places[0]
    return (p.reg, p.lane, p.lo, p.hi)


def body(out):
    """Output lines after the Architecture/Instruction header."""
    lines = out.splitlines()
    assert lines[0].startswith("Architecture: ") and lines[1].startswith("Instruction: ")
    return lines[2:]


def detail(run, name, cbsz=0, blgp=0, arch="cdna4"):
    args = ["-a", arch, "-i", name, "-d"]
    if CDNA4.find(name) is not None and CDNA4.find(name).f8f6f4:
        args += ["--cbsz", str(cbsz), "--blgp", str(blgp)]
    rc, out, err = run(args)
    assert rc == 0 and notes_only(err), err
    return [line.strip() for line in body(out)]


def detail_value(lines, key):
    found = [line.split(": ", 1)[1] for line in lines if line.startswith(key + ": ")]
    assert len(found) == 1, (key, found)
    return found[0]


def fails(run, args):
    """A rejected command line: status 2, one line on stderr, nothing on stdout."""
    rc, out, err = run(args)
    assert (rc, out) == (2, ""), (args, rc, out)
    assert len(err.splitlines()) == 1 and err.startswith("matrix_calculator.py: error: "), err
    return err


# ---- encodings (the calculator prints opcodes, not encodings: decoded here to compare) ---

def words(data):
    """A VOP3P / VOP3P-MAI dword pair given as little-endian bytes."""
    return (int.from_bytes(bytes(data[0:4]), "little"),
            int.from_bytes(bytes(data[4:8]), "little") if len(data) >= 8 else 0)


def mai_fields(data):
    """Fields of a VOP3P-MAI instruction (CDNA4 ISA, Table 89)."""
    low, high = words(data)
    return {"encoding": low >> 23, "op": (low >> 16) & 0x7F, "cbsz": (low >> 8) & 7,
            "abid": (low >> 11) & 0xF, "acc_cd": (low >> 15) & 1, "blgp": high >> 29}


def scale_opsel(data):
    """(OPSEL_A, OPSEL_B) of a v_mfma_ld_scale_b32 dword pair: 2 * op_sel_hi + op_sel."""
    low, high = words(data)
    op_sel, op_sel_hi = (low >> 11) & 7, (high >> 27) & 3
    return tuple(2 * (op_sel_hi >> n & 1) + (op_sel >> n & 1) for n in (0, 1))


VOP3P = 0x1A7  # the encoding field (bits 31:23) of VOP3P and VOP3P-MAI


def check_opcode_fields(run, fid):
    """The 7-bit opcode field of the fact's encoding is the VOP3P-MAI opcode -d prints."""
    name, data = ENCODINGS[fid]
    fields = mai_fields(data[-8:])
    inst = inst_of(name)
    assert fields["encoding"] == VOP3P
    assert fields["op"] == inst.opcode == inst.mai_opcode == OPCODES[name]
    lines = detail(run, name)
    assert detail_value(lines, "VOP3P Opcode") == f"{OPCODES[name]:#x}"
    assert detail_value(lines, "VOP3P-MAI Opcode") == f"{fields['op']:#x}"
    return fields


