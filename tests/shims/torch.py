"""A stand-in for PyTorch built on NumPy, holding only what the --preshuffle PyTorch
functions call (tests/plans/test_preshuffle.py loads it as a module named `torch`; torch itself
is too large a test dependency). Its tensors have `shape`, `reshape`, `permute` and
`contiguous` with PyTorch's meanings and nothing else: NumPy's `transpose(*axes)` (which
PyTorch spells `permute`; PyTorch's `transpose` swaps two dimensions only) is absent, so
a chain rendered with NumPy's names fails here as it would under PyTorch.

Semantics kept: `reshape` reads the elements in row-major order of the logical shape
(whatever the strides), accepts the sizes as arguments or one tuple, and refuses a size
that does not divide; `permute` takes every dimension exactly once and returns a view
(no copy, not contiguous); `contiguous` copies a non-contiguous view into its logical
order and returns the tensor itself when it already is contiguous.
"""
import numpy


class Size(tuple):
    """torch.Size: a tuple of the extents."""


def _sizes(args):
    sizes = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        raise TypeError(f"reshape(): sizes must be ints, not {sizes!r}")
    return tuple(sizes)


class Tensor:
    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    @property
    def shape(self):
        return Size(self._array.shape)

    def reshape(self, *args):
        sizes = _sizes(args)
        if numpy.prod(sizes, dtype=numpy.int64) != self._array.size or min(sizes) < 0:
            raise RuntimeError(f"shape {list(sizes)} is invalid for input of size "
                               f"{self._array.size}")
        return Tensor(numpy.reshape(self._array, sizes, order="C"))

    def permute(self, *args):
        dims = _sizes(args)
        if sorted(dims) != list(range(self._array.ndim)):
            raise RuntimeError(f"permute(): dims {list(dims)} are not a permutation of "
                               f"{self._array.ndim} dimensions")
        return Tensor(numpy.transpose(self._array, dims))

    def is_contiguous(self):
        return bool(self._array.flags.c_contiguous)

    def contiguous(self):
        if self.is_contiguous():
            return self
        return Tensor(numpy.ascontiguousarray(self._array))

    def numpy(self):
        return self._array


def from_numpy(array):
    """A tensor sharing `array`'s data, as torch.from_numpy."""
    return Tensor(array)
