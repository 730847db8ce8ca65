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
halves of the dealer's compositions.  Exact mode runs the same products in
integers over one common denominator, held as residues modulo a few primes
(:mod:`analyzer.core.modular`: int64 array operations, not Python big integers);
the caller rebuilds its few final sums and divides once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.modular import matmul, multiply, primes_for, residues
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine.dealer import draw_table, unique_rows

# float64, or object (Fractions) in exact mode: numpy's stubs define no arithmetic on
# the union of the two dtypes (every operation would need a cast), so Any.
Array = npt.NDArray[Any]
IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]
# Values A..4 form the low half: on privilege's largest card sets this cut was the
# fastest of 3..6 for every upcard measured, and a cost model choosing per call lost
# to it.
CUT = 4
LOW_CHUNK = 2048  # distinct low halves per batch of the A table
RESIDUE_CHUNK = 256  # the same in exact mode, whose batch holds one table per prime


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


def _product_table(base: tuple[int, ...], values: range, mine: IntArray, theirs: IntArray
                   ) -> FloatArray:
    """``P[a, b] = prod_{i in values} ff(base_i, mine[a, j] + theirs[b, j])``."""
    out: FloatArray = np.ones((len(mine), len(theirs)))
    for j, v in enumerate(values):
        top = int(mine[:, j].max(initial=0) + theirs[:, j].max(initial=0))
        ff = _falling_table(base[v - 1], top, False)
        out = out * ff[mine[:, j][:, None] + theirs[:, j][None, :]]
    return out


def _product_residues(base: tuple[int, ...], values: range, mine: IntArray, theirs: IntArray,
                      primes: IntArray) -> IntArray:
    """:func:`_product_table` modulo each prime: shape ``(P, len(mine), len(theirs))``."""
    out = np.ones((len(primes), len(mine), len(theirs)), dtype=np.int64)
    for j, v in enumerate(values):
        top = int(mine[:, j].max(initial=0) + theirs[:, j].max(initial=0))
        ff = residues(_falling_table(base[v - 1], top, True), primes)
        out = multiply(out, ff[:, mine[:, j][:, None] + theirs[:, j][None, :]], primes)
    return out


