"""Where the simulator's strategies come from: the engine's optimum, or the game's chart.

These are the only doors to the engine, and they are opened once per run:
the strategy is exported into :class:`~analyzer.sim.tables.DecisionTables`
before the first card is dealt.  The engine is imported here lazily, so the
simulator's own code never depends on it.
"""

from __future__ import annotations

from analyzer.core.rules import Rules
from analyzer.sim.config import SimulationError
from analyzer.sim.tables import DecisionTables, SimStrategy, export_tables

STRATEGIES = ("optimal", "chart")


def optimal_strategy(rules: Rules) -> SimStrategy:
    """The engine's optimal composition-dependent (CDZ-) strategy of the full shoe."""
    from analyzer.engine.analysis import Analysis
    from analyzer.engine.frozen import FrozenStrategy

    return FrozenStrategy(Analysis(rules.replace(cut_card=0)))


def chart_strategy(rules: Rules) -> SimStrategy:
    """The game's basic strategy chart (``make_chart``), played by its lookup rules."""
    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.strategy import ChartStrategy
    from analyzer.core.rules import format_spec

    full = rules.replace(cut_card=0)
    chart = make_chart(full, f"Basic strategy: {format_spec(full)}").chart
    return ChartStrategy(chart, full)


def strategy_tables(rules: Rules, strategy: str | SimStrategy | DecisionTables | None
                    ) -> tuple[DecisionTables, str]:
    """Decision tables for ``strategy`` (a name, an object with ``decide``, or tables
    already exported) and a name for reports."""
    if isinstance(strategy, DecisionTables):
        return strategy, "given tables"
    if strategy is None or isinstance(strategy, str):
        name = strategy or "optimal"
        if name not in STRATEGIES:
            raise SimulationError(f"unknown strategy {name!r} (use {', '.join(STRATEGIES)})")
        player = optimal_strategy(rules) if name == "optimal" else chart_strategy(rules)
        label = ("optimal composition-dependent (CDZ-, full shoe)" if name == "optimal"
                 else "basic strategy chart (total-dependent)")
        return export_tables(rules, player), label
    return export_tables(rules, strategy), type(strategy).__name__


__all__ = ["STRATEGIES", "chart_strategy", "optimal_strategy", "strategy_tables"]
