"""Post-split strategy levels CDP1 and CDP, as Eric Farmer's analyzer defines them.

Three levels of play for split hands share one EV algorithm (Farmer's, in
:mod:`analyzer.engine.splits`) and differ only in how a split hand is played
with ``a`` extra pair cards out of the shoe (``a = 0`` for the first split):

* **CDZ-**: the pre-split optimal play of the composition (the default).
* **CDP1**: the play that is optimal for a split hand with no extra pair card
  removed (``a = 0``: the shoe less the upcard, both pair cards and the
  hand), used unchanged at every ``a``.
* **CDP**: the play that is optimal for each ``a`` separately ("post-split
  strategy allowed to vary as a function of the number of additional pair
  cards removed").  With no resplit only ``a = 0`` exists, so CDP = CDP1.

Definitions followed: Farmer, "Blackjack Basic Strategy Calculator" v7.6,
``readme.txt`` (the three post-split options) and ``BJStrategy(useCDZ,
useCDP1)`` / ``BJPlayer::computeEVx`` / ``BJPlayer::computeHitCount`` in
``src/blackjack.cpp`` (repository possibly-wrong/blackjack, commit a1f7dbb):
at each ``a`` the split hands' stand, hit and double EVs are computed in the
split shoe; CDP takes, per hand, the best of them (ties: stand, then hit, then
double), CDP1 takes the action recorded at ``a = 0``.  The per-``a`` values then
enter the same exchangeability recursion as CDZ- (Farmer's note
``blackjack_split.pdf``).  The figures agree with his program's output to its
last printed digit (``tests/test_farmer_postsplit.py``).

Note that under CDP the recursion combines values of *different* strategies
(one per ``a``), so a CDP figure is Farmer's defined quantity rather than the
EV of one playable strategy, and it can be *below* CDP1: Farmer's own output
for ``6D S17 DOA DAS SPL3 LS`` has 10,10 vs 2 at 11.855614114% (CDP) against
11.861422561% (CDP1), and vs 6 at 44.898820577% against 44.905987906%; this
engine reproduces both.  The overall EV is higher under CDP in every rule set
tested.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND, Action
from analyzer.core.cards import composition
from analyzer.core.errors import UsageError
from analyzer.engine.dealer import OutcomeCache
from analyzer.engine.hands import (
    HandSpace,
    HandValues,
    double_allowed,
    evaluate,
    payoff_matrix,
    sub_space,
)
from analyzer.engine.splits import SplitPlan, split_ev

Number = Any
POST_SPLIT_LEVELS = ("cdz", "cdp1", "cdp")


def split_hand_space(space: HandSpace, pair: int) -> tuple[HandSpace, list[int]]:
    """The split hands of ``pair``: every node holding a pair card and at least two cards.

    Every such composition can be reached from some two-card split hand by
    hitting, and its children stay in the set, so optimal play is evaluated
    exactly on it.  Returns the sub-space and its nodes' indices in ``space``.
    """
    nodes = np.flatnonzero((space.comps[:, pair - 1] >= 1) & (space.ncards >= 2)).tolist()
    return sub_space(space, nodes), nodes


def best_action(values: HandValues, node: int, may_double: bool) -> int:
    """The best action of a node from its own values (ties: stand, then hit, then double)."""
    if values.forced[node]:
        return STAND
    best, action = values.stand[node], Action.STAND
    if values.hit[node] > best:
        best, action = values.hit[node], HIT
    if may_double and values.double[node] > best:
        action = DOUBLE
    return action


class SplitLevels:
    """The split hands of one pair against one upcard at every level ``a`` of removed pair cards.

    Two savings, neither changing a value:

    * The shoe of node ``c`` at level ``a`` is ``base - c - (a + 1)`` pair cards,
      the shoe of node ``c + pair`` one level down: dealer outcomes are cached by
      the cards out of the shoe and shared between levels.
    * Under optimal play a node's descendants are needed only if hitting it might
      pay.  A hit is worth at most ``1 - 2 P(bust on the next card)`` (no split
      hand wins more than its bet without doubling), so a node whose stand EV
      beats that bound stands and its children are left out.  Evaluated without
      them, its hit EV is only lower (``-P(bust)`` plus the children present), so
      :func:`evaluate` still stands there, and every EV it reports for a
      two-card hand, or for a node that may hit, is exact.
    """

    def __init__(self, first: HandValues, base: tuple[int, ...], upcard: int, plan: SplitPlan,
                 *, hits_soft_17: bool, exact: bool, dealer: OutcomeCache | None = None) -> None:
        self.space, self.nodes = split_hand_space(first.space, plan.pair)
        self.base, self.upcard, self.plan = base, upcard, plan
        self.hits_soft_17, self.exact = hits_soft_17, exact
        self.dealer = dealer if dealer is not None else OutcomeCache(
            base, upcard, hits_soft_17=hits_soft_17, exact=exact)
        self._needed: dict[int, npt.NDArray[np.bool_]] = {}

    def _shoe(self, removed: int) -> npt.NDArray[np.int64]:
        shoe = np.array(self.base, dtype=np.int64)
        shoe[self.plan.pair - 1] -= removed + 1
        return shoe

    def _outcomes(self, removed: npt.NDArray[np.int64] | int,
                  nodes: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """Unconditioned dealer outcomes of ``nodes`` at levels ``removed`` (one or each)."""
        out = self.space.comps[nodes].copy()
        out[:, self.plan.pair - 1] += np.asarray(removed) + 1
        return self.dealer.rows(out)

    def outcomes(self, removed: int, nodes: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """Unconditioned dealer outcomes for ``nodes`` (of :attr:`space`) at this level."""
        return self._outcomes(removed, nodes)

    def prepare(self, levels: list[int], policy: npt.NDArray[np.int64] | None = None) -> None:
        """Find the nodes each level needs (see the class notes), all levels in step.

        Layer by layer from the two-card hands: a node's children are added when
        it may hit (``policy``, or the bound), and always for a two-card hand
        (it may double).  Every level's frontier is one array (``level``, ``node``),
        so each layer is a handful of array operations and one dealer batch.
        """
        space, p = self.space, self.plan.pair
        m = len(space.comps)
        pay = payoff_matrix(self.plan.play.push_22)
        shoes = np.array([self._shoe(a) for a in levels], dtype=np.int64)  # (levels, 10)
        needed = np.zeros((len(levels), m), dtype=bool)
        lv_parts, node_parts = [], []
        for i, shoe in enumerate(shoes):
            nodes = [space.index[composition((p, x))] for x in range(1, 11)
                     if shoe[x - 1] - (x == p) > 0]
            lv_parts.append(np.full(len(nodes), i, dtype=np.int64))
            node_parts.append(np.array(nodes, dtype=np.int64))
        lv, nd = np.concatenate(lv_parts), np.concatenate(node_parts)
        needed[lv, nd] = True
        removed = np.array(levels, dtype=np.int64)
        first = True
        while len(nd):
            if first:
                go = np.ones(len(nd), dtype=bool)  # a two-card hand may double
            elif policy is not None:
                go = policy[nd] == HIT
            elif self.plan.one_card:
                go = np.zeros(len(nd), dtype=bool)
            else:
                rows = self._outcomes(removed[lv], nd)
                stand = (rows * pay[space.total[nd]]).sum(axis=1)
                left = np.maximum(shoes[lv] - space.comps[nd], 0)
                bust = (left * (space.child[nd] == space.bust)).sum(axis=1)
                go = ~(stand > 1 - 2 * bust / np.maximum(left.sum(axis=1), 1))
            go &= ~self._stops(nd)
            children = space.child[nd[go]]  # (k, 10)
            keys = (lv[go][:, None] * (m + 2) + children).ravel()
            keys = np.unique(keys[children.ravel() < space.bust])
            lv, nd = keys // (m + 2), keys % (m + 2)
            fresh = ~needed[lv, nd]
            lv, nd = lv[fresh], nd[fresh]
            needed[lv, nd] = True
            first = False
        for i, a in enumerate(levels):
            self._needed[a] = needed[i]

    def nodes_of(self, removed: int,
                 policy: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """The nodes of :attr:`space` that level ``removed`` needs, in order (its sub-space)."""
        if self.plan.free:  # the free hand's payoff has no pruning bound here: keep all
            return np.arange(len(self.space.comps))
        if removed not in self._needed:
            self.prepare([removed], policy)
        return np.flatnonzero(self._needed[removed])

    def _stops(self, nodes: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Nodes that never act again: a Charlie, 21 where 21 stands, a split ace."""
        play, space = self.plan.play, self.space
        stop = np.zeros(len(nodes), dtype=bool)
        if play.charlie:
            stop |= space.ncards[nodes] >= play.charlie
        if play.stand_on_21:
            stop |= space.total[nodes] == 21
        return stop | self.plan.one_card

    def values(self, removed: int, policy: npt.NDArray[np.int64] | None = None) -> HandValues:
        """EVs of the split hands with ``removed`` extra pair cards out (unconditioned).

        Continued play is optimal, or follows ``policy`` (per node of :attr:`space`).
        The values live on a sub-space of :attr:`space` (the nodes needed).
        """
        needed = self.nodes_of(removed, policy)
        sub = sub_space(self.space, needed)
        rows = self.outcomes(removed, needed)
        return evaluate(sub, tuple(self._shoe(removed).tolist()), self.upcard,
                        hits_soft_17=self.hits_soft_17, conditioned=False, exact=self.exact,
                        policy=None if policy is None else policy[needed], play=self.plan.play,
                        outcomes=rows)


