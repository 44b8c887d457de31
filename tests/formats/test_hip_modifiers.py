"""The HIP emitter and the modifier table agree (instructions/modifiers.py: `shapes`,
`negation`, SHAPES_BY_MEANING).

For every instruction with a wave-level example and every modifier it takes, one value
at a time:
- the example names (and builds) an operand's functions by the modifier exactly where
  the table says the modifier moves that operand's layout; where the table says it moves
  nothing, the engine's fragment is indeed the same with it as without it (so sharing the
  functions is right), and where it says it moves a layout (other than a format's, which
  names every operand) the fragment indeed moves;
- every bit of a negation mask the table gives a matrix changes the emitted example, or
  the value is refused with a message naming the modifier;
- each negation bit's action in the table (LOW/HIGH halves, NEGATE, ABS) is what the
  engine marks on that matrix's values (-v, |v|), on every architecture.
"""
import pytest

from formats import hip
from instructions import TARGETS
from instructions.modifiers import (
    ABS,
    EVERY,
    HIGH,
    LOW,
    MODIFIERS,
    NEGATE,
    SHAPES_BY_MEANING,
    Modifiers,
    modifier,
    shaped,
)
from matrix_library import api as mc
from matrix_library import code, drawing

FIXED = hip.Options(prefix="t")  # one name whatever the modifiers: outputs compare as code


def _examples():
    """(instruction, wave) of every instruction with a wave-level example (each
    architecture's first wave size)."""
    out = []
    for arch in mc.architectures():
        if arch.name not in TARGETS:
            continue
        wave = arch.waves[0]
        for inst in arch.instructions:
            try:
                hip.emit(inst, None, None, wave, FIXED)
            except mc.CalcError:
                continue
            out.append((inst, wave))
    return out


EXAMPLES = _examples()


def _values(rule) -> list[int]:
    """The nonzero values to try: each bit of a mask, else 1 .. top (at most 7)."""
    if rule.mask >= 0:
        return [1 << bit for bit in range(rule.mask.bit_length()) if rule.mask >> bit & 1]
    return [v for v in range(1, min(rule.top, 7) + 1) if not rule.values or v in rule.values]


def _fragment(inst, matrix, mods, wave):
    return code.fragment(mc.operand(inst, matrix, mods=mods, wave=wave,
                                  output_calc=matrix == "D"))


def _function_names(inst, mods, wave):
    """The load (D: store) function name the example calls, per matrix."""
    text = hip.emit(inst, None, mods, wave)
    resolved = mc.with_formats(inst, mods)
    out = {}
    for matrix in mc.matrices(resolved):
        for shaping in (Modifiers(), mods):
            prefix = hip.default_prefix(resolved, shaping, wave, hip.DEFAULT)
            name = f"{prefix}_{hip.LOWER[matrix]}_{'store' if matrix == 'D' else 'load'}("
            if name in text:
                out[matrix] = shaping is mods
    return out


def test_the_sample_covers_every_family_and_shaping_modifier():
    families = {inst.family for inst, _ in EXAMPLES}
    assert {"cdna", "rdna3", "rdna4", "gfx1250"} <= families
    taken = {spec.name for spec in MODIFIERS for inst, _ in EXAMPLES if inst.takes(spec.name)}
    assert {"cbsz", "abid", "blgp", "opsel", "neg", "neg_hi", "neg_lo", "opsel_a",
            "matrix_a_fmt", "matrix_a_scale"} <= taken


def test_shaped_reads_the_rule():
    from instructions.modifiers import Rule
    blgp = modifier("blgp")
    assert shaped(blgp, Rule(7, ("B",), meaning="lane_pattern")) == ("B",)
    assert shaped(blgp, Rule(7, ("A", "B", "C"), mask=7, meaning="negate")) == ()
    assert shaped(blgp, Rule(4, EVERY, meaning="format")) == EVERY
    assert shaped(modifier("opsel"), Rule(4, ("C", "D"), meaning="cd_half")) == ("C", "D")
    assert shaped(modifier("opsel"), Rule(3, ("K",), meaning="index_set")) == ("K",)
    assert set(SHAPES_BY_MEANING) == {"format", "negate", "signed"}


