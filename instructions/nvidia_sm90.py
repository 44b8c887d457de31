"""The instructions sm_90 runs (instructions/nvidia.py)."""
from instructions.nvidia import spelling, table

__all__ = ("INSTRUCTIONS", "spelling")

INSTRUCTIONS = table("SM90")
