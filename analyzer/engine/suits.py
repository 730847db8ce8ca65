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
double would meet (the mean, and the law of the pays a distribution needs).  Split
hands play by their ranks; :func:`split_extras` is the joint law of what the bonus 21s
of one split round add, their suits dealt together.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from analyzer.core.errors import InternalError, UsageError
from analyzer.core.rules import Rules
from analyzer.core.ruleset import NO_SUIT_BONUS, suit_bonuses

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


Law = tuple[tuple[Fraction, Fraction], ...]  # (pay, chance) of a winning 21, by pay


@dataclass(frozen=True)
class SuitState:
    """One case of the suits a player sees (own two cards, the upcard where it counts)."""

    chance: Fraction
    hit_pay: Fraction  # the pay a 21 made by hitting meets, averaged over the card's suit
    double_pay: Fraction  # ... made by doubling (1 where doubles are paid 1:1, BND)
    label: str = ""  # what the player sees ("one suit, spades; the upcard in another suit")
    hit_law: Law = ()  # the pays behind ``hit_pay``, each with its chance (a distribution
    double_law: Law = ()  # needs them, not their mean)


def _law(pays: dict[Fraction, Fraction]) -> Law:
    total = sum(pays.values(), Fraction(0))
    return tuple((x, p / total) for x, p in sorted(pays.items()) if p)


def _mean(law: Law) -> Fraction:
    return sum((x * p for x, p in law), Fraction(0))


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
    chances: dict[str, Fraction] = {}
    hits: dict[str, dict[Fraction, Fraction]] = {}
    doubles: dict[str, dict[Fraction, Fraction]] = {}
    for chance, suits in _sequences(seen, d):
        label = _label((suits[0], suits[1]), suits[2] if len(suits) == 3 else None)
        chances[label] = chances.get(label, Fraction(0)) + chance
        hit, dbl = hits.setdefault(label, {}), doubles.setdefault(label, {})
        known = [s for r, s in zip(seen, suits, strict=True) if r == third]
        for s in range(SUITS):
            left = d - known.count(s)
            if left <= 0:
                continue
            p = chance * Fraction(left, SUITS * d - len(known))
            trio = (suits[0], suits[1], s)
            h = pay(rules, ranks, trio, super_bonus=upcard == 7)
            x = Fraction(1) if rules.bonus_not_doubled else pay(rules, ranks, trio,
                                                                 super_bonus=False)
            hit[h] = hit.get(h, Fraction(0)) + p
            dbl[x] = dbl.get(x, Fraction(0)) + p
    states = []
    for label in sorted(chances):
        hit_law, double_law = _law(hits[label]), _law(doubles[label])
        states.append(SuitState(chances[label], _mean(hit_law), _mean(double_law), label,
                                hit_law, double_law))
    return tuple(states)


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
    groups: dict[tuple[Fraction, Fraction], list[SuitState]] = {}
    for case in suit_cases(rules, hand, upcard):
        groups.setdefault((case.hit_pay, case.double_pay), []).append(case)
    return tuple(_merged(group) for _, group in sorted(groups.items()))


def _merged(cases: Sequence[SuitState]) -> SuitState:
    """Cases the player plays alike, as one: their chances added, their laws mixed."""
    chance = sum((c.chance for c in cases), Fraction(0))
    laws = []
    for of_case in ([c.hit_law for c in cases], [c.double_law for c in cases]):
        mixed: dict[Fraction, Fraction] = {}
        for case, law in zip(cases, of_case, strict=True):
            for x, p in law:
                mixed[x] = mixed.get(x, Fraction(0)) + case.chance * p
        laws.append(_law(mixed))
    return SuitState(chance, _mean(laws[0]), _mean(laws[1]), "", laws[0], laws[1])


def unseen_state(rules: Rules, hand: tuple[int, int], upcard: int) -> SuitState | None:
    """The suit cases of a two-card hand as one, for a player who does not read suits: the
    pays his hit and his double meet over every suit (None: suits pay nothing here)."""
    cases = suit_cases(rules, hand, upcard)
    return _merged(cases) if cases else None


# the bonus 21s, by kind (0: 6-7-8, 1: 7-7-7)
THREE_RANKS: tuple[tuple[int, int, int], ...] = ((6, 7, 8), (7, 7, 7))

Used = tuple[tuple[int, ...], ...]  # per suit (spades at SPADES): its 6s, 7s, 8s dealt so far


