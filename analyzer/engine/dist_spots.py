"""Two spots against one dealer hand: the covariance of their results, enumerated exactly.

A player on several spots plays each the same way, and every spot meets the
same dealer hand out of the same shoe, so the spots' results are correlated;
the variance of ``n`` spots is ``n v + n (n - 1) c`` with ``v`` one spot's
variance and ``c`` the covariance of two (by exchangeability every pair of
spots has the same joint law, whatever the seat order).

How: ``c = E[X1 X2] - EV^2``, and ``E[X1 X2]`` is a sum over the dealer's
outcome ``o`` and the card sets ``a``, ``b`` the two spots finish on:

    E[X1 X2] = sum_o  v_o^T K_o v_o,   K_o[a, b] = J(a + b, o)

where ``J`` is the chance of one ordering of the cards then the dealer's
outcome (:func:`analyzer.engine.dist_dealer.joint_weights`) and ``v_o[a]`` the
card orders of spot finishes on card set ``a`` times their result against
``o``.  A spot's finishes are its unsplit hands (the two first cards and every
card drawn) and, where it splits, its split hands: with one split the spot's
result is the sum of its two hands' results, and the law of one split hand
and the other spot is the same whether or not the other split hand's cards
are looked at (exchangeability of the shoe: cards dealt and not looked at
change no one's odds), so the spot's term is the sum of its hands' terms,
each hand with both pair cards out.  With resplits the number of hands
depends on the other hands' cards and this sum no longer holds: refused.

Peeked dealer blackjacks end the round before anyone draws: against that
outcome every spot is its first two cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.cards import composition, hand_total, is_natural
from analyzer.core.errors import StrategyError, UsageError
from analyzer.core.modular import matmul, rebuild, residues
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.core.rules import Rules, Surrender
from analyzer.core.ruleset import suit_bonuses
from analyzer.core.shoe import Shoe
from analyzer.engine import forked
from analyzer.engine.analysis import Analysis, checked_jobs
from analyzer.engine.dist_blocks import (
    DoubledPlay,
    carry_orders,
    check_units,
    doubled_ends,
    end_pays,
)
from analyzer.engine.dist_dealer import joint_residues, joint_weights
from analyzer.engine.dist_hands import FREE_DOUBLED, SINGLE, hand_payoffs
from analyzer.engine.dist_splits import CardKeys, PairSums
from analyzer.engine.distribution import _Upcard
from analyzer.engine.exhaustion import most_cards, refusal
from analyzer.engine.frozen import FrozenStrategy
from analyzer.engine.hands import card_bonus
from analyzer.engine.strategy import Strategy
from analyzer.util.pool import available

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SpotCovariance:
    """Two spots' covariance, with the mean of one spot it was computed with."""

    covariance: Any  # Fraction in exact mode, else float
    mean: Any  # one spot's EV from the same enumeration (the engine's EV: a check)
    exact: bool


def spots_enumerable(rules: Rules) -> str | None:
    """Why two spots cannot be enumerated exactly under ``rules`` (None: they can)."""
    if rules.max_hands > 2:
        return "resplits: the number of a spot's hands depends on the other hands' cards"
    if rules.split_by_rank:
        return "pairs split by rank: the engine weighs ten-valued pairs by an average"
    if suit_bonuses(rules):
        return ("suit bonuses: two spots' bonus 21s share the suits of one shoe, which an "
                "enumeration of card values does not follow")
    return None


class _Finishes:
    """Every way one spot finishes against one upcard: cards, result per outcome, orders."""

    def __init__(self, scale: int) -> None:
        self.scale = scale
        self.most = 0  # the most cards one spot can hold (a split spot: both hands)
        self.cards: list[IntArray] = []
        self.pay: list[IntArray] = []
        self.orders: list[IntArray] = []

    def add(self, cards: IntArray, pay: IntArray, orders: IntArray | int,
            hands: int = 1) -> None:
        """Finishes of one hand of a spot of ``hands`` hands (a bound on the spot's cards)."""
        cards = np.asarray(cards, dtype=np.int64).reshape(-1, 10)
        held = int(cards.sum(axis=1).max(initial=0))  # a split hand: both pair cards
        self.most = max(self.most, held if hands == 1 else 2 * held - 2)
        self.cards.append(cards)
        self.pay.append(np.broadcast_to(np.asarray(pay, dtype=np.int64),
                                        (len(cards), N_OUTCOMES)).copy())
        self.orders.append(np.broadcast_to(np.asarray(orders, dtype=np.int64),
                                           (len(cards),)).copy())

    def arrays(self) -> tuple[IntArray, IntArray, IntArray]:
        if not self.cards:
            z = np.zeros((0, 10), dtype=np.int64)
            return z, np.zeros((0, N_OUTCOMES), dtype=np.int64), np.zeros(0, dtype=np.int64)
        return (np.concatenate(self.cards), np.concatenate(self.pay),
                np.concatenate(self.orders))


