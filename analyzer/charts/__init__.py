"""Strategy charts: the total-dependent chart of a rule set, its exact EV, its exceptions.

:func:`~analyzer.charts.evaluate.make_chart` derives the chart from the engine's
EVs (:mod:`~analyzer.charts.derive`) and evaluates it exactly as written
(:class:`~analyzer.charts.strategy.ChartStrategy`); renderers turn the one
chart model (:mod:`~analyzer.charts.model`) into text, CSV (the chart file
that ``bja evaluate`` reads back), Markdown, HTML and PNG.
"""

from analyzer.charts.model import Chart, Evaluation, RowKey, Section
from analyzer.charts.strategy import ChartStrategy

__all__ = ["Chart", "ChartStrategy", "Evaluation", "RowKey", "Section"]
