"""The figures a certification report states about a round's net result, from its distribution.

:class:`DistributionReport` wraps a :class:`~analyzer.engine.distribution.RoundDistribution`
(computed once) and derives every figure from it: mean, variance, standard
deviation, skewness, hit frequency, the largest win and loss with their odds,
the volatility index and the RTP confidence intervals (the side-bet par sheets'
helpers, :mod:`analyzer.sidebets.stats`).  Renderers
(:mod:`analyzer.report.distribution_render`) are pure functions of it.

In exact mode every figure but the standard deviation and what follows from it
(a square root) is a :class:`~fractions.Fraction`; otherwise floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer import __version__
from analyzer.core.rules import format_spec
from analyzer.core.shoe import format_shoe
from analyzer.engine.distribution import RoundDistribution
from analyzer.sidebets.stats import CONFIDENCES, ROUNDS, rtp_interval, volatility_index

Number = Any  # float, or Fraction in exact mode


def format_result(x: Fraction) -> str:
    """A net result as an exact string: ``"-4"``, ``"-1/2"``, ``"3/2"``."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class Extreme:
    """The largest win or loss of a round, with its probability."""

    result: Fraction
    probability: Number

    @property
    def one_in(self) -> float | None:
        """Odds as "1 in N" (None when impossible)."""
        return float(1 / self.probability) if self.probability else None


@dataclass(frozen=True)
class DistributionReport:
    """Every figure of one round's distribution; ``ev`` is the engine's EV of the same play."""

    dist: RoundDistribution
    title: str
    ev: Number

    @property
    def probabilities(self) -> dict[Fraction, Number]:
        return self.dist.probabilities

    @property
    def exact(self) -> bool:
        return self.dist.exact

    def _sum(self, f: Any) -> Number:
        zero: Number = Fraction(0) if self.exact else 0.0
        return sum((f(x) * p for x, p in self.probabilities.items()), zero)

    @property
    def total(self) -> Number:
        return self._sum(lambda x: 1)

    @property
    def mean(self) -> Number:
        return self._sum(lambda x: x if self.exact else float(x))

    @property
    def rtp(self) -> Number:
        return 1 + self.mean

    @property
    def variance(self) -> Number:
        m = self.mean
        return self._sum(lambda x: (x - m) ** 2 if self.exact else (float(x) - m) ** 2)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def skewness(self) -> float:
        m, sd = self.mean, self.sd
        third = self._sum(lambda x: (x - m) ** 3 if self.exact else (float(x) - m) ** 3)
        return float(third) / sd**3 if sd else 0.0

    def chance(self, test: Any) -> Number:
        """Probability that the net result passes ``test``."""
        return self._sum(lambda x: 1 if test(x) else 0)

    @property
    def p_win(self) -> Number:
        """P(net > 0): the hit frequency."""
        return self.chance(lambda x: x > 0)

    @property
    def p_push(self) -> Number:
        return self.chance(lambda x: x == 0)

    @property
    def p_loss(self) -> Number:
        return self.chance(lambda x: x < 0)

    @property
    def largest_win(self) -> Extreme:
        x = max(self.probabilities)
        return Extreme(x, self.probabilities[x])

    @property
    def largest_loss(self) -> Extreme:
        x = min(self.probabilities)
        return Extreme(x, self.probabilities[x])

    def volatility(self) -> dict[float, float]:
        return {c: volatility_index(self, c) for c in CONFIDENCES}

    def intervals(self) -> list[tuple[int, dict[float, tuple[float, float]]]]:
        return [(n, {c: rtp_interval(self, n, c) for c in CONFIDENCES}) for n in ROUNDS]

    @property
    def mean_matches_ev(self) -> bool:
        """The distribution's mean is the engine's EV (exactly, or to 1e-12 in floats)."""
        if self.dist.error_bound:
            return abs(float(self.mean - self.ev)) <= 16 * float(self.dist.error_bound)
        return bool(self.mean == self.ev) if self.exact else abs(self.mean - self.ev) <= 1e-12

    def header(self) -> dict[str, str]:
        d = self.dist
        return {"game": self.title, "rules": format_spec(d.rules), "shoe": format_shoe(d.shoe),
                "strategy": d.strategy, "arithmetic": "exact" if d.exact else "float64",
                "engine": f"bja {__version__}"}


def make_report(dist: RoundDistribution, title: str, ev: Number) -> DistributionReport:
    return DistributionReport(dist=dist, title=title, ev=ev)
