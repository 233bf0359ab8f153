"""Nimber arithmetic: the batch path on arrays equals the scalar path, and field laws hold."""

import platform
from pathlib import Path

import numpy as np
import pytest

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


def test_threads_split_long_arrays_into_the_same_products():
    a, b = random_nimbers(100_003), random_nimbers(100_003)
    one = nimber.mul(a, b, threads=1)
    assert np.array_equal(nimber.mul(a, b, threads=2), one)
    assert np.array_equal(nimber.mul(a, b, threads=3), one)
    assert np.array_equal(nimber.mul(a, b), one)
    assert [int(x) for x in one[-500:]] == [nimber.mul(int(x), int(y)) for x, y in zip(a[-500:], b[-500:])]
    with pytest.raises(ValueError, match="threads must be at least 1"):
        nimber.mul(a, b, threads=0)


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


def _expected_path(flags):
    """The path that `Kernel::NimberProducts` resolves `Simd::Auto` to, from the CPU's flags."""
    has = flags.__contains__
    if all(map(has, ["avx512f", "avx512bw", "avx512vbmi", "gfni", "vpclmulqdq", "pclmulqdq"])):
        return "avx512"
    if all(map(has, ["avx2", "vpclmulqdq", "pclmulqdq"])):
        return "avx2-vpclmul"
    if all(map(has, ["avx2", "pclmulqdq"])):
        return "avx2"
    return "portable"


def test_simd_path_is_the_batch_engines_choice():
    # The CLI names the paths portable, avx2, avx2-vpclmul, avx512; an earlier build reported
    # the Debug name of a resolution that knew only the paths every kernel has ("Avx2").
    assert sprague.nimber.SIMD in {"portable", "avx2", "avx2-vpclmul", "avx512"}
    known = {"popcnt", "bmi2", "pclmulqdq", "avx2", "vpclmulqdq", "gfni", "avx512f", "avx512bw", "avx512vbmi"}
    cpuinfo = Path("/proc/cpuinfo")
    if platform.machine() in ("x86_64", "AMD64") and cpuinfo.exists():
        line = next(line for line in cpuinfo.read_text().splitlines() if line.startswith("flags"))
        flags = set(line.split(":", 1)[1].split())
        assert sprague.nimber.SIMD == _expected_path(flags)
        assert set(sprague.nimber.CPU_FEATURES) == flags & known


def test_array_products_cover_edge_operands():
    edges = [0, 1, 2, 3, 2**32, 2**63, 2**64 - 1, 2**32 - 1, 2**16, 2**16 - 1]
    a = np.array([x for x in edges for _ in edges], dtype=np.uint64)
    b = np.array([y for _ in edges for y in edges], dtype=np.uint64)
    # Longer than one block of the batch engine, with a tail.
    a, b = np.concatenate([a, random_nimbers(77)]), np.concatenate([b, random_nimbers(77)])
    out = nimber.mul(a, b)
    assert [int(x) for x in out] == [nimber.mul(int(x), int(y)) for x, y in zip(a, b)]
    assert nimber.mul(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64)).shape == (0,)
