"""Hot 3: the player's first two cards and the dealer's upcard counted as a blackjack total.

An ace counts 11 when that does not pass 21, else 1; 7-7-7 is paid as itself
even though it is also a 21.

>>> classify(((7, 0), (7, 1), (7, 2))), classify(((1, 0), (1, 0), (9, 0)))
('777', '21-suited')
>>> classify(((1, 0), (1, 1), (1, 2))), classify(((10, 0), (12, 1), (1, 2)))
('lose', '21-unsuited')
"""

from __future__ import annotations

from analyzer.core.cards import hand_total
from analyzer.sidebets.outcomes import Outcomes, count_card_sets
from analyzer.sidebets.suitshoe import Card, SuitShoe, card_value

EVENTS: dict[str, str] = {
    "777": "7-7-7",
    "21-suited": "21 suited",
    "21-unsuited": "21 not suited",
    "20": "20",
    "19": "19",
    "lose": "anything else",
}


def classify(cards: tuple[Card, ...]) -> str:
    """The Hot 3 event of three cards."""
    if all(c[0] == 7 for c in cards):
        return "777"
    total = hand_total([card_value(c) for c in cards])[0]
    if total == 21:
        return "21-suited" if len({c[1] for c in cards}) == 1 else "21-unsuited"
    return str(total) if total in (19, 20) else "lose"


def _key(card: Card) -> Card:
    """Hot 3 reads a card's value and suit only (a J is a 10 to it)."""
    return card_value(card), card[1]


def outcomes(shoe: SuitShoe, *, removals: bool = False) -> Outcomes:
    """Exact Hot 3 counts over every 3-card set of the shoe."""
    return count_card_sets(
        shoe, 3, classify, tuple(EVENTS), removals=removals, key=_key,
        unit="3-card sets (player's two cards and the dealer's upcard)",
        notes=("total of the three cards, an ace counting 1 or 11 (the best not over 21); "
               "7-7-7 takes precedence over 21",),
    )
