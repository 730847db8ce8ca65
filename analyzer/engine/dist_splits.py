"""The exact distribution of a split round's net result: every hand and the dealer jointly.

The hands of a split share the shoe and the dealer's hand, so their results are
dependent and are enumerated *jointly* with the dealer's outcome.  Each hand is
a block (:mod:`analyzer.engine.dist_blocks`); a round is a tuple of blocks, one
per hand, plus the extra pair cards of its resplits.  Its chance is

    prod_j mult(B_j) * J(sum_j B_j + extra pairs, o)

(:func:`analyzer.engine.dist_dealer.joint_weights`): the cards of every hand
come off the one shoe, and the dealer draws from what is left.  Rounds are
combined hand by hand, merging those with the same drawn cards and the same
result vector, so the dealer is evaluated once per distinct multiset of cards
(Eric Farmer's analyzer, ``blackjack_pdf.cpp``, pairs the two hands of a
non-resplit split the same way; it does not handle resplits).

A round with three or four hands is enumerated the same way while the number
of combined states stays within :data:`STATE_BUDGET`; past it (resplits in a
large shoe) the extra hands are settled by the *independent-hands* model of
:func:`_independent_extra` and the probability of those rounds is reported as the
error bound: each probability printed is within it of the exact value.

Peek games: the round is enumerated with the hole card drawn after the hands
(the same law, by exchangeability) and conditioned on no dealer blackjack by
dropping that outcome and dividing by its complement.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.errors import InternalError
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine.dealer import row_keys
from analyzer.engine.dist_blocks import Blocks
from analyzer.engine.dist_dealer import joint_weights, sequence_weights

IntArray = npt.NDArray[np.int64]
STATE_BUDGET = 1_000_000  # hands-product size of a 3-4 hand pattern enumerated exactly


class CardKeys:
    """Multisets of cards as one int64 each, additive: ``key(a + b) = key(a) + key(b)``.

    Each value gets a digit wide enough for the most cards of it any round can
    hold, so sums never carry.
    """

    def __init__(self, limits: IntArray) -> None:
        self.radix = np.asarray(limits, dtype=np.int64) + 1
        if float(np.prod(self.radix.astype(np.float64))) >= 2.0**62:
            raise InternalError("too many cards per round to encode in 64 bits")
        self.place = np.cumprod(np.r_[1, self.radix[:0:-1]])[::-1].astype(np.int64)

    def encode(self, drawn: IntArray) -> IntArray:
        return np.asarray(drawn, dtype=np.int64) @ self.place

    def decode(self, keys: IntArray) -> IntArray:
        return (np.asarray(keys, dtype=np.int64)[:, None] // self.place[None, :]) % self.radix


@dataclass(frozen=True)
class Rounds:
    """Rounds merged by (cards drawn, result vector), with their card-order counts."""

    cards: IntArray  # (r,) card keys
    pay: IntArray  # (r, 8)
    mult: IntArray  # (r,)

    @classmethod
    def single(cls, keys: CardKeys, blocks: Blocks) -> Rounds:
        return _merge(keys.encode(blocks.drawn), blocks.pay, blocks.mult)

    def size_with(self, blocks: Blocks) -> int:
        return len(self.mult) * len(blocks.mult)

    def add(self, keys: CardKeys, blocks: Blocks) -> Rounds:
        """Every round of these extended by one more hand from ``blocks``."""
        cards = (self.cards[:, None] + keys.encode(blocks.drawn)[None, :]).ravel()
        pay = (self.pay[:, None, :] + blocks.pay[None, :, :]).reshape(-1, N_OUTCOMES)
        mult = (self.mult[:, None] * blocks.mult[None, :]).ravel()
        return _merge(cards, pay, mult)

    def possible(self, keys: CardKeys, shoe: tuple[int, ...]) -> Rounds:
        """The rounds whose cards the shoe holds (small shoes: the others have chance 0)."""
        if np.all(keys.radix - 1 <= np.array(shoe)):
            return self
        keep = np.all(keys.decode(self.cards) <= np.array(shoe), axis=1)
        return Rounds(self.cards[keep], self.pay[keep], self.mult[keep])


def _merge(cards: IntArray, pay: IntArray, mult: IntArray) -> Rounds:
    """Sum the counts of rows with equal cards and results."""
    if len(mult) == 0:
        return Rounds(cards, pay.reshape(0, N_OUTCOMES), mult)
    _, card_id = np.unique(cards, return_inverse=True)
    _, pay_id = np.unique(row_keys(pay - pay.min(axis=0)), return_inverse=True)
    key = card_id.ravel().astype(np.int64) * (int(pay_id.max()) + 1) + pay_id.ravel()
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    total = np.add.reduceat(mult[order], starts)
    first = order[starts]
    return Rounds(cards[first], pay[first], total)


@dataclass(frozen=True)
class SplitSettings:
    """How a split round against one upcard is settled."""

    upcard: int
    hits_soft_17: bool
    peeked: bool  # the dealer checked for blackjack: condition on none
    bj_takes_all: bool  # an unchecked dealer blackjack takes every paid bet (else 1 unit)
    exact: bool


def _pay_index(pay: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct result vectors and, per row, the index of its own."""
    _, first, inverse = np.unique(row_keys(pay - pay.min(axis=0, initial=0)), return_index=True,
                                  return_inverse=True)
    return pay[first], inverse.ravel()


