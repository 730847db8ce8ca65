"""Whole-round EVs: every two-card hand against every upcard, off the top of a shoe.

:class:`Analysis` is the one entry point the CLI, charts and reports use.  It
holds, per upcard, the EVs of every hand composition (:mod:`analyzer.engine.hands`)
and of every split (:mod:`analyzer.engine.splits`), and combines them into the EV of
a round under optimal composition-dependent play of the first two cards.

The round EV is unconditional: with an ace or ten up in a peek game the dealer
blackjack (probability ``P_BJ`` from the shoe left after the player's two
cards and the upcard) is settled first, and the hand is played, with
conditioned EVs, on the remaining ``1 - P_BJ``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.arith import Number, as_number, public, quotient, unit
from analyzer.core.cards import (
    blackjack_value,
    card_value,
    check_charlie_cards,
    checked_hand,
    comp_cards,
    composition,
    format_value,
    hand_total,
    is_natural,
)
from analyzer.core.errors import HandError, ImpossibleShoeError, RuleConflictError, UsageError
from analyzer.core.levels import SPLIT_MODES, SplitLevel
from analyzer.core.limits import MAX_JOBS
from analyzer.core.numbers import shown
from analyzer.core.rules import Rules, Surrender
from analyzer.core.ruleset import NO_SUIT_BONUS, suit_bonuses
from analyzer.core.shoe import Shoe
from analyzer.engine import forked
from analyzer.engine.dealer import OutcomeCache
from analyzer.engine.exhaustion import RoundCheck, SplitPolicy, refusal, round_cards_bound
from analyzer.engine.fixed import fixed_play, free_policy, split_policy
from analyzer.engine.hands import (
    HandValues,
    PlayRules,
    double_allowed,
    doubling_refusal,
    evaluate,
    hand_space,
    later_doubles,
    sub_space,
)
from analyzer.engine.optimal_split import SplitInfeasible, optimal_split_value
from analyzer.engine.optimal_split import refusal as optimal_refusal
from analyzer.engine.postsplit import PostSplit
from analyzer.engine.splits import SplitPlan, later_play, policy_decision, split_ev
from analyzer.engine.strategy import PREFERENCE, Strategy, beats
from analyzer.engine.suits import (
    SuitState,
    suit_cases,
    suit_shoe_refusal,
    suit_states,
    suited_blackjack_pays,
)
from analyzer.util.pool import available
from analyzer.util.progress import ProgressCallback, report

# The fewest cards an analysed shoe holds: smaller shoes are refused without the run-out
# search below (a toy shoe's answer is rarely wanted, and this floor is what is tested).
MIN_ROUND_CARDS = 12



def checked_jobs(jobs: object) -> int:
    """A process count: an int from 1 to :data:`~analyzer.core.limits.MAX_JOBS` (not a bool,
    not a float), else a :class:`UsageError`."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"jobs must be a whole number 1 to {MAX_JOBS} (processes), "
                         f"not {shown(jobs)}")
    return jobs


A = TypeVar("A", bound=int)  # a play: an int, or an Action


def unpeeked(value: Number, p_bj: Number) -> Number:
    """A hand's EV with the dealer blackjack put back in: it costs the bet with ``p_bj``.

    ``value`` is the EV given no dealer blackjack (what a peek establishes).
    """
    return -p_bj + (1 - p_bj) * value


def unpeeked_play(action: int, value: Number, p_bj: Number, surrender: Surrender) -> Number:
    """:func:`unpeeked` of one play's EV: an early surrender (``ES``) is made before the
    peek, so it is half the bet whatever the hole card, unconditioned as conditioned."""
    if action == SURRENDER and surrender is Surrender.EARLY:
        return value
    return unpeeked(value, p_bj)


def best_play(actions: Mapping[A, Number], p_bj: Number, *, early: bool) -> A:
    """The play a player makes with a hand, from each play's EV given no dealer blackjack
    where the dealer peeked (``p_bj``: the chance the peek finds one; 0 without a peek).

    The best by :func:`~analyzer.engine.strategy.beats`, ties broken in the order of
    :data:`~analyzer.engine.strategy.PREFERENCE`.  ``early``: the surrender open to the
    hand is early (``ES``), made before the peek, so it is weighed against the others'
    values with the blackjack put back in; compared given no blackjack, hit beat it on
    2-3 against an ace (-28.4% against -50%), though unconditioned it is -51.1%.

    >>> best_play({STAND: -0.35, HIT: -0.3, SURRENDER: -0.5}, 0.31, early=False).name
    'HIT'
    >>> best_play({STAND: -0.35, HIT: -0.3, SURRENDER: -0.5}, 0.31, early=True).name
    'SURRENDER'
    """
    best: A | None = None
    give: A | None = None  # the early surrender, weighed last
    for action in sorted(actions, key=PREFERENCE.index):
        if early and action == SURRENDER:
            give = action
        elif best is None or beats(actions[action], actions[best]):
            best = action
    if give is not None and (best is None or beats(actions[give],
                                                   unpeeked(actions[best], p_bj))):
        return give
    if best is None:
        raise UsageError("a hand has no play to choose from")
    return best


