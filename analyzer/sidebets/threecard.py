"""Bets on the player's first two cards and the dealer's upcard: 21+3 Classic, 21+3 XTreme,
Lucky Lucky and Match the Dealer.

21+3 and Lucky Lucky depend only on which three cards were dealt, so they are
counted over unordered 3-card sets (``C(n, 3)``).  Match the Dealer tells the
upcard from the player's cards: every 3-card set counts three times, once with
each of its cards as the upcard (``n * C(n - 1, 2)`` deals in all).

>>> classic(((5, 0), (5, 1), (9, 1))), classic(((5, 1), (5, 1), (9, 1)))
('pair', 'flush')
>>> xtreme(((1, 2), (1, 2), (1, 2))), xtreme(((13, 2), (13, 2), (13, 2)))
('jackpot', 'suited-trips')
>>> lucky_lucky(((6, 0), (7, 0), (8, 0))), lucky_lucky(((1, 0), (5, 1), (5, 2)))
('suited-678', '21')
>>> match_the_dealer(((7, 0), (7, 0), (7, 1)))
('suited-unsuited', 'suited-unsuited', 'two-unsuited')
"""

from __future__ import annotations

from analyzer.core.cards import hand_total
from analyzer.sidebets.outcomes import Outcomes, count_card_sets
from analyzer.sidebets.suitshoe import Card, SuitShoe, card_value
from analyzer.sidebets.twentyone3 import STRAIGHT_TEXT
from analyzer.sidebets.twentyone3 import classify as poker3

UNIT = "3-card sets (player's two cards and the dealer's upcard)"

CLASSIC: dict[str, str] = {
    "suited-trips": "suited trips",
    "straight-flush": "straight flush",
    "three-of-a-kind": "three of a kind (not suited)",
    "straight": "straight (not flush)",
    "flush": "flush (not straight; a paired flush is a flush)",
    "pair": "pair (not flush)",
    "lose": "anything else",
}


def classic(cards: tuple[Card, ...]) -> str:
    """21+3 Classic: three-card poker, a pair included for the tables that pay it."""
    event = poker3(cards, "standard")
    if event == "lose" and len({c[0] for c in cards}) == 2:
        return "pair"
    return event


XTREME: dict[str, str] = {
    "jackpot": "suited three aces (the jackpot)",
    "suited-trips": "other suited trips",
    "straight-flush": "straight flush",
    "three-of-a-kind": "three of a kind (not suited)",
    "straight": "straight (not flush)",
    "flush": "flush (not straight)",
    "lose": "anything else",
}


def xtreme(cards: tuple[Card, ...]) -> str:
    """21+3 XTreme: 21+3 with a jackpot for suited three aces."""
    event = poker3(cards, "standard")
    return "jackpot" if event == "suited-trips" and cards[0][0] == 1 else event


LUCKY_LUCKY: dict[str, str] = {
    "suited-777": "suited 7-7-7",
    "suited-678": "suited 6-7-8",
    "777": "7-7-7 (not suited)",
    "678": "6-7-8 (not suited)",
    "suited-21": "other suited 21",
    "21": "other 21",
    "20": "20",
    "19": "19",
    "lose": "anything else",
}


def lucky_lucky(cards: tuple[Card, ...]) -> str:
    """Lucky Lucky: the three cards' blackjack total (an ace 1 or 11), 7-7-7 and 6-7-8 first."""
    suited = len({c[1] for c in cards}) == 1
    prefix = "suited-" if suited else ""
    ranks = tuple(c[0] for c in cards)
    if ranks == (7, 7, 7):
        return prefix + "777"
    if ranks == (6, 7, 8):
        return prefix + "678"
    total = hand_total([card_value(c) for c in cards])[0]
    if total == 21:
        return prefix + "21"
    return str(total) if total in (19, 20) else "lose"


MATCH_THE_DEALER: dict[str, str] = {
    "two-suited": "both cards match the upcard in rank and suit",
    "suited-unsuited": "one suited and one unsuited match",
    "suited": "one suited match",
    "two-unsuited": "two unsuited matches",
    "unsuited": "one unsuited match (rank only)",
    "lose": "no match",
}


def _match(up: Card, player: tuple[Card, Card]) -> str:
    suited = sum(1 for c in player if c == up)
    unsuited = sum(1 for c in player if c[0] == up[0] and c[1] != up[1])
    return {(2, 0): "two-suited", (1, 1): "suited-unsuited", (1, 0): "suited",
            (0, 2): "two-unsuited", (0, 1): "unsuited", (0, 0): "lose"}[(suited, unsuited)]


def match_the_dealer(cards: tuple[Card, ...]) -> tuple[str, str, str]:
    """The Match the Dealer event with each of the three cards as the upcard."""
    a, b, c = cards
    return _match(a, (b, c)), _match(b, (a, c)), _match(c, (a, b))


def classic_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 3, classic, tuple(CLASSIC), UNIT,
                           (f"straights: {STRAIGHT_TEXT['standard']}; a paired flush is a "
                            "flush (the published two-deck table books it as a pair: the "
                            "tables that pay a pair pay both alike)",),
                           removals=removals)


def xtreme_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 3, xtreme, tuple(XTREME), UNIT,
                           (f"straights: {STRAIGHT_TEXT['standard']}; the jackpot (suited "
                            "three aces) is paid from a meter: its pay here is what the "
                            "stake wins besides the meter",),
                           removals=removals)


def lucky_lucky_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 3, lucky_lucky, tuple(LUCKY_LUCKY), UNIT,
                           ("total of the three cards, an ace counting 1 or 11 (the best not "
                            "over 21); only the highest award is paid",),
                           removals=removals)


def match_the_dealer_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(
        shoe, 3, match_the_dealer, tuple(MATCH_THE_DEALER),
        "deals of an upcard and the player's two cards (unordered): each 3-card set "
        "three times, each of its cards as the upcard",
        ("a match is a player card of the upcard's rank (a J does not match a Q); a suited "
         "match is the same rank and suit; two matches are paid as one award",),
        roles=3, removals=removals)


