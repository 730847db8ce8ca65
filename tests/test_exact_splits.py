"""The exact whole-round split EV (analyzer.oracle.exact_splits) on hand-checkable shoes.

Forced shoes (every card a ten, every card an eight, ...) have one outcome that
can be worked out by hand; on small mixed shoes the result is compared with
naive enumerations written here: a few-line sum over the two second cards and
the dealer (stand-only, no resplit), and a card-by-card simulation of the whole
round as the casino deals it (hole card first under a peek), with hits, doubles
and resplits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.cards import hand_total
from analyzer.core.errors import ShoeError
from analyzer.oracle.exact_dealer import dealer_final_distribution
from analyzer.oracle.exact_splits import exact_split_ev

Comp = tuple[int, ...]
Decide = Callable[[Comp, frozenset[int]], int]


def shoe_of(**counts: int) -> tuple[int, ...]:
    """``shoe_of(t=8, a=2, c5=1)``: counts by name (a, c2..c9, t)."""
    names = ["a"] + [f"c{v}" for v in range(2, 10)] + ["t"]
    assert set(counts) <= set(names)
    return tuple(counts.get(name, 0) for name in names)


def cards_of(comp: Comp) -> list[int]:
    return [v for v in range(1, 11) for _ in range(comp[v - 1])]


def always(action: int) -> Decide:
    def decide(comp: Comp, options: frozenset[int]) -> int:
        return action if action in options else STAND
    return decide


def basic(comp: Comp, options: frozenset[int]) -> int:
    """A rough fixed strategy: double 10-11, hit hard < 17 and soft < 18."""
    total, soft = hand_total(cards_of(comp))
    if DOUBLE in options and total in (10, 11) and not soft:
        return DOUBLE
    return HIT if total < (18 if soft else 17) else STAND


def quirky(comp: Comp, options: frozenset[int]) -> int:
    """An arbitrary rule that hits some 21s and doubles odd hands, to reach odd paths."""
    key = sum(n * (v * 7 + 3) for v, n in enumerate(comp)) % 5
    total, _ = hand_total(cards_of(comp))
    if key == 0 and DOUBLE in options:
        return DOUBLE
    if total >= 19 and key != 1:
        return STAND
    return HIT if key in (1, 2, 3) or total < 12 else STAND


def ev(shoe: tuple[int, ...], upcard: int, pair: int, *, max_hands: int = 4,
       one_card: bool = False, decide: Decide = basic, das: bool = True,
       h17: bool = False, peek: bool = True, bj_loses_all: bool = True,
       exact: bool = True) -> Fraction | float:
    return exact_split_ev(shoe, upcard, pair, max_hands=max_hands, one_card=one_card,
                          decide=decide, double_allowed=lambda comp: das, hits_soft_17=h17,
                          peek=peek, bj_loses_all=bj_loses_all, exact=exact)


# ---------------------------------------------------------------- forced outcomes


@pytest.mark.parametrize("max_hands", [2, 3, 4])
@pytest.mark.parametrize("peek", [True, False])
def test_all_tens_eights_against_seven(max_hands: int, peek: bool) -> None:
    # Each hand 8+T = 18 (stands), dealer 7+T = 17: two winning hands.
    assert ev(shoe_of(t=10), 7, 8, max_hands=max_hands, peek=peek) == 2


def test_all_tens_doubles_bust_and_hands_of_twenty_push() -> None:
    tens = shoe_of(t=10)
    # 9+T doubled with a ten = 29: two doubled busts.
    assert ev(tens, 7, 9, decide=always(DOUBLE)) == -4
    # T+T = 20 against dealer 10+T = 20 (peek: the hole is not an ace): pushes.
    assert ev(tens, 10, 10, decide=always(STAND)) == 0


@pytest.mark.parametrize("upcard, expected", [(9, 2), (10, 2), (7, 2)])
def test_split_aces_one_card_all_tens(upcard: int, expected: int) -> None:
    # A+T after a split is 21, not a blackjack; it beats 19, 20 and 17.
    assert ev(shoe_of(t=10), upcard, 1, one_card=True, max_hands=2) == expected


@pytest.mark.parametrize("max_hands", [2, 3, 4])
def test_split_aces_resplit_forced_by_an_all_ace_shoe(max_hands: int) -> None:
    # Every drawn ace is resplit up to max_hands; then A+A = 12 stands (one card)
    # against dealer 9+A = 20: every hand loses.
    assert ev(shoe_of(a=12), 9, 1, one_card=True, max_hands=max_hands) == -max_hands


@pytest.mark.parametrize("max_hands", [2, 3, 4])
def test_resplit_forced_by_an_all_eight_shoe(max_hands: int) -> None:
    eights = shoe_of(c8=14)
    # Hands of 8+8 stand; dealer 7+8+8 = 23 busts: every hand wins.
    assert ev(eights, 7, 8, decide=always(STAND), max_hands=max_hands) == max_hands
    # Doubling 8+8 draws an 8: 24, every doubled hand loses 2.
    assert ev(eights, 7, 8, decide=always(DOUBLE), max_hands=max_hands) == -2 * max_hands


def test_decide_is_asked_with_the_right_options() -> None:
    seen: dict[Comp, frozenset[int]] = {}

    def record(comp: Comp, options: frozenset[int]) -> int:
        seen[comp] = options
        return HIT if hand_total(cards_of(comp))[0] < 21 else STAND

    shoe = shoe_of(a=1, c2=1, c3=2, t=4)
    exact_split_ev(shoe, 6, 8, max_hands=2, one_card=False, decide=record,
                   double_allowed=lambda comp: comp[2] == 1, hits_soft_17=False, peek=True)
    assert seen[shoe_of(c3=1, c8=1)] == {STAND, HIT, DOUBLE}  # 8-3, double allowed
    assert seen[shoe_of(c2=1, c8=1)] == {STAND, HIT}  # 8-2, not allowed
    assert seen[shoe_of(c2=1, c3=1, c8=1)] == {STAND, HIT}  # after a hit
    assert shoe_of(a=1, c2=1, c8=1) in seen  # 21 is still asked
    assert all(hand_total(cards_of(c))[0] <= 21 for c in seen)  # never a busted hand


# ---------------------------------------------------------------- dealer blackjack


@pytest.mark.parametrize("bj_loses_all, expected", [(True, -4), (False, -1)])
def test_no_peek_dealer_blackjack(bj_loses_all: bool, expected: int) -> None:
    # A,A split (not one-card) doubles to A+T+T = 21; the dealer's A+T is a blackjack.
    assert ev(shoe_of(t=10), 1, 1, decide=always(DOUBLE), peek=False,
              bj_loses_all=bj_loses_all) == expected


def test_peek_conditions_on_no_blackjack() -> None:
    # Under a peek the ten up has no ace in the hole: it is the ten, dealer 20.
    shoe = shoe_of(a=1, t=10)
    peeked = ev(shoe, 10, 10, max_hands=2, decide=always(STAND), peek=True)
    assert peeked == brute_force(shoe, 10, 10, max_hands=2, decide=always(STAND), peek=True)
    with pytest.raises(ValueError, match="blackjack"):
        ev(shoe_of(t=10), 1, 8, peek=True)  # every hole card would complete a blackjack


# ---------------------------------------------------------------- naive enumerations


def draws(counts: tuple[int, ...], skip: int = 0) -> Iterator[tuple[int, Fraction,
                                                                     tuple[int, ...]]]:
    """Each next card (not of value ``skip``), its probability and the cards left."""
    n = sum(c for v, c in enumerate(counts, 1) if v != skip)
    assert n > 0, "a test shoe ran out of cards"
    for v, c in enumerate(counts, 1):
        if c and v != skip:
            yield v, Fraction(c, n), counts[: v - 1] + (c - 1,) + counts[v:]


def dealer_totals(counts: tuple[int, ...], cards: list[int], h17: bool) -> dict[int, Fraction]:
    """Final dealer totals (22: bust, 99: blackjack) from ``cards`` on, drawing from counts."""
    total, soft = hand_total(cards)
    if len(cards) == 2 and total == 21:
        return {99: Fraction(1)}
    if total > 21 or total > 17 or (total == 17 and not (soft and h17)):
        return {min(total, 22): Fraction(1)}
    out: dict[int, Fraction] = {}
    for v, p, rest in draws(counts):
        for t, q in dealer_totals(rest, cards + [v], h17).items():
            out[t] = out.get(t, Fraction(0)) + p * q
    return out


def settle(hands: list[tuple[int, int]], dealer: int, bj_loses_all: bool) -> int:
    """``hands``: (total, bet); dealer 22 = bust, 99 = blackjack."""
    if dealer == 99:
        return -sum(b for _, b in hands) if bj_loses_all else -1
    return sum(-b if t > 21 else b if dealer == 22 or t > dealer else 0 if t == dealer else -b
               for t, b in hands)


@pytest.mark.parametrize("up, peek", [(7, True), (7, False), (10, False), (1, False)])
def test_stand_only_two_hands_is_a_direct_sum(up: int, peek: bool) -> None:
    # Second card c1 to hand 1, c2 to hand 2, then the dealer (hole card first; a
    # no-peek blackjack takes both bets): no resplit at max_hands=2.
    shoe, pair = shoe_of(a=1, c2=2, c5=1, c6=2, c8=1, c9=2, t=4), 8
    expected = Fraction(0)
    for c1, p1, rest1 in draws(shoe):
        for c2, p2, rest2 in draws(rest1):
            totals = [hand_total([pair, c])[0] for c in (c1, c2)]
            for d, q in dealer_totals(rest2, [up], False).items():
                expected += p1 * p2 * q * settle([(t, 1) for t in totals], d, True)
    assert ev(shoe, up, pair, max_hands=2, decide=always(STAND), peek=peek) == expected


def brute_force(shoe: tuple[int, ...], up: int, pair: int, *, max_hands: int,
                decide: Decide, one_card: bool = False, das: bool = True, h17: bool = False,
                peek: bool = True, bj_loses_all: bool = True) -> Fraction:
    """The round card by card, as dealt: hands as explicit lists, no memo, no cleverness."""
    bj = {1: 10, 10: 1}.get(up, 0)

    def dealer_phase(counts: tuple[int, ...], hole: int | None,
                     hands: list[tuple[int, int]]) -> Fraction:
        if all(t > 21 for t, _ in hands):  # the dealer's hits decide nothing
            if hole is not None:
                return Fraction(settle(hands, 99 if hole == bj else 22, bj_loses_all))
            if bj_loses_all or not bj:
                return Fraction(-sum(b for _, b in hands))
        if hole is None:  # the hole card is the dealer's first card after the players
            return sum((p * dealer_phase(rest, v, hands) for v, p, rest in draws(counts)),
                       Fraction(0))
        return sum((q * settle(hands, d, bj_loses_all)
                    for d, q in dealer_totals(counts, [up, hole], h17).items()), Fraction(0))

    def step(counts: tuple[int, ...], hole: int | None, hands: list[list[int]],
             bets: list[int], i: int, stood: bool) -> Fraction:
        if i == len(hands):
            return dealer_phase(counts, hole, [(hand_total(h)[0], b)
                                               for h, b in zip(hands, bets, strict=True)])
        hand = hands[i]
        if len(hand) == 1:  # needs its second card
            out = Fraction(0)
            for v, p, rest in draws(counts):
                if v == pair and len(hands) < max_hands:
                    new = hands[: i + 1] + [[pair]] + hands[i + 1:]
                    out += p * step(rest, hole, new, bets + [1], i, False)
                else:
                    new = hands[:i] + [hand + [v]] + hands[i + 1:]
                    out += p * step(rest, hole, new, bets, i + one_card, one_card)
            return out
        total = hand_total(hand)[0]
        if stood or total > 21:
            return step(counts, hole, hands, bets, i + 1, False)
        comp = tuple(hand.count(v) for v in range(1, 11))
        options = {STAND, HIT} | ({DOUBLE} if len(hand) == 2 and das else set())
        action = decide(comp, frozenset(options))
        if action == STAND:
            return step(counts, hole, hands, bets, i + 1, False)
        out = Fraction(0)
        for v, p, rest in draws(counts):
            new = hands[:i] + [hand + [v]] + hands[i + 1:]
            if action == DOUBLE:
                out += p * step(rest, hole, new, bets[:i] + [2] + bets[i + 1:], i + 1, False)
            else:
                out += p * step(rest, hole, new, bets, i, False)
        return out

    if peek and bj:  # the hole card first, among the cards not making a blackjack
        return sum((p * step(rest, v, [[pair], [pair]], [1, 1], 0, False)
                    for v, p, rest in draws(shoe, skip=bj)), Fraction(0))
    return step(shoe, None, [[pair], [pair]], [1, 1], 0, False)


# 12 cards: no sequence needs a card the shoe lacks, except dealer hits behind busted
# hands in some cases (which decide nothing, and both sides skip).
TINY = shoe_of(a=1, c2=1, c3=1, c4=1, c6=1, c8=1, t=6)
CASES = [
    # (upcard, pair, max_hands, one_card, decide, das, h17, peek, bj_loses_all)
    (10, 8, 4, False, basic, True, False, True, True),
    (10, 8, 4, False, basic, True, False, False, True),
    (10, 8, 3, False, quirky, True, True, False, False),
    (1, 8, 4, False, quirky, True, True, True, True),
    (1, 3, 4, False, basic, False, True, False, False),
    (6, 3, 4, False, quirky, True, True, True, True),
    (1, 1, 4, True, basic, True, False, True, True),
    (10, 1, 3, True, basic, True, False, False, False),
    (5, 1, 4, False, quirky, True, True, False, True),
]


@pytest.mark.parametrize("case", CASES)
def test_whole_round_against_card_by_card_simulation(case: tuple[object, ...]) -> None:
    up, pair, hands, one_card, decide, das, h17, peek, bj_all = case
    assert isinstance(up, int) and isinstance(pair, int) and isinstance(hands, int)
    assert callable(decide)
    kw = dict(one_card=bool(one_card), das=bool(das), h17=bool(h17), peek=bool(peek))
    got = ev(TINY, up, pair, max_hands=hands, decide=decide, bj_loses_all=bool(bj_all), **kw)
    want = brute_force(TINY, up, pair, max_hands=hands, decide=decide,
                       bj_loses_all=bool(bj_all), **kw)
    assert got == want


# ---------------------------------------------------------------- arithmetic, errors


def test_exact_and_float_agree() -> None:
    shoe = shoe_of(a=1, c2=1, c3=2, c4=1, c5=2, c6=1, c7=1, c8=1, c9=1, t=5)
    for peek in (True, False):
        exact = ev(shoe, 10, 8, peek=peek)
        approx = ev(shoe, 10, 8, peek=peek, exact=False)
        assert isinstance(exact, Fraction) and isinstance(approx, float)
        assert abs(float(exact) - approx) < 1e-12


def test_dealer_distribution_sums_to_one() -> None:
    shoe = shoe_of(a=2, c2=1, c5=2, c6=1, c9=1, t=4)
    for up in range(1, 11):
        for hole in (None, 2, 10):
            d = dealer_final_distribution(shoe, up, hole, True)
            assert sum(d) == 1 and all(x >= 0 for x in d)


def test_errors() -> None:
    with pytest.raises(ValueError, match="60"):
        ev(shoe_of(t=61), 7, 8)
    with pytest.raises(ValueError):
        ev((1, 2, 3), 7, 8)
    with pytest.raises(ValueError, match="decide returned"):
        ev(shoe_of(t=10), 7, 8, decide=lambda comp, options: DOUBLE, das=False)


def test_running_out_of_cards() -> None:
    # A player hit from an empty shoe: 2-2-2-2-2-2 still wants a card.
    with pytest.raises(ShoeError, match="runs out"):
        ev(shoe_of(c2=6), 7, 2, decide=always(HIT), max_hands=2)
    # 8-T stands twice; the dealer's 2-T needs a hit that is not there.
    with pytest.raises(ShoeError, match="runs out"):
        ev(shoe_of(t=3), 2, 8, decide=always(STAND))
    # Both hands hit 8-T and bust; the dealer's missing hit decides nothing.
    for peek in (True, False):
        assert ev(shoe_of(t=5), 2, 8, decide=always(HIT), peek=peek) == -2
    # No-peek, one unit lost to a blackjack: with no card left for the hole, the
    # blackjack is unknowable and decides the result.
    with pytest.raises(ShoeError, match="runs out"):
        ev(shoe_of(t=4), 1, 8, decide=always(HIT), peek=False, bj_loses_all=False)
    assert ev(shoe_of(t=4), 1, 8, decide=always(HIT), peek=False) == -2
