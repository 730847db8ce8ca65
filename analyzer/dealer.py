"""The dealer's final-outcome distribution, exactly, for any shoe and upcard.

The dealer's play is fixed, so every way the dealer can finish is a *draw
composition* (how many cards of each value the dealer drew after the upcard)
together with the number of orderings of those cards that the drawing rule
actually produces.  For a shoe with ``n_i`` cards of value ``i`` (``N`` in all)
the probability of a composition ``k`` (``K`` cards) is::

    mult(k) * prod_i n_i (n_i - 1) ... (n_i - k_i + 1) / (N (N - 1) ... (N - K + 1))

The compositions are enumerated once per (upcard, S17/H17); evaluating a shoe
is then a product over ten falling factorials, which vectorises over thousands
of shoe states at once (every player hand needs its own depleted shoe).  With
``exact=True`` the same products are taken over Python integers and divided
once, giving :class:`fractions.Fraction` results.

The first card drawn is the hole card, so the ``BLACKJACK`` outcome is exactly
the event a peeking dealer rules out; conditioning on "no blackjack" is
dividing the other outcomes by ``1 - P(blackjack)``.

>>> from analyzer.shoe import Shoe
>>> d = dealer_distribution(Shoe.decks(1).remove([6]).counts, 6, hits_soft_17=False, exact=True)
>>> sum(d.outcomes.values()) == 1
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

# Outcome indices of the dealer's final hand.
O17, O18, O19, O20, O21, BLACKJACK, BUST22, BUST23 = range(8)
N_OUTCOMES = 8
OUTCOME_NAMES = ("17", "18", "19", "20", "21", "blackjack", "bust22", "bust23+")

Number = Any  # float or Fraction: one algorithm, two arithmetics


@dataclass(frozen=True)
class DrawTable:
    """Every way the dealer can finish from one upcard: compositions and orderings."""

    upcard: int
    comps: npt.NDArray[np.int64]  # (c, 10): cards of each value drawn after the upcard
    mult: npt.NDArray[np.int64]  # (c,): orderings the drawing rule produces
    outcome: npt.NDArray[np.int64]  # (c,): outcome index
    drawn: npt.NDArray[np.int64]  # (c,): number of cards drawn after the upcard


def _dealer_stands(total: int, soft: bool, hits_soft_17: bool) -> bool:
    return total > 17 or (total == 17 and not (soft and hits_soft_17))


@lru_cache(maxsize=64)
def draw_table(upcard: int, hits_soft_17: bool) -> DrawTable:
    """Enumerate the dealer's finishing compositions for one upcard.

    States are compositions (orderings merged, their counts kept), so the work
    is linear in the number of distinct compositions, not of sequences.
    """
    finished: dict[tuple[int, ...], tuple[int, int]] = {}  # comp -> (mult, outcome)
    frontier: dict[tuple[int, ...], int] = {(0,) * 10: 1}
    while frontier:
        nxt: dict[tuple[int, ...], int] = {}
        for comp, mult in frontier.items():
            for card in range(1, 11):
                c = list(comp)
                c[card - 1] += 1
                key = tuple(c)
                hard = upcard + sum(v * n for v, n in zip(range(1, 11), key, strict=True))
                aces = key[0] + (upcard == 1)
                soft = aces > 0 and hard + 10 <= 21
                total = hard + 10 if soft else hard
                ncards = sum(key) + 1
                if ncards == 2 and total == 21:
                    outcome = BLACKJACK
                elif total > 21:
                    outcome = BUST22 if total == 22 else BUST23
                elif _dealer_stands(total, soft, hits_soft_17):
                    outcome = total - 17
                else:
                    nxt[key] = nxt.get(key, 0) + mult
                    continue
                prev = finished.get(key, (0, outcome))
                finished[key] = (prev[0] + mult, outcome)
        frontier = nxt
    keys = sorted(finished)
    comps = np.array(keys, dtype=np.int64)
    return DrawTable(
        upcard=upcard,
        comps=comps,
        mult=np.array([finished[k][0] for k in keys], dtype=np.int64),
        outcome=np.array([finished[k][1] for k in keys], dtype=np.int64),
        drawn=comps.sum(axis=1),
    )


def _falling(n: npt.NDArray[Any], kmax: int, exact: bool) -> npt.NDArray[Any]:
    """``F[..., k] = n (n-1) ... (n-k+1)`` for ``k = 0..kmax`` (0 once ``k > n``)."""
    steps = np.arange(kmax, dtype=np.int64)
    factors = np.maximum(n[..., None] - steps, 0)
    if exact:
        factors = factors.astype(object)
    else:
        factors = factors.astype(np.float64)
    ones = np.ones(n.shape + (1,), dtype=factors.dtype)
    return np.concatenate([ones, np.cumprod(factors, axis=-1)], axis=-1)


def composition_weights(
    table: DrawTable, shoes: npt.NDArray[np.int64], exact: bool
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Unnormalised weights of every composition for each shoe, and the normaliser.

    Returns ``(W, D)`` with ``P[s, c] = W[s, c] / D[s]``.  In exact mode ``W``
    holds Python integers over the common denominator ``N (N-1) .. (N-Kmax+1)``,
    so sums stay exact; in float mode ``D`` is 1.
    """
    shoes = np.asarray(shoes, dtype=np.int64)
    kmax = int(table.drawn.max())
    ff = _falling(shoes, kmax, exact)  # (m, 10, kmax+1)
    weights = np.broadcast_to(table.mult.astype(object if exact else np.float64),
                              (shoes.shape[0], len(table.mult))).copy()
    for i in range(10):
        col = table.comps[:, i]
        if col.any():
            weights *= ff[:, i, :][:, col]
    totals = shoes.sum(axis=1)
    fn = _falling(totals, kmax, exact)  # (m, kmax+1)
    if exact:
        # Bring every composition over the common denominator FF(N, kmax).
        rest = np.empty((shoes.shape[0], len(table.drawn)), dtype=object)
        for s in range(shoes.shape[0]):
            tail = _falling(np.array([totals[s] - k for k in range(kmax + 1)]), kmax, True)
            rest[s, :] = [tail[k, kmax - k] for k in table.drawn]
        return weights * rest, fn[:, kmax]
    return weights / fn[:, table.drawn], np.ones(shoes.shape[0])


