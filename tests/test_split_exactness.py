"""Farmer's split algorithm equals the exact whole-round EV of the CDZ- strategy.

:mod:`analyzer.engine.splits` (the default, fast, used for full shoes) and
:mod:`analyzer.oracle.exact_splits` (every card sequence of the round enumerated, every
split hand's cards removed) are independent computations.  On small shoes they
must agree as exact fractions for every pair, upcard and split rule.
"""

from __future__ import annotations

import pytest

from analyzer.core.actions import SPLIT
from analyzer.core.errors import ShoeError
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.oracle.split_mode import new_analysis

SHOE = Shoe((1, 2, 1, 2, 1, 2, 1, 2, 2, 6))  # 20 cards, rich in tens so it cannot run dry
RULES = ["1D S17 DOA DAS SPL3 NS", "1D H17 D10 NDAS SPL2 LS RSA",
         pytest.param("1D S17 DOA DAS SPL3 NS ENHC", marks=pytest.mark.slow),
         pytest.param("1D S17 DOA DAS SPL3 NS ENHC OBO", marks=pytest.mark.slow)]


@pytest.mark.parametrize("spec", RULES)
def test_farmer_splits_are_exact(spec: str) -> None:
    rules = parse_spec(spec)
    farmer = Analysis(rules, SHOE, exact=True)
    exact = new_analysis(rules, SHOE, exact=True, split="exact")
    compared = 0
    for up in (1, 6, 10):
        for pair in (2, 4, 8, 9, 10):
            try:
                truth = exact.actions(up, (pair, pair))[SPLIT]
            except ShoeError:
                continue  # a sequence of this round would empty the shoe
            assert farmer.actions(up, (pair, pair))[SPLIT] == truth, (up, pair)
            compared += 1
    assert compared >= 8
