"""The exact analysis of one shoe state, reduced to what shoe-state studies read.

Effects of removal, count efficiencies and the edge by count all analyse many
depleted shoes and read two things from each: the EV of a round, and the EV of
every action for every two-card hand against every upcard.  A
:class:`ShoeSummary` holds exactly that, is picklable (it crosses process
boundaries and goes into the disk memo), and is computed by
:func:`summarise`, a pure function of its arguments.

Strategies: ``"optimal"`` re-optimises every decision on the shoe analysed
(CDZ-, the engine's default); ``"fixed"`` plays the optimal strategy of the
*reference* shoe (the full shoe) on it, frozen -- the strategy of a player who
does not react to the removed cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from analyzer.core.arith import Number
from analyzer.core.errors import UsageError
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.util.pool import run_all, task_memo
from analyzer.util.progress import ProgressCallback

HandKey = tuple[int, int, int]  # (upcard, low card, high card)
STRATEGIES = ("optimal", "fixed")


@dataclass(frozen=True)
class ShoeSummary:
    """EV of a round, and of every action of every two-card hand, on one shoe."""

    counts: tuple[int, ...]
    ev: Number
    hands: dict[HandKey, dict[int, Number]] = field(default_factory=dict)


@lru_cache(maxsize=4)
def _frozen(spec: str, reference: tuple[int, ...]) -> FrozenStrategy:
    return FrozenStrategy(Analysis(parse_spec(spec), Shoe(reference)))


def summarise(spec: str, counts: tuple[int, ...], strategy: str,
              reference: tuple[int, ...], exact: bool, with_hands: bool) -> ShoeSummary:
    """Analyse the shoe ``counts`` (see the module docstring for ``strategy``)."""
    if strategy not in STRATEGIES:
        raise UsageError(f"unknown strategy {strategy!r} (use {', '.join(STRATEGIES)})")
    rules = parse_spec(spec)
    frozen = _frozen(spec, reference) if strategy == "fixed" else None
    analysis = Analysis(rules, Shoe(counts), exact=exact, strategy=frozen)
    ev = analysis.ev()
    hands: dict[HandKey, dict[int, Number]] = {}
    if with_hands:
        for up in range(1, 11):
            for a in range(1, 11):
                for b in range(a, 11):
                    if (a, b) == (1, 10) or not _dealable(counts, up, a, b):
                        continue
                    hands[(up, a, b)] = analysis.actions(up, (a, b))
    return ShoeSummary(counts=counts, ev=ev, hands=hands)


def summarise_both(spec: str, counts: tuple[int, ...], reference: tuple[int, ...],
                   exact: bool) -> tuple[ShoeSummary, ShoeSummary]:
    """The shoe ``counts`` played optimally (with every hand's actions) and by the
    strategy fixed on ``reference``: one task, so the second analysis finds the
    dealer's outcomes on this shoe in the process's shared caches
    (:meth:`analyzer.engine.dealer.OutcomeCache.shared`)."""
    return (summarise(spec, counts, "optimal", reference, exact, True),
            summarise(spec, counts, "fixed", reference, exact, False))


def remember_optimal(spec: str, found: list[ShoeSummary], reference: tuple[int, ...], *,
                     use_cache: bool = True) -> None:
    """Keep float summaries of optimal play with every hand's actions (the first half of
    :func:`summarise_both`'s) in the memo as :func:`summaries` would, so the effects of
    removal of the same shoes (``bja eor``, the build's next report) read them there."""
    memo = task_memo(summarise, enabled=use_cache)
    for summary in found:
        memo.put((spec, summary.counts, "optimal", reference, False, True), summary)


def _dealable(counts: tuple[int, ...], up: int, a: int, b: int) -> bool:
    need = [0] * 10
    for c in (up, a, b):
        need[c - 1] += 1
    return all(n >= k for n, k in zip(counts, need, strict=True)) and sum(counts) > 3


def summaries(spec: str, shoes: list[tuple[int, ...]], *, strategy: str = "optimal",
              reference: tuple[int, ...] | None = None, exact: bool = False,
              with_hands: bool = False, jobs: int = 1,
              use_cache: bool = True, progress: ProgressCallback | None = None,
              stage: str = "shoes") -> list[ShoeSummary]:
    """:func:`summarise` every shoe (memoized, in ``jobs`` processes), in order;
    ``progress`` hears of each shoe done, as ``stage``."""
    ref = reference if reference is not None else shoes[0]
    return run_all(((summarise, (spec, s, strategy, ref, exact, with_hands)) for s in shoes),
                   jobs=jobs, use_cache=use_cache, progress=progress, stage=stage)


__all__ = ["STRATEGIES", "ShoeSummary", "remember_optimal", "summarise", "summarise_both",
           "summaries"]
