"""From a rule set to a finished chart: derive, evaluate exactly, refine, annotate.

The chart's EV is a policy evaluation of the chart as written
(:class:`~analyzer.engine.analysis.Analysis` with a :class:`ChartStrategy`), shown beside
the CDZ- optimum of the same rules.  After the first evaluation the pair rows
are derived once more with the chart's *own* split EVs (split hands play the
chart, not CDZ-); the refined chart is kept only if its exact EV is higher.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analyzer.charts.context import ChartContext
from analyzer.charts.derive import Deriver
from analyzer.charts.model import UPCARDS, Chart, Evaluation, RowKey, Section
from analyzer.charts.strategy import FREE_SECTION, ChartStrategy
from analyzer.core.arith import Number
from analyzer.core.errors import UsageError
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis

NOTES = (
    "Derived from exact EVs: each code maximises the EV of its row's hands, two-card hands "
    "weighted by their chance of being dealt, larger hands by their chance of being reached "
    "under this chart.",
    "Fallbacks (D/Ds, R/Rs) are chosen for this rule set's own hands that cannot take the "
    "first action (three or more cards, split hands); they are not advice for other rules.",
)

LATER_NOTES = {
    "DAN": "DAN: a D or Ds also doubles a hand of three or more cards where the doubling "
           "rule allows its total (a 21 is not doubled); a row qualified by a card count "
           "(H11/4) gives hands of that many cards their own play.",
    "SAH": "SAH: an R or Rs also surrenders a hand of three or more cards that was not split.",
    "doubled": "Doubled-hand section: a doubled hand, its card dealt, reads the row of its "
               "total: S stands, Rs gives it up for half its stake (the original bet: "
               "double-down rescue), Ds doubles it again (redouble); every stake alike.  Each "
               "code maximises the row's doubled hands at the first stake, weighted by how "
               "often the chart doubles into them, later stakes valued at their best.",
}

FREE_CAVEAT = ("Caveat: this engine plays the free-bet hand at its composition-dependent "
               "optimum when it evaluates a chart (it does not ask the chart's free-bet-hand "
               "section), so the chart EV counts that hand at its best.")
TITLES = {"main": "basic strategy (total-dependent)",
          "free-bet-hand": "the free-bet hand after a free split (hit or stand)",
          "doubled-hand": "a doubled hand once its card is dealt (S stand, Rs give up for the "
                          "original bet, Ds double again)"}


@dataclass
class ChartRun:
    """A derived chart with the analyses behind its figures."""

    chart: Chart
    optimum: Analysis  # CDZ- play of the rules
    played: Analysis  # the chart's own play
    deriver: Deriver


def evaluate(chart: Chart, shoe: Shoe | None = None, optimum: Analysis | None = None,
             section: str | None = None) -> tuple[Evaluation, Analysis, Analysis]:
    """Exact EV of the chart as written, and the CDZ- optimum: (figures, played, optimum)."""
    rules = chart.rules
    played = Analysis(rules, shoe, strategy=ChartStrategy(chart, rules, section=section))
    optimum = optimum or Analysis(rules, shoe)
    by_upcard = {u: float(v) for u, v in played.by_upcard().items()}
    return (Evaluation(float(played.ev()), float(optimum.ev()), by_upcard), played, optimum)


def chart_ev(chart: Chart, rules: Rules, shoe: Shoe | None = None, *,
             exact: bool = False) -> Number:
    """The EV of a round played by ``chart`` as written (in fractions with ``exact``):
    the one valuation of a chart's own play that every report of its level uses."""
    return Analysis(rules, shoe, exact=exact, strategy=ChartStrategy(chart, rules)).ev()


def _free_cells(section: Section, context: ChartContext) -> frozenset[tuple[RowKey, int]]:
    """Cells whose double or split is free: D on a free-double total, P on a free-split pair."""
    cells = set()
    for key, codes in section.rows.items():
        for u, code in zip(UPCARDS, codes, strict=True):
            # A pair row's double doubles its two-card hard total (5,5 is hard 10).
            hard = key.total if key.kind == "H" and key.cards is None else \
                2 * key.total if key.kind == "P" and key.total != 1 else None
            if hard in context.free_doubles and code in ("D", "Ds"):
                cells.add((key, u))
            if key.kind == "P" and key.total in context.free_splits and code in ("P", "Ph", "Rp"):
                cells.add((key, u))
    return frozenset(cells)


def make_chart(rules: Rules, title: str, *, shoe: Shoe | None = None,
               by_cards: bool | None = None) -> ChartRun:
    """Derive, evaluate and refine the TD chart of ``rules``, titled ``title``."""
    if not isinstance(title, str):
        raise UsageError(f"a chart's title is text, not {title!r}")
    if by_cards is not None and not isinstance(by_cards, bool):
        raise UsageError(f"by_cards must be True, False or None, not {by_cards!r}")
    optimum = Analysis(rules, shoe)  # checks the rules and the shoe
    optimum.ev()
    context = ChartContext.from_rules(rules)
    deriver = Deriver(optimum, context, by_cards=by_cards)

    def sections(main: Section) -> tuple[Section, ...]:
        extra = (deriver.derive_free(main), deriver.derive_doubled(main))
        return (main, *(s for s in extra if s is not None))

    main = deriver.derive()
    chart = Chart(rules=rules, sections=sections(main), title=title)
    figures, played, _ = evaluate(chart, shoe, optimum)
    splits: dict[tuple[int, int], float] = {}
    for u in deriver.upcards:
        d = deriver.upcard_data(u)
        for i in np.flatnonzero(d.pair):
            p = int(d.pair[i])
            splits[(u, p)] = float(played.split_value(played.upcard(u), p))
    refined = deriver.derive(splits, start=main)
    if refined.rows != main.rows:
        candidate = Chart(rules=rules, sections=sections(refined), title=title)
        figures2, played2, _ = evaluate(candidate, shoe, optimum)
        if figures2.chart_ev > figures.chart_ev:
            chart, figures, played = candidate, figures2, played2
    notes: tuple[str, ...] = NOTES + tuple(LATER_NOTES[k] for k, on in (
        ("DAN", rules.double_any_cards), ("SAH", rules.surrender_after_hit),
        ("doubled", context.doubled_decides)) if on)
    strategy = played.strategy
    if any(s.name == FREE_SECTION for s in chart.sections) \
            and isinstance(strategy, ChartStrategy) and strategy.free_calls == 0:
        notes += (FREE_CAVEAT,)
    marked = tuple(dataclasses.replace(s, title=TITLES.get(s.name, s.title),
                                       free=_free_cells(s, context) if s.name == "main"
                                       else frozenset())
                   for s in chart.sections)
    chart = Chart(rules=rules, sections=marked, title=title, evaluation=figures, notes=notes)
    return ChartRun(chart=chart, optimum=optimum, played=played, deriver=deriver)
