"""The text notation of registers and elements lives in layouts.notation (the engine's
layer names slots too); re-exported here for the renderers."""
from layouts.notation import element, marked, register

__all__ = ["element", "marked", "register"]
