"""The optimal decisions of one analysis, frozen, to be played on another shoe."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.arith import Number, fast_ratio
from analyzer.core.cards import card_value, comp_cards, is_natural
from analyzer.core.errors import (
    CardNotationError,
    ImpossibleHandError,
    RuleConflictError,
    UsageError,
)
from analyzer.engine.analysis import Analysis, best_play, unpeeked_play
from analyzer.engine.dealer import KEY_BASE, KEY_LIMIT
from analyzer.engine.strategy import beats, checked_comps
from analyzer.engine.suits import case_label

_HALF_LOST = Fraction(-1, 2)  # a surrender after hitting (SAH)


class FrozenStrategy:
    """The optimal composition-dependent decisions of one analysis, frozen.

    Decisions compare that analysis's (pre-split) EVs, so split hands play the
    pre-split strategy, as CDZ- does.
    """

    def __init__(self, analysis: Analysis) -> None:
        if not isinstance(analysis, Analysis):
            raise UsageError(f"a frozen strategy freezes an Analysis, not {analysis!r}")
        rules = analysis.rules
        if rules.free_doubles and rules.double_after_split:
            # A two-card split hand would be judged by the free double's EV.
            raise RuleConflictError("a frozen strategy does not model free doubles together with "
                                "double after split (FD with DAS)")
        self._analysis = analysis
        self._decided: dict[tuple[int, tuple[int, ...], frozenset[int]], int] = {}
        self._keys: dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = {}

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        upcard = card_value(upcard, "upcard")
        plain = type(comp) is tuple and len(comp) == 10 and all(
            type(n) is int and n >= 0 for n in comp)  # the common case, then the rule
        if not plain and (not isinstance(comp, tuple) or len(comp) != 10 or any(
                isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in comp)):
            raise CardNotationError(f"a hand is ten counts of A..T, not {comp!r}")
        if type(options) is not frozenset:
            return self._decide(upcard, comp, frozenset(options))
        key = (upcard, comp, options)
        if key not in self._decided:  # a study plays one frozen strategy on many shoes
            self._decided[key] = self._decide(upcard, comp, options)
        return self._decided[key]

    def _decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        a = self._analysis
        values = a.upcard(upcard).values
        node = values.space.index[comp]
        if values.forced[node] or is_natural(comp):
            return STAND  # an ace and a ten (after a split) stand, as a blackjack would
        if sum(comp) == 2:  # the engine's own choice among the legal plays (best_play)
            cards = comp_cards(comp)
            return a.best_of(upcard, cards, _legal(a.actions(upcard, cards), options))
        # a hand reached by hitting may double (DAN), surrender (SAH, after the peek)
        candidates: dict[int, Number] = {STAND: values.stand[node], HIT: values.hit[node]}
        if DOUBLE in options:
            candidates[DOUBLE] = values.double[node]
        if SURRENDER in options:
            candidates[SURRENDER] = _HALF_LOST
        return best_play(candidates, 0, early=False)

    def _nodes(self, upcard: int, comps: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The node of each row of ``comps`` in this analysis's hands against ``upcard``,
        by packed keys (a study asks for thousands of hands on each of many shoes).  A
        hand this analysis never met is an :class:`ImpossibleHandError`."""
        if upcard not in self._keys:
            space = self._analysis.upcard(upcard).values.space
            keys = space.comps @ KEY_BASE  # a hand holds at most 21 cards of a value
            order = np.argsort(keys, kind="stable")
            self._keys[upcard] = keys[order], order
        keys, order = self._keys[upcard]
        comps = np.asarray(comps, dtype=np.int64)
        wanted = comps @ KEY_BASE
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        # a count outside 0..63 packs onto another hand's key: no hand holds it anyway
        outside = ((comps < 0) | (comps >= KEY_LIMIT)).any(axis=1)
        missing = np.flatnonzero(outside | (keys[at] != wanted))
        if len(missing):
            hand = tuple(int(c) for c in comps[missing[0]])
            raise ImpossibleHandError(f"the frozen strategy has no decision for the hand "
                                      f"{hand} against a {upcard}: its analysis never met it")
        found: npt.NDArray[np.int64] = order[at]
        return found

    def hit_policy(self, upcard: int, comps: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`decide` with the options stand and hit, for every row of ``comps`` at once.

        What an :class:`Analysis` played by this strategy asks of every hand of its
        space (the card-counting studies ask it of many shoes): hands of three or
        more cards compare the frozen stand and hit EVs as arrays; the two-card
        hands go through :meth:`decide`, which checks each deal.
        """
        comps = checked_comps(comps)
        values = self._analysis.upcard(upcard).values
        nodes = self._nodes(upcard, comps)
        go = np.asarray(beats(values.hit[nodes], values.stand[nodes]), dtype=bool)
        policy = np.where(go & ~values.forced[nodes], int(HIT), int(STAND)).astype(np.int64)
        both = frozenset((STAND, HIT))
        for i in np.flatnonzero(comps.sum(axis=1) == 2).tolist():
            policy[i] = self.decide(upcard, tuple(comps[i].tolist()), both)
        return policy

    def later_policy(self, upcard: int, comps: npt.NDArray[np.int64],
                     may_double: npt.NDArray[np.bool_], may_give: npt.NDArray[np.bool_],
                     ) -> npt.NDArray[np.int64]:
        """:meth:`decide` for hands of three or more cards (every row of ``comps``) with the
        options stand, hit, double where ``may_double`` (DAN) and surrender where
        ``may_give`` (SAH): the frozen EVs compared as arrays, ties as :data:`PREFERENCE`."""
        comps = checked_comps(comps)
        upcard = card_value(upcard, "upcard")
        values = self._analysis.upcard(upcard).values
        nodes = self._nodes(upcard, comps)
        best = values.stand[nodes]
        half = fast_ratio(-1, 2) if best.dtype == object else -0.5  # of the values' own type
        action = np.full(len(nodes), int(STAND), dtype=np.int64)
        for code, value, allowed in ((HIT, values.hit[nodes], None),
                                     (DOUBLE, values.double[nodes], may_double),
                                     (SURRENDER, half, may_give)):
            better = np.asarray(beats(value, best), dtype=bool)
            if allowed is not None:
                better &= np.asarray(allowed, dtype=bool)
            better &= ~values.forced[nodes]
            action = np.where(better, int(code), action)
            best = np.where(better, value, best)
        return action

    def doubled_policy(self, upcard: int, comps: npt.NDArray[np.int64], levels: int,
                       ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """:meth:`decide_rescue` and :meth:`decide_redouble` for every row of ``comps`` and
        every stake level: two ``(levels, len(comps))`` arrays."""
        comps = checked_comps(comps)
        upcard = card_value(upcard, "upcard")
        values = self._analysis.upcard(upcard).values
        if levels != len(values.rescues):
            raise UsageError(f"stake levels must be {len(values.rescues)} under these rules, "
                             f"not {levels!r}")
        nodes = self._nodes(upcard, comps)
        return values.rescues[:, nodes].copy(), values.redoubles[:, nodes].copy()

    def decide_suits(self, upcard: int, comp: tuple[int, ...], hand_suits: tuple[int, int],
                     upcard_suit: int, options: frozenset[int]) -> int:
        """The action for a two-card hand dealt in ``hand_suits`` against an upcard of
        ``upcard_suit`` (suits 0-3, 0 spades), as the analysis plays by suits.

        6-7, 6-8, 7-8 and 7-7, where a suit bonus pays, are played suit case by suit case
        (:meth:`Analysis.suit_actions`); where the analysis decides a split of 7-7 on its
        ranks, the split is taken in every case when it beats the suit-read play on
        average.  Any other hand (or an analysis with ``suits=False``) is :meth:`decide`.
        """
        a = self._analysis
        upcard = card_value(upcard, "upcard")
        options = frozenset(options)
        cards = comp_cards(comp) if isinstance(comp, tuple) else ()
        cases = a.suit_actions(upcard, cards) if len(cards) == 2 else []
        if not cases:
            return self.decide(upcard, comp, options)
        label = case_label(a.rules, (min(cards), max(cards)), upcard,
                           (hand_suits[0], hand_suits[1]), upcard_suit)
        p_bj = a.p_blackjack(upcard, cards)

        def worth(action: int, value: Number) -> Number:
            """The round's value of the action (as the analysis weighs a hand's plays)."""
            if not a.conditioned(upcard):
                return value
            return unpeeked_play(action, value, p_bj, a.rules.surrender)

        plays = {state.label: (state.chance, acts, a.best_of(upcard, cards, _legal(acts, options)))
                 for state, acts in cases}
        split = a.actions(upcard, cards).get(SPLIT)
        if SPLIT in options and split is not None and SPLIT not in cases[0][1]:
            average = sum((chance * worth(act, acts[act]) for chance, acts, act
                           in plays.values()), Fraction(0))
            if beats(worth(SPLIT, split), average):  # the split, decided on the ranks
                return SPLIT
        if label not in plays:  # a suit case the rules' decks cannot deal (three 7s of
            return self.decide(upcard, comp, options)  # one suit from two decks)
        return plays[label][2]

    def decide_rescue(self, upcard: int, comp: tuple[int, ...], level: int = 1) -> bool:
        """DDR: whether a doubled hand holding ``comp`` (its card dealt) at stake
        ``2**level`` is given up, as this analysis plays it: where standing (or doubling
        again) is worth less than half the stake."""
        return self._doubled(upcard, comp, level, rescue=True)

    def decide_redouble(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        """RDn: whether a doubled hand holding ``comp`` (its card dealt) at stake
        ``2**level`` doubles again, as this analysis plays it."""
        return self._doubled(upcard, comp, level, rescue=False)

    def _doubled(self, upcard: int, comp: tuple[int, ...], level: int, *, rescue: bool) -> bool:
        values = self._analysis.upcard(card_value(upcard, "upcard")).values
        table = values.rescues if rescue else values.redoubles
        if isinstance(level, bool) or not isinstance(level, int) \
                or not 1 <= level <= len(table):
            raise UsageError(f"stake level must be 1 to {len(table)} under these rules, "
                             f"not {level!r}")
        return bool(table[level - 1, values.space.index[comp]])

    def decide_free(self, upcard: int, comp: tuple[int, ...]) -> int:
        """Hit or stand for a hand carrying a free bet (Free Bet's free split hand)."""
        values = self._analysis.upcard(upcard).values
        node = values.space.index[comp]
        if values.free_hit is None or values.free_stand is None:
            raise RuleConflictError("these rules have no free split hands")
        if values.forced[node] or not beats(values.free_hit[node], values.free_stand[node]):
            return STAND
        return HIT


def _legal(actions: Mapping[int, Number], options: frozenset[int]) -> dict[int, Number]:
    """The plays of ``actions`` among ``options``; standing is always open."""
    return {k: v for k, v in actions.items() if k in options or k == STAND}
