"""Bust It and Buster Blackjack: the dealer busts, paid by the number of cards in the busted
hand.

Bust It pushes when the player's first two cards are a blackjack (Buster
Blackjack pays some tables' bonus instead); a dealer
blackjack is not a bust (the bet loses); a dealer 22 is a bust.

Reading ``removed`` (the default) deals the player's two cards and the upcard
from the shoe before the dealer draws; the player's later hits are *not*
removed.  By exchangeability the dealer's cards are then a uniformly random
sequence of the full shoe, so only the player's blackjacks need their own
shoe::

    P(bust k, no player BJ) = P_shoe(bust k) - P(player BJ) * P_{shoe - A - T}(bust k)

Reading ``ignored`` lets the dealer draw from the shoe as if the player held no
cards, the player's blackjack being an independent event.  Either reading
needs at most 20 dealer draw-outs, whatever the number of decks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import perm
from typing import Literal

from analyzer.core.errors import ImpossibleShoeError, InternalError, RuleError
from analyzer.engine.dealer import dealer_bust_by_cards
from analyzer.sidebets.outcomes import Outcomes, removals_by_recount
from analyzer.sidebets.suitshoe import SuitShoe, card_value

EVENTS: dict[str, str] = {
    "bust-3": "bust with 3 cards",
    "bust-4": "bust with 4 cards",
    "bust-5": "bust with 5 cards",
    "bust-6": "bust with 6 cards",
    "bust-7": "bust with 7 cards",
    "bust-8+": "bust with 8 or more cards",
    "push": "player blackjack (push)",
    "lose": "dealer does not bust",
}
BustItReading = Literal["removed", "ignored"]
READINGS: dict[BustItReading, str] = {
    "removed": "the dealer draws from the shoe less the player's first two cards and the "
               "upcard; the player's later hits are not removed",
    "ignored": "the player's cards are not removed: the dealer draws from the shoe less the "
               "upcard, a player blackjack taken as independent of the dealer's cards",
}


def dealer_bust_profile(values: Sequence[int], hits_soft_17: bool) -> dict[int, Fraction]:
    """P(the dealer busts holding exactly k cards), upcard drawn from ``values`` too."""
    return dict(_profile(tuple(values), hits_soft_17))


@lru_cache(maxsize=256)  # Bust It and Buster, and their removals, share shoes
def _profile(values: tuple[int, ...], hits_soft_17: bool) -> tuple[tuple[int, Fraction], ...]:
    total = sum(values)
    out: dict[int, Fraction] = {}
    for upcard in range(1, 11):
        n_up = values[upcard - 1]
        if n_up == 0:
            continue
        rest = list(values)
        rest[upcard - 1] -= 1
        busts = dealer_bust_by_cards(rest, upcard, hits_soft_17=hits_soft_17, exact=True)
        for k, p in busts.items():
            if p:
                out[k] = out.get(k, Fraction(0)) + Fraction(n_up, total) * Fraction(p)
    return tuple(sorted(out.items()))


def _check_dealer_finishes(values: Sequence[int], reading: BustItReading) -> None:
    """Refuse a shoe the dealer could run out of: every card but the player's must reach 17."""
    cards = sorted(v for v in range(1, 11) for _ in range(values[v - 1]))
    player = cards[-2:] if reading == "removed" else []
    if len(cards) < 4:
        raise ImpossibleShoeError(f"a shoe of {len(cards)} cards cannot deal the player's two "
                                  "cards and the dealer's two")
    if sum(cards) - sum(player) < 17:  # a bound: it never lets a shoe that can run out by
        beside = "beside the player's two highest " if player else ""
        raise ImpossibleShoeError(
            f"a shoe of {len(cards)} cards is too small to be sure the dealer finishes "
            f"({reading} reading): the cards {beside}total {sum(cards) - sum(player)} "
            "(aces as 1), under 17")


def _split(shoe: SuitShoe, hits_soft_17: bool, reading: BustItReading, bonus: bool
           ) -> tuple[dict[int, Fraction], dict[int, Fraction], Fraction, int, str]:
    """P(dealer busts with k cards, no player blackjack), the same with a player blackjack,
    P(player blackjack), and the combinations and their unit that make these whole (the busts
with a blackjack too when ``bonus``)."""
    if reading not in READINGS:
        raise RuleError(f"unknown Bust It reading {reading!r} (use removed or ignored)")
    values = shoe.values()
    _check_dealer_finishes(values, reading)
    n = shoe.total
    p_bj = Fraction(2 * values[0] * values[9], n * (n - 1))
    full = dealer_bust_profile(values, hits_soft_17)
    if reading == "removed":
        cond: dict[int, Fraction] = {}
        if p_bj:
            without_bj = list(values)
            without_bj[0] -= 1
            without_bj[9] -= 1
            cond = dealer_bust_profile(without_bj, hits_soft_17)
        with_bj = {k: p_bj * p for k, p in cond.items()}
        win = {k: full.get(k, Fraction(0)) - with_bj.get(k, Fraction(0))
               for k in sorted(set(full) | set(cond))}
        length = 2 + max(_longest(win), _longest(with_bj) if bonus else 0)
        deals = perm(n, length)
        unit = (f"ordered deals of the round's first {length} cards (the player's two, "
                f"then the dealer's)")
    else:
        win = {k: p * (1 - p_bj) for k, p in sorted(full.items())}
        with_bj = {k: p * p_bj for k, p in sorted(full.items())}
        length = _longest(full)
        deals = perm(n, 2) * perm(n, length)
        unit = (f"pairs of ordered deals: the player's two cards, and the dealer's first "
                f"{length} cards from the full shoe")
    return win, with_bj, p_bj, deals, unit


