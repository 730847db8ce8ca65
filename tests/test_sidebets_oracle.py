"""Every side-bet figure against the separate brute-force oracle (tests/sidebet_oracle.py).

Shoes: one deck, two decks (slow), a depleted deck, and a small odd shoe holding
three copies of some cards so that suited trips and suited pairs occur.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb, perm, sqrt
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.sidebets.bets import BetOptions, get_bet
from analyzer.sidebets.paytable import preset
from analyzer.sidebets.stats import par_sheet
from analyzer.sidebets.suitshoe import SuitShoe, parse_suit_shoe
from tests import sidebet_oracle as oracle

DEPLETED = "1deck-AS-KS-QS-JS-TS-7H-7D-5C-5D-2C-2H-9S"
ODD = "AS:3,2S:2,3S:2,QS:1,KS:3,7H:3,7D:1,7C:1,TC:2,JD:2,5H:2,6H:1,9C:2,AD:1"

DEPLETED_CARDS = oracle.deck(1, ("As", "Ks", "Qs", "Js", "Ts", "7h", "7d", "5c", "5d", "2c",
                                 "2h", "9s"))
ODD_CARDS = (["As"] * 3 + ["2s"] * 2 + ["3s"] * 2 + ["Qs"] + ["Ks"] * 3 + ["7h"] * 3
             + ["7d", "7c"] + ["Tc"] * 2 + ["Jd"] * 2 + ["5h"] * 2 + ["6h"] + ["9c"] * 2
             + ["Ad"])

SHOES = [
    pytest.param((SuitShoe.decks(1), oracle.deck(1)), id="1deck"),
    pytest.param((SuitShoe.decks(2), oracle.deck(2)), id="2decks", marks=pytest.mark.slow),
    pytest.param((parse_suit_shoe(DEPLETED), DEPLETED_CARDS), id="depleted"),
    pytest.param((parse_suit_shoe(ODD), ODD_CARDS), id="odd"),
]

HAND_READINGS = [
    ("21+3", BetOptions(straights=s), f"21+3/{s}") for s in ("standard", "wrap", "ace-low",
                                                               "ace-high")
] + [
    ("hot3", BetOptions(), "hot3"),
    ("any-pair", BetOptions(pair_by="rank"), "any-pair/rank"),
    ("any-pair", BetOptions(pair_by="value"), "any-pair/value"),
]


def _check_figures(name: str, options: BetOptions, shoe: SuitShoe,
                   probs: dict[str, Fraction]) -> None:
    """Every par-sheet figure, recomputed from the oracle's probabilities with the seed pays."""
    bet = get_bet(name)
    table = preset(bet)
    sheet = par_sheet(bet, bet.outcomes(shoe, options), table, "")
    pays = {**{e: Fraction(-1) for e in probs}, "push": Fraction(0), **table.pays}
    ev = sum(pays[e] * p for e, p in probs.items())
    assert [e.probability for e in sheet.events] == [probs[e.name] for e in sheet.events]
    assert [e.ret for e in sheet.events] == [pays[e.name] * probs[e.name] for e in sheet.events]
    assert sheet.ev == ev and sheet.rtp == 1 + ev
    assert sheet.hit_frequency == sum(p for e, p in probs.items() if pays[e] > 0)
    variance = sum(pays[e] ** 2 * p for e, p in probs.items()) - ev**2
    assert sheet.variance == variance
    assert sheet.sd == pytest.approx(sqrt(variance), rel=1e-15)
    dealt = [e for e in table.pays if probs[e] > 0] or list(table.pays)
    high = max(table.pays[e] for e in dealt)
    tops = [e for e in dealt if table.pays[e] == high]
    assert list(sheet.top.names) == [e.name for e in sheet.events if e.name in tops]
    assert sheet.top.probability == sum(probs[e] for e in tops)


class Case(NamedTuple):
    shoe: SuitShoe
    cards: list[str]
    hands: dict[str, Counter[str]]


