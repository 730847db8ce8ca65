"""The EV of a fixed strategy, averaged over the one-card-removed shoes, is its full-shoe EV.

Removing a card drawn at random from the shoe does not change the expectation of
anything dealt afterwards; so for a *fixed* strategy, sum over values v of
``n_v / N * EV(shoe - v)`` must equal ``EV(shoe)``.  Any error in how a shoe
state's probabilities are bookkept (dealer, conditioning, doubles, surrender,
splits and resplits) breaks it.  The strategy is the full shoe's optimal CDZ- one,
frozen, so it is not re-optimised on the smaller shoes.
"""

from __future__ import annotations

import pytest

from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy


def averaged(spec: str) -> tuple[float, float, float]:
    rules = parse_spec(spec)
    optimal = Analysis(rules)
    frozen = FrozenStrategy(optimal)
    full = Analysis(rules, strategy=frozen).ev()
    shoe = optimal.shoe
    avg = sum(shoe[v] / shoe.total * Analysis(rules, shoe.remove([v]), strategy=frozen).ev()
              for v in range(1, 11))
    return optimal.ev(), full, avg


@pytest.mark.parametrize("spec", [
    "1D S17 DOA NDAS NSPL LS", "1D H17 D10 NDAS NSPL ES ENHC",
    pytest.param("1D H17 DOA DAS SPL1 NS", marks=pytest.mark.slow),  # splits: 12-16 s each
    pytest.param("1D S17 D10 NDAS SPL1 ES", marks=pytest.mark.slow)])
def test_one_card_removed_identity(spec: str) -> None:
    optimal, full, avg = averaged(spec)
    assert full == optimal  # the frozen strategy is the optimal one on the full shoe
    assert abs(avg - full) < 1e-12


@pytest.mark.slow
def test_one_card_removed_identity_with_resplits() -> None:
    optimal, full, avg = averaged("2D S17 DOA DAS SPL3 LS")
    assert full == optimal
    assert abs(avg - full) < 1e-12


def test_identity_fails_for_a_strategy_that_adapts() -> None:
    """Re-optimising on each depleted shoe gains: the average then exceeds the full EV."""
    rules = parse_spec("1D S17 DOA NDAS NSPL LS")
    full = Analysis(rules)
    shoe = full.shoe
    avg = sum(shoe[v] / shoe.total * Analysis(rules, shoe.remove([v])).ev()
              for v in range(1, 11))
    assert avg > full.ev() + 1e-6
