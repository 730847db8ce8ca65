"""The exact distribution of a round's net result, in units of the initial bet.

:func:`round_distribution` gives ``P(net = x)`` for every ``x`` a round can end
on: a blackjack's payout, a surrender's -1/2, doubles, splits and resplits (up
to +-8), free doubles and splits, Charlies, push-22, an unchecked dealer
blackjack taking the money paid (or only the original bet).  Insurance is
declined.  The player follows one strategy throughout: the engine's optimal
CDZ- play (:class:`~analyzer.engine.frozen.FrozenStrategy` decides the first two
cards, split hands play the pre-split strategy) or any
:class:`~analyzer.engine.strategy.Strategy` such as a basic-strategy chart.

How: per upcard, per first two cards, the strategy's decision; unsplit hands
are carried through the hand compositions (:mod:`analyzer.engine.dist_hands`),
splits are enumerated hand by hand jointly with the dealer
(:mod:`analyzer.engine.dist_splits`).  Peeked dealer blackjacks are settled
first and the play is conditioned on none, as the engine does, so the mean of
the distribution is the engine's EV of the same strategy, to rounding in floats
and exactly in exact mode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.arith import Number, as_number, public, quotient, unit
from analyzer.core.cards import blackjack_value, composition, hand_total, is_natural
from analyzer.core.errors import StrategyError
from analyzer.core.rules import Rules, Surrender
from analyzer.core.ruleset import suit_bonuses
from analyzer.core.shoe import Shoe
from analyzer.engine import forked
from analyzer.engine.analysis import Analysis, UpcardAnalysis, checked_jobs
from analyzer.engine.dist_blocks import (
    Blocks,
    BonusTags,
    DoubledPlay,
    check_units,
    hand_blocks,
    may_resplit,
    pay_scale,
    resplit_patterns,
)
from analyzer.engine.dist_hands import DOUBLED, FREE_DOUBLED, SINGLE, Finishes, settle_finishes
from analyzer.engine.dist_splits import (
    STATE_BUDGET,
    SplitDistribution,
    SplitSettings,
    kept_split_distribution,
)
from analyzer.engine.fixed import free_policy
from analyzer.engine.frozen import FrozenStrategy
from analyzer.engine.splits import SplitPlan
from analyzer.engine.strategy import Strategy, beats
from analyzer.engine.suits import SuitState, suit_scale, unseen_state
from analyzer.util.pool import available
from analyzer.util.progress import ProgressCallback, report

Dist = dict[Fraction, Number]


@dataclass(frozen=True)
class RoundDistribution:
    """``P(net = x)`` of one round, per unit initial bet, for one rule set, shoe and strategy.

    ``probabilities`` maps each net result (a Fraction: ``-4``, ``-1/2``, ``3/2``)
    to its probability, sorted by result; ``by_upcard`` gives the same given each
    upcard.  ``error_bound`` is 0 when every round was enumerated exactly;
    otherwise every probability is within it of the exact value (see ``notes``).
    """

    rules: Rules
    shoe: Shoe
    strategy: str
    exact: bool
    probabilities: Dist
    by_upcard: dict[int, Dist]
    upcard_weights: dict[int, Number]
    error_bound: Number
    notes: tuple[str, ...]

    @property
    def mean(self) -> Number:
        return sum((x * p for x, p in self.probabilities.items()), 0 * self._one)

    @property
    def total(self) -> Number:
        return sum(self.probabilities.values(), 0 * self._one)

    @property
    def _one(self) -> Number:
        return unit(self.exact)



def _add(dist: Dist, x: Fraction, p: Number) -> None:
    dist[x] = dist.get(x, 0) + p


class _Upcard:
    """One upcard's share of the round: every first two cards, played by the strategy."""

    def __init__(self, analysis: Analysis, upcard: int, decider: Strategy,
                 policy_strategy: Strategy | None, budget: int,
                 splits: dict[int, SplitDistribution] | None = None, *,
                 memo: bool = False) -> None:
        self.a = analysis
        self.memo = memo  # split rounds through the on-disk memo
        self._splits = dict(splits or {})  # by pair: given (computed elsewhere), or memoised
        self.u = upcard
        self.decider = decider  # two-card decisions
        self.policy_strategy = policy_strategy  # split-hand decisions (None: engine optimum)
        self.budget = budget
        self.ua: UpcardAnalysis = analysis.upcard(upcard)
        analysis.check_round(upcard)  # no round on a shoe that can run out
        self.rules = analysis.rules
        self.exact = analysis.exact
        self.peeked = self.rules.peeks_on(upcard)
        self.play = analysis.play_rules(upcard)
        self.finishes = Finishes(self.ua.values, self.exact, kinds=3 + self.rules.redoubles)
        # halves for a 3:2 bonus, ... (suit_scale: 1 without suit bonuses, so that nothing
        # changes for the other games)
        self.scale = math.lcm(pay_scale(self.play), suit_scale(self.rules))
        self.suits = suit_bonuses(self.rules)  # asked once: rules hash slowly
        self.dist: Dist = {}
        self.error: Number = 0 * unit(self.exact)

    def run(self) -> Dist:
        n = self.ua.shoe
        total = sum(n)
        for a in range(1, 11):
            for b in range(a, 11):
                ways = n[a - 1] * (n[b - 1] - (a == b))
                if ways > 0:
                    self._start(a, b, quotient(ways * (1 if a == b else 2), total * (total - 1),
                                            self.exact))
        v = self.ua.values
        self.finishes.propagate(v.hits, v.doubles, v.gives, base=self.ua.shoe, upcard=self.u,
                                peeked=self.peeked)
        for x, p in settle_finishes(self.finishes, self.play, self.scale).items():
            _add(self.dist, x, p)
        return {x: p for x, p in sorted(self.dist.items()) if p != 0}

    def _p_blackjack(self, cards: tuple[int, ...]) -> Number:
        bj = blackjack_value(self.u)
        if bj is None:
            return 0 * unit(self.exact)
        rest = [c - k for c, k in zip(self.ua.shoe, composition(cards), strict=True)]
        return quotient(rest[bj - 1], sum(rest), self.exact)

    def _start(self, a: int, b: int, weight: Number) -> None:
        p_bj = self._p_blackjack((a, b))
        comp = composition((a, b))
        if is_natural(comp):
            for share, pays in self._natural_pays():
                w = weight * share
                if self.rules.blackjack_wins:  # paid against a dealer blackjack too
                    _add(self.dist, pays, w)
                else:
                    _add(self.dist, pays, w * (1 - p_bj))
                    _add(self.dist, Fraction(0), w * p_bj)
            return
        options = frozenset(self.a.actions(self.u, (a, b)))
        if self.peeked and p_bj == 1:  # the peek ends the round before the hand is played
            rules = self.rules
            early = rules.surrender is Surrender.EARLY and (self.u != 1
                                                             or rules.surrender_vs_ace)
            if early and self.policy_strategy is not None:  # a chart surrenders where it says
                early = self.decider.decide(self.u, comp, options) == SURRENDER
            _add(self.dist, -Fraction(1, 2) if early else Fraction(-1), weight)
            return
        if self.suits and self.policy_strategy is None:  # the optimum reads the suits
            plays = self.a.suit_plays(self.u, (a, b))
            if plays:  # a hand one card from a 6-7-8 or 7-7-7: played by the suits seen
                for state, action in plays:
                    self._play(comp, weight * as_number(state.chance, self.exact), p_bj, action,
                               state)
                return
        cases = [(weight, options)]
        if a == b == 10 and self.rules.split_by_rank and SPLIT in options:
            same = self.a._same_rank(self.u)  # the engine's own same-rank chance
            cases = [(weight * same, options), (weight * (1 - same), options - {SPLIT})]
        # a 21 paid by suits nobody read
        unseen = unseen_state(self.rules, (a, b), self.u) if self.suits else None
        for w, opts in cases:
            self._play(comp, w, p_bj, self.decider.decide(self.u, comp, opts), unseen)

    def _natural_pays(self) -> list[tuple[Number, Fraction]]:
        """A natural's pays, each with its chance: BSBJ pays a suited one more (its ace and
        ten are of different ranks, so of one suit with chance 1/4)."""
        rules = self.rules
        if not rules.suited_blackjack:
            return [(unit(self.exact), rules.blackjack_pays)]
        return [(quotient(1, 4, self.exact), rules.suited_blackjack),
                (quotient(3, 4, self.exact), rules.blackjack_pays)]

    def _play(self, comp: tuple[int, ...], weight: Number, p_bj: Number, action: int,
              suits: SuitState | None = None) -> None:
        """Play ``action`` on the two-card hand ``comp``; ``suits``: the hand is one card
        from a 21 paid by suits, and its hit's and double's 21 is paid as these laws say."""
        half = -Fraction(1, 2)
        if action == SURRENDER and self.rules.surrender is Surrender.EARLY:
            _add(self.dist, half, weight)  # before the peek
            return
        if self.peeked:
            _add(self.dist, Fraction(-1), weight * p_bj)
            weight = weight * (1 - p_bj)
        node = self.ua.values.space.index[comp]
        cards = [v for v in range(1, 11) for _ in range(comp[v - 1])]
        if action == STAND:
            self.finishes.stand(node, weight)
        elif action == HIT:
            self.finishes.hit(node, weight)
            if suits is not None:
                self.finishes.tier(SINGLE, node, 21 - sum(cards), weight, suits.hit_law)
        elif action == DOUBLE:
            total, soft = hand_total(cards)
            kind = FREE_DOUBLED if (not soft and total in self.rules.free_doubles) else DOUBLED
            self.finishes.double(node, weight, kind, self.ua.shoe, self.u, self.peeked)
            if suits is not None and kind == DOUBLED and self.play.bonus_doubled:
                self.finishes.tier(DOUBLED, node, 21 - total, weight, suits.double_law)
        elif action == SURRENDER:
            lost = 0 * p_bj if self.peeked else p_bj  # late: an unchecked blackjack takes all
            _add(self.dist, Fraction(-1), weight * lost)
            _add(self.dist, half, weight * (1 - lost))
        elif action == SPLIT:
            pair = next(v for v in range(1, 11) if comp[v - 1] == 2)
            split = self.split(pair)
            for x, p in split.probabilities.items():
                for result, q in split.tags.results(x):  # split hands' bonus 21s, by suits
                    _add(self.dist, Fraction(result, self.scale), weight * p * q)
            self.error += weight * split.error
        else:
            raise StrategyError(f"unknown action {action}")

    def split_pairs(self) -> list[int]:
        """The pairs this upcard's round splits, forecast from the two-card decisions (a
        pair left out is still split when the round meets it; one put in is computed
        for nothing): what :func:`round_distribution` hands out to its processes."""
        pairs = []
        for p in range(1, 11):
            if self.ua.shoe[p - 1] < 2:
                continue
            options = frozenset(self.a.actions(self.u, (p, p)))
            if SPLIT not in options:
                continue
            plays = (self.a.suit_plays(self.u, (p, p))
                     if self.suits and self.policy_strategy is None else [])
            if (any(action == SPLIT for _, action in plays)
                    or self.decider.decide(self.u, composition((p, p)), options) == SPLIT):
                pairs.append(p)
        return pairs

    def split(self, pair: int) -> SplitDistribution:
        """The split round's distribution (memoised per pair)."""
        if pair not in self._splits:
            self._splits[pair] = self._split(pair)
        return self._splits[pair]

    def _split(self, pair: int) -> SplitDistribution:
        families, patterns, plan = self.split_families(pair)
        settings = SplitSettings(upcard=self.u, hits_soft_17=self.rules.hits_soft_17,
                                 peeked=self.peeked, bj_takes_all=plan.bj_takes_all,
                                 exact=self.exact, scale=self.scale,
                                 tags=self.bonus_tags(plan))
        return kept_split_distribution(self.ua.shoe, pair, families, patterns, settings,
                                       self.budget, memo=self.memo)

    def bonus_tags(self, plan: SplitPlan) -> BonusTags:
        """How this split's hands carry their bonus 21s paid by suits (none without)."""
        return BonusTags.of(self.rules, plan, exact=self.exact, scale=self.scale)

    def split_families(self, pair: int) -> tuple[dict[str, Blocks],
                                                 dict[tuple[str, ...], int], SplitPlan]:
        """The blocks of each kind of split hand, the ways the pair cards fall (a tuple of
        kinds, one per hand), and the split's plan."""
        rules, ua = self.rules, self.ua
        plan = SplitPlan.from_rules(rules, pair, self.u)
        values = ua.values
        space = values.space
        # as the EV engine plays split hands: the two-card decision, then hits and (DAN)
        # doubles; a doubled hand given up or doubled again as the unsplit hand would be
        decide, hits, doubles = self.a.split_play(ua)
        doubled = DoubledPlay(values.rescues, values.redoubles) \
            if plan.play.rescue or plan.play.redoubles else None
        # every hand in the round's units (self.scale), a split one under BNS too
        scale = self.scale
        tags = self.bonus_tags(plan)
        paid = hand_blocks(space, pair, plan, decide=decide, hits=hits, forced=values.forced,
                           doubles=doubles, doubled=doubled, scale=scale, tags=tags)
        others = tuple(v for v in range(1, 11) if v != pair)
        families: dict[str, Blocks] = {"any": paid}
        if plan.free:
            families["free"] = hand_blocks(space, pair, plan, decide=decide,
                                           hits=self._free_hits(), forced=values.forced,
                                           free=True, scale=scale)
            patterns: dict[tuple[str, ...], int] = {("any", "free"): 1}
        else:
            resplit = may_resplit(rules, plan)
            if resplit:
                families["nonpair"] = hand_blocks(space, pair, plan, decide=decide,
                                                  hits=hits, forced=values.forced,
                                                  seconds=others, doubles=doubles,
                                                  doubled=doubled, scale=scale, tags=tags)
            found = resplit_patterns(plan.max_hands, resplit)
            patterns = {("nonpair",) * k + ("any",) * m: ways for (k, m), ways in found.items()}
        return families, patterns, plan

    def _free_hits(self) -> np.ndarray[Any, Any]:
        """Hit or stand of the hand carrying a free bet: the strategy's, else its optimum."""
        values = self.ua.values
        chosen = free_policy(self.policy_strategy, self.u, values.space)
        if chosen is not None:
            return chosen
        assert values.free_hit is not None and values.free_stand is not None
        hits: np.ndarray[Any, Any] = beats(values.free_hit, values.free_stand) & ~values.forced
        return hits


