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

Speed: against one upcard the split hands of every pair and level are evaluated
together (:class:`PostSplit`, :func:`stacked`), and under optimal play a hand's
children get dealer outcomes only when hitting it might pay, by a bound from the
hand's own dealer outcomes (:meth:`SplitLevels.hit_bounds`), so CDP and CDP1
evaluate few more dealer shoes than CDZ- does, far fewer than every split hand
would need (``benchmarks/bench_splits.py`` measures both).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.arith import Number, quotient
from analyzer.core.cards import composition
from analyzer.core.errors import InternalError, UsageError
from analyzer.core.levels import SplitLevel
from analyzer.core.outcomes import N_OUTCOMES
from analyzer.engine import kernel as _dealer  # the compiled loops: C, or numba without it
from analyzer.engine.dealer import OutcomeCache, draw_table
from analyzer.engine.hands import (
    HandSpace,
    HandValues,
    PlayRules,
    double_allowed,
    evaluate,
    payoff_matrix,
    sub_space,
)
from analyzer.engine.splits import SplitPlan, best_action, split_ev
from analyzer.engine.strategy import beats


def split_hand_space(space: HandSpace, pair: int) -> tuple[HandSpace, list[int]]:
    """The split hands of ``pair``: every node holding a pair card and at least two cards.

    Every such composition can be reached from some two-card split hand by
    hitting, and its children stay in the set, so optimal play is evaluated
    exactly on it.  Returns the sub-space and its nodes' indices in ``space``.
    """
    nodes = np.flatnonzero((space.comps[:, pair - 1] >= 1) & (space.ncards >= 2)).tolist()
    return sub_space(space, nodes), nodes


@lru_cache(maxsize=64)
def stacked(spaces: tuple[HandSpace, ...]) -> HandSpace:
    """Disjoint copies of ``spaces`` side by side, evaluated in one pass.

    Block ``j`` holds its space's nodes, in order, from the sum of the sizes
    before it; children stay in their block, and every block shares one bust
    index (and one "outside" index).  The levels of a split, and the pairs,
    differ only in their hands and shoes, so one :func:`evaluate` over the
    blocks (each node with its own shoe) replaces one call per pair and level:
    the layer loop's numpy calls run once.  A composition may be in several
    blocks: ``index`` is not meaningful here.  Cached: the shoes of six or eight
    decks less any upcard share one hand space (:func:`hand_space`).
    """
    sizes = [len(space.comps) for space in spaces]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    size = int(starts[-1])
    child = np.concatenate([np.where(space.child >= m, space.child - m + size, space.child + lo)
                            for space, m, lo in zip(spaces, sizes, starts.tolist(), strict=False)])
    ncards = np.concatenate([space.ncards for space in spaces])
    layers = tuple(np.flatnonzero(ncards == n) for n in np.unique(ncards)[::-1].tolist())
    return HandSpace(comps=np.concatenate([space.comps for space in spaces]), ncards=ncards,
                     total=np.concatenate([space.total for space in spaces]),
                     soft=np.concatenate([space.soft for space in spaces]), child=child,
                     layers=layers)


@lru_cache(maxsize=64)
def _split_hands(space: HandSpace, pair: int, one_card: bool) -> HandSpace:
    """The split hands of ``pair`` (:func:`split_hand_space`), two-card only if ``one_card``."""
    hands, _ = split_hand_space(space, pair)
    return sub_space(hands, np.flatnonzero(hands.ncards == 2)) if one_card else hands


