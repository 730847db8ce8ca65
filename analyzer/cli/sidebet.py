"""The ``bja sidebet`` subcommand.

Bad input raises an :class:`~analyzer.core.errors.AnalyzerError` subclass; the main
CLI turns it into a one-line message and exit code 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from analyzer.core.errors import PayTableError
from analyzer.sidebets.twentyone3 import STRAIGHT_RULES

# The bets (analyzer.sidebets.bets.BETS) and the Bust It readings
# (analyzer.sidebets.bustit.READINGS), named here so that building the parser imports
# no counting code; tests/test_errors.py checks that they match.
BET_NAMES = ("21+3", "hot3", "any-pair", "bust-it")
BUST_IT_READINGS = ("removed", "ignored")

__all__ = ["register", "run"]

DEFAULT_DECKS = 8  # the free-bet game's shoe


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``sidebet`` to the main CLI."""
    p = subparsers.add_parser(
        "sidebet", help="exact par sheet of a side bet: 21+3, hot3, any-pair, bust-it",
        description="Exact combinations, probability and return of every event of a side "
                    "bet, its RTP and volatility, for any pay table and any shoe.")
    p.add_argument("name", metavar="NAME", help=f"the bet: {', '.join(BET_NAMES)}")
    shoe = p.add_mutually_exclusive_group()
    shoe.add_argument("--decks", type=int, help=f"full decks in the shoe (default "
                      f"{DEFAULT_DECKS})")
    shoe.add_argument("--shoe", metavar="SPEC", help="a depleted or any other shoe, e.g. "
                      "'6decks-AS-KH*2' or 'AS:2,7C:1' (use --shoe=SPEC if it starts with -)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--preset", default="seed", help="shipped pay table (default seed)")
    source.add_argument("--paytable", type=Path, metavar="FILE", help="pay table in TOML")
    p.add_argument("--pays", metavar="EVENT=N,...", help="override single pays ('to 1')")
    p.add_argument("--straights", choices=tuple(STRAIGHT_RULES), default="standard",
                   help="21+3 straights (standard: A-2-3 and Q-K-A, not K-A-2)")
    p.add_argument("--pair-by", choices=("rank", "value"), default="rank",
                   help="Any Pair: same rank (default) or same blackjack value (K-Q)")
    p.add_argument("--h17", action="store_true", help="Bust It: the dealer hits soft 17")
    p.add_argument("--reading", choices=BUST_IT_READINGS, default="removed",
                   help="Bust It: are the player's first two cards removed from the shoe "
                        "(default) or ignored?")
    p.add_argument("--solve", metavar="EVENT", help="find the pay of EVENT for --target-rtp")
    p.add_argument("--target-rtp", metavar="RTP", help="e.g. 0.96, 24/25 or 96%%")
    p.add_argument("--step", default="1", help="practical pays are multiples of this (1)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="machine-readable output")
    fmt.add_argument("--markdown", action="store_true", help="the par sheet as Markdown")
    fmt.add_argument("--csv", action="store_true", help="the event table as CSV")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    """The par sheet (or the solved pay) in the chosen format."""
    from analyzer.sidebets.bets import BetOptions, get_bet
    from analyzer.sidebets.build import report
    from analyzer.sidebets.paytable import load_paytable, override, parse_pay, preset
    from analyzer.sidebets.render import (
        render_csv,
        render_json,
        render_markdown,
        render_solution_json,
        render_solution_text,
        render_text,
    )
    from analyzer.sidebets.solve import parse_target, solve_pay
    from analyzer.sidebets.stats import par_sheet
    from analyzer.sidebets.suitshoe import SuitShoe, parse_suit_shoe

    bet = get_bet(args.name)
    shoe = parse_suit_shoe(args.shoe) if args.shoe else SuitShoe.decks(
        DEFAULT_DECKS if args.decks is None else args.decks)
    table = load_paytable(bet, args.paytable) if args.paytable else preset(bet, args.preset)
    if args.pays:
        table = override(table, args.pays)
    options = BetOptions(straights=args.straights, pair_by=args.pair_by,
                         hits_soft_17=args.h17, reading=args.reading)
    if (args.solve is None) != (args.target_rtp is None):
        raise PayTableError("--solve EVENT and --target-rtp RTP go together")
    outcomes = bet.outcomes(shoe, options)
    if args.solve is not None:
        sheet = par_sheet(bet, outcomes, table, shoe.describe())  # the assumptions, no RTPs
        solution = solve_pay(bet, outcomes, table, args.solve, parse_target(args.target_rtp),
                             parse_pay(args.step, "--step"))
        show = render_solution_json if args.json else render_solution_text
        return show(sheet, solution)
    sheet = report(bet, shoe, outcomes, table, options)
    render = (render_json if args.json else render_markdown if args.markdown
              else render_csv if args.csv else render_text)
    return render(sheet)
