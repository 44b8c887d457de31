"""The gfx1250 / gfx1251 fact sheet's layout examples (tests/data/facts/gfx1250_examples.txt,
part 1), LLVM's recorded answers (tests/data/gfx1250_llvm_mc.txt, gfx1250_llvm_mca.txt)
and the readers both gfx1250 test modules share."""
from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from instructions import find_architecture
from layouts.core import Layout, Place
from layouts.gfx1250 import FORMATS

DATA = Path(__file__).resolve().parents[1] / "data"
MC_DATA = DATA / "gfx1250_llvm_mc.txt"
MCA_DATA = DATA / "gfx1250_llvm_mca.txt"

WAVE32 = 32


# ---- helpers

def shape_of(mnemonic: str) -> Any:
    """The instruction record of a gfx1250 (else gfx1251) mnemonic: what the generators
    read (layouts.gfx1250.operand)."""
    for arch in ("gfx1250", "gfx1251"):
        for inst in find_architecture(arch).instructions:
            if inst.mnemonic == mnemonic:
                return inst
    raise KeyError(mnemonic)


def with_formats(inst: Any, fa: str, fb: str) -> Any:
    """An f8f6f4 instruction with A in format fa and B in fb (matrix_a/b_fmt names)."""
    return inst.with_formats(FORMATS.index(fa), FORMATS.index(fb))


def slot_text(place: Place) -> str:
    """amc notation of one place: vN{lane}.[hi:lo], split where a value straddles VGPRs
    (low bits first, as the fact sheet writes them)."""
    parts, lo, left, reg = [], place.lo, place.width, place.reg
    while left:
        take = min(left, 32 - lo)
        parts.append(f"v{reg}{{{place.lane}}}.[{lo + take - 1}:{lo}]")
        left, lo, reg = left - take, 0, reg + 1
    return " + ".join(parts)


def where(layout: Layout, row: int, col: int) -> str:
    places = layout.places(row, col)
    assert len(places) == 1, places
    return slot_text(places[0])


@cache
def mc_rows() -> tuple[tuple[str, str, str], ...]:
    rows = []
    for text in MC_DATA.read_text(encoding="utf-8").splitlines():
        if text and not text.startswith("#"):
            cpu, line, answer = text.split("\t")
            rows.append((cpu, line, answer))
    return tuple(rows)


def answer(line: str, cpu: str = "gfx1250") -> str:
    found = answers().get((cpu, line))
    if found is None:
        raise KeyError(f"{cpu}: {line} was not recorded")
    return found


def encoding(line: str, cpu: str = "gfx1250") -> list[int]:
    ans = answer(line, cpu)
    assert ans.startswith("enc "), f"{line}: {ans}"
    return [int(x, 16) for x in ans[5:ans.index("]")].split(",")]


@cache
def answers() -> dict[tuple[str, str], str]:
    return {(cpu, line): ans for cpu, line, ans in mc_rows()}


def mnemonics(cpu: str) -> list[str]:
    """Every matrix instruction of `cpu`: the script probes each once in wave64 (on its
    own target; gfx1251 has every gfx1250 instruction and v_wmma_f64_16x16x4_f64)."""
    names = [line.split()[0] for c, line, _ in mc_rows() if "wavefrontsize64" in c]
    return names if cpu == "gfx1251" else [n for n in names if "_f64_" not in n]


def baseline(mnemonic: str) -> str:
    """The first (baseline) probe line of an instruction."""
    for _, text, _ in mc_rows():
        if text.split()[0] == mnemonic:
            return text
    raise KeyError(mnemonic)


REG = re.compile(r"^v(\d+)$|^v\[(\d+):(\d+)\]$")
OPERAND_NAMES = ("D", "A", "B", "C", "SA", "SB")


def operand_widths(line: str) -> dict[str, int]:
    """VGPR count of each register operand of an assembler line (D, A, B, C/index, SA,
    SB in order; inline constants and SGPRs are left out)."""
    ops = [x.strip() for x in line.split(" ", 1)[1].split(",")]
    ops[-1] = ops[-1].split()[0]
    widths = {}
    for name, text in zip(OPERAND_NAMES, ops):
        found = REG.match(text)
        if found:
            widths[name] = 1 if found.group(1) else int(found.group(3)) - int(found.group(2)) + 1
    return widths


