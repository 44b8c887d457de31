"""LDS plans: reads of operand fragments (`reads`, over `tile` and `fragment`), copies from
global memory into LDS (`copies`) and gfx1250's tensor data mover (`tdm`)."""
