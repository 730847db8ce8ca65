"""Bust It: the dealer busts, paid by the number of cards in the busted hand.

The bet pushes when the player's first two cards are a blackjack; a dealer
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

from collections.abc import Sequence
from fractions import Fraction
from math import perm

from analyzer.core.errors import ImpossibleShoeError, InternalError, RuleError
from analyzer.engine.dealer import dealer_bust_by_cards
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.suitshoe import SuitShoe

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
READINGS = {
    "removed": "the dealer draws from the shoe less the player's first two cards and the "
               "upcard; the player's later hits are not removed",
    "ignored": "the player's cards are not removed: the dealer draws from the shoe less the "
               "upcard, a player blackjack taken as independent of the dealer's cards",
}


def dealer_bust_profile(values: Sequence[int], hits_soft_17: bool) -> dict[int, Fraction]:
    """P(the dealer busts holding exactly k cards), upcard drawn from ``values`` too."""
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
    return out


def _check_dealer_finishes(values: Sequence[int], reading: str) -> None:
    """Refuse a shoe the dealer could run out of: every card but the player's must reach 17."""
    cards = sorted(v for v in range(1, 11) for _ in range(values[v - 1]))
    player = cards[-2:] if reading == "removed" else []
    if len(cards) < 4 or sum(cards) - sum(player) < 17:
        raise ImpossibleShoeError(f"a shoe of {len(cards)} cards can run out before the dealer "
                                  "finishes")


def outcomes(shoe: SuitShoe, *, hits_soft_17: bool = False, reading: str = "removed") -> Outcomes:
    """Exact Bust It outcomes; a combination is an ordered deal of the round's first L cards."""
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
        win = {k: full.get(k, Fraction(0)) - p_bj * cond.get(k, Fraction(0))
               for k in sorted(set(full) | set(cond))}
        length = 2 + _longest(win)
        deals = perm(n, length)
        unit = (f"ordered deals of the round's first {length} cards (the player's two, "
                f"then the dealer's)")
    else:
        win = {k: p * (1 - p_bj) for k, p in sorted(full.items())}
        length = _longest(win)
        deals = perm(n, 2) * perm(n, length)
        unit = (f"pairs of ordered deals: the player's two cards, and the dealer's first "
                f"{length} cards from the full shoe")
    probs = {f"bust-{k}": win.get(k, Fraction(0)) for k in range(3, 8)}
    probs["bust-8+"] = sum((p for j, p in win.items() if j >= 8), Fraction(0))
    probs["push"] = p_bj
    probs["lose"] = 1 - sum(probs.values(), Fraction(0))
    counts = {event: _whole(probs[event] * deals, event) for event in EVENTS}
    notes = (
        READINGS[reading],
        "dealer " + ("hits" if hits_soft_17 else "stands on") + " soft 17; a dealer 22 is a "
        "bust; a dealer blackjack loses; a player blackjack pushes",
    )
    return Outcomes(counts=counts, deals=deals, unit=unit, notes=notes)


def _longest(win: dict[int, Fraction]) -> int:
    """Most cards in a paid dealer bust: what the combinations must be dealt to."""
    return max((k for k, p in win.items() if p), default=0)


def _whole(x: Fraction, event: str) -> int:
    if x.denominator != 1:  # the dealer engine broke its exactness contract
        raise InternalError(f"Bust It {event}: {x} combinations is not a whole number")
    return x.numerator