def _accumulate(groups: IntArray, n_groups: int, mass: Any, exact: bool) -> Any:
    """Per group, the sum of ``mass`` (exact: object arrays summed by sorting)."""
    if not exact:
        return np.bincount(groups, weights=mass, minlength=n_groups)
    out = np.full(n_groups, Fraction(0), dtype=object)
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    out[g[starts]] = np.add.reduceat(mass[order], starts)
    return out


def pair_outcomes(base: tuple[int, ...], keys: CardKeys, head: Rounds, tail: Rounds,
                  extra: int, s: SplitSettings,
                  symmetric: bool = False) -> dict[int, dict[int, Any]]:
    """Per dealer outcome, ``{net result: probability}`` of ``head`` completed by ``tail``.

    ``extra`` (a card key) adds the resplits' pair cards.  ``symmetric``: head
    and tail are the same single hands, so each unordered pair is taken once,
    twice weighted.  Unnormalised: the blackjack outcome is left out when
    peeked, and nothing is yet divided by its complement.
    """
    if len(head.mult) == 0 or len(tail.mult) == 0:
        return {}
    head_pay, head_id = _pay_index(head.pay)
    tail_pay, tail_id = _pay_index(tail.pay)
    if symmetric:
        i, j = np.triu_indices(len(head.mult))
        mult = head.mult[i] * tail.mult[j] * np.where(i == j, 1, 2)
    else:
        i, j = (a.ravel() for a in np.indices((len(head.mult), len(tail.mult))))
        mult = head.mult[i] * tail.mult[j]
    cards = head.cards[i] + tail.cards[j] + extra
    group = head_id[i] * len(tail_pay) + tail_id[j]
    unique, inverse = np.unique(cards, return_inverse=True)
    joint = joint_weights(base, keys.decode(unique), s.upcard, hits_soft_17=s.hits_soft_17,
                          exact=s.exact)
    inverse = inverse.ravel()
    weight = mult.astype(object) if s.exact else mult.astype(np.float64)
    pay = (head_pay[:, None, :] + tail_pay[None, :, :]).reshape(-1, N_OUTCOMES)
    result: dict[int, dict[int, Any]] = {}
    for o in range(N_OUTCOMES):
        if o == Outcome.BLACKJACK and s.peeked:
            continue
        per_group = _accumulate(group, len(pay), weight * joint[inverse, o], s.exact)
        result[o] = {int(x): per_group[pay[:, o] == x].sum() for x in np.unique(pay[:, o])}
    return result


def _collapse(by_outcome: dict[int, dict[int, Any]], s: SplitSettings) -> dict[int, Any]:
    """Sum over the dealer's outcomes; "original bet only" makes a blackjack cost 1 unit."""
    result: dict[int, Any] = {}
    for o, dist in by_outcome.items():
        if o == Outcome.BLACKJACK and not s.bj_takes_all:
            dist = {-1: sum(dist.values())}
        for x, p in dist.items():
            result[x] = result.get(x, 0) + p
    return result


