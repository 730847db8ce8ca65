"""The ``bja sidebet`` subcommand.

Bad input raises an :class:`~analyzer.core.errors.AnalyzerError` subclass; the main
CLI turns it into a one-line message and exit code 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from analyzer.cli.options import whole
from analyzer.core.limits import MAX_PLAYED_ROUNDS, MAX_SIDEBET_SEED, MAX_SIDEBET_SHOES
from analyzer.core.shoe import MAX_DECKS
from analyzer.sidebets.twentyone3 import STRAIGHT_RULES

if TYPE_CHECKING:
    from analyzer.sidebets.bustit import BustItReading

# The bets (analyzer.sidebets.bets.BETS) and the Bust It readings
# (analyzer.sidebets.bustit.READINGS), named here so that building the parser imports
# no counting code; tests/test_errors.py checks that they match.
BET_NAMES = ("21+3", "hot3", "any-pair", "bust-it", "perfect-pairs", "lucky-ladies",
             "royal-match", "match-the-dealer", "lucky-lucky", "buster-blackjack",
             "21+3-xtreme", "21+3-classic", "super-sevens", "over-under-13", "kings-bounty",
             "bet-the-set")
BUST_IT_READINGS: tuple[BustItReading, ...] = ("removed", "ignored")

__all__ = ["register", "run"]

DEFAULT_DECKS = 8  # the free-bet game's shoe


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``sidebet`` to the main CLI."""
    p = subparsers.add_parser(
        "sidebet", help="exact par sheet of a side bet (21+3, perfect-pairs, lucky-ladies, ...)",
        description="Exact combinations, probability and return of every event of a side "
                    "bet, its RTP and volatility, for any pay table and any shoe; with "
                    "--protection, the effects of removal, the best counts and a simulated "
                    "counter.")
    p.add_argument("name", metavar="NAME", help=f"the bet: {', '.join(BET_NAMES)}")
    shoe = p.add_mutually_exclusive_group()
    shoe.add_argument("--decks", action=whole(1, MAX_DECKS), help=f"full decks in the shoe "
                      f"(default {DEFAULT_DECKS})")
    shoe.add_argument("--shoe", metavar="SPEC", help="a depleted or any other shoe, e.g. "
                      "'6decks-AS-KH*2', '6spanish' (48-card decks) or 'AS:2,7C:1' (use "
                      "--shoe=SPEC if it starts with -)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--preset", metavar="NAME", help="shipped pay table (default: the "
                        "bet's usual one; see --list-paytables)")
    source.add_argument("--paytable", metavar="BET:NAME|FILE", help="a shipped pay table "
                        "(perfect-pairs:A) or a TOML file (a file named like BET:NAME is "
                        "./BET:NAME)")
    p.add_argument("--list-paytables", action="store_true",
                   help="list the bet's shipped pay tables with their sources")
    p.add_argument("--pays", metavar="EVENT=N,...", help="override single pays ('to 1')")
    p.add_argument("--straights", choices=tuple(STRAIGHT_RULES), default=None,
                   help="21+3 straights (standard: A-2-3 and Q-K-A, not K-A-2)")
    p.add_argument("--pair-by", choices=("rank", "value"), default=None,
                   help="Any Pair: same rank (default) or same blackjack value (K-Q)")
    p.add_argument("--h17", action="store_true",
                   help="Bust It, Buster Blackjack: the dealer hits soft 17")
    p.add_argument("--reading", choices=BUST_IT_READINGS, default=None,
                   help="Bust It, Buster Blackjack: are the player's first two cards removed "
                        "from the shoe (default) or ignored?")
    p.add_argument("--played", action=whole(1, MAX_PLAYED_ROUNDS), default=None, metavar="ROUNDS",
                   help="Bust It: also state the played reading (the player's hits dealt "
                        "before the dealer draws), simulated over ROUNDS rounds")
    p.add_argument("--protection", action="store_true",
                   help="add game protection: effects of removal, counts, a simulated counter")
    p.add_argument("--shoes", action=whole(1, MAX_SIDEBET_SHOES), default=None,
                   help="--protection: shoes the counter is dealt (default 20,000)")
    p.add_argument("--seed", action=whole(0, MAX_SIDEBET_SEED), default=None,
                   help="--protection, --played: the simulation's seed")
    p.add_argument("--solve", metavar="EVENT", help="find the pay of EVENT for --target-rtp")
    p.add_argument("--target-rtp", metavar="RTP", help="e.g. 0.96, 24/25 or 96%%")
    p.add_argument("--step", default=None,
                   help="--solve: practical pays are multiples of this (1)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="machine-readable output")
    fmt.add_argument("--markdown", action="store_true", help="the par sheet as Markdown")
    fmt.add_argument("--csv", action="store_true", help="the event table as CSV")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    """The par sheet (or the solved pay) in the chosen format."""
    from analyzer.api import sidebet
    from analyzer.api.studies import paytable_list

    if args.list_paytables:
        if args.json:
            import json

            return json.dumps(paytable_list(args.name, as_data=True), indent=2) + "\n"
        return paytable_list(args.name)
    result = sidebet(args.name, decks=args.decks, shoe=args.shoe, paytable=args.paytable,
                     preset=args.preset, pays=args.pays, straights=args.straights,
                     pair_by=args.pair_by, h17=args.h17, reading=args.reading,
                     solve=args.solve, target_rtp=args.target_rtp, step=args.step,
                     protection=args.protection, shoes=args.shoes, seed=args.seed,
                     played=args.played)
    if args.json:
        import json

        return json.dumps(result.to_dict(), indent=2) + "\n"
    if result.solution is None and args.markdown:
        return result.to_markdown()
    if result.solution is None and args.csv:
        return result.to_csv()
    return result.to_text()
