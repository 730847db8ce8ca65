"""Any Pair: the player's first two cards form a pair.

A pair is two cards of the same rank (the casino reading: Q-Q, not K-Q); the
``pair_by="value"`` switch reads "same value" as the blackjack value, so K-Q
and 10-J pair too.  A suited pair is a pair whose cards share a suit.

>>> classify(((12, 0), (12, 0)), "rank"), classify(((12, 0), (13, 1)), "rank")
('suited-pair', 'lose')
>>> classify(((12, 0), (13, 1)), "value")
'pair'
"""

from __future__ import annotations

from typing import Literal

from analyzer.core.errors import RuleError
from analyzer.sidebets.outcomes import Outcomes, count_card_sets
from analyzer.sidebets.suitshoe import Card, SuitShoe, card_value

EVENTS: dict[str, str] = {
    "suited-pair": "suited pair",
    "pair": "pair (different suits)",
    "lose": "anything else",
}
PairBy = Literal["rank", "value"]
PAIR_RULES: dict[PairBy, str] = {
    "rank": "a pair is two cards of the same rank (K-Q is not a pair)",
    "value": "a pair is two cards of the same blackjack value (K-Q and T-J are pairs)",
}


def classify(cards: tuple[Card, ...], pair_by: PairBy) -> str:
    """The Any Pair event of two cards."""
    first, second = cards
    key = card_value if pair_by == "value" else (lambda c: c[0])
    if key(first) != key(second):
        return "lose"
    return "suited-pair" if first[1] == second[1] else "pair"


def outcomes(shoe: SuitShoe, *, pair_by: PairBy = "rank", removals: bool = False) -> Outcomes:
    """Exact Any Pair counts over every 2-card set of the shoe."""
    if pair_by not in PAIR_RULES:
        raise RuleError(f"unknown pair rule {pair_by!r} (use rank or value)")
    return count_card_sets(
        shoe, 2, lambda cards: classify(cards, pair_by), tuple(EVENTS),
        unit="2-card sets (the player's first two cards)", notes=(PAIR_RULES[pair_by],),
        removals=removals,
    )