@lru_cache(maxsize=64)
def _short_table(upcard: int, hits_soft_17: bool) -> DrawTable:
    """The draw table without the bust-23+ compositions: that outcome is the remainder."""
    full = draw_table(upcard, hits_soft_17)
    keep = full.outcome != BUST23
    return DrawTable(upcard=upcard, comps=full.comps[keep], mult=full.mult[keep],
                     outcome=full.outcome[keep], drawn=full.drawn[keep])


def outcome_matrix(
    upcard: int, hits_soft_17: bool, shoes: npt.NDArray[np.int64], exact: bool
) -> npt.NDArray[Any]:
    """``P[s, o]``: probability of outcome ``o`` for shoe ``s`` (upcard already out of it).

    Float mode gives a float array; exact mode an object array of Fractions.
    Busting on 23 or more, half of all compositions, is taken as the remainder.
    """
    table = _short_table(upcard, hits_soft_17)
    weights, denom = composition_weights(table, shoes, exact)
    onehot = np.zeros((len(table.outcome), N_OUTCOMES), dtype=np.int64)
    onehot[np.arange(len(table.outcome)), table.outcome] = 1
    if not exact:
        result: npt.NDArray[np.float64] = weights @ onehot
        result[:, BUST23] = 1.0 - result.sum(axis=1)
        return result
    sums = weights.dot(onehot.astype(object))
    out = np.empty(sums.shape, dtype=object)
    for s in range(len(denom)):
        den = int(denom[s])
        sums[s, BUST23] = den - sum(sums[s])
        out[s, :] = [Fraction(int(x), den) for x in sums[s]]
    return out


@dataclass(frozen=True)
class DealerDistribution:
    """Final outcomes of the dealer's hand for one upcard and shoe."""

    upcard: int
    outcomes: dict[str, Number]  # keys OUTCOME_NAMES
    bust_by_cards: dict[int, Number]  # total dealer cards (upcard included) -> P(bust)

    @property
    def bust(self) -> Number:
        return self.outcomes["bust22"] + self.outcomes["bust23+"]


def dealer_distribution(
    counts: Sequence[int], upcard: int, *, hits_soft_17: bool, exact: bool,
    condition_no_bj: bool = False,
) -> DealerDistribution:
    """The dealer's distribution from a shoe that no longer holds the upcard.

    With ``condition_no_bj`` the distribution is given that the dealer has no
    blackjack (what the players know after a peek).
    """
    table = draw_table(upcard, hits_soft_17)
    weights, denom = composition_weights(table, np.array([counts], dtype=np.int64), exact)
    row = weights[0]
    den = denom[0]

    def prob(mask: npt.NDArray[np.bool_]) -> Number:
        total = row[mask].sum() if mask.any() else 0
        return Fraction(int(total), int(den)) if exact else float(total)

    outcomes = {name: prob(table.outcome == o) for o, name in enumerate(OUTCOME_NAMES)}
    busts = table.outcome >= BUST22
    by_cards = {int(k) + 1: prob(busts & (table.drawn == k))
                for k in sorted(set(table.drawn[busts].tolist()))}
    if condition_no_bj:
        keep = 1 - outcomes["blackjack"]
        if keep == 0:
            raise ValueError("the dealer has blackjack with certainty in this shoe")
        outcomes = {k: (0 * v if k == "blackjack" else v / keep) for k, v in outcomes.items()}
        by_cards = {k: v / keep for k, v in by_cards.items()}
    return DealerDistribution(upcard=upcard, outcomes=outcomes, bust_by_cards=by_cards)


def dealer_bust_by_cards(
    counts: Sequence[int], upcard: int, *, hits_soft_17: bool, exact: bool
) -> dict[int, Number]:
    """P(dealer busts holding exactly k cards), upcard counted; no conditioning."""
    return dealer_distribution(counts, upcard, hits_soft_17=hits_soft_17,
                               exact=exact).bust_by_cards


def dealer_bust_22(
    counts: Sequence[int], upcard: int, *, hits_soft_17: bool, exact: bool
) -> Number:
    """P(dealer finishes on exactly 22); no conditioning."""
    return dealer_distribution(counts, upcard, hits_soft_17=hits_soft_17,
                               exact=exact).outcomes["bust22"]
