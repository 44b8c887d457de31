"""Preshuffled operands and MX scales: the permutation (`planner`), its reshape/permute
chain (`chain`) and the named schemes (`presets`)."""