@dataclass
class UpcardAnalysis:
    """All EVs against one upcard (per unit of the initial bet)."""

    upcard: int
    shoe: tuple[int, ...]  # the shoe with the upcard removed
    values: HandValues
    policy: npt.NDArray[np.int64] | None = None  # per node, a fixed strategy's later action
    splits: dict[int, Number] = field(default_factory=dict)  # pair value -> split EV
    ev: Number | None = None  # the round's EV given this upcard, once computed (upcard_ev)
    # Dealer outcomes shared by the hands and every pair's split hands (dropped once the
    # round's EV is known, to keep memory flat; a later split builds a new one).
    dealer: OutcomeCache | None = None
    post_split: PostSplit | None = None  # CDP1/CDP: the pairs' split hands, evaluated together


class Splitter(Protocol):
    """Values a split some other way than the engine does: ``split="exact"``.

    The whole-round enumeration of :mod:`analyzer.oracle` is an independent
    cross-check, so the engine does not import it; it is handed in
    (:func:`analyzer.oracle.split_mode.new_analysis`) and called with the split's
    plan, the engine's decision rule for a split hand and its hit/stand table.
    """

    def __call__(self, analysis: Analysis, ua: UpcardAnalysis, plan: SplitPlan,
                 decide: Callable[[int, bool], int],
                 hits: npt.NDArray[np.bool_]) -> Number: ...


