"""The post-split levels CDP1 and CDP under the rules that play a hand on after its first
decision or pay it more: DAN, RDn, DDR, SAH, the 21 bonuses, P21W and BJW.

CDP1 plays each split hand as is best for a split hand of its cards in the shoe less the
upcard, the hand and one more pair card, and keeps that play however many more pair
cards the resplits take.  That play depends on the hand's own cards only, so the round's
EV under it is exact, and the brute-force oracle (``tests/oracle.py``,
``split_play="cdp1"``: its own valuation of a split hand, its own card-by-card round)
gives it as a fraction.  The shoes are small and high: no play of any hand can run them
out, and the small pairs in some of them resplit, so the levels past the first (where
CDP1 carries the first level's doubles, redoubles and rescues) are played.  With one
split only (SPL1) there is one level and CDP is CDP1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.presets import game_rules
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from tests import oracle

HIGH = (0, 1, 0, 0, 2, 2, 2, 2, 2, 6)  # 19 cards: tens resplit
TWOS = (0, 3, 1, 0, 1, 1, 2, 2, 2, 7)  # 19 cards: three 2s, split twice, double after hits
THREES = (0, 0, 3, 0, 1, 2, 2, 2, 2, 7)  # 19 cards
ACE = (1, 0, 0, 0, 1, 2, 2, 2, 2, 6)  # 16 cards with an ace: soft hands, A-T after splits
SMALL = (1, 2, 2, 2, 1, 1, 1, 1, 1, 6)  # 18 cards: five- and six-card 21s (one split only)
SPANISH = ("1D SP H17 DOA DAN DDR DAS SPL3 RSA HSA LS BJW P21W B5C=3:2 B6C=2:1 B7C=3:1 "
           "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 BND")

CASES = [
    pytest.param("1D S17 DOA DAS SPL3 RSA NS", HIGH, id="plain"),
    pytest.param("1D S17 DOA DAS SPL2 NS DAN", TWOS, id="DAN",
                 marks=pytest.mark.slow),
    pytest.param("1D H17 DOA DAS SPL3 LS DAN DDR RD2", TWOS, id="DAN-DDR-RD2",
                 marks=pytest.mark.slow),
    pytest.param("1D H17 DOA DAS SPL3 LS DDR", THREES, id="DDR",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL3 NS RD1", THREES, id="RD1",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL3 LS SAH DAN", TWOS, id="SAH",
                 marks=pytest.mark.slow),
    pytest.param("1D H17 DOA DAS SPL3 NS B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 P21W", ACE,
                 id="suit-bonuses-P21W",  # the spanish21 case below has both, on this shoe
                 marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL1 NS B5C=2:1 B6C=3:1 B7C=5:1 BJW", SMALL,
                 id="card-bonuses-BJW",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL1 NS DAN RD1 B5C=2:1 BNS", SMALL, id="DAN-RD1-BNS",
                 marks=pytest.mark.slow),
    pytest.param(SPANISH, ACE, id="spanish21"),
    pytest.param(SPANISH, HIGH, id="spanish21-resplits", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("spec, counts", CASES)
def test_cdp1_equals_the_oracle_as_fractions(spec: str, counts: tuple[int, ...]) -> None:
    rules = parse_spec(spec)
    cdp1 = Analysis(rules, Shoe(counts), exact=True, split="cdp1").by_upcard()
    cdz = Analysis(rules, Shoe(counts), exact=True).by_upcard()
    try:
        assert cdp1 == oracle.round_ev_by_upcard(rules, counts, split_play="cdp1")
        # the oracle's CDZ- too: the two plays differ, so the check can tell them apart
        assert cdz == oracle.round_ev_by_upcard(rules, counts)
    finally:
        oracle.clear_caches()
    assert any(cdp1[up] != cdz[up] for up in cdz), "CDP1 plays no split hand otherwise here"
    floats = Analysis(rules, Shoe(counts), split="cdp1").by_upcard()
    assert all(abs(float(cdp1[up]) - floats[up]) < 1e-12 for up in cdp1)
    if rules.max_hands == 2:  # one level: CDP is CDP1
        assert Analysis(rules, Shoe(counts), exact=True, split="cdp").by_upcard() == cdp1


def test_split_hands_never_double_a_21() -> None:
    """A split ace drawing a ten is a 21, never doubled (the engine's reading after hitting
    too): on this shoe doubling it would pay, and CDP1 took it before the fix."""
    rules = parse_spec("1D S17 DOA DAS SPL1 RSA NS")
    value = Analysis(rules, Shoe(ACE), exact=True, split="cdp1").actions(6, (10, 10))[3]
    try:
        assert value == oracle.hand_evs(rules, ACE, 6, (10, 10), split_play="cdp1")["split"]
    finally:
        oracle.clear_caches()
    assert value == Fraction(150, 143)  # doubling the A-T made it 1.1105


@pytest.mark.parametrize("game", ["spanish21", "spanish21-s17"])
def test_the_levels_order_on_spanish21(game: str) -> None:
    """More information for the split hands never costs: CDZ- <= CDP1, and CDP differs
    from CDP1 by little (Farmer's CDP combines per-level plays)."""
    rules = game_rules(game)
    cdz, cdp1, cdp = (Analysis(rules, split=s).ev() for s in ("cdz", "cdp1", "cdp"))
    assert cdz < cdp1 < cdz + 1e-3
    assert abs(cdp - cdp1) < 1e-4
