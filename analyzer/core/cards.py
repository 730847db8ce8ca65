"""Card vocabulary of the main game: the ten blackjack values.

Suits and the ranks J/Q/K do not change a blackjack total, so the main game works
on ten *values*: ``Value.ACE`` (1) through ``Value.TEN`` (10).  A shoe is a
tuple of ten counts indexed ``value - 1``.

The card rules every module shares are defined here once: the soft-ace total
(:func:`soft_total`, for card lists :func:`hand_total`, for compositions
:func:`comp_total`), the natural (:func:`is_natural`) and the hole card that
completes a dealer blackjack (:func:`blackjack_value`).  Only the cross-check
code (:mod:`analyzer.oracle`, the test oracles) keeps its own copies.

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
from numbers import Integral
from typing import TYPE_CHECKING, Any, overload

from analyzer.core.errors import CardNotationError, ImpossibleHandError
from analyzer.core.numbers import shown

if TYPE_CHECKING:  # numpy only for the types: the card vocabulary imports nothing heavy
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    BoolArray = npt.NDArray[np.bool_]


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
_SYMBOLS = {"A": 1, "1": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10,
            **{str(v): v for v in range(2, 10)}}  # a table: no int() of what the user typed


def card_value(value: object, what: str = "card") -> int:
    """``value`` as a card value 1 (ace) to 10, or a :class:`CardNotationError`.

    Any integer type is accepted (``int``, a :class:`Value`, a numpy integer: the
    engine's tables hold those); a bool, a float or a string is refused rather
    than read as a number (``True`` is not an ace, ``6.0`` not a six), and so is
    a value out of range (0 or -1 would index the tens and nines silently).

    >>> card_value(Value.SIX), card_value(10)
    (6, 10)
    >>> card_value(0)
    Traceback (most recent call last):
    ...
    analyzer.core.errors.CardNotationError: card must be a card value 1 (ace) to 10 (ten), not 0
    """
    if type(value) is int and 1 <= value <= 10:
        return value  # the common case first: the engine asks this in its inner loops
    if isinstance(value, bool) or not isinstance(value, Integral) or not 1 <= int(value) <= 10:
        raise CardNotationError(f"{what} must be a card value 1 (ace) to 10 (ten), not "
                                f"{value!r}")
    return int(value)


def checked_hand(upcard: object, cards: object) -> tuple[int, tuple[int, ...]]:
    """An upcard and a hand's cards, each checked by :func:`card_value`.

    ``cards`` is a tuple or list of card values (a string is refused: parse it
    with :func:`parse_cards`).
    """
    up = card_value(upcard, "upcard")
    if not isinstance(cards, (tuple, list)):
        raise CardNotationError(f"cards must be a tuple of card values 1 to 10, not {cards!r}")
    return up, tuple(card_value(c) for c in cards)


def check_charlie_cards(cards: Sequence[int], charlie: int) -> None:
    """Refuse a hand of more cards than a ``charlie``-card Charlie lets a hand hold (0:
    no Charlie): the hand ends, paid, at that many cards, so no such hand is played."""
    if charlie and len(cards) > charlie:
        shown_cards = "-".join(format_value(c) for c in cards)
        raise ImpossibleHandError(f"hand {shown_cards} holds {len(cards)} cards: under CH{charlie} "
                                  f"a hand ends as a Charlie at {charlie}")


def parse_value(text: str) -> Value:
    """Parse one card symbol (``A``, ``2``..``9``, ``T``/``10``/``J``/``Q``/``K``)."""
    if not isinstance(text, str):
        raise CardNotationError(f"a card symbol is text (A, 2-9, T, J, Q, K), not {text!r}")
    key = text.strip().upper()
    if key in _SYMBOLS:
        return Value(_SYMBOLS[key])
    raise CardNotationError(f"unknown card {text!r} (use A, 2-9, T, J, Q, K)")


def format_value(value: int) -> str:
    """The one-character symbol of a value: ``A``, ``2``..``9``, ``T``."""
    value = card_value(value)
    return "A" if value == 1 else "T" if value == 10 else str(value)


def parse_cards(text: str) -> tuple[Value, ...]:
    """Parse a comma- or space-separated list of cards, e.g. ``"T,6"``.

    An empty place between commas (``"5,,6"``, ``"8,8,"``) is refused: it is a card
    mistyped or left out, and the hand without it is another hand.
    """
    if not isinstance(text, str):
        raise CardNotationError(f"a card list is text, e.g. 'T,6', not {text!r}")
    items = [item.split() for item in text.split(",")]
    if len(items) > 1 and not all(items):
        raise CardNotationError(f"an empty place between commas in {text!r} "
                                "(one comma between two cards, e.g. 'T,6')")
    parts = [p for item in items for p in item]
    if not parts:
        raise CardNotationError(f"no cards in {text!r}")
    return tuple(parse_value(p) for p in parts)


@overload
def soft_total(hard: int, aces: int) -> tuple[int, bool]: ...
@overload
def soft_total(hard: IntArray, aces: IntArray) -> tuple[IntArray, BoolArray]: ...
def soft_total(hard: Any, aces: Any) -> tuple[Any, Any]:
    """The soft-ace rule: best total and softness from the hard total (aces counted 1).

    One ace counts 11 when that does not bust the hand.  Written with operators
    only, so the same rule applies elementwise to numpy arrays of totals.

    >>> soft_total(7, 1), soft_total(17, 1), soft_total(16, 0)
    ((17, True), (17, False), (16, False))
    """
    soft = (aces > 0) & (hard + 10 <= 21)
    return hard + 10 * soft, soft


_INT = frozenset({int})
_VALUES = frozenset(range(1, 11))


def hand_total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand and whether it is soft (an ace counted as 11).

    >>> hand_total((1, 6)), hand_total((1, 6, 10)), hand_total((10, 6))
    ((17, True), (17, False), (16, False))
    """
    plain = type(cards) is tuple and set(map(type, cards)) <= _INT and set(cards) <= _VALUES
    if not plain and (isinstance(cards, str) or any(  # the common case, then the rule
            isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 10 for c in cards)):
        raise CardNotationError(f"a hand's cards are values 1 (ace) to 10, not {shown(cards)}")
    return soft_total(sum(cards), cards.count(1))


def comp_hard(comp: Sequence[int]) -> int:
    """Hard total of a composition (counts of A..T), every ace counted 1."""
    return sum(v * n for v, n in zip(range(1, 11), comp, strict=True))


def comp_total(comp: Sequence[int]) -> tuple[int, bool]:
    """Best total and softness of a composition (counts of A..T).

    >>> comp_total(composition((1, 9))), comp_total(composition((1, 9, 5)))
    ((20, True), (15, False))
    """
    return soft_total(comp_hard(comp), comp[0])


def comp_cards(comp: Sequence[int]) -> tuple[int, ...]:
    """The cards of a composition, lowest first: the inverse of :func:`composition`.

    >>> comp_cards(composition((10, 1, 6)))
    (1, 6, 10)
    """
    return tuple(v for v in range(1, 11) for _ in range(comp[v - 1]))


def composition(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Counts of each value A..T in ``cards``: the key of a hand in every table.

    >>> composition((10, 6))
    (0, 0, 0, 0, 0, 1, 0, 0, 0, 1)
    """
    comp = [0] * 10
    for c in cards:
        if type(c) is not int or not 1 <= c <= 10:  # the usual case checked fast
            c = card_value(c)
        comp[c - 1] += 1
    return tuple(comp)


def is_natural(comp: Sequence[int]) -> bool:
    """Whether a composition (counts of A..T) is exactly one ace and one ten.

    >>> is_natural(composition((1, 10))), is_natural(composition((1, 10, 10)))
    (True, False)
    """
    return bool(comp[0] == 1 and comp[9] == 1 and sum(comp) == 2)


def blackjack_value(upcard: int) -> int | None:
    """The hole-card value that completes a dealer blackjack with ``upcard``, if any.

    >>> blackjack_value(1), blackjack_value(10), blackjack_value(9)
    (10, 1, None)
    """
    return 10 if upcard == 1 else 1 if upcard == 10 else None
