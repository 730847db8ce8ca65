"""The ``bja distribution`` subcommand: the exact distribution of a round's net result.

Bad input raises an :class:`~analyzer.core.errors.AnalyzerError` subclass, which
the main CLI prints as one line before exiting with status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from analyzer.cli.options import JOBS, add_progress, progress_bar, whole

__all__ = ["register", "run"]

MAX_SPOTS = 7  # seats at a table: the library's, named here so --help imports no engine


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
    p.add_argument("--spots", action=whole(1, MAX_SPOTS), default=None, metavar="N",
                   help="also the covariance of two spots against one dealer hand (CDZ- play: "
                        "exact with one split, else simulated) and the SD of a round on "
                        f"1..N spots (N at most {MAX_SPOTS})")
    p.add_argument("--jobs", action=JOBS, default=None, metavar="N",
                   help="processes: upcards in parallel, the same figures (default: every core)")
    add_progress(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="machine-readable output")
    fmt.add_argument("--csv", action="store_true", help="the distribution as CSV")
    fmt.add_argument("--markdown", action="store_true", help="the report as Markdown")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    from analyzer.api import distribution
    from analyzer.api.games import cli_game

    with progress_bar(args) as bar:
        result = distribution(cli_game(args.game, args.rules), shoe=args.shoe,
                              strategy=args.chart if args.chart is not None else args.strategy,
                              exact=args.exact, spots=args.spots, jobs=args.jobs,
                              progress=bar)
    if args.json:
        return _dumps(result.to_dict())
    return result.to_csv() if args.csv else result.to_markdown() if args.markdown \
        else result.to_text()


def _dumps(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, indent=2) + "\n"
