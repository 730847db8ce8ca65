"""The RTP of every level of play, from the basic chart to optimal splitting.

A certification states how much a player can return at each level of skill:

* ``chart``: the total-dependent basic strategy chart derived for the rules,
  played exactly as written (:func:`analyzer.charts.evaluate.make_chart`);
* ``cdz``: optimal composition-dependent play, split hands by the pre-split
  strategy (CDZ-);
* ``cdp1`` / ``cdp``: post-split strategies as Eric Farmer defines them
  (:mod:`analyzer.engine.postsplit`);
* ``optimal``: optimal splitting, every decision of a split round using every
  card seen in it (:mod:`analyzer.engine.optimal_split`).  By far the slowest
  level (its card sets multiply with every split hand), so computed only when
  asked for; otherwise, or where it cannot be computed exactly, the level says
  why (:func:`optimal_not_computed`).

Only the split EVs differ between the CDZ-, CDP1, CDP and optimal levels; the
chart also differs in every other decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.core.errors import AnalyzerError, UsageError
from analyzer.core.levels import CHART, LEVELS, SplitLevel
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe, format_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import exact_rows_kept
from analyzer.engine.optimal_split import refusal as optimal_refusal


@dataclass(frozen=True)
class Level:
    """One level's EV per unit initial bet, or why it was not computed."""

    name: str
    ev: Any = None  # float, or Fraction in exact mode; None when not computed
    reason: str = ""

    @property
    def computed(self) -> bool:
        return self.ev is not None


@dataclass(frozen=True)
class Levels:
    """The EV of a round at every level of play for one rule set and shoe."""

    rules: str
    shoe: str
    exact: bool
    levels: tuple[Level, ...]

    def __getitem__(self, name: str) -> Level:
        for level in self.levels:
            if level.name == name:
                return level
        raise UsageError(f"unknown level {name!r} (use {', '.join(LEVELS)})")


def _analysed(rules: Rules, shoe: Shoe, exact: bool, split: SplitLevel,
              done: dict[str, Analysis], jobs: int = 1, memo: bool = False,
              suits: bool = True) -> Level:
    try:
        analysis = done.get(split) or Analysis(rules, shoe, exact=exact, split=split, jobs=jobs,
                                               memo=memo, suits=suits)
        return Level(split, analysis.ev())
    except AnalyzerError as err:
        return Level(split, reason=f"not computed: {err}")


def optimal_not_computed(rules: Rules, cards: int, exact: bool) -> str:
    """Why a figure leaves optimal splitting out: refused here, or too slow to run unasked."""
    refused = optimal_refusal(rules, cards)
    if refused:
        return f"not computed: {refused}"
    if exact:
        return ("not computed: exact optimal splitting is far slower than in floats, so "
                "only when asked for (bja ev --split optimal --exact; in floats: bja ev "
                "--split optimal)")
    if rules.max_hands > 2 and not rules.free_splits:
        return ("not computed: with resplits optimal splitting is by far the slowest level; "
                "ask for it with --split optimal")
    return ("not computed: optimal splitting is the slowest level, so only when asked for "
            "(--split optimal)")


def strategy_levels(rules: Rules, shoe: Shoe | None = None, exact: bool = False, *,
                    optimal: bool = False, jobs: int = 1,
                    analyses: dict[str, Analysis] | None = None, memo: bool = False,
                    suits: bool = True) -> Levels:
    """EV of the basic chart, CDZ-, CDP1, CDP and (with ``optimal``) optimal splitting.

    ``analyses`` may hold analyses already made for some levels (keyed by split
    mode), reused as they are; ``jobs`` processes share optimal splitting's upcards;
    ``memo``: optimal splitting keeps each pair's figure in the on-disk memo;
    ``suits=False``: the levels but the chart (which reads ranks anyway) play by ranks only.
    """
    shoe = shoe if shoe is not None else rules.full_shoe()
    with exact_rows_kept():  # every level asks the same dealer rows
        return _levels(rules, shoe, exact, optimal=optimal, jobs=jobs, done=dict(analyses or {}),
                       memo=memo, suits=suits)


def _levels(rules: Rules, shoe: Shoe, exact: bool, *, optimal: bool, jobs: int,
            done: dict[str, Analysis], memo: bool, suits: bool) -> Levels:
    from analyzer.charts.evaluate import chart_ev, make_chart  # (they need the engine)

    try:
        run = make_chart(rules, "levels", shoe=shoe)
        assert run.chart.evaluation is not None
        chart = Level(CHART, run.chart.evaluation.chart_ev)
        if exact:  # the chart's own play valued again in fractions, as the other levels are
            chart = Level(CHART, chart_ev(run.chart, rules, shoe, exact=True))
        if not exact and suits:  # the chart's optimum reads the suits
            done.setdefault(SplitLevel.CDZ, run.optimum)
    except AnalyzerError as err:
        chart = Level(CHART, reason=f"not computed: {err}")
    found = [chart] + [_analysed(rules, shoe, exact, s, done, suits=suits)
                       for s in (SplitLevel.CDZ, SplitLevel.CDP1, SplitLevel.CDP)]
    if optimal or SplitLevel.OPTIMAL in done:
        found.append(_analysed(rules, shoe, exact, SplitLevel.OPTIMAL, done, jobs, memo,
                               suits))
    else:
        found.append(Level(SplitLevel.OPTIMAL,
                           reason=optimal_not_computed(rules, shoe.total, exact)))
    return Levels(rules=format_spec(rules), shoe=format_shoe(shoe), exact=exact,
                  levels=tuple(found))
