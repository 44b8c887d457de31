"""The engine's facts the renderers of formats/ draw with, as the library's typed names:
the family traits, the formula texts' shapes, the modifiers' rules (the fragments the
HIP emitter writes from: matrix_library.code; the LDS loads' lane maps:
matrix_library.lds_lanes). formats/ reads
the engine only through these modules and the answers; they are loaded by the modes that
draw code, formulas or facts (never by a point query)."""
from __future__ import annotations

from layouts import COORDINATES as COORDINATES  # (which of i, j, k index each matrix)
from layouts import Operand
from layouts import check_modifiers as check_modifiers
from layouts import operand as made_operand
from layouts.core import BIT as BIT
from layouts.core import BLOCK as BLOCK
from layouts.core import COL as COL
from layouts.core import COPY as COPY
from layouts.core import LANE as LANE
from layouts.core import ROW as ROW
from layouts.family import family_of as family_of
from layouts.family import hooks
from layouts.family import wmma_builtins as wmma_builtins
from layouts.legality import rule as rule
from layouts.modifiers import Modifiers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions.model import Instruction
    from layouts.cdna import ABShape as ABShape  # (the types of the CDNA shapes below)
    from layouts.cdna import CDShape as CDShape
    from layouts.core import Layout
    from layouts.gfx1250 import Latency, Provenance

    from matrix_library.answers import Section


def engine_operand(inst: Instruction, matrix: str, mods: Modifiers = Modifiers(),
                   wave: int = 64) -> Operand:
    """The engine's operand as is (no checks: for renderers that ask about operands they
    know to exist; matrix_library.checks.operand is the checked one)."""
    return made_operand(inst, matrix, mods, wave)


def index_readings(inst: Instruction, mods: Modifiers) -> list[tuple[str, str, Layout]]:
    """(name, statement, layout) of each other reading of `inst`'s sparse index that a source gives
    (the family's `index_readings`; none for most families), as the layout the hardware
    would read the index through beside the calculator's A and B."""
    found = hooks(inst).index_readings
    return [] if found is None else found(inst, mods)


def formula_sections(inst: Instruction, mods: Modifiers = Modifiers(),
                     waves: tuple[int, ...] = ()) -> dict[int, Section]:
    """{wave: (element -> register lines, register -> element lines)}: the mapping formulas
    derived from the layouts (layouts/formulas.py)."""
    # (the formula texts' lazy boundary: -d of an architecture whose text is the
    # reference's own prints none of them)
    from layouts.formulas import formula_sections as derived
    return derived(inst, mods, waves)


# ---- one family's facts: each loads its family's module when asked (the family modules'
# lazy boundary: a query loads only its own family's generator)

def ab_shape(inst: Instruction, rows: int, bits: int) -> ABShape:
    """CDNA's A/B operand shape (`rows`: M for A, N for B; `bits` per value)."""
    from layouts.cdna import ABShape as made
    return made(inst, rows, bits)


def cd_shape(inst: Instruction) -> CDShape:
    """CDNA's C/D operand shape."""
    from layouts.cdna import CDShape as made
    return made(inst)


def sparse_lane_k(inst: Instruction) -> int:
    """The K values a lane of a CDNA SMFMAC holds."""
    from layouts.cdna import sparse_lane_k as found
    return found(inst)


def index_bits_per_lane(inst: Instruction, wave: int) -> int:
    """The bits of a lane's slice of an RDNA SWMMAC's index VGPR."""
    from layouts.rdna4 import index_bits_per_lane as found
    return found(inst, wave)


def format_code(name: str) -> int:
    """gfx1250's code of the f8f6f4 format `name` (fp8, bf8, fp6, bf6, fp4)."""
    from layouts.gfx1250 import FORMATS
    return FORMATS.index(name)


def neg_masks(inst: Instruction) -> tuple[int, int]:
    """gfx1250's neg_lo and neg_hi masks the instruction takes."""
    from layouts.gfx1250 import neg_masks as found
    return found(inst)


def latencies(inst: Instruction) -> list[Latency]:
    """gfx1250's latencies of the instruction."""
    from layouts.gfx1250 import latencies as found
    return found(inst)


def provenance(inst: Instruction) -> Provenance:
    """gfx1250's source and confidence of each fact and layout."""
    from layouts.gfx1250 import provenance as found
    return found(inst)
