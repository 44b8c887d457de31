"""AMD matrix instruction calculator: the package `amd_matrix_calculator`.

This folder (library/) is the package itself: `matrix_api` (the library's one door),
`matrix_request` (Request and answer), `matrix_conversion`, `matrix_notation`,
`matrix_api_lds` and `matrix_library/` (their implementation). The other layers are
its subpackages, each a folder at the top of the repository:

    amd_matrix_calculator.instructions   instructions/   1. facts as data
    amd_matrix_calculator.layouts        layouts/        2. engines
    amd_matrix_calculator (this)         library/        3. the library
    amd_matrix_calculator.formats        formats/        4. renderers
    amd_matrix_calculator.cli            cli/            5. front ends

Installed, pyproject.toml maps each folder under this one import name. In a clone,
matrix_calculator.py (which tests/conftest.py and the scripts import first) makes the
same names importable from the folders themselves, without links: see `clone_path`.
"""
import os

__version__ = "1.0.0"  # (pyproject.toml reads it; -v/--version prints it)
__all__ = ["__version__", "clone_path"]


def clone_path(init_file: str) -> list[str]:
    """The package's search path in a clone of the repository: this folder, then the
    repository's top, where instructions/, layouts/, formats/ and cli/ lie. Installed,
    the subpackages lie inside the package and its default path is all it needs."""
    here = os.path.dirname(os.path.abspath(init_file))
    return [here, os.path.dirname(here)]
