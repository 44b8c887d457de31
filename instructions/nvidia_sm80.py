"""The instructions sm_80 runs (instructions/nvidia.py)."""
from .nvidia import spelling, table

__all__ = ("INSTRUCTIONS", "spelling")

INSTRUCTIONS = table("SM80")