def _scales(base: tuple[int, ...], top: int) -> tuple[int, list[int]]:
    """The common denominator ``d = ff(N, top)`` and, per card count ``c`` (and ``top +
    1``: more cards than the shoe holds), the integer ``d / ff(N, c)`` (0 where the shoe
    cannot deal ``c`` cards)."""
    fn = _falling_table(sum(base), top, True)
    den = int(fn[top])
    return den, [den // int(f) if f else 0 for f in fn] + [0]


def _top(base: tuple[int, ...], drawn: IntArray, upcard: int, hits_soft_17: bool) -> int:
    """The most cards a sequence and the dealer's finish take together (at most the shoe)."""
    high = _dealer_halves(upcard, hits_soft_17, CUT)[1]
    return min(int(drawn.sum(axis=1).max(initial=0) + high[:, -1].max(initial=0)), sum(base))


def joint_weights(base: tuple[int, ...], drawn: IntArray, upcard: int, *,
                  hits_soft_17: bool) -> FloatArray:
    """``J[s, o]``: one ordering of the cards ``drawn[s]``, then dealer outcome ``o``.

    ``base`` is the shoe the player's cards ``drawn[s]`` (counts of A..T) come
    from, the upcard already out.  Columns follow the dealer outcome indices of
    :mod:`analyzer.engine.dealer`; each row sums to the chance of the ordering.
    Exact mode uses :func:`joint_residues`.
    """
    drawn = np.asarray(drawn, dtype=np.int64).reshape(-1, 10)
    out = np.zeros((len(drawn), N_OUTCOMES))
    if len(drawn):
        _fill(out, base, drawn, upcard, hits_soft_17, CUT)
    # Bust 23+: the chance of the ordering less every other outcome.
    out[:, Outcome.BUST23] = sequence_weights(base, drawn, False) - out.sum(axis=1)
    return out


def joint_residues(base: tuple[int, ...], drawn: IntArray, upcard: int, *,
                   hits_soft_17: bool, bits: int) -> tuple[Int32Array, int, IntArray]:
    """``(R, d, primes)``: ``R[:, o, s]`` are the residues of the integer ``d * J[s, o]``
    modulo ``primes`` (:mod:`analyzer.core.modular`), ``d`` one common denominator.

    The primes suffice for any integer combination of these weights below
    ``2**bits * d`` in absolute value: the caller states ``bits`` from what its
    result is (e.g. 1 for a probability times ``d``).

    Held by outcome (the pairings gather one outcome's row at a time) and as int32: a
    residue is below ``2**PRIME_BITS``.  A split round's millions of card sets times a
    dozen primes made this table the largest array of an exact distribution (Spanish 21's
    aces against an 8: 4.8 million sets, 16 primes).
    """
    drawn = np.asarray(drawn, dtype=np.int64).reshape(-1, 10)
    den, scales = _scales(base, _top(base, drawn, upcard, hits_soft_17))
    primes = primes_for(den.bit_length() + bits)
    seq = _sequence_residues(base, drawn, primes, scales)
    out = np.zeros((len(primes), N_OUTCOMES, len(drawn)), dtype=np.int32)
    if len(drawn):
        _fill_residues(out, base, drawn, upcard, hits_soft_17, CUT, primes, scales)
    for i, p in enumerate(primes):  # bust 23+: the rest; a prime at a time (memory)
        out[i, Outcome.BUST23] = (seq[i] - out[i].sum(axis=0, dtype=np.int64)) % p
    return out, den, primes


def _grouping(upcard: int, hits_soft_17: bool, cut: int) -> tuple[
        IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The dealer's compositions grouped by (high half, outcome): ``(present, order, cols,
    starts, mult)`` -- the outcomes present, the compositions in group order, each
    group's column in the flat ``(high half, outcome)`` table and first position, and
    the compositions' orderings in group order."""
    _, _, _, high_of, outcome, mult = _dealer_halves(upcard, hits_soft_17, cut)
    present = np.unique(outcome)
    column = high_of * len(present) + np.searchsorted(present, outcome)
    order = np.argsort(column, kind="stable")
    cols, starts = np.unique(column[order], return_index=True)
    return present, order, cols, starts, mult[order]


def _halves_of(drawn: IntArray, cut: int) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The distinct low halves, high halves (with the card count) of ``drawn`` and each
    row's index among them."""
    u_low, u_low_of = unique_rows(drawn[:, :cut])
    sizes = drawn.sum(axis=1)
    u_high, u_high_of = unique_rows(np.concatenate([drawn[:, cut:], sizes[:, None]], axis=1))
    return u_low, u_low_of, u_high, u_high_of


def _fill(out: FloatArray, base: tuple[int, ...], drawn: IntArray, upcard: int,
          hits_soft_17: bool, cut: int) -> None:
    """Write ``J`` (every outcome but bust 23+) into ``out``."""
    low, high, low_of, _, _, _ = _dealer_halves(upcard, hits_soft_17, cut)
    u_low, u_low_of, u_high, u_high_of = _halves_of(drawn, cut)
    phigh = _product_table(base, range(cut + 1, 11), u_high[:, :-1], high[:, :-1])
    # The denominator ff(N, |U| + |k|), divided into PH.
    top = min(int(u_high[:, -1].max(initial=0) + high[:, -1].max(initial=0)), sum(base))
    fn = np.append(_falling_table(sum(base), top, False), 0)  # more cards than the shoe: 0
    count = np.minimum(u_high[:, -1][:, None] + high[:, -1][None, :], top + 1)
    phigh = phigh / np.where(fn[count] == 0, 1.0, fn[count])
    phigh[fn[count] == 0] = 0.0
    # Each composition adds mult * PL[uL, kL] to A[uL, kH, o]: grouped by (kH, o).
    present, order, cols, starts, mult = _grouping(upcard, hits_soft_17, cut)
    scale = mult.astype(np.float64)
    by_low = np.argsort(u_low_of, kind="stable")
    first = np.searchsorted(u_low_of[by_low], np.arange(len(u_low) + 1))
    high_sorted = u_high_of[by_low]
    res = np.empty((len(drawn), len(present)))
    for lo in range(0, len(u_low), LOW_CHUNK):
        plow = _product_table(base, range(1, cut + 1), u_low[lo:lo + LOW_CHUNK], low)
        flat = np.zeros((len(plow), len(high) * len(present)))
        flat[:, cols] = np.add.reduceat(plow[:, low_of[order]] * scale, starts, axis=1)
        a = flat.reshape(len(plow), len(high), len(present))
        for j in range(len(plow)):
            begin, end = first[lo + j], first[lo + j + 1]
            res[begin:end] = np.dot(phigh[high_sorted[begin:end]], a[j])
    out[by_low[:, None], present[None, :]] = res


def _fill_residues(out: Int32Array, base: tuple[int, ...], drawn: IntArray,
                   upcard: int, hits_soft_17: bool, cut: int, primes: IntArray,
                   scales: list[int]) -> None:
    """:func:`_fill` in integers over the common denominator, modulo each prime: the
    same products, the division by ``ff(N, |U| + |k|)`` a product by ``scales``.
    ``out`` is by outcome (``(P, outcome, set)``), written a batch of low halves at a
    time: no second table of every set."""
    low, high, low_of, _, _, _ = _dealer_halves(upcard, hits_soft_17, cut)
    u_low, u_low_of, u_high, u_high_of = _halves_of(drawn, cut)
    p = primes[:, None, None]
    phigh = _product_residues(base, range(cut + 1, 11), u_high[:, :-1], high[:, :-1], primes)
    count = np.minimum(u_high[:, -1][:, None] + high[:, -1][None, :], len(scales) - 1)
    phigh = multiply(phigh, residues(np.array(scales, dtype=object), primes)[:, count], primes)
    present, order, cols, starts, mult = _grouping(upcard, hits_soft_17, cut)
    scale = residues(mult, primes)[:, None, :]
    by_low = np.argsort(u_low_of, kind="stable")
    first = np.searchsorted(u_low_of[by_low], np.arange(len(u_low) + 1))
    high_sorted = u_high_of[by_low]
    for lo in range(0, len(u_low), RESIDUE_CHUNK):
        plow = _product_residues(base, range(1, cut + 1), u_low[lo:lo + RESIDUE_CHUNK], low,
                                 primes)
        terms = multiply(plow[:, :, low_of[order]], scale, primes)
        flat = np.zeros((len(primes), plow.shape[1], len(high) * len(present)), dtype=np.int64)
        flat[:, :, cols] = np.add.reduceat(terms, starts, axis=2) % p
        a = flat.reshape(len(primes), plow.shape[1], len(high), len(present))
        first_row, past = first[lo], first[lo + plow.shape[1]]  # the batch's sets, by_low order
        res = np.empty((len(primes), past - first_row, len(present)), dtype=np.int64)
        for j in range(plow.shape[1]):
            begin, end = first[lo + j] - first_row, first[lo + j + 1] - first_row
            res[:, begin:end] = matmul(phigh[:, high_sorted[first_row + begin:first_row + end]],
                                       a[:, j], primes)
        out[:, present[:, None], by_low[None, first_row:past]] = res.transpose(0, 2, 1)


def _sequence_residues(base: tuple[int, ...], drawn: IntArray, primes: IntArray,
                       scales: list[int]) -> IntArray:
    """``d`` times the chance of one ordering of each ``drawn[s]``, modulo each prime."""
    num = np.ones((len(primes), len(drawn)), dtype=np.int64)
    for v in range(1, 11):
        ff = _falling_table(base[v - 1], int(drawn[:, v - 1].max(initial=0)), True)
        num = multiply(num, residues(ff, primes)[:, drawn[:, v - 1]], primes)
    sizes = np.minimum(drawn.sum(axis=1), len(scales) - 1)
    return multiply(num, residues(np.array(scales, dtype=object), primes)[:, sizes], primes)


def sequence_weights(base: tuple[int, ...], drawn: IntArray, exact: bool) -> Array:
    """Chance of one given ordering of each ``drawn[s]`` from ``base`` (Fractions when
    ``exact``)."""
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
    return np.array([Fraction(int(a), int(fn[s])) if ok else Fraction(0)
                     for a, s, ok in zip(num, sizes, possible, strict=True)], dtype=object)
