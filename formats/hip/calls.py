"""clang's builtin for an instruction: its name, its operand types and its argument list,
each argument named (the modifiers as /*name=*/value comments in the emitted call).

The conventions that differ between families are data (instructions/model.py,
`WmmaBuiltins`); scripts/check_hip.py compiles every example with clang-22 and checks
the assembly's mnemonic, modifiers and operand widths.
"""
from __future__ import annotations

from instructions import ARCHITECTURES
from instructions.model import WmmaBuiltins
from instructions.modifiers import ABS, HIGH, LOW, MODIFIERS, NEGATE

from formats.hip.common import FLOAT_TYPES, CType
from matrix_library.api import CalcError, Modifiers
from matrix_library.drawing import engine_operand, index_bits_per_lane, rule, wmma_builtins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

    from instructions.model import Instruction

# One argument of a call: (name, C text); name "" for the operands A, B, C and the index.
Argument = tuple[str, str]


def wmma(inst: Instruction) -> bool:
    """WMMA and SWMMAC (wave32/wave64 builtins) rather than MFMA and SMFMAC."""
    return inst.kind in ("wmma", "swmmac")


def conventions(inst: Instruction) -> WmmaBuiltins:
    found = wmma_builtins(inst)
    if found is None:
        raise CalcError(f"the clang builtins of {inst.name} ({inst.arch}) are not charted")
    return found


def register_bits(inst: Instruction, matrix: str, wave: int = 64) -> int:
    return 32 * int(engine_operand(inst, matrix, Modifiers(), wave).register_count)


def _bf16_element(inst: Instruction) -> str:
    """clang declares the 128-bit bf16 A operands (gfx950's new MFMA/SMFMAC) with
    __bf16 elements, every other older bf16 operand with short; WMMA families say."""
    if wmma(inst):
        return conventions(inst).bf16
    return "__bf16" if register_bits(inst, "A") >= 128 else "short"


