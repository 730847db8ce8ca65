"""Comparing rule variants: grids, rule-effect tables, differences explained rule by rule.

Library first: :func:`compare_grid`, :func:`compare_effects` and
:func:`compare_explain` return one :class:`~analyzer.comparisons.model.Comparison`
model, which :func:`~analyzer.comparisons.outputs.render` turns into text, JSON,
CSV, Markdown, HTML or PNG.  :class:`RunOptions` says how to compute (exact,
chart column, jobs, local processes or a Dask cluster, memo).
"""

from analyzer.comparisons.compute import compare_effects, compare_explain, compare_grid
from analyzer.comparisons.runner import RunOptions

__all__ = ["compare_grid", "compare_effects", "compare_explain", "RunOptions"]
