"""21+3: the player's first two cards and the dealer's upcard read as a three-card poker hand.

Ranks are distinct (10-J-Q is a straight, K-Q-J too).  Which runs through the ace
count as straights is a house rule, hence the ``straights`` switch:

* ``standard`` — A-2-3 and Q-K-A, not K-A-2 (the seed's reading);
* ``wrap`` — K-A-2 as well;
* ``ace-low`` — A-2-3 only; ``ace-high`` — Q-K-A only.

>>> classify(((12, 0), (13, 0), (1, 0)), "standard"), classify(((13, 0), (1, 1), (2, 0)), "wrap")
('straight-flush', 'straight')
>>> classify(((13, 0), (1, 1), (2, 0)), "standard"), classify(((5, 2), (5, 2), (9, 2)), "standard")
('lose', 'flush')
"""

from __future__ import annotations

from typing import Literal

from analyzer.core.errors import RuleError
from analyzer.sidebets.outcomes import Outcomes, count_card_sets
from analyzer.sidebets.suitshoe import Card, SuitShoe

EVENTS: dict[str, str] = {
    "suited-trips": "suited trips",
    "straight-flush": "straight flush",
    "three-of-a-kind": "three of a kind (not suited)",
    "straight": "straight (not flush)",
    "flush": "flush (not straight)",
    "lose": "anything else",
}

_RUNS = [frozenset({r, r + 1, r + 2}) for r in range(2, 12)]  # 2-3-4 .. J-Q-K
_A23, _QKA, _KA2 = frozenset({1, 2, 3}), frozenset({12, 13, 1}), frozenset({13, 1, 2})
Straights = Literal["standard", "wrap", "ace-low", "ace-high"]
STRAIGHT_RULES: dict[Straights, frozenset[frozenset[int]]] = {
    "standard": frozenset([*_RUNS, _A23, _QKA]),
    "wrap": frozenset([*_RUNS, _A23, _QKA, _KA2]),
    "ace-low": frozenset([*_RUNS, _A23]),
    "ace-high": frozenset([*_RUNS, _QKA]),
}
STRAIGHT_TEXT: dict[Straights, str] = {
    "standard": "A-2-3 and Q-K-A are straights, K-A-2 is not",
    "wrap": "A-2-3, Q-K-A and K-A-2 are straights",
    "ace-low": "A-2-3 is a straight, Q-K-A and K-A-2 are not",
    "ace-high": "Q-K-A is a straight, A-2-3 and K-A-2 are not",
}


def classify(cards: tuple[Card, ...], straights: Straights) -> str:
    """The 21+3 event of three cards (highest-paying reading first)."""
    ranks = {c[0] for c in cards}
    suited = len({c[1] for c in cards}) == 1
    if len(ranks) == 1:
        return "suited-trips" if suited else "three-of-a-kind"
    if ranks in STRAIGHT_RULES[straights]:
        return "straight-flush" if suited else "straight"
    return "flush" if suited else "lose"


def outcomes(shoe: SuitShoe, *, straights: Straights = "standard",
             removals: bool = False) -> Outcomes:
    """Exact 21+3 counts over every 3-card set of the shoe."""
    if straights not in STRAIGHT_RULES:
        raise RuleError(f"unknown straight rule {straights!r} (use {', '.join(STRAIGHT_RULES)})")
    return count_card_sets(
        shoe, 3, lambda cards: classify(cards, straights), tuple(EVENTS),
        unit="3-card sets (player's two cards and the dealer's upcard)",
        notes=(f"straights: {STRAIGHT_TEXT[straights]}; ranks are distinct (10-J-Q is a "
               "straight)",),
        removals=removals,
    )
