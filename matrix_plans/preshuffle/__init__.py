"""Preshuffled operands and MX scales.

- `planner`: the permutation of the stored matrix that makes each lane's fragment
  contiguous, aligned loads (the slots, the loads, the supertile's selectors);
- `chain`: the permutation as digits: the reshape/permute chain of its NumPy and PyTorch
  functions, their inverses and the index formula both ways;
- `presets`: the named schemes (aiter, CK, ...) compared with the plan item by item.
"""
