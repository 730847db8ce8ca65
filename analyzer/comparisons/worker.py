"""What a worker runs: the figures of a few rule sets, with the engine's own calls.

Kept apart from the runner: a worker imports what it computes with, nothing of
the memo or the dispatch (the parent keeps the memo).  Rule sets of one
chunk share a shoe, so the engine's per-shoe caches (hand space, dealer draw
tables) serve every rule set after the first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.core.errors import AnalyzerError
from analyzer.core.levels import SplitLevel

if TYPE_CHECKING:
    from analyzer.core.rules import Rules
    from analyzer.core.shoe import Shoe

EXACT_CHART = "exact:chart"  # the kind of the chart's EV in fractions (compare --exact)


def compute_chunk(chunk: list[tuple[str, tuple[str, ...]]],
                  shoe: str | None) -> list[tuple[str, dict[str, Any]]]:
    """:func:`compute` of each ``(spec, kinds)``, in order (a chunk's rule sets share a
    shoe: in fractions, the dealer rows of each dealer rule are computed once)."""
    from analyzer.engine.dealer import exact_rows_kept

    with exact_rows_kept():
        return [(spec, compute(spec, shoe, kinds)) for spec, kinds in chunk]


def compute(spec: str, shoe: str | None, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The missing figures of one rule set: ``{kind: data}``, or ``{"error": why}``.

    Kinds: ``"chart"``, ``"float"``, ``"exact"`` (CDZ-), ``"float:LEVEL"`` /
    ``"exact:LEVEL"`` for another level of split play (``cdp1``, ``cdp``,
    ``optimal``), and ``"exact:chart"``, the chart's EV in fractions (computed with
    ``"chart"``).  A level that cannot be computed for a valid rule set (optimal
    splitting beyond its limits) gives ``{"error": why}`` for that kind only.
    Runs in a worker: imports inside, so the parent's ``bja --help`` stays light.
    """
    from analyzer.engine.dealer import exact_rows_kept

    with exact_rows_kept():  # the exact kinds ask the same dealer rows
        return _compute(spec, shoe, kinds)


def _compute(spec: str, shoe: str | None, kinds: tuple[str, ...]) -> dict[str, Any]:
    from analyzer.core.rules import parse_spec
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis
    from analyzer.util.text import fraction_text

    out: dict[str, Any] = {}
    try:
        rules = parse_spec(spec)
        fixed = parse_shoe(shoe) if shoe else None
        if "chart" in kinds or EXACT_CHART in kinds:  # the fractions need the chart
            out.update(_chart(rules, fixed, spec, EXACT_CHART in kinds))
        if "float" in kinds:
            ev = out["chart"]["ev"] if "chart" in out else Analysis(rules, fixed).ev()
            out["float"] = {"ev": float(ev)}
        if "exact" in kinds:
            out["exact"] = {"ev_exact": fraction_text(Analysis(rules, fixed, exact=True).ev())}
        for kind in kinds:
            arithmetic, _, level = kind.partition(":")
            if level and kind != EXACT_CHART:
                out[kind] = _level(rules, fixed, SplitLevel(level), arithmetic == "exact")
    except AnalyzerError as err:  # an invalid or unmodelled variant: this row says why
        return {"error": str(err)}
    return out


def _level(rules: Rules, shoe: Shoe | None, level: SplitLevel, exact: bool) -> dict[str, Any]:
    """The EV at one split level, or why that level has none for these rules."""
    from analyzer.core.errors import ImpossibleError
    from analyzer.engine.analysis import Analysis
    from analyzer.util.text import fraction_text

    try:
        ev = Analysis(rules, shoe, exact=exact, split=level).ev()
    except ImpossibleError as err:  # the level, not the rules, is refused (e.g. optimal SPL3)
        return {"error": str(err)}
    return {"ev_exact": fraction_text(ev)} if exact else {"ev": float(ev)}


def _chart(rules: Rules, shoe: Shoe | None, title: str, exact: bool) -> dict[str, Any]:
    """The chart figures: the chart's exact EV and the CDZ- optimum beside it; with
    ``exact``, the chart's own play valued again in fractions, as ``bja ev --levels
    --exact`` values it (the chart is derived in floats either way)."""
    from analyzer.charts.evaluate import chart_ev, make_chart

    run = make_chart(rules, title, shoe=shoe)
    assert run.chart.evaluation is not None
    figures = run.chart.evaluation
    out: dict[str, Any] = {"chart": {"ev": float(figures.optimum_ev),
                                     "chart_ev": float(figures.chart_ev)}}
    if exact:
        from analyzer.util.text import fraction_text

        value = chart_ev(run.chart, rules, shoe, exact=True)
        out[EXACT_CHART] = {"ev_exact": fraction_text(value)}
    return out