def _reach(space: HandSpace, draws: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Nodes reached from the two-card hands (which may double: their children too) where
    ``draws`` says a hand takes another card (it hits, doubles or doubles again)."""
    m = len(space.comps)
    reach = np.zeros(m + 2, dtype=bool)
    reach[:m] = space.ncards == 2
    expand = draws | (space.ncards == 2)
    for layer in reversed(space.layers):  # smallest hands first: every edge adds a card
        go = layer[reach[layer] & expand[layer]]
        reach[space.child[go].ravel()] = True
    return np.flatnonzero(reach[:m])


def unbounded(play: PlayRules) -> bool:
    """Whether a split hand that has hit may win more than its bet: it doubles later (DAN),
    doubles a double again (RDn) or is paid a bonus 21."""
    return (play.double_any is not None or play.redoubles > 0 or play.bonus is not None
            or play.three is not None)


@dataclass(frozen=True)
class Policy:
    """A split hand's play after its first decision, per node of the pair's split hands.

    ``actions``: ``STAND``, ``HIT`` or (DAN) ``DOUBLE`` for a hand reached by hitting;
    ``rescues`` and ``redoubles`` (one row per stake level, as
    :attr:`HandValues.rescues`): where a doubled hand is given up (DDR) or doubled
    again (RDn).  CDP1 takes them from the first level's optimal play.
    """

    actions: npt.NDArray[np.int64]
    rescues: npt.NDArray[np.bool_]
    redoubles: npt.NDArray[np.bool_]

    @property
    def draws(self) -> npt.NDArray[np.bool_]:
        """Nodes that take another card: they hit, double, or double a double again."""
        result: npt.NDArray[np.bool_] = (self.actions != STAND) | self.redoubles.any(axis=0)
        return result

    @classmethod
    def of(cls, hands: LevelHands) -> Policy:
        """The optimal play ``hands`` found (STAND where they evaluated no node)."""
        values, lo, hi = hands.values, hands.start, hands.start + len(hands.nodes)
        size = len(hands.space.comps)
        actions = np.full(size, STAND, dtype=np.int64)
        actions[hands.nodes] = np.where(values.hits[lo:hi], HIT,
                                        np.where(values.doubles[lo:hi], DOUBLE, STAND))
        rescues = np.zeros((len(values.rescues), size), dtype=bool)
        rescues[:, hands.nodes] = values.rescues[:, lo:hi]
        redoubles = np.zeros((len(values.redoubles), size), dtype=bool)
        redoubles[:, hands.nodes] = values.redoubles[:, lo:hi]
        return cls(actions, rescues, redoubles)


@dataclass(frozen=True)
class LevelHands:
    """One pair's split hands at one level, among those evaluated together."""

    values: HandValues  # of every pair and level evaluated together
    pair: int
    space: HandSpace  # the pair's split hands
    nodes: npt.NDArray[np.int64]  # this level's nodes of ``space``, in order
    start: int  # where they begin among ``values``' nodes

    @cached_property
    def starts(self) -> list[int]:
        """The node of ``values`` holding each two-card split hand ``pair, x`` (-1: none)."""
        two = _two_card_nodes(self.space, self.pair)
        if not len(self.nodes):
            return [-1] * len(two)
        at = np.minimum(np.searchsorted(self.nodes, two), len(self.nodes) - 1)
        found = (two >= 0) & (self.nodes[at] == two)
        result: list[int] = np.where(found, self.start + at, -1).tolist()
        return result


@lru_cache(maxsize=64)
def _two_card_nodes(space: HandSpace, pair: int) -> npt.NDArray[np.int64]:
    """The node of each two-card split hand ``pair, x`` of ``space``, x = 1..10 (-1: none)."""
    return np.array([space.index.get(composition((pair, x)), -1) for x in range(1, 11)],
                    dtype=np.int64)


Level = tuple[int, int]  # (pair, extra pair cards removed)


class SplitLevels:
    """The split hands of several pairs against one upcard, at levels of removed pair cards.

    The shoe of node ``c`` at level ``a`` is ``base - c - (a + 1)`` pair cards,
    the shoe of node ``c + pair`` one level down: dealer outcomes are cached by
    the cards out of the shoe and shared between levels, pairs and the
    pre-split hands.  Every (pair, level) asked for is evaluated in one pass over
    stacked blocks of hands (:func:`stacked`).  The plans must share their play
    rules (:class:`PlayRules`: one :func:`evaluate`).

    Under optimal play a hand's children are needed only if hitting it might
    pay; the search for them (:meth:`_search`) halves the dealer rows of
    ``6D S17 DOA DAS SPL3 LS`` (150,629 against 259,400).  ``prune=False`` keeps
    every hand (the tests' reference for the search).  A split ace that takes
    one card keeps only its two-card hands.
    """

    def __init__(self, first: HandValues, base: tuple[int, ...], upcard: int,
                 plans: Sequence[SplitPlan], *, hits_soft_17: bool, exact: bool,
                 dealer: OutcomeCache | None = None, prune: bool = True) -> None:
        self.plans = {plan.pair: plan for plan in plans}
        plays = {plan.play for plan in plans}
        if len(plays) != 1:
            raise InternalError("split levels evaluated together must share their play rules")
        self.play = plays.pop()
        # The search's bound (hit_bounds) holds where a hand that has hit can win at most its
        # bet: not where it may double later (DAN), a double may double again (RDn), or a 21
        # pays a bonus. There every hand is evaluated.
        self.prune = prune and not unbounded(self.play)
        self.spaces = {plan.pair: _split_hands(first.space, plan.pair, plan.one_card)
                       for plan in plans}
        self.base, self.upcard = np.array(base, dtype=np.int64), upcard
        self.hits_soft_17, self.exact = hits_soft_17, exact
        self.dealer = dealer if dealer is not None else OutcomeCache(
            base, upcard, hits_soft_17=hits_soft_17, exact=exact)
        self.kmax = int(draw_table(upcard, hits_soft_17).drawn.max())
        self.pay = payoff_matrix(  # (totals, outcomes)
            self.play.push_22, self.play.player_21_wins).astype(np.float64)

    def values(self, wanted: Sequence[Level],
               policies: Mapping[int, Policy] | None = None,
               ) -> dict[Level, LevelHands]:
        """EVs of the split hands of each (pair, level) (unconditioned), evaluated together.

        Continued play is optimal, or follows ``policies[pair]`` (per node of the
        pair's split hands, the same at every level: the action of a hand reached by
        hitting, and where a doubled hand is given up or doubled again); with policies
        only the hands they reach from the two-card hands are evaluated.
        """
        spaces = tuple(self.spaces[p] for p, _ in wanted)
        blocks = stacked(spaces)
        sizes = [len(space.comps) for space in spaces]
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        lift = np.zeros((len(wanted), 10), dtype=np.int64)
        for j, (p, a) in enumerate(wanted):
            lift[j, p - 1] = a + 1
        out = blocks.comps + np.repeat(lift, sizes, axis=0)
        rows: npt.NDArray[Any] | None = None
        policy: npt.NDArray[np.int64] | None = None
        rescue: npt.NDArray[np.bool_] | None = None
        redouble: npt.NDArray[np.bool_] | None = None
        if policies is not None:
            nodes = np.concatenate([_reach(self.spaces[p], policies[p].draws) + lo
                                    for (p, _), lo in zip(wanted, starts.tolist(), strict=False)])
            policy = np.concatenate([policies[p].actions for p, _ in wanted])[nodes]
            if self.play.rescue:
                rescue = np.concatenate([policies[p].rescues for p, _ in wanted], axis=1)[:, nodes]
            if self.play.redoubles:
                redouble = np.concatenate([policies[p].redoubles for p, _ in wanted],
                                          axis=1)[:, nodes]
        elif self.play.free_hand or not self.prune:  # (the free hand has no bound here)
            nodes = np.arange(len(blocks.comps))
        else:
            one_card = np.repeat([self.plans[p].one_card for p, _ in wanted], sizes)
            nodes, rows = self._search(blocks, out, one_card)
        if rows is None:
            rows = self.dealer.rows(out[nodes])
        values = evaluate(sub_space(blocks, nodes), tuple(self.base.tolist()), self.upcard,
                          hits_soft_17=self.hits_soft_17, conditioned=False, exact=self.exact,
                          policy=policy, play=self.play, outcomes=rows,
                          shoes=self.base - out[nodes], rescue_policy=rescue,
                          redouble_policy=redouble)
        bounds = np.searchsorted(nodes, starts).tolist()
        return {(p, a): LevelHands(values, p, spaces[j], nodes[bounds[j]:bounds[j + 1]] - starts[j],
                                   bounds[j])
                for j, (p, a) in enumerate(wanted)}

    def _search(self, space: HandSpace, out: npt.NDArray[np.int64],
                one_card: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]]:
        """The nodes optimal play needs and their dealer rows, layer by layer from two cards.

        A two-card hand may double: its children are always needed (unless it
        takes one card).  Any other hand's children are left out when it surely
        stands: its stand EV beats the bound on its hit EV (:meth:`hit_bounds`).
        Evaluated without them its hit EV is only lower (``-P(bust)`` plus the
        children present, never above the bound), so :func:`evaluate` stands
        there too, and every EV it reports for a two-card hand, or for a hand
        that may hit, is exact.
        """
        size = len(space.comps)
        needed = np.zeros(size, dtype=bool)
        rows = np.zeros((size, N_OUTCOMES), dtype=object if self.exact else np.float64)
        stops = one_card.copy()  # hands that never act again
        if self.play.charlie:
            stops |= space.ncards >= self.play.charlie
        if self.play.stand_on_21:
            stops |= space.total == 21
        frontier = np.flatnonzero(space.ncards == 2)
        first = True
        while len(frontier):
            needed[frontier] = True
            rows[frontier] = self.dealer.rows(out[frontier])
            go = ~stops[frontier]
            if not first and go.any():
                ask = frontier[go]
                stand, hit = self.hit_bounds(space, ask, rows[ask], out[ask])
                go[go] = ~(stand > hit + 1e-9)  # the margin covers rounding (see hit_bounds)
            seen = np.zeros(size + 2, dtype=bool)
            seen[space.child[frontier[go]].ravel()] = True
            frontier = np.flatnonzero(seen[:size] & ~needed)
            first = False
        nodes = np.flatnonzero(needed)
        return nodes, rows[nodes]

    def hit_bounds(self, space: HandSpace, nodes: npt.NDArray[np.int64], rows: npt.NDArray[Any],
                   out: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float64],
                                                        npt.NDArray[np.float64]]:
        """The stand EV of ``nodes`` (of ``space``, cards ``out`` out) and a bound on their hit EV.

        ``rows`` are the nodes' dealer outcomes (unconditioned), from which alone
        the bound is found, so a hand's children need no dealer outcomes of
        their own to be ruled out.

        Hitting is worth ``sum_x P(x) V(child_x)``, ``V = -1`` for a bust.  A child
        that stands is worth ``pay(total) . D`` with ``D`` the dealer's outcomes in
        the child's shoe, which holds one card less than this hand's: the dealer
        draws at most ``kmax`` cards, and a given card is among the first
        ``kmax`` of a shuffled shoe of ``n`` with chance ``kmax / n``, so ``D`` is
        within ``kmax / n`` (total variation) of this hand's outcomes ``rows``,
        and the payoffs differ by at most twice that.  A child that hits is worth
        at most ``1 - 2 P(it busts on its next card)`` (no split hand wins more
        than its bet once it has hit).  Each child's bound is taken at least 0,
        so the bound is at least ``-P(bust)``, the hit EV evaluated without the
        children.  Computed in floats, exact rows too: the search compares with a
        margin of ``1e-9``, which covers the rounding (the values stay exact, only
        the choice of hands to evaluate is rounded).
        """
        size, k = len(space.comps), len(nodes)
        kids = space.child[nodes]
        shoe = np.maximum(self.base - out, 0)
        # A child outside the block holds more of a value than the shoe had: no such card is
        # left to draw (the kernel skips those), so it reads as a bust here.
        if ((kids > size) & (shoe > 0)).any():
            raise InternalError("a split hand's child is outside its block")
        kid_total = np.where(kids >= size, -1, space.total[np.minimum(kids, size - 1)])
        charlie = (space.ncards[nodes] + 1 >= self.play.charlie) if self.play.charlie else \
            np.zeros(k, dtype=bool)
        stand, hit = np.empty(k), np.empty(k)
        _dealer.split_bounds(np.ascontiguousarray(rows, dtype=np.float64), self.pay,
                             shoe, np.ascontiguousarray(space.total[nodes]),
                             space.total[nodes] - 10 * space.soft[nodes], kid_total,
                             charlie.astype(np.int64), 2.0 * self.kmax, stand, hit)
        return stand, hit