# Where the engine and the emitter may knowingly disagree (none now).
KNOWN: set[tuple[str, str]] = set()


def _names(spec, inst, wave, wrong):
    """Record in `wrong` every value of `spec` alone where the example names an operand's
    functions by it but the table says it does not move that operand, or the reverse."""
    rule = drawing.rule(spec, inst, Modifiers(), wave)
    for value in _values(rule) if rule is not None else ():
        mods = Modifiers(**{spec.name: value})
        try:
            names = _function_names(inst, mods, wave)
        except mc.CalcError as error:
            assert spec.label in str(error) or spec.option in str(error), str(error)
            continue
        moved = shaped(spec, drawing.rule(spec, mc.with_formats(inst, mods), mods, wave))
        wrong += [("named", spec.name, value, matrix) for matrix, by_it in names.items()
                  if by_it != (matrix in moved)]


def _contexts(inst, wave, others):
    """Modifiers() and, with `others`, one value at a time of every other modifier."""
    yield Modifiers()
    for other in MODIFIERS if others else ():
        rule = drawing.rule(other, inst, Modifiers(), wave)
        for value in _values(rule)[:3] if rule is not None else ():
            yield Modifiers(**{other.name: value})


def _moves(spec, inst, wave, others, moves, wrong):
    """Against the engine: where the table says `spec` does not move a matrix, its
    fragment is the same with it as without it (beside another modifier too, with
    `others`); where it says it does, record in `moves` whether it moved."""
    for given in _contexts(inst, wave, others):
        if getattr(given, spec.name):
            continue
        rule = drawing.rule(spec, inst, given, wave)
        for value in _values(rule) if rule is not None else ():
            mods = given._replace(**{spec.name: value})
            try:
                resolved = mc.with_formats(inst, mods)
                moved = shaped(spec, drawing.rule(spec, resolved, mods, wave))
            except mc.CalcError:
                continue
            for matrix in mc.matrices(resolved) if set(moved) != set(EVERY) else ():
                try:
                    change = _fragment(resolved, matrix, mods, wave) != \
                        _fragment(resolved, matrix, given, wave)
                except mc.CalcError:
                    continue
                if matrix in moved:
                    moves[spec.name, matrix] = moves.get((spec.name, matrix), False) or change
                elif change and (spec.name, matrix) not in KNOWN:
                    wrong.append(("moved by the engine", spec.name, value, matrix, given))


def _sample():
    """One instruction with an example per architecture and kind of layout."""
    seen = {}
    for inst, wave in EXAMPLES:
        key = (inst.arch, inst.kind, inst.sparse, inst.f8f6f4, inst.scaled, inst.blocks > 1,
               inst.a_type.bits)
        seen.setdefault(key, (inst, wave))
    return list(seen.values())


@pytest.mark.slow
def test_operands_are_named_by_the_modifiers_the_table_says_shape_them():
    wrong: list[tuple[object, ...]] = []
    for inst, wave in EXAMPLES:
        for spec in MODIFIERS:
            _names(spec, inst, wave, wrong)
    assert not wrong


@pytest.mark.slow
def test_the_engine_moves_what_the_table_says_and_nothing_else():
    moves: dict[tuple[str, str], bool] = {}
    wrong: list[tuple[object, ...]] = []
    sample = _sample()
    for inst, wave in EXAMPLES:
        for spec in MODIFIERS:
            _moves(spec, inst, wave, (inst, wave) in sample, moves, wrong)
    assert not wrong
    assert len(moves) >= 10 and all(moves.values()), moves


