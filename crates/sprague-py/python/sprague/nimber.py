"""Nimber arithmetic (the field of nimbers below 2**64).

Each function takes Python ints (0 <= x < 2**64) or NumPy arrays of them. Arrays go through the
engine's batch path with the GIL released, on the path that ``SIMD`` names (the one that
``sprague nimber mul --batch`` and ``sprague bench nimber`` take on this CPU); Python ints take
the single-product path (a carry-less multiply when the CPU has PCLMULQDQ). Scalars and arrays
broadcast as NumPy does.

>>> from sprague import nimber
>>> nimber.mul(2, 3), nimber.add(5, 3), nimber.inv(2), nimber.sqrt(2)
(1, 6, 3, 3)
"""

from __future__ import annotations

from typing import Optional, Union, overload

import numpy as np

from . import _sprague

__all__ = ["add", "mul", "div", "inv", "sqrt", "pow", "SIMD", "CPU_FEATURES"]

#: The instruction-set path the batch engine takes on this CPU, as ``sprague bench nimber``
#: names it: ``portable``, ``avx2``, ``avx2-vpclmul`` or ``avx512``.
SIMD: str = _sprague.SIMD

#: The CPU features that the fast paths look for, as this CPU reports them.
CPU_FEATURES: "list[str]" = list(_sprague.CPU_FEATURES)

_TOP = 1 << 64
ArrayLike = Union[int, np.ndarray, list]


def _scalar(x: object, name: str) -> int | None:
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        v = int(x)
        if not 0 <= v < _TOP:
            raise ValueError(f"{name} must be a nimber 0 <= x < 2**64, got {v}")
        return v
    return None


def _array(x: object, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == np.uint64:
        return a
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.size and (a.min() < 0):
        raise ValueError(f"{name} holds a negative number; nimbers are 0 <= x < 2**64")
    return a.astype(np.uint64)


def _same_contiguous_words(a: object, b: object) -> bool:
    """Whether a and b are C-contiguous uint64 arrays of one shape (nothing to convert)."""
    return (
        type(a) is np.ndarray
        and type(b) is np.ndarray
        and a.dtype == np.uint64
        and b.dtype == np.uint64
        and a.shape == b.shape
        and a.flags.c_contiguous
        and b.flags.c_contiguous
    )


def _flat(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.uint64).reshape(-1)


@overload
def mul(a: int, b: int, *, threads: Optional[int] = None) -> int: ...
@overload
def mul(a: ArrayLike, b: ArrayLike, *, threads: Optional[int] = None) -> np.ndarray: ...
def mul(a, b, *, threads=None):
    """The nim product a ⊗ b (elementwise on arrays, which broadcast).

    Arrays of over 32,768 products are split between ``threads`` threads (default: every
    core), at least 16,384 products a thread.
    """
    if _same_contiguous_words(a, b):
        # The common case without broadcasting's few microseconds a call.
        return _sprague.nim_mul_array(a.reshape(-1), b.reshape(-1), threads).reshape(a.shape)
    x, y = _scalar(a, "a"), _scalar(b, "b")
    if x is not None and y is not None:
        return _sprague.nim_mul(x, y)
    a, b = np.broadcast_arrays(_array(a, "a"), _array(b, "b"))
    shape = a.shape
    return _sprague.nim_mul_array(_flat(a), _flat(b), threads).reshape(shape)


@overload
def add(a: int, b: int) -> int: ...
@overload
def add(a: ArrayLike, b: ArrayLike) -> np.ndarray: ...
def add(a, b):
    """The nim sum a ⊕ b (bitwise XOR)."""
    x, y = _scalar(a, "a"), _scalar(b, "b")
    if x is not None and y is not None:
        return x ^ y
    return np.bitwise_xor(_array(a, "a"), _array(b, "b"))


def _unary(a, name: str, scalar, array):
    x = _scalar(a, name)
    if x is not None:
        return scalar(x)
    a = _array(a, name)
    return array(_flat(a)).reshape(a.shape)


@overload
def inv(a: int) -> int: ...
@overload
def inv(a: ArrayLike) -> np.ndarray: ...
def inv(a):
    """The nim inverse a^(-1); ``ZeroDivisionError`` for 0 (an array holding 0 raises too)."""

    def scalar(x: int) -> int:
        r = _sprague.nim_inv(x)
        if r is None:
            raise ZeroDivisionError("0 has no nim inverse")
        return r

    def array(x: np.ndarray) -> np.ndarray:
        if (x == 0).any():
            raise ZeroDivisionError("0 has no nim inverse (the array holds a 0)")
        return _sprague.nim_inv_array(x)

    return _unary(a, "a", scalar, array)


@overload
def sqrt(a: int) -> int: ...
@overload
def sqrt(a: ArrayLike) -> np.ndarray: ...
def sqrt(a):
    """The nim square root: the one r with r ⊗ r = a."""
    return _unary(a, "a", _sprague.nim_sqrt, _sprague.nim_sqrt_array)


@overload
def div(a: int, b: int) -> int: ...
@overload
def div(a: ArrayLike, b: ArrayLike) -> np.ndarray: ...
def div(a, b):
    """a ⊗ b^(-1); ``ZeroDivisionError`` when b is 0."""
    x, y = _scalar(a, "a"), _scalar(b, "b")
    if x is not None and y is not None:
        r = _sprague.nim_div(x, y)
        if r is None:
            raise ZeroDivisionError("division by the nimber 0")
        return r
    return mul(a, inv(b))


def pow(a: int, e: int) -> int:  # noqa: A001 - the field's name for it
    """a ⊗ a ⊗ … ⊗ a (e factors; e an ordinary integer >= 0)."""
    x = _scalar(a, "a")
    if x is None:
        raise TypeError("pow takes a nimber int")
    if e < 0:
        return pow(inv(x), -e)
    if x == 0:
        return 0 if e else 1
    # The multiplicative group has order 2**64 - 1.
    return _sprague.nim_pow(x, e % (_TOP - 1))
