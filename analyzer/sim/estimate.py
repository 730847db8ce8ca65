"""``simulate``: the EV of a game by Monte Carlo, with the histogram of a round's result.

The estimate comes with its standard error and the full distribution of the
net result of a round (in initial bets, exact fractions as keys: ``-8 .. 8`` by
halves, ``3/2`` or ``6/5`` for a blackjack), so that it can be set against the
engine's exact EV and exact distribution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypedDict

from analyzer.core.rules import Rules, format_spec
from analyzer.sim.config import SimRules, check_counts, check_cut, check_size, default_jobs
from analyzer.sim.run import Totals, play_round, run
from analyzer.sim.strategies import strategy_tables
from analyzer.sim.tables import DecisionTables, SimStrategy
from analyzer.util.progress import ProgressCallback


class RunJson(TypedDict):
    """How a simulation ran: what any of its payloads states (seed and jobs reproduce it)."""

    strategy: str
    rounds: int
    seed: int
    jobs: int


class SimResultJson(RunJson):
    """``bja simulate --json`` (the CLI adds the game's name)."""

    rules: str
    cut_card: int
    mean: float
    sd: float
    se: float
    se_iid: float
    seconds: float
    cpu_seconds: float
    table_seconds: float
    compile_seconds: float
    rtp: float
    rounds_per_second: float
    rounds_per_cpu_second: float
    histogram: dict[str, int]


class SimulateJson(SimResultJson):
    """``bja simulate --json``: the game's name (None for rules alone) first."""

    game: str | None


class ComparedJson(SimulateJson):
    """``bja simulate --compare --json``: the exact EV and the difference, in initial bets
    and in standard errors."""

    exact_ev: float
    difference: float
    difference_se: float


@dataclass(frozen=True)
class Run:
    """What names a simulation: the rules, the strategy, the rounds, the seed and jobs that
    reproduce it, and the cut card (0: every round off a full shoe)."""

    rules: str
    strategy: str
    rounds: int
    seed: int
    jobs: int
    cut_card: int


@dataclass(frozen=True)
class SimResult(Run):
    """One simulation: mean result per initial bet, its spread and its error.

    ``se`` is the cluster-robust standard error: under a cut card the rounds of
    one shoe are correlated, so it is computed from per-shoe sums (ratio
    estimator); without one every round is its own shoe and it equals
    ``se_iid`` = ``sd / sqrt(rounds)``.  ``seconds`` is the dealing time;
    building the tables and compiling are apart.
    """

    mean: float
    sd: float
    se: float
    se_iid: float
    histogram: dict[Fraction, int]
    seconds: float
    cpu_seconds: float
    table_seconds: float
    compile_seconds: float

    @property
    def rtp(self) -> float:
        """Return to player: the money back per unit staked initially (1 + EV)."""
        return 1.0 + self.mean

    @property
    def mean_exact(self) -> Fraction:
        """The sample mean as an exact fraction (from the histogram)."""
        return sum((v * n for v, n in self.histogram.items()), Fraction(0)) / self.rounds

    @property
    def rounds_per_second(self) -> float:
        """Rounds per second of wall time, all jobs together."""
        return self.rounds / max(self.seconds, 1e-9)

    @property
    def rounds_per_cpu_second(self) -> float:
        """Rounds per second of one core's CPU time: the per-core speed, which a busy
        machine does not hide."""
        return self.rounds / max(self.cpu_seconds, 1e-9)

    def z(self, exact_ev: float) -> float:
        """How many standard errors the estimate lies from ``exact_ev``."""
        return (self.mean - exact_ev) / self.se if self.se > 0 else 0.0

    def to_dict(self) -> SimResultJson:
        """The fields in order (the histogram last, keyed by the result as ``"p/q"``)."""
        return {"rules": self.rules, "strategy": self.strategy, "rounds": self.rounds,
                "seed": self.seed, "jobs": self.jobs, "cut_card": self.cut_card,
                "mean": self.mean, "sd": self.sd, "se": self.se, "se_iid": self.se_iid,
                "seconds": self.seconds, "cpu_seconds": self.cpu_seconds,
                "table_seconds": self.table_seconds, "compile_seconds": self.compile_seconds,
                "rtp": self.rtp, "rounds_per_second": self.rounds_per_second,
                "rounds_per_cpu_second": self.rounds_per_cpu_second,
                "histogram": {str(v): n for v, n in sorted(self.histogram.items())}}


def histogram(totals: Totals, sr: SimRules) -> dict[Fraction, int]:
    """Rounds by net result, keyed by the exact result in initial bets."""
    return {Fraction(sr.low + i, sr.ticks): int(n) for i, n in enumerate(totals.hist) if n}


def moments(hist: dict[Fraction, int]) -> tuple[Fraction, float]:
    """Exact mean and the sample standard deviation of a histogram."""
    rounds = sum(hist.values())
    mean = sum((v * n for v, n in hist.items()), Fraction(0)) / rounds
    ss = sum(((v - mean) ** 2 * n for v, n in hist.items()), Fraction(0))
    return mean, math.sqrt(ss / (rounds - 1))


def cluster_se(shoe_acc: Any, ticks: int) -> float:
    """Standard error of the ratio estimator sum(S)/sum(N) over shoes (delta method):
    ``sqrt(m/(m-1) * sum((S_i - R N_i)^2)) / sum(N_i)``, in initial bets."""
    m, s, s2, n, n2, sn = (int(x) for x in shoe_acc)
    if m < 2:
        return 0.0
    r = Fraction(s, n)
    resid = s2 - 2 * r * sn + r * r * n2
    return math.sqrt(Fraction(m, m - 1) * resid) / n / ticks


def simulate(rules: Rules, rounds: int, *, seed: int | None = None, jobs: int | None = None,
             strategy: str | SimStrategy | DecisionTables | None = None,
             cut_card: int | None = None, progress: ProgressCallback | None = None) -> SimResult:
    """Play ``rounds`` rounds of ``rules``; the mean result, its errors and the histogram.

    Parameters
    ----------
    strategy
        ``"optimal"`` (default: the engine's CDZ- strategy), ``"chart"`` (the
        game's basic chart), any object with ``decide``/``decide_free``, or
        tables exported before (:func:`~analyzer.sim.tables.export_tables`).
    cut_card
        Cards dealt before a reshuffle; default ``rules.cut_card`` (0: every
        round from a freshly shuffled shoe, which estimates the full-shoe EV).
    jobs
        Parallel jobs (default: every core).  A fixed ``seed`` and ``jobs``
        give the same result; without a seed a fresh one is drawn and reported.
    """
    jobs = default_jobs() if jobs is None else jobs
    cut = rules.cut_card if cut_card is None else cut_card
    check_counts(rounds, jobs, seed)  # before the (slow) strategy export
    check_cut(rules, cut)
    check_size(rules, rounds, jobs, cut)
    sr = SimRules.of(rules)
    tables, name = strategy_tables(rules, strategy)
    totals = run(sr, tables, rounds, seed=seed, jobs=jobs, cut=cut, progress=progress)
    hist = histogram(totals, sr)
    mean, sd = moments(hist)
    se_iid = sd / math.sqrt(rounds)
    return SimResult(rules=format_spec(rules), strategy=name, rounds=rounds, seed=totals.seed,
                     jobs=totals.jobs, cut_card=cut, mean=float(mean), sd=sd,
                     se=cluster_se(totals.shoe_acc, sr.ticks) if cut else se_iid,
                     se_iid=se_iid, histogram=hist, seconds=totals.seconds,
                     cpu_seconds=totals.cpu_seconds, table_seconds=tables.seconds,
                     compile_seconds=totals.compile_seconds)


def play_stacked(rules: Rules, cards: list[int],
                 strategy: str | SimStrategy | DecisionTables | None = None
                 ) -> tuple[Fraction, int]:
    """One round dealt from a stacked shoe (``cards`` in order: player, upcard, player,
    hole card, draws...; codes 1-10, or 1-13 with J/Q/K under SPR): ``(result in initial
    bets, cards used)``.  For pinning each rule's settlement on chosen cards."""
    sr = SimRules.of(rules)
    tables = strategy if isinstance(strategy, DecisionTables) else \
        strategy_tables(rules, strategy)[0]
    ticks, used = play_round(sr, tables, cards)
    return Fraction(ticks, sr.ticks), used


def result_distribution(rules: Rules, rounds: int, **kwargs: Any) -> dict[Fraction, float]:
    """The simulated distribution of a round's net result: result (exact, in initial bets)
    -> share of rounds.  Keyword arguments as for :func:`simulate`."""
    result = simulate(rules, rounds, **kwargs)
    return {v: n / rounds for v, n in sorted(result.histogram.items())}


__all__ = ["SimResult", "cluster_se", "histogram", "moments", "play_stacked",
           "result_distribution", "simulate"]
