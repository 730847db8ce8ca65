"""Float and exact arithmetic play the same game: a tie is a tie in both.

Found by a differential test against the oracle: on small shoes two plays are often
worth exactly the same (A,2,6,8 against a 9: stand and hit both -46/165), and floats
rounded one above the other, so the hand hit in floats and stood exactly.  Its value
is the same either way, but the pre-split strategy is what the split hands play (CDZ-):
the split of 6,6 against the 9 was -21.934% in floats and -22.256% exactly, the round
EV off by 1.6e-6.  Every decision now asks :func:`analyzer.engine.strategy.beats`,
which ties float values within ``TIE``.
"""

from __future__ import annotations

import random

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.distribution import round_distribution
from analyzer.engine.strategy import TIE, beats
from analyzer.report.model import hand_report

TIES = [  # the two cases the differential test reported, with the tied hand
    pytest.param("1D S17 DOA NDAS SPL1 ES", (1, 3, 3, 0, 0, 2, 3, 3, 2, 0), 9, (6, 6),
                 id="A2-6-8-vs-9"),
    pytest.param("2D S17 D10 NDAS SPL2 ENHC NS", (1, 1, 0, 2, 5, 1, 3, 2, 1, 1), 9, (5, 5),
                 id="A2-4-4-5-vs-9"),
]


@pytest.mark.parametrize(("spec", "counts", "upcard", "pair"), TIES)
def test_a_tie_is_played_alike_in_both_arithmetics(spec: str, counts: tuple[int, ...],
                                                    upcard: int, pair: tuple[int, int]) -> None:
    rules, shoe = parse_spec(spec), Shoe(counts)
    exact, floats = Analysis(rules, shoe, exact=True), Analysis(rules, shoe)
    for u, value in exact.by_upcard().items():
        assert abs(floats.by_upcard()[u] - float(value)) < 1e-13, u
    split_exact = dict(hand_report(exact, upcard, pair).actions)["split"]
    split_float = dict(hand_report(floats, upcard, pair).actions)["split"]
    assert abs(split_float - float(split_exact)) < 1e-13
    # the frozen play of the distribution too: its mean is the EV in either arithmetic
    dist = round_distribution(rules, shoe)
    assert abs(float(dist.mean) - float(exact.ev())) < 1e-13


@pytest.mark.slow
def test_small_shoes_give_the_exact_figures_in_floats() -> None:
    """Random shoes of 12 to 17 cards under rules with splits: every upcard's float EV
    within 1e-13 of the exact one (before: 3 of these 150 off; 14 of 411 in the
    differential test, by up to 3.1e-5)."""
    rng = random.Random(2026)
    specs = ["1D S17 DOA NDAS SPL1 ES", "1D H17 DOA DAS SPL3 LS", "1D S17 D10 NDAS SPL2 NS",
             "1D H17 DOA DAS SPL1 LS DAN", "1D S17 DOA DAS SPL2 NS ENHC"]
    checked = 0
    while checked < 150:
        counts = [rng.randint(0, 3) for _ in range(9)] + [rng.randint(0, 3)]
        if not 12 <= sum(counts) <= 17:
            continue
        rules = parse_spec(rng.choice(specs))
        try:
            exact = Analysis(rules, Shoe(tuple(counts)), exact=True).by_upcard()
        except AnalyzerError:  # a shoe that can run out, or certain blackjack
            continue
        floats = Analysis(rules, Shoe(tuple(counts))).by_upcard()
        assert max(abs(floats[u] - float(exact[u])) for u in exact) < 1e-13, (rules, counts)
        checked += 1


def test_beats_ties_floats_within_tie_and_compares_fractions_exactly() -> None:
    from fractions import Fraction

    import numpy as np

    assert not beats(-0.2787878787878787, -0.2787878787878788)  # rounding: a tie
    assert beats(0.5 + 2 * TIE, 0.5) and not beats(0.5, 0.5)
    third = Fraction(1, 3)
    assert beats(third + Fraction(1, 10**30), third) and not beats(third, third)
    got = beats(np.array([0.1 + 0.2, 0.4]), np.array([0.3, 0.3]))
    assert got.tolist() == [False, True]


def test_bja_hand_marks_the_play_the_engine_makes_on_a_tie() -> None:
    """``bja hand`` took its "best" by a plain ``max``: 2-8 against a ten, where hit and
    double are both exactly 0, was marked double in floats and hit exactly (found by a
    differential test against Eric Farmer's analyzer).  It asks the engine's choice."""
    rules = parse_spec("1D S17 D10 NDAS SPL3 RSA NS")
    shoe = Shoe((0, 1, 0, 0, 0, 0, 1, 3, 0, 11))
    exact, floats = Analysis(rules, shoe, exact=True), Analysis(rules, shoe)
    tied = dict(hand_report(exact, 10, (2, 8)).actions)
    assert tied["hit"] == tied["double"] == 0
    assert hand_report(exact, 10, (2, 8)).best == hand_report(floats, 10, (2, 8)).best == "hit"


@pytest.mark.parametrize(("spec", "counts", "upcard", "cards"), [
    ("1D S17 DOA NDAS SPL1 ES", (1, 0, 0, 0, 0, 2, 2, 0, 2, 6), 9, (1, 6)),  # stand = hit
    ("1D H17 DOA DAS SPL1 LS", (1, 0, 0, 0, 1, 1, 3, 1, 3, 6), 9, (6, 9)),  # stand = give up
    ("1D S17 D10 NDAS NSPL NS", (0, 0, 0, 0, 0, 0, 3, 2, 2, 6), 9, (7, 7)),  # stand = hit
])
def test_the_frozen_strategy_plays_a_tie_alike_in_both_arithmetics(
        spec: str, counts: tuple[int, ...], upcard: int, cards: tuple[int, int]) -> None:
    """The strategy the distribution and the simulator play (``FrozenStrategy``) compared
    with a plain ``>``: on these exact ties it chose by rounding in floats, another play
    than exactly (3 of 71 random small shoes).  It asks ``beats`` as the engine does."""
    from analyzer.core.cards import composition
    from analyzer.engine.frozen import FrozenStrategy

    rules, shoe = parse_spec(spec), Shoe(counts)
    exact, floats = Analysis(rules, shoe, exact=True), Analysis(rules, shoe)
    actions = exact.actions(upcard, cards)
    assert len(set(actions.values())) < len(actions)  # a tie, exactly
    options, comp = frozenset(actions), composition(cards)
    played = FrozenStrategy(exact).decide(upcard, comp, options)
    assert FrozenStrategy(floats).decide(upcard, comp, options) == played
    assert played == exact.best_of(upcard, cards, actions)  # the play the EV counts
