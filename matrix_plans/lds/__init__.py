"""LDS plans: reading operand fragments from LDS, copying tiles into it.

- `reads`: the read plan (every lane's address for every load, the phases and their
  bank conflicts, the element each register slot receives);
- `tile`: the tile (shape, order, padding, swizzle, base), its checks, Triton's and CK's
  swizzles, and the read plan's records;
- `fragment`: the fragment a read plan loads (each lane's slots over the K steps, their
  tile positions) and the lane maps of the transpose loads;
- `copies`: copies from global memory into LDS (register, direct-to-LDS and async
  routes), their coalescing and write phases, and the replay that checks a plan;
- `tdm`: gfx1250's tensor data mover (the descriptor of tensor_load_to_lds, its fields
  and the LDS image it writes).
"""
