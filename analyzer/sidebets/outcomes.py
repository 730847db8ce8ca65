"""Exact outcome counts of a side bet, and the enumerators the card bets share.

A bet on the first cards (Any Pair, 21+3, Hot 3) depends only on *which* cards
were dealt, so it is counted over unordered sets of physical cards: a set
holding ``m`` copies of an identity with ``n`` in the shoe is chosen ``C(n, m)``
ways.  Enumerating identity multisets (24,804 for three cards) instead of
physical cards keeps an 8-deck count as fast as a 1-deck one.  A bet that tells
the cards apart by their place (Super Sevens: the *first* card a seven) is
counted over ordered deals, ``n (n-1) ... (n-m+1)`` ways for ``m`` copies.

Cards a bet cannot tell apart (every non-seven, for Super Sevens) may be merged
into one class by a ``key``: fewer multisets, the same whole counts.

The same pass yields the counts with any one physical card removed (the
*effects of removal*): of the deals counted for a multiset, a given copy of an
identity held ``m`` times out of ``n`` is in ``m / n`` of them, so
``count(shoe - card) = count(shoe) - sum(weight * m) / n`` exactly.

>>> from analyzer.sidebets.suitshoe import SuitShoe
>>> same_colour = lambda cards: "win" if len({c[1] % 2 for c in cards}) == 1 else "lose"
>>> o = count_card_sets(SuitShoe.decks(1), 2, same_colour, ("win", "lose"), "2-card sets")
>>> o.counts, o.deals
({'win': 650, 'lose': 676}, 1326)
>>> r = count_card_sets(SuitShoe.decks(1), 2, same_colour, ("win", "lose"), "2-card sets",
...                     removals=True)
>>> r.removed[(1, 0)], r.removed_deals
({'win': 625, 'lose': 650}, 1275)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import comb, lcm, perm

from analyzer.core.errors import ImpossibleShoeError, InternalError
from analyzer.sidebets.suitshoe import Card, SuitShoe

#: One event per deal, or one per role (Match the Dealer: each card of a set as the upcard).
Classify = Callable[[tuple[Card, ...]], "str | tuple[str, ...]"]


@dataclass(frozen=True)
class Outcomes:
    """Every outcome of a bet as a whole number of equally likely combinations."""

    counts: dict[str, int]  # outcome name -> combinations, in the bet's display order
    deals: int  # all combinations: the common denominator of the probabilities
    unit: str  # what one combination is, printed with the figures
    notes: tuple[str, ...] = ()  # assumptions every report must state
    # With removals asked for: the counts on the shoe less one card of each identity
    # present, over ``removed_deals`` combinations (the same for every card).
    removed: Mapping[Card, dict[str, int]] = field(default_factory=dict)
    removed_deals: int = 0

    def probability(self, event: str) -> Fraction:
        return Fraction(self.counts[event], self.deals)

    def without(self, card: Card) -> Outcomes:
        """The outcomes on the shoe less one ``card`` (counted with ``removals=True``)."""
        if card not in self.removed:
            raise InternalError(f"no count with {card} removed")
        return Outcomes(dict(self.removed[card]), self.removed_deals, self.unit, self.notes)


def _classes(shoe: SuitShoe, key: Callable[[Card], Card] | None
             ) -> tuple[list[tuple[Card, int]], dict[Card, list[Card]]]:
    """The shoe's cards merged by ``key``: (representative, count) and each class's members."""
    if key is None:
        present = list(shoe.items())
        return present, {card: [card] for card, _ in present}
    counts: dict[Card, int] = {}
    members: dict[Card, list[Card]] = {}
    for card, n in shoe.items():
        rep = key(card)
        counts[rep] = counts.get(rep, 0) + n
        members.setdefault(rep, []).append(card)
    return list(counts.items()), members


def _multiplicities(combo: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(class index, times) of a sorted tuple of class indices."""
    start = 0
    for i in range(1, len(combo) + 1):
        if i == len(combo) or combo[i] != combo[start]:
            yield combo[start], i - start
            start = i