def _suit_draws(used: Used, ranks: tuple[int, ...], d: int,
                ) -> Iterator[tuple[int, tuple[int, ...], Used]]:
    """Every suit sequence of cards of ``ranks`` dealt after ``used``, with its weight: the
    product of the cards of each drawn suit left (its chance times the product of the
    cards of each drawn rank left, which is the same on every path)."""
    if not ranks:
        yield 1, (), used
        return
    row = ranks[0] - 6
    for s in range(SUITS):
        suit = used[s]
        left = d - suit[row]
        if left <= 0:
            continue
        grown = (*suit[:row], suit[row] + 1, *suit[row + 1:])
        after = (*used[:s], grown, *used[s + 1:])
        for ways, rest, final in _suit_draws(after, ranks[1:], d):
            yield left * ways, (s, *rest), final


def _alike(used: Used) -> Used:
    """``used`` with the three suits other than spades in a fixed order: the draws and the
    pays treat them alike, so states that differ only in their order merge.  Spades stay
    at their index (:data:`SPADES`), where the next draws and :func:`pay` look for them."""
    others = sorted(used[:SPADES] + used[SPADES + 1:])
    return (*others[:SPADES], used[SPADES], *others[SPADES:])


@lru_cache(maxsize=256)
def split_extras(rules: Rules, hands: tuple[tuple[int, int], ...], scale: int,
                 ) -> tuple[tuple[int, Fraction], ...]:
    """What winning bonus 21s of split hands add to their 1:1 pay, together: ``(extra,
    chance)`` pairs, the extra in units of ``1 / scale`` of the bet.

    ``hands`` gives each such hand's kind (0: 6-7-8, 1: 7-7-7) and stake.  Split hands
    play by their ranks, so their suits are what the model says of any cards of those
    ranks: drawn without replacement from ``rules.deck_count`` cards of each suit per
    rank, every other card of the round unseen.  Two hands sharing a rank are not
    independent (two 7-7-7 in one suit need six 7s of it), so the hands are dealt their
    suits one after another, the suits used so far carried along.

    In integers: the ``k``-th card of a rank is of suit ``s`` with chance ``(d - k_s) /
    (4d - k)``, and ``4d - k`` is the same on every path (every path deals the same
    ranks), so each path's weight is the product of its numerators, divided once by the
    product of the denominators.
    """
    d = rules.deck_count
    gains: dict[tuple[int, int, bool, bool], int] = {}

    def gain(kind: int, stake: int, suits: tuple[int, ...]) -> int:
        key = (kind, stake, len(set(suits)) == 1, suits[0] == SPADES)
        if key not in gains:
            ranks = THREE_RANKS[kind]
            value = (pay(rules, ranks, (suits[0], suits[1], suits[2]), super_bonus=False)
                     - 1) * stake * scale
            if value.denominator != 1:
                raise InternalError(f"a bonus of {value / scale / stake + 1} is not a "
                                    f"whole number of 1/{scale} units")
            gains[key] = int(value)
        return gains[key]

    states: dict[Used, dict[int, int]] = {((0, 0, 0),) * SUITS: {0: 1}}
    dealt = [0, 0, 0]  # 6s, 7s, 8s dealt so far, on every path
    den = 1
    for kind, stake in hands:
        ranks = THREE_RANKS[kind]
        for r in ranks:
            den *= SUITS * d - dealt[r - 6]
            dealt[r - 6] += 1
        after: dict[Used, dict[int, int]] = {}
        for used, law in states.items():
            for ways, suits, final in _suit_draws(used, ranks, d):
                extra = gain(kind, stake, suits)
                into = after.setdefault(_alike(final), {})
                for x, w in law.items():
                    into[x + extra] = into.get(x + extra, 0) + w * ways
        states = after
    total: dict[int, int] = {}
    for law in states.values():
        for x, w in law.items():
            total[x] = total.get(x, 0) + w
    return tuple(sorted((x, Fraction(w, den)) for x, w in total.items() if w))


def suit_scale(rules: Rules) -> int:
    """The least common denominator of the suit bonuses' pays (1 without them): results
    counted in these units are whole."""
    pays = [*rules.bonus_678, *rules.bonus_777, Fraction(rules.super_bonus),
            Fraction(rules.suited_blackjack)] if suit_bonuses(rules) else []
    return math.lcm(1, *(Fraction(x).denominator for x in pays))


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
    names = [_plural(v) for v in over]
    which = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return (f"suit bonuses read suits from what is left of {decks}, and this shoe holds "
            f"more {which} than {'they do' if rules.decks > 1 else 'it does'}")


def _plural(value: int) -> str:
    """A value's cards named in a sentence: ``aces``, ``7s``, ``ten-valued cards``."""
    return {1: "aces", 10: "ten-valued cards"}.get(value, f"{value}s")


__all__ = ["NEAR_678", "NEAR_777", "THREE_RANKS", "Law", "SuitState", "ThreePays", "case_label",
           "completing_rank", "pay", "split_extras", "suit_cases", "suit_scale",
           "suit_shoe_refusal", "suit_states", "suited_blackjack_pays", "three_card_pays",
           "unseen_state"]