def round_distribution(rules: Rules, shoe: Shoe | None = None, *,
                       strategy: Strategy | None = None, exact: bool = False,
                       name: str | None = None, budget: int = STATE_BUDGET,
                       jobs: int = 1, memo: bool = False,
                       progress: ProgressCallback | None = None) -> RoundDistribution:
    """The distribution of a round's net result off the top of ``shoe``.

    ``strategy=None`` plays the engine's optimal CDZ- strategy; any
    :class:`~analyzer.engine.strategy.Strategy` (e.g. a
    :class:`~analyzer.charts.strategy.ChartStrategy`) is played as written,
    split hands included.  ``name`` labels the strategy in reports.
    ``budget`` bounds the joint enumeration of rounds with three or four hands
    (see :mod:`analyzer.engine.dist_splits`).  ``jobs`` processes share the
    upcards (:mod:`analyzer.engine.forked`): each upcard's share is the same
    computation in any process, so the result is the same bits as a serial run.
    ``progress`` hears of each upcard done (stage ``"distribution: upcards"``).
    ``memo`` keeps each split round's distribution in the on-disk memo, keyed by how its
    hands are played (:func:`~analyzer.engine.dist_splits.kept_split_distribution`): the
    same figures, and a second strategy splitting alike reads them.
    """
    jobs = checked_jobs(jobs)
    check_units(rules)
    analysis = Analysis(rules, shoe, exact=exact, strategy=strategy)
    decider: Strategy = strategy if strategy is not None else FrozenStrategy(analysis)
    total = analysis.shoe.total
    ups = [u for u in range(1, 11) if analysis.shoe[u]]
    shares: dict[int, tuple[Dist, Number]] = {}
    splits: dict[int, SplitDistribution] = {}  # by upcard * 16 + pair

    def split(item: int) -> SplitDistribution:
        if item not in splits:
            u, pair = divmod(item, 16)
            splits[item] = _Upcard(analysis, u, decider, strategy, budget,
                                   memo=memo).split(pair)
        return splits[item]

    def share(u: int) -> tuple[Dist, Number]:
        if u not in shares:
            part = _Upcard(analysis, u, decider, strategy, budget,
                           {item % 16: found for item, found in splits.items()
                            if item // 16 == u}, memo=memo)
            shares[u] = (part.run(), part.error)
        return shares[u]

    finished: set[int] = set()
    stage = "distribution: upcards"

    def done(u: int) -> None:
        finished.add(u)
        report(progress, stage, len(finished), len(ups))

    if jobs > 1 and available():
        # The split rounds first, one item each: they are nearly all the work, and an
        # upcard's few splits would leave a process idle while another does them all.
        # Small pairs first: they draw the most cards, so their rounds cost the most.
        items = sorted((u * 16 + p for u in ups
                        for p in _Upcard(analysis, u, decider, strategy, budget).split_pairs()),
                       key=lambda item: (item % 16, item // 16 != 7, item))
        if len(items) > 1:
            ticks: set[int] = set()

            def split_done(item: int) -> None:
                ticks.add(item)
                report(progress, "distribution: splits", len(ticks), len(items))

            report(progress, "distribution: splits", 0, len(items))
            splits.update(forked.in_forks(split, items, jobs, split_done))
            for item in items:  # this process's own share, or what a failed child left
                if item not in ticks:
                    split(item)
                    split_done(item)
    report(progress, stage, 0, len(ups))
    if jobs > 1 and len(ups) > 1 and available():
        # Small upcards first: their splits (and resplits) cost the most.
        shares.update(forked.in_forks(share, sorted(ups, key=lambda u: u in (1, 8, 9, 10)),
                                      jobs, done if progress is not None else None))
    by_upcard: dict[int, Dist] = {}
    weights: dict[int, Number] = {}
    overall: Dist = {}
    error = 0 * unit(exact)
    for u in ups:
        dist, part_error = share(u)  # GMP rationals in exact mode; handed out as Fractions
        by_upcard[u], part_error = {x: public(p) for x, p in dist.items()}, public(part_error)
        if u not in finished:
            done(u)
        weights[u] = quotient(analysis.shoe[u], total, exact)
        error += weights[u] * part_error
        for x, p in by_upcard[u].items():
            _add(overall, x, weights[u] * p)
    label = name or ("optimal (CDZ-)" if strategy is None else type(strategy).__name__)
    notes = _notes(rules, error, suits_read=strategy is None)
    return RoundDistribution(rules=rules, shoe=analysis.shoe, strategy=label, exact=exact,
                             probabilities=dict(sorted(overall.items())), by_upcard=by_upcard,
                             upcard_weights=weights, error_bound=error, notes=notes)


def _notes(rules: Rules, error: Number, suits_read: bool) -> tuple[str, ...]:
    notes = ["insurance declined",
             "split hands play the pre-split strategy of their own cards (CDZ-)",
             "every hand of a split is enumerated jointly with the others and the dealer"
             + (", within the enumeration budget (below)" if error else "")]
    if suit_bonuses(rules):
        notes.append(("a two-card hand one card from a 6-7-8 or 7-7-7 is played by the suits "
                      "seen (its own and the upcard's); " if suits_read else
                      "the strategy reads ranks only; ") +
                     "a bonus 21 is paid by the chances of its suits, a split round's bonus "
                     "21s by the joint chances of theirs")
    if rules.split_by_rank:
        notes.append("ten-valued pairs split only when of the same rank, the ten ranks taken "
                     "as evenly spread; a split pair of tens resplits on any ten (as the EV "
                     "engine models it)")
    if error:
        notes.append("rounds with three or four split hands beyond the enumeration budget: "
                     "their extra hands are settled independently of the other hands' "
                     f"cards; every probability is within {float(error):.3g} of the exact value")
    return tuple(notes)