def _tally(
    shoe: SuitShoe, size: int, classify: Classify, events: Sequence[str], *, ordered: bool,
    roles: int, key: Callable[[Card], Card] | None, removals: bool,
) -> tuple[dict[str, int], dict[Card, dict[str, int]]]:
    if shoe.total < size:
        raise ImpossibleShoeError(f"a shoe of {shoe.total} cards cannot deal {size} cards")
    present, members = _classes(shoe, key)
    counts = dict.fromkeys(events, 0)
    held = [dict.fromkeys(events, 0) for _ in present] if removals else []
    combos = (product(range(len(present)), repeat=size) if ordered
              else combinations_with_replacement(range(len(present)), size))
    ways = perm if ordered else comb
    for combo in combos:
        times = list(_multiplicities(sorted(combo)))
        weight = 1
        for i, m in times:
            weight *= ways(present[i][1], m)
        if not weight:
            continue
        found = classify(tuple(present[k][0] for k in combo))
        named = (found,) if isinstance(found, str) else found
        if len(named) != roles:
            raise InternalError(f"{len(named)} events for {roles} roles")
        for event in named:
            counts[event] += weight
            for i, m in times if removals else ():
                held[i][event] += weight * m
    removed: dict[Card, dict[str, int]] = {}
    for (rep, n), tally in zip(present, held, strict=False):
        less = {}
        for event, total in tally.items():
            if total % n:
                raise InternalError(f"{event}: {total} deals is not a multiple of {n} copies")
            less[event] = counts[event] - total // n
        for card in members[rep]:
            removed[card] = less
    return counts, removed


def count_card_sets(
    shoe: SuitShoe,
    size: int,
    classify: Classify,
    events: Sequence[str],
    unit: str,
    notes: tuple[str, ...] = (),
    *,
    roles: int = 1,
    key: Callable[[Card], Card] | None = None,
    removals: bool = False,
) -> Outcomes:
    """Count the ``size``-card sets of ``shoe`` by the event ``classify`` names.

    ``classify`` receives the cards sorted by rank, then suit (the representatives of
    their ``key`` classes); with ``roles`` above 1 it names one event per role, and
    every set counts once per role.
    """
    counts, removed = _tally(shoe, size, classify, events, ordered=False, roles=roles,
                             key=key, removals=removals)
    return Outcomes(counts=counts, deals=comb(shoe.total, size) * roles, unit=unit,
                    notes=notes, removed=removed,
                    removed_deals=comb(shoe.total - 1, size) * roles if removals else 0)


def count_ordered(
    shoe: SuitShoe,
    size: int,
    classify: Classify,
    events: Sequence[str],
    unit: str,
    notes: tuple[str, ...] = (),
    *,
    key: Callable[[Card], Card] | None = None,
    removals: bool = False,
) -> Outcomes:
    """Count the ordered ``size``-card deals of ``shoe``; ``classify`` sees the deal order."""
    counts, removed = _tally(shoe, size, classify, events, ordered=True, roles=1, key=key,
                             removals=removals)
    return Outcomes(counts=counts, deals=perm(shoe.total, size), unit=unit, notes=notes,
                    removed=removed,
                    removed_deals=perm(shoe.total - 1, size) if removals else 0)


def removals_by_recount(shoe: SuitShoe, count: Callable[[SuitShoe], Outcomes],
                        key: Callable[[Card], Card]) -> tuple[dict[Card, dict[str, int]], int]:
    """Counts with one card removed, for a bet counted otherwise: one recount per ``key``
    class (cards the bet cannot tell apart share it), rescaled to a common denominator."""
    recounts: dict[Card, Outcomes] = {}
    removed: dict[Card, Outcomes] = {}
    for card, _ in shoe.items():
        rep = key(card)
        if rep not in recounts:
            less = list(shoe.counts)
            less[(card[0] - 1) * 4 + card[1]] -= 1
            recounts[rep] = count(SuitShoe(less))
        removed[card] = recounts[rep]
    deals = lcm(*(o.deals for o in recounts.values()))
    return ({card: {e: n * (deals // o.deals) for e, n in o.counts.items()}
             for card, o in removed.items()}, deals)