@pytest.fixture(scope="module", params=SHOES)
def case(request: pytest.FixtureRequest) -> Case:
    shoe, cards = request.param
    assert shoe.total == len(cards)
    return Case(shoe, cards, oracle.hand_bets(cards))


@pytest.mark.parametrize(("name", "options", "key"), HAND_READINGS)
def test_hand_bets_match_oracle(case: Case, name: str, options: BetOptions, key: str) -> None:
    shoe, expected = case.shoe, case.hands[key]
    outcomes = get_bet(name).outcomes(shoe, options)
    assert outcomes.counts == {e: expected.get(e, 0) for e in outcomes.counts}
    assert outcomes.deals == comb(shoe.total, 2 if name == "any-pair" else 3)
    assert sum(outcomes.counts.values()) == outcomes.deals
    probs = {e: Fraction(n, outcomes.deals) for e, n in outcomes.counts.items()}
    _check_figures(name, options, shoe, probs)


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("reading", ["removed", "ignored"])
def test_bust_it_matches_oracle(case: Case, h17: bool, reading: str) -> None:
    shoe = case.shoe
    probs, longest = oracle.bust_it(case.cards, h17, reading)
    options = BetOptions(hits_soft_17=h17, reading=reading)
    outcomes = get_bet("bust-it").outcomes(shoe, options)
    n = shoe.total
    deals = perm(n, 2 + longest) if reading == "removed" else perm(n, 2) * perm(n, longest)
    assert outcomes.deals == deals
    assert {e: Fraction(c, deals) for e, c in outcomes.counts.items()} == probs
    assert sum(outcomes.counts.values()) == deals
    _check_figures("bust-it", options, shoe, probs)


def test_odd_shoe_has_suited_trips_and_pairs() -> None:
    """The odd shoe exercises the suited events the 1-deck shoe cannot deal."""
    hands = oracle.hand_bets(ODD_CARDS)
    assert hands["21+3/standard"]["suited-trips"] > 0
    assert hands["any-pair/rank"]["suited-pair"] > 0
    assert hands["hot3"]["777"] > 0 and hands["hot3"]["21-suited"] > 0


_CARDS = [r + s for r in oracle.RANK_ORDER for s in "shdc"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(_CARDS), min_size=4, max_size=14))
def test_random_small_shoes_match_oracle(cards: list[str]) -> None:
    """Any composition, including ones with repeated identities."""
    shoe = parse_suit_shoe(",".join(f"{c}:{cards.count(c)}" for c in sorted(set(cards))))
    hands = oracle.hand_bets(cards)
    for name, options, key in HAND_READINGS:
        counts = get_bet(name).outcomes(shoe, options).counts
        assert counts == {e: hands[key].get(e, 0) for e in counts}


# --- the bets of issue 25 -----------------------------------------------------------------

TWENTY = "QH:2,KS:3,AS:2,AH:1,TC:2,JD:1,9S:2,9H:1,5C:1,2D:1,KH:1"
TWENTY_CARDS = (["Qh"] * 2 + ["Ks"] * 3 + ["As"] * 2 + ["Ah"] + ["Tc"] * 2 + ["Jd"]
                + ["9s"] * 2 + ["9h", "5c", "2d", "Kh"])
SPANISH = "1spanish-AS-KS-7H-7D-5C-2C-9S-QD-JH"
SPANISH_CARDS = oracle.deck(1, ("Ts", "Th", "Td", "Tc", "As", "Ks", "7h", "7d", "5c", "2c",
                                "9s", "Qd", "Jh"))
NEW_SHOES = [
    pytest.param((SuitShoe.decks(1), oracle.deck(1)), id="1deck"),
    pytest.param((SuitShoe.decks(2), oracle.deck(2)), id="2decks", marks=pytest.mark.slow),
    pytest.param((parse_suit_shoe(DEPLETED), DEPLETED_CARDS), id="depleted"),
    pytest.param((parse_suit_shoe(ODD), ODD_CARDS), id="odd"),
    pytest.param((parse_suit_shoe(TWENTY), TWENTY_CARDS), id="twenty"),
    pytest.param((parse_suit_shoe(SPANISH), SPANISH_CARDS), id="spanish-depleted"),
]
NEW_HAND_BETS = ["perfect-pairs", "royal-match", "over-under-13", "bet-the-set",
                 "21+3-classic", "21+3-xtreme", "lucky-lucky", "match-the-dealer",
                 "super-sevens"]


