"""Layer 3, the data-path planners: each reads layouts and instruction facts and returns
a plan naming what every slot, byte or register receives. `lds` (reads from LDS, copies
into it, gfx1250's tensor data mover), `preshuffle` (preshuffled operands and MX
scales), `convert` (conversions between instructions and ports from NVIDIA's
fragments), `epilogue` (stores of D) and `budget` (peaks and block-tile budgets)."""