def llvm_widths(mnemonic: str, mods: str = "") -> dict[str, set[int]]:
    """Per operand, the VGPR counts LLVM accepted in the recorded probes that carry
    exactly the modifier text `mods` (the f8f6f4 format modifiers)."""
    accepted: dict[str, set[int]] = {}
    for cpu, line, ans in mc_rows():
        if cpu not in ("gfx1250", "gfx1251") or line.split()[0] != mnemonic:
            continue
        regs = line.split(", ")
        tail = regs[-1].split(" ", 1)
        if (tail[1] if len(tail) > 1 else "") != mods or not ans.startswith("enc "):
            continue
        for name, width in operand_widths(line).items():
            accepted.setdefault(name, set()).add(width)
    return accepted


def fmt_mods(fa: str, fb: str) -> str:
    return " ".join(x for x in (f"matrix_a_fmt:MATRIX_FMT_{fa.upper()}" if fa != "fp8" else "",
                               f"matrix_b_fmt:MATRIX_FMT_{fb.upper()}" if fb != "fp8" else "")
                    if x)


def operand_matrices(shape: Any) -> list[str]:
    mats = ["A", "B", "D"] + (["K"] if shape.sparse else ["C"])
    return mats + (["SA", "SB"] if shape.scale_k else [])


def every_case() -> Iterator[tuple[str, Any, str]]:
    """(label, shape, matrix) of every operand of every instruction under every format
    pair and scale lane half."""
    for cpu in ("gfx1250", "gfx1251"):
        for name in mnemonics(cpu):
            shape = shape_of(name)
            pairs = [(fa, fb) for fa in FORMATS for fb in FORMATS] if shape.f8f6f4 else [None]
            for pair in pairs:
                s = with_formats(shape, *pair) if pair else shape
                for matrix in operand_matrices(s):
                    yield f"{name} {pair or ''} {matrix}", s, matrix


# ---- layout facts of gfx1250_examples.txt part 1: (id, mnemonic, matrix, row, col, text)

