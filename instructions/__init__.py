"""Registry of architectures and their instruction tables."""
from .record import record


class Architecture(record("Architecture", "name module aliases waves public",
                          defaults=((64,), True), module=__name__)):
    """An architecture: canonical upper-case name, table module below this package,
    accepted spellings besides the name (lower case), legal wave sizes (the first is the
    default), and whether the reference tool knows it (`public`)."""
    __slots__ = ()

    @property
    def instructions(self):
        return _table(self.module)

    def find(self, mnemonic):
        for inst in self.instructions:
            if inst.mnemonic == mnemonic.lower():
                return inst
        return None


_TABLES = {}


def _table(module):
    if module not in _TABLES:
        # __import__ rather than importlib.import_module: importlib (and the warnings
        # module it loads) would add to every query's start-up.
        table = __import__(f"{__name__}.{module}", fromlist=["INSTRUCTIONS"])
        _TABLES[module] = table.INSTRUCTIONS
    return _TABLES[module]


ARCHITECTURES = (
    Architecture("CDNA1", "cdna1", ("cdna", "gfx908", "mi100", "arcturus")),
    Architecture("CDNA2", "cdna2", ("gfx90a", "mi200", "mi210", "mi250", "mi250x", "aldebaran")),
    Architecture("CDNA3", "cdna3", ("gfx940", "gfx941", "gfx942", "mi300", "mi300a", "mi300x",
                                    "mi325x", "aqua_vanjaram")),
    Architecture("CDNA4", "cdna4", ("gfx950", "mi350", "mi350x", "mi355", "mi355x"),
                 public=False),
    Architecture("RDNA3", "rdna3", ("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
                                    "gfx1151", "gfx1152", "gfx1153"), waves=(32, 64)),
    Architecture("RDNA4", "rdna4", ("gfx1200", "gfx1201"), waves=(32, 64)),
)


def find_architecture(name):
    """The architecture called `name` (any case, canonical name or alias), or None."""
    key = name.lower()
    for arch in ARCHITECTURES:
        if key == arch.name.lower() or key in arch.aliases:
            return arch
    return None
