"""The instructions sm_89 runs (instructions/nvidia.py)."""
from .nvidia import spelling, table

__all__ = ("INSTRUCTIONS", "spelling")

INSTRUCTIONS = table("SM89")
