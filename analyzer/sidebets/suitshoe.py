"""A shoe counted by rank and suit, for the side bets that look at suits and ranks.

The main game needs only ten values (:mod:`analyzer.core.shoe`); 21+3, Any Pair and
Hot 3 tell a K from a Q and a spade from a heart, so they need the 13 x 4 card
identities.  A card is ``(rank, suit)``: rank 1 (A) .. 13 (K), suit 0..3 (S, H, D, C).

A shoe spec is a list of items separated by commas, spaces or the signs:
``6decks`` (six full decks), ``6spanish`` (six Spanish decks: 48 cards, the four
10s removed, J Q K kept), ``-AS`` / ``-AS*2`` (remove), ``+KH`` (add),
``7C:3`` (exactly three sevens of clubs).  A card needs a sign or a count, so
``6D`` (the six of diamonds) is not mistaken for six decks.
:func:`format_suit_shoe` prints a spec that parses back to the same shoe.

>>> s = parse_suit_shoe("1deck-AS-KH*1,-TD")
>>> s.total, s.count((1, 0)), s.values()[9]
(49, 0, 14)
>>> format_suit_shoe(s)
'1deck-AS-TD-KH'
>>> parse_suit_shoe(format_suit_shoe(s)) == s
True
>>> format_suit_shoe(parse_suit_shoe("AS:2, 7C:1"))
'AS:2,7C:1'
>>> sp = parse_suit_shoe("6spanish-AS")
>>> sp.total, sp.count((10, 0)), format_suit_shoe(sp), sp == SuitShoe.decks(6, spanish=True)
(287, 0, '6spanish-AS', False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from analyzer.core.errors import ImpossibleShoeError, ShoeError
from analyzer.core.numbers import parse_whole, shown
from analyzer.core.shoe import MAX_COUNT, MAX_DECKS, CardCounts, checked_counts

Card = tuple[int, int]  # (rank 1..13, suit 0..3)

RANKS = tuple(range(1, 14))
SUITS = "SHDC"
RANK_SYMBOLS = "A23456789TJQK"
CARDS: tuple[Card, ...] = tuple((r, s) for r in RANKS for s in range(4))


def card_value(card: Card) -> int:
    """Blackjack value of a card: A=1, 2..9, T/J/Q/K=10."""
    return min(card[0], 10)


def format_card(card: Card) -> str:
    """``"AS"``, ``"TD"``, ``"KH"``."""
    return RANK_SYMBOLS[card[0] - 1] + SUITS[card[1]]


def parse_card(text: str) -> Card:
    """Parse a card identity such as ``AS``, ``10h``, ``Td``, ``kc``.

    >>> parse_card("10h"), parse_card("As")
    ((10, 1), (1, 0))
    """
    key = text.strip().upper()
    rank_text, suit_text = key[:-1], key[-1:]
    rank_text = "T" if rank_text == "10" else rank_text
    if len(rank_text) != 1 or rank_text not in RANK_SYMBOLS or suit_text not in SUITS:
        raise ShoeError(f"unknown card {text!r} (rank A,2-9,T,J,Q,K then suit S,H,D,C, e.g. QS)")
    return RANK_SYMBOLS.index(rank_text) + 1, SUITS.index(suit_text)


class SuitShoe(CardCounts):
    """Counts of the 52 card identities, in :data:`CARDS` order; immutable and hashable."""

    __slots__ = ()

    def __init__(self, counts: Iterable[int]) -> None:
        super().__init__(checked_counts(counts, [format_card(c) for c in CARDS], "suit shoe"))

    @classmethod
    def decks(cls, n: int, *, spanish: bool = False) -> SuitShoe:
        """``n`` full 52-card decks, or ``n`` Spanish decks (48 cards: no 10s, J Q K kept)."""
        n = cls.deck_count(n)
        return cls([0 if spanish and card[0] == 10 else n for card in CARDS])

    def count(self, card: Card) -> int:
        return self._counts[_index(card)]

    def items(self) -> Iterator[tuple[Card, int]]:
        """``(card, count)`` for every identity still in the shoe."""
        return ((card, n) for card, n in zip(CARDS, self._counts, strict=True) if n)

    def values(self) -> tuple[int, ...]:
        """The ten-value counts the main game and the dealer engine use (index value - 1)."""
        out = [0] * 10
        for card, n in zip(CARDS, self._counts, strict=True):
            out[card_value(card) - 1] += n
        return tuple(out)

    def full_decks(self) -> int | None:
        """``n`` when the shoe is exactly ``n`` full decks, else ``None``."""
        first = self._counts[0]
        return first if all(n == first for n in self._counts) else None

    def spanish_decks(self) -> int | None:
        """``n`` when the shoe is exactly ``n`` Spanish decks (every card but the 10s), else
        ``None``."""
        first = self._counts[0]
        same = all(n == (0 if card[0] == 10 else first)
                   for card, n in zip(CARDS, self._counts, strict=True))
        return first if first and same else None

    def describe(self) -> str:
        """Human form: ``"6 decks (312 cards)"``, ``"6 Spanish decks (288 cards)"`` or the
        spec and its size."""
        n = self.full_decks()
        if n is not None:
            return f"{n} deck{'s' if n > 1 else ''} ({self.total} cards)"
        n = self.spanish_decks()
        if n is not None:
            return f"{n} Spanish deck{'s' if n > 1 else ''} ({self.total} cards)"
        return f"{format_suit_shoe(self)} ({self.total} cards)"

    def __repr__(self) -> str:
        return f"SuitShoe({format_suit_shoe(self)!r})"


def _index(card: Card) -> int:
    return (card[0] - 1) * 4 + card[1]


_SPEC = re.compile(r"[\s,]*([+-]?)([^\s,+-]+)")
_DECKS = re.compile(r"(\d+)DECKS?")
_SPANISH = re.compile(r"(\d+)SPANISH")
_CARD_TIMES = re.compile(r"([^*:]+)(?:\*(\d+))?")
_CARD_SET = re.compile(r"([^*:]+):(\d+)")
# An item ending in ':' or '*' then a removal, 'AS:-1'.  A match starts only where an item
# does (the lookbehind): tried from inside a long item too, the search was quadratic in
# its length (seconds for a 20,000-character count).
_NEGATIVE = re.compile(r"(?<![^\s,+-])([^\s,+-]+[:*])\s*-\s*(\d+)")


def _count(text: str, item: str, maximum: int = MAX_COUNT) -> int:
    return parse_whole(text, f"shoe spec item {shown(item)}: count", ShoeError,
                       maximum=maximum)


def parse_suit_shoe(text: str) -> SuitShoe:
    """Parse a shoe spec (see the module docstring); counts may not go below zero."""
    counts = [0] * 52
    given: set[Card] = set()  # cards given a count (CARD:K): a second one would silently win
    pos = 0
    stripped = text.rstrip(" ,")
    negative = _NEGATIVE.search(stripped)
    if negative:  # read as the item 'AS:' and a removal '-1' it was a puzzling line
        raise ShoeError(f"shoe spec item {shown(negative.group(1) + '-' + negative.group(2))}:"
                        " a count cannot be negative")
    while pos < len(stripped):
        match = _SPEC.match(stripped, pos)
        if match is None:
            raise ShoeError(f"cannot read shoe spec {text!r} at {stripped[pos:]!r}")
        pos = match.end()
        sign, item = match.group(1), match.group(2).upper()
        step = -1 if sign == "-" else 1
        if decks := _DECKS.fullmatch(item):
            counts = [n + step * _count(decks.group(1), item, MAX_DECKS) for n in counts]
        elif spanish := _SPANISH.fullmatch(item):
            k = _count(spanish.group(1), item, MAX_DECKS)
            counts = [n + (0 if card[0] == 10 else step * k)
                      for card, n in zip(CARDS, counts, strict=True)]
        elif not sign and (setter := _CARD_SET.fullmatch(item)):
            card = parse_card(setter.group(1))
            if card in given:
                raise ShoeError(f"shoe spec {text!r} gives {format_card(card)} a count twice")
            given.add(card)
            counts[_index(card)] = _count(setter.group(2), item)
        elif (times := _CARD_TIMES.fullmatch(item)) and not sign:
            raise ShoeError(f"shoe spec item {item!r} needs a sign or a count (+{item}, "
                            f"-{item}, {item}:N; full decks are Ndecks)")
        elif times:
            counts[_index(parse_card(times.group(1)))] += step * _count(times.group(2) or "1",
                                                                        item)
        else:
            raise ShoeError(f"shoe spec item {sign + item!r} is not Ndecks, Nspanish, CARD, "
                            "CARD*K or CARD:K")
    for card, n in zip(CARDS, counts, strict=True):
        if n < 0:
            raise ImpossibleShoeError(f"shoe spec {text!r} removes more {format_card(card)} "
                                      "than it holds")
    return SuitShoe(counts)


def _as_decks(shoe: SuitShoe, base: int, spanish: bool) -> str | None:
    """``"Ndecks-CARD*k..."`` or ``"Nspanish-CARD*k..."``; ``None`` where a card exceeds the
    base (it is then no removal from it)."""
    parts = [f"{base}spanish" if spanish else f"{base}deck{'s' if base > 1 else ''}"]
    for card, n in zip(CARDS, shoe.counts, strict=True):
        full = 0 if spanish and card[0] == 10 else base
        if n > full:
            return None
        if n < full:
            parts.append(format_card(card) + (f"*{full - n}" if full - n > 1 else ""))
    return "-".join(parts)


def format_suit_shoe(shoe: SuitShoe) -> str:
    """The shortest of ``"Ndecks-CARD*k..."`` (N the largest count), ``"Nspanish-CARD*k..."``
    (when the shoe holds no 10) and ``"CARD:k,..."``."""
    base = max(shoe.counts)
    forms = [_as_decks(shoe, base, False)]
    if not any(shoe.count((10, s)) for s in range(4)):
        forms.insert(0, _as_decks(shoe, base, True))
    forms.append(",".join(f"{format_card(card)}:{n}" for card, n in shoe.items()))
    return min((f for f in forms if f is not None), key=len)
