"""The RTP of every level of play, from the basic chart to optimal splitting.

A certification states how much a player can return at each level of skill:

* ``chart``: the total-dependent basic strategy chart derived for the rules,
  played exactly as written (:func:`analyzer.charts.evaluate.make_chart`);
* ``cdz``: optimal composition-dependent play, split hands by the pre-split
  strategy (CDZ-);
* ``cdp1`` / ``cdp``: post-split strategies as Eric Farmer defines them
  (:mod:`analyzer.engine.postsplit`);
* ``optimal``: optimal splitting, every decision of a split round using every
  card seen in it (:mod:`analyzer.engine.optimal_split`).  Minutes per pair and
  upcard on full shoes, so computed only when asked for; otherwise, or where it
  cannot be computed exactly, the level says why ("not computed: ...").

Only the split EVs differ between the CDZ-, CDP1, CDP and optimal levels; the
chart also differs in every other decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.charts.evaluate import make_chart
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe, format_shoe
from analyzer.engine.analysis import Analysis

LEVELS = ("chart", "cdz", "cdp1", "cdp", "optimal")
TITLES = {"chart": "basic strategy chart (total-dependent, as written)",
          "cdz": "CDZ- (split hands play the pre-split strategy)",
          "cdp1": "CDP1 (post-split strategy of the first split hand, Farmer)",
          "cdp": "CDP (post-split strategy by pair cards removed, Farmer)",
          "optimal": "optimal splitting (every card of the round remembered)"}


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
        raise KeyError(name)


def _analysed(rules: Rules, shoe: Shoe, exact: bool, split: str,
              done: dict[str, Analysis]) -> Level:
    try:
        analysis = done.get(split) or Analysis(rules, shoe, exact=exact, split=split)
        return Level(split, analysis.ev())
    except AnalyzerError as err:
        return Level(split, reason=f"not computed: {err}")


def strategy_levels(rules: Rules, shoe: Shoe | None = None, exact: bool = False, *,
                    optimal: bool = False,
                    analyses: dict[str, Analysis] | None = None) -> Levels:
    """EV of the basic chart, CDZ-, CDP1, CDP and (with ``optimal``) optimal splitting.

    ``analyses`` may hold analyses already made for some levels (keyed by split
    mode), reused as they are.
    """
    shoe = shoe if shoe is not None else Shoe.decks(rules.decks)
    done = dict(analyses or {})
    try:
        run = make_chart(rules, "levels", shoe=shoe)
        assert run.chart.evaluation is not None
        chart = Level("chart", run.chart.evaluation.chart_ev)
        if not exact:
            done.setdefault("cdz", run.optimum)
    except AnalyzerError as err:
        chart = Level("chart", reason=f"not computed: {err}")
    found = [chart] + [_analysed(rules, shoe, exact, s, done) for s in ("cdz", "cdp1", "cdp")]
    if optimal or "optimal" in done:
        found.append(_analysed(rules, shoe, exact, "optimal", done))
    else:
        found.append(Level("optimal", reason="not computed: optimal splitting takes minutes "
                                             "per pair and upcard on a full shoe; ask for it "
                                             "with --split optimal"))
    return Levels(rules=format_spec(rules), shoe=format_shoe(shoe), exact=exact,
                  levels=tuple(found))


def levels_json(levels: Levels) -> dict[str, Any]:
    """``{name: {"ev", "rtp", "title"} | {"not_computed": reason, "title"}}``."""
    from analyzer.report.render import fraction_text

    out: dict[str, Any] = {}
    for level in levels.levels:
        entry: dict[str, Any] = {"title": TITLES[level.name]}
        if level.computed:
            entry.update({"ev": float(level.ev), "rtp": 1 + float(level.ev)})
            if levels.exact and level.name != "chart":
                entry["ev_exact"] = fraction_text(level.ev)
        else:
            entry["not_computed"] = level.reason
        out[level.name] = entry
    return out


def levels_text(levels: Levels) -> list[str]:
    lines = [" level   | RTP (%)          | strategy", "---------+------------------+---------"]
    for level in levels.levels:
        figure = f"{(1 + float(level.ev)) * 100:16.9f}" if level.computed else f"{'-':>16}"
        lines.append(f" {level.name:<7} | {figure} | {TITLES[level.name]}")
        if not level.computed:
            lines.append(f"         |                  | {level.reason}")
    return lines
