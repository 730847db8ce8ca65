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
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from analyzer.core.arith import Number
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import format_shoe
from analyzer.core.version import ENGINE
from analyzer.engine.distribution import RoundDistribution
from analyzer.sidebets.stats import CONFIDENCES, ROUNDS, rtp_interval, volatility_index
from analyzer.util.text import fraction_text


class HeaderJson(TypedDict):
    """What names a distribution: the game, its rules and shoe, the play, the arithmetic."""

    game: str
    rules: str
    shoe: str
    strategy: str
    arithmetic: str
    engine: str


def format_result(x: Fraction) -> str:
    """A net result as an exact string: ``"-4"``, ``"-1/2"``, ``"3/2"``."""
    return fraction_text(x, bare_integers=True)


@dataclass(frozen=True)
class Extreme:
    """The largest win or loss of a round, with its probability."""

    result: Fraction
    probability: Number

    @property
    def one_in(self) -> float | None:
        """Odds as "1 in N" (None when impossible)."""
        return float(1 / self.probability) if self.probability else None

    def odds(self, bound: float = 0.0) -> str:
        """Its chance as text (:func:`one_in_text`)."""
        return one_in_text(float(self.probability), bound)


def extreme_text(extreme: Extreme | None, bound: float = 0.0, *, units: str = " units",
                 sep: str = ": ") -> str:
    """The largest win or loss as text, ``"none"`` where no round has one (a shoe the
    player cannot lose from has no largest loss).

    >>> extreme_text(Extreme(Fraction(8), 1e-6)), extreme_text(None)
    ('8 units: 1 in 1,000,000.0', 'none')
    """
    if extreme is None:
        return "none"
    return f"{format_result(extreme.result)}{units}{sep}{extreme.odds(bound)}"


def one_in_text(probability: float, bound: float = 0.0, *, say_bound: bool = True) -> str:
    """A chance as "1 in N", with only the digits of N that ``bound`` (the most the
    probability may be off by; 0: exact) determines.

    A chance within its own bound has no odds to print: its value and the bound are.

    >>> one_in_text(6.46146e-07), one_in_text(0.0)
    ('1 in 1,547,637.8', 'impossible')
    >>> one_in_text(6.46146e-07, 7.11e-05), one_in_text(2.3e-3, 7.11e-05)
    ('p = 6.5e-07 +- 7.1e-05', '1 in 400 (p +- 7.1e-05)')
    >>> one_in_text(0.408285851707, 7.11e-05, say_bound=False)
    '1 in 2.4'
    """
    if not bound:
        return f"1 in {1 / probability:,.1f}" if probability else "impossible"
    if probability <= 2 * bound:
        return f"p = {probability:.2g} +- {bound:.2g}"
    digits = max(1, math.floor(math.log10(probability / bound)))
    n = 1 / probability
    places = min(1, digits - 1 - math.floor(math.log10(n)))  # N to the digits known, at
    # most one decimal (as without a bound), rounded once
    return f"1 in {round(n, places):,.{max(0, places)}f}" + (
        f" (p +- {bound:.2g})" if say_bound else "")


SPOTS_ROUNDS = 4_000_000  # two-spot rounds simulated: SE of the covariance about 0.0006
SPOTS_SEED = 20251203
MAX_SPOTS = 7  # seats at a table


@dataclass(frozen=True)
class Spots:
    """Two spots against one dealer hand: their covariance, how it was found, and the
    simulator's figure beside it (the check of an exact figure, or the figure itself)."""

    covariance: float
    method: str  # "exact" (every card of both spots and the dealer enumerated) or "simulated"
    simulated: float
    simulated_se: float
    rounds: int
    seed: int
    why_simulated: str | None = None  # why no exact figure
    most_spots: int = MAX_SPOTS  # spots that provably cannot run the shoe out (see below)

    @property
    def agrees(self) -> bool:
        """The simulation within 3 standard errors of the exact figure (or is the figure)."""
        return abs(self.simulated - self.covariance) <= 3 * self.simulated_se

    def sd_by_spots(self, variance: float, spots: int = 3) -> dict[int, float]:
        """The SD of a round's total on 1..``spots`` spots: ``sqrt(n v + n (n-1) c)``, for
        the spots that cannot run the shoe out (:attr:`most_spots`): any two of ``n``
        spots then play as two spots alone do."""
        return {n: math.sqrt(n * variance + n * (n - 1) * self.covariance)
                for n in range(1, min(spots, self.most_spots) + 1)}

    @staticmethod
    def round_label(first: int, last: int | None = None) -> str:
        """The one label of an SD row, for ``first`` spots or the range ``first``..``last``.

        >>> Spots.round_label(1), Spots.round_label(3, 3), Spots.round_label(3, 5)
        ('SD of a round on 1 spot', 'SD of a round on 3 spots', 'SD of a round on 3-5 spots')
        """
        last = first if last is None else last
        span = f"{first}" if last == first else f"{first}-{last}"
        return f"SD of a round on {span} spot{'s' if last > 1 else ''}"

    def spots_refused(self, spots: int) -> str | None:
        """Why the SD of more than :attr:`most_spots` spots is not given, if asked."""
        if spots <= self.most_spots:
            return None
        return (f"not computed past {self.most_spots} spot{'s' if self.most_spots > 1 else ''}: "
                f"{self.most_spots + 1} spots could run the shoe out within a round, where "
                "the covariance of two spots no longer gives the spread")


