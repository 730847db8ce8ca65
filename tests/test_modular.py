"""Exact integers as residues (``analyzer.core.modular``), against Python's own integers.

* Products, matrix products (inner dimensions past one reduction block included) and the
  rebuilt integers equal the same sums computed with Python big integers, signs included.
* The primes chosen for ``bits`` rebuild every integer below ``2**bits``, and one past the
  range is not rebuilt (the bound is the whole guarantee, so it must be able to fail).
* The exact joint dealer weights in residues equal the floats to 1e-12 and their row sums
  equal the sequences' exact chances; a distribution's numerator outside ``[0, den]`` is
  refused, never used.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.errors import InternalError
from analyzer.core.modular import (
    BLOCK,
    PRIME_BITS,
    matmul,
    multiply,
    primes_for,
    rebuild,
    residues,
)
from analyzer.core.outcomes import N_OUTCOMES
from analyzer.engine.dist_dealer import joint_residues, joint_weights, sequence_weights
from analyzer.engine.dist_splits import _numerators

big = st.integers(min_value=-(2**120), max_value=2**120)


def _objects(rows: list[list[int]]) -> np.ndarray:
    out = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, row in enumerate(rows):
        for j, x in enumerate(row):
            out[i, j] = x
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(1, 4), st.data())
def test_matmul_and_multiply_are_python_integers(m: int, k: int, n: int,
                                                 data: st.DataObject) -> None:
    a = _objects([[data.draw(big) for _ in range(k)] for _ in range(m)])
    b = _objects([[data.draw(big) for _ in range(n)] for _ in range(k)])
    ps = primes_for(2 * 120 + 8)
    assert rebuild(matmul(residues(a, ps), residues(b, ps), ps), ps).tolist() == \
        (a @ b).tolist()
    c = _objects([[data.draw(big) for _ in range(k)] for _ in range(m)])
    assert rebuild(multiply(residues(a, ps), residues(c, ps), ps), ps).tolist() == \
        (a * c).tolist()


def test_a_long_inner_dimension_is_reduced_between_blocks() -> None:
    # Every product the largest a residue can make, summed past one block: an int64
    # sum without the block reductions would overflow.
    k = 3 * BLOCK + 5
    ps = primes_for(64)
    top = np.array([int(p) - 1 for p in ps], dtype=np.int64)
    a = np.broadcast_to(top[:, None, None], (len(ps), 1, k)).copy()
    b = np.broadcast_to(top[:, None, None], (len(ps), k, 1)).copy()
    got = rebuild(matmul(a, b, ps), ps)[0, 0]
    # per prime the sum is k * (p - 1)**2 = k mod p: the rebuilt integer is k
    assert got == k


@pytest.mark.parametrize("bits", [1, 25, 26, 200, 777])
def test_primes_cover_their_bits_and_no_more_than_they_must(bits: int) -> None:
    ps = primes_for(bits)
    assert all(int(p) < 2**PRIME_BITS for p in ps)
    modulus = 1
    for p in ps:
        modulus *= int(p)
    assert modulus > 2 ** (bits + 1)
    for x in (2**bits - 1, -(2**bits - 1), 0, 12345):
        assert rebuild(residues(np.array([x], dtype=object), ps), ps).tolist() == [x]
    # past M/2 the residues name another integer: the caller's bound is what holds
    half = modulus // 2
    assert rebuild(residues(np.array([half + 1], dtype=object), ps), ps).tolist() != [half + 1]


def test_joint_residues_are_the_exact_joint_weights() -> None:
    base = (4, 3, 4, 4, 3, 4, 4, 4, 4, 15)  # a one-deck shoe less a 2, a 5 (and the upcard)
    drawn = np.array([[0, 1, 0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 2, 0, 0, 0, 0, 1, 0, 0],
                      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0, 0, 0, 0, 0]],
                     dtype=np.int64)
    res, den, ps = joint_residues(base, drawn, 6, hits_soft_17=True, bits=1)
    assert res.dtype == np.int32 and res.shape == (len(drawn), N_OUTCOMES, len(ps))
    assert ((res >= 0) & (res < ps[None, None, :])).all()
    nums = rebuild(res.transpose(2, 0, 1), ps)
    assert nums.shape == (len(drawn), N_OUTCOMES)
    assert ((nums >= 0) & (nums <= den)).all()
    exact = np.vectorize(lambda n: Fraction(int(n), den), otypes=[object])(nums)
    assert exact.sum(axis=1).tolist() == sequence_weights(base, drawn, True).tolist()
    floats = joint_weights(base, drawn, 6, hits_soft_17=True)
    assert np.allclose(exact.astype(float), floats, rtol=0, atol=1e-12)


def test_a_numerator_outside_the_chances_is_refused() -> None:
    ps = primes_for(40)
    assert _numerators(residues(np.array([[7, 0]]), ps), ps, 7).tolist() == [[7, 0]]
    with pytest.raises(InternalError):
        _numerators(residues(np.array([[8]]), ps), ps, 7)
    with pytest.raises(InternalError):
        _numerators(residues(np.array([[-1]]), ps), ps, 7)
