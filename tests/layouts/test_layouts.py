"""Invariants of every operand layout of every registered instruction (no modifiers).

(a) round trip: every place of every element maps back to that element, and the
    register -> element view holds nothing else;
(b) coverage: CDNA elements have exactly one place; distinct elements never share a bit,
    except the sparse A and compression-index (K) matrices, where exactly four
    consecutive K values share one slot; no bit of a lane's registers is used twice;
(c) register counts: those of tests/data/reference/register_counts.md, and a few literals.
"""
import re
from collections import defaultdict

import pytest

from instructions import ARCHITECTURES
from layouts import Modifiers, Operand
from matrix_library.api import matrices
from tests.helpers import data_text, sampled, swept


def _cases():
    for arch in ARCHITECTURES:
        for inst in swept(arch):
            for wave in arch.waves if arch.vendor == "amd" else inst.wave_sizes:
                for matrix in matrices(inst):
                    if matrix in ("SA", "SB"):  # (the scales: test_cdna4_*, test_gfx1250*)
                        continue
                    yield (inst, matrix, wave), f"{arch.name}-{inst.mnemonic}-w{wave}-{matrix}"


CASES, CASE_IDS = zip(*_cases())


class Mapped:
    """One operand, with its element -> places map computed once for all the tests."""

    def __init__(self, inst, matrix, wave):
        self.inst, self.matrix, self.wave = inst, matrix, wave
        self.op = Operand(inst, matrix, wave=wave)
        self.forward = {elem: self.op.places(*elem) for elem in self.op.elements()}

    def slot_owners(self):
        """place -> the elements stored there."""
        owners = defaultdict(list)
        for elem, places in self.forward.items():
            for place in places:
                owners[place].append(elem)
        return owners


@pytest.fixture(scope="module", params=sampled([(case,) for case in CASES], CASE_IDS))
def mapped(request):
    """Module scope: pytest runs every test of one operand before building the next."""
    return Mapped(*request.param)


def test_every_place_maps_back_to_its_element(mapped):
    op = mapped.op
    for elem, places in mapped.forward.items():
        assert places, f"{mapped.matrix}{list(elem)} has no place"
        for place in places:
            for reg in place.regs:
                assert (place, elem) in op.entries(reg, place.lane), (elem, place, reg)
    rows, cols, blocks = op.shape
    assert len(mapped.forward) == rows * cols * blocks


def test_bulk_places_equal_single_look_ups(mapped):
    """Tables are built from Operand.placed()/block_places(); they must give, element by
    element and in the same order, what places() gives."""
    bulk = list(mapped.op.placed())
    assert [elem for elem, _ in bulk] == list(mapped.forward)
    assert all(places == mapped.forward[elem] for elem, places in bulk)


