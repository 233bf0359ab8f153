"""Nimber arithmetic: the batch path on arrays equals the scalar path, and field laws hold."""

import numpy as np

import sprague
from sprague import nimber

RNG = np.random.default_rng(20261125)


def random_nimbers(n):
    return RNG.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)


def test_small_products():
    # Conway's table: 2⊗2 = 3, 2⊗3 = 1, 4⊗4 = 6, 16⊗16 = 24.
    assert [nimber.mul(2, 2), nimber.mul(2, 3), nimber.mul(4, 4), nimber.mul(16, 16)] == [3, 1, 6, 24]
    assert nimber.add(5, 3) == 6
    assert nimber.pow(2, 3) == nimber.mul(nimber.mul(2, 2), 2)
    assert nimber.pow(7, 2**64 - 1) == 1


def test_array_products_equal_the_scalar_path():
    a, b = random_nimbers(20_000), random_nimbers(20_000)
    out = nimber.mul(a, b)
    assert out.dtype == np.uint64 and out.shape == a.shape
    assert [int(x) for x in out[:2000]] == [nimber.mul(int(x), int(y)) for x, y in zip(a[:2000], b[:2000])]
    # Laws on the whole arrays: commutative, 1 is neutral, inverses, square roots.
    assert np.array_equal(out, nimber.mul(b, a))
    assert np.array_equal(nimber.mul(a, 1), a)
    nonzero = a[a != 0]
    assert np.all(nimber.mul(nonzero, nimber.inv(nonzero)) == 1)
    roots = nimber.sqrt(a)
    assert np.array_equal(nimber.mul(roots, roots), a)


def test_broadcasting_and_shapes():
    a = random_nimbers(12).reshape(3, 4)
    out = nimber.mul(a, 7)
    assert out.shape == (3, 4)
    assert int(out[2, 1]) == nimber.mul(int(a[2, 1]), 7)
    assert nimber.mul([1, 2, 3], [3, 3, 3]).tolist() == [3, 1, 2]
    assert np.array_equal(nimber.add(a, a), np.zeros((3, 4), dtype=np.uint64))
    strided = random_nimbers(40)[::3]
    assert np.array_equal(nimber.mul(strided, 5), nimber.mul(strided.copy(), 5))


def test_division():
    a, b = random_nimbers(1000), random_nimbers(1000) | np.uint64(1)
    assert np.array_equal(nimber.mul(nimber.div(a, b), b), a)
    assert nimber.div(nimber.mul(123, 456), 456) == 123


def test_simd_path_is_named():
    assert isinstance(sprague.nimber.SIMD, str) and sprague.nimber.SIMD
