"""The distribution of a round under DAN, RDn, DDR, SAH and the 21 bonuses by card count.

A doubled hand may now be doubled again (results to ±8 and beyond) or given up for half
its stake, a hand reached by hitting may double or surrender, and a winning 21 of five
or more cards is paid its bonus (results such as 3/2 and 5/2).  Checked:

* as fractions against the independent brute-force enumerator
  (``tests/oracle_distribution.py``, built on ``tests/oracle.py``), on small shoes, each
  rule alone and together, with splits and resplits;
* its mean is the engine's exact EV, and it sums to 1;
* the simulator's histogram of a Spanish 21 game (its own round loop; one split, no suit
  bonuses) against the exact distribution, by chi-square at a fixed seed.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer.charts.evaluate import make_chart
from analyzer.charts.strategy import ChartStrategy
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine import dealer
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import row_keys
from analyzer.engine.distribution import round_distribution
from tests.distribution_checks import check_against_the_oracle, check_the_simulators_histogram

SMALL = (1, 1, 1, 2, 1, 1, 1, 2, 1, 3)  # 14 cards, pairs of 4s and 8s
LIGHT = (1, 1, 1, 2, 1, 0, 1, 2, 1, 3)  # 13 cards, the same less the 6: a third of the time
RESPLIT = (1, 1, 0, 3, 1, 1, 1, 3, 1, 3)  # 15 cards: three 4s and 8s, so resplits happen
ORACLE_CASES = [
    pytest.param("1D S17 DOA DAS SPL1 LS DAN DDR", LIGHT, id="DAN-DDR"),
    pytest.param("1D S17 DOA DAS SPL1 LS DAN DDR", SMALL, id="DAN-DDR-14",
                 marks=pytest.mark.slow),
    pytest.param("1D H17 DOA DAS SPL1 LS RD2 B5C=3:2 B6C=2:1 BND", SMALL, id="RD2-bonus-BND",
                 marks=pytest.mark.slow),
    # a split hand paid no bonus (BNS) counted in the round's halves all the same
    pytest.param("1D H17 DOA DAS SPL1 LS B5C=3:2 BNS", LIGHT, id="bonus-BNS"),
    pytest.param("1D H17 DOA DAS SPL1 LS B5C=3:2 BNS", SMALL, id="bonus-BNS-14",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 D10 NDAS SPL1 LS SAH DAN RD1 P21W BJW", SMALL, id="SAH-RD1-P21W",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL1 NS ENHC OBO DAN RD2 B5C=3:1 BNS", SMALL,
                 id="ENHC-OBO-RD2-BNS", marks=pytest.mark.slow),
    pytest.param("1D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 FSA-9 DAN", SMALL,
                 id="free-bet-DAN", marks=pytest.mark.slow),
    pytest.param("1D H17 DOA DAS SPL1 LS CH5 DAN DDR SAH", SMALL, id="CH5-DAN-DDR-SAH",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 D10 NDAS SPL3 NS DAN B5C=2:1", RESPLIT, id="resplit-DAN-bonus",
                 marks=pytest.mark.slow),
    pytest.param("1D S17 DOA DAS SPL3 NS DDR", RESPLIT, id="resplit-DAS-DDR",
                 marks=pytest.mark.slow),
    # results in thirtieths with stakes to 16: too wide for one key per split round
    pytest.param("1D S17 DOA DAS SPL1 LS RD3 B5C=3:2 B6C=7:3 B7C=11:5", SMALL,
                 id="RD3-thirtieths", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("spec", "counts"), ORACLE_CASES)
def test_the_brute_force_oracle_gives_the_same_fractions(spec: str,
                                                         counts: tuple[int, ...]) -> None:
    check_against_the_oracle(spec, counts)


MIX = (2, 1, 2, 1, 2, 2, 2, 1, 1, 6)  # 20 cards


@pytest.mark.parametrize("spec", [
    "1D S17 DOA DAS SPL1 LS RD2",
    "1D S17 DOA DAS SPL1 LS DAN DDR RD1 SAH B5C=3:2 B6C=2:1 B7C=3:1 P21W BJW",
    pytest.param("1D S17 DOA DAS SPL2 ENHC DAN RD1 B5C=2:1 BNS", marks=pytest.mark.slow)])
def test_the_mean_is_the_exact_ev(spec: str) -> None:
    rules = parse_spec(spec)
    dist = round_distribution(rules, Shoe(MIX), exact=True)
    assert dist.total == 1 and dist.error_bound == 0
    assert dist.mean == Analysis(rules, Shoe(MIX), exact=True).ev()


def test_redoubles_reach_eight_and_bonuses_make_halves() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL1 LS RD2 B5C=3:2")
    dist = round_distribution(rules, Shoe(MIX), exact=True)
    assert {Fraction(8), Fraction(-8), Fraction(-4), Fraction(4)} <= set(dist.probabilities)
    assert Fraction(3, 2) in dist.probabilities  # a blackjack, or a five-card 21
    assert max(dist.probabilities) > 8  # a split hand redoubled beside another


def test_results_too_wide_for_one_key_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """``RD3`` (stakes to 16) with bonuses in thirtieths of the bet: a split round's
    results against the eight outcomes take more than 62 bits as one key; the rows are
    then told apart by ``np.unique`` (it ended in an internal error)."""
    wide = []

    def spy(rows: np.ndarray) -> np.ndarray | None:
        keys = row_keys(rows)
        wide.append(keys is None)
        return keys

    monkeypatch.setattr(dealer, "row_keys", spy)
    rules = parse_spec("1D S17 DOA DAS SPL1 LS RD3 B5C=3:2 B6C=7:3 B7C=11:5")
    dist = round_distribution(rules, Shoe(MIX), exact=True)
    assert any(wide)
    assert dist.total == 1 and dist.mean == Analysis(rules, Shoe(MIX), exact=True).ev()
    rows = np.array([[5, 10**7, 3, 10**7, 9], [5, 10**7, 3, 10**7, 2], [5, 10**7, 3, 10**7, 9],
                     [0, 0, 0, 0, 2 * 10**7]])
    assert row_keys(rows) is None
    table, ids = dealer.unique_rows(rows)
    want, want_ids = np.unique(rows, axis=0, return_inverse=True)
    assert table.tolist() == want.tolist() and ids.tolist() == want_ids.ravel().tolist()


def test_a_chart_played_under_these_rules_has_its_exact_ev_as_mean() -> None:
    rules = parse_spec("2D H17 DOA DAS SPL1 LS DAN DDR RD1 SAH B5C=3:2")
    run = make_chart(rules, "chart")
    assert run.chart.evaluation is not None
    dist = round_distribution(rules, strategy=ChartStrategy(run.chart, rules), name="chart")
    assert abs(dist.mean - run.chart.evaluation.chart_ev) < 1e-13
    assert abs(dist.total - 1) < 1e-13


# Spanish 21 without its suit bonuses (tests/test_distribution_suits.py has them) and with
# one split: four hands from six decks are not enumerated exactly (see test_distribution.py)
SPANISH = "6D SP H17 DOA DAN DDR DAS SPL1 HSA LS BJW P21W B5C=3:2 B6C=2:1 B7C=3:1 BND"


@pytest.mark.slow
def test_the_simulators_histogram_meets_the_exact_distribution() -> None:
    """A Spanish 21 game, 10^8 rounds at a fixed seed."""
    check_the_simulators_histogram(parse_spec(SPANISH), seed=2026)
