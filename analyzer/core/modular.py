"""Exact integer arithmetic on numpy int64 arrays: residues modulo several primes.

The exact distribution of a round sums products of integers of a few hundred bits
(card-order counts times dealer weights over one common denominator).  On numpy
object arrays each of those operations is a Python big-integer operation; here
each integer is held as its residues modulo primes below 2**26, the products and
sums run as int64 array operations (vectorised, no Python objects), and the few
final values are rebuilt by the Chinese remainder theorem.

The rebuilt value is the exact integer when it lies in ``[-M/2, M/2)`` for ``M``
the product of the primes, so every caller states how many bits its results can
take (a bound it proves, e.g. "a probability times the denominator") and
:func:`primes_for` picks enough primes.  Products of two residues stay below
2**52, so a dot product adds at most :data:`BLOCK` of them before reducing: no
int64 sum can overflow.

>>> ps = primes_for(100)
>>> a = residues(np.array([[2**90, 3], [5, -7]], dtype=object), ps)
>>> b = residues(np.array([[1], [2**40]], dtype=object), ps)
>>> rebuild(matmul(a, b, ps), ps).tolist() == [[2**90 + 3 * 2**40], [5 - 7 * 2**40]]
True
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
PRIME_BITS = 26  # residues below 2**26: a product of two fits 52 bits
BLOCK = 2048  # products summed before a reduction: 2048 * 2**52 < 2**63


@cache
def _primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below ``2**PRIME_BITS``, largest first (trial
    division by the odd numbers to 2**13: instant, and no sympy import on this path)."""
    found: list[int] = []
    n = 2**PRIME_BITS - 1
    while len(found) < count:
        if all(n % d for d in range(3, math.isqrt(n) + 1, 2)):
            found.append(n)
        n -= 2
    return tuple(found)


def primes_for(bits: int) -> IntArray:
    """Primes whose product exceeds ``2**(bits + 1)``: enough to rebuild any integer of
    absolute value below ``2**bits``."""
    count = (bits + 1) // (PRIME_BITS - 1) + 1
    return np.array(_primes(count), dtype=np.int64)


def residues(values: Any, primes: IntArray) -> IntArray:
    """``values`` (integers: an int64 array, an object array of Python ints, or one int)
    modulo each prime: shape ``(len(primes), *values.shape)``."""
    arr = np.asarray(values)
    if arr.dtype == object:
        return np.stack([(arr % int(p)).astype(np.int64) for p in primes])
    arr = arr.astype(np.int64)
    return arr[None, ...] % primes.reshape((-1,) + (1,) * arr.ndim)


def _per_prime(primes: IntArray, ndim: int) -> IntArray:
    return primes.reshape((-1,) + (1,) * (ndim - 1))


def multiply(a: IntArray, b: IntArray, primes: IntArray) -> IntArray:
    """Elementwise product of two residue arrays (broadcasting after the prime axis)."""
    out: IntArray = (a * b) % _per_prime(primes, max(a.ndim, b.ndim))
    return out


def matmul(a: IntArray, b: IntArray, primes: IntArray) -> IntArray:
    """``a @ b`` per prime: ``(P, m, k) @ (P, k, n) -> (P, m, n)``, summing at most
    :data:`BLOCK` products between reductions."""
    p = _per_prime(primes, 3)
    k = a.shape[-1]
    out = np.zeros((a.shape[0], a.shape[1], b.shape[2]), dtype=np.int64)
    for lo in range(0, k, BLOCK):
        out += np.matmul(a[..., lo:lo + BLOCK], b[:, lo:lo + BLOCK, :]) % p
        out %= p
    return out


@cache
def _crt(primes: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """``M`` and the coefficients ``c_i`` with ``x = sum r_i c_i mod M``."""
    m = 1
    for p in primes:
        m *= p
    return m, tuple((m // p) * pow(m // p, -1, p) for p in primes)


def rebuild(res: IntArray, primes: IntArray) -> npt.NDArray[Any]:
    """The integers (an object array of Python ints, in ``[-M/2, M/2)``) with these
    residues."""
    m, coef = _crt(tuple(int(p) for p in primes))
    acc = np.zeros(res.shape[1:], dtype=object)
    for r, c in zip(res, coef, strict=True):
        acc = acc + r.astype(object) * c
    acc = acc % m
    return np.where(acc >= m // 2, acc - m, acc)


__all__ = ["BLOCK", "PRIME_BITS", "matmul", "multiply", "primes_for", "rebuild", "residues"]
