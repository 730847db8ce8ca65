"""Sanity checks of the whole-round oracle (tests/oracle.py) itself, without the engine.

* dealer tables: probabilities sum to 1, forced outcomes;
* rounds whose EV can be worked out by hand (a shoe of tens and one ace, split aces);
* two computations inside the oracle that must agree: the round played card by card
  with the hole card fixed, against the player's belief-level action EVs (``hand_evs``),
  and drawing the hole card before or after the player's hands;
* unsplit one-deck hand EVs against Eric Farmer's CA (tests/reference/farmer-ca,
  1d-h17-ndas-spl1-ns-cdz.txt), which prints them to 1e-9 percent.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.rules import Double, HoleCard, Rules, Surrender
from tests import oracle

F = Fraction
ACE, TEN = 1, 10
ONE_ACE_NINE_TENS = (1, 0, 0, 0, 0, 0, 0, 0, 0, 9)
ENHC = HoleCard.NO_HOLE_CARD


def shoe(**counts: int) -> tuple[int, ...]:
    """A shoe from keyword counts: a=aces, c2..c9, t=tens."""
    names = ["a", *(f"c{v}" for v in range(2, 10)), "t"]
    return tuple(counts.get(name, 0) for name in names)


# ---------------------------------------------------------------- dealer


@pytest.mark.parametrize("counts", [(4,) * 9 + (16,), (1, 1, 1, 1, 1, 1, 1, 1, 2, 6),
                                    (2, 0, 2, 1, 1, 1, 1, 2, 0, 2)])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_dealer_distribution_sums_to_one(counts: tuple[int, ...], hits_soft_17: bool) -> None:
    for up in range(1, 11):
        if counts[up - 1] == 0:
            continue
        rest = list(counts)
        rest[up - 1] -= 1
        dist = oracle.dealer_distribution(tuple(rest), up, hits_soft_17)
        assert set(dist) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
        assert sum(dist.values()) == 1
        assert all(p >= 0 for p in dist.values())
        assert (dist["blackjack"] > 0) == (up in (ACE, TEN) and rest[11 - up - 1] > 0)


def test_dealer_forced_outcomes() -> None:
    assert oracle.dealer_distribution(shoe(t=3), 6, False)["bust"] == 1  # 16, then a ten
    assert oracle.dealer_distribution(shoe(t=3), 7, False)["17"] == 1
    assert oracle.dealer_distribution(shoe(t=3), ACE, False)["blackjack"] == 1
    # 5 up with one 6 and one ten left: 5+6+10 or 5+10+6, both 21
    assert oracle.dealer_distribution(shoe(c6=1, t=1), 5, False)["21"] == 1


def test_dealer_soft_17() -> None:
    # A up, one 6 and one 2 left: A6 is soft 17 (S17 stands; H17 takes the 2: soft 19),
    # A2 is soft 13 and takes the 6: soft 19.
    s17 = oracle.dealer_distribution(shoe(c2=1, c6=1), ACE, False)
    h17 = oracle.dealer_distribution(shoe(c2=1, c6=1), ACE, True)
    assert (s17["17"], s17["19"]) == (F(1, 2), F(1, 2))
    assert (h17["17"], h17["19"]) == (F(0), F(1))


def test_empty_shoe_raises() -> None:
    with pytest.raises(oracle.ShoeExhausted):
        oracle.dealer_distribution(shoe(t=1), 2, False)  # 2 + 10 = 12 must draw again


# ------------------------------------------------------- hand-worked rounds


def test_all_tens_push() -> None:
    # Every hand is 20 against 20; hitting busts; every split hand is 20 again.
    tens = shoe(t=12)
    for rules in (Rules(), Rules(hole_card=ENHC), Rules(max_hands=1)):
        assert oracle.round_ev(rules, tens) == 0
    evs = oracle.hand_evs(Rules(surrender=Surrender.LATE), tens, TEN, (TEN, TEN))
    assert evs == {"stand": 0, "hit": -1, "double": -2, "split": 0, "surrender": F(-1, 2)}


# One ace, nine tens (PEEK).  Ace up (1/10): the player holds T,T, the hole is a ten:
# -1.  Ten up (9/10): the player has the ace (2/9) and is paid 3/2; else he holds T,T
# and the hole is the ace (1/7): -1, or a ten (6/7): the dealer stands on 20 and the
# player's best is to split: with 4 hands the resplits use up all six cards left, so
# the ace surely lands on a split hand (21): +1; with 3 hands four cards are drawn
# (+1 with prob 4/6), with 2 hands two (2/6).  Standing pushes.
@pytest.mark.parametrize(("max_hands", "split_ev", "ev"), [
    (1, None, F(1, 10)), (2, F(1, 3), F(3, 10)), (3, F(2, 3), F(1, 2)), (4, F(1), F(7, 10))])
def test_one_ace_nine_tens(max_hands: int, split_ev: Fraction | None, ev: Fraction) -> None:
    rules = Rules(max_hands=max_hands)
    by_up = oracle.round_ev_by_upcard(rules, ONE_ACE_NINE_TENS)
    ten_up = F(2, 9) * F(3, 2) + F(7, 9) * (F(1, 7) * -1 + F(6, 7) * max(0, split_ev or 0))
    assert by_up == {ACE: -1, TEN: ten_up}
    assert oracle.round_ev(rules, ONE_ACE_NINE_TENS) == ev
    evs = oracle.hand_evs(rules, ONE_ACE_NINE_TENS, TEN, (TEN, TEN))
    # hitting 20: the ace (1 of the 6 cards left besides the hole ten) makes 21
    expected = {"stand": F(0), "hit": F(-2, 3), "double": F(-4, 3)}
    if split_ev is not None:
        expected["split"] = split_ev
    assert evs == expected


def test_one_ace_nine_tens_early_surrender() -> None:
    # Ace up: T,T surrenders early (-1/2 instead of -1); ten up: never.
    rules = Rules(surrender=Surrender.EARLY)
    assert oracle.round_ev_by_upcard(rules, ONE_ACE_NINE_TENS)[ACE] == F(-1, 2)
    assert oracle.round_ev(rules, ONE_ACE_NINE_TENS) == F(3, 4)
    assert oracle.hand_evs(rules, ONE_ACE_NINE_TENS, TEN, (TEN, TEN))["surrender"] == F(-1, 2)


# ENHC, same shoe, ten up, T,T: the dealer's second card comes last.  Standing: -1/7
# (the ace makes him a blackjack).  Splitting to n hands draws 2n-2 of the 7 cards; if
# the ace is among them +1, else the dealer draws his card from the rest and a
# blackjack takes all n bets.
@pytest.mark.parametrize(("max_hands", "ev"), [(1, F(1, 10)), (2, F(1, 5)), (3, F(3, 10)),
                                               (4, F(2, 5))])
def test_one_ace_nine_tens_enhc(max_hands: int, ev: Fraction) -> None:
    rules = Rules(max_hands=max_hands, hole_card=ENHC, surrender=Surrender.LATE)
    assert oracle.round_ev(rules, ONE_ACE_NINE_TENS) == ev
    evs = oracle.hand_evs(rules, ONE_ACE_NINE_TENS, TEN, (TEN, TEN))
    assert evs["stand"] == F(-1, 7)
    assert evs["surrender"] == F(6, 7) * F(-1, 2) + F(1, 7) * -1
    if max_hands > 1:
        drawn = 2 * max_hands - 2
        rest = 7 - drawn
        assert evs["split"] == F(drawn, 7) + F(rest, 7) * F(1, rest) * -max_hands
    assert oracle.hand_evs(rules, ONE_ACE_NINE_TENS, ACE, (TEN, TEN))["stand"] == -1


def test_split_aces() -> None:
    # Ten up, A,A, the hole is a ten (the other ace would be a blackjack); left: A + 6 T.
    # One card to each ace: 21 (+1) with a ten, soft 12 (-1) with the ace: 2 * 5/7.
    counts = shoe(a=3, t=8)
    assert oracle.hand_evs(Rules(), counts, TEN, (ACE, ACE))["split"] == F(10, 7)
    # Resplitting to 4 hands: the ace makes a third hand and every ace gets a ten.
    rsa = oracle.hand_evs(Rules(resplit_aces=True), counts, TEN, (ACE, ACE))["split"]
    assert rsa == F(1, 7) * 3 + F(6, 7) * (F(1, 6) * 3 + F(5, 6) * 2)


# ------------------------------------------------- internal consistency


ELEVEN = (1, 1, 0, 2, 0, 1, 2, 1, 1, 2)  # pairs of 4s, 7s and tens
TWELVE = (2, 0, 2, 1, 1, 1, 1, 2, 0, 2)  # pairs of aces, 3s and 8s
CASES = [
    (Rules(), ELEVEN),
    (Rules(hole_card=ENHC, surrender=Surrender.LATE, hits_soft_17=True), ELEVEN),
    (Rules(surrender=Surrender.LATE, double_after_split=False, max_hands=2), ELEVEN),
    (Rules(surrender=Surrender.EARLY, resplit_aces=True, hit_split_aces=True,
           double=Double.NINE_TO_ELEVEN, blackjack_pays=F(6, 5)), TWELVE),
    (Rules(hole_card=ENHC, surrender=Surrender.EARLY, max_hands=3, double=Double.TEN_ELEVEN),
     ELEVEN),
]


def _take(counts: tuple[int, ...], card: int) -> tuple[int, ...]:
    c = list(counts)
    c[card - 1] -= 1
    return tuple(c)


def belief_level_by_upcard(rules: Rules, counts: tuple[int, ...], up: int) -> Fraction:
    """The EV given ``up`` from ``hand_evs``: peek settlement, then the best action."""
    after_up = _take(counts, up)
    total = F(0)
    for first in range(1, 11):
        for second in range(1, 11):
            if after_up[first - 1] == 0 or _take(after_up, first)[second - 1] == 0:
                continue
            p = F(after_up[first - 1], sum(after_up))
            p *= F(_take(after_up, first)[second - 1], sum(after_up) - 1)
            hand = (first, second)
            unseen = _take(_take(after_up, first), second)
            natural = sorted(hand) == [ACE, TEN]
            evs = oracle.hand_evs(rules, counts, up, hand)
            if rules.surrender is not Surrender.LATE:
                evs.pop("surrender", None)
            p_bj = F(0)
            if rules.peeks and up in (ACE, TEN):
                p_bj = F(unseen[11 - up - 1], sum(unseen))
            value = p_bj * (0 if natural else -1)
            if p_bj < 1:
                value += (1 - p_bj) * max(evs.values())
            if rules.surrender is Surrender.EARLY and not natural:
                value = max(value, F(-1, 2))
            total += p * value
    return total


@pytest.mark.parametrize(("rules", "counts"), CASES)
def test_card_by_card_round_matches_belief_level(rules: Rules, counts: tuple[int, ...]) -> None:
    by_up = oracle.round_ev_by_upcard(rules, counts)
    assert set(by_up) == {v for v in range(1, 11) if counts[v - 1]}
    for up, ev in by_up.items():
        assert ev == belief_level_by_upcard(rules, counts, up), up


@pytest.mark.parametrize(("rules", "counts"), [CASES[0], CASES[3]])
def test_hole_card_drawn_first_or_last_agree(rules: Rules, counts: tuple[int, ...]) -> None:
    assert (oracle.round_ev_by_upcard(rules, counts)
            == oracle.round_ev_by_upcard(rules, counts, literal_hole=True))


def _best(cards: list[int]) -> int:
    return sum(cards) + 10 if ACE in cards and sum(cards) <= 11 else sum(cards)


class _NeedCard(Exception):
    """The deck order given so far is too short for the round."""


def _split_by_deck_order(rules: Rules, game: oracle._Game, up: int, hole: int | None,
                         order: tuple[int, ...], pair: int) -> int:
    """Play a split round on a known deck order, as a list of hands, left to right."""
    deck = iter(order)

    def draw() -> int:
        card = next(deck, None)
        if card is None:
            raise _NeedCard
        return card

    hands, bets = [[pair], [pair]], [1, 1]
    i = 0
    while i < len(hands):
        hand = hands[i]
        while True:
            if len(hand) == 1:
                card = draw()
                if card == pair and len(hands) < rules.max_hands and (
                        pair != ACE or rules.resplit_aces):
                    hands.insert(i + 1, [pair])
                    bets.insert(i + 1, 1)
                else:
                    hand.append(card)
                continue
            if _best(hand) >= 21 or (pair == ACE and not rules.hit_split_aces):
                break
            action = oracle._cdz_action(game, tuple(sorted(hand)))
            if action == "stand":
                break
            hand.append(draw())
            if action == "double":
                bets[i] = 2
                break
        i += 1
    if all(_best(hand) > 21 for hand in hands):
        return -sum(bets)
    dealer = [up, hole if hole is not None else draw()]
    blackjack = sorted(dealer) == [ACE, TEN]
    while _best(dealer) < 17 or (_best(dealer) == 17 and rules.hits_soft_17
                                 and ACE in dealer and sum(dealer) == 7):
        dealer.append(draw())
    result = 0
    for hand, bet in zip(hands, bets, strict=True):
        mine, theirs = _best(hand), _best(dealer)
        if mine > 21 or blackjack or (theirs <= 21 and mine < theirs):
            result -= bet
        elif theirs > 21 or mine > theirs:
            result += bet
    return result


def _average_over_deck_orders(rules: Rules, game: oracle._Game, up: int, hole: int | None,
                              rest: list[int], pair: int, order: tuple[int, ...] = ()) -> Fraction:
    """Average of the round over all orders of ``rest``, extending ``order`` as needed."""
    try:
        return F(_split_by_deck_order(rules, game, up, hole, order, pair))
    except _NeedCard:
        left = list(rest)
        for card in order:
            left.remove(card)
        return sum((F(left.count(card), len(left))
                    * _average_over_deck_orders(rules, game, up, hole, rest, pair, (*order, card))
                    for card in sorted(set(left))), F(0))


@pytest.mark.parametrize(("rules", "up", "pair", "hole", "rest"), [
    (Rules(), 6, 2, 10, (8, 5, 9, 4, 4, 10, 10, 2, 10)),
    (Rules(hits_soft_17=True, max_hands=3), 1, 8, 6, (5, 5, 2, 2, 8, 10, 10, 10, 6, 8, 10)),
    (Rules(hole_card=ENHC, double_after_split=False), 10, 3, None,
     (10, 10, 3, 1, 10, 10, 6, 8, 6, 3, 10)),
    (Rules(resplit_aces=True, hit_split_aces=True), 9, 1, 5,
     (10, 7, 5, 6, 10, 10, 10, 9, 7, 1, 10)),
])
def test_split_round_matches_every_deck_order(rules: Rules, up: int, pair: int,
                                              hole: int | None, rest: tuple[int, ...]) -> None:
    """The memoised split recursion against playing out every order of the remaining cards."""
    counts = [0] * 10
    for card in (*rest, up, pair, pair, *(() if hole is None else (hole,))):
        counts[card - 1] += 1
    game = oracle._game(rules, tuple(counts), up, True)
    remaining = tuple(rest.count(v) for v in range(1, 11))
    expected = oracle._split_round_start(game, hole, remaining, pair)
    assert _average_over_deck_orders(rules, game, up, hole, list(rest), pair) == expected


# ---------------------------------------------------------------- Farmer


FARMER_1D_H17 = Rules(decks=1, hits_soft_17=True, double_after_split=False, max_hands=1)
FARMER_QUERIES = [  # percent, conditioned on no dealer blackjack
    (10, (10, 6), {"stand": -54.295185382, "hit": -50.692924258, "double": -101.385848516}),
    (10, (9, 7), {"stand": -51.803413932, "hit": -51.200873521, "double": -102.401747043}),
    (1, (6, 5), {"stand": -57.537435085, "hit": 14.300327023, "double": 23.429617169}),
    (10, (10, 4, 2), {"stand": -54.480773770, "hit": -54.908676876}),
]


@pytest.mark.parametrize(("up", "cards", "expected"), FARMER_QUERIES)
def test_unsplit_hands_match_farmer_one_deck(up: int, cards: tuple[int, ...],
                                             expected: dict[str, float]) -> None:
    evs = oracle.hand_evs(FARMER_1D_H17, (4,) * 9 + (16,), up, cards)
    assert set(evs) == set(expected)
    for action, value in expected.items():
        assert abs(float(evs[action]) * 100 - value) <= 1e-9, action
