"""Exact blackjack combinatorial analyzer.

Every figure is enumerated over card compositions; nothing is sampled except in
the explicitly named simulator used as a cross-check.  A notebook session:

>>> from analyzer import Analysis, Rules, parse_spec
>>> rules = parse_spec("1D H17 DOA NDAS SPL1 NS")  # or Rules(decks=1, hits_soft_17=True, ...)
>>> analysis = Analysis(rules)  # exact=True: the same figures as Fractions
>>> f"{analysis.ev():.9%}"  # a round off the top of the shoe, per unit bet
'-0.168766712%'
>>> from analyzer import hand_report
>>> hand_report(analysis, 6, (8, 8)).best  # 8-8 against a 6
'split'

One function per job (``analyze``, ``hand``, ``dealer``, ``chart``,
``evaluate_chart``, ``distribution``, ``compare``, ``sidebet``, ``eor``, ``counts``,
``indices``, ``edge``, ``simulate``, ``certify``: :mod:`analyzer.api`) returns a
result with ``to_dict()``, ``to_text()`` and ``to_frame()``:

>>> import analyzer
>>> analyzer.analyze("1D H17 DOA NDAS SPL1 NS", jobs=1)
<EV 1D H17 DOA NDAS SPL1 NS: -0.168767% CDZ->

The names below are the library's public API.  ``import analyzer`` stays
light: each is imported from its module on first use.
"""

from __future__ import annotations

import importlib

from analyzer.core.version import __version__

# typing.TYPE_CHECKING without importing typing: the ``bja`` entry point imports this
# package before it can handle Ctrl-C (analyzer/cli/entry.py), so it is kept minimal.
TYPE_CHECKING = False

_API: dict[str, str] = {
    # rules, shoe, cards, named games
    "Rules": "analyzer.core.rules", "parse_spec": "analyzer.core.rules",
    "format_spec": "analyzer.core.rules", "describe_rules": "analyzer.core.rules",
    "Double": "analyzer.core.rules", "Surrender": "analyzer.core.rules",
    "HoleCard": "analyzer.core.rules",
    "Shoe": "analyzer.core.shoe", "parse_shoe": "analyzer.core.shoe",
    "format_shoe": "analyzer.core.shoe",
    "Value": "analyzer.core.cards", "parse_cards": "analyzer.core.cards",
    "format_value": "analyzer.core.cards", "hand_total": "analyzer.core.cards",
    "PRESETS": "analyzer.core.presets", "CLASSIC_GAMES": "analyzer.core.presets",
    "get_preset": "analyzer.core.presets", "game_rules": "analyzer.core.presets",
    # the engine
    "Analysis": "analyzer.engine.analysis", "FrozenStrategy": "analyzer.engine.frozen",
    "insurance": "analyzer.engine.insurance",
    # report models
    "EvReport": "analyzer.report.model", "ev_report": "analyzer.report.model",
    "HandReport": "analyzer.report.model", "hand_report": "analyzer.report.model",
    "DealerTable": "analyzer.report.model", "dealer_table": "analyzer.report.model",
    # strategy charts
    "make_chart": "analyzer.charts.evaluate", "Chart": "analyzer.charts.model",
    # errors
    "AnalyzerError": "analyzer.core.errors", "NotationError": "analyzer.core.errors",
    "ImpossibleError": "analyzer.core.errors", "RuleError": "analyzer.core.errors",
    "ShoeError": "analyzer.core.errors", "HandError": "analyzer.core.errors",
    "PayTableError": "analyzer.core.errors", "ChartError": "analyzer.core.errors",
    "SimulationError": "analyzer.core.errors", "TooLargeError": "analyzer.core.errors",
    # one function per job (analyzer.api), their results and progress values
    **{name: "analyzer.api" for name in (
        "analyze", "hand", "dealer", "chart", "evaluate_chart", "distribution", "compare",
        "sidebet", "eor", "counts", "indices", "edge", "simulate", "certify", "Result",
        "Progress")},
}

__all__ = ["__version__", "analyze", "hand", "dealer", "chart", "evaluate_chart",
           "distribution", "compare", "sidebet", "eor", "counts", "indices", "edge",
           "simulate", "certify", "Result", "Progress", "Analysis", "AnalyzerError", "Chart",
           "ChartError", "CLASSIC_GAMES",
          "dealer_table", "DealerTable", "describe_rules", "Double", "ev_report", "EvReport",
          "format_shoe", "format_spec", "format_value", "FrozenStrategy", "game_rules",
          "get_preset", "hand_report", "hand_total", "HandError", "HandReport", "HoleCard",
          "ImpossibleError", "insurance", "make_chart", "NotationError", "parse_cards",
          "parse_shoe", "parse_spec", "PayTableError", "PRESETS", "RuleError", "Rules", "Shoe",
          "ShoeError", "SimulationError", "Surrender", "TooLargeError", "Value"]

if TYPE_CHECKING:  # what the lazy names are, for type checkers
    from typing import Any

    from analyzer.api import (
        Progress,
        Result,
        analyze,
        certify,
        chart,
        compare,
        counts,
        dealer,
        distribution,
        edge,
        eor,
        evaluate_chart,
        hand,
        indices,
        sidebet,
        simulate,
    )
    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.model import Chart
    from analyzer.core.cards import Value, format_value, hand_total, parse_cards
    from analyzer.core.errors import (
        AnalyzerError,
        ChartError,
        HandError,
        ImpossibleError,
        NotationError,
        PayTableError,
        RuleError,
        ShoeError,
        SimulationError,
        TooLargeError,
    )
    from analyzer.core.presets import CLASSIC_GAMES, PRESETS, game_rules, get_preset
    from analyzer.core.rules import (
        Double,
        HoleCard,
        Rules,
        Surrender,
        describe_rules,
        format_spec,
        parse_spec,
    )
    from analyzer.core.shoe import Shoe, format_shoe, parse_shoe
    from analyzer.engine.analysis import Analysis
    from analyzer.engine.frozen import FrozenStrategy
    from analyzer.engine.insurance import insurance
    from analyzer.report.model import (
        DealerTable,
        EvReport,
        HandReport,
        dealer_table,
        ev_report,
        hand_report,
    )


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(importlib.import_module(_API[name]), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
