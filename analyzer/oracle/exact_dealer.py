"""The dealer's final outcomes by enumeration over small shoes, for the split cross-check.

Part of :mod:`analyzer.oracle.exact_splits`: values at a state with ``m``
cards left are carried times ``m!``, so exact mode runs in integers.  Like that
module it re-derives the card rules (blackjack hole card, soft totals, the
dealer's stopping rule) instead of importing :mod:`analyzer.core.cards` or the
engine's dealer: it is an independent check, sharing no game logic on purpose.
"""

from __future__ import annotations

import math
from fractions import Fraction

from analyzer.core.errors import ImpossibleShoeError, InternalError, ShoeError

MAX_CARDS = 60
# The enumeration's states are the sub-shoes, prod(count + 1) of them: a 20-card shoe has
# about 10^4 (seconds), a 39-card one 3.4 x 10^6 (two minutes), a full deck 3.3 x 10^7
# (five minutes); a 60-card shoe can have 1.4 x 10^8, past the hour.
MAX_SUB_SHOES = 40_000_000

# Dealer outcome indices of dealer_final_distribution.
D17, D18, D19, D20, D21, D_BUST, D_BLACKJACK = range(7)
N_DEALER = 7

Shoe = tuple[int, ...]


def blackjack_card(upcard: int) -> int:
    """The hole value that completes a dealer blackjack (0: none); own copy, see above."""
    return 10 if upcard == 1 else 1 if upcard == 10 else 0


def minus(shoe: Shoe, value: int) -> Shoe:
    """The shoe less one card of ``value``."""
    return shoe[: value - 1] + (shoe[value - 1] - 1,) + shoe[value:]


def exhausted(who: str) -> ShoeError:
    return ImpossibleShoeError(f"the shoe runs out of cards while the {who} must draw on a "
                               "reachable card sequence that decides a bet; the exact split EV "
                               "is only defined when every such sequence can be dealt")


class Undefined:
    """An outcome that needs a card the shoe no longer has; absorbs all arithmetic.

    It only becomes an error when a bet's result is read from it: a dealer who
    runs out of cards behind busted hands decides nothing.
    """

    def __repr__(self) -> str:
        return "UNDEFINED"

    def _absorb(self, other: object) -> Undefined:
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _absorb

    def __neg__(self) -> Undefined:
        return self


UNDEFINED = Undefined()

# Scaled values are ints (exact, times n!) or floats, or UNDEFINED, which absorbs all
# arithmetic (a dealer who runs out of cards), so a value read as a result is checked.
Scaled = int | float | Undefined
Vec = tuple[Scaled, ...]


class Dealer:
    """The dealer's outcomes, memoised over (cards left, dealer hand), scaled by ``m!``.

    A value at a state with ``m`` cards left is stored times ``m!``: drawing
    value ``v`` (``c_v`` of ``m``) then multiplies by ``c_v`` exactly, since
    ``m! * c_v / m = c_v * (m - 1)!``.  Exact mode stays in integers.
    """

    def __init__(self, upcard: int, hits_soft_17: bool, fact: list[Scaled]) -> None:
        self.upcard = upcard
        self.fact = fact
        self.zero: Scaled = fact[0] * 0
        self._memo: dict[tuple[Shoe, int, bool], list[Scaled]] = {}
        # _stop[ace][hard]: the outcome index of a finished hand, or -1 to draw on.
        self._stop = [[-1] * 32, [-1] * 32]
        for ace in (0, 1):
            for hard in range(2, 32):
                soft = bool(ace) and hard <= 11
                total = hard + 10 if soft else hard
                if total > 21:
                    self._stop[ace][hard] = D_BUST
                elif total > 17 or (total == 17 and not (soft and hits_soft_17)):
                    self._stop[ace][hard] = total - 17

    def _unit(self, outcome: int, m: int) -> list[Scaled]:
        vec = [self.zero] * N_DEALER
        vec[outcome] = self.fact[m]
        return vec

    def draw(self, shoe: Shoe, hard: int, ace: bool) -> list[Scaled]:
        """Outcomes of a dealer hand of hard total ``hard`` (2+ cards) drawing from ``shoe``."""
        stop = self._stop[ace][hard]
        if stop >= 0:
            return self._unit(stop, sum(shoe))
        key = (shoe, hard, ace)
        found = self._memo.get(key)
        if found is not None:
            return found
        m = sum(shoe)
        if not m:  # every outcome but a blackjack is undefined
            return [UNDEFINED] * D_BLACKJACK + [self.zero]
        acc = [self.zero] * N_DEALER
        step = self.fact[m - 1]  # a finished hand's m! * c / m, per card c
        for v in range(1, 11):
            c = shoe[v - 1]
            if not c:
                continue
            now_ace = ace or v == 1
            stop = self._stop[now_ace][hard + v]
            if stop >= 0:
                acc[stop] += c * step
            else:
                sub = self.draw(minus(shoe, v), hard + v, now_ace)
                acc = [a + c * x for a, x in zip(acc, sub, strict=True)]
        self._memo[key] = acc
        return acc

    def final(self, shoe: Shoe, hole: int) -> list[Scaled]:
        """Outcomes with hole card ``hole`` (out of ``shoe``), or ``0``: the hole is drawn now."""
        up = self.upcard
        bj = blackjack_card(up)
        if hole:
            if hole == bj:
                return self._unit(D_BLACKJACK, sum(shoe))
            return self.draw(shoe, up + hole, up == 1 or hole == 1)
        if not any(shoe):  # no hole card: only "no blackjack" is known, if none is possible
            return [UNDEFINED] * D_BLACKJACK + [UNDEFINED if bj else self.zero]
        acc = [self.zero] * N_DEALER
        for v in range(1, 11):
            c = shoe[v - 1]
            if c:
                left = minus(shoe, v)
                sub = (self._unit(D_BLACKJACK, sum(left)) if v == bj
                       else self.draw(left, up + v, up == 1 or v == 1))
                acc = [a + c * x for a, x in zip(acc, sub, strict=True)]
        return acc