def _independent_extra(base: tuple[int, ...], keys: CardKeys, hands: list[Blocks], pair: int,
                       s: SplitSettings) -> dict[int, Any]:
    """Rounds with three or four hands, the hands past the first two settled independently.

    The first two hands and the dealer are enumerated jointly (with every pair
    card of the round out of the shoe); each further hand's result is drawn
    from its own exact law in the shoe less the upcard and all the pair cards,
    independently of the other hands' cards.  The total probability of these
    rounds is exact; how it is spread over net results is not: every
    probability is within that total of the exact value.
    """
    pairs = len(hands) - 2
    shoe = list(base)
    shoe[pair - 1] -= pairs
    head = pair_outcomes(base, keys, Rounds.single(keys, hands[0]),
                         Rounds.single(keys, hands[1]), pairs * int(keys.place[pair - 1]), s)
    laws = [(b.pay, sequence_weights(tuple(shoe), b.drawn, s.exact) * b.mult)
            for b in hands[2:]]
    for o, dist in head.items():
        for pay, w in laws:
            col = pay[:, o]
            share = {int(y): w[col == y].sum() for y in np.unique(col)}
            norm = sum(share.values())
            if not norm:  # this hand cannot be dealt from the shoe
                dist = {}
                break
            nxt: dict[int, Any] = {}
            for x, p in dist.items():
                for y, q in share.items():
                    nxt[x + y] = nxt.get(x + y, 0) + p * q / norm
            dist = nxt
        head[o] = dist
    return _collapse(head, s)


@dataclass(frozen=True)
class SplitDistribution:
    """A split round's net results (conditioned on no dealer blackjack when peeked)."""

    probabilities: dict[int, Any]
    error: Any  # bound on |error| of each probability (0: exact)


def split_distribution(base: tuple[int, ...], pair: int, families: dict[str, Blocks],
                       patterns: dict[tuple[str, ...], int], s: SplitSettings,
                       budget: int = STATE_BUDGET) -> SplitDistribution:
    """The net result of splitting ``pair``, from the shoe ``base`` (upcard out, pair in).

    ``families`` names the blocks of each kind of hand; ``patterns`` maps a tuple
    of family names (one per hand, in play order) to the number of ways the pair
    cards fall that way.
    """
    after = list(base)
    after[pair - 1] -= 2
    shoe = tuple(after)
    zero: Any = Fraction(0) if s.exact else 0.0
    most = max(len(names) for names in patterns)
    limits = sum(blocks.drawn.max(axis=0, initial=0) for blocks in families.values()) * most
    limits[pair - 1] += most - 2
    keys = CardKeys(limits)
    total: dict[int, Any] = {}
    error = zero
    for names, ways in patterns.items():
        hands = [families[n] for n in names]
        extra = (len(hands) - 2) * int(keys.place[pair - 1])
        rounds = Rounds.single(keys, hands[0])
        part: dict[int, Any] | None = None
        for blocks in hands[1:-1]:
            if rounds.size_with(blocks) > budget:
                part = _independent_extra(shoe, keys, hands, pair, s)
                error += sum(part.values()) * ways
                break
            rounds = rounds.add(keys, blocks).possible(keys, shoe)
        if part is None:
            same = len(hands) == 2 and names[0] == names[1]
            part = _collapse(pair_outcomes(shoe, keys, rounds, Rounds.single(keys, hands[-1]),
                                           extra, s, symmetric=same), s)
        for x, p in part.items():
            total[x] = total.get(x, zero) + p * ways
    if s.peeked:
        bj = {1: 10, 10: 1}.get(s.upcard)
        if bj is not None:
            keep = (Fraction(sum(shoe) - shoe[bj - 1], sum(shoe)) if s.exact
                    else (sum(shoe) - shoe[bj - 1]) / sum(shoe))
            total = {x: p / keep for x, p in total.items()}
            error = error / keep
    return SplitDistribution({x: p for x, p in sorted(total.items())}, error)