class NewCase(NamedTuple):
    shoe: SuitShoe
    cards: list[str]
    hands: dict[str, Counter[str]]
    twenty: dict[str, Counter[str]]


@pytest.fixture(scope="module", params=NEW_SHOES)
def new_case(request: pytest.FixtureRequest) -> NewCase:
    shoe, cards = request.param
    assert shoe.total == len(cards)
    return NewCase(shoe, cards, oracle.new_hand_bets(cards), oracle.twenty_bets(cards))


@pytest.mark.parametrize("name", NEW_HAND_BETS)
def test_new_hand_bets_match_oracle(new_case: NewCase, name: str) -> None:
    """Combination counts as integers, suits included, on every shoe."""
    outcomes = get_bet(name).outcomes(new_case.shoe)
    expected = new_case.hands[name]
    assert outcomes.counts == {e: expected.get(e, 0) for e in outcomes.counts}
    assert set(expected) <= set(outcomes.counts)
    assert sum(outcomes.counts.values()) == outcomes.deals


@pytest.mark.parametrize("name", ["lucky-ladies", "kings-bounty"])
def test_twenty_bets_match_oracle(new_case: NewCase, name: str) -> None:
    outcomes = get_bet(name).outcomes(new_case.shoe)
    expected = new_case.twenty[name]
    assert outcomes.counts == {e: expected.get(e, 0) for e in outcomes.counts}
    assert outcomes.deals == perm(new_case.shoe.total, 4)


def test_twenty_shoe_deals_every_premium_event() -> None:
    twenty = oracle.twenty_bets(TWENTY_CARDS)
    assert twenty["lucky-ladies"]["qh-pair-bj"] and twenty["lucky-ladies"]["qh-pair"]
    assert twenty["kings-bounty"]["ks-pair-bj"] and twenty["kings-bounty"]["suited-kings"] == 0
    hands = oracle.new_hand_bets(ODD_CARDS)
    assert hands["perfect-pairs"]["perfect"] and hands["21+3-xtreme"]["jackpot"]
    assert hands["match-the-dealer"]["two-suited"] and hands["super-sevens"]["suited-777"]


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("reading", ["removed", "ignored"])
def test_buster_matches_oracle(new_case: NewCase, h17: bool, reading: str) -> None:
    spanish = not any(new_case.shoe.count((10, s)) for s in range(4))
    if new_case.shoe.total > 60 or spanish:
        pytest.skip("the dealer brute force runs on one deck and the small shoes (Buster is "
                    "not dealt with Spanish decks)")
    probs = oracle.buster(new_case.cards, h17, reading)
    outcomes = get_bet("buster-blackjack").outcomes(
        new_case.shoe, BetOptions(hits_soft_17=h17, reading=reading))
    ours = {e: Fraction(c, outcomes.deals) for e, c in outcomes.counts.items()}
    assert ours == {e: probs.get(e, Fraction(0)) for e in ours}


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(_CARDS), min_size=4, max_size=12))
def test_random_small_shoes_match_oracle_new_bets(cards: list[str]) -> None:
    """Every new bet on any small composition, repeated identities included."""
    shoe = parse_suit_shoe(",".join(f"{c}:{cards.count(c)}" for c in sorted(set(cards))))
    hands = oracle.new_hand_bets(cards)
    twenty = oracle.twenty_bets(cards)
    for name in NEW_HAND_BETS:
        counts = get_bet(name).outcomes(shoe).counts
        assert counts == {e: hands[name].get(e, 0) for e in counts}, name
    for name in ("lucky-ladies", "kings-bounty"):
        counts = get_bet(name).outcomes(shoe).counts
        assert counts == {e: twenty[name].get(e, 0) for e in counts}, name
