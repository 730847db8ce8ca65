"""The engine against every CDZ- figure printed by Farmer's analyzer (source in farmer_reference).

Tolerance: the reference prints 9 decimals of a percentage, so each figure must
agree to 1e-9 percentage points (1e-11 of a unit bet); dealer probabilities print
5 decimals and must agree to that digit.
"""

from __future__ import annotations

from functools import cache

import pytest

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import dealer_distribution
from tests.farmer_reference import FarmerReference, load

CASES = {
    "6d-s17-das-spl3-ls-cdz.txt": "6D S17 DOA DAS SPL3 LS",
    "8d-s17-das-spl3-ns-cdz.txt": "8D S17 DOA DAS SPL3 NS",
    "1d-h17-ndas-spl1-ns-cdz.txt": "1D H17 DOA NDAS SPL1 NS",
}
TOL = 1e-9  # percentage points: the reference's last printed digit
NAMES = {STAND: "stand", HIT: "hit", DOUBLE: "double", SPLIT: "split", SURRENDER: "surrender"}


@cache
def analysed(name: str) -> tuple[Analysis, FarmerReference]:
    analysis = Analysis(parse_spec(CASES[name]))
    analysis.ev()
    return analysis, load(name)


@pytest.mark.parametrize("name", CASES)
def test_overall_and_by_upcard(name: str) -> None:
    analysis, ref = analysed(name)
    assert abs(analysis.ev() * 100 - ref.overall) <= TOL
    by = analysis.by_upcard()
    assert len(ref.by_upcard) == 10
    for up, value in ref.by_upcard.items():
        assert abs(by[up] * 100 - value) <= TOL, up


@pytest.mark.parametrize("name", CASES)
def test_dealer_table(name: str) -> None:
    analysis, ref = analysed(name)
    assert len(ref.dealer) == 10
    for up, row in ref.dealer.items():
        d = dealer_distribution(analysis.shoe.remove([up]).counts, up,
                                hits_soft_17=analysis.rules.hits_soft_17, exact=False)
        mine = {"bust": d.bust, "blackjack": d.outcomes["blackjack"],
                **{t: d.outcomes[t] for t in ("17", "18", "19", "20", "21")}}
        for key, value in row.items():
            assert abs(mine[key] - value) <= 5e-6, (up, key)


@pytest.mark.parametrize("name", CASES)
def test_hand_queries(name: str) -> None:
    analysis, ref = analysed(name)
    assert len(ref.queries) == 7
    for up, cards, evs in ref.queries:
        mine = {NAMES[a]: v * 100 for a, v in analysis.actions(up, cards).items()}
        assert set(mine) == set(evs), (up, cards)
        for action, value in evs.items():
            assert abs(mine[action] - value) <= TOL, (up, cards, action)


@pytest.mark.parametrize("name", CASES)
def test_pair_tables(name: str) -> None:
    analysis, ref = analysed(name)
    assert set(ref.pair_tables) == {"split", "stand", "hit", "double"}
    for table, cells in ref.pair_tables.items():
        assert len(cells) == 100
        for (pair, up), value in cells.items():
            mine = analysis.actions(up, (pair, pair))
            action = {"split": SPLIT, "stand": STAND, "hit": HIT, "double": DOUBLE}[table]
            assert abs(mine[action] * 100 - value) <= TOL, (table, pair, up)