def _may_double(plan: SplitPlan, p: int, x: int) -> bool:
    return plan.double_after_split and double_allowed(plan.double, composition((p, x)))


def level_sums(hands: LevelHands, base: tuple[int, ...], plan: SplitPlan, removed: int,
               exact: bool,
               decide: Callable[[int, bool], int] | None = None,
               ) -> tuple[Number, Number, Number]:
    """``(EV[X; a, 0], EV[P; a, 0], X_free)`` at level ``a = removed``.

    The same quantities as :func:`analyzer.engine.splits._hand_values`: each
    two-card split hand ``pair, x`` takes ``decide(x, may_double)`` (default: its
    best action among ``hands``); the free hand (Free Bet) stands or hits,
    whichever is better for its own payoff.
    """
    p = plan.pair
    second = list(base)
    second[p - 1] -= removed + 2
    total = sum(second)
    values = hands.values
    ev_x: Number = 0
    ev_p: Number = 0
    ev_free: Number = 0
    starts = hands.starts
    for x in range(1, 11):
        if second[x - 1] <= 0:
            continue
        i = starts[x - 1]
        if i < 0:
            raise InternalError(f"split hand {p},{x} was not evaluated")
        may_double = _may_double(plan, p, x)
        action = (STAND if plan.one_card else
                  decide(x, may_double) if decide is not None else
                  best_action(values, i, may_double))
        chosen = (values.double if action == DOUBLE else values.hit if action == HIT
                  else values.stand)
        weight = quotient(second[x - 1], total, exact)
        ev_x = ev_x + weight * chosen[i]
        if x == p:
            ev_p = chosen[i]
        if plan.free:
            assert values.free_hit is not None and values.free_stand is not None
            hit_free = not plan.one_card and not values.forced[i] and \
                beats(values.free_hit[i], values.free_stand[i])
            ev_free = ev_free + weight * (values.free_hit[i] if hit_free
                                          else values.free_stand[i])
    return ev_x, ev_p, ev_free