def _scaled(x: Fraction, scale: int) -> int:
    y = x * scale
    if y.denominator != 1:
        raise StrategyError(f"result {x} is not a multiple of 1/{scale}")
    return int(y)


def _spot_finishes(part: _Upcard, scale: int) -> tuple[_Finishes, _Finishes]:
    """The finishes of one spot when play goes on, and (peeked upcards) when the dealer's
    blackjack ends the round at once."""
    a = part.a
    u, rules, play = part.u, part.rules, part.play
    values = part.ua.values
    space = values.space
    m = space.bust
    played, ended = _Finishes(scale), _Finishes(scale)
    stand = np.zeros(m, dtype=np.int64)
    push = np.zeros(m, dtype=np.int64)
    paid = np.zeros(m, dtype=np.int64)  # orders doubling for a paid stake, per node
    free = np.zeros(m, dtype=np.int64)  # ... for a free double
    bj = Outcome.BLACKJACK
    half = scale // 2
    for x in range(1, 11):
        for y in range(x, 11):
            if part.ua.shoe[x - 1] < 1 or part.ua.shoe[y - 1] < 1 + (x == y):
                continue
            comp = composition((x, y))
            cards = np.array(comp, dtype=np.int64)
            orders = 1 if x == y else 2
            if is_natural(comp):
                pay = np.full(N_OUTCOMES, _scaled(rules.blackjack_pays, scale), dtype=np.int64)
                if not rules.blackjack_wins:  # BJW: paid against a dealer blackjack too
                    pay[bj] = 0
                played.add(cards, pay, orders)
                ended.add(cards, np.full(N_OUTCOMES, pay[bj], dtype=np.int64), orders)
                continue
            action = part.decider.decide(u, comp, frozenset(a.actions(u, (x, y))))
            early = action == SURRENDER and rules.surrender is Surrender.EARLY
            ended.add(cards, np.full(N_OUTCOMES, -half if early else -scale, dtype=np.int64),
                      orders)
            node = space.index[comp]
            if action == SURRENDER:
                pay = np.full(N_OUTCOMES, -half, dtype=np.int64)
                if not early and not part.peeked:
                    pay[bj] = -scale  # an unchecked blackjack takes the whole bet
                played.add(cards, pay, orders)
            elif action == STAND:
                stand[node] += orders
            elif action == HIT:
                push[node] += orders
            elif action == DOUBLE:
                total, soft = hand_total([v for v in range(1, 11) for _ in range(comp[v - 1])])
                (free if not soft and total in rules.free_doubles else paid)[node] += orders
            elif action == SPLIT:
                _split_finishes(part, x, scale, played)
            else:
                raise StrategyError(f"unknown action {action}")
    # from three cards on a hand hits, doubles (DAN) or surrenders (SAH) as the engine's
    # optimum says; it stands where it does none of these
    later = values.doubles if play.double_any is not None else None
    held, busts, paid = carry_orders(space, stand, push, values.hits, values.forced, later,
                                     paid)
    single = hand_payoffs(values, play, SINGLE, scale)
    given = values.gives & (held > 0)  # SAH: a peek game, so no dealer blackjack is met
    single[given] = -half
    nodes = np.flatnonzero(held)
    played.add(space.comps[nodes], single[nodes], held[nodes])
    for comps, n in busts:
        played.add(comps, np.full(N_OUTCOMES, -scale, dtype=np.int64), n)
    # a paid double: one card, then (DDR, RDn) given up or doubled again as the optimum says
    after = DoubledPlay(values.rescues, values.redoubles) if play.rescue or play.redoubles \
        else None
    for comps, counts, wager, rescued in doubled_ends(space, paid, after):
        pay = end_pays(comps, wager, rescued, play, scale=scale)
        if not play.bj_takes_all:  # an unchecked blackjack takes the original bet only
            pay[:, bj] = np.where(pay[:, bj] < 0, -scale, pay[:, bj])
        played.add(comps, pay, counts)
    pay_of = hand_payoffs(values, play, FREE_DOUBLED, scale)
    lost = np.full(N_OUTCOMES, -scale, dtype=np.int64)
    for node in np.flatnonzero(free).tolist():
        kids = space.child[node]
        for c in range(10):
            if kids[c] < m:
                played.add(space.comps[kids[c]], pay_of[kids[c]], free[node])
            elif kids[c] == m:
                played.add(space.comps[node] + np.eye(10, dtype=np.int64)[c], lost, free[node])
    return played, ended


