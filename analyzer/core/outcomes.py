"""The dealer's final outcomes: one vocabulary for the engine, reports and side bets.

``Outcome`` is an :class:`~enum.IntEnum` because a dealer outcome matrix has
one column per outcome, so its integer values are fixed.

>>> [o.label for o in Outcome]
['17', '18', '19', '20', '21', 'blackjack', 'bust22', 'bust23+']
"""

from __future__ import annotations

from enum import IntEnum


class Outcome(IntEnum):
    """How the dealer's hand ends: a total of 17..21, a blackjack, or a bust on 22 or more.

    Bust on exactly 22 is its own outcome because some games push it (Free Bet).
    """

    D17 = 0
    D18 = 1
    D19 = 2
    D20 = 3
    D21 = 4
    BLACKJACK = 5
    BUST22 = 6
    BUST23 = 7

    @property
    def label(self) -> str:
        """The printed name: ``17``..``21``, ``blackjack``, ``bust22``, ``bust23+``."""
        if self <= Outcome.D21:
            return str(17 + self)
        return "bust23+" if self is Outcome.BUST23 else self.name.lower()

    @classmethod
    def standing(cls, total: int) -> Outcome:
        """The outcome of a dealer standing on ``total`` (17..21)."""
        return cls(total - 17)


N_OUTCOMES = len(Outcome)