F8F6F4 = "v_wmma_f32_16x16x128_f8f6f4"
LAYOUT_FACTS = [
    ("G-CD32-1", "v_wmma_f32_16x16x32_f16", "D", 0, 0, "v0{0}.[31:0]"),
    ("G-CD32-2", "v_wmma_f32_16x16x32_f16", "D", 10, 5, "v2{21}.[31:0]"),
    ("G-CD32-3", "v_wmma_f32_16x16x32_f16", "D", 15, 15, "v7{31}.[31:0]"),
    ("G-CD32-5", "v_wmma_bf16f32_16x16x32_bf16", "C", 5, 3, "v5{3}.[31:0]"),
    ("G-CD16-1", "v_wmma_f16_16x16x32_f16", "D", 5, 3, "v2{3}.[31:16]"),
    ("G-CD16-2", "v_wmma_f16_16x16x32_f16", "D", 12, 7, "v2{23}.[15:0]"),
    ("G-CD16-3", "v_wmma_f16_16x16x32_f16", "D", 8, 0, "v0{16}.[15:0]"),
    ("G-CD16-4", "v_wmma_f16_16x16x32_f16", "D", 15, 15, "v3{31}.[31:16]"),
    ("G-CD16-5", "v_wmma_bf16f32_16x16x32_bf16", "D", 5, 3, "v2{3}.[31:16]"),
    ("G-F32-1", "v_wmma_f32_16x16x4_f32", "A", 3, 0, "v0{3}.[31:0]"),
    ("G-F32-2", "v_wmma_f32_16x16x4_f32", "A", 3, 3, "v1{19}.[31:0]"),
    ("G-F32-3", "v_wmma_f32_16x16x4_f32", "B", 2, 9, "v0{25}.[31:0]"),
    ("G-A16-1", "v_wmma_f32_16x16x32_f16", "A", 3, 5, "v2{3}.[31:16]"),
    ("G-A16-2", "v_wmma_f32_16x16x32_f16", "A", 3, 13, "v2{19}.[31:16]"),
    ("G-A16-3", "v_wmma_f32_16x16x32_f16", "A", 3, 21, "v6{3}.[31:16]"),
    ("G-A16-4", "v_wmma_f32_16x16x32_f16", "B", 13, 9, "v2{25}.[31:16]"),
    ("G-F8-1", F8F6F4, "A", 2, 40, "v6{2}.[7:0]"),
    ("G-F8-2", F8F6F4, "A", 2, 127, "v15{18}.[31:24]"),
    ("G-F8-3", F8F6F4, "A", 9, 17, "v0{25}.[15:8]"),
    ("G-F8-4", F8F6F4, "A", 0, 16, "v0{16}.[7:0]"),
    ("G-F8-4", F8F6F4, "A", 0, 31, "v3{16}.[31:24]"),
    ("G-F8-4", F8F6F4, "A", 0, 32, "v4{0}.[7:0]"),
    ("G-F8-6", "v_wmma_f32_16x16x64_fp8_fp8", "A", 7, 63, "v7{23}.[31:24]"),
    ("G-F8-6", "v_wmma_i32_16x16x64_iu8", "A", 2, 40, "v6{2}.[7:0]"),
    ("G-SP-1", "v_swmmac_f32_16x16x64_f16", "A", 5, 40, "v2{21}.[31:0]"),
    ("G-SP-2", "v_swmmac_f32_16x16x64_f16", "A", 0, 62, "v7{16}.[31:0]"),
    # G-SP-3 and G-SP-4 (S19's B) are the contested alternative:
    # tests/instructions/test_gfx1250_sources.py checks them against it
    # (tests/data/gfx1250_sources.txt).
    ("G-SP-5", "v_swmmac_f32_16x16x64_f16", "B", 63, 15, "v15{31}.[31:16]"),
    ("G-SP-6", "v_swmmac_f32_16x16x64_f16", "K", 5, 45, "v0{21}.[15:12]"),
    ("G-SP-7", "v_swmmac_f32_16x16x64_f16", "K", 0, 0, "v0{0}.[3:0]"),
    ("G-SP-7", "v_swmmac_f32_16x16x64_f16", "K", 15, 63, "v0{31}.[31:28]"),
]
# The same facts under a format pair: (id, fmt_a, fmt_b, matrix, row, col, text).
FORMAT_FACTS = [
    ("G-F8-5", "fp8", "fp8", "A", 2, 40, "v6{2}.[7:0]"),
    ("G-F4-1", "fp4", "fp8", "A", 0, 100, "v4{16}.[19:16]"),
    ("G-F4-2", "fp4", "fp8", "A", 5, 31, "v3{5}.[31:28]"),
    ("G-F4-3", "fp4", "fp8", "A", 5, 32, "v0{21}.[3:0]"),
    ("G-F4-4", "fp4", "fp8", "A", 0, 63, "v3{16}.[31:28]"),
    ("G-F4-4", "fp4", "fp8", "A", 0, 64, "v4{0}.[3:0]"),
    ("G-F4-5", "fp8", "fp4", "B", 127, 15, "v7{31}.[31:28]"),
    ("G-F6-1", "fp6", "fp8", "A", 0, 0, "v0{0}.[5:0]"),
    ("G-F6-2", "bf6", "fp8", "A", 1, 70, "v7{1}.[9:4]"),
    ("G-F6-3", "fp6", "fp8", "A", 1, 5, "v0{1}.[31:30] + v1{1}.[3:0]"),
    ("G-F6-4", "fp6", "fp8", "A", 4, 37, "v0{20}.[31:30] + v1{20}.[3:0]"),
    ("G-F6-5", "fp6", "fp8", "A", 2, 10, "v1{2}.[31:28] + v2{2}.[1:0]"),
    ("G-F6-6", "fp6", "fp8", "A", 0, 63, "v5{16}.[31:26]"),
    ("G-F6-6", "fp6", "fp8", "A", 0, 127, "v11{16}.[31:26]"),
]
# Scales: (id, mnemonic, matrix, select, row, col (K block), text).
SCALE_FACTS = [
    ("G-SC-1", "v_wmma_scale_f32_16x16x128_f8f6f4", "SA", 0, 7, 70 // 32, "v0{7}.[23:16]"),
    ("G-SC-2", "v_wmma_scale_f32_16x16x128_f8f6f4", "SA", 1, 7, 70 // 32, "v0{23}.[23:16]"),
    ("G-SC-3", "v_wmma_scale_f32_16x16x128_f8f6f4", "SB", 0, 100 // 32, 12, "v0{12}.[31:24]"),
    ("G-SC-4", "v_wmma_scale16_f32_16x16x128_f8f6f4", "SA", 0, 7, 70 // 16, "v1{7}.[7:0]"),
    ("G-SC-5", "v_wmma_scale_f32_32x16x128_f4", "SA", 0, 20, 1, "v0{20}.[15:8]"),
    ("G-SC-5", "v_wmma_scale_f32_32x16x128_f4", "SA", 1, 20, 1, "v0{20}.[15:8]"),
    ("G-SC-5", "v_wmma_scale_f32_32x16x128_f4", "SB", 1, 1, 4, "v0{20}.[15:8]"),
]


LLVM_NAME = {"C": "C", "K": "C", "D": "D", "A": "A", "B": "B", "SA": "SA", "SB": "SB"}


def data_script(name: str) -> Any:
    """The regeneration script tests/data/<name>.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, DATA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
