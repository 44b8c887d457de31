"""The library behind matrix_api, split by job: `records` (the answers' records),
`checks` (every check of the caller's input, raising CalcError), `queries` (element <->
register queries), `facts` (an instruction's facts and formulas), `catalog` (the
catalog and its filters) and `typed` (the typed dictionaries, for type checkers).

Callers import matrix_api, the one public door; these modules are its implementation.
"""
