"""The instructions sm_89 runs (instructions/nvidia.py)."""
from instructions.nvidia import spelling, table

__all__ = ("INSTRUCTIONS", "spelling")

INSTRUCTIONS = table("SM89")
