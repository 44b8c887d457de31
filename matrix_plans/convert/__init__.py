"""Conversions between instructions (`planner`: register and LDS routes, built by
`program`, `build`, `moves`, `wide` and `lds_route` on the records of `model`) and ports
of another architecture's fragments (`port`)."""
