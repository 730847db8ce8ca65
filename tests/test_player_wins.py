"""``BJW`` (a player's blackjack beats a dealer's) and ``P21W`` (a player's 21 always wins).

The engine against the brute-force oracle (tests/oracle.py, its own settlement) as
fractions on small shoes, each rule alone and together, peeked and unchecked; the
distribution's mean equals the EV; the simulator (its own settlement code) agrees with the
exact EV; and the reading of an unchecked dealer blackjack meeting a player's 21 (it beats
it, taking what the game's blackjack takes) is pinned on stacked cards.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.errors import RuleConflictError
from analyzer.core.rules import describe_rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.distribution import round_distribution
from analyzer.engine.frozen import FrozenStrategy
from analyzer.oracle.split_mode import new_analysis
from analyzer.sim import simulate
from tests import oracle
from tests import test_optimal_split as optimal_tests
from tests.oracle_split_memory import clear_caches, optimal_split_ev
from tests.test_simulate import play

SHOE = (2, 1, 1, 2, 1, 2, 1, 1, 1, 4)  # 16 cards
TENS_SHOE = (1, 1, 1, 1, 1, 1, 1, 1, 2, 6)  # 16 cards rich in tens: splits run dry never


@pytest.mark.parametrize("spec", ["BJW", "P21W", "BJW P21W", "BJW BJ6:5"])
def test_tokens_round_trip_and_are_said_in_words(spec: str) -> None:
    rules = parse_spec(f"6D H17 LS {spec}")
    assert parse_spec(format_spec(rules)) == rules
    for token in spec.split():
        assert token in format_spec(rules).split()
    words = " ".join(describe_rules(rules))
    assert ("beats a dealer blackjack" in words) == rules.blackjack_wins
    assert ("always wins" in words) == rules.player_21_wins
    if rules.blackjack_wins:
        assert "paid 6:5" in words or "paid 3:2" in words


FAST = [
    pytest.param("1D S17 DOA NDAS NSPL NS BJW", SHOE, id="BJW"),
    pytest.param("1D S17 DOA NDAS NSPL NS P21W", SHOE, id="P21W"),
]
SLOW = [
    pytest.param("1D H17 DOA NDAS NSPL LS ENHC BJW P21W", SHOE, id="ENHC-BJW-P21W"),
    pytest.param("1D S17 DOA NDAS NSPL NS BJW P21W", SHOE, id="BJW-P21W"),
    pytest.param("1D S17 DOA DAS SPL1 LS P21W", TENS_SHOE, id="P21W-splits"),
    pytest.param("1D S17 DOA DAS SPL1 LS BJW P21W PEEKA", TENS_SHOE, id="PEEKA-both-splits"),
    pytest.param("1D H17 DOA DAS SPL1 LS ENHC OBO P21W", SHOE, id="ENHC-OBO-P21W"),
    pytest.param("1D S17 DOA NDAS SPL1 NS P21W CH5 A21", SHOE, id="P21W-CH5-A21"),
]


@pytest.mark.parametrize("spec, counts", [*FAST, *(
    pytest.param(*p.values, id=p.id, marks=pytest.mark.slow) for p in SLOW)])
def test_round_and_every_two_card_hand_equal_the_oracle(spec: str,
                                                        counts: tuple[int, ...]) -> None:
    rules = parse_spec(spec)
    analysis = Analysis(rules, Shoe(counts), exact=True)
    assert analysis.by_upcard() == oracle.round_ev_by_upcard(rules, counts)
    assert analysis.ev() == oracle.round_ev(rules, counts)
    names = {0: "stand", 1: "hit", 2: "double", 3: "split", 4: "surrender"}
    for up in range(1, 11):
        if not counts[up - 1]:
            continue
        for a in range(1, 11):
            for b in range(a, 11):
                try:
                    Shoe(counts).remove([up, a, b])
                except Exception:
                    continue
                if {a, b} == {1, 10}:  # conditioned on no dealer blackjack where peeked
                    theirs = oracle.hand_evs(rules, counts, up, (a, b))
                    assert analysis.natural_value(up) == theirs["stand"], up
                    continue
                theirs = oracle.hand_evs(rules, counts, up, (a, b))
                for action, value in analysis.actions(up, (a, b)).items():
                    assert value == theirs[names[int(action)]], (up, a, b, action)


def test_each_rule_changes_the_figure_it_should() -> None:
    """Against the same game without it: BJW adds the payout on every blackjack pair
    (exactly ``pays x P(both naturals)``); P21W adds the pushes of 21 against 21 and more."""
    base = parse_spec("1D S17 DOA NDAS NSPL NS")
    plain = Analysis(base, Shoe(SHOE), exact=True)
    bjw = Analysis(base.replace(blackjack_wins=True), Shoe(SHOE), exact=True)
    n = SHOE
    total = sum(n)
    # Upcard and hole an ace and a ten, the player's two cards the other ace and ten.
    both = Fraction(0)
    for up in (1, 10):
        hole = 11 - up
        rest = list(n)
        rest[up - 1] -= 1
        p_hole = Fraction(rest[hole - 1], total - 1)
        rest[hole - 1] -= 1
        p_player = Fraction(2 * rest[0] * rest[9], (total - 2) * (total - 3))
        both += Fraction(n[up - 1], total) * p_hole * p_player
    assert bjw.ev() - plain.ev() == Fraction(3, 2) * both
    p21w = Analysis(base.replace(player_21_wins=True), Shoe(SHOE), exact=True)
    assert p21w.ev() > plain.ev()


@pytest.mark.parametrize("spec", ["1D S17 DOA NDAS NSPL NS BJW P21W",
                                  "1D H17 DOA DAS SPL1 LS ENHC BJW P21W"])
def test_the_distribution_mean_is_the_ev(spec: str) -> None:
    rules = parse_spec(spec)
    dist = round_distribution(rules, Shoe(TENS_SHOE), exact=True)
    assert dist.mean == Analysis(rules, Shoe(TENS_SHOE), exact=True).ev()
    assert sum(dist.probabilities.values()) == 1


def test_exact_split_mode_refuses_p21w() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL1 NS P21W")
    with pytest.raises(RuleConflictError, match="player 21 wins"):
        new_analysis(rules, Shoe(TENS_SHOE), exact=True, split="exact").ev()


# -- the simulator's own settlement, card by card ----------------------------------------------
@pytest.mark.parametrize(("spec", "cards", "expected"), [
    # player (A, T), upcard A, hole T: a dealer blackjack peeked
    ("6D S17", [1, 1, 10, 10], 0.0),
    ("6D S17 BJW", [1, 1, 10, 10], 1.5),
    ("6D S17 BJW BJ6:5", [1, 1, 10, 10], 1.2),
    ("6D S17 ENHC BJW", [1, 10, 10, 1], 1.5),  # unchecked: shows at the end, still paid
    # player 6+3 hits 2 and a ten: a 21 of four cards against a dealer 21 (T, 6, 5)
    ("6D S17", [6, 10, 3, 6, 2, 10, 5], 0.0),
    ("6D S17 P21W", [6, 10, 3, 6, 2, 10, 5], 1.0),
    # 7+4 doubled, a ten: the doubled 21 wins its whole stake against the dealer's 21
    ("6D S17", [7, 10, 4, 6, 10, 5], 0.0),
    ("6D S17 P21W", [7, 10, 4, 6, 10, 5], 2.0),
    # against a dealer 22 under P22 a 21 still wins
    ("6D S17 P22", [6, 10, 3, 6, 2, 10, 6], 0.0),
    ("6D S17 P21W P22", [6, 10, 3, 6, 2, 10, 6], 1.0),
    # ENHC: a dealer blackjack after the player's doubled 21 beats it, taking what the
    # game's unchecked blackjack takes (all, or the original bet with OBO)
    ("6D S17 ENHC P21W", [7, 10, 4, 10, 1], -2.0),
    ("6D S17 ENHC OBO P21W", [7, 10, 4, 10, 1], -1.0),
])
def test_the_simulator_settles_each_rule(spec: str, cards: list[int], expected: float) -> None:
    result, _ = play(spec, cards)
    assert result == expected


def test_the_simulator_agrees_with_the_exact_ev() -> None:
    rules = parse_spec("1D H17 DOA DAS SPL3 RSA HSA LS BJW P21W")
    analysis = Analysis(rules)
    exact = float(analysis.ev())
    result = simulate(rules, 4_000_000, seed=21, jobs=2, strategy=FrozenStrategy(analysis))
    assert abs(result.z(exact)) < 3, (result.mean, result.se, exact)
    plain = float(Analysis(rules.replace(blackjack_wins=False, player_21_wins=False)).ev())
    assert abs(plain - exact) > 6 * result.se  # the rules are seen, not only played


# -- optimal splitting (full card memory) against its whole-round enumeration -----------------
@pytest.mark.parametrize(("spec", "counts", "up", "pair"), [
    ("1D S17 DOA DAS SPL1 NS P21W", (0, 2, 1, 0, 1, 1, 1, 0, 1, 6), 6, 2),
    pytest.param("1D S17 DOA DAS SPL3 RSA HSA NS P21W BJW", (3, 1, 1, 1, 1, 1, 1, 1, 1, 9), 5,
                 1, marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL1 ENHC OBO NS P21W", (1, 3, 1, 1, 1, 1, 1, 1, 1, 8), 10, 2,
                 marks=pytest.mark.slow),
])
def test_optimal_splitting_with_p21w_matches_the_enumeration(
        spec: str, counts: tuple[int, ...], up: int, pair: int) -> None:
    rules = parse_spec(spec)
    exact = optimal_tests.engine(rules, counts, up, pair)
    assert exact == optimal_split_ev(rules, counts, up, pair)
    assert exact != optimal_tests.engine(rules.replace(player_21_wins=False), counts, up, pair)
    clear_caches()


@pytest.mark.slow
def test_levels_of_split_play_keep_their_order_under_p21w() -> None:
    """CDZ- <= CDP1 <= CDP <= optimal for every pair and upcard with P21W and BJW too."""
    optimal_tests.test_order_of_levels_every_pair_and_upcard("1D S17 DOA DAS SPL1 NS P21W BJW")
