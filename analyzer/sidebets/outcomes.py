"""Exact outcome counts of a side bet, and the card-set enumerator the hand bets share.

A bet on the first cards (Any Pair, 21+3, Hot 3) depends only on *which* cards
were dealt, so it is counted over unordered sets of physical cards: a set
holding ``m`` copies of an identity with ``n`` in the shoe is chosen ``C(n, m)``
ways.  Enumerating identity multisets (24,804 for three cards) instead of
physical cards keeps an 8-deck count as fast as a 1-deck one.

>>> from analyzer.sidebets.suitshoe import SuitShoe
>>> same_colour = lambda cards: "win" if len({c[1] % 2 for c in cards}) == 1 else "lose"
>>> o = count_card_sets(SuitShoe.decks(1), 2, same_colour, ("win", "lose"), "2-card sets")
>>> o.counts, o.deals
({'win': 650, 'lose': 676}, 1326)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from analyzer.core.errors import ImpossibleShoeError
from analyzer.sidebets.suitshoe import Card, SuitShoe


@dataclass(frozen=True)
class Outcomes:
    """Every outcome of a bet as a whole number of equally likely combinations."""

    counts: dict[str, int]  # outcome name -> combinations, in the bet's display order
    deals: int  # all combinations: the common denominator of the probabilities
    unit: str  # what one combination is, printed with the figures
    notes: tuple[str, ...] = ()  # assumptions every report must state

    def probability(self, event: str) -> Fraction:
        return Fraction(self.counts[event], self.deals)


def count_card_sets(
    shoe: SuitShoe,
    size: int,
    classify: Callable[[tuple[Card, ...]], str],
    events: Sequence[str],
    unit: str,
    notes: tuple[str, ...] = (),
) -> Outcomes:
    """Count the ``size``-card sets of ``shoe`` by the event ``classify`` names.

    ``classify`` receives the cards sorted by rank, then suit.
    """
    if shoe.total < size:
        raise ImpossibleShoeError(f"a shoe of {shoe.total} cards cannot deal {size} cards")
    present = list(shoe.items())
    counts = dict.fromkeys(events, 0)
    for combo in combinations_with_replacement(range(len(present)), size):
        weight = 1
        start = 0
        for i in range(1, size + 1):
            if i == size or combo[i] != combo[start]:
                weight *= comb(present[combo[start]][1], i - start)
                start = i
        if weight:
            event = classify(tuple(present[k][0] for k in combo))
            counts[event] += weight
    return Outcomes(counts=counts, deals=comb(shoe.total, size), unit=unit, notes=notes)
