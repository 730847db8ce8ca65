"""Suit bonuses: a three-card 21 of 6-7-8 or 7-7-7 paid by its suits (``B678``, ``B777``:
mixed, one suit, spades), the Super Bonus (``SB``: a suited 7-7-7 against a dealer 7,
not on split or doubled hands) and a suited blackjack (``BSBJ``).

The engine against the brute-force oracle (tests/oracle.py), as fractions on small
shoes taken from two decks (so three 7s can share a suit).  The oracle counts physical
cards: every suit case of the deal is played on its own, the player reading the suits
of his two cards and of the upcard, and a 21's pay is averaged over the physical cards
of its third card still unseen; the engine merges the cases by their pays and corrects
the rank figures (:mod:`analyzer.engine.suits`).  Then closed forms of the suit chances,
invariants (suits never cost the player; suits that pay alike change nothing), the
words and the one-line refusals.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from analyzer.core.errors import AnalyzerError, ImpossibleShoeError
from analyzer.core.rules import Rules, describe_rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.optimal_split import SplitInfeasible
from analyzer.engine.suits import suit_states, suited_blackjack_pays, three_card_pays
from tests import oracle
from tests.test_double_any import assert_hands_equal_the_oracle

SUITED = "B678=3:2/2:1/3:1 B777=2:1/3:1/5:1"
SEVENS = (1, 1, 1, 1, 1, 1, 3, 1, 1, 2)  # 13 cards of two decks: three 7s
RICH = (1, 1, 1, 1, 1, 3, 4, 3, 1, 2)  # 18 cards: 6-7-8s and 7-7-7s are common
SPANISH = ("2D SP H17 DOA DAS SPL1 HSA LS DAN DDR RD1 P21W BJW B5C=3:2 B6C=2:1 B7C=3:1 "
           "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 SB=40:1 BND BSBJ=2:1")


@pytest.mark.parametrize("spec", [SUITED, "B777=3:2/2:1/3:1 SB=200:1 BND",
                                  "BSBJ=2:1", "SB=200:1 BNS"])
def test_tokens_round_trip_and_are_said_in_words(spec: str) -> None:
    rules = parse_spec(f"6D H17 LS {spec}")
    assert parse_spec(format_spec(rules)) == rules
    for token in spec.split():
        assert token in format_spec(rules).split()
    assert parse_spec("SB=1000:5") == parse_spec("SB=200:1")  # $1000 on a $5 bet
    words = " ".join(describe_rules(rules))
    assert ("6-7-8 pays" in words) == ("B678" in spec)
    assert ("Super Bonus" in words) == ("SB=" in spec)
    assert ("suited blackjack" in words) == ("BSBJ" in spec)


@pytest.mark.parametrize("spec, message", [
    ("B678=1:2/2:1/3:1", "at least 1:1"), ("SB=0:1", "leave the token out"),
    ("BSBJ=0:1", "leave the token out"), ("B777=3:2/2:1/3:1 CH6", "Charlie"),
    ("B678=3:2/2:1/3:1 FD9-11", "free doubles"), ("B678=3:2/2:1", "unknown rule token"),
    ("SB=200:1 SB=100:1", "contradicts"), ("SB=1:0", "'SB=1:0': the payout 1:0 divides")])
def test_bad_suit_bonuses_are_refused_naming_them(spec: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_spec(spec)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_suit_chances_have_their_closed_forms(decks: int) -> None:
    """6-7-8: three ranks, independent suits (1/16 one suit, 1/64 spades); 7-7-7: three of
    the ``4d`` physical 7s, ``C(d, 3)`` ways per suit."""
    rules = parse_spec(f"{decks}D B678=2:1/3:1/5:1 B777=2:1/3:1/5:1")
    spades = Fraction(comb(decks, 3), comb(4 * decks, 3))
    p678, p777 = three_card_pays(rules, super_bonus=False) or (0, 0)
    assert p678 == Fraction(2) * Fraction(60, 64) + Fraction(3) * Fraction(3, 64) + \
        Fraction(5, 64)
    assert p777 == 2 * (1 - 4 * spades) + 3 * 3 * spades + 5 * spades
    with_super = three_card_pays(rules.replace(super_bonus=Fraction(100)), super_bonus=True)
    assert with_super is not None and with_super[1] == 2 * (1 - 4 * spades) + 100 * 4 * spades
    assert suited_blackjack_pays(parse_spec("BSBJ=2:1")) == Fraction(1, 4) * 2 + \
        Fraction(3, 4) * Fraction(3, 2)


@pytest.mark.parametrize("hand, upcard", [((6, 7), 8), ((6, 7), 5), ((6, 8), 7), ((7, 8), 6),
                                          ((7, 7), 7), ((7, 7), 10)])
def test_the_suit_cases_average_to_the_rank_pays(hand: tuple[int, int], upcard: int) -> None:
    rules = parse_spec(f"2D {SUITED} SB=50:1")
    states = suit_states(rules, hand, upcard)
    assert sum(s.chance for s in states) == 1
    kind = 1 if hand == (7, 7) else 0
    pays = three_card_pays(rules, super_bonus=upcard == 7)
    plain = three_card_pays(rules, super_bonus=False)
    assert pays is not None and plain is not None
    assert sum(s.chance * s.hit_pay for s in states) == pays[kind]
    assert sum(s.chance * s.double_pay for s in states) == plain[kind]


def _check(spec: str, counts: tuple[int, ...], hands: bool = True) -> None:
    rules = parse_spec(spec)
    analysis = Analysis(rules, Shoe(counts), exact=True)
    assert analysis.by_upcard() == oracle.round_ev_by_upcard(rules, counts)
    ranks = Analysis(rules, Shoe(counts), exact=True, suits=False).ev()
    assert analysis.ev() >= ranks  # reading the suits never costs
    if hands:  # each action as asked without suits: the pays averaged over them
        assert_hands_equal_the_oracle(analysis, counts, (2,))
    oracle.clear_caches()


def test_round_equals_the_oracle() -> None:
    _check(f"2D H17 NSPL LS DAN {SUITED} SB=50:1 BSBJ=5:2 BND", SEVENS, hands=False)


@pytest.mark.slow
def test_every_hand_equals_the_oracle() -> None:
    _check(f"2D H17 NSPL LS DAN {SUITED} SB=50:1 BSBJ=5:2 BND", SEVENS)


SLOW = [
    pytest.param(f"2D S17 NSPL NS {SUITED}", RICH, id="plain"),
    pytest.param(f"2D H17 NSPL LS DAN {SUITED} SB=50:1 BSBJ=5:2", RICH,
                 id="DAN-paid-on-doubles"),
    pytest.param(f"2D S17 SPL1 NS {SUITED}", RICH, id="split-7s-by-ranks"),
    pytest.param(f"2D S17 SPL1 LS {SUITED} SB=50:1 BNS", RICH, id="split-7s-by-suits-BNS"),
    pytest.param(SPANISH, RICH, id="spanish-21"),
    pytest.param(f"2D S17 ENHC OBO SPL1 NS DAN {SUITED} SB=50:1", RICH, id="ENHC"),
]


@pytest.mark.slow
@pytest.mark.parametrize("spec, counts", SLOW)
def test_round_equals_the_oracle_with_more_rules(spec: str, counts: tuple[int, ...]) -> None:
    _check(spec, counts, hands=False)


def test_suits_that_pay_alike_change_nothing() -> None:
    """With one pay for every suit, reading the suits cannot gain: the suit-aware EV is
    the rank-only one, exactly."""
    shoe = Shoe((1, 1, 1, 1, 2, 3, 4, 3, 1, 3))  # 20 cards left of two decks
    rules = parse_spec("2D H17 LS SPL1 B678=2:1/2:1/2:1 B777=3:1/3:1/3:1 SB=3:1")
    assert Analysis(rules, shoe, exact=True).ev() == \
        Analysis(rules, shoe, exact=True, suits=False).ev()
    paid = parse_spec("2D H17 LS SPL1 B678=2:1/3:1/4:1 B777=3:1/3:1/3:1")
    assert Analysis(paid, shoe, exact=True).ev() > \
        Analysis(paid, shoe, exact=True, suits=False).ev()


def test_each_bonus_pays_and_each_condition_costs() -> None:
    base = "6D SP H17 DAS SPL3 RSA HSA LS DAN DDR P21W BJW B5C=3:2 B6C=2:1 B7C=3:1"
    ev = {name: Analysis(Rules(f"{base} {extra}")).ev() for name, extra in (
        ("none", ""), ("suits", "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1"),
        ("super", "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 SB=200:1"),
        ("bnd", "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 SB=200:1 BND"),
        ("bns", "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 SB=200:1 BNS"),
        ("bsbj", "BSBJ=2:1"))}
    assert ev["none"] < ev["suits"] < ev["super"]
    assert ev["bnd"] < ev["super"] and ev["bns"] < ev["super"]
    # a suited blackjack (chance 1/4 of a natural) paid 2:1 instead of 3:2
    assert ev["bsbj"] > ev["none"]


def test_the_super_bonus_turns_a_suited_seven_seven_into_a_hit() -> None:
    """7-7 against a 7 with a 200:1 Super Bonus: a suited pair hits (about one in five of
    the 7s left completes it in its suit), an unsuited one does not gain from it."""
    rules = Rules("6D SP H17 DAS SPL3 LS P21W SB=200:1")
    states = suit_states(rules, (7, 7), 7)
    assert {s.hit_pay for s in states} - {Fraction(1)}  # some case pays the Super Bonus
    actions = Analysis(rules).actions(7, (7, 7))
    plain = Analysis(Rules("6D SP H17 DAS SPL3 LS P21W")).actions(7, (7, 7))
    assert actions[1] > plain[1] + 0.5 and actions[0] == plain[0]


def test_a_shoe_the_decks_cannot_hold_is_refused_in_one_line() -> None:
    with pytest.raises(ImpossibleShoeError, match="holds more 7s than it does"):
        Analysis(parse_spec(f"1D {SUITED}"), Shoe((4, 4, 4, 4, 4, 4, 5, 4, 4, 16)))
    # aces and tens by name: "more 1/10s" (an adversarial test)
    with pytest.raises(ImpossibleShoeError, match="holds more aces and ten-valued cards than"):
        Analysis(parse_spec(f"1D {SUITED}"), Shoe((5, 4, 4, 4, 4, 4, 4, 4, 4, 17)))


def test_only_the_shoe_size_stops_optimal_splitting_under_suit_bonuses() -> None:
    rules = parse_spec(f"6D H17 DAS SPL3 LS {SUITED} SB=200:1")
    # optimal splitting pays a split hand's suit bonus averaged over the suits, as CDP does
    # (tests/test_optimal_split.py): only the shoe's size stops it here
    with pytest.raises(SplitInfeasible, match="at most 52 cards"):
        Analysis(rules, split="optimal")


def test_the_suit_cases_of_a_hand_average_to_its_actions() -> None:
    """``bja hand``'s cases: each action's EV, weighted by the cases' chances, is the
    figure asked without suits; a split of 7-7 decided on ranks is left out of them."""
    rules = parse_spec(f"2D H17 DAS SPL1 LS {SUITED} SB=50:1")
    shoe = Shoe((1, 1, 1, 1, 2, 3, 4, 3, 1, 3))
    analysis = Analysis(rules, shoe, exact=True)
    for up, hand in ((7, (7, 7)), (8, (6, 7)), (10, (7, 8))):
        cases = analysis.suit_actions(up, hand)
        assert cases and sum(state.chance for state, _ in cases) == 1
        actions = analysis.actions(up, hand)
        for action, value in actions.items():
            if action == 3:  # SPLIT
                assert all(action not in evs for _, evs in cases)
                continue
            assert sum(state.chance * evs[action] for state, evs in cases) == value
    assert analysis.suit_actions(7, (6, 6)) == []  # suits pay nothing for 6-6


def test_bja_hand_lists_the_suit_cases(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cli.main import main

    spec = f"6D SP H17 DAS SPL3 LS P21W {SUITED} SB=200:1"
    assert main(["hand", "--rules", spec, "--up", "7", "--cards", "7,7"]) == 0
    out = capsys.readouterr().out
    assert "by the suits you see" in out and "split is decided on the ranks" in out
    assert "one suit, spades; the upcard in the hand's suit" in out
