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
halves of the dealer's compositions (in floats a BLAS product per low half).  Exact
mode runs the same products in integers over one common denominator, held as residues
modulo a few primes (:mod:`analyzer.core.modular`), in compiled loops
(:func:`~analyzer.engine.kernel.product_residues`,
:func:`~analyzer.engine.kernel.joint_fill_residues`: numpy has no BLAS for integers, and
its modulo of whole arrays was most of the time); the caller rebuilds its few final sums
and divides once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.modular import primes_for, residues
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine import kernel as _dealer  # the compiled loops: C, or numba without it
from analyzer.engine.dealer import draw_table, unique_rows
from analyzer.util.memory import reserve, size_text

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
LOW_CHUNK = 2048  # distinct low halves per batch of the A table (floats)
BUST_BATCH = 1 << 16  # sets whose bust-23 residues are computed at once


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


def _reserve_table(n_sets: int, n_primes: int = 0) -> None:
    """Refuse (:func:`~analyzer.util.memory.reserve`) a table of ``n_sets`` card sets'
    dealer weights that the free memory cannot hold: in floats (``n_primes`` 0) a row of
    weights, the ordering's chance and its temporaries (float64 each) a set; in exact mode
    a residue (int32) per prime and outcome, the ordering's residues (int64) and the
    set's cards and count."""
    name = f"a table of the dealer's weights for {n_sets:,} card sets"
    floats = n_sets * (N_OUTCOMES + 3) * 8
    if not n_primes:
        reserve(floats, name)
        return
    reserve(n_sets * (N_OUTCOMES * n_primes * 4 + n_primes * 8 + 11 * 8),
            f"exact mode: {name} ({n_primes} primes)",
            f"in floats (without exact) it takes {size_text(floats)}")


def joint_weights(base: tuple[int, ...], drawn: IntArray, upcard: int, *,
                  hits_soft_17: bool) -> FloatArray:
    """``J[s, o]``: one ordering of the cards ``drawn[s]``, then dealer outcome ``o``.

    ``base`` is the shoe the player's cards ``drawn[s]`` (counts of A..T) come
    from, the upcard already out.  Columns follow the dealer outcome indices of
    :mod:`analyzer.engine.dealer`; each row sums to the chance of the ordering.
    Exact mode uses :func:`joint_residues`.
    """
    drawn = np.asarray(drawn, dtype=np.int64).reshape(-1, 10)
    _reserve_table(len(drawn))
    out = np.zeros((len(drawn), N_OUTCOMES))
    if len(drawn):
        _fill(out, base, drawn, upcard, hits_soft_17, CUT)
    # Bust 23+: the chance of the ordering less every other outcome.
    out[:, Outcome.BUST23] = sequence_weights(base, drawn, False) - out.sum(axis=1)
    return out


def joint_residues(base: tuple[int, ...], drawn: IntArray, upcard: int, *,
                   hits_soft_17: bool, bits: int) -> tuple[Int32Array, int, IntArray]:
    """``(R, d, primes)``: ``R[s, o, :]`` are the residues of the integer ``d * J[s, o]``
    modulo ``primes`` (:mod:`analyzer.core.modular`), ``d`` one common denominator.

    The primes suffice for any integer combination of these weights below
    ``2**bits * d`` in absolute value: the caller states ``bits`` from what its
    result is (e.g. 1 for a probability times ``d``).

    Held by set, then outcome, the primes side by side (a pairing reads a set's every
    outcome and prime at once: one stretch of memory, not one per prime and outcome),
    and as int32: a residue is below ``2**PRIME_BITS``.  A split round's millions of card
    sets times a dozen primes made this table the largest array of an exact distribution
    (Spanish 21's aces against an 8: 4.8 million sets, 16 primes).
    """
    drawn = np.asarray(drawn, dtype=np.int64).reshape(-1, 10)
    den, scales = _scales(base, _top(base, drawn, upcard, hits_soft_17))
    primes = primes_for(den.bit_length() + bits)
    _reserve_table(len(drawn), len(primes))
    seq = _sequence_residues(base, drawn, primes, scales)
    out = np.zeros((len(drawn), N_OUTCOMES, len(primes)), dtype=np.int32)
    if len(drawn):
        _fill_residues(out, base, drawn, upcard, hits_soft_17, CUT, primes, scales)
    # Bust 23+: the rest; a batch of sets at a time (memory).
    for lo in range(0, len(drawn), BUST_BATCH):
        part = out[lo:lo + BUST_BATCH]
        part[:, Outcome.BUST23] = (seq[lo:lo + BUST_BATCH]
                                   - part.sum(axis=1, dtype=np.int64)) % primes
    return out, den, primes


def _grouping(upcard: int, hits_soft_17: bool, cut: int) -> tuple[
        IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The dealer's compositions grouped by (high half, outcome): ``(present, order, cols,
    starts, mult)`` -- the outcomes present, the compositions in group order, each
    group's column in the flat ``(high half, outcome)`` table, where each group starts
    (and the end), and the compositions' orderings in group order."""
    _, _, _, high_of, outcome, mult = _dealer_halves(upcard, hits_soft_17, cut)
    present = np.unique(outcome)
    column = high_of * len(present) + np.searchsorted(present, outcome)
    order = np.argsort(column, kind="stable")
    cols, starts = np.unique(column[order], return_index=True)
    return present, order, cols, np.append(starts, len(order)).astype(np.int64), mult[order]


def _halves_of(drawn: IntArray, cut: int) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The distinct low halves, high halves (with the card count) of ``drawn`` and each
    row's index among them."""
    u_low, u_low_of = unique_rows(drawn[:, :cut])
    sizes = drawn.sum(axis=1)
    u_high, u_high_of = unique_rows(np.concatenate([drawn[:, cut:], sizes[:, None]], axis=1))
    return u_low, u_low_of, u_high, u_high_of


