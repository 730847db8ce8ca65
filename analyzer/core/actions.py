"""The player's actions: one vocabulary for the engine, charts, reports and side bets.

``Action`` is an :class:`~enum.IntEnum` because numpy policy arrays store it, so
its integer values are fixed.

>>> Action.DOUBLE.label, Action.DOUBLE.code, Action.from_code("R")
('double', 'D', <Action.SURRENDER: 4>)
"""

from __future__ import annotations

from enum import IntEnum


class Action(IntEnum):
    """What a player does with a hand; ``label`` names it, ``code`` is its chart letter."""

    STAND = 0
    HIT = 1
    DOUBLE = 2
    SPLIT = 3
    SURRENDER = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def code(self) -> str:
        return "SHDPR"[self]

    @classmethod
    def from_code(cls, code: str) -> Action:
        """The action of a one-letter chart code (``S``, ``H``, ``D``, ``P``, ``R``)."""
        return cls("SHDPR".index(code))


# The members under their short names: policy arrays and strategies compare against them.
STAND, HIT, DOUBLE, SPLIT, SURRENDER = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT,
                                        Action.SURRENDER)
