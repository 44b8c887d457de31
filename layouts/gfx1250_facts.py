"""What matrix_api.facts adds for the gfx1250 layout family (gfx1250, gfx1251): the
source and confidence of every fact and layout (instructions/gfx1250_provenance.py) and
each source's latency (-d, --json)."""
from __future__ import annotations

from instructions import gfx1250_provenance as sources

from layouts.gfx1250 import index_bits, sourced

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not loaded at run time: start-up)
    from instructions.gfx1250_provenance import SourceDoc
    from instructions.model import Instruction
    from typing_extensions import NotRequired, TypedDict

    from layouts.family import FamilyFacts

    class Latency(TypedDict):
        """One source's latency of an instruction (None: the source has no figure)."""
        source: str
        cycles: int | None
        where: str

    class ProductNames(SourceDoc):
        names: str

    class LatencyDoc(SourceDoc):
        values: list[Latency]

    class IndexWidth(SourceDoc):
        operand_bits: int
        bits_read: dict[str, str]

    class Provenance(TypedDict):
        """Source and confidence of each fact and layout (matrix_api.provenance)."""
        product_names: ProductNames
        encoding: SourceDoc
        latency: LatencyDoc
        layouts: dict[str, SourceDoc]
        clamp: NotRequired[SourceDoc]
        index_width: NotRequired[IndexWidth]


def provenance(inst: Instruction) -> Provenance:
    """Source and confidence of each fact and layout of `inst` (formats as chosen)."""
    from layouts.modifiers import Modifiers
    mats = ["A", "B"] + (["K"] if inst.sparse else ["C"]) + ["D"]
    mats += ["SA", "SB"] if inst.scaled else []
    known = bool(inst.cycles)
    out: Provenance = {
        "product_names": {"names": sources.PRODUCT_NAMES[inst.arch],
                          **sources.PRODUCT_SOURCE.as_dict()},
        "encoding": (sources.LLVM_FACTS if known else sources.F64_FACTS).as_dict(),
        "latency": {**(sources.LATENCY if known else sources.F64_FACTS).as_dict(),
                    "values": latencies(inst)},
        "layouts": {m: sourced(inst, m, Modifiers()).provenance.as_dict() for m in mats},
    }
    if inst.a_type.is_int:
        out["clamp"] = sources.CLAMP.as_dict()
    if inst.sparse:
        width = index_bits(inst.k)
        read = sources.INDEX_WIDTH if width > 32 else sources.INDEX_WIDTH_16
        out["index_width"] = {**read.as_dict(),
                              "operand_bits": width,
                              "bits_read": {"index_key 0": f"[{width - 1}:0]",
                                            "index_key 1": f"[{width - 1}:{width // 2}]"}}
    return out


def latencies(inst: Instruction) -> list[Latency]:
    """Each source's latency of `inst` (formats as chosen), labelled: LLVM's scheduling
    model as llvm-mca-22 reports it and AMD origami's table (None: no figure)."""
    from instructions.gfx1250 import ORIGAMI_CYCLES, ORIGAMI_F8F6F4
    origami = ORIGAMI_CYCLES.get(inst.mnemonic)
    if inst.f8f6f4:
        origami = ORIGAMI_F8F6F4.get((inst.a_type.key, inst.b_type.key))
    return [{"source": "LLVM sched model", "cycles": inst.cycles or None,
             "where": "llvm-mca-22 (LLVM 22.1.8), tests/data/gfx1250_llvm_mca.txt"},
            {"source": "AMD origami", "cycles": origami,
             "where": "ROCm/rocm-libraries shared/origami/include/origami/hardware.hpp "
                      "@0192efda (tests/data/gfx1250_sources.txt)"}]


def facts(inst: Instruction) -> FamilyFacts:
    """What matrix_api.facts adds or replaces for this family: the latency of LLVM's
    model as `cycles` (None when LLVM 22 has none), no FLOPs per cycle (no ISA cycle
    counts), the first opcode of a 128-bit pair, and the provenance of everything."""
    return {"cycles": inst.cycles or None, "flops_per_cycle": None,
            "prefix_opcode": inst.prefix_opcode, "provenance": provenance(inst)}