def test_a_lanes_places_are_those_of_the_elements_in_order(mapped):
    """Layout.places_in_lane (what -m reads) gives, block-major then row-major, each place
    of each element that sits in the lane: the places() of every element, filtered."""
    layout = mapped.op.layout
    rows, cols, blocks = layout.shape
    for lane in sorted({0, 1, mapped.wave // 2 + 3, mapped.wave - 1}):
        want = [((r, c, b), p) for b in range(blocks) for r in range(rows)
                for c in range(cols) for p in layout.places(r, c, b) if p.lane == lane]
        assert list(layout.places_in_lane(lane)) == want, lane


def _bit_extremes(op):
    bits = [(32 * p.reg + p.lo, 32 * p.reg + p.hi) for _, held in op.placed() for p in held]
    return min(lo for lo, _ in bits), max(hi for _, hi in bits)


def test_bit_span_is_that_of_the_places(mapped):
    """Layout.bit_span() (what -d says a slice modifier selects) is the lowest and the
    highest bit of the operand's places."""
    assert mapped.op.layout.bit_span() == _bit_extremes(mapped.op)


def test_bit_span_under_the_slice_modifiers():
    """The same under every value of the modifiers that select a one-register operand's
    slice: the scale byte (OPSEL_A/OPSEL_B) and gfx1250's index_key."""
    checked = set()
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            for name, matrix in (("opsel_a", "SA"), ("opsel_b", "SB"), ("index_key", "K")):
                if not inst.takes(name) or matrix not in matrices(inst):
                    continue
                for value in range(4 if matrix != "K" else 2):
                    try:
                        op = Operand(inst, matrix, Modifiers(**{name: value}))
                    except ValueError:
                        continue
                    assert op.layout.bit_span() == _bit_extremes(op), (inst.mnemonic, name)
                    checked.add((name, value))
    assert len(checked) == 10, sorted(checked)


def _remapping_cases():
    """CDNA operands under the modifiers that move values (CBSZ/ABID on A, BLGP on B)."""
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            if inst.family != "cdna" or inst.sparse:
                continue
            if inst.cbsz and inst.blocks > 1:
                yield inst, "A", Modifiers(cbsz=1, abid=1)
            if inst.blgp:
                yield from ((inst, "B", Modifiers(blgp=b)) for b in (1, 3, 6))


def test_bulk_places_equal_single_look_ups_under_modifiers():
    checked = 0
    for inst, matrix, mods in _remapping_cases():
        op = Operand(inst, matrix, mods)
        if not op.remapped:  # (FP64 BLGP negates instead)
            continue
        for elem, places in op.placed():
            assert places == op.places(*elem), (inst.mnemonic, matrix, mods, elem)
        checked += 1
    assert checked > 50


def test_register_view_holds_only_true_entries(mapped):
    op, seen = mapped.op, 0
    for reg in range(op.register_count):
        for lane in range(mapped.wave):
            for place, elem in op.entries(reg, lane):
                assert reg in place.regs and place.lane == lane
                assert place in mapped.forward[elem], (reg, lane, place, elem)
                seen += 1
    assert seen > 0
    assert op.entries(op.register_count, 0) == []


def test_places_partition_the_registers(mapped):
    inst, matrix, op = mapped.inst, mapped.matrix, mapped.op
    owners = mapped.slot_owners()
    if inst.family == "cdna":
        for elem, places in mapped.forward.items():
            assert len(places) == 1, elem
    shared = inst.sparse and matrix in ("A", "K")
    for place, elems in owners.items():
        if not shared:
            assert len(elems) == 1, (place, elems)
            continue
        rows, cols, blocks = zip(*elems)
        first = cols[0] - cols[0] % 4
        assert len(set(rows)) == 1 and len(set(blocks)) == 1, (place, elems)
        assert sorted(cols) == list(range(first, first + 4)), (place, elems)
    spans = defaultdict(list)  # lane -> [start bit, end bit) over the lane's register file
    for place in owners:
        assert 0 <= place.lane < mapped.wave
        assert place.regs[-1] < op.register_count, place
        start = 32 * place.reg + place.lo
        spans[place.lane].append((start, start + place.width))
    for lane, used in spans.items():
        used.sort()
        for (_, end), (start, _) in zip(used, used[1:]):
            assert end <= start, f"lane {lane}: bits overlap at {start}"
        if inst.family == "cdna" and matrix != "K":  # CDNA operands fill their registers
            assert sum(e - s for s, e in used) == 32 * op.register_count, lane


# ---- register counts -------------------------------------------------------------

# (arch, mnemonic) -> A, B, C (sparse: the compression index K), D register counts.
KNOWN_COUNTS = {
    ("CDNA1", "v_mfma_f32_32x32x8f16"): (2, 2, 16, 16),
    ("CDNA1", "v_mfma_f32_4x4x1f32"): (1, 1, 4, 4),
    ("CDNA2", "v_mfma_f64_16x16x4f64"): (2, 2, 8, 8),
    ("CDNA2", "v_mfma_f64_4x4x4f64"): (2, 2, 2, 2),
    ("CDNA2", "v_mfma_f32_32x32x4bf16_1k"): (2, 2, 32, 32),
    ("CDNA3", "v_mfma_f32_32x32x1_2b_f32"): (1, 1, 32, 32),
    ("CDNA3", "v_mfma_f32_16x16x32_fp8_fp8"): (2, 2, 4, 4),
    ("CDNA3", "v_mfma_i32_32x32x16_i8"): (2, 2, 16, 16),
    ("CDNA3", "v_smfmac_i32_32x32x32_i8"): (2, 4, 1, 16),
    ("CDNA3", "v_smfmac_f32_16x16x32_f16"): (2, 4, 1, 4),
}


_ROW = re.compile(r"^\| ([CR]DNA\d) \| `(\w+)` \|.*\| ([^|]+) \|\s*$", re.M)
_COUNTS = re.compile(r"(\d+)/(\d+)/(\d+)/(\d+)")


def appendix_a():
    """{(arch, mnemonic, wave): (A, B, C or K, D)} from REFERENCE_CLI.md, or None."""
    text = data_text("reference", "register_counts.md")
    if text is None:
        return None
    table = {}
    for arch, mnemonic, cell in _ROW.findall(text.split("## Appendix A", 1)[1]):
        found = [tuple(map(int, m)) for m in _COUNTS.findall(cell)]
        waves = (32, 64) if arch.startswith("RDNA") else (64,)
        assert len(found) == len(waves), cell
        table.update({(arch, mnemonic, wave): c for wave, c in zip(waves, found)})
    return table


APPENDIX_A = appendix_a()


def expected_counts(inst, wave):
    """The register counts the tables give for the instruction, in Appendix A order."""
    found = []
    if (inst.arch, inst.mnemonic) in KNOWN_COUNTS and wave == 64:
        found.append(KNOWN_COUNTS[inst.arch, inst.mnemonic])
    if APPENDIX_A and (inst.arch, inst.mnemonic, wave) in APPENDIX_A:
        found.append(APPENDIX_A[inst.arch, inst.mnemonic, wave])
    return found


def test_register_count(mapped):
    """Every table that lists the operand agrees; with or without one, the count is that
    of the highest register any element touches."""
    op = mapped.op
    last = max(p.regs[-1] for places in mapped.forward.values() for p in places)
    assert op.register_count == last + 1
    column = "ABCD".index(mapped.matrix.replace("K", "C"))  # the columns: A, B, C or K, D
    for counts in expected_counts(mapped.inst, mapped.wave):
        assert op.register_count == counts[column], counts


def test_known_counts_name_registered_instructions():
    for arch_name, mnemonic in KNOWN_COUNTS:
        arch = next(a for a in ARCHITECTURES if a.name == arch_name)
        assert arch.find(mnemonic) is not None, (arch_name, mnemonic)


def test_appendix_a_covers_the_reference_architectures():
    listed = defaultdict(set)
    for arch, mnemonic, _ in APPENDIX_A:
        listed[arch].add(mnemonic)
    assert sum(map(len, listed.values())) == 121
    assert {a: len(m) for a, m in listed.items() if a.startswith("CDNA")} == {
        "CDNA1": 20, "CDNA2": 27, "CDNA3": 46}
    for arch in ARCHITECTURES:  # every row names a registered instruction, and back
        if arch.name in listed:
            assert {i.mnemonic for i in arch.instructions} == listed[arch.name], arch.name


@pytest.mark.slow
def test_single_lane_lookups_equal_the_full_inverse():
    """Operand.entries answers a first look-up by scanning one lane; it must give what the
    full inverse map gives, for every register and lane."""
    from layouts import Modifiers
    for arch in ARCHITECTURES:
        for inst in swept(arch)[::7]:
            matrices = ("A", "B", "D", "K") if inst.sparse else ("A", "B", "C", "D")
            wave = arch.waves[-1] if arch.vendor == "amd" else inst.wave_sizes[-1]
            for matrix in inst.matrices or matrices:
                mods = Modifiers(opsel=4) if inst.arch == "RDNA3" and matrix == "C" \
                    and inst.opsel else Modifiers()
                full = Operand(inst, matrix, mods, wave)
                assert full.lanes  # builds the whole inverse
                for lane in range(wave):
                    for reg in range(full.register_count):
                        fresh = Operand(inst, matrix, mods, wave)
                        assert fresh.entries(reg, lane) == full.entries(reg, lane), \
                            (inst.mnemonic, matrix, reg, lane)
