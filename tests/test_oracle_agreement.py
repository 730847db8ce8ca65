"""The engine against the independent brute-force round enumerator (tests/oracle.py).

The oracle deals whole rounds card by card from small shoes, with its own dealer,
its own hole-card conditioning and its own optimal play, in exact fractions.  On
rules without splitting the engine must agree with it *exactly*: dealer
distributions, the EV of every action of every two-card hand, the EV by upcard
and the EV of the round.

With splitting, the oracle plays every split hand by the pre-split (CDZ-)
strategy and removes every card really dealt; the engine's Farmer algorithm must
give the same fractions, resplits included.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational

import pytest

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import dealer_distribution
from tests import oracle

SHOES = {
    "20 cards": (1, 2, 2, 2, 2, 1, 1, 2, 2, 5),
    "16 cards": (2, 1, 1, 2, 1, 2, 1, 1, 1, 4),
}
NO_SPLIT_RULES = ["1D S17 DOA NDAS NSPL NS", "1D H17 D10 NDAS NSPL LS",
                  "1D S17 DOA NDAS NSPL ES BJ6:5", "1D H17 DOA NDAS NSPL LS ENHC"]
NAMES = {STAND: "stand", HIT: "hit", DOUBLE: "double", SPLIT: "split", SURRENDER: "surrender"}


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize("h17", [False, True])
def test_dealer_distributions(shoe: str, h17: bool) -> None:
    counts = SHOES[shoe]
    for up in range(1, 11):
        if not counts[up - 1]:
            continue
        rest = Shoe(counts).remove([up]).counts
        mine = dealer_distribution(rest, up, hits_soft_17=h17, exact=True)
        theirs = oracle.dealer_distribution(rest, up, h17)
        assert theirs["bust"] == mine.bust
        for key in ("17", "18", "19", "20", "21", "blackjack"):
            assert theirs[key] == mine.outcomes[key], (up, key)


@pytest.mark.parametrize("shoe", [pytest.param("20 cards", marks=pytest.mark.slow), "16 cards"])
@pytest.mark.parametrize("spec", NO_SPLIT_RULES)
def test_round_ev_without_splits(shoe: str, spec: str) -> None:
    rules = parse_spec(spec)
    counts = SHOES[shoe]
    analysis = Analysis(rules, Shoe(counts), exact=True)
    assert analysis.by_upcard() == oracle.round_ev_by_upcard(rules, counts)
    assert analysis.ev() == oracle.round_ev(rules, counts)


@pytest.mark.parametrize("spec", NO_SPLIT_RULES)
def test_every_two_card_hand(spec: str) -> None:
    rules = parse_spec(spec)
    counts = SHOES["16 cards"]
    analysis = Analysis(rules, Shoe(counts), exact=True)
    checked = 0
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                try:
                    Shoe(counts).remove([up, a, b])
                except ValueError:
                    continue
                if {a, b} == {1, 10}:
                    continue  # a player blackjack has no decision
                mine = {NAMES[k]: v for k, v in analysis.actions(up, (a, b)).items()}
                theirs = oracle.hand_evs(rules, counts, up, (a, b))
                assert set(mine) == set(theirs), (up, a, b)
                for name, value in theirs.items():
                    assert mine[name] == value, (up, a, b, name)
                checked += 1
    assert checked > 150


def test_three_card_hands() -> None:
    rules = parse_spec("1D S17 DOA NDAS NSPL NS")
    counts = SHOES["20 cards"]
    analysis = Analysis(rules, Shoe(counts), exact=True)
    for up, cards in [(10, (10, 4, 2)), (6, (2, 3, 7)), (1, (5, 5, 3)), (9, (1, 2, 3))]:
        mine = analysis.actions(up, cards)
        theirs = oracle.hand_evs(rules, counts, up, cards)
        assert mine[STAND] == theirs["stand"] and mine[HIT] == theirs["hit"]


def test_split_aces_one_card_no_resplit_is_exact() -> None:
    """Split aces take one card each and stand: no hits, so the convention is exact."""
    rules = parse_spec("1D S17 DOA NDAS SPL1 NS")
    counts = SHOES["16 cards"]
    analysis = Analysis(rules, Shoe(counts), exact=True)
    for up in (2, 6, 9):
        mine = analysis.actions(up, (1, 1))[SPLIT]
        theirs = oracle.hand_evs(rules, counts, up, (1, 1))["split"]
        assert isinstance(mine, Fraction) and isinstance(theirs, Rational)  # both exact
        assert mine == theirs, up


SPLIT_SHOE = (1, 1, 1, 1, 1, 1, 1, 1, 2, 6)  # 16 cards, rich in tens: no round runs dry


@pytest.mark.parametrize("spec", [pytest.param("1D S17 DOA DAS SPL3 NS", marks=pytest.mark.slow),
                                  pytest.param("1D H17 DOA NDAS SPL2 LS", marks=pytest.mark.slow),
                                  pytest.param("1D S17 DOA DAS SPL3 NS ENHC",
                                               marks=pytest.mark.slow)])
def test_round_ev_with_splits_and_resplits(spec: str) -> None:
    """Farmer's split algorithm, as the engine runs it, equals the whole-round truth."""
    rules = parse_spec(spec)
    analysis = Analysis(rules, Shoe(SPLIT_SHOE), exact=True)
    assert analysis.by_upcard() == oracle.round_ev_by_upcard(rules, SPLIT_SHOE)
    assert analysis.ev() == oracle.round_ev(rules, SPLIT_SHOE)
    for up in (1, 7, 10):
        for pair in (9, 10):
            mine = analysis.actions(up, (pair, pair))[SPLIT]
            assert mine == oracle.hand_evs(rules, SPLIT_SHOE, up, (pair, pair))["split"]


def test_a_split_ace_and_ten_stands_under_cdz_and_hits_where_cdp1_finds_it_better() -> None:
    """CDZ- copies the pre-split play, and an ace and a ten unsplit are a blackjack with no
    play: the engine stands them (Farmer's convention), while the oracle took the better
    of standing and hitting, which differs under a three-card Charlie (any third card is a
    sure win).  Found by a differential tester on this shoe: the round 7995433/18378360
    against the oracle's 4578271/10501920.  Both now stand; CDP1 hits it, as it should."""
    rules = parse_spec("1D H17 DOA NDAS SPL1 NS CH3")
    counts = (1, 0, 2, 2, 0, 1, 0, 1, 1, 10)
    analysis = Analysis(rules, Shoe(counts), exact=True)
    assert analysis.ev() == oracle.round_ev(rules, counts) == Fraction(7995433, 18378360)
    split = analysis.actions(3, (10, 10))[SPLIT]
    assert split == oracle.hand_evs(rules, counts, 3, (10, 10))["split"] == Fraction(10627, 9009)
    cdp1 = Analysis(rules, Shoe(counts), exact=True, split="cdp1").actions(3, (10, 10))[SPLIT]
    assert cdp1 == oracle.hand_evs(rules, counts, 3, (10, 10), split_play="cdp1")["split"]
    assert cdp1 == Fraction(10748, 9009) > split
