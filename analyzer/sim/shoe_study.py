"""Shoe-state studies by simulation: the RTP as dealt (cut-card effect) and a card counter.

Both deal real shoes down to the cut card with a *fixed* strategy, through the
simulator's own compiled loop.

*RTP as dealt.*  With a cut card the rounds of a shoe are not drawn from a
full shoe, and the fraction of rounds dealt from rich and poor shoes is
biased (a shoe rich in small cards uses more of them per round, so more rounds
are dealt from it before the cut card): the mean result per round differs from
the full-shoe EV.  This is that mean, with the cluster-robust standard error
(rounds of one shoe share their cards, so the error comes from per-shoe sums).
Variance reduction with the engine does not pay at the simulator's speed: 10^9
rounds reach a standard error near 3.6e-5, inside the 5e-5 that certificates
ask for.

*Card counter.*  A Hi-Lo counter (2-6 count +1, 7-9 count 0, tens and aces
-1) sees every card dealt since the shuffle (the dealer's hole card included,
as it is turned over by the end of the round) and bets, before each round,
``min(hi, max(lo, floor(TC)))`` units, where the true count is
``TC = running count / (cards not yet dealt / 52)`` (exact decks remaining, no
rounding).  With the 1-8 spread: 1 unit up to TC < 2, then TC units (2 at
TC 2 ... 7 at TC 7), 8 from TC 8 up.  The counter plays the fixed strategy
(no index plays) and never insures.  Without a cut card (a shoe shuffled every
round) the true count is always 0 and the counter bets 1 unit: its win rate
is the game's EV, which the table shows anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, TypedDict

import numpy as np
import numpy.typing as npt

from analyzer.core.numbers import parse_whole, shown
from analyzer.core.rules import Rules, format_spec
from analyzer.sim.config import (
    SimRules,
    SimulationError,
    check_counts,
    check_cut,
    check_size,
    default_jobs,
)
from analyzer.sim.estimate import Run, RunJson, cluster_se, simulate
from analyzer.sim.layout import TC_MAX
from analyzer.sim.run import run
from analyzer.sim.strategies import strategy_tables
from analyzer.sim.tables import DecisionTables, SimStrategy
from analyzer.util.progress import ProgressCallback

MAX_RECORDS = 20_000_000  # per-round records held in memory (24 bytes each)
MAX_SPREAD = 1000  # the largest bet of a spread, in units
AnyStrategy = str | SimStrategy | DecisionTables | None


class AsDealt(NamedTuple):
    """The RTP as dealt to the cut card: ``rtp, se, *rest = rtp_as_dealt(...)``.

    ``rtp`` and ``se`` are fractions of the initial bet (0.9946, not 99.46%).
    """

    rtp: float
    se: float
    rounds: int
    seed: int
    jobs: int
    strategy: str
    rules: str
    cut_card: int
    se_iid: float

    def to_dict(self) -> dict[str, float | int | str]:
        return self._asdict()


def rtp_as_dealt(rules: Rules, strategy: AnyStrategy = "chart", rounds: int = 10**9,
                 seed: int | None = None, jobs: int | None = None,
                 progress: ProgressCallback | None = None) -> AsDealt:
    """The RTP of ``rules`` as dealt to its cut card, for a fixed strategy, by simulation.

    ``strategy``: ``"chart"`` (the game's basic chart, default), ``"optimal"``
    (the full-shoe composition-dependent strategy), or a strategy object / tables.
    """
    if not rules.cut_card:
        raise SimulationError(f"{format_spec(rules)} has no cut card (CUTn): every round is "
                              "dealt from a full shoe and the RTP is the full-shoe EV")
    result = simulate(rules, rounds, seed=seed, jobs=jobs, strategy=strategy,
                      progress=progress)
    return AsDealt(rtp=result.rtp, se=result.se, rounds=rounds, seed=result.seed,
                   jobs=result.jobs, strategy=result.strategy, rules=result.rules,
                   cut_card=result.cut_card, se_iid=result.se_iid)


def parse_spread(text: str) -> tuple[int, int]:
    """``"1-8"`` -> (1, 8): the smallest and largest bet, in units."""
    low, sep, high = text.partition("-")
    bounds = [parse_whole(t, "bet spread", SimulationError, minimum=1, maximum=MAX_SPREAD)
              for t in (low, high)] if sep else []
    if not bounds or bounds[0] > bounds[1]:
        raise SimulationError(f"bet spread must read LOW-HIGH with 1 <= LOW <= HIGH <= "
                              f"{MAX_SPREAD}, e.g. 1-8, not {shown(text)}")
    return bounds[0], bounds[1]


@dataclass(frozen=True)
class TrueCountRow:
    """Rounds that began at one floored true count (clipped to +-TC_MAX)."""

    true_count: int
    rounds: int
    share: float
    ev: float  # mean result per round at a flat unit bet
    mean_bet: float


class TrueCountJson(TypedDict):
    true_count: int
    rounds: int
    share: float
    ev: float
    mean_bet: float


class CounterFiguresJson(RunJson):
    """A counter's figures in units (the smallest bet); ``spread`` is ``[low, high]``."""

    rules: str
    cut_card: int
    spread: list[int]
    win_per_100: float
    se_per_100: float
    mean_bet: float
    flat_ev: float
    win_per_unit_bet: float


class CounterJson(CounterFiguresJson):
    """``bja simulate --counter hilo --json`` (the CLI adds the game's name)."""

    by_true_count: list[TrueCountJson]


class CounterGameJson(CounterJson):
    """``bja simulate --counter hilo --json``: the game's name (None for rules alone)."""

    game: str | None


@dataclass(frozen=True)
class CounterResult(Run):
    """A Hi-Lo counter's results; money in units (the smallest bet)."""

    spread: tuple[int, int]
    win_per_100: float  # units won per 100 rounds
    se_per_100: float  # its standard error (per-shoe clusters)
    mean_bet: float  # units per round
    flat_ev: float  # mean result per round at a flat bet (the RTP as dealt - 1)
    by_true_count: tuple[TrueCountRow, ...]

    @property
    def win_per_unit_bet(self) -> float:
        """Win rate per unit wagered (the counter's edge on the money bet)."""
        return self.win_per_100 / 100 / self.mean_bet

    def figures(self) -> CounterFiguresJson:
        """Every figure but the table by true count."""
        return {"rules": self.rules, "strategy": self.strategy, "rounds": self.rounds,
                "seed": self.seed, "jobs": self.jobs, "cut_card": self.cut_card,
                "spread": list(self.spread), "win_per_100": self.win_per_100,
                "se_per_100": self.se_per_100, "mean_bet": self.mean_bet,
                "flat_ev": self.flat_ev, "win_per_unit_bet": self.win_per_unit_bet}

    def to_dict(self) -> CounterJson:
        rows: list[TrueCountJson] = [
            {"true_count": r.true_count, "rounds": r.rounds, "share": r.share, "ev": r.ev,
             "mean_bet": r.mean_bet} for r in self.by_true_count]
        return {**self.figures(), "by_true_count": rows}


def _rows(tc_acc: npt.NDArray[np.int64], ticks: int, rounds: int) -> tuple[TrueCountRow, ...]:
    rows = []
    for i, (n, x, _, bets, _, _) in enumerate(tc_acc.tolist()):
        if n:
            rows.append(TrueCountRow(true_count=i - TC_MAX, rounds=n, share=n / rounds,
                                     ev=x / n / ticks, mean_bet=bets / n))
    return tuple(rows)


def counter_win_rate(rules: Rules, rounds: int, *, spread: tuple[int, int] = (1, 8),
                     strategy: AnyStrategy = "chart", seed: int | None = None,
                     jobs: int | None = None,
                     progress: ProgressCallback | None = None) -> CounterResult:
    """Win rate of a Hi-Lo counter with a bet spread, dealt to the game's cut card."""
    jobs = default_jobs() if jobs is None else jobs
    check_counts(rounds, jobs, seed)
    check_cut(rules, rules.cut_card)
    check_size(rules, rounds, jobs, rules.cut_card, spread)
    sr = SimRules.of(rules)
    tables, name = strategy_tables(rules, strategy)
    totals = run(sr, tables, rounds, seed=seed, jobs=jobs, cut=rules.cut_card, spread=spread,
                 progress=progress, label="counting")
    acc = totals.tc_acc.sum(axis=0)
    return CounterResult(
        rules=format_spec(rules), strategy=name, rounds=rounds, seed=totals.seed,
        jobs=totals.jobs, cut_card=rules.cut_card, spread=spread,
        win_per_100=100 * int(acc[4]) / rounds / sr.ticks,
        se_per_100=100 * cluster_se(totals.shoe_acc, sr.ticks),
        mean_bet=int(acc[3]) / rounds, flat_ev=int(acc[1]) / rounds / sr.ticks,
        by_true_count=_rows(totals.tc_acc, sr.ticks, rounds))


class CountedRounds(NamedTuple):
    """Per-round records, in dealing order (job after job)."""

    true_count: npt.NDArray[np.float64]  # Hi-Lo true count before the round
    result: npt.NDArray[np.float64]  # net result at a unit bet, in initial bets
    dealt: npt.NDArray[np.int64]  # cards dealt from the shoe before the round (0: fresh)


def counter_rounds(rules: Rules, rounds: int, *, strategy: AnyStrategy = "chart",
                   seed: int | None = None, jobs: int = 1) -> CountedRounds:
    """Each round's true count, result and position in the shoe (at most 2e7 rounds)."""
    if isinstance(rounds, int) and rounds > MAX_RECORDS:
        raise SimulationError(f"per-round records are kept for at most {MAX_RECORDS:.0e} "
                              f"rounds, not {rounds:.3g}")
    check_counts(rounds, jobs, seed)
    check_size(rules, rounds, jobs, rules.cut_card)
    sr = SimRules.of(rules)
    tables, _ = strategy_tables(rules, strategy)
    totals = run(sr, tables, rounds, seed=seed, jobs=jobs, cut=rules.cut_card, spread=(1, 1),
                 record=True)
    rec = totals.records
    assert rec is not None
    return CountedRounds(true_count=rec[:, 0].copy(), result=rec[:, 1] / sr.ticks,
                         dealt=rec[:, 2].astype(np.int64))


__all__ = ["AsDealt", "CountedRounds", "CounterResult", "TrueCountRow", "counter_rounds",
           "counter_win_rate", "parse_spread", "rtp_as_dealt"]