def factorials(n: int, exact: bool) -> list[Scaled]:
    fact: list[Scaled] = [1 if exact else 1.0]
    for k in range(1, n + 1):
        fact.append(fact[-1] * k)
    return fact


def scale(value: Scaled, den: int, exact: bool) -> Fraction | float:
    """``value / den``: a Fraction of two integers, or a float (a defined value only)."""
    if isinstance(value, Undefined) or exact and not isinstance(value, int):
        raise InternalError(f"scaled value {value!r} read as a result")  # callers check
    if exact:
        assert isinstance(value, int)
        return Fraction(value, den)
    return float(value) / float(den)


def dealer_final_distribution(
    shoe: tuple[int, ...], upcard: int, hole: int | None, hits_soft_17: bool, *,
    exact: bool = True,
) -> tuple[Fraction | float, ...]:
    """The dealer's final outcomes ``(17, 18, 19, 20, 21, bust, blackjack)``.

    ``shoe`` holds the cards left (without the upcard, and without ``hole`` when
    the hole card is known).  With ``hole=None`` the hole card is the next card
    drawn, and a blackjack is possible.

    >>> d = dealer_final_distribution((0,) * 9 + (3,), 1, None, False)
    >>> d[6]
    Fraction(1, 1)
    >>> [str(x) for x in dealer_final_distribution((0, 0, 0, 0, 1, 0, 0, 0, 0, 1), 6, 10, False)]
    ['0', '0', '0', '0', '1/2', '1/2', '0']
    """
    counts = check_shoe(shoe)
    if not 1 <= upcard <= 10 or (hole is not None and not 1 <= hole <= 10):
        raise ShoeError(f"card values are 1..10, got upcard {upcard}, hole {hole}")
    n = sum(counts)
    fact = factorials(n, exact)
    dealer = Dealer(upcard, hits_soft_17, fact)
    scaled = dealer.final(counts, hole or 0)
    if any(x is UNDEFINED for x in scaled):
        raise exhausted("dealer")
    return tuple(scale(x, math.factorial(n), exact) for x in scaled)


def check_shoe(shoe: tuple[int, ...]) -> Shoe:
    counts = tuple(int(c) for c in shoe)
    if len(counts) != 10 or any(c < 0 for c in counts):
        raise ShoeError(f"a shoe is ten non-negative counts (aces..tens), got {shoe!r}")
    if sum(counts) > MAX_CARDS:
        raise ImpossibleShoeError(
            f"exact split enumeration is for small shoes: {sum(counts)} cards "
            f"exceed the limit of {MAX_CARDS}")
    return counts


def sub_shoes(counts: tuple[int, ...]) -> int:
    """The sub-shoes of a shoe (each value's count plus one, multiplied): what a split
    round's exact enumeration visits."""
    return math.prod(c + 1 for c in counts)


def check_split_shoe(shoe: tuple[int, ...]) -> Shoe:
    """:func:`check_shoe`, and at most :data:`MAX_SUB_SHOES` sub-shoes: a split round visits
    nearly every sub-shoe (the dealer alone only those he can draw into)."""
    counts = check_shoe(shoe)
    visited = sub_shoes(counts)
    if visited > MAX_SUB_SHOES:
        raise ImpossibleShoeError(
            f"exact split enumeration is for small shoes: {sum(counts)} cards make "
            f"{visited:,} sub-shoes to enumerate (the product of each value's count plus "
            f"one); at most {MAX_SUB_SHOES:,}")
    return counts
