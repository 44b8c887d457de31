"""What each value of each modifier does, per instruction and per layout family: read
off the modifier table (instructions/modifiers.py: effect, negation, names), the
instruction's rule (layouts/legality.py: range, meaning) and the engine's own data (the
BLGP lane sources, the index-set slices), so the text cannot drift from what the layouts
do. `-d` prints it for an instruction, `--json` gives it as data, and docs/usage.md holds
the family table `family_table()` writes (tests/library/test_modifier_values.py compares).
"""
from __future__ import annotations

from instructions import ARCHITECTURES
from instructions.model import Instruction
from instructions.modifiers import ABS, HIGH, LOW, MODIFIERS, NEGATE, Modifiers, ModifierSpec, Rule
from layouts.legality import rule
from layouts.modifiers import BLGP_SOURCE

from matrix_library.checks import instruction, operand, wave_size

ACTS = {LOW: "negates the low 16-bit halves of", HIGH: "negates the high 16-bit halves of",
        NEGATE: "negates", ABS: "takes the absolute value of"}
# The modifiers the family table covers (the others: formats, scales and hints, whose
# values -h names), in the modifier table's order.
TABLED = ("cbsz", "abid", "blgp", "opsel", "neg", "neg_hi", "opsel_a", "opsel_b", "neg_lo",
          "index_key")


def _spans(lanes: list[int]) -> str:
    """'0-15' for a run of lanes."""
    return f"{lanes[0]}-{lanes[-1]}" if len(lanes) > 1 else str(lanes[0])


def _lane_pattern(value: int, wave: int) -> str:
    source = BLGP_SOURCE[value]
    if all(source(lane) == lane for lane in range(wave)):
        return "B as is"
    groups = [list(range(start, start + 16)) for start in range(0, wave, 16)]
    parts = [f"{_spans(group)} read {_spans([source(lane) for lane in group])}"
             for group in groups]
    return "B lanes " + ", ".join(parts)


def _mask(spec: ModifierSpec, found: Rule, value: int) -> str:
    if value == 0:
        return "nothing"
    parts = []
    for bit in range(found.top.bit_length()):
        if not value >> bit & 1:
            continue
        matrix = found.matrices[bit] if bit < len(found.matrices) else "?"
        if found.meaning == "signed":
            parts.append(f"{matrix} signed")
        elif spec.negation and bit < len(spec.negation):
            target, act = spec.negation[bit]
            parts.append(f"{ACTS[act]} {target}")
        else:
            parts.append(f"negates {matrix}")
    return "; ".join(parts)


def _index_set(found: Rule, value: int) -> str:
    bits = 32 // (found.top + 1)
    low = value * bits
    return f"K: the index set in bits [{low + bits - 1}:{low}] of the index VGPR"


def meaning(inst: Instruction, spec: ModifierSpec, found: Rule, value: int,
            wave: int) -> str:
    """What `value` of `spec` does under `found` (the instruction's rule)."""
    if found.meaning == "broadcast" and spec.name == "cbsz":
        return ("no broadcast" if value == 0 else
                f"A: aligned groups of {1 << value} blocks read the A of block ABID")
    if found.meaning == "broadcast":  # ABID
        return "A: each group of 2^CBSZ blocks reads the A of its block number ABID"
    if found.meaning == "index_set":
        return _index_set(found, value)
    if found.meaning == "lane_pattern":
        return _lane_pattern(value, wave)
    if found.meaning in ("negate", "signed"):
        return _mask(spec, found, value)
    if found.meaning == "cd_half":
        return ("16-bit C/D values in the low halves of their VGPRs" if value == 0 else
                "16-bit C/D values in the high halves of their VGPRs")
    if found.meaning == "format" or found.names:
        name = found.names[value] if value < len(found.names) else str(value)
        uses = spec.effect.split("; ")  # (a modifier of several uses names this one)
        use = next((u.split(": ", 1)[1] for u in uses if u.startswith("f8f6f4: ")), uses[0])
        return f"{name}: {use}"
    if len(spec.matrices) == 1 and spec.matrices[0] in ("K", "SA", "SB"):
        return _slice(inst, spec, value, wave)
    return spec.effect or str(value)


