"""The simulation figures of a certificate: the cross-check of the exact distribution, and
the RTP as dealt to a cut card.

*Cross-check.*  The independent simulator (:mod:`analyzer.sim`) plays
a fixed number of rounds at a fixed seed, every round from a freshly shuffled
shoe, with the same CDZ- strategy the exact distribution assumes.  Two tests:

* the z-score of the simulated mean against the exact EV
  (``(mean - EV) / SE``, ``SE = sd / sqrt(rounds)``);
* Pearson's chi-square of the simulated histogram against the exact
  distribution.  Pooling rule: the possible results, in increasing order, are
  grouped consecutively until each group expects at least 5 rounds (a short
  last group joins the one before); degrees of freedom = groups - 1 (nothing
  is estimated from the sample).  The p-value is the chi-square survival
  function, ``Q(dof/2, chi2/2)`` (regularised upper incomplete gamma, mpmath).
  A simulated result the exact distribution calls impossible fails the test
  outright.

Agreement is declared at ``|z| <= 4`` and ``p >= 0.001`` (thresholds fixed
before any run, printed in every certificate).

*As dealt.*  Under a cut card the rounds of a shoe are correlated and their mix
is biased by the cards dealt; the RTP as dealt is estimated by simulation with
a cluster-robust standard error (:func:`~analyzer.sim.rtp_as_dealt`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.core.rules import Rules
from analyzer.util.progress import ProgressCallback

Z_LIMIT = 4.0
P_LIMIT = 0.001
MIN_EXPECTED = 5.0
POOLING_RULE = ("possible results, in increasing order, grouped consecutively until each "
                "group expects at least 5 rounds (a short last group joins the one before); "
                "degrees of freedom = groups - 1")


@dataclass(frozen=True)
class Group:
    """One chi-square cell: the results pooled in it, observed and expected rounds."""

    low: Fraction
    high: Fraction
    observed: int
    expected: float

    @property
    def term(self) -> float:
        return (self.observed - self.expected) ** 2 / self.expected


@dataclass(frozen=True)
class SimCheck:
    """The simulation cross-check of one exact distribution."""

    rounds: int
    seed: int
    jobs: int
    strategy: str
    mean: float
    se: float
    exact_ev: float
    groups: tuple[Group, ...]
    unexpected: int  # simulated rounds on a result the exact distribution calls impossible

    @property
    def z(self) -> float:
        return (self.mean - self.exact_ev) / self.se if self.se > 0 else 0.0

    @property
    def chi2(self) -> float:
        return math.inf if self.unexpected else sum(g.term for g in self.groups)

    @property
    def dof(self) -> int:
        return len(self.groups) - 1

    @property
    def p_value(self) -> float:
        return chi2_sf(self.chi2, self.dof)

    @property
    def tested(self) -> bool:
        """Whether there was a test at all: a spread to measure z by and a chi-square
        with one degree of freedom or more (too few rounds leave neither)."""
        return self.se > 0 and self.dof >= 1

    @property
    def agrees(self) -> bool:
        return self.tested and abs(self.z) <= Z_LIMIT and self.p_value >= P_LIMIT

    @property
    def verdict(self) -> str:
        """``agrees``, ``DISAGREES``, or ``NOT TESTED`` (too few rounds for a test)."""
        return "agrees" if self.agrees else "DISAGREES" if self.tested else "NOT TESTED"


@dataclass(frozen=True)
class AsDealtFigures:
    """The RTP as dealt to the cut card (fractions of the bet), how it was obtained."""

    rtp: float
    se: float
    strategy: str
    rounds: int
    seed: int
    jobs: int
    cut_card: int


def chi2_sf(chi2: float, dof: int) -> float:
    """P(X >= chi2) for X chi-square with ``dof`` degrees of freedom."""
    if math.isinf(chi2):
        return 0.0
    if dof <= 0:
        return 1.0
    import mpmath  # type: ignore[import-untyped]  # sympy's dependency; only here

    return float(mpmath.gammainc(dof / 2, chi2 / 2, mpmath.inf, regularized=True))


def pool(probabilities: dict[Fraction, Any], observed: dict[Fraction, int],
         rounds: int) -> tuple[Group, ...]:
    """The chi-square groups of :data:`POOLING_RULE`."""
    groups: list[Group] = []
    low: Fraction | None = None
    obs, exp = 0, 0.0
    for x in sorted(probabilities):
        low = x if low is None else low
        obs += observed.get(x, 0)
        exp += rounds * float(probabilities[x])
        if exp >= MIN_EXPECTED:
            groups.append(Group(low, x, obs, exp))
            low, obs, exp = None, 0, 0.0
    if low is not None:  # a short last group
        if groups:
            last = groups.pop()
            groups.append(Group(last.low, max(probabilities), last.observed + obs,
                                last.expected + exp))
        else:
            groups.append(Group(low, max(probabilities), obs, exp))
    return tuple(groups)


def cross_check(rules: Rules, probabilities: dict[Fraction, Any], exact_ev: float, *,
                rounds: int, seed: int, jobs: int,
                progress: ProgressCallback | None = None) -> SimCheck:
    """Simulate ``rounds`` CDZ- rounds off a full shoe and test them against the exact figures."""
    from analyzer.sim import simulate

    result = simulate(rules, rounds, seed=seed, jobs=jobs, strategy="optimal", cut_card=0,
                      progress=progress)
    unexpected = sum(n for x, n in result.histogram.items() if not probabilities.get(x))
    return SimCheck(rounds=rounds, seed=result.seed, jobs=result.jobs,
                    strategy=result.strategy, mean=result.mean, se=result.se_iid,
                    exact_ev=exact_ev, groups=pool(probabilities, result.histogram, rounds),
                    unexpected=unexpected)


def as_dealt(rules: Rules, *, rounds: int, seed: int, jobs: int,
             strategy: str = "chart",
             progress: ProgressCallback | None = None) -> AsDealtFigures | None:
    """The RTP as dealt to the rules' cut card; None when every round is off a full shoe."""
    if not rules.cut_card:
        return None
    from analyzer.sim import rtp_as_dealt

    found = rtp_as_dealt(rules, strategy, rounds, seed=seed, jobs=jobs, progress=progress)
    return AsDealtFigures(rtp=found.rtp, se=found.se, strategy=found.strategy,
                          rounds=found.rounds, seed=found.seed, jobs=found.jobs,
                          cut_card=found.cut_card)


__all__ = ["MIN_EXPECTED", "POOLING_RULE", "P_LIMIT", "Z_LIMIT", "AsDealtFigures", "Group",
           "SimCheck", "as_dealt", "chi2_sf", "cross_check", "pool"]