def test_index_key_moves_k_in_the_engine_and_the_example():
    """index_key 1 reads the upper half of the index operand as its first entries (the
    sources' decision 3): the engine places set 1 elsewhere, and the example loads K in that
    layout, names K's functions by it and issues index_key:1."""
    inst = mc.find_instruction("gfx1250", "v_swmmac_f32_16x16x64_f16")
    mods = Modifiers(index_key=1)
    assert code.fragment(mc.operand(inst, "K", mods=mods, wave=32)) != \
        code.fragment(mc.operand(inst, "K", wave=32))
    assert "K" in shaped(modifier("index_key"), drawing.rule(modifier("index_key"), inst, mods, 32))
    plain = hip.emit(inst, None, None, 32, FIXED)
    keyed = hip.emit(inst, None, {"index_key": 1}, 32, FIXED)
    assert keyed != plain
    # the K loader puts entry v at bit 4v + 16 (set 1), then passes the upper half
    assert "return v * 4 + 16;" in keyed and "return v * 4 + 16;" not in plain
    assert ">> 16" in keyed and ">> 16" not in plain


@pytest.mark.parametrize(("inst", "wave"), EXAMPLES,
                         ids=[f"{i.arch}-{i.mnemonic}" for i, _ in EXAMPLES])
def test_every_negation_bit_changes_the_example_or_is_refused(inst, wave):
    """(HIGH on values wider than 16 bits does nothing: gfx1250's f32 neg_hi[0/1].)"""
    plain = hip.emit(inst, None, None, wave, FIXED)
    for spec in MODIFIERS:
        rule = drawing.rule(spec, inst, Modifiers(), wave)
        if rule is None or rule.meaning != "negate":
            continue
        for bit in range(rule.mask.bit_length()):
            assert bit < len(spec.negation), (spec.name, bit, "not in the table")
            matrix, act = spec.negation[bit]
            if matrix not in mc.matrices(inst) or not rule.mask >> bit & 1:
                continue
            try:
                text = hip.emit(inst, None, {spec.name: 1 << bit}, wave, FIXED)
            except mc.CalcError as error:
                assert spec.label in str(error) or spec.option in str(error), str(error)
                continue
            if act == HIGH and _fragment(inst, matrix, Modifiers(), wave).bits > 16:
                assert text == plain, (spec.name, bit, matrix)
            else:
                assert text != plain, (spec.name, bit, matrix)


def _expected_marks(act, lo, hi):
    """(negated, absolute) the engine should mark on a value at bits lo..hi under `act`."""
    width = hi - lo + 1
    negated = act == NEGATE or (act == LOW and (width > 16 or lo % 32 == 0)) or \
        (act == HIGH and width == 16 and lo % 32 == 16)
    return negated, act == ABS


@pytest.mark.parametrize("arch", [a.name for a in mc.architectures()])
def test_the_negation_table_agrees_with_the_engines_marks(arch):
    """Each negation bit's action (ModifierSpec.negation) is what the engine marks on the
    values: -v / |v| on every value (NEGATE / ABS) or on the low or high 16-bit halves."""
    checked = 0
    for inst in mc.instructions(arch):
        wave = mc.architecture_of(inst).waves[0]
        for spec in MODIFIERS:
            rule = drawing.rule(spec, inst, Modifiers(), wave)
            if rule is None or rule.meaning != "negate":
                continue
            for bit in range(rule.mask.bit_length()):
                matrix, act = spec.negation[bit]
                if not rule.mask >> bit & 1 or matrix not in mc.matrices(inst):
                    continue
                bits = {"A": inst.a_type, "B": inst.b_type, "C": inst.c_type}[matrix].bits
                for entry in mc.layout(inst, matrix, mods={spec.name: 1 << bit}, wave=wave):
                    loc = entry.location
                    if loc.bits[1] - loc.bits[0] + 1 != bits or bits < 16:
                        continue  # (marked only on a slot of one value of 16 bits or more)
                    want = _expected_marks(act, *loc.bits)
                    assert (loc.negated, loc.absolute) == want, (inst.name, spec.name, bit, loc)
                    checked += 1
    has_negations = arch.startswith(("CDNA3", "CDNA4", "RDNA", "GFX125"))
    assert checked or not has_negations