def _slice(inst: Instruction, spec: ModifierSpec, value: int, wave: int) -> str:
    """Where the value puts a one-register operand's entries (the engine's places)."""
    matrix = spec.matrices[0]
    found = operand(inst, matrix, mods=Modifiers(**{spec.name: value}), wave=wave)
    low, high = found.layout.bit_span()
    return f"{matrix}: its entries in bits [{high}:{low}] of its VGPRs"


def _values(found: Rule) -> list[int]:
    if found.mask >= 0:  # a mask: each bit alone
        bits = range(found.top.bit_length())
        return [0] + [1 << bit for bit in bits if found.mask >> bit & 1]
    if found.values:
        return [0, *found.values]
    return list(range(found.top + 1))


def value_meanings(inst: Instruction, wave: int) -> dict[str, list[tuple[int, str]]]:
    """{modifier name: [(value, what it does)]} for the modifiers `inst` takes in `wave`
    (ABID with the largest CBSZ, whose group it picks in). Mask values are listed bit by
    bit: a value is the sum of its bits."""
    inst = instruction(inst)  # (a CalcError for anything but an Instruction)
    wave = wave_size(inst, wave)
    found: dict[str, list[tuple[int, str]]] = {}
    for spec in MODIFIERS:
        if not inst.takes(spec.name):
            continue
        base = Modifiers()
        if spec.name == "abid" and inst.takes("cbsz"):
            top = rule(MODIFIERS[0], inst, base, wave)
            if top is not None and top.meaning == "broadcast":
                base = base._replace(cbsz=top.top)
        got = rule(spec, inst, base, wave)
        if got is None:
            continue
        found[spec.name] = [(v, meaning(inst, spec, got, v, wave))
                            for v in _values(got)]
    return found


def family_rows() -> list[tuple[str, str, str, str, str]]:
    """(family, modifier, where, value, what it does) for the TABLED modifiers: one row
    per distinct meaning, named by the first instruction and wave that has it."""
    rows: list[tuple[str, str, str, str, str]] = []
    seen: set[tuple[str, str, str, str]] = set()
    by_name = {spec.name: spec for spec in MODIFIERS}
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            for wave in inst.wave_sizes:
                for name, values in value_meanings(inst, wave).items():
                    if name not in TABLED:
                        continue
                    for value, text in values:
                        key = (arch.family, name, str(value), text)
                        if key in seen:
                            continue
                        seen.add(key)
                        where = f"{arch.name.lower()} {inst.mnemonic}" + (
                            f" wave{wave}" if len(arch.waves) > 1 else "")
                        rows.append((arch.family, by_name[name].label, where, str(value),
                                     text))
    order = {name: at for at, name in enumerate(TABLED)}
    label_order = {by_name[name].label: order[name] for name in TABLED}
    return _merged(sorted(rows, key=lambda r: (r[0], label_order[r[1]])))


def _merged(rows: list[tuple[str, str, str, str, str]]) -> list[tuple[str, str, str, str, str]]:
    """Rows of one family and modifier that say the same for several values, as one row
    whose value is their range (ABID 0-15)."""
    out: list[tuple[str, str, str, str, str]] = []
    for row in rows:
        last = out[-1] if out else None
        if last is not None and last[:2] == row[:2] and last[4] == row[4]:
            first = last[3].split("-")[0]
            out[-1] = (*last[:3], f"{first}-{row[3]}", last[4])
        else:
            out.append(row)
    return out


def family_table() -> str:
    """The Markdown table of docs/usage.md: what each value does, per family."""
    lines = ["| family | modifier | first seen on | value | what it does |",
             "| --- | --- | --- | --- | --- |"]
    lines += [f"| {family} | {label} | `{where}` | {value} | {text} |"
              for family, label, where, value, text in family_rows()]
    return "\n".join(lines) + "\n"