class Analysis:
    """Exact EVs of one rule set and shoe: dealer, every hand, every split, the round.

    Parameters
    ----------
    rules : Rules
    shoe : Shoe, optional
        Defaults to ``rules.decks`` full decks.
    exact : bool
        Fractions instead of floats (same algorithm).
    strategy : Strategy, optional
        A fixed strategy to evaluate instead of optimal play.
    split : SplitLevel
        The level of split play (:data:`analyzer.core.levels.SPLIT_MODES`).
    jobs : int
        Processes for :meth:`by_upcard` (upcards in parallel; the same bits as one).
    splitter : Splitter, optional
        How split hands are valued at ``split="exact"`` (and only there).
    suits : bool
        Under suit bonuses (B678, B777, SB), whether the player's two-card decisions
        also read the suits of the hand and the upcard (True), or the ranks only
        (:mod:`analyzer.engine.suits`); a fixed strategy reads the ranks only.
    memo : bool
        At ``split="optimal"``, keep each pair's figure in the on-disk memo and read it
        from there (:func:`~analyzer.engine.optimal_split.optimal_split_value`); the
        same figures either way.
    """

    def __init__(self, rules: Rules, shoe: Shoe | None = None, *, exact: bool = False,
                 strategy: Strategy | None = None, split: SplitLevel = SplitLevel.CDZ,
                 jobs: int = 1, splitter: Splitter | None = None, suits: bool = True,
                 memo: bool = False) -> None:
        if not isinstance(rules, Rules):
            raise UsageError(f"rules must be a Rules, not {rules!r}")
        if shoe is not None and not isinstance(shoe, Shoe):
            raise UsageError(f"shoe must be a Shoe or None, not {shoe!r}")
        if not isinstance(exact, bool):
            raise UsageError(f"exact must be True or False, not {exact!r}")
        jobs = checked_jobs(jobs)
        if not isinstance(split, str) or split not in SPLIT_MODES:
            raise UsageError(f"unknown split mode {split!r} (use {', '.join(SPLIT_MODES)})")
        if rules.charlie_beats_bj and not rules.unpeeked_bj_takes_all and rules.max_hands > 1:
            raise RuleConflictError("OBO with CHBJ and splitting is not modelled: which hand pays "
                                "the original bet when a split Charlie beats the blackjack is "
                                "unsettled")
        if strategy is not None and split not in ("cdz", "exact"):
            raise RuleConflictError(f"split level '{split}' is a level of optimal play; a fixed "
                                    "strategy plays its split hands its own way (use cdz)")
        later = doubling_refusal(rules, f"split level '{split}'")
        if later and split == "exact":  # the level is refused, not the rules
            raise SplitInfeasible(later)
        if strategy is not None and not callable(getattr(strategy, "decide", None)):
            raise UsageError(f"strategy must have a decide method (a Strategy), not "
                             f"{strategy!r}")
        if (split == "exact") != (splitter is not None):
            raise UsageError("split level 'exact' is the cross-check's whole-round enumeration "
                             "and needs its splitter (analyzer.oracle.split_mode.new_analysis)")
        if split == "optimal":
            cards = (shoe if shoe is not None else rules.full_shoe()).total
            reason = optimal_refusal(rules, cards)
            if reason:
                raise SplitInfeasible(reason)
        self.rules = rules
        self.strategy = strategy
        self.split = split
        self.splitter = splitter
        self.shoe = shoe if shoe is not None else rules.full_shoe()
        self.exact = exact
        if not isinstance(suits, bool):
            raise UsageError(f"suits must be True or False, not {suits!r}")
        self.suits = suits
        if not isinstance(memo, bool):
            raise UsageError(f"memo must be True or False, not {memo!r}")
        self.memo = memo
        self._reads_suits = suits and suit_bonuses(rules)  # asked once: rules hash slowly
        if suit_bonuses(rules):
            reason = suit_shoe_refusal(rules, self.shoe.counts)
            if reason:
                raise ImpossibleShoeError(reason)
        if self.shoe.total < MIN_ROUND_CARDS:
            raise ImpossibleShoeError(f"a shoe of {self.shoe.total} cards is below the "
                                      f"analyzer's floor of {MIN_ROUND_CARDS} cards (smaller "
                                      "shoes are not analysed)")
        self._upcards: dict[int, UpcardAnalysis] = {}
        self._lone: dict[tuple[int, tuple[int, ...]], HandValues] = {}  # see _lone_hand
        self._actions: dict[tuple[int, tuple[int, ...]], dict[int, Number]] = {}  # by hand
        self._evs: dict[int, Number] = {}  # upcard EVs computed by forked processes
        self.jobs = jobs
        # A shoe that holds more cards than any round can take needs no search.
        self._lasts = self.shoe.total >= round_cards_bound(self.shoe.counts, rules.max_hands)
        self._checks: dict[int, RoundCheck] = {}
        self._round_checked: set[int] = set()
        self._play: dict[int, PlayRules] = {}
        self._plans: dict[tuple[int, int], SplitPlan] = {}

    # -- per upcard ---------------------------------------------------------
    def conditioned(self, upcard: int) -> bool:
        return self.rules.peeks_on(upcard)

    def play_rules(self, upcard: int) -> PlayRules:
        """How hands are played and paid against this upcard (kept: asked per hand)."""
        if upcard not in self._play:
            self._play[upcard] = PlayRules.from_rules(self.rules, upcard,
                                                      free_hand=bool(self.rules.free_splits))
        return self._play[upcard]

    def split_plan(self, pair: int, upcard: int) -> SplitPlan:
        """What these rules allow a pair split against this upcard (kept: every split
        value asks)."""
        if (pair, upcard) not in self._plans:
            self._plans[(pair, upcard)] = SplitPlan.from_rules(self.rules, pair, upcard)
        return self._plans[(pair, upcard)]

    def upcard(self, upcard: int) -> UpcardAnalysis:
        """EVs of every hand against ``upcard`` (computed once, then memoized)."""
        upcard = card_value(upcard, "upcard")
        if upcard not in self._upcards:
            if self.shoe[upcard] == 0:
                raise HandError(f"the shoe holds no upcard {upcard}")
            base = self.shoe.remove([upcard]).counts
            space = hand_space(base)
            play = self.play_rules(upcard)
            fixed = None if self.strategy is None else \
                fixed_play(self.strategy, self.rules, play, upcard, space)
            policy = None if fixed is None else fixed.policy
            dealer = OutcomeCache.shared(base, upcard, hits_soft_17=self.rules.hits_soft_17,
                                         exact=self.exact)
            values = evaluate(space, base, upcard, hits_soft_17=self.rules.hits_soft_17,
                              conditioned=self.conditioned(upcard), exact=self.exact,
                              policy=policy, play=play, outcomes=dealer.rows(space.comps),
                              rescue_policy=None if fixed is None else fixed.rescues,
                              redouble_policy=None if fixed is None else fixed.redoubles)
            ua = UpcardAnalysis(upcard=upcard, shoe=base, values=values, policy=policy,
                                dealer=dealer)
            self._upcards[upcard] = ua
        return self._upcards[upcard]

    def upcard_ev(self, upcard: int) -> Number:
        """EV of a round given ``upcard`` (computed once; every pair's split EV with it)."""
        if upcard in self._evs:
            return self._evs[upcard]
        ua = self.upcard(upcard)
        self.check_round(upcard)
        if ua.ev is None:
            if self.split in ("cdp1", "cdp") and self.rules.max_hands > 1:
                post = self._post_split(ua)  # the round's pairs split together
                for pair in range(1 if self.rules.split_aces else 2, 11):
                    post.expect(self.split_plan(pair, upcard))
            ua.ev = public(self._round_ev(ua))  # a Fraction, whatever computed it
            ua.dealer, ua.post_split = None, None
        return ua.ev

    def split_value(self, ua: UpcardAnalysis, pair: int) -> Number:
        """EV of splitting a pair of ``pair`` against this upcard (conditioned if peeked)."""
        pair = card_value(pair, "pair")
        if pair not in ua.splits:
            plan = self.split_plan(pair, ua.upcard)
            self._check_split(ua, plan)
            if ua.dealer is None:
                ua.dealer = OutcomeCache.shared(ua.shoe, ua.upcard,
                                                hits_soft_17=self.rules.hits_soft_17,
                                                exact=self.exact)
            decide, hits, doubles = self.split_play(ua)
            space = ua.values.space
            strategy = self.strategy
            free_hits = free_policy(strategy, ua.upcard, space) if plan.free else None
            if self.split == "exact":
                assert self.splitter is not None  # checked in __init__
                ua.splits[pair] = self.splitter(self, ua, plan, decide, hits)
            elif self.split == "optimal":
                ua.splits[pair] = optimal_split_value(
                    ua.shoe, ua.upcard, plan, hits_soft_17=self.rules.hits_soft_17,
                    conditioned=self.conditioned(ua.upcard), exact=self.exact,
                    memo=self.memo)
            elif self.split in ("cdp1", "cdp"):
                ua.splits[pair] = self._post_split(ua).ev(plan)
            else:
                ua.splits[pair] = split_ev(ua.values, ua.shoe, ua.upcard, plan,
                                           hits_soft_17=self.rules.hits_soft_17,
                                           exact=self.exact, decide=decide, hits=hits,
                                           doubles=doubles, free_hits=free_hits,
                                           dealer=ua.dealer)
        return public(ua.splits[pair])

    def split_play(self, ua: UpcardAnalysis) -> tuple[Callable[[int, bool], int],
                                                       npt.NDArray[np.bool_],
                                                       npt.NDArray[np.bool_]]:
        """How split hands are played (CDZ-): the two-card decision, the later hits and
        (DAN) the later doubles; what the distribution of a round enumerates too.

        The unsplit hand's play; where it doubles after hitting but split hands may not
        double (NDAS), the split hand takes the better of hitting and standing.
        """
        space = ua.values.space
        strategy = self.strategy

        def decide(node: int, may_double: bool) -> int:
            if strategy is None:
                return policy_decision(ua.values, node, may_double)
            options = {STAND, HIT} | ({DOUBLE} if may_double else set())
            return strategy.decide(ua.upcard, space.comp_tuples[node],
                                   frozenset(options))

        if strategy is not None:  # as the strategy plays a split hand's options
            assert ua.policy is not None
            hits, doubles = split_policy(strategy, self.rules, self.play_rules(ua.upcard),
                                         ua.upcard, space, ua.policy)
            return decide, hits, doubles
        rules = self.rules
        hits, doubles = later_play(ua.values, rules.double if rules.double_any_cards
                                   and rules.double_after_split else None)
        return decide, hits, doubles

    # -- shoes that run out (analyzer.engine.exhaustion) ---------------------------------
    def _round_check(self, upcard: int) -> RoundCheck:
        if upcard not in self._checks:
            play = self.play_rules(upcard)
            self._checks[upcard] = RoundCheck(
                upcard=upcard, hits_soft_17=self.rules.hits_soft_17,
                conditioned=self.conditioned(upcard), charlie=play.charlie,
                stand_on_21=play.stand_on_21,
                hole_decides_busts=not self.conditioned(upcard) and not play.bj_takes_all,
                hole_decides_charlie=(not self.conditioned(upcard) and upcard in (1, 10)
                                      and not play.charlie_beats_bj))
        return self._checks[upcard]

    def check_round(self, upcard: int) -> None:
        """Refuse (:class:`ImpossibleShoeError`) a shoe whose rounds vs ``upcard`` can run out.

        Every first two cards, every pair split, as the analysis plays them
        (:mod:`analyzer.engine.exhaustion`).  Done once per upcard, and not at all
        when the shoe holds more cards than a round can take.
        """
        if self._lasts or upcard in self._round_checked:
            return
        check = self._round_check(upcard)
        rest = self.shoe.remove([upcard]).counts
        if check.hand_runs_out(rest, (0,) * 10):
            raise refusal("a hand", self.shoe.total, upcard)
        if self.rules.max_hands > 1:
            ua = self.upcard(upcard)
            for pair in range(1 if self.rules.split_aces else 2, 11):
                if rest[pair - 1] >= 2:
                    self._check_split(ua, self.split_plan(pair, upcard))
        self._round_checked.add(upcard)

    def check_dealer(self, upcard: int) -> None:
        """Refuse a shoe from which the dealer alone (no player cards) may not finish."""
        upcard = card_value(upcard, "upcard")
        rest = self.shoe.remove([upcard]).counts
        alone = RoundCheck(upcard=upcard, hits_soft_17=self.rules.hits_soft_17,
                           conditioned=False)
        if alone.dealer_runs_out(rest):
            raise refusal("the dealer's hand", self.shoe.total, upcard)

    def _check_hand(self, upcard: int, cards: tuple[int, ...]) -> None:
        """Refuse a shoe on which the play of this hand (not split) can run out."""
        if self._lasts or upcard in self._round_checked:
            return
        rest = self.shoe.remove([upcard, *cards]).counts
        if self._round_check(upcard).hand_runs_out(rest, composition(cards)):
            shown = "-".join(format_value(c) for c in cards)
            raise refusal(f"the hand {shown}", self.shoe.total, upcard)

    def _check_split(self, ua: UpcardAnalysis, plan: SplitPlan) -> None:
        """Refuse a shoe on which splitting this pair can run out, as the split is valued."""
        if self._lasts or ua.upcard in self._round_checked:
            return
        p = plan.pair
        rest = list(ua.shoe)
        if rest[p - 1] < 2:
            return  # not dealt: the pair is refused where it is asked for
        rest[p - 1] -= 2
        policy: SplitPolicy | None = None
        limit = 21
        # A redoubled hand draws again after its double's card: every legal play is
        # searched for it (a double draws as a hit).
        if self.split in ("cdz", "exact") and not plan.free and not self.rules.redoubles:
            decide, hits, doubles = self.split_play(ua)
            space = ua.values.space
            index = space.index
            hard = space.comps @ np.arange(1, 11)
            drawing = hits | doubles
            for x in range(1, 11):  # the two-card starts: their first decision
                key = composition((p, x))
                if key in index and not plan.one_card:
                    node = index[key]
                    drawing[node] = decide(node, plan.double_after_split and double_allowed(
                        plan.double, key)) in (HIT, DOUBLE)
            limit = int(hard[drawing].max(initial=0))

            def policy(comp: tuple[int, ...], may_double: bool) -> int:
                node = index[comp]
                if sum(comp) == 2:
                    return STAND if plan.one_card else decide(node, may_double)
                return HIT if hits[node] else DOUBLE if doubles[node] else STAND

        def may_double(comp: tuple[int, ...]) -> bool:
            return plan.double_after_split and double_allowed(plan.double, comp)

        if self._round_check(ua.upcard).split_runs_out(
                tuple(rest), p, max_hands=plan.max_hands, one_card=plan.one_card,
                may_double=may_double, policy=policy, hit_limit=limit):
            shown = format_value(p)
            raise refusal(f"splitting {shown}-{shown}", self.shoe.total, ua.upcard)

    def _post_split(self, ua: UpcardAnalysis) -> PostSplit:
        if ua.post_split is None:
            ua.post_split = PostSplit(self.split, ua.values, ua.shoe, ua.upcard,
                                      hits_soft_17=self.rules.hits_soft_17, exact=self.exact,
                                      dealer=ua.dealer)
        return ua.post_split

    def actions(self, upcard: int, cards: tuple[int, ...]) -> dict[int, Number]:
        """EV of every legal action for a hand (conditioned on no dealer BJ when peeked).

        A natural (ace and ten as the first two cards) has no decision: it is settled
        at once, so it has no actions (an empty dict); :meth:`natural_value` values it.
        """
        upcard, cards = checked_hand(upcard, cards)
        key = composition(cards)
        try:
            self.shoe.remove([upcard, *cards])
        except HandError as err:
            shown = "-".join(format_value(c) for c in cards)
            raise HandError(f"hand {shown} vs {format_value(upcard)}: {err}") from None
        if len(cards) < 2:
            raise HandError("a hand needs at least two cards")
        check_charlie_cards(cards, self.rules.charlie)
        return self._play_actions(upcard, cards, key)

    def _play_actions(self, upcard: int, cards: tuple[int, ...],
                      key: tuple[int, ...]) -> dict[int, Number]:
        """:meth:`actions` of a hand the shoe deals (``key``: its composition): what a round
        asks of each first two cards it deals, without checking the deal again.  Kept: a
        chart's derivation asks again of every hand the round valued."""
        found = self._actions.get((upcard, key))
        if found is None:
            found = self._actions[(upcard, key)] = self._hand_actions(upcard, cards, key)
        return dict(found)  # the caller's own: a round may drop the split

    def _hand_actions(self, upcard: int, cards: tuple[int, ...],
                      key: tuple[int, ...]) -> dict[int, Number]:
        rules = self.rules
        pair = len(cards) == 2 and cards[0] == cards[1] and rules.max_hands > 1 and \
            (cards[0] != 1 or rules.split_aces)
        v: HandValues | None
        if upcard in self._upcards or pair or self.strategy is not None:
            v = self.upcard(upcard).values
        else:
            v = self._lone_hand(upcard, key)
        if v is None or key not in v.space.index:
            raise HandError(f"hand {'-'.join(format_value(c) for c in cards)} is busted")
        self._check_hand(upcard, cards)
        if is_natural(key):
            return {}
        i = v.space.index[key]
        if v.forced[i]:  # a Charlie, or 21 where 21 stands: no decision left
            return {STAND: public(v.stand[i])}
        result: dict[int, Number] = {STAND: v.stand[i], HIT: v.hit[i]}
        if len(cards) == 2:
            total, soft = hand_total(cards)
            if not soft and total in rules.free_doubles:
                result[DOUBLE] = v.free_double[i]
            elif double_allowed(rules.double, key):
                result[DOUBLE] = v.double[i]
            if pair:
                result[SPLIT] = self.split_value(self.upcard(upcard), cards[0])
            if rules.surrender is not Surrender.NONE and \
                    (upcard != 1 or rules.surrender_vs_ace):
                result[SURRENDER] = self._surrender(upcard, key)
        else:
            if rules.double_any_cards and later_doubles(v.space, rules.double)[i]:
                result[DOUBLE] = v.double[i]  # DAN: after hitting too
            if self.play_rules(upcard).surrender_later:  # SAH: half the bet
                result[SURRENDER] = Fraction(-1, 2) if self.exact else -0.5
        return {a: public(v) for a, v in result.items()}

    def _lone_hand(self, upcard: int, key: tuple[int, ...]) -> HandValues | None:
        """The values of the hands that ``key`` can become, where no other hand was asked.

        A question about one hand (``bja hand``, a playing index) needs the hands it
        can grow into, not every hand of the shoe; a node's values depend only on
        the nodes after it, and each is computed as in :meth:`upcard` (its dealer row
        from the same shared cache), so they are the same numbers.  None: the hand
        is busted.
        """
        if (upcard, key) not in self._lone:
            base = self.shoe.remove([upcard]).counts
            full = hand_space(base)
            if key not in full.index:
                return None
            grown = full.comps >= np.array(key, dtype=np.int64)
            space = sub_space(full, np.flatnonzero(grown.all(axis=1)))
            dealer = OutcomeCache.shared(base, upcard, hits_soft_17=self.rules.hits_soft_17,
                                         exact=self.exact)
            self._lone[(upcard, key)] = evaluate(
                space, base, upcard, hits_soft_17=self.rules.hits_soft_17,
                conditioned=self.conditioned(upcard), exact=self.exact,
                play=self.play_rules(upcard), outcomes=dealer.rows(space.comps))
        return self._lone[(upcard, key)]

    def hand_actions(self, upcard: int, cards: tuple[int, ...], *,
                     unconditioned: bool = False) -> dict[int, Number]:
        """:meth:`actions`, or with the dealer blackjack put back in (``unconditioned``).

        A hand the peek surely ends has no EV given no blackjack: refused, unless
        ``unconditioned`` (then every play loses the bet, as it does).
        """
        actions = self.actions(upcard, cards)
        if not self.conditioned(upcard):
            return actions
        p_bj = self.p_blackjack(upcard, cards)
        if not unconditioned:
            if p_bj == 1:  # a natural too: "given no blackjack" is met by no deal
                raise ImpossibleShoeError(
                    "the dealer surely has blackjack against this hand (every card left makes "
                    "the hole card his blackjack): the peek ends the round before it is "
                    "played, so it has no EV given no blackjack (--unconditioned gives its "
                    "EVs with the blackjack)")
            return actions
        return {a: unpeeked_play(a, v, p_bj, self.rules.surrender) for a, v in actions.items()}

    def natural_value(self, upcard: int, *, unconditioned: bool = False) -> Number:
        """EV of a natural against ``upcard``: paid per the rules, pushed by a dealer blackjack
        (paid against it too under ``BJW``).

        Conditioned on no dealer blackjack where the dealer peeked (then it is the
        payout), unless ``unconditioned``; refused, as any hand is, where every card left
        gives the dealer blackjack (no deal meets the condition).
        """
        self.hand_actions(upcard, (1, 10), unconditioned=unconditioned)  # the deal checked
        pays = as_number(suited_blackjack_pays(self.rules), self.exact)  # BSBJ: over suits
        if (self.conditioned(upcard) and not unconditioned) or self.rules.blackjack_wins:
            return pays  # BJW: paid against a dealer blackjack too
        return (1 - self.p_blackjack(upcard, (1, 10))) * pays

    def p_blackjack(self, upcard: int, cards: tuple[int, ...]) -> Number:
        """Chance the hole card completes a blackjack, seen the upcard and ``cards``."""
        if blackjack_value(upcard) is None:
            return 0 * unit(self.exact)
        self.shoe.remove([upcard, *cards])  # the deal checked: a HandError
        return self._hole_blackjack(upcard, composition(cards))

    def _hole_blackjack(self, upcard: int, comp: tuple[int, ...]) -> Number:
        """:meth:`p_blackjack` of a hand the shoe deals (``comp``), the deal not checked."""
        bj = blackjack_value(upcard)
        if bj is None:
            return 0 * unit(self.exact)
        shoe = self.shoe.counts
        return quotient(shoe[bj - 1] - (upcard == bj) - comp[bj - 1], sum(shoe) - 1 - sum(comp),
                        self.exact)

    def _round_ev(self, ua: UpcardAnalysis) -> Number:
        """EV of a round given the upcard: sum over the player's first two cards."""
        n = ua.shoe
        total = sum(n)
        ev = 0 * unit(self.exact)
        for a in range(1, 11):
            for b in range(a, 11):
                ways = n[a - 1] * (n[b - 1] - (a == b))
                if ways <= 0:
                    continue
                weight = quotient(ways * (1 if a == b else 2), total * (total - 1), self.exact)
                comp = composition((a, b))
                p_bj = self._hole_blackjack(ua.upcard, comp)
                player_bj = is_natural(comp)
                value = self._hand_value(ua, a, b, p_bj, player_bj)
                if a == b == 10 and self.rules.split_by_rank and self.rules.max_hands > 1:
                    # Only a same-rank pair (J-J, not J-K) may split.
                    same = self._same_rank(ua.upcard)
                    unsplit = self._hand_value(ua, a, b, p_bj, player_bj, may_split=False)
                    value = same * value + (1 - same) * unsplit
                ev += weight * value
        return ev

    def _same_rank(self, upcard: int) -> Number:
        """Chance two ten-valued cards share a rank (the ten ranks evenly spread: four, or
        three in Spanish decks, which have no 10s)."""
        ranks = 3 if self.rules.spanish_decks else 4
        k = Fraction(self.shoe[10], ranks)
        tens = ranks * k
        if upcard == 10:  # one rank is one card short: the upcard's
            same = (((k - 1) * (k - 2) + (ranks - 1) * k * (k - 1))
                    / ((tens - 1) * (tens - 2)))
        else:
            same = (k - 1) / (tens - 1)
        return as_number(same, self.exact)

    def _hand_value(self, ua: UpcardAnalysis, a: int, b: int, p_bj: Number,
                    player_bj: bool, may_split: bool = True) -> Number:
        rules = self.rules
        pays = as_number(suited_blackjack_pays(rules), self.exact)
        if player_bj:  # pushed by a dealer blackjack, or paid against it too (BJW)
            return pays if rules.blackjack_wins else (1 - p_bj) * pays
        if p_bj == 1 and self.conditioned(ua.upcard) and self.strategy is None:
            # The hole card is surely the blackjack (the cards left are all of its value):
            # the peek ends the round before the hand is played; it loses its bet, or half
            # to an early surrender, which the best play makes.  (A fixed strategy goes on
            # below: its surrender, or the bet lost, as every play of it is valued 0 given
            # no blackjack.)
            early = rules.surrender is Surrender.EARLY and (ua.upcard != 1
                                                             or rules.surrender_vs_ace)
            return -unit(self.exact) / 2 if early else -unit(self.exact)
        actions = self._play_actions(ua.upcard, (a, b), composition((a, b)))
        if not may_split:
            actions.pop(SPLIT, None)
        if self.strategy is not None:
            comp = composition((a, b))
            chosen = self.strategy.decide(ua.upcard, comp, frozenset(actions))
            if chosen == SURRENDER:
                return self.surrender_value(ua.upcard, comp, unconditional=True)
            value = actions[chosen]
            return unpeeked(value, p_bj) if self.conditioned(ua.upcard) else value
        states = suit_states(rules, (a, b), ua.upcard) if self._reads_suits else ()
        if not states:
            return self._best_value(ua.upcard, actions, p_bj)
        return self._suited_value(ua, (a, b), actions, states, p_bj)

    def _best_value(self, upcard: int, actions: dict[int, Number], p_bj: Number) -> Number:
        """The round's value of a two-card hand played at its best (the actions' EVs are
        conditioned on no dealer blackjack where the dealer peeked)."""
        return self._best_action(upcard, actions, p_bj)[1]

    def _best_action(self, upcard: int, actions: dict[int, Number],
                     p_bj: Number) -> tuple[int, Number]:
        """:meth:`_best_value` and the action that gives it (:func:`best_play`, as a frozen
        strategy plays) for a two-card hand, whose surrender may be early."""
        p_bj = p_bj if self.conditioned(upcard) else 0 * unit(self.exact)
        early = self.rules.surrender is Surrender.EARLY
        best = best_play(actions, p_bj, early=early)
        # With a hole card the EVs are conditioned on no dealer blackjack (unpeeked puts it
        # back); without one (p_bj 0 here) they already carry it.
        return best, unpeeked_play(best, actions[best], p_bj,
                                   Surrender.EARLY if early else Surrender.LATE)

    def best_of(self, upcard: int, cards: tuple[int, ...],
                actions: Mapping[int, Number]) -> int:
        """The engine's play of ``cards`` given its plays' EVs ``actions`` as
        :meth:`actions` gives them (given no dealer blackjack where peeked): what its round
        EV counts; ``bja hand`` marks it best."""
        early = self.rules.surrender is Surrender.EARLY and len(cards) == 2
        # the chance of the dealer's blackjack weighs only an early surrender
        p_bj = self.p_blackjack(upcard, cards) if early and self.conditioned(upcard) else 0
        return best_play(actions, p_bj, early=early)

    def _suited_value(self, ua: UpcardAnalysis, hand: tuple[int, int],
                      actions: dict[int, Number], states: tuple[SuitState, ...],
                      p_bj: Number) -> Number:
        """A hand one card from a 6-7-8 or 7-7-7 played by its suits and the upcard's.

        Its hit and its double differ from the rank figures only where the next card
        makes the bonus 21, which stands (:meth:`_case_actions`).  A split of 7-7 is worth
        the same in every suit case unless its split hands are paid bonuses (not BNS);
        then whether to split is decided on the ranks (its EV is the suit average) and
        only the other plays by the suits.
        """
        actions = dict(actions)
        split = actions.pop(SPLIT, None)
        split_by_ranks = split is not None and self._split_by_ranks()
        total: Number = 0 * unit(self.exact)
        for state in states:
            case = self._case_actions(ua, hand, actions, state)
            if split is not None and not split_by_ranks:
                case[SPLIT] = split
            total += as_number(state.chance, self.exact) * self._best_value(ua.upcard, case,
                                                                              p_bj)
        if split_by_ranks:
            assert split is not None
            kept = {a: v for a, v in actions.items() if a == SURRENDER}
            total = max(total, self._best_value(ua.upcard, {SPLIT: split, **kept}, p_bj))
        return total

    def suit_plays(self, upcard: int, cards: tuple[int, int],
                   ) -> tuple[tuple[SuitState, int], ...]:
        """The optimal play of a two-card hand one card from a 6-7-8 or 7-7-7, per suit
        state (:func:`~analyzer.engine.suits.suit_states`), as the round's EV counts it
        (:meth:`_suited_value`): each state's best action, or where the engine splits 7-7
        on its ranks and that beats the states' own plays, the split in every state.

        Empty where this analysis does not read suits or they pay nothing for the hand.
        """
        hand = (min(cards), max(cards))
        states = suit_states(self.rules, hand, upcard) if self._reads_suits else ()
        if not states:
            return ()
        ua = self.upcard(upcard)
        p_bj = self.p_blackjack(upcard, hand)
        actions = dict(self.actions(upcard, hand))
        split = actions.pop(SPLIT, None)
        split_by_ranks = split is not None and self._split_by_ranks()
        plays = []
        total: Number = 0 * unit(self.exact)
        for state in states:
            case = self._case_actions(ua, hand, actions, state)
            if split is not None and not split_by_ranks:
                case[SPLIT] = split
            action, value = self._best_action(upcard, case, p_bj)
            plays.append((state, action))
            total += as_number(state.chance, self.exact) * value
        if split is not None and split_by_ranks:
            kept = {a: v for a, v in actions.items() if a == SURRENDER}
            action, value = self._best_action(upcard, {SPLIT: split, **kept}, p_bj)
            if beats(value, total):  # as _suited_value's max: a tie keeps the states' plays
                plays = [(state, action) for state in states]
        return tuple(plays)

    def _split_by_ranks(self) -> bool:
        """Split hands are paid suit bonuses, so a split's worth depends on the pair's suits:
        the engine decides whether to split 7-7 on its ranks."""
        rules = self.rules
        return not rules.bonus_not_split and (rules.bonus_777 != NO_SUIT_BONUS
                                              or rules.bonus_678 != NO_SUIT_BONUS)

    def _case_actions(self, ua: UpcardAnalysis, hand: tuple[int, int],
                      actions: dict[int, Number], state: SuitState) -> dict[int, Number]:
        """The actions' EVs in one suit case: the hit and the double move by the chance of
        the completing card, times the chance the 21 wins, times how much more (or less)
        than the suit average the case makes the 21 pay."""
        values = ua.values
        node = values.space.index[composition(hand)]
        third = 21 - sum(hand)
        child = int(values.space.child[node, third - 1])
        case = dict(actions)
        if child >= len(values.space.comps):  # the shoe holds no card to complete it
            return case
        reach = values.probs[node, third - 1] * values.win[child]
        play = self.play_rules(ua.upcard)
        kind = 1 if hand == (7, 7) else 0
        hit_avg = play.three[kind] if play.three is not None else Fraction(1)
        dbl_avg = (play.three_plain[kind] if play.three_plain is not None and
                   play.bonus_doubled else Fraction(1))
        case[HIT] = case[HIT] + reach * as_number(state.hit_pay - hit_avg, self.exact)
        if DOUBLE in case:
            case[DOUBLE] = case[DOUBLE] + 2 * reach * as_number(state.double_pay - dbl_avg,
                                                                self.exact)
        return case

    def suit_actions(self, upcard: int, cards: tuple[int, ...]
                     ) -> list[tuple[SuitState, dict[int, Number]]]:
        """Every action's EV of a two-card hand in each suit case the player can tell apart
        (:func:`analyzer.engine.suits.suit_cases`), as :meth:`actions` gives them over the
        suits; empty where suits pay nothing for this hand (or ``suits=False``).  A split
        of 7-7, where the engine decides it on the ranks, is left out of the cases: it is
        worth its average over the suits, :meth:`actions`'s figure.
        """
        upcard, cards = checked_hand(upcard, cards)
        actions = self.actions(upcard, cards)
        if len(cards) != 2 or not actions or not self.suits:
            return []
        if self._split_by_ranks():
            actions.pop(SPLIT, None)
        hand = (min(cards), max(cards))
        ua = self.upcard(upcard)
        return [(state, self._case_actions(ua, hand, actions, state))
                for state in suit_cases(self.rules, hand, upcard)]

    def surrender_value(self, upcard: int, comp: tuple[int, ...], *,
                        unconditional: bool = False) -> Number:
        """EV of surrendering (-1/2, or a full loss to a dealer blackjack it cannot escape).

        Conditioned on no dealer blackjack (peek games) unless ``unconditional``.
        """
        self.shoe.remove([upcard, *comp_cards(comp)])  # the deal checked: a HandError
        return self._surrender(upcard, comp, unconditional=unconditional)

    def _surrender(self, upcard: int, comp: tuple[int, ...], *,
                   unconditional: bool = False) -> Number:
        """:meth:`surrender_value` of a hand the shoe deals, its deal not checked again."""
        half = -unit(self.exact) / 2
        if self.rules.surrender is Surrender.EARLY:
            return half
        if self.conditioned(upcard) and not unconditional:
            return half
        return unpeeked(half, self._hole_blackjack(upcard, comp))

    def ev(self) -> Number:
        """EV of a round off the top of the shoe, per unit initial bet."""
        total = self.shoe.total
        result = 0 * unit(self.exact)
        for u, value in self.by_upcard().items():
            result += as_number(Fraction(self.shoe[u], total), self.exact) * value
        return result

    def by_upcard(self, progress: ProgressCallback | None = None) -> dict[int, Number]:
        """The round's EV per upcard (ace first); ``progress`` hears of each upcard done."""
        ups = [u for u in range(1, 11) if self.shoe[u]]
        finished = {u for u in ups if u in self._evs
                    or (u in self._upcards and self._upcards[u].ev is not None)}

        def done(u: int) -> None:
            finished.add(u)
            report(progress, "EV by upcard", len(finished), len(ups))

        report(progress, "EV by upcard", len(finished), len(ups))
        self._in_parallel(ups, done if progress is not None else None)
        evs = {}
        for u in ups:
            evs[u] = self.upcard_ev(u)
            if u not in finished:
                done(u)
        return evs

    def _in_parallel(self, ups: list[int], on_done: Callable[[int], None] | None = None,
                     ) -> None:
        """Compute the round's EV of several upcards in ``jobs`` processes (this one too).

        Upcards are independent, and a forked child runs the same code on the same
        state, so every value is the one a serial run gives, bit for bit.  Each
        process takes the next upcard from a shared counter, costliest first; the
        children send back only the EVs.  An upcard a child did not finish (it
        failed, or was killed) is computed here afterwards, so an error surfaces as
        it would serially.  Serial where fork is not available or where this
        process may not have children (a daemon worker).
        """
        todo = [u for u in ups if u not in self._evs
                and (u not in self._upcards or self._upcards[u].ev is None)]
        if self.jobs < 2 or len(todo) < 2 or not available():
            return
        order = sorted(todo, key=lambda u: u in (2, 3, 4, 5, 6))  # most split hands first
        self._evs.update(forked.in_forks(self.upcard_ev, order, self.jobs, on_done))


__all__ = ["Analysis", "Splitter", "UpcardAnalysis", "checked_jobs"]