def operand_type(inst: Instruction, matrix: str, wave: int) -> CType:
    """The C type of the builtin's argument (or result) for `matrix`."""
    if matrix in ("K", "SA", "SB"):
        if wmma(inst) and conventions(inst).operand_modifiers:
            return CType("long" if register_bits(inst, matrix, wave) > 32 else "int", 1)
        # The whole index VGPR: an RDNA SWMMAC's OPSEL picks a slice of it, which the call
        # passes as the builtin's (short) index (clang then sets index_key from the shift).
        return CType("int", 1)
    total = register_bits(inst, matrix, wave)
    if matrix in ("C", "D"):
        dtype = inst.c_type if matrix == "C" else inst.out_type
    else:
        dtype = inst.a_type if matrix == "A" else inst.b_type
        if inst.f8f6f4:  # one vector for every format: the widest (8-bit) one's
            rows, cols, blocks = engine_operand(inst, matrix, Modifiers(), wave).shape
            return CType("int", rows * cols * blocks * 8 // (32 * wave))
    key, bits = dtype.key, dtype.bits
    if key in FLOAT_TYPES:
        return CType(FLOAT_TYPES[key], max(1, total // bits))
    if key == "bf16":
        return CType(_bf16_element(inst), total // 16)
    if key == "i32":
        return CType("int", total // 32)
    if total == 64 and inst.kind == "mfma":
        return CType("long", 1)
    return CType("int", total // 32)


def builtin_name(inst: Instruction, wave: int) -> str:
    """The clang builtin of `inst` (checked against clang-22 by scripts/check_hip.py)."""
    if wmma(inst):
        if not conventions(inst).wave_suffix:
            return f"__builtin_amdgcn_{inst.mnemonic[2:]}"
        generation = conventions(inst).suffix if inst.kind == "wmma" else ""
        return f"__builtin_amdgcn_{inst.mnemonic[2:]}_w{wave}{generation}"
    if inst.f8f6f4:
        return f"__builtin_amdgcn_mfma_scale_f32_{inst.m}x{inst.n}x{inst.k}_f8f6f4"
    return f"__builtin_amdgcn_{_older_spelling(inst)[2:]}"


def _older_spelling(inst: Instruction) -> str:
    """clang names an MFMA by its first mnemonic: the one of the earliest architecture of
    its family (in registry order) with the same shape and types (CDNA3's
    v_mfma_f32_32x32x1_2b_f32 -> mfma_f32_32x32x1f32, ..._32x32x8_bf16 -> ..._1k)."""
    if inst.kind != "mfma":
        return str(inst.mnemonic)

    def key(one: Instruction) -> tuple[object, ...]:
        return (one.kind, one.m, one.n, one.k, one.blocks, one.a_type.key, one.b_type.key,
                one.out_type.key)
    for arch in ARCHITECTURES:
        if arch.family != inst.family:
            continue
        for old in arch.instructions:
            if key(old) == key(inst):
                return str(old.mnemonic)
    return str(inst.mnemonic)


def check_builtin(inst: Instruction, wave: int) -> None:
    """Raise CalcError where clang has no builtin call that does what the layout says."""
    if not wmma(inst):
        return
    advice = "; emit one matrix (-A, -B, -C, -D, ...) for its fragment loads and stores"
    builtins = wmma_builtins(inst)
    if builtins is None:
        raise CalcError(f"--emit hip has no wave-level example for {inst.name} ({inst.arch}) "
                        "yet: its builtin's operands are not charted" + advice)
    if inst.a_type.key in builtins.missing:
        raise CalcError(f"--emit hip has no wave-level example for {inst.name} ({inst.arch}): "
                        f"clang 22 has no builtin for {inst.a_type.key} WMMAs" + advice)
    if inst.sparse and builtins.operand_modifiers:
        bits = register_bits(inst, "K", wave)
        if bits > builtins.index_bits:
            raise CalcError(f"--emit hip has no wave-level example for {inst.name} "
                            f"({inst.arch}): the instruction reads a {bits}-bit sparse "
                            f"index, but clang 22's {builtin_name(inst, wave)} takes a "
                            f"{builtins.index_bits}-bit one (later clang takes {bits} bits)"
                            + advice)


def negation_acts(inst: Instruction, matrix: str, mods: Modifiers,
                  wave: int, passed: Collection[str] = ()) -> dict[str, tuple[str, int]]:
    """What the chosen negation masks do to `matrix`'s values (LOW, HIGH, NEGATE, ABS of
    the modifier table's ModifierSpec.negation, for the modifiers whose rule here is a
    negation mask), each with the label and bit that ask it ("NEG_HI", 2); modifiers
    named in `passed` are left out."""
    acts: dict[str, tuple[str, int]] = {}
    for spec in MODIFIERS:
        value = getattr(mods, spec.name)
        if not value or not spec.negation or spec.name in passed:
            continue
        found = rule(spec, inst, mods, wave)
        if found is None or found.meaning != "negate":
            continue
        for bit, (target, act) in enumerate(spec.negation):
            if target == matrix and value >> bit & 1:
                acts[act] = spec.label, bit
    return acts


def _flag(on: int) -> str:
    return "true" if on else "false"


def _modifier_arguments(inst: Instruction, mods: Modifiers, wave: int,
                        args: dict[str, str]) -> list[Argument]:
    """Where the modifiers are arguments (WmmaBuiltins.operand_modifiers):
    [A's flag or format,] A, [B's flag or format,] B, [C modifier,] C[, index]
    [, scale select, scale format, scale (A, then B)][, reuse A, reuse B]."""
    a, b, c = args["A"], args["B"], args.get("C", "acc")
    fields = inst.format_fields
    before: tuple[list[Argument], list[Argument]]
    if inst.is_int:  # neg_lo[0/1]: A/B signed
        before = [("a_signed", _flag(mods.neg_lo & 1))], [("b_signed", _flag(mods.neg_lo & 2))]
    elif fields:
        before = ([(fields[0], str(getattr(mods, fields[0])))],
                  [(fields[1], str(getattr(mods, fields[1])))])
    elif inst.a_type.bits >= 16:  # whole values (16-bit: both halves; 32-bit: the low one)
        acts = [negation_acts(inst, matrix, mods, wave) for matrix in ("A", "B")]
        whole = [LOW in act and (HIGH in act or inst.a_type.bits > 16) for act in acts]
        before = [("a_neg", _flag(whole[0]))], [("b_neg", _flag(whole[1]))]
    else:
        before = [], []
    out = before[0] + [("", a)] + before[1] + [("", b)]
    if inst.sparse:
        builtins = conventions(inst)
        shift = mods.index_key * builtins.index_bits // builtins.index_keys
        k = args["K"]
        out += [("", c), ("index",
                          f"(int)((unsigned int){k} >> {shift})" if shift else k)]
    elif inst.is_int:
        out.append(("", c))
    else:
        on_c = negation_acts(inst, "C", mods, wave)  # c_mod: bit 0 negates, bit 1 |C|
        c_mod = (NEGATE in on_c) | (ABS in on_c) << 1
        out += [("c_mod", f"(short){c_mod}"), ("", c)]
    if inst.scaled:
        out += [("matrix_a_scale", str(mods.matrix_a_scale)),
                ("matrix_a_scale_fmt", str(mods.matrix_a_scale_fmt)), ("scale_a", args["SA"]),
                ("matrix_b_scale", str(mods.matrix_b_scale)),
                ("matrix_b_scale_fmt", str(mods.matrix_b_scale_fmt)), ("scale_b", args["SB"])]
    if inst.takes("matrix_a_reuse"):
        out += [("matrix_a_reuse", _flag(mods.matrix_a_reuse)),
                ("matrix_b_reuse", _flag(mods.matrix_b_reuse))]
    return out


def named_arguments(inst: Instruction, mods: Modifiers, wave: int,
                    args: dict[str, str]) -> list[Argument]:
    """The builtin's arguments in clang's order, each with its name ("" for operands)."""
    a, b, c = args["A"], args["B"], args.get("C", "acc")
    if wmma(inst) and conventions(inst).operand_modifiers:
        return _modifier_arguments(inst, mods, wave, args)
    if wmma(inst):
        idx: list[Argument] = []
        if inst.sparse:
            # clang takes the index as an int and selects index_key from a shift of the
            # whole index VGPR (OPSEL's slice): k >> 8, 16, 24 give index_key 1, 2, 3.
            shift = mods.opsel * index_bits_per_lane(inst, wave)
            k = args["K"]
            idx = [("index", f"(int)((unsigned int){k} >> {shift})" if shift else k)]
        if inst.is_int:
            return [("a_signed", _flag(mods.neg & 1)), ("", a), ("b_signed", _flag(mods.neg & 2)),
                    ("", b), ("", c)] + idx + [("clamp", "false")]
        opsel = [("opsel", _flag(mods.opsel))] if (
            conventions(inst).opsel_argument and inst.out_type.bits == 16) else []
        return [("", a), ("", b), ("", c)] + idx + opsel
    if inst.f8f6f4:
        if inst.scaled:
            scales = [("opsel_a", str(mods.opsel_a)), ("scale_a", args["SA"]),
                      ("opsel_b", str(mods.opsel_b)), ("scale_b", args["SB"])]
        else:
            scales = [("opsel_a", "0"), ("scale_a", "0"), ("opsel_b", "0"), ("scale_b", "0")]
        return [("", a), ("", b), ("", c), ("cbsz_a_format", str(mods.cbsz)),
                ("blgp_b_format", str(mods.blgp))] + scales
    if inst.sparse:
        return [("", a), ("", b), ("", c), ("index", args["K"]), ("cbsz", str(mods.cbsz)),
                ("abid", str(mods.abid))]
    return [("", a), ("", b), ("", c), ("cbsz", str(mods.cbsz)), ("abid", str(mods.abid)),
            ("blgp", str(mods.blgp))]


def call_arguments(inst: Instruction, mods: Modifiers, wave: int,
                   args: dict[str, str]) -> str:
    """The builtin's argument list as plain C (no comments)."""
    return ", ".join(text for _, text in named_arguments(inst, mods, wave, args))


def call_text(inst: Instruction, mods: Modifiers, wave: int, args: dict[str, str],
              indent: str) -> str:
    """`builtin(arguments)` with every modifier argument commented by name, one argument
    per line after the operands when there are modifiers."""
    named = named_arguments(inst, mods, wave, args)
    name = builtin_name(inst, wave)
    if all(not n for n, _ in named):
        return f"{name}({', '.join(t for _, t in named)})"
    pad = indent + "    "
    parts = [f"/*{n}=*/{t}" if n else t for n, t in named]
    return f"{name}(\n{pad}" + f",\n{pad}".join(parts) + ")"