def level_count(base: tuple[int, ...], upcard: int, plan: SplitPlan) -> int:
    """How many levels ``a = 0, 1, ...`` of removed pair cards the split can reach."""
    p = plan.pair
    full_pairs = base[p - 1] + (upcard == p)
    hands = min(plan.max_hands, full_pairs)
    return max(1, min((hands - 2) * 2, full_pairs - 2, base[p - 1] - 2) + 1)


class PostSplit:
    """CDP1 or CDP split EVs of the pairs against one upcard, their hands evaluated together.

    :meth:`expect` names pairs whose EV will be asked for; the first :meth:`ev`
    that needs split hands evaluates those of every pair named so far in one
    pass (per set of play rules), so a round's ten pairs cost one search and one
    evaluation instead of ten.  ``dealer`` may share dealer outcomes with the
    pre-split hands.
    """

    def __init__(self, level: SplitLevel, first: HandValues, base: tuple[int, ...], upcard: int, *,
                 hits_soft_17: bool, exact: bool, dealer: OutcomeCache | None = None,
                 prune: bool = True) -> None:
        if level not in ("cdp1", "cdp"):
            raise UsageError(f"unknown post-split level {level!r}")
        self.level, self.first, self.base, self.upcard = level, first, base, upcard
        self.hits_soft_17, self.exact = hits_soft_17, exact
        self.dealer = dealer if dealer is not None else OutcomeCache(
            base, upcard, hits_soft_17=hits_soft_17, exact=exact)
        self.prune = prune
        self._expected: dict[int, SplitPlan] = {}
        self._tables: dict[int, list[LevelHands]] = {}

    def expect(self, plan: SplitPlan) -> None:
        """Evaluate this pair's split hands with the next pair's, if it can be split at all."""
        if self.base[plan.pair - 1] >= 2 and plan.pair not in self._tables:
            self._expected[plan.pair] = plan

    def ev(self, plan: SplitPlan) -> Number:
        """EV of splitting ``plan.pair``, conditioned as :func:`split_ev`."""
        p = plan.pair

        def decide_first(x: int, may_double: bool) -> int:
            hands = self._tables[p][0]
            return best_action(hands.values, hands.starts[x - 1], may_double)

        def level_values(removed: int) -> tuple[Number, Number, Number]:
            if p not in self._tables:  # split_ev has checked by now that p can be split
                self._evaluate({**self._expected, p: plan})
            hands = self._tables[p][removed]
            if removed == 0 or self.level == "cdp":
                return level_sums(hands, self.base, plan, removed, self.exact)
            return level_sums(hands, self.base, plan, removed, self.exact, decide=decide_first)

        return split_ev(self.first, self.base, self.upcard, plan,
                        hits_soft_17=self.hits_soft_17, exact=self.exact,
                        level_values=level_values)

    def _evaluate(self, plans: dict[int, SplitPlan]) -> None:
        """Every level of these pairs' split hands, one pass per set of play rules."""
        by_play: dict[PlayRules, list[SplitPlan]] = {}
        for plan in plans.values():
            by_play.setdefault(plan.play, []).append(plan)
        for group in by_play.values():
            levels = SplitLevels(self.first, self.base, self.upcard, group,
                                 hits_soft_17=self.hits_soft_17, exact=self.exact,
                                 dealer=self.dealer, prune=self.prune)
            counts = {plan.pair: level_count(self.base, self.upcard, plan) for plan in group}
            if self.level == "cdp":
                hands = levels.values([(p, a) for p, n in counts.items() for a in range(n)])
            else:  # CDP1: every level plays the first level's optimal actions
                hands = levels.values([(p, 0) for p in counts])
                # hands the first level never evaluated are never reached
                policies = {p: Policy.of(hands[(p, 0)]) for p, n in counts.items() if n > 1}
                if policies:
                    hands.update(levels.values(
                        [(p, a) for p in policies for a in range(1, counts[p])], policies))
            for p, n in counts.items():
                self._tables[p] = [hands[(p, a)] for a in range(n)]
                self._expected.pop(p, None)