def _split_finishes(part: _Upcard, pair: int, scale: int, played: _Finishes) -> None:
    """A split spot's hands, each with both pair cards out: the spot's terms are the sum
    of its hands' (see the module doc)."""
    families, patterns, plan = part.split_families(pair)
    if set(patterns) - {("any", "any"), ("any", "free")}:
        raise UsageError("two spots are enumerated exactly only where one split is allowed")
    names = next(iter(patterns))
    bj = Outcome.BLACKJACK
    for i, name in enumerate(names):
        blocks = families[name]
        cards = blocks.drawn.copy()
        cards[:, pair - 1] += 2
        pay = blocks.pay * (scale // part.scale)  # the blocks count in 1 / part.scale
        if not plan.bj_takes_all:  # "original bet only": the split spot loses 1 in all
            pay[:, bj] = -scale // 2 if names == ("any", "any") else (-scale if i == 0 else 0)
        played.add(cards, pay, blocks.mult, hands=2)


def _second_moment(base: tuple[int, ...], sets: IntArray, v: Any, upcard: int,
                   hits_soft_17: bool, exact: bool, outcomes: list[int],
                   pay_bits: int) -> tuple[Any, int, Any, int]:
    """``sum_o v_o^T K_o v_o`` and ``sum_o v_o . J(a, o)`` over ``outcomes``, each with the
    exact denominator it is over (1 in floats).

    Exact mode sums in residues (:func:`analyzer.engine.dist_dealer.joint_residues`):
    a spot's finishes count each hand of a split once, so their orders weigh at most
    2 (chances) and ``|first| <= 2 P d``, ``|second| <= 4 P**2 d`` with ``P <
    2**pay_bits`` the largest result's size.
    """
    limits = 2 * sets.max(axis=0, initial=0)
    keys = CardKeys(limits)
    codes = keys.encode(sets)
    sums = PairSums(codes, codes, 0)
    pairs = keys.decode(sums.unique)

    if not exact:
        single = joint_weights(base, sets, upcard, hits_soft_17=hits_soft_17)
        first: Any = sum((v[o] @ single[:, o] for o in outcomes), 0.0)
        weights = np.ascontiguousarray(joint_weights(base, pairs, upcard,
                                                     hits_soft_17=hits_soft_17).T)
        second: Any = 0
        for rows, where in sums.slices():
            for o in outcomes:
                second = second + v[o][rows] @ (np.take(weights[o], where) @ v[o])
        return second, 1, first, 1
    ones, den1, p1 = joint_residues(base, sets, upcard, hits_soft_17=hits_soft_17,
                                    bits=pay_bits + 2)
    total = np.zeros((len(p1), 1, 1), dtype=np.int64)
    for o in outcomes:
        total += matmul(residues(v[o], p1)[:, None, :], ones[:, o].T[:, :, None]
                        .astype(np.int64), p1)
    first = int(rebuild(total % p1[:, None, None], p1)[0, 0])
    joint, den2, p2 = joint_residues(base, pairs, upcard, hits_soft_17=hits_soft_17,
                                     bits=2 * pay_bits + 3)
    mods = {o: residues(v[o], p2) for o in outcomes}
    total = np.zeros((len(p2), 1, 1), dtype=np.int64)
    for rows, where in sums.slices():
        for o in outcomes:
            k = np.take(joint[:, o], where, axis=0).transpose(2, 0, 1).astype(np.int64)
            total += matmul(mods[o][:, None, rows], matmul(k, mods[o][:, :, None], p2), p2)
            total %= p2[:, None, None]
    second = int(rebuild(total, p2)[0, 0])
    return second, den2, first, den1


def _check_cards(played: _Finishes, shoe: tuple[int, ...], upcard: int) -> None:
    """Refuse a shoe two spots and the dealer can run out of: each spot takes at most the
    most cards one spot's finishes hold, the dealer at most one card past the smallest
    cards whose hard total (upcard included) reaches 16."""
    dealer = 1 + most_cards(shoe, 16 - upcard)
    if 2 * played.most + dealer > sum(shoe):
        raise refusal("two spots", sum(shoe) + 1, upcard)


def spot_covariance(rules: Rules, shoe: Shoe | None = None, *, strategy: Strategy | None = None,
                    exact: bool = False, jobs: int = 1) -> SpotCovariance:
    """The covariance of two spots' results against one dealer hand, off the top of ``shoe``.

    Every spot plays ``strategy`` (default: the engine's optimal CDZ- play, as
    :func:`~analyzer.engine.distribution.round_distribution`).  Refused (a
    UsageError naming the reason) where a spot's hands cannot be enumerated
    jointly: see :func:`spots_enumerable`.  ``jobs`` processes share the upcards
    (:mod:`analyzer.engine.forked`); their terms are added here in upcard order, so
    the figure is the same bits as one process's.
    """
    jobs = checked_jobs(jobs)
    why = spots_enumerable(rules)
    if why is not None:
        raise UsageError(f"two spots cannot be enumerated exactly: {why}")
    check_units(rules)
    analysis = Analysis(rules, shoe, exact=exact, strategy=strategy)
    decider: Strategy = strategy if strategy is not None else FrozenStrategy(analysis)
    # halves (surrender, "original bet only"), the blackjack's and the card bonuses' units
    scale = math.lcm(2 * rules.blackjack_pays.denominator,
                     *(p.denominator for p in card_bonus(rules) or ()))
    terms: dict[int, list[tuple[Any, Any]]] = {}

    def upcard_terms(u: int) -> list[tuple[Any, Any]]:
        """The upcard's terms of ``E[XY]`` and ``E[X]``, world by world (memoised)."""
        if u not in terms:
            terms[u] = _upcard_terms(analysis, decider, strategy, u, scale)
        return terms[u]

    ups = [u for u in range(1, 11) if analysis.shoe[u]]
    if jobs > 1 and available():  # small upcards first: their splits cost the most
        terms.update(forked.in_forks(upcard_terms, sorted(ups, key=lambda u: u in (1, 8, 9, 10)),
                                     jobs))
    zero: Any = Fraction(0) if exact else 0.0
    e12, e1 = zero, zero
    for u in ups:
        for t12, t1 in upcard_terms(u):
            e12 += t12
            e1 += t1
    return SpotCovariance(covariance=e12 - e1 * e1, mean=e1, exact=exact)


def _upcard_terms(analysis: Analysis, decider: Strategy, strategy: Strategy | None, u: int,
                  scale: int) -> list[tuple[Any, Any]]:
    """One upcard's terms of ``E[XY]`` and ``E[X]``: one pair per world (no dealer
    blackjack, and the peeked blackjack that ends the round)."""
    rules, exact = analysis.rules, analysis.exact
    found: list[tuple[Any, Any]] = []
    part = _Upcard(analysis, u, decider, strategy, 0)
    played, ended = _spot_finishes(part, scale)
    _check_cards(played, part.ua.shoe, u)
    weight = Fraction(analysis.shoe[u], analysis.shoe.total)
    worlds = [(played, [o for o in range(N_OUTCOMES)
                        if not (part.peeked and o == Outcome.BLACKJACK)])]
    if part.peeked:
        worlds.append((ended, [Outcome.BLACKJACK]))
    for finishes, outcomes in worlds:
        cards, pay, orders = finishes.arrays()
        if not len(cards):
            continue
        sets, of = np.unique(cards, axis=0, return_inverse=True)
        v = []
        for o in range(N_OUTCOMES):
            col = np.zeros(len(sets), dtype=object if exact else np.float64)
            np.add.at(col, of.ravel(), (orders * pay[:, o]).astype(col.dtype))
            v.append(col)
        second, den2, first, den1 = _second_moment(
            part.ua.shoe, sets, v, u, rules.hits_soft_17, exact, outcomes,
            int(np.abs(pay).max(initial=0)).bit_length())
        if exact:
            found.append((weight * Fraction(int(second), den2 * scale**2),
                          weight * Fraction(int(first), den1 * scale)))
        else:
            found.append((float(weight) * second / scale**2, float(weight) * first / scale))
    return found


def sd_by_spots(variance: float, covariance: float, spots: int = 3) -> dict[int, float]:
    """The SD of a round's total result on 1..``spots`` spots: ``sqrt(n v + n (n-1) c)``."""
    return {n: math.sqrt(n * variance + n * (n - 1) * covariance) for n in range(1, spots + 1)}


__all__ = ["SpotCovariance", "sd_by_spots", "spot_covariance", "spots_enumerable"]
