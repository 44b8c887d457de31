"""The instructions sm_80 runs (instructions/nvidia.py): the table, made when it is read,
and the one line a lookup names, made alone."""
from instructions.nvidia import spelling, table_of

__all__ = ("find", "instructions", "spelling")

instructions, find = table_of("SM80")
