"""The joint chance of a player card sequence and the dealer's outcome, for many sequences.

A round's distribution needs, for every multiset ``U`` of cards the player's
hands drew (after the upcard and the first cards), the chance of one given
ordering of ``U`` *and* each dealer outcome, the dealer drawing from what is
left.  Drawing without replacement from a shoe ``B`` (``N`` cards), the chance
of a sequence depends only on its multiset, so for a dealer finishing
composition ``k`` (``mult_k`` orderings, :func:`analyzer.engine.dealer.draw_table`)::

    J(U, o) = sum_{k -> o} mult_k * prod_i ff(B_i, U_i + k_i) / ff(N, |U| + |k|)

with ``ff`` the falling factorial.  The dealer's hole card is his first draw
(the player's cards come first by exchangeability), so ``o`` ranges over all
eight outcomes, blackjack included.

Thousands to a million multisets ``U`` are evaluated at once.  The product
splits into a low part (values A..4, :data:`CUT`) and a high part (5..T, with the card
counts that fix the denominator): ``J = PL[uL, kL] * M[kL, kH] * PH[uH, kH]``
summed over the dealer's compositions.  ``PL`` and ``PH`` are tables over the
*distinct* halves only, the sum over ``kL`` is done once per distinct low half
(``A = PL M``), so each ``U`` costs one dot product over the few distinct high
halves of the dealer's compositions.  Exact mode runs the same products over
Python integers, scaled by one common denominator, and divides once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine.dealer import draw_table, unique_rows

# float64, or object (Fractions) in exact mode: numpy's stubs define no arithmetic on
# the union of the two dtypes (every operation would need a cast), so Any.
Array = npt.NDArray[Any]
IntArray = npt.NDArray[np.int64]
# Values A..4 form the low half: on privilege's largest card sets this cut was the
# fastest of 3..6 for every upcard measured, and a cost model choosing per call lost
# to it.
CUT = 4
LOW_CHUNK = 2048  # distinct low halves per batch of the A table


@lru_cache(maxsize=128)
def _dealer_halves(upcard: int, hits_soft_17: bool, cut: int) -> tuple[IntArray, IntArray,
                                                                       IntArray, IntArray,
                                                                       IntArray, IntArray]:
    """The dealer's compositions (bust 23+ left out: it is the remainder) by halves.

    Returns ``(low, high, low_of, high_of, outcome, mult)``: the distinct low halves
    (values below ``cut``), the distinct high halves (with the card count
    appended), and per composition its halves' indices, outcome and orderings.
    """
    t = draw_table(upcard, hits_soft_17)
    keep = t.outcome != Outcome.BUST23
    comps, drawn = t.comps[keep], t.drawn[keep]
    low, low_of = unique_rows(comps[:, :cut])
    high, high_of = unique_rows(np.concatenate([comps[:, cut:], drawn[:, None]], axis=1))
    return low, high, low_of, high_of, t.outcome[keep], t.mult[keep]


def _falling_table(n: int, top: int, exact: bool) -> Array:
    """``F[x] = n (n-1) ... (n-x+1)`` for ``x = 0..top`` (0 once ``x > n``)."""
    out = np.zeros(top + 1, dtype=object if exact else np.float64)
    acc: Any = 1 if exact else 1.0
    for x in range(top + 1):
        out[x] = acc if x <= n else 0
        acc = acc * max(n - x, 0)
    return out


def _product_table(base: tuple[int, ...], values: range, mine: IntArray, theirs: IntArray,
                   exact: bool) -> Array:
    """``P[a, b] = prod_{i in values} ff(base_i, mine[a, j] + theirs[b, j])``."""
    out: Array = np.ones((len(mine), len(theirs)), dtype=object if exact else np.float64)
    for j, v in enumerate(values):
        top = int(mine[:, j].max(initial=0) + theirs[:, j].max(initial=0))
        ff = _falling_table(base[v - 1], top, exact)
        out = out * ff[mine[:, j][:, None] + theirs[:, j][None, :]]
    return out


def joint_weights(base: tuple[int, ...], drawn: IntArray, upcard: int, *, hits_soft_17: bool,
                  exact: bool) -> tuple[Array, int]:
    """``(W, d)`` with ``W[s, o] / d = J[s, o]``: one ordering of the cards ``drawn[s]``
    then dealer outcome ``o``.

    ``base`` is the shoe the player's cards ``drawn[s]`` (counts of A..T) come
    from, the upcard already out.  Columns follow the dealer outcome indices of
    :mod:`analyzer.engine.dealer`; each row sums to the chance of the ordering.
    Floats with ``d = 1``, or when ``exact`` Python integers (object array) over
    one common denominator ``d``: callers sum products of them in integers and
    divide once (Fraction arithmetic throughout is far slower).
    """
    drawn = np.asarray(drawn, dtype=np.int64).reshape(-1, 10)
    dtype = object if exact else np.float64
    out = np.zeros((len(drawn), N_OUTCOMES), dtype=dtype)
    den = 1
    if len(drawn):
        den = _fill(out, base, drawn, upcard, hits_soft_17, CUT, exact)
    # Bust 23+: the chance of the ordering less every other outcome.
    seq = sequence_weights(base, drawn, exact, scale=den if exact else None)
    out[:, Outcome.BUST23] = seq - out.sum(axis=1)
    return out, den


def _fill(out: Array, base: tuple[int, ...], drawn: IntArray, upcard: int,
          hits_soft_17: bool, cut: int, exact: bool) -> int:
    """Write ``J`` (every outcome but bust 23+) into ``out``; returns the exact scale."""
    low, high, low_of, high_of, outcome, mult = _dealer_halves(upcard, hits_soft_17, cut)
    sizes = drawn.sum(axis=1)
    u_low, u_low_of = unique_rows(drawn[:, :cut])
    u_high, u_high_of = unique_rows(np.concatenate([drawn[:, cut:], sizes[:, None]], axis=1))
    phigh = _product_table(base, range(cut + 1, 11), u_high[:, :-1], high[:, :-1], exact)
    # The denominator ff(N, |U| + |k|): in floats divided into PH; in exact mode every
    # entry is brought over the common denominator ff(N, top).
    top = min(int(u_high[:, -1].max(initial=0) + high[:, -1].max(initial=0)), sum(base))
    fn = _falling_table(sum(base), top, exact)
    count = np.minimum(u_high[:, -1][:, None] + high[:, -1][None, :], top + 1)
    fn = np.append(fn, 0)  # more cards than the shoe holds: weight 0
    den = int(fn[top]) if exact else 1
    if exact:
        phigh = phigh * np.vectorize(lambda c: den // int(fn[c]) if fn[c] else 0,
                                     otypes=[object])(count)
    else:
        phigh = phigh / np.where(fn[count] == 0, 1.0, fn[count])
        phigh[fn[count] == 0] = 0.0
    # Each composition adds mult * PL[uL, kL] to A[uL, kH, o]: grouped by (kH, o).
    present = np.unique(outcome)
    column = high_of * len(present) + np.searchsorted(present, outcome)
    order = np.argsort(column, kind="stable")
    cols, starts = np.unique(column[order], return_index=True)
    scale = mult[order].astype(object) if exact else mult[order].astype(np.float64)
    by_low = np.argsort(u_low_of, kind="stable")
    first = np.searchsorted(u_low_of[by_low], np.arange(len(u_low) + 1))
    high_sorted = u_high_of[by_low]
    res = np.empty((len(drawn), len(present)), dtype=out.dtype)
    for lo in range(0, len(u_low), LOW_CHUNK):
        plow = _product_table(base, range(1, cut + 1), u_low[lo:lo + LOW_CHUNK], low, exact)
        flat = np.zeros((len(plow), len(high) * len(present)), dtype=out.dtype)
        flat[:, cols] = np.add.reduceat(plow[:, low_of[order]] * scale, starts, axis=1)
        a = flat.reshape(len(plow), len(high), len(present))
        for j in range(len(plow)):
            begin, end = first[lo + j], first[lo + j + 1]
            res[begin:end] = np.dot(phigh[high_sorted[begin:end]], a[j])
    out[by_low[:, None], present[None, :]] = res
    return den


def sequence_weights(base: tuple[int, ...], drawn: IntArray, exact: bool,
                     scale: int | None = None) -> Array:
    """Chance of one given ordering of each ``drawn[s]`` from ``base`` (times ``scale``).

    Exact mode with ``scale`` returns integers ``scale * chance`` (``scale`` a
    multiple of every denominator, e.g. ``ff(N, top)``); without it Fractions.
    """
    drawn = np.asarray(drawn, dtype=np.int64).reshape(-1, 10)
    n_total = sum(base)
    top = int(drawn.sum(axis=1).max(initial=0))
    num: Array = np.ones(len(drawn), dtype=object if exact else np.float64)
    for v in range(1, 11):
        ff = _falling_table(base[v - 1], int(drawn[:, v - 1].max(initial=0)), exact)
        num = num * ff[drawn[:, v - 1]]
    fn = _falling_table(n_total, top, exact)
    sizes = drawn.sum(axis=1)
    possible = fn[sizes] != 0  # not more cards than the shoe holds
    if not exact:
        result: Array = np.where(possible, num, 0.0) / np.where(possible, fn[sizes], 1.0)
        return result
    if scale is None:
        return np.array([Fraction(int(a), int(fn[s])) if ok else Fraction(0)
                         for a, s, ok in zip(num, sizes, possible, strict=True)], dtype=object)
    return np.array([int(a) * (scale // int(fn[s])) if ok else 0
                     for a, s, ok in zip(num, sizes, possible, strict=True)], dtype=object)