def _tables(base: tuple[int, ...], values: range, mine: IntArray, theirs: IntArray,
            exact: bool) -> Array:
    """``F[j, x] = ff(base_v, x)`` for each value ``v = values[j]``, ``x`` up to the most
    ``mine`` and ``theirs`` add up to in its column: the kernels' tables, one row per value
    (zero-padded to one length)."""
    tops = mine.max(axis=0, initial=0) + theirs.max(axis=0, initial=0)
    return _stacked([_falling_table(base[v - 1], int(t), exact) for v, t in zip(values, tops,
                                                                                strict=True)])


def _stacked(rows: list[Array]) -> Array:
    """The rows as one array, each padded with zeros to the longest."""
    out = np.zeros((len(rows), max((len(r) for r in rows), default=0)), dtype=rows[0].dtype)
    for j, r in enumerate(rows):
        out[j, :len(r)] = r
    return out


def _with_scales(tables: Array, scales: list[int], most: int) -> Array:
    """The tables and one more row: ``scales`` by card count, to count ``most`` (zeros
    past the end of ``scales``: more cards than the shoe holds)."""
    return _stacked([*tables, np.array(scales + [0] * max(0, most + 1 - len(scales)),
                                       dtype=object)])


def _rows_by_low(drawn: IntArray, cut: int) -> tuple[IntArray, IntArray, IntArray, IntArray,
                                                     IntArray]:
    """The sets by low half, as the joint fills read them: ``(u_low, u_high, first,
    high_rows, sets)`` -- the distinct halves, where each low half's sets start, and per
    set in that order its high half and its own index."""
    u_low, u_low_of, u_high, u_high_of = _halves_of(drawn, cut)
    sets = np.argsort(u_low_of, kind="stable")
    first = np.searchsorted(u_low_of[sets], np.arange(len(u_low) + 1)).astype(np.int64)
    return u_low, u_high, first, np.ascontiguousarray(u_high_of[sets]), sets.astype(np.int64)


def _fill(out: FloatArray, base: tuple[int, ...], drawn: IntArray, upcard: int,
          hits_soft_17: bool, cut: int) -> None:
    """Write ``J`` (every outcome but bust 23+) into ``out``: per low half, the products of
    its sets' high halves with its ``A`` in one BLAS product (the bits of numpy's BLAS;
    :func:`_fill_residues` in exact mode)."""
    low, high, low_of, _, _, _ = _dealer_halves(upcard, hits_soft_17, cut)
    u_low, u_high, first, high_sorted, by_low = _rows_by_low(drawn, cut)
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
    res = np.empty((len(drawn), len(present)))
    for lo in range(0, len(u_low), LOW_CHUNK):
        plow = _product_table(base, range(1, cut + 1), u_low[lo:lo + LOW_CHUNK], low)
        flat = np.zeros((len(plow), len(high) * len(present)))
        flat[:, cols] = np.add.reduceat(plow[:, low_of[order]] * scale, starts[:-1], axis=1)
        a = flat.reshape(len(plow), len(high), len(present))
        for j in range(len(plow)):
            begin, end = first[lo + j], first[lo + j + 1]
            res[begin:end] = np.dot(phigh[high_sorted[begin:end]], a[j])
    out[by_low[:, None], present[None, :]] = res


def _fill_residues(out: Int32Array, base: tuple[int, ...], drawn: IntArray,
                   upcard: int, hits_soft_17: bool, cut: int, primes: IntArray,
                   scales: list[int]) -> None:
    """:func:`_fill` in integers over the common denominator, modulo each prime: the
    same products, the division by ``ff(N, |U| + |k|)`` a product by ``scales``
    (:func:`analyzer.engine.kernel.joint_fill_residues`).  ``out`` is by set (``(set,
    outcome, P)``)."""
    low, high, low_of, _, _, _ = _dealer_halves(upcard, hits_soft_17, cut)
    u_low, u_high, first, high_rows, sets = _rows_by_low(drawn, cut)
    # PH with the denominator's factor d / ff(N, |U| + |k|) as one more column's table.
    ff = _with_scales(_tables(base, range(cut + 1, 11), u_high[:, :-1], high[:, :-1], True),
                      scales, int(u_high[:, -1].max(initial=0) + high[:, -1].max(initial=0)))
    phigh = np.empty((len(u_high), len(primes), len(high)), dtype=np.int64)
    _dealer.product_residues(residues(ff, primes), u_high, high, primes, phigh)
    present, order, cols, starts, mult = _grouping(upcard, hits_soft_17, cut)
    low_ff = residues(_tables(base, range(1, cut + 1), u_low, low, True), primes)
    _dealer.joint_fill_residues(low_ff, u_low, low, np.ascontiguousarray(low_of[order]),
                                residues(mult, primes), starts, cols, phigh, first, high_rows,
                                sets, present, primes, out)


def _sequence_residues(base: tuple[int, ...], drawn: IntArray, primes: IntArray,
                       scales: list[int]) -> IntArray:
    """``d`` times the chance of one ordering of each ``drawn[s]``, modulo each prime:
    ``(set, P)`` (the kernel's products of each set with no cards)."""
    cards = np.concatenate([drawn, drawn.sum(axis=1)[:, None]], axis=1)
    none = np.zeros((1, 11), dtype=np.int64)
    tables = _with_scales(_tables(base, range(1, 11), drawn, none[:, :10], True), scales,
                          int(cards[:, -1].max(initial=0)))
    out = np.empty((len(drawn), len(primes), 1), dtype=np.int64)
    _dealer.product_residues(residues(tables, primes), cards, none, primes, out)
    return out[:, :, 0]


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