def spots_without_runout(rules: Rules) -> int:
    """The most spots (up to :data:`MAX_SPOTS`) whose round cannot exhaust a full shoe.

    Counting every ace as 1, a player's hand ends at a hard total of at most 31 (21, or
    a bust by one card of at most 10) and the dealer's at most 26, so a round of ``n``
    spots of up to ``max_hands`` hands each deals cards worth at most
    ``31 n max_hands + 26``; a shoe worth more cannot run out.
    """
    shoe = rules.full_shoe()
    worth = sum(v * shoe[v] for v in range(1, 11))
    fits = [n for n in range(1, MAX_SPOTS + 1) if 31 * n * rules.max_hands + 26 < worth]
    return max(fits, default=0)


@dataclass(frozen=True)
class DistributionReport:
    """Every figure of one round's distribution; ``ev`` is the engine's EV of the same play."""

    dist: RoundDistribution
    title: str
    ev: Number
    spots: Spots | None = None  # two spots' covariance, when asked for
    n_spots: int = 3  # the SD per round is given for 1..n_spots spots

    @property
    def probabilities(self) -> dict[Fraction, Number]:
        return self.dist.probabilities

    @property
    def exact(self) -> bool:
        return self.dist.exact

    def _sum(self, f: Callable[[Fraction], Number]) -> Number:
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

    def chance(self, test: Callable[[Fraction], bool]) -> Number:
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
    def largest_win(self) -> Extreme | None:
        """The largest net win with a chance; None where no round wins."""
        wins = [x for x, p in self.probabilities.items() if x > 0 and p]
        return Extreme(max(wins), self.probabilities[max(wins)]) if wins else None

    @property
    def largest_loss(self) -> Extreme | None:
        """The largest net loss with a chance; None where no round loses."""
        losses = [x for x, p in self.probabilities.items() if x < 0 and p]
        return Extreme(min(losses), self.probabilities[min(losses)]) if losses else None

    def result_range(self) -> tuple[float, float]:
        """The lowest and highest net result of a round (per unit bet) with a chance."""
        possible = [x for x, p in self.probabilities.items() if p]
        return float(min(possible)), float(max(possible))

    def volatility(self) -> dict[float, float]:
        return {c: volatility_index(self, c) for c in CONFIDENCES}

    def intervals(self) -> list[tuple[int, dict[float, tuple[float, float]]]]:
        return [(n, {c: rtp_interval(self, n, c) for c in CONFIDENCES}) for n in ROUNDS]

    @property
    def sd_bound(self) -> float:
        """How far the SD may be from the exact one (0 when every round was enumerated).

        The error bound ``e`` is the total probability the approximation gives the
        rounds whose results it approximated, at least their exact total ``e*``
        (:func:`analyzer.engine.dist_splits._independent_extra`): the printed and the
        exact distributions differ by a measure of mass ``e`` less one of mass ``e*``,
        so an expectation of anything with values in an interval containing 0 moves by
        at most ``e`` times the interval's length.  With every result at most ``X`` in
        size, ``E[x^2]`` (in ``[0, X^2]``) moves by at most ``e X^2`` and the mean ``m``
        by ``d = 2 e X``; the variance by at most ``e X^2 + d (2 |m| + d)``, and the SD
        by that over the SD (``|s - s'| = |v - v'| / (s + s')``).  The approximated
        rounds' results are sums of their hands' results taken independently, every
        combination included, so the exact results lie within the printed ones' range.
        """
        e = float(self.dist.error_bound)
        if not e:
            return 0.0
        big = max(abs(float(x)) for x in self.probabilities)
        shift = 2 * e * big
        dv = e * big**2 + shift * (2 * abs(float(self.mean)) + shift)
        return dv / max(self.sd, 1e-12)

    def chance_bound(self, test: Callable[[Fraction], bool]) -> float:
        """How far :meth:`chance` may be off: ``e`` for any set of results (the printed
        and the exact laws give it shares in ``[0, e]`` from the approximated rounds, see
        :attr:`sd_bound`)."""
        del test  # the bound holds for every set of results
        return float(self.dist.error_bound)

    def header(self) -> HeaderJson:
        d = self.dist
        return {"game": self.title, "rules": format_spec(d.rules), "shoe": format_shoe(d.shoe),
                "strategy": d.strategy, "arithmetic": "exact" if d.exact else "float64",
                "engine": ENGINE}


def make_report(dist: RoundDistribution, title: str, ev: Number) -> DistributionReport:
    return DistributionReport(dist=dist, title=title, ev=ev)


def spot_figures(rules: Rules, *, rounds: int = SPOTS_ROUNDS, seed: int = SPOTS_SEED,
                 jobs: int = 1) -> Spots:
    """The covariance of two spots off a full shoe under CDZ- play: exact where one split
    is allowed (:func:`analyzer.engine.dist_spots.spot_covariance`, in ``jobs``
    processes), simulated otherwise; the simulator's figure either way (its seed streams
    fixed, so the figure does not depend on ``jobs``)."""
    from analyzer.engine.dist_spots import spot_covariance, spots_enumerable
    from analyzer.sim.spots import simulate_spots

    sim = simulate_spots(rules, rounds, seed=seed, strategy="optimal")
    why = spots_enumerable(rules)
    most = spots_without_runout(rules)
    if why is None:
        exact = float(spot_covariance(rules, jobs=jobs).covariance)
        return Spots(exact, "exact", sim.covariance, sim.covariance_se, rounds, seed,
                     most_spots=most)
    return Spots(sim.covariance, "simulated", sim.covariance, sim.covariance_se, rounds, seed,
                 why, most)
