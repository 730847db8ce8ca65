"""Insurance: a side wager of half the bet that pays 2:1 when the dealer's ace hides a ten.

Its value depends only on the share of tens among the unseen cards, so it is
exact for any shoe: per unit of the insurance wager ``EV = 3 p - 1`` with ``p``
the chance the hole card is a ten; worth taking only when ``p > 1/3``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.cards import checked_hand
from analyzer.core.errors import ShoeError
from analyzer.core.shoe import Shoe


@dataclass(frozen=True)
class Insurance:
    cards: tuple[int, ...]  # the player's cards known when deciding (none: full shoe)
    p_ten: Fraction  # chance the hole card is ten-valued
    ev: Fraction  # per unit of the insurance wager (half the main bet)

    @property
    def take(self) -> bool:
        return self.ev > 0


def insurance(shoe: Shoe, cards: tuple[int, ...] = ()) -> Insurance:
    """Insurance against an ace up, from ``shoe`` (the ace and ``cards`` still in it).

    >>> insurance(Shoe.decks(1)).ev
    Fraction(-1, 17)
    """
    if not isinstance(shoe, Shoe):
        raise ShoeError(f"insurance needs a Shoe, not {shoe!r}")
    _, cards = checked_hand(1, cards)
    rest = shoe.remove([1, *cards])
    p = Fraction(rest[10], rest.total)
    return Insurance(cards=cards, p_ten=p, ev=3 * p - 1)


def insurance_table(shoe: Shoe) -> list[Insurance]:
    """Insurance after each possible two-card player hand (ace up)."""
    table = []
    for a in range(1, 11):
        for b in range(a, 11):
            try:
                table.append(insurance(shoe, (a, b)))
            except ValueError:
                continue
    return table
