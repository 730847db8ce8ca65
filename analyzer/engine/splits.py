"""Pair splitting with resplits, under the CDZ- strategy.

CDZ- plays every split hand by the pre-split optimal strategy: the decision
for a hand composition is the one that is best for that composition when it
was *not* reached by splitting.  The EV of a split follows Eric Farmer's
algorithm ("Blackjack Basic Strategy Calculator" v7.6, ``BJPlayer::computeSplit``
and the note ``blackjack_split.pdf``), the convention of published analyzers
and of the reference figures this project is tested against:

* a split hand is evaluated from the shoe less the upcard, the hand's own
  cards and the pair cards split off (``2 + a`` of them);
* the second cards of hands completed before a resplit are removed as random
  *non-pair* cards (``b`` of them), through the exchangeability identity
  ``EV[a, b] = (EV[a, b-1] - v EV[a+1, b-1]) / (1 - v)``, ``v`` the chance of a
  pair card;
* cards *hit* to the other split hands need not be removed: with a strategy
  that looks only at a hand's own cards, the symmetry of the deal makes the
  sum of these per-hand values the *exact* EV of the whole split.
  :mod:`analyzer.oracle.exact_splits` enumerates whole rounds card by card
  (``new_analysis(split="exact")``, small shoes) and the tests check that both
  agree as fractions, resplits included.

A pair drawn to a split hand is resplit while hands remain; once no more may be
made, it is played like any other hand.  Values are per unit initial bet; a
dealer blackjack (peek games) takes only the original bet.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.arith import Num, Number, quotient
from analyzer.core.cards import blackjack_value, composition, is_natural
from analyzer.core.errors import ImpossibleHandError, InternalError, RuleConflictError
from analyzer.core.rules import Double, Rules
from analyzer.engine.dealer import OutcomeCache
from analyzer.engine.hands import (
    HandSpace,
    HandValues,
    PlayRules,
    double_allowed,
    evaluate,
    later_doubles,
    sub_space,
)
from analyzer.engine.strategy import beats


@dataclass(frozen=True)
class SplitPlan:
    """What the rules allow once a given pair is split."""

    pair: int
    max_hands: int
    double_after_split: bool
    double: Double
    one_card: bool  # split aces receive one card each
    conditioned: bool  # the dealer checked for blackjack with this upcard
    bj_takes_all: bool  # an unchecked dealer blackjack takes every split bet
    free: bool  # Free Bet: the second hand carries a free bet (one split only)
    play: PlayRules

    @classmethod
    def from_rules(cls, rules: Rules, pair: int, upcard: int) -> SplitPlan:
        """What ``rules`` allow a pair of ``pair`` split against ``upcard`` (kept: the
        analyses of one rule set, each level's and a chart's, ask alike)."""
        return _plan(rules, pair, upcard)


@lru_cache(maxsize=4096)
def _plan(rules: Rules, pair: int, upcard: int) -> SplitPlan:
    hands = rules.max_hands
    if pair == 1 and not rules.resplit_aces:
        hands = min(hands, 2)
    free = pair in rules.free_splits
    play = PlayRules.from_rules(rules, upcard, free_hand=free)
    if not rules.double_after_split:  # DAN's later doubles are doubles after a split
        play = replace(play, double_any=None)
    if rules.bonus_not_split:  # BNS: a split hand's 21 pays 1:1
        play = replace(play, bonus=None, three=None, three_plain=None)
    else:  # the Super Bonus is not paid on a split hand
        play = replace(play, three=play.three_plain)
    play = replace(play, surrender_later=False)  # SAH: not after a split
    return SplitPlan(pair=pair, max_hands=hands, double_after_split=rules.double_after_split,
                     double=rules.double, one_card=(pair == 1 and not rules.hit_split_aces),
                     conditioned=rules.peeks_on(upcard), bj_takes_all=play.bj_takes_all,
                     free=free, play=play)


Decide = Callable[[int, bool], int]  # (node, may double) -> action for a split hand
LevelValues = Callable[[int], "tuple[Number, Number, Number] | None"]


def policy_decision(values: HandValues, node: int, may_double: bool) -> int:
    """The pre-split optimal action of a composition (ties go to stand, then hit).

    An ace and a ten stand: unsplit they are a blackjack, whose only "play" is to
    stand (Farmer's analyzer compares the blackjack payoff here, so it stands).
    """
    if is_natural(values.space.comp_tuples[node]):
        return STAND
    return best_action(values, node, may_double)


def best_action(values: HandValues, node: int, may_double: bool) -> int:
    """The best action of a node from its own values (ties: stand, then hit, then double)."""
    if values.forced[node]:
        return STAND
    best, action = values.stand[node], STAND
    if beats(values.hit[node], best):
        best, action = values.hit[node], HIT
    if may_double and beats(values.double[node], best):
        action = DOUBLE
    return action


def later_play(first: HandValues, double_any: Double | None,
               ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per node, whether a split hand reached by hitting hits again, and whether it doubles
    (DAN), as the unsplit hand plays (CDZ-).

    ``double_any``: the doubling rule of a split hand's later doubles (None: it may not
    double after hitting, NDAS or no DAN).  Where the unsplit hand doubles after hitting
    but the split one may not, or surrenders after hitting (SAH: a split hand may not),
    the split hand takes the best of the plays it has (ties: stand, then hit).
    """
    if not first.doubles.any() and not first.gives.any():
        return first.hits, first.doubles
    doubles = first.doubles if double_any is not None else np.zeros_like(first.doubles)
    other = first.gives | (first.doubles & ~doubles)  # where the unsplit play is not had
    hits: npt.NDArray[np.bool_] = first.hits | (other & beats(first.hit, first.stand))
    if double_any is not None and first.gives.any():
        best = np.where(hits, first.hit, first.stand)
        extra = first.gives & later_doubles(first.space, double_any) & beats(first.double, best)
        hits = hits & ~extra
        doubles = doubles | extra
    return hits, doubles


@lru_cache(maxsize=128)
def _start_key(p: int, x: int) -> tuple[int, ...]:
    return composition((p, x))


def _start_node(space: HandSpace, p: int, x: int) -> int:
    node = _start_nodes(space, p)[x - 1]
    if node < 0:  # a hand the shoe deals but the space lacks: a bug, never a figure
        raise InternalError(f"the split hand {p},{x} is missing from its hand space")
    return node


# Per hand space and pair, the nodes of its two-card split hands: asked for every upcard,
# level and count of pair cards removed, where a lookup by composition costs a hash of it.
_STARTS: weakref.WeakKeyDictionary[HandSpace, dict[int, tuple[int, ...]]] = \
    weakref.WeakKeyDictionary()


def _start_nodes(space: HandSpace, p: int) -> tuple[int, ...]:
    """The node of the split hand ``p, x`` at ``x - 1`` (-1 where the space has none)."""
    per_pair = _STARTS.setdefault(space, {})
    if p not in per_pair:
        index = space.index
        per_pair[p] = tuple(int(index[key]) if (key := _start_key(p, x)) in index else -1
                            for x in range(1, 11))
    return per_pair[p]


# first action per second card; per node, whether a hand reached by hitting draws again
# (hits, or doubles under DAN)
Walk = tuple[dict[int, int], npt.NDArray[np.bool_]]


def _reachable(space: HandSpace, p: int, walks: Sequence[Walk]) -> npt.NDArray[np.int64]:
    """Nodes reachable from the two-card split hands ``p, x`` under each walk, sorted.

    A walk is the first action per second card ``x`` and, per node, whether a
    hand reached by hitting hits again.  Each walk has its own reach: a node
    one hand only stands on may be one the other hand hits.  Every edge adds a
    card, so one pass over the layers, smallest hands first, finds them all
    (the two-card starts are never reached by hitting: they hold two cards).
    """
    m = len(space.comps)
    seen = np.zeros(m + 2, dtype=bool)
    for first_actions, cont in walks:
        reach = np.zeros(m + 2, dtype=bool)
        expand = np.array(cont[:m], dtype=bool)
        for x, action in first_actions.items():
            node = _start_node(space, p, x)
            reach[node] = True
            expand[node] = action in (HIT, DOUBLE)
        for layer in reversed(space.layers):
            go = layer[reach[layer] & expand[layer]]
            if len(go):
                reach[space.child[go].ravel()] = True
        seen |= reach
    return np.flatnonzero(seen[:m])


T = TypeVar("T")

# Split hands' values by how they are played, and the hands they reach, per hand space (a
# space serves every rule set and upcard of its shoe; what is kept goes with it).
KEPT_PER_SPACE = 20_000
_KNOWN: weakref.WeakKeyDictionary[HandSpace, dict[tuple[object, ...], tuple[Any, Any, Any]]] = \
    weakref.WeakKeyDictionary()
_REACHED: weakref.WeakKeyDictionary[
    HandSpace, dict[tuple[object, ...], tuple[npt.NDArray[np.int64], HandSpace]]] = \
    weakref.WeakKeyDictionary()


def _kept(table: weakref.WeakKeyDictionary[HandSpace, dict[tuple[object, ...], T]],
          space: HandSpace) -> dict[tuple[object, ...], T]:
    """``space``'s entries of ``table``, emptied once they number :data:`KEPT_PER_SPACE`."""
    kept = table.setdefault(space, {})
    if len(kept) >= KEPT_PER_SPACE:
        kept.clear()
    return kept


def _free_hits(first: HandValues, plan: SplitPlan,
               free_hits: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.bool_]:
    """Whether the hand carrying a free bet hits, per node (never, without free splits)."""
    if not plan.free:
        return np.zeros(len(first.space.comps), dtype=bool)
    if free_hits is not None:
        return free_hits
    assert first.free_hit is not None and first.free_stand is not None
    result: npt.NDArray[np.bool_] = beats(first.free_hit, first.free_stand) & ~first.forced
    return result


# The per-hand values below come out of numpy arrays, object arrays of Fractions in
# exact mode, which numpy cannot type: they are ``Any`` until split_ev's recursion.
def _hand_values(first: HandValues, base: tuple[int, ...], upcard: int, plan: SplitPlan,
                 removed: int, decide: Decide, hits: npt.NDArray[np.bool_],
                 doubles: npt.NDArray[np.bool_], *,
                 hits_soft_17: bool, exact: bool, free_hits: npt.NDArray[np.bool_] | None,
                 dealer: OutcomeCache) -> tuple[Any, Any, Any]:
    """``(EV[X; a, 0], EV[P; a, 0], X_free)`` with ``a = removed`` extra pair cards out.

    ``X`` averages one split hand over its second card; ``P`` is the hand that
    drew a pair card and plays it; ``X_free`` is ``X`` for a hand carrying a
    free bet (Free Bet), played for its own payoff.  Unconditional (a dealer
    blackjack costs each hand its bet, or only the original when
    ``plan.bj_takes_all`` is off; the caller settles the rest).
    """
    space = first.space
    p = plan.pair
    shoe = list(base)
    shoe[p - 1] -= removed + 1  # the hand holds one pair card; the others are out
    second_shoe = list(shoe)
    second_shoe[p - 1] -= 1
    free_hits = _free_hits(first, plan, free_hits)
    starts: dict[int, int] = {}
    free_starts: dict[int, int] = {}
    for x in range(1, 11):
        if second_shoe[x - 1] <= 0:
            continue
        node = _start_node(space, p, x)
        may_double = plan.double_after_split and double_allowed(plan.double, _start_key(p, x))
        starts[x] = STAND if plan.one_card else decide(node, may_double)
        free_starts[x] = HIT if (free_hits[node] and not plan.one_card) else STAND
    key = (tuple(starts.items()), tuple(free_starts.items()))
    # Everything the values below read, by content: rule sets that play split hands
    # alike (a blackjack's payout, surrender, a chart and the optimum agreeing) share them.
    play = hashlib.blake2b(hits.tobytes())
    for part in (doubles, first.rescues if plan.play.rescue else None,
                 first.redoubles if plan.play.redoubles else None,
                 free_hits if plan.free else None):
        play.update(b"-" if part is None else part.tobytes())
    known = _kept(_KNOWN, space)
    seen = (tuple(base), upcard, plan, removed, hits_soft_17, exact, key, play.digest())
    if seen not in known:
        known[seen] = _played_values(first, shoe, second_shoe, upcard, plan, removed, hits,
                                     doubles, starts, free_starts, free_hits, key,
                                     hits_soft_17=hits_soft_17, exact=exact, dealer=dealer)
    return known[seen]


def _played_values(first: HandValues, shoe: list[int], second_shoe: list[int], upcard: int,
                   plan: SplitPlan, removed: int, hits: npt.NDArray[np.bool_],
                   doubles: npt.NDArray[np.bool_], starts: dict[int, int],
                   free_starts: dict[int, int], free_hits: npt.NDArray[np.bool_],
                   key: tuple[object, ...], *, hits_soft_17: bool, exact: bool,
                   dealer: OutcomeCache) -> tuple[Any, Any, Any]:
    """:func:`_hand_values` once the split hands' play is fixed (``starts``, ``hits``...):
    ``shoe`` is the hand's, ``second_shoe`` the one its second card comes from."""
    space = first.space
    p = plan.pair
    # a hand drawing again: hitting, doubling (DAN) or redoubling a double (RDn)
    later = hits | doubles | (first.redoubles.any(axis=0) if plan.play.redoubles else False)
    drawn = hashlib.blake2b(later.tobytes())
    drawn.update(free_hits.tobytes() if plan.free else b"-")
    reached = _kept(_REACHED, space)
    where = (p, key, drawn.digest())  # the levels, upcards and rule sets that walk alike
    if where not in reached:
        walks: list[Walk] = ([(starts, later)]
                             + ([(free_starts, free_hits)] if plan.free else []))
        nodes = _reachable(space, p, walks)
        reached[where] = nodes, sub_space(space, nodes)
    nodes, sub = reached[where]
    out = sub.comps.copy()
    out[:, p - 1] += removed + 1
    policy = np.where(hits[nodes], HIT, np.where(doubles[nodes], DOUBLE, STAND))
    vals = evaluate(sub, tuple(shoe), upcard, hits_soft_17=hits_soft_17, conditioned=False,
                    exact=exact, policy=policy, play=plan.play,
                    rescue_policy=first.rescues[:, nodes] if plan.play.rescue else None,
                    redouble_policy=first.redoubles[:, nodes] if plan.play.redoubles else None,
                    free_policy=np.where(free_hits[nodes], HIT, STAND) if plan.free else None,
                    outcomes=dealer.rows(out))
    total = sum(second_shoe)
    ev_x: Any = 0
    ev_p: Any = 0
    ev_free: Any = 0
    start_nodes = _start_nodes(space, p)
    at = np.searchsorted(nodes, [start_nodes[x - 1] for x in starts]).tolist()
    for i, (x, action) in zip(at, starts.items(), strict=True):
        chosen = vals.double if action == DOUBLE else vals.hit if action == HIT else vals.stand
        weight = quotient(second_shoe[x - 1], total, exact)
        ev_x = ev_x + weight * chosen[i]
        if x == p:
            ev_p = chosen[i]
        if plan.free:
            assert vals.free_hit is not None and vals.free_stand is not None
            free = vals.free_hit if free_starts[x] == HIT else vals.free_stand
            ev_free = ev_free + weight * free[i]
    return ev_x, ev_p, ev_free


def split_ev(first: HandValues, base: tuple[int, ...], upcard: int, plan: SplitPlan, *,
             hits_soft_17: bool, exact: bool, decide: Decide | None = None,
             hits: npt.NDArray[np.bool_] | None = None,
             doubles: npt.NDArray[np.bool_] | None = None,
             free_hits: npt.NDArray[np.bool_] | None = None,
             level_values: LevelValues | None = None,
             dealer: OutcomeCache | None = None) -> Number:
    """EV of splitting the pair, conditioned on no dealer blackjack where the dealer peeked.

    ``first`` are the pre-split EVs of every hand against ``upcard`` from
    ``base`` (the shoe less the upcard); they fix the CDZ- decisions.  A fixed
    strategy instead gives ``decide`` (two-card split hands) and ``hits`` (per
    node of ``first.space``: whether a hand reached by hitting hits again; ``doubles``:
    whether it doubles, under DAN; a doubled hand gives up under DDR where the
    unsplit hand would, ``first.rescues``), and
    ``free_hits`` the same for a hand carrying a free bet.  ``level_values(a)``
    may supply ``(EV[X; a, 0], EV[P; a, 0], X_free)`` for a level of play that is
    not one fixed strategy (:mod:`analyzer.engine.postsplit`); None keeps ``decide``.
    ``dealer`` may share dealer outcomes with other pairs against the same upcard.
    """
    if decide is None:
        def decide(node: int, may_double: bool) -> int:
            return policy_decision(first, node, may_double)
    decide = _asked_once(decide)  # asked again for each count of pair cards removed
    if hits is None or doubles is None:
        hits, doubles = later_play(first, plan.play.double_any)
    if dealer is None:
        dealer = OutcomeCache(base, upcard, hits_soft_17=hits_soft_17, exact=exact)
    p = plan.pair
    full_pairs = base[p - 1] + (upcard == p)
    hands = min(plan.max_hands, full_pairs)
    if hands < 2 or base[p - 1] < 2:
        raise ImpossibleHandError(f"a pair of {p} cannot be split from this shoe")
    max_removed = min((hands - 2) * 2, full_pairs - 2)
    if plan.free and hands != 2:
        raise RuleConflictError("a free split is modelled for one split only (SPL1)")
    xs: list[Any] = []
    ps: list[Any] = []
    for removed in range(max_removed + 1):
        if base[p - 1] - 2 - removed < 0:
            xs.append(0)
            ps.append(0)
            continue
        given = level_values(removed) if level_values is not None else None
        x: Any
        pp: Any
        x_free: Any
        x, pp, x_free = given if given is not None else _hand_values(
            first, base, upcard, plan, removed, decide, hits, doubles, hits_soft_17=hits_soft_17,
            exact=exact, free_hits=free_hits, dealer=dealer)
        if plan.free:  # one paid hand and one free hand
            settled: Number = (
                _settle_blackjack(x + x_free, base, upcard, plan, 1, Fraction(1)) if exact
                else _settle_blackjack(x + x_free, base, upcard, plan, 1, 1.0))
            return settled
        xs.append(x)
        ps.append(pp)
    # The recursions reach up to 2 (hands - 2) removed pair cards; beyond the pair
    # cards the shoe holds, those terms carry zero weight.
    while len(xs) <= 2 * (hands - 2):
        xs.append(0)
        ps.append(0)
    result: Number = (_combine(xs, ps, base, upcard, plan, hands, Fraction(1)) if exact
                      else _combine(xs, ps, base, upcard, plan, hands, 1.0))
    return result


def _asked_once(decide: Decide) -> Decide:
    """``decide``, each of its answers kept (a strategy's play of a hand does not change)."""
    answers: dict[tuple[int, bool], int] = {}

    def once(node: int, may_double: bool) -> int:
        key = (node, may_double)
        if key not in answers:
            answers[key] = decide(node, may_double)
        return answers[key]

    return once


def _combine(xs: Sequence[Num], ps: Sequence[Num], base: tuple[int, ...], upcard: int,
             plan: SplitPlan, hands: int, one: Num) -> Num:
    """The split's EV from the per-hand values: every arrangement of pair and other cards.

    ``xs[a]``, ``ps[a]``: ``EV[X; a, 0]`` and ``EV[P; a, 0]`` (see :func:`_hand_values`).
    """
    size = sum(base)
    pc = base[plan.pair - 1] - 2  # pair cards left once the pair is out (upcard already out)

    def pair_share(a: int, b: int, shift: int) -> Num:
        return (pc - a) * one / (size - 1 - shift - a - b)

    # A zero weight is an arrangement the shoe cannot deal; there 1 - v may be 0 (a shoe
    # of pair cards only), so it is skipped rather than divided (found by the fuzz tests).
    def ev_x(w: Num, a: int, b: int) -> Num:
        if b == 0 or not w:
            return w * xs[a]
        v = pair_share(a, b, 0)
        return ev_x(w / (1 - v), a, b - 1) + ev_x(w * v / (v - 1), a + 1, b - 1)

    def ev_n(w: Num, a: int, b: int) -> Num:
        if not w:
            return w
        v = pair_share(a, b, 1)
        if b == 0:
            return w / (1 - v) * (xs[a] - v * ps[a])
        return ev_n(w / (1 - v), a, b - 1) + ev_n(w * v / (v - 1), a + 1, b - 1)

    n0 = size - 2
    np0 = n0 - pc

    def arrangement(weight: int, pairs: int, nonpairs: int) -> Num:
        v = weight * one
        n = n0
        for i in range(pairs):
            v = v * (pc - i) / n
            n -= 1
        for j in range(nonpairs):
            v = v * (np0 - j) / n
            n -= 1
        return v

    total = 0 * one
    for h in range(2, hands):  # stopping early with exactly h hands
        total += ev_n(arrangement(h - 1, h - 2, h) * h, h - 2, h - 1)
    for k in range(hands - 1):  # all hands made, k completed before the last pair card
        w = arrangement(2 if hands == 4 and k > 0 else 1, hands - 2, k)
        if k > 0:
            total += ev_n(w * k, hands - 2, k - 1)
        total += ev_x(w * (hands - k), hands - 2, k)
    return _settle_blackjack(total, base, upcard, plan, hands, one)


def _paid_hands(after_pair: list[int], p: int, bj: int, hands: int, one: Num) -> Num:
    """Expected number of hands a split ends with, given a dealer blackjack hole card."""
    n = sum(after_pair) - 1
    q = after_pair[p - 1] - (bj == p)
    if hands <= 2:
        return 2 * one
    p2 = (n - q) * one / n * (n - q - 1) / (n - 1)
    if hands == 3:
        return 2 * p2 + 3 * (1 - p2)
    p3 = 2 * q * one / n * (n - q) / (n - 1) * (n - q - 1) / (n - 2) * (n - q - 2) / (n - 3)
    return 2 * p2 + 3 * p3 + 4 * (1 - p2 - p3)


def _settle_blackjack(total: Num, base: tuple[int, ...], upcard: int, plan: SplitPlan,
                      hands: int, one: Num) -> Num:
    """Give back what a dealer blackjack does not take, and condition where it was ruled out.

    ``total`` counted a dealer blackjack as a loss of every split hand's bet.
    Where only the original bet is lost (a peek, or OBO) the expected number of
    *paid* hands less one comes back with the blackjack's probability; where
    the dealer peeked, the result is then conditioned on no blackjack.
    """
    p = plan.pair
    bj = blackjack_value(upcard)
    if bj is None or plan.bj_takes_all:
        return total
    after_pair = list(base)
    after_pair[p - 1] -= 2
    if after_pair[bj - 1] <= 0:
        return total
    p_bj = after_pair[bj - 1] * one / sum(after_pair)
    paid_hands = one if plan.free else _paid_hands(after_pair, p, bj, hands, one)
    total += (paid_hands - 1) * p_bj
    if plan.conditioned and p_bj == 1:
        # The peek surely ends the round before this hand is played: it has no value given
        # no blackjack.  0, as every other play of such a hand is valued (the dealer's rows
        # given no blackjack are empty); every caller weighs it by 1 - p_bj = 0.
        return 0 * one
    return (total + p_bj) / (1 - p_bj) if plan.conditioned else total
