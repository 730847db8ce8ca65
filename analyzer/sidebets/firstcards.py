"""Bets on ordered first cards: Super Sevens (the player's first three), Lucky Ladies and
King's Bounty (the player's two, the dealer's two for the jackpot).

Super Sevens is counted over ordered 3-card deals (``n (n-1) (n-2)``): the
first card must be a seven.  The three-card guarantee is assumed: the third
card is dealt for the bet whatever the player does (the published reading).

Lucky Ladies and King's Bounty pay on the player's two cards totalling 20; the
top award needs a premium pair (two queens of hearts; two kings of spades) *and*
a dealer blackjack, so a combination is an ordered deal of the player's two
cards and the dealer's two (``n (n-1) (n-2) (n-3)``, the published convention).

>>> super_sevens(((7, 0), (7, 0), (7, 0))), super_sevens(((7, 0), (7, 1), (2, 0)))
('suited-777', '77')
>>> [lucky_ladies(c) for c in (((12, 1), (12, 1)), ((1, 2), (9, 2)), ((10, 0), (13, 0)))]
['qh-pair', 'suited-20', 'suited-20']
>>> [kings_bounty(c) for c in (((13, 0), (13, 0)), ((11, 3), (11, 3)), ((13, 1), (13, 2)))]
['ks-pair', 'suited-qjt', 'unsuited-kings']
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

from analyzer.core.errors import ImpossibleShoeError
from analyzer.sidebets.outcomes import Outcomes, count_card_sets, count_ordered, removals_by_recount
from analyzer.sidebets.suitshoe import Card, SuitShoe, card_value

SUPER_SEVENS: dict[str, str] = {
    "suited-777": "7-7-7 suited",
    "777": "7-7-7 (not suited)",
    "suited-77": "7-7 suited (third card not a 7)",
    "77": "7-7 (not suited; third card not a 7)",
    "7": "first card a 7 (second not a 7)",
    "lose": "first card not a 7",
}


def super_sevens(cards: tuple[Card, ...]) -> str:
    """Super Sevens: sevens from the first card on, graded by count and suit."""
    sevens = 0
    for card in cards:
        if card[0] != 7:
            break
        sevens += 1
    if sevens == 0:
        return "lose"
    if sevens == 1:
        return "7"
    suited = len({c[1] for c in cards[:sevens]}) == 1
    return ("suited-" if suited else "") + ("777" if sevens == 3 else "77")


def _sevens_key(card: Card) -> Card:
    return card if card[0] == 7 else (2, 0)  # every other card is alike to the bet


def super_sevens_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return count_ordered(shoe, 3, super_sevens, tuple(SUPER_SEVENS),
                         "ordered deals of the player's first three cards",
                         ("three-card guarantee: the third card is dealt for the bet whatever "
                          "the player does (after a split of sevens, the first hand's cards "
                          "count)",),
                         key=_sevens_key, removals=removals)


LUCKY_LADIES: dict[str, str] = {
    "qh-pair-bj": "two queens of hearts and a dealer blackjack",
    "qh-pair": "two queens of hearts (no dealer blackjack)",
    "matched-20": "matched 20 (same rank and suit)",
    "suited-20": "suited 20",
    "unsuited-20": "unsuited 20",
    "lose": "no 20",
}


def _twenty(cards: tuple[Card, ...]) -> bool:
    total = sum(card_value(c) for c in cards)
    return total == 20 or (total == 10 and any(c[0] == 1 for c in cards))


def lucky_ladies(cards: tuple[Card, ...]) -> str:
    """Lucky Ladies' event of the player's two cards (the jackpot is split off later)."""
    a, b = cards
    if not _twenty(cards):
        return "lose"
    if a == b:
        return "qh-pair" if a == (12, 1) else "matched-20"
    return "suited-20" if a[1] == b[1] else "unsuited-20"


KINGS_BOUNTY: dict[str, str] = {
    "ks-pair-bj": "two kings of spades and a dealer blackjack",
    "ks-pair": "two kings of spades (no dealer blackjack)",
    "suited-kings": "two suited kings (not spades)",
    "suited-qjt": "two suited queens, jacks or 10s",
    "suited-20": "other suited 20",
    "unsuited-kings": "two unsuited kings",
    "unsuited-20": "other unsuited 20",
    "lose": "no 20",
}


def kings_bounty(cards: tuple[Card, ...]) -> str:
    """King's Bounty's event of the player's two cards (the jackpot is split off later)."""
    a, b = cards
    if not _twenty(cards):
        return "lose"
    if a == b:
        return "ks-pair" if a == (13, 0) else "suited-kings" if a[0] == 13 else "suited-qjt"
    if a[0] == b[0] == 13:
        return "unsuited-kings"
    return "suited-20" if a[1] == b[1] else "unsuited-20"


def _twenty_key(card: Card) -> Card:
    return card if card[0] in (1, 9, 10, 11, 12, 13) else (2, 0)  # 2..8 make no 20


def _with_jackpot(shoe: SuitShoe, classify: Callable[[tuple[Card, ...]], str],
                  events: dict[str, str], premium: Card, name: str) -> Outcomes:
    """Player's two cards (each set in both orders) times the dealer's two ordered cards,
    the premium pair split by whether the dealer's two make a blackjack."""
    n = shoe.total
    if n < 4:
        raise ImpossibleShoeError(f"a shoe of {n} cards cannot deal the player's two cards "
                                  "and the dealer's two")
    pairs = count_card_sets(shoe, 2, classify, tuple(e for e in events if e != f"{name}-bj"),
                            "", key=_twenty_key)
    dealer = (n - 2) * (n - 3)
    counts = {e: 2 * k * dealer for e, k in pairs.counts.items()}
    values = list(shoe.values())
    values[9] -= 2  # the premium pair is two ten-valued cards
    blackjacks = 2 * values[0] * values[9]
    premium_sets = comb(shoe.count(premium), 2)
    counts[name] = 2 * premium_sets * (dealer - blackjacks)
    counts[f"{name}-bj"] = 2 * premium_sets * blackjacks
    return Outcomes(counts={e: counts[e] for e in events}, deals=n * (n - 1) * dealer,
                    unit="ordered deals of the player's two cards and the dealer's two",
                    notes=("20 is the total of the player's two cards, A-9 included; the "
                           "jackpot needs the dealer's two cards to be a blackjack; only the "
                           "highest award is paid",))


def _twenty_outcomes(shoe: SuitShoe, removals: bool,
                     count: Callable[[SuitShoe], Outcomes]) -> Outcomes:
    out = count(shoe)
    if not removals:
        return out
    removed, deals = removals_by_recount(shoe, count, _twenty_key)
    return Outcomes(out.counts, out.deals, out.unit, out.notes, removed, deals)


def lucky_ladies_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return _twenty_outcomes(shoe, removals, lambda s: _with_jackpot(
        s, lucky_ladies, LUCKY_LADIES, (12, 1), "qh-pair"))


def kings_bounty_outcomes(shoe: SuitShoe, removals: bool = False) -> Outcomes:
    return _twenty_outcomes(shoe, removals, lambda s: _with_jackpot(
        s, kings_bounty, KINGS_BOUNTY, (13, 0), "ks-pair"))
