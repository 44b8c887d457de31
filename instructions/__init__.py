"""Registry of architectures and their instruction tables.

An architecture is one line of data: its name, table module and aliases, and the traits
every query reads instead of the name (see Architecture). Its instructions declare
their own traits in their table lines (instructions/model.py, `Instruction`).
"""

from __future__ import annotations

from instructions.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:  # (instructions.model imports this package: Instruction.architecture)
    from types import ModuleType

    from instructions.model import Instruction
    from instructions.targets import Target, TargetId

# Where to report, in one place: the project's issue tracker (a placeholder the
# maintainers set once; pyproject.toml's [project.urls] Issues must say the same, which
# tests/structure/test_packaging.py checks). -h, the probes, the internal-error lines and
# docs/verification.md (generated) name it from here.
ISSUES = "https://github.com/OWNER/matrix-calculator/issues"

# Reference behaviours that the text output reproduces on purpose (formats/quirks.py reads
# them). JSON and the library never apply them.
QUIRKS = {
    "reference_formulas": "-d prints the reference's formula texts, including the few "
                          "wrong ones, in place of those derived from the layouts",
    "broadcast_skip_walk": "-m on a CBSZ/ABID- or BLGP-remapped operand lists a "
                           "broadcast slot once and skips the slots it hides",
    "output_b_by_row": "-D -o pairs A[i][k] with B[k][i] instead of B[k][j] (RDNA3)",
    "index_entry_first_register": "-m -k lists only the first K/(2*bits) index groups "
                                  "of the lane's slice (RDNA4 SWMMAC)",
    "untitled_blocks": "-R prints the one block of a WMMA operand without a block title",
    "transposed_lane_corner": "-M --transpose heads the register column `lane`",
}


class Architecture(Record):
    """An architecture and its traits.

    name: canonical upper-case name (printed; never tested by code);
    module: its table module below this package; aliases: other accepted spellings
    (lower case); family: the layout family of its instructions (one of FAMILIES);
    unit: the compute unit FLOPs/unit/cycle counts ("CU" or "WGP"); waves: legal wave
    sizes, the first the default (an instruction may narrow them); public: whether the
    reference tool knows it; quirks: the reference behaviours its text reproduces
    (names from QUIRKS); target: the clang --offload-arch its generated HIP code is
    compiled for (its first product; any of its gfx names works the same); vendor: amd
    or nvidia (the catalog's vendor= filter); gluon: the class of Triton Gluon's
    `ttgl.amd` layouts that describes its instructions' accumulators, that class's
    `version` for it, the wave size the class is written for, and the function of
    `ttgl.amd` that gives its block scales' layouts ("": none) (("", 0, 0, ""): none;
    --emit gluon then writes linear layouts alone); members: a generic target's
    architectures, whose shared instructions it has (instructions/targets.py), () for
    others.
    """
    name: str
    module: str
    aliases: tuple[str, ...]
    family: str
    unit: str
    waves: tuple[int, ...] = (64,)
    public: bool = True
    quirks: frozenset[str] = frozenset()
    target: str = ""
    vendor: str = "amd"
    gluon: tuple[str, int, int, str] = ("", 0, 0, "")
    members: tuple[str, ...] = ()

    @property
    def instructions(self) -> tuple[Instruction, ...]:
        return _table(self.module)

    def find(self, mnemonic: str) -> Instruction | None:
        """The instruction spelled `mnemonic`: any case, or as the table module's
        `spelling(name)` function (if it has one) turns other spellings into its own.
        Trailing whitespace (a name pasted from a table or a line's end) is no part of
        it; a leading space is kept, and refused, as the reference calculator does. A
        generated table's own `find` makes the one instruction named (the table is made
        when it is read)."""
        key = mnemonic.rstrip().lower()
        table = _module(self.module)
        respell = getattr(table, "spelling", None)
        if respell is not None:
            key = respell(key)
        finder = getattr(table, "find", None)
        if finder is not None and self.module not in _TABLES:
            found: Instruction | None = finder(key)
            return found
        for inst in self.instructions:
            if inst.mnemonic == key:
                return inst
        return None


