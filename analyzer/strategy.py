"""Playing strategies as data: what to do with a hand, given the options the rules leave.

The engine plays optimally unless an :class:`Analysis` is given a ``Strategy``;
then every decision (first two cards, hands reached by hitting, split hands)
is the strategy's, and the analysis evaluates that strategy exactly (policy
evaluation, not optimisation).  :class:`FrozenStrategy` fixes the optimal
decisions of one analysis so they can be evaluated on another shoe: the
one-card-removed identity and card-counting studies rest on that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from analyzer.player import DOUBLE, HIT, SPLIT, STAND, SURRENDER

if TYPE_CHECKING:
    from analyzer.game import Analysis

PREFERENCE = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)  # order that breaks exact ties


class Strategy(Protocol):
    """Anything that picks one of ``options`` for a hand composition against an upcard."""

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        """The action for hand ``comp`` (counts of A..T) among the legal ``options``."""
        ...


class FrozenStrategy:
    """The optimal composition-dependent decisions of one analysis, frozen.

    Decisions compare that analysis's (pre-split) EVs, so split hands play the
    pre-split strategy, as CDZ- does.
    """

    def __init__(self, analysis: Analysis) -> None:
        self._analysis = analysis

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        ua = self._analysis.upcard(upcard)
        values = ua.values
        node = values.space.index[comp]
        candidates = {STAND: values.stand[node], HIT: values.hit[node]}
        if DOUBLE in options:
            candidates[DOUBLE] = values.double[node]
        if SPLIT in options:
            pair = next(v for v in range(1, 11) if comp[v - 1])
            candidates[SPLIT] = self._analysis.split_value(ua, pair)
        if SURRENDER in options:
            candidates[SURRENDER] = self._analysis.surrender_value(upcard, comp)
        best = STAND
        for action in PREFERENCE:
            if action in candidates and action in options and \
                    candidates[action] > candidates[best]:
                best = action
        return best