def _may_double(plan: SplitPlan, p: int, x: int) -> bool:
    return plan.double_after_split and double_allowed(plan.double, composition((p, x)))


def level_sums(values: HandValues, base: tuple[int, ...], plan: SplitPlan, removed: int,
               exact: bool, decide: Callable[[tuple[int, ...], bool], int] | None = None
               ) -> tuple[Number, Number, Number]:
    """``(EV[X; a, 0], EV[P; a, 0], X_free)`` at level ``a = removed``.

    The same quantities as :func:`analyzer.engine.splits._hand_values`: each
    two-card split hand takes ``decide(cards, may_double)`` (default: its best
    action in ``values``); the free hand (Free Bet) stands or hits, whichever is
    better for its own payoff.
    """
    p = plan.pair
    second = list(base)
    second[p - 1] -= removed + 2
    total = sum(second)
    space = values.space
    ev_x: Number = 0
    ev_p: Number = 0
    ev_free: Number = 0
    for x in range(1, 11):
        if second[x - 1] <= 0:
            continue
        key = composition((p, x))
        i = space.index[key]
        may_double = _may_double(plan, p, x)
        action = (STAND if plan.one_card else
                  decide(key, may_double) if decide is not None else
                  best_action(values, i, may_double))
        chosen = (values.double if action == DOUBLE else values.hit if action == HIT
                  else values.stand)
        weight = Fraction(second[x - 1], total) if exact else second[x - 1] / total
        ev_x = ev_x + weight * chosen[i]
        if x == p:
            ev_p = chosen[i]
        if plan.free:
            assert values.free_hit is not None and values.free_stand is not None
            hit_free = not plan.one_card and not values.forced[i] and \
                values.free_hit[i] > values.free_stand[i]
            ev_free = ev_free + weight * (values.free_hit[i] if hit_free
                                          else values.free_stand[i])
    return ev_x, ev_p, ev_free


