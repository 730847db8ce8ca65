"""The ``bja simulate`` subcommand: a Monte Carlo cross-check of a game's exact EV.

Test labs ask for a simulation next to the exact figures; ``--compare`` puts
the engine's exact EV beside the estimate and says how many standard errors
apart they are.  ``--counter hilo --spread 1-8`` plays a Hi-Lo counter instead
(game protection).  The simulator (and numba) are imported only when the
command runs, so ``bja --help`` stays fast.  Bad input raises an
:class:`~analyzer.core.errors.AnalyzerError` subclass, which the main CLI
prints as one line before exiting with status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from analyzer.cli.options import add_progress, progress_bar


def _cmd_simulate(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import simulate
    from analyzer.api.games import cli_game

    with progress_bar(args) as bar:
        result = simulate(cli_game(args.game, args.rules), args.rounds, seed=args.seed,
                          jobs=args.jobs, strategy=args.strategy,
                          cut_card=not args.no_cut_card, compare=args.compare,
                          counter=args.counter, spread=args.spread, timing=args.timing,
                          progress=bar)
    return result.to_dict() if args.json else result.to_text()


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``simulate`` to the main CLI; the handler returns a str or a JSON dict."""
    p = subparsers.add_parser(
        "simulate", help="Monte Carlo estimate of a game's EV (cross-check of the exact one)",
        description="Play rounds with a fixed strategy through the simulator's own dealing "
                    "and settlement code (compiled with numba); with a cut card the shoe is "
                    "dealt down to it.")
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`)")
    p.add_argument("--rules", default="", help="rule tokens, alone or on top of --game")
    p.add_argument("--rounds", required=True,
                   help="rounds to play, e.g. 1000000 or 1e9 (at most 1e11)")
    p.add_argument("--seed", default=None, help="random seed (default: fresh, reported)")
    p.add_argument("--jobs", default=None, help="parallel jobs (default: every core)")
    p.add_argument("--strategy", default="optimal",
                   help="optimal (the engine's composition-dependent play, default) or chart "
                        "(the game's basic strategy chart)")
    p.add_argument("--no-cut-card", action="store_true",
                   help="ignore the game's cut card: every round from a full shoe")
    p.add_argument("--compare", action="store_true",
                   help="also compute the exact EV and the difference in standard errors")
    p.add_argument("--counter", default=None, metavar="SYSTEM",
                   help="play a card counter (hi-lo; also spelled hilo) with a bet spread "
                   "instead")
    p.add_argument("--spread", default=None, help="the counter's bet spread (default 1-8)")
    p.add_argument("--timing", action="store_true",
                   help="also print the speed (rounds per second, seconds): never twice the "
                        "same, so left out of the output unless asked for")
    add_progress(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_simulate)


__all__ = ["register"]