_TABLES: dict[str, tuple[Instruction, ...]] = {}


def _module(module: str) -> ModuleType:
    """The table module `module` (below this package): its INSTRUCTIONS, or for a
    generated table the functions instructions() and find(name), and its spelling(name)
    where it has one."""
    # __import__ rather than importlib.import_module: importlib (and the warnings module
    # it loads) would add to every query's start-up.
    return __import__(f"{__name__}.{module}", fromlist=["INSTRUCTIONS"])


def _table(module: str) -> tuple[Instruction, ...]:
    if module not in _TABLES:
        table = _module(module)
        made = getattr(table, "INSTRUCTIONS", None)
        _TABLES[module] = tuple(made if made is not None else table.instructions())
    return _TABLES[module]


_REFERENCE = frozenset(("reference_formulas", "broadcast_skip_walk", "transposed_lane_corner"))

ARCHITECTURES = (
    Architecture("CDNA1", "cdna1", ("cdna", "gfx908", "mi100", "arcturus"), "cdna", "CU",
                 quirks=_REFERENCE, target="gfx908",
                 gluon=("AMDMFMALayout", 1, 64, "")),
    Architecture("CDNA2", "cdna2", ("gfx90a", "mi200", "mi210", "mi250", "mi250x",
                                    "aldebaran"), "cdna", "CU", quirks=_REFERENCE,
                 target="gfx90a", gluon=("AMDMFMALayout", 2, 64, "")),
    Architecture("CDNA3", "cdna3", ("gfx940", "gfx941", "gfx942", "mi300", "mi300a", "mi300x",
                                    "mi325x", "aqua_vanjaram"), "cdna", "CU",
                 quirks=_REFERENCE, target="gfx942",
                 gluon=("AMDMFMALayout", 3, 64, "")),
    # Not known to the reference: correct formulas; -m keeps CDNA's broadcast listing.
    Architecture("CDNA4", "cdna4", ("gfx950", "mi350", "mi350x", "mi355", "mi355x"), "cdna",
                 "CU", public=False, quirks=frozenset(("broadcast_skip_walk",)), target="gfx950",
                 gluon=("AMDMFMALayout", 4, 64, "cdna4.get_mfma_scale_layout")),
    # LLVM's generic target of gfx942 and gfx950: the instructions both have.
    Architecture("GFX9-4-GENERIC", "generic9_4", (), "cdna", "CU", public=False,
                 quirks=frozenset(("broadcast_skip_walk",)), members=("CDNA3", "CDNA4")),
    Architecture("RDNA3", "rdna3", ("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
                                    "gfx1151", "gfx1152", "gfx1153"), "rdna3", "WGP",
                 waves=(32, 64), quirks=frozenset(("output_b_by_row", "untitled_blocks",
                                                   "reference_formulas",
                                                   "transposed_lane_corner")), target="gfx1100",
                 gluon=("AMDWMMALayout", 1, 32, "")),
    Architecture("RDNA4", "rdna4", ("gfx1200", "gfx1201"), "rdna4", "WGP", waves=(32, 64),
                 quirks=frozenset(("index_entry_first_register", "untitled_blocks",
                                   "reference_formulas", "transposed_lane_corner")),
                 target="gfx1200", gluon=("AMDWMMALayout", 2, 32, "")),
    # gfx1250 / gfx1251: wave32 only; the product names are from secondary sources
    # (layouts/gfx1250.py, PRODUCT_NAMES); not known to the reference.
    Architecture("GFX1250", "gfx1250", ("cdna5", "mi450", "mi450x", "mi455x"), "gfx1250",
                 "CU", waves=(32,), public=False, target="gfx1250",
                 gluon=("AMDWMMALayout", 3, 32, "gfx1250.get_wmma_scale_layout")),
    Architecture("GFX1251", "gfx1251", ("mi430x",), "gfx1250", "CU", waves=(32,),
                 public=False, target="gfx1251",
                 gluon=("AMDWMMALayout", 3, 32, "gfx1250.get_wmma_scale_layout")),
    # NVIDIA: warps of 32 threads (wgmma: a warpgroup of 128, four warps); the
    # tables are instructions/nvidia.py's, the layouts layouts/nvidia.py's. Not AMD: no
    # clang target.
    Architecture("SM80", "nvidia_sm80", ("sm_80", "a100", "a800", "a30", "ampere", "sm86",
                                         "sm_86", "rtx3090", "a10", "a40"),
                 "nvidia", "SM", waves=(32,), public=False, vendor="nvidia"),
    Architecture("SM89", "nvidia_sm89", ("sm_89", "l40s", "l40", "l4", "ada", "rtx4090"),
                 "nvidia", "SM", waves=(32,), public=False, vendor="nvidia"),
    Architecture("SM90", "nvidia_sm90", ("sm_90", "sm90a", "sm_90a", "h100", "h200", "h800",
                                         "h20", "gh200", "hopper"),
                 "nvidia", "SM", waves=(32, 128), public=False, vendor="nvidia"),
)

