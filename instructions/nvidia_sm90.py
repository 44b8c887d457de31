"""The instructions sm_90 runs (instructions/nvidia.py): the table, made when it is read,
and the one line a lookup names, made alone."""
from instructions.model import Instruction
from instructions.nvidia import find as find_line
from instructions.nvidia import spelling, table

__all__ = ("find", "instructions", "spelling")


def instructions() -> tuple[Instruction, ...]:
    return table("SM90")


def find(key: str) -> Instruction | None:
    return find_line("SM90", key)