def _rules_note(hits_soft_17: bool) -> str:
    return ("dealer " + ("hits" if hits_soft_17 else "stands on") + " soft 17; a dealer 22 "
            "is a bust; a dealer blackjack loses")


def _recounted(shoe: SuitShoe, removals: bool, count: Callable[[SuitShoe], Outcomes]
               ) -> Outcomes:
    """``count(shoe)``, with the counts less each card when asked (one recount per value)."""
    out = count(shoe)
    if not removals:
        return out
    removed, deals = removals_by_recount(shoe, count, lambda c: (card_value(c), 0))
    return Outcomes(out.counts, out.deals, out.unit, out.notes, removed, deals)


def outcomes(shoe: SuitShoe, *, hits_soft_17: bool = False,
             reading: BustItReading = "removed", removals: bool = False) -> Outcomes:
    """Exact Bust It outcomes; a combination is an ordered deal of the round's first L cards."""
    return _recounted(shoe, removals, lambda s: _bust_it(s, hits_soft_17, reading))


def _bust_it(shoe: SuitShoe, hits_soft_17: bool, reading: BustItReading) -> Outcomes:
    win, _, p_bj, deals, unit = _split(shoe, hits_soft_17, reading, bonus=False)
    probs = {f"bust-{k}": win.get(k, Fraction(0)) for k in range(3, 8)}
    probs["bust-8+"] = sum((p for j, p in win.items() if j >= 8), Fraction(0))
    probs["push"] = p_bj
    probs["lose"] = 1 - sum(probs.values(), Fraction(0))
    counts = {event: _whole(probs[event] * deals, event) for event in EVENTS}
    notes = (READINGS[reading], _rules_note(hits_soft_17) + "; a player blackjack pushes")
    return Outcomes(counts=counts, deals=deals, unit=unit, notes=notes)


BUSTER_EVENTS: dict[str, str] = {
    "bust-8+-bj": "bust with 8 or more cards, player blackjack",
    "bust-7-bj": "bust with 7 cards, player blackjack",
    "bust-8+": "bust with 8 or more cards (no player blackjack)",
    "bust-7": "bust with 7 cards (no player blackjack)",
    "bust-6": "bust with 6 cards",
    "bust-5": "bust with 5 cards",
    "bust-4": "bust with 4 cards",
    "bust-3": "bust with 3 cards",
    "lose": "dealer does not bust",
}


def buster_outcomes(shoe: SuitShoe, *, hits_soft_17: bool = False,
                    reading: BustItReading = "removed", removals: bool = False) -> Outcomes:
    """Exact Buster Blackjack outcomes: the dealer's bust by card count, split by the player's
    blackjack where 7 or more cards bust (the bonus some tables pay)."""
    return _recounted(shoe, removals, lambda s: _buster(s, hits_soft_17, reading))


def _buster(shoe: SuitShoe, hits_soft_17: bool, reading: BustItReading) -> Outcomes:
    win, with_bj, _, deals, unit = _split(shoe, hits_soft_17, reading, bonus=True)
    every = {k: win.get(k, Fraction(0)) + with_bj.get(k, Fraction(0))
             for k in set(win) | set(with_bj)}
    probs = {f"bust-{k}": every.get(k, Fraction(0)) for k in range(3, 7)}
    probs["bust-7"] = win.get(7, Fraction(0))
    probs["bust-7-bj"] = with_bj.get(7, Fraction(0))
    probs["bust-8+"] = sum((p for j, p in win.items() if j >= 8), Fraction(0))
    probs["bust-8+-bj"] = sum((p for j, p in with_bj.items() if j >= 8), Fraction(0))
    probs["lose"] = 1 - sum(probs.values(), Fraction(0))
    counts = {event: _whole(probs[event] * deals, event) for event in BUSTER_EVENTS}
    notes = (READINGS[reading], _rules_note(hits_soft_17) + "; the dealer plays out his hand "
             "when the player has a blackjack")
    return Outcomes(counts=counts, deals=deals, unit=unit, notes=notes)


def _longest(win: dict[int, Fraction]) -> int:
    """Most cards in a paid dealer bust: what the combinations must be dealt to."""
    return max((k for k, p in win.items() if p), default=0)


def _whole(x: Fraction, event: str) -> int:
    if x.denominator != 1:  # the dealer engine broke its exactness contract
        raise InternalError(f"Bust It {event}: {x} combinations is not a whole number")
    return x.numerator