def level_count(base: tuple[int, ...], upcard: int, plan: SplitPlan) -> int:
    """How many levels ``a = 0, 1, ...`` of removed pair cards the split can reach."""
    p = plan.pair
    full_pairs = base[p - 1] + (upcard == p)
    hands = min(plan.max_hands, full_pairs)
    return max(1, min((hands - 2) * 2, full_pairs - 2, base[p - 1] - 2) + 1)


def post_split_ev(level: str, first: HandValues, base: tuple[int, ...], upcard: int,
                  plan: SplitPlan, *, hits_soft_17: bool, exact: bool,
                  dealer: OutcomeCache | None = None) -> Number:
    """EV of splitting under ``level`` (``"cdp1"``, ``"cdp"``), conditioned as :func:`split_ev`.

    ``dealer`` may share dealer outcomes with other pairs against the same upcard.
    """
    if level not in ("cdp1", "cdp"):
        raise UsageError(f"unknown post-split level {level!r}")
    levels = SplitLevels(first, base, upcard, plan, hits_soft_17=hits_soft_17, exact=exact,
                         dealer=dealer)
    count = level_count(base, upcard, plan)
    levels.prepare(list(range(count)) if level == "cdp" else [0])
    first_level = levels.values(0)

    def decide_first(key: tuple[int, ...], may_double: bool) -> int:
        return best_action(first_level, first_level.space.index[key], may_double)

    # CDP1 plays the first level's actions; nodes it never evaluated are never reached.
    policy = np.full(len(levels.space.comps), STAND, dtype=np.int64)
    policy[levels.nodes_of(0)] = np.where(first_level.hits, HIT, STAND)
    if level == "cdp1" and count > 1:
        levels.prepare(list(range(1, count)), policy)

    def level_values(removed: int) -> tuple[Number, Number, Number]:
        if removed == 0 or level == "cdp":
            values = first_level if removed == 0 else levels.values(removed)
            return level_sums(values, base, plan, removed, exact)
        values = levels.values(removed, policy=policy)  # CDP1: the first level's play
        return level_sums(values, base, plan, removed, exact, decide=decide_first)

    return split_ev(first, base, upcard, plan, hits_soft_17=hits_soft_17, exact=exact,
                    level_values=level_values)