_BY_NAME = {arch.name: arch for arch in ARCHITECTURES}

# The layout families the architectures name, in order: each has its registry line in
# layouts/family.py (generator, formulas, marks, ranges, facts; docs/contributing.md).
FAMILIES = tuple(dict.fromkeys(arch.family for arch in ARCHITECTURES))


# The clang --offload-arch of each architecture's generated code (`target`).
TARGETS = {arch.name: arch.target for arch in ARCHITECTURES if arch.target}


def _named(key: str) -> Architecture | None:
    for arch in ARCHITECTURES:
        if key == arch.name.lower() or key in arch.aliases:
            return arch
    return None


def resolve(name: str) -> Architecture | str:
    """The architecture a user's name for it means: a canonical name or alias, an LLVM
    target (a target ID with features, a generic target: instructions/targets.py), a
    product name or the end or start of product names of one architecture
    (instructions/products.py); else a line saying why not ("" when nothing is called
    so)."""
    key = name.lower()
    found = _named(key)
    if found is not None:
        return found
    # (the LLVM target table, loaded by name as _table loads a table: only for a name that
    # no architecture has as its name or alias)
    targets = __import__(f"{__name__}.targets", fromlist=["find_target"])
    parsed: TargetId | str = targets.split_target_id(key)
    if isinstance(parsed, str):
        return parsed
    target: Target | None = targets.find_target(parsed.processor)
    if target is not None:
        problem: str = targets.check_features(target, parsed.features)
        if problem or not target.arch:
            return problem or target.summary()
        return _BY_NAME[target.arch]
    if parsed.features:
        return f"{name!r} is not an LLVM target ID: no LLVM target {parsed.processor!r}"
    # (the product table, loaded by name as _table loads a table: only for a name that no
    # architecture or target has; a point query never loads it)
    products = __import__(f"{__name__}.products", fromlist=["products_matching"]
                          ).products_matching(key)
    archs = tuple(dict.fromkeys(product.arch for product in products))
    if len(archs) == 1:
        return _BY_NAME[archs[0]]
    if archs:
        shown = "; ".join(f"{p.name} ({p.arch.lower()})" for p in products[:8])
        more = f"; and {len(products) - 8} more" if len(products) > 8 else ""
        return (f"ambiguous architecture {name!r}: it could mean {shown}{more}; "
                "name the product or its architecture")
    return ""


def find_architecture(name: str) -> Architecture | None:
    """The architecture called `name` (see `resolve`), or None."""
    found = resolve(name)
    return found if isinstance(found, Architecture) else None


def architecture_named(name: str) -> Architecture:
    """The architecture whose canonical name is `name` (an instruction's `arch`)."""
    return _BY_NAME[name]
