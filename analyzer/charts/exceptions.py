"""Composition-dependent exceptions: the hands a chart player meets where the chart is wrong.

A total-dependent chart gives one play per total; the best play of a hand
depends on its cards.  An exception is a hand, met by a chart player (dealt
two cards, or reached by hitting as the chart says), whose CDZ- optimal play
(:class:`~analyzer.engine.analysis.Analysis` without a strategy) differs from the chart's
decision, e.g. "hard 16 vs T, 3+ cards: chart hit; stand with 4-6-6, ...".
Split hands are not listed: they play the same rows.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from itertools import groupby

import numpy as np

from analyzer.charts.derive import Deriver
from analyzer.charts.model import UPCARDS, Chart, RowKey
from analyzer.charts.strategy import ChartStrategy
from analyzer.core.actions import DOUBLE, HIT, STAND, SURRENDER, Action
from analyzer.core.cards import comp_cards, format_value
from analyzer.core.rules import format_spec
from analyzer.engine.analysis import Analysis

MIN_GAIN = 1e-12  # below this the two plays tie (float noise)


@dataclass(frozen=True)
class CDException:
    """One hand whose best play differs from the chart's."""

    upcard: int
    comp: tuple[int, ...]
    row: RowKey | None  # the row the chart reads for it (None: a missing row's fixed play)
    chart_action: int
    best_action: int
    gain: float  # EV per unit bet gained on this hand (conditioned as `bja hand` prints)
    met: float  # chance a chart player meets it, given the upcard (times no dealer BJ)

    @property
    def cards(self) -> str:
        return "-".join(format_value(c) for c in comp_cards(self.comp))

    @property
    def ncards(self) -> int:
        return sum(self.comp)


def find_exceptions(chart: Chart, optimum: Analysis,
                    deriver: Deriver | None = None) -> list[CDException]:
    """Every exception of the chart's main section against the CDZ- play of ``optimum``."""
    deriver = deriver or Deriver(optimum)
    strategy = ChartStrategy(chart, chart.rules, context=deriver.context)
    found: list[CDException] = []
    both = frozenset((STAND, HIT))
    for u in deriver.upcards:
        d = deriver.upcard_data(u)
        v = d.ua.values
        met = deriver.met(u, strategy)
        first = deriver.first_values(d, v.hit)
        for i in map(int, np.flatnonzero(met > 0)):
            comp = d.comps[i]
            n = int(v.space.ncards[i])
            if n == 2:
                options = d.options[i]
                values = {a: float(first[a][i]) for a in options}
                scale = float(d.keep[i])
            else:
                if deriver.context.forced_stand(int(v.space.total[i]), n):
                    continue
                values = {STAND: float(v.stand[i]), HIT: float(v.hit[i])}
                if d.may_double[i]:  # DAN
                    values[DOUBLE] = float(v.double[i])
                if d.may_give[i]:  # SAH
                    values[SURRENDER] = -0.5
                options = frozenset(values) if len(values) > 2 else both
                scale = 1.0
            chart_action = strategy.decide(u, comp, options)
            best = max(sorted(options), key=lambda a: values[a])
            gain = (values[best] - values[chart_action]) / scale
            if best != chart_action and gain > MIN_GAIN:
                found.append(CDException(u, comp, strategy.row_for(comp, options),
                                         chart_action, best, gain, float(met[i])))
    return found


def contribution(chart: Chart, optimum: Analysis, exceptions: list[CDException]) -> float:
    """What playing every exception right would add to the round EV (first order)."""
    shoe = optimum.shoe
    total = 0.0
    for e in exceptions:
        p_up = shoe[e.upcard] / shoe.total
        total += p_up * e.met * e.gain
    return total


def _group_key(e: CDException) -> tuple[tuple[int, int, int], int, bool, int, int]:
    row = e.row.sort_key() if e.row is not None else (9, 0, 0)
    return row, UPCARDS.index(e.upcard), e.ncards > 2, e.chart_action, e.best_action


def render_exceptions(chart: Chart, optimum: Analysis, exceptions: list[CDException]) -> str:
    """Plain text, one line (wrapped) per row, upcard, card count class and pair of plays."""
    gain = contribution(chart, optimum, exceptions)
    lines = [f"{chart.title}, composition-dependent exceptions",
             f"rules: {format_spec(chart.rules)}", "",
             "Hands a chart player meets (dealt, or reached by hitting as the chart says)",
             "whose best play differs from the chart's.  Best play: CDZ-, every composition",
             "played optimally.  In brackets: the EV gained per unit bet on that hand, % "
             "(conditioned",
             "on no dealer blackjack where the dealer peeks).  Split hands are not listed.",
             f"Hands: {len(exceptions)}; playing all of them right adds about "
             f"{gain * 100:.6f}% to the round EV.", ""]
    ordered = sorted(exceptions, key=lambda e: (_group_key(e), e.ncards, e.comp[::-1]))
    for key, group in groupby(ordered, key=_group_key):
        items = list(group)
        first = items[0]
        what = first.row.describe() if first.row is not None else "hand"
        cards = "3+ cards" if key[2] else "2 cards"
        head = (f"{what} vs {format_value(first.upcard)}, {cards}: chart "
                f"{Action(first.chart_action).label}; {Action(first.best_action).label} with ")
        body = ", ".join(f"{e.cards} (+{e.gain * 100:.3f})" for e in items)
        lines += textwrap.wrap(head + body, width=100, subsequent_indent="    ")
    return "\n".join(lines) + "\n"
