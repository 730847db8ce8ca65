"""Checks the distribution tests share: the engine's exact distribution of a round
against the brute-force enumerator (``tests/oracle_distribution.py``), as fractions, and
against the simulator's histogram (its own round loop), by chi-square."""

from __future__ import annotations

from analyzer.certificates.sim import chi2_sf, pool
from analyzer.core.rules import Rules, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.distribution import round_distribution
from analyzer.engine.frozen import FrozenStrategy
from analyzer.sim.estimate import simulate
from tests import oracle_distribution


def check_against_the_oracle(spec: str, counts: tuple[int, ...]) -> None:
    """The same fractions as the oracle, enumerated exactly, summing to 1, with the
    engine's exact EV as mean."""
    rules = parse_spec(spec)
    mine = round_distribution(rules, Shoe(counts), exact=True)
    assert mine.error_bound == 0
    assert mine.probabilities == oracle_distribution.round_distribution(rules, counts)
    assert mine.total == 1
    assert mine.mean == Analysis(rules, Shoe(counts), exact=True).ev()


def check_the_simulators_histogram(rules: Rules, seed: int,
                                   rounds: int = 100_000_000
                                   ) -> tuple[float, int, float, float]:
    """The simulator playing the optimum, ``rounds`` rounds at ``seed``, against the
    distribution (floats): nothing it calls impossible, chi-square p > 0.001 over at
    least 12 pooled groups, |z| < 3 on the mean.  Returns (chi-square, dof, z, the
    distribution's error bound).

    Where resplit rounds are settled within a bound (``error_bound`` per probability),
    the total and the mean are held to what that bound allows them."""
    analysis = Analysis(rules)
    dist = round_distribution(rules, jobs=2)
    bound = float(dist.error_bound)
    results = len(dist.probabilities)
    spread = sum(abs(float(x)) for x in dist.probabilities)
    assert abs(float(dist.mean) - float(analysis.ev())) <= 1e-12 + bound * spread
    assert abs(float(dist.total) - 1) <= 1e-12 + bound * results
    result = simulate(rules, rounds, seed=seed, jobs=2, strategy=FrozenStrategy(analysis))
    assert set(result.histogram) <= set(dist.probabilities)  # nothing the exact calls impossible
    groups = pool(dist.probabilities, result.histogram, rounds)
    chi2 = float(sum(g.term for g in groups))
    assert len(groups) >= 12
    assert chi2_sf(chi2, len(groups) - 1) > 0.001, chi2
    z = result.z(float(dist.mean))
    assert abs(z) < 3
    return chi2, len(groups) - 1, z, bound
