"""Layer 4, the library: `request` (a `Request` and the one `answer`), `api` (the typed
facade the door `matrix_calculator` re-exports), and their parts by job: `records`,
`checks` (every check of a caller's input, raising CalcError), `queries`, `facts`,
`catalog`, `typed`, `notation`, and the planners' doors (`lds`, `copies`, `preshuffle`,
`epilogue`, `conversion`, `compare`, `budget`).
"""
__version__ = "1.0.0"  # (pyproject.toml reads it; -v/--version prints it)
