"""Conversions between instructions and ports of another architecture's fragments.

- `planner`: the conversion's tile rule, the slot moves, the plans (plan; plan_within for
  the cheaper plans swapping a product's operands gives) and the choice between the
  routes, which ports make too (route_program);
- `port`: ports of another architecture's fragments (NVIDIA's) into an AMD operand;
- `register_route`: the register route's whole program (every destination register
  built by the strategies, the cheapest build kept) and the instructions it issues;
- `strategies`: the ways of building one destination register (pack then move, move
  then pack, move then v_perm_b32, pair swaps);
- `moves`: the lane moves that serve a permutation of lanes, and the ops' Builder;
- `lds_route`: the round trip through LDS (stores, a wait, the widest loads);
- `wide_route`: both routes for a wide pack (fp4, fp6/bf6 groups of values);
- `model`: the records every module here reads (Slot, Move, Op, Plan, Trips), a source
  register's name (svar) and a converting pack's instructions (pack_issues).
"""
