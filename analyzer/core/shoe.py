"""The ten-value shoe of the main game: how many cards of each value remain.

A :class:`Shoe` is immutable and hashable, so shoe states serve as memo keys.

>>> s = Shoe.decks(6)
>>> s.total, s[10], s[1]
(312, 96, 24)
>>> parse_shoe("A:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,T:16") == Shoe.decks(1)
True
>>> Shoe.decks(6, spanish=True).total, Shoe.decks(6, spanish=True)[10]
(288, 72)
>>> format_shoe(Shoe.decks(1))
'A:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,T:16'
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator, Sequence

from analyzer.core.cards import Value, card_value, format_value, parse_value
from analyzer.core.errors import AnalyzerError, HandError, ImpossibleShoeError, ShoeError
from analyzer.core.numbers import parse_whole, shown

# Far past any real shoe, and far enough to watch n decks converge to an infinite deck
# (tests/test_infinite.py).  The engine's integer arrays overflow somewhere between 10**7
# and 10**8 decks (the ace and ten upcards go wrong first), so larger shoes are refused.
MAX_DECKS = 1_000_000
MAX_COUNT = 16 * MAX_DECKS  # cards of one value (tens of MAX_DECKS decks)


def checked_counts(counts: Iterable[int], names: Sequence[str], what: str) -> tuple[int, ...]:
    """``counts`` as a tuple, or a :class:`ShoeError` naming the bad count.

    ``names`` labels each position (card values or card identities).  A count is an
    ``int`` or another whole-number type (numpy's integers: a notebook's counts), kept as
    an ``int``; a bool, a float or a numpy bool is not a count.
    """
    c = tuple(counts)
    if len(c) != len(names):
        raise ShoeError(f"a {what} needs {len(names)} counts, got {len(c)}")
    for name, n in zip(names, c, strict=True):
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) \
                or not 0 <= n <= MAX_COUNT:
            raise ShoeError(f"count of {name} must be a whole number 0 to {MAX_COUNT}, not "
                            f"{n!r}")
    c = tuple(int(n) for n in c)
    if sum(c) == 0:
        raise ImpossibleShoeError("the shoe is empty")
    return c


_VALUE_NAMES = tuple(format_value(v) for v in Value)


class CardCounts:
    """Immutable counts of card kinds: what the value shoe and the suit-aware shoe share."""

    __slots__ = ("_counts",)

    def __init__(self, counts: tuple[int, ...]) -> None:
        self._counts = counts

    @staticmethod
    def deck_count(n: int) -> int:
        """``n`` as a number of full decks, or a :class:`ShoeError`."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_DECKS:
            raise ShoeError(f"number of decks must be a whole number 1 to {MAX_DECKS}, not "
                            f"{n!r}")
        return n

    @property
    def counts(self) -> tuple[int, ...]:
        return self._counts

    @property
    def total(self) -> int:
        return sum(self._counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and other._counts == self._counts

    def __hash__(self) -> int:
        return hash(self._counts)


class Shoe(CardCounts):
    """Counts of the ten card values, index ``value - 1``."""

    __slots__ = ("_hash",)

    def __init__(self, counts: Iterable[int]) -> None:
        if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
            raise ShoeError(f"a shoe is built from ten counts (A, 2-9, T), not {counts!r}; "
                            "parse_shoe reads the VALUE:COUNT text")
        c = checked_counts(counts, _VALUE_NAMES, "shoe (A, 2-9, T)")
        super().__init__(c)
        self._hash = hash(c)

    @classmethod
    def decks(cls, n: int, *, spanish: bool = False) -> Shoe:
        """``n`` full 52-card decks, or ``n`` Spanish decks (48 cards: the four 10s removed,
        J, Q and K kept, so 12 ten-valued cards a deck)."""
        n = cls.deck_count(n)
        return cls([4 * n] * 9 + [(12 if spanish else 16) * n])

    def __getitem__(self, value: int) -> int:
        if type(value) is not int or not 1 <= value <= 10:  # 0 would read the tens
            value = card_value(value)
        return self._counts[value - 1]

    def __iter__(self) -> Iterator[int]:
        return iter(self._counts)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Shoe({format_shoe(self)!r})"

    def remove(self, cards: Iterable[int]) -> Shoe:
        """The shoe after dealing ``cards``; an error if a card is not there."""
        c = list(self._counts)
        for card in cards:
            card = card_value(card)
            if c[card - 1] == 0:
                raise HandError(f"the shoe has no {format_value(card)} left to deal")
            c[card - 1] -= 1
        if sum(c) == 0:
            raise HandError("dealing those cards empties the shoe")
        return Shoe._valid(tuple(c))

    @classmethod
    def _valid(cls, counts: tuple[int, ...]) -> Shoe:
        """A shoe of counts already known valid (a valid shoe's, less cards it holds),
        without checking them again: every hand an analysis values is checked this way."""
        shoe = cls.__new__(cls)
        CardCounts.__init__(shoe, counts)
        shoe._hash = hash(counts)
        return shoe


def parse_shoe(text: str) -> Shoe:
    """Parse ``"A:24,2:24,...,T:96"``; values not named have count 0."""
    if not isinstance(text, str):
        raise ShoeError(f"a shoe is text such as 'A:4,2:4,...,T:16', not {shown(text)}")
    counts = [0] * 10
    seen: set[int] = set()
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        if ":" not in item:
            raise ShoeError(f"shoe entry {item!r} is not VALUE:COUNT")
        symbol, count = item.split(":", 1)
        try:
            value = parse_value(symbol)
        except AnalyzerError as err:
            raise ShoeError(f"shoe entry {item!r}: {err}") from None
        if value in seen:
            same = (" (T, J, Q and K are one value here, a ten: give their total as "
                    "T:COUNT)" if value == 10 else "")
            raise ShoeError(f"shoe names the value {format_value(value)} twice, again as "
                            f"{symbol.strip()!r}{same}")
        seen.add(value)
        # Any whole number is read; Shoe() refuses one out of range, naming the card.
        counts[value - 1] = parse_whole(count, f"shoe entry {shown(item)}: count", ShoeError,
                                        minimum=None)
    return Shoe(counts)


def format_shoe(shoe: Shoe) -> str:
    """The ``VALUE:COUNT`` list that :func:`parse_shoe` reads back."""
    if not isinstance(shoe, Shoe):
        raise ShoeError(f"expected a Shoe, not {shown(shoe)}")
    return ",".join(f"{format_value(v)}:{shoe[v]}" for v in Value)
