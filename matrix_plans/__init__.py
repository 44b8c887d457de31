"""Layer 3, the data-path planners: each reads layouts and instruction facts and returns
a plan naming what every slot, byte or register receives; the library's doors
(matrix_library.lds, copies, preshuffle, epilogue, conversion, budget) check the
arguments and call them.

- `lds/`: reads from LDS, copies into it, gfx1250's tensor data mover;
- `preshuffle/`: preshuffled operands and MX scales;
- `convert/`: conversions between instructions and ports from NVIDIA's fragments;
- `epilogue`: stores of D to global memory, directly or through LDS;
- `budget`: peaks and block-tile budgets (registers, LDS, occupancy, roofline).
"""
