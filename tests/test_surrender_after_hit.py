"""SAH: surrender after hitting, for half the bet, on an unsplit hand of three or more cards.

* The brute-force oracle (``tests/oracle.py``) plays it with its own code; the engine
  equals it as fractions, round and every two- and three-card hand, on small shoes
  (with splits, where a split hand may not surrender and plays the best of its other
  options, and with DAN and DDR).
* The simulator plays it with its own round loop and agrees with the exact EV; on
  stacked deals it surrenders an unsplit three-card hand and never a split one.
* The parts that do not play it refuse it in one line.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.actions import HIT, STAND, SURRENDER
from analyzer.core.errors import RuleConflictError
from analyzer.core.rules import describe_rules, format_spec, parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.engine.optimal_split import SplitInfeasible
from analyzer.sim import simulate
from tests.test_double_any import MIX, SMALL, TENS_SHOE, _check
from tests.test_simulate import play


@pytest.mark.parametrize("spec", ["LS SAH", "ES SAH", "LS SAH SNA", "LS SAH DAN DDR"])
def test_the_token_round_trips_and_is_said_in_words(spec: str) -> None:
    rules = parse_spec(f"6D H17 {spec}")
    assert rules.surrender_after_hit and parse_spec(format_spec(rules)) == rules
    assert any("surrender after hitting" in line for line in describe_rules(rules))
    assert not any("surrender after hitting" in line for line in describe_rules(
        rules.replace(surrender_after_hit=False)))


@pytest.mark.parametrize("spec, message", [
    ("6D SAH", "SAH with NS: .* allows none"),
    ("6D LS SAH ENHC", "SAH with ENHC"),
    ("6D LS SAH PEEKA", "SAH with PEEKA"),
])
def test_without_a_surrender_rule_or_a_full_peek_it_is_refused(spec: str,
                                                               message: str) -> None:
    with pytest.raises(RuleConflictError, match=message):
        parse_spec(spec)


FAST = [pytest.param("1D S17 DOA NDAS NSPL LS SAH", SMALL, id="SAH")]
SLOW = [
    pytest.param("1D H17 DOA NDAS NSPL LS SAH DAN DDR", SMALL, id="SAH-DAN-DDR"),
    pytest.param("1D S17 DOA DAS SPL1 LS SAH", TENS_SHOE, id="SAH-splits"),
    # small pairs: split hands meet the totals the unsplit hand surrenders
    pytest.param("1D S17 DOA DAS SPL1 LS SAH DAN", MIX, id="SAH-DAN-splits-small-cards"),
    pytest.param("1D S17 DOA NDAS SPL1 ES SAH DAN SNA", MIX, id="SAH-ES-NDAS-SNA"),
    pytest.param("1D S17 DOA DAS SPL3 LS SAH DDR", TENS_SHOE, id="SAH-resplits-DDR"),
]


@pytest.mark.parametrize("spec, counts", FAST)
def test_round_and_every_hand_equal_the_oracle(spec: str, counts: tuple[int, ...]) -> None:
    _check(spec, counts, three_cards=True)


@pytest.mark.slow
@pytest.mark.parametrize("spec, counts", SLOW)
def test_round_and_every_hand_equal_the_oracle_with_more_rules(
        spec: str, counts: tuple[int, ...]) -> None:
    _check(spec, counts, three_cards=True)


def test_a_hand_after_hitting_may_surrender_where_surrender_is_allowed() -> None:
    rules = parse_spec("6D H17 DOA DAS SPL3 LS SAH SNA")
    analysis = Analysis(rules, exact=True)
    sixteen = analysis.actions(10, (10, 2, 4))  # hard 16 against a ten: surrender is best
    assert sixteen[SURRENDER] == Fraction(-1, 2) == max(sixteen.values())
    assert SURRENDER not in analysis.actions(1, (10, 2, 4))  # SNA: not against an ace
    assert SURRENDER not in Analysis(rules.replace(surrender_after_hit=False),
                                     exact=True).actions(10, (10, 2, 4))
    floats = Analysis(rules)
    assert floats.ev() > Analysis(rules.replace(surrender_after_hit=False)).ev()  # never costs
    frozen = FrozenStrategy(floats)
    comp = (0, 1, 0, 1, 0, 0, 0, 0, 0, 1)
    assert frozen.decide(10, comp, frozenset({STAND, HIT, SURRENDER})) == SURRENDER
    # offered no surrender (a split hand), the better of standing and hitting
    better = HIT if sixteen[HIT] > sixteen[STAND] else STAND
    assert frozen.decide(10, comp, frozenset({STAND, HIT})) == better


@pytest.mark.parametrize(("spec", "cards", "expected"), [
    # 10, 2 against a ten (hole 7) hits a 4: hard 16 at three cards, surrendered (-1/2);
    # without SAH it hits the ten and busts
    ("6D S17 LS SAH", [10, 10, 2, 7, 4, 10], (-0.5, 5)),
    ("6D S17 LS", [10, 10, 2, 7, 4, 10], (-1.0, 6)),
    # 8, 8 split against a ten (hole 7): 8, 4 hits a 4 to 16 and may not surrender: it
    # hits the ten and busts; 8, 10 stands on 18 against 17
    ("6D S17 LS SAH DAS SPL1", [8, 10, 8, 7, 4, 4, 10, 10], (0.0, 8)),
])
def test_the_simulator_surrenders_unsplit_hands_only(spec: str, cards: list[int],
                                                     expected: tuple[float, int]) -> None:
    assert play(spec, cards) == expected


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["6D H17 DOA DAS SPL3 LS SAH",
                                  "1D S17 DOA DAS SPL3 LS SAH DAN DDR SNA"])
def test_the_simulator_agrees_with_the_exact_ev(spec: str) -> None:
    rules = parse_spec(spec)
    analysis = Analysis(rules)
    result = simulate(rules, 16_000_000, seed=26, jobs=2, strategy=FrozenStrategy(analysis))
    assert abs(result.z(float(analysis.ev()))) < 3, (result.mean, result.se)


def test_only_the_shoe_size_stops_optimal_splitting_under_sah() -> None:
    rules = parse_spec("6D H17 DAS SPL3 LS SAH")
    # a split hand never surrenders: optimal splitting is stopped by the shoe's size only
    with pytest.raises(SplitInfeasible, match="at most 52 cards"):
        Analysis(rules, split="optimal")
