"""``bja ev``, ``bja hand`` and ``bja dealer``: the main game of one rule set and shoe.

Each handler calls one function of :mod:`analyzer.api` and prints its result.
The engine is imported when a handler runs, not when the parser is built.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from analyzer.cli.options import JOBS, add_progress, progress_bar
from analyzer.core.levels import SPLIT_MODES

if TYPE_CHECKING:
    from analyzer.core.rules import Rules
    from analyzer.core.shoe import Shoe


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`); --rules "
                   "tokens then apply on top of it")
    p.add_argument("--rules", default="", help='rule spec, e.g. "6D S17 DOA DAS SPL3 LS"')
    p.add_argument("--shoe", default=None, help="shoe composition, e.g. A:24,2:24,...,T:96")
    p.add_argument("--exact", action="store_true", help="exact rational arithmetic")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _split_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--split", default="cdz", choices=[str(m) for m in SPLIT_MODES],
                   help="play of split hands: cdz (CDZ-: the pre-split strategy), cdp1 / cdp "
                   "(Farmer's post-split strategies), optimal (every card of the split round "
                   "remembered; seconds per pair and upcard for one split, minutes with "
                   "resplits), exact (CDZ- by whole-round enumeration, a cross-check for small "
                   "shoes)")


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``ev``, ``hand`` and ``dealer`` to the main CLI."""
    p = sub.add_parser("ev", help="overall EV of a round and EV by upcard")
    _rules_args(p)
    _split_arg(p)
    p.add_argument("--levels", action="store_true",
                   help="also the RTP of every level of play: basic chart, CDZ-, CDP1, CDP "
                   "(optimal splitting with --split optimal); several analyses more")
    p.add_argument("--rank-only", action="store_true",
                   help="where suit bonuses pay (B678, B777, SB, BSBJ): decide on the ranks "
                   "alone, as a player who ignores the suits (by default the first two "
                   "cards' suits and the upcard's are read)")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    p.add_argument("--jobs", action=JOBS, default=None, metavar="N",
                   help="processes: upcards in parallel, the same figures (default: every core)")
    add_progress(p)
    p.set_defaults(func=cmd_ev)

    p = sub.add_parser("hand", help="EV of every action for one hand")
    _rules_args(p)
    p.add_argument("--up", required=True, help="dealer upcard: A, 2-9, T")
    p.add_argument("--cards", required=True, help="player's cards, e.g. T,6")
    p.add_argument("--unconditioned", action="store_true",
                   help="do not condition on the dealer having no blackjack")
    _split_arg(p)
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("dealer", help="dealer outcome table per upcard")
    _rules_args(p)
    p.set_defaults(func=cmd_dealer)


def rules_and_shoe(args: argparse.Namespace) -> tuple[Rules, Shoe]:
    """The rules (``--game``, ``--rules``) and the shoe (``--shoe``, else full decks)."""
    from analyzer.api.games import cli_game, resolve, shoe_of

    rules, _name = resolve(cli_game(args.game, args.rules))
    return rules, shoe_of(rules, args.shoe)


def cmd_ev(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import analyze
    from analyzer.api.games import cli_game

    with progress_bar(args) as bar:
        result = analyze(cli_game(args.game, args.rules), shoe=args.shoe, split=args.split,
                         exact=args.exact, levels=args.levels, jobs=args.jobs,
                         cache=not args.no_cache, progress=bar, suits=not args.rank_only)
    return result.to_dict() if args.json else result.to_text()


def cmd_hand(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import hand
    from analyzer.api.games import cli_game

    result = hand(cli_game(args.game, args.rules), args.up, args.cards, shoe=args.shoe,
                  split=args.split, exact=args.exact, unconditioned=args.unconditioned)
    return result.to_dict() if args.json else result.to_text()


def cmd_dealer(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import dealer
    from analyzer.api.games import cli_game

    result = dealer(cli_game(args.game, args.rules), shoe=args.shoe, exact=args.exact)
    return result.to_dict() if args.json else result.to_text()


__all__ = ["register", "rules_and_shoe"]
