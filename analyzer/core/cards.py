"""Card vocabulary of the main game: the ten blackjack values.

Suits and the ranks J/Q/K do not change a blackjack total, so the main game works
on ten *values*: ``Value.ACE`` (1) through ``Value.TEN`` (10).  A shoe is a
tuple of ten counts indexed ``value - 1``.

>>> parse_value("t"), parse_value("K"), parse_value("a")
(<Value.TEN: 10>, <Value.TEN: 10>, <Value.ACE: 1>)
>>> format_value(Value.ACE), format_value(Value.TEN), format_value(Value.SEVEN)
('A', 'T', '7')
>>> parse_cards("T,6")
(<Value.TEN: 10>, <Value.SIX: 6>)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from analyzer.core.errors import CardNotationError


class Value(IntEnum):
    """A card's blackjack value; ``ACE`` is 1 (counted 11 when it helps)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10


VALUES: tuple[Value, ...] = tuple(Value)
_SYMBOLS = {"A": 1, "1": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10}


def parse_value(text: str) -> Value:
    """Parse one card symbol (``A``, ``2``..``9``, ``T``/``10``/``J``/``Q``/``K``)."""
    key = text.strip().upper()
    if key in _SYMBOLS:
        return Value(_SYMBOLS[key])
    if key.isascii() and key.isdigit() and 2 <= int(key) <= 9:  # not '²'
        return Value(int(key))
    raise CardNotationError(f"unknown card {text!r} (use A, 2-9, T, J, Q, K)")


def format_value(value: int) -> str:
    """The one-character symbol of a value: ``A``, ``2``..``9``, ``T``."""
    return "A" if value == 1 else "T" if value == 10 else str(value)


def parse_cards(text: str) -> tuple[Value, ...]:
    """Parse a comma- or space-separated list of cards, e.g. ``"T,6"``."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise CardNotationError(f"no cards in {text!r}")
    return tuple(parse_value(p) for p in parts)


def hand_total(cards: tuple[int, ...] | list[int]) -> tuple[int, bool]:
    """Best total of a hand and whether it is soft (an ace counted as 11).

    >>> hand_total((1, 6)), hand_total((1, 6, 10)), hand_total((10, 6))
    ((17, True), (17, False), (16, False))
    """
    total = sum(cards)
    if 1 in cards and total + 10 <= 21:
        return total + 10, True
    return total, False


def composition(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Counts of each value A..T in ``cards``: the key of a hand in every table.

    >>> composition((10, 6))
    (0, 0, 0, 0, 0, 1, 0, 0, 0, 1)
    """
    comp = [0] * 10
    for c in cards:
        comp[c - 1] += 1
    return tuple(comp)


def is_natural(comp: Sequence[int]) -> bool:
    """Whether a composition (counts of A..T) is exactly one ace and one ten.

    >>> is_natural(composition((1, 10))), is_natural(composition((1, 10, 10)))
    (True, False)
    """
    return bool(comp[0] == 1 and comp[9] == 1 and sum(comp) == 2)
