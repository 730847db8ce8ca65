"""Suits: the bonuses on a three-card 21 of 6-7-8 or 7-7-7, the Super Bonus, a suited
blackjack.

The engine counts ranks; suits enter only where a payout reads them.  The model: the
shoe is what is left of ``rules.decks`` full decks, ``d`` cards of each suit in each
rank (Spanish decks too: only the 10s are taken out).  Cards gone before the round were
not seen, so every unseen card of a rank is equally likely to be any of that rank's
physical cards: the next card of rank ``r`` is of suit ``s`` with chance
``(d - k_s) / (4d - k)``, where ``k`` cards of rank ``r`` have been seen, ``k_s`` of
them of suit ``s``.  Suits of different ranks are independent; so a 6-7-8 is of one
suit with chance 1/16 whatever the shoe, and three 7s with chance
``4 C(d, 3) / C(4d, 3)`` (never from one deck).

A three-card 21 stands (nothing is gained by drawing to a hard 21), so the suits of a
hand matter only at its two-card decision, and there only for 6-7, 6-8, 7-8 (one card
from 6-7-8) and 7-7.  :func:`three_card_pays` gives the pay of such a 21 averaged over
suits (what a player who ignores suits meets); :func:`suit_states` the suit cases of a
two-card hand the player can see, each with its chance and the pay its hit and its
double would meet.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from analyzer.core.errors import UsageError
from analyzer.core.rules import Rules
from analyzer.core.ruleset import NO_SUIT_BONUS

SUITS = 4
SPADES = 0  # suits are 0..3; which one is spades only matters for the spades pay

# the two-card hands one card from a bonus 21, and the rank that completes each
NEAR_678 = {(6, 7): 8, (6, 8): 7, (7, 8): 6}
NEAR_777 = {(7, 7): 7}

ThreePays = tuple[Fraction, Fraction]  # a winning three-card 21 of 6-7-8, 7-7-7: its pay


def _sequences(ranks: Sequence[int], d: int) -> Iterator[tuple[Fraction, tuple[int, ...]]]:
    """Every suit sequence of cards of ``ranks`` dealt in order, with its chance."""
    def extend(i: int, suits: tuple[int, ...], chance: Fraction,
               ) -> Iterator[tuple[Fraction, tuple[int, ...]]]:
        if i == len(ranks):
            yield chance, suits
            return
        seen = [s for r, s in zip(ranks[:i], suits, strict=True) if r == ranks[i]]
        for s in range(SUITS):
            left = d - seen.count(s)
            if left > 0:
                yield from extend(i + 1, (*suits, s),
                                  chance * Fraction(left, SUITS * d - len(seen)))
    yield from extend(0, (), Fraction(1))


def pay(rules: Rules, ranks: tuple[int, int, int], suits: tuple[int, int, int],
        super_bonus: bool) -> Fraction:
    """What a winning three-card 21 of these cards pays (``super_bonus``: the Super Bonus
    applies to this hand: unsplit, undoubled, against a dealer 7)."""
    pays = rules.bonus_777 if ranks == (7, 7, 7) else rules.bonus_678
    one_suit = len(set(suits)) == 1
    if one_suit and super_bonus and ranks == (7, 7, 7) and rules.super_bonus:
        return rules.super_bonus
    return pays[2] if one_suit and suits[0] == SPADES else pays[1] if one_suit else pays[0]


@lru_cache(maxsize=64)
def three_card_pays(rules: Rules, super_bonus: bool) -> ThreePays | None:
    """The pay of a winning 6-7-8 and of a winning 7-7-7, averaged over their suits (None:
    no suit bonus, every 21 pays 1:1)."""
    if rules.bonus_678 == NO_SUIT_BONUS and rules.bonus_777 == NO_SUIT_BONUS and not (
            super_bonus and rules.super_bonus):
        return None
    result = []
    for ranks in ((6, 7, 8), (7, 7, 7)):
        result.append(sum((chance * pay(rules, ranks, (a, b, c), super_bonus)
                           for chance, (a, b, c) in _sequences(ranks, rules.deck_count)),
                          Fraction(0)))
    return result[0], result[1]


def completing_rank(rules: Rules, hand: tuple[int, int], upcard: int) -> int | None:
    """The rank that makes a bonus 21 of this two-card hand (sorted), if its suits matter."""
    if hand in NEAR_678 and rules.bonus_678 != NO_SUIT_BONUS:
        return NEAR_678[hand]
    if hand in NEAR_777 and (rules.bonus_777 != NO_SUIT_BONUS
                             or (rules.super_bonus and upcard == 7)):
        return NEAR_777[hand]
    return None


@dataclass(frozen=True)
class SuitState:
    """One case of the suits a player sees (own two cards, the upcard where it counts)."""

    chance: Fraction
    hit_pay: Fraction  # the pay a 21 made by hitting meets, averaged over the card's suit
    double_pay: Fraction  # ... made by doubling (1 where doubles are paid 1:1, BND)
    label: str = ""  # what the player sees ("one suit, spades; the upcard in another suit")


def _label(hand_suits: tuple[int, int], up_suit: int | None) -> str:
    if hand_suits[0] != hand_suits[1]:
        return "mixed suits"
    shown = "one suit, spades" if hand_suits[0] == SPADES else "one suit, not spades"
    if up_suit is None:
        return shown
    return shown + ("; the upcard in the hand's suit" if up_suit == hand_suits[0]
                    else "; the upcard in another suit")


@lru_cache(maxsize=256)
def suit_cases(rules: Rules, hand: tuple[int, int], upcard: int) -> tuple[SuitState, ...]:
    """The suit cases of a two-card hand one card from a bonus 21, as the player tells them
    apart (empty where suits do not matter for it): the hand in mixed suits, in one suit
    (spades or not), and where the upcard is of the completing rank, whether it is of the
    hand's suit.  The cases within one label pay alike, by the suits' symmetry.

    The hole card and the cards gone before are unseen, so they change no chance.
    """
    third = completing_rank(rules, hand, upcard)
    if third is None:
        return ()
    d = rules.deck_count
    seen = (*hand, upcard) if upcard == third else hand
    ranks = (hand[0], hand[1], third)
    cases: dict[str, tuple[Fraction, Fraction, Fraction]] = {}
    for chance, suits in _sequences(seen, d):
        known = [s for r, s in zip(seen, suits, strict=True) if r == third]
        hit = dbl = Fraction(0)
        for s in range(SUITS):
            left = d - known.count(s)
            if left <= 0:
                continue
            p = Fraction(left, SUITS * d - len(known))
            trio = (suits[0], suits[1], s)
            hit += p * pay(rules, ranks, trio, super_bonus=upcard == 7)
            dbl += p * pay(rules, ranks, trio, super_bonus=False)
        if rules.bonus_not_doubled:
            dbl = Fraction(1)
        label = _label((suits[0], suits[1]), suits[2] if len(suits) == 3 else None)
        p_all, h_all, d_all = cases.get(label, (Fraction(0),) * 3)
        cases[label] = (p_all + chance, h_all + chance * hit, d_all + chance * dbl)
    return tuple(SuitState(p, h / p, x / p, label)
                 for label, (p, h, x) in sorted(cases.items()))


def case_label(rules: Rules, hand: tuple[int, int], upcard: int, hand_suits: tuple[int, int],
               upcard_suit: int) -> str:
    """The :func:`suit_cases` label of a two-card hand (sorted ranks) dealt in these suits
    (0-3, 0 spades) against an upcard of this suit: what the player sees of them."""
    if not all(isinstance(x, int) and 0 <= x < SUITS for x in (*hand_suits, upcard_suit)):
        raise UsageError(f"suits are 0 to {SUITS - 1} (0 spades), not {hand_suits!r} and "
                         f"{upcard_suit!r}")
    counts = upcard == completing_rank(rules, hand, upcard)
    return _label(hand_suits, upcard_suit if counts else None)


@lru_cache(maxsize=256)
def suit_states(rules: Rules, hand: tuple[int, int], upcard: int) -> tuple[SuitState, ...]:
    """:func:`suit_cases` merged where their pays agree (the fewer cases to value)."""
    merged: dict[tuple[Fraction, Fraction], Fraction] = {}
    for case in suit_cases(rules, hand, upcard):
        key = (case.hit_pay, case.double_pay)
        merged[key] = merged.get(key, Fraction(0)) + case.chance
    return tuple(SuitState(chance, hit, dbl) for (hit, dbl), chance in sorted(merged.items()))


def suited_blackjack_pays(rules: Rules) -> Fraction:
    """A natural's pay averaged over suits: an ace and a ten-valued card share a suit with
    chance 1/4 (their ranks differ, so their suits are independent)."""
    if not rules.suited_blackjack:
        return rules.blackjack_pays
    return Fraction(1, SUITS) * rules.suited_blackjack + Fraction(SUITS - 1, SUITS) * \
        rules.blackjack_pays


def suit_shoe_refusal(rules: Rules, counts: Sequence[int]) -> str | None:
    """Why suits cannot be read from this shoe: it holds more of a rank than the rules'
    decks do (the suits are modelled as what is left of those decks)."""
    full = rules.full_shoe().counts
    over = [v for v in range(1, 11) if counts[v - 1] > full[v - 1]]
    if not over:
        return None
    decks = f"{rules.decks} full deck{'s' if rules.decks > 1 else ''}"
    return (f"suit bonuses read suits from what is left of {decks}, and this shoe holds "
            f"more {'/'.join(map(str, over))}s than {'they do' if rules.decks > 1 else 'it does'}")


__all__ = ["NEAR_678", "NEAR_777", "SuitState", "ThreePays", "case_label", "completing_rank",
           "pay",
           "suit_cases", "suit_shoe_refusal", "suit_states", "suited_blackjack_pays",
           "three_card_pays"]
