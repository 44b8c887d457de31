"""The instructions sm_80 runs (instructions/nvidia.py)."""
from instructions.nvidia import spelling, table

__all__ = ("INSTRUCTIONS", "spelling")

INSTRUCTIONS = table("SM80")
