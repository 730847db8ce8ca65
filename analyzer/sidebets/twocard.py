"""Bets on the player's first two cards: Perfect Pairs, Royal Match, Over/Under 13, Bet the Set.

Each is counted over the unordered 2-card sets of physical cards (``C(n, 2)``),
the convention of the published tables.  Colour: spades and clubs are black,
hearts and diamonds red.

>>> [perfect_pairs(c) for c in (((12, 0), (12, 0)), ((12, 0), (12, 3)), ((12, 0), (12, 1)))]
['perfect', 'coloured', 'mixed']
>>> royal_match(((12, 1), (13, 1))), royal_match(((1, 1), (11, 1))), royal_match(((5, 1), (6, 1)))
('royal', 'suited-blackjack', 'suited-run')
>>> over_under(((1, 0), (12, 0))), over_under(((3, 0), (10, 1))), over_under(((9, 0), (5, 2)))
('under', 'thirteen', 'over')
"""

from __future__ import annotations

from analyzer.sidebets.outcomes import Outcomes, count_card_sets
from analyzer.sidebets.suitshoe import Card, SuitShoe, card_value

UNIT = "2-card sets (the player's first two cards)"

PERFECT_PAIRS: dict[str, str] = {
    "perfect": "perfect pair (same rank and suit)",
    "coloured": "coloured pair (same rank and colour, suits differ)",
    "mixed": "mixed pair (same rank, one red and one black)",
    "lose": "no pair",
}


def _colour(card: Card) -> int:
    return 0 if card[1] in (0, 3) else 1  # spades, clubs black; hearts, diamonds red


def perfect_pairs(cards: tuple[Card, ...]) -> str:
    """Perfect Pairs: a pair by rank, graded by suit and colour."""
    a, b = cards
    if a[0] != b[0]:
        return "lose"
    if a[1] == b[1]:
        return "perfect"
    return "coloured" if _colour(a) == _colour(b) else "mixed"


ROYAL_MATCH: dict[str, str] = {
    "royal": "royal match (suited K-Q)",
    "suited-ak": "suited A-K (a suited blackjack and a suited run)",
    "suited-blackjack": "suited blackjack (an ace and a 10, J or Q of its suit)",
    "suited-pair": "suited pair (same rank and suit)",
    "suited-run": "suited run (consecutive ranks of one suit, A-2 included; not K-Q, A-K)",
    "suited": "other suited cards (easy match)",
    "lose": "cards of two suits",
}


def royal_match(cards: tuple[Card, ...]) -> str:
    """Royal Match: two suited cards, graded (every table prices the grades it names)."""
    a, b = cards  # sorted by rank
    if a[1] != b[1]:
        return "lose"
    ranks = (a[0], b[0])
    if ranks == (12, 13):
        return "royal"
    if ranks == (1, 13):
        return "suited-ak"
    if a[0] == 1 and card_value(b) == 10:
        return "suited-blackjack"
    if a[0] == b[0]:
        return "suited-pair"
    if b[0] - a[0] == 1:
        return "suited-run"
    return "suited"


OVER_UNDER: dict[str, str] = {
    "under": "total under 13 (aces count 1)",
    "thirteen": "total of exactly 13",
    "over": "total over 13",
}


def over_under(cards: tuple[Card, ...]) -> str:
    """Over/Under 13: the total of two cards, an ace counting 1."""
    total = sum(card_value(c) for c in cards)
    return "under" if total < 13 else "thirteen" if total == 13 else "over"


BET_THE_SET: dict[str, str] = {
    "suited-pair": "suited pair (same rank and suit)",
    "pair": "pair of different suits",
    "lose": "no pair",
}


def bet_the_set(cards: tuple[Card, ...]) -> str:
    """Bet the Set (Pair Square): a pair by rank, suited or not."""
    a, b = cards
    if a[0] != b[0]:
        return "lose"
    return "suited-pair" if a[1] == b[1] else "pair"


def _suit_blind(card: Card) -> Card:
    return (card_value(card), 0)


def perfect_pairs_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 2, perfect_pairs, tuple(PERFECT_PAIRS), UNIT,
                           ("a pair is two cards of the same rank (K-Q is no pair); spades "
                            "and clubs are black, hearts and diamonds red",),
                           removals=removals)


def royal_match_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 2, royal_match, tuple(ROYAL_MATCH), UNIT,
                           ("the grades are exclusive, the highest first: royal, suited A-K, "
                            "suited blackjack, suited pair, suited run, other suited",),
                           removals=removals)


def over_under_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 2, over_under, tuple(OVER_UNDER), UNIT,
                           ("an ace counts 1; each of Over, Under and Exactly 13 is a bet of "
                            "its own: a pay table prices the one it is",),
                           key=_suit_blind, removals=removals)


def bet_the_set_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_card_sets(shoe, 2, bet_the_set, tuple(BET_THE_SET), UNIT,
                           ("a pair is two cards of the same rank (K-Q is no pair)",),
                           removals=removals)
