"""The ``bja distribution`` subcommand: the exact distribution of a round's net result.

Bad input raises an :class:`~analyzer.core.errors.AnalyzerError` subclass, which
the main CLI prints as one line before exiting with status 2.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from analyzer.core.errors import ChartError
from analyzer.core.presets import resolve_game
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe, parse_shoe

__all__ = ["register", "run", "distribution_report"]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``distribution`` to the main CLI."""
    p = subparsers.add_parser(
        "distribution", help="exact distribution of a round's net result, SD, hit frequency",
        description="P(net = x) for every net result of a round (units of the initial bet), "
                    "under the optimal CDZ- play or a basic-strategy chart, with the mean, "
                    "variance, SD, skewness, hit frequency, largest win and loss odds, "
                    "volatility index and RTP confidence intervals.")
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`); --rules "
                   "tokens then apply on top of it")
    p.add_argument("--rules", default="", help='rule spec, e.g. "6D S17 DOA DAS SPL3 LS"')
    p.add_argument("--shoe", default=None, help="shoe composition, e.g. A:24,2:24,...,T:96")
    play = p.add_mutually_exclusive_group()
    play.add_argument("--strategy", choices=("optimal", "chart"), default="optimal",
                      help="optimal: the engine's CDZ- play; chart: the game's derived "
                           "basic-strategy chart")
    play.add_argument("--chart", type=Path, metavar="FILE", help="play this chart file")
    p.add_argument("--exact", action="store_true", help="exact rational arithmetic")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes: upcards in parallel, the same figures (default: every core)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="machine-readable output")
    fmt.add_argument("--csv", action="store_true", help="the distribution as CSV")
    fmt.add_argument("--markdown", action="store_true", help="the report as Markdown")
    p.set_defaults(func=run)


def distribution_report(rules: Rules, title: str, shoe: Shoe | None, strategy: str,
                        chart: Path | None, exact: bool, jobs: int = 1) -> Any:
    """Compute the distribution and its report (the library does the work)."""
    from analyzer.charts.strategy import ChartStrategy
    from analyzer.engine.analysis import Analysis
    from analyzer.engine.distribution import round_distribution
    from analyzer.report.distribution_model import make_report

    play: ChartStrategy | None = None
    name = "optimal (CDZ-)"
    if chart is not None:
        from analyzer.charts.fileformat import load_chart

        if not chart.is_file():
            raise ChartError(f"chart file {str(chart)!r} not found")
        play = ChartStrategy(load_chart(chart, rules), rules)
        name = f"chart {chart.name}"
    elif strategy == "chart":
        from analyzer.charts.evaluate import make_chart

        play = ChartStrategy(make_chart(rules, title, shoe=shoe).chart, rules)
        name = "basic-strategy chart (derived, total-dependent)"
    dist = round_distribution(rules, shoe, strategy=play, exact=exact, name=name, jobs=jobs)
    ev = Analysis(rules, shoe, exact=exact, strategy=play, jobs=jobs).ev()
    return make_report(dist, title, ev)


def run(args: argparse.Namespace) -> int:
    from analyzer.report.distribution_render import (
        render_csv,
        render_json,
        render_markdown,
        render_text,
    )

    rules, title = resolve_game(args.game, args.rules)
    shoe = parse_shoe(args.shoe) if args.shoe else None
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    report = distribution_report(rules, title, shoe, args.strategy, args.chart, args.exact,
                                 jobs)
    render = (render_json if args.json else render_csv if args.csv
              else render_markdown if args.markdown else render_text)
    print(render(report), end="")
    return 0
