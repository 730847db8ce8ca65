"""``bja ev``, ``bja hand`` and ``bja dealer``: the main game of one rule set and shoe.

Each handler builds a report model (:mod:`analyzer.report.model`) and hands it
to a renderer.  The engine is imported when a handler runs, not when the
parser is built.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import RuleConflictError
from analyzer.core.levels import SPLIT_MODES
from analyzer.core.presets import game_rules
from analyzer.core.shoe import Shoe, parse_shoe

if TYPE_CHECKING:
    from analyzer.core.rules import Rules
    from analyzer.engine.analysis import Analysis


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`); --rules "
                   "tokens then apply on top of it")
    p.add_argument("--rules", default="", help='rule spec, e.g. "6D S17 DOA DAS SPL3 LS"')
    p.add_argument("--shoe", default=None, help="shoe composition, e.g. A:24,2:24,...,T:96")
    p.add_argument("--exact", action="store_true", help="exact rational arithmetic")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _split_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--split", default="cdz", choices=SPLIT_MODES,
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
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes: upcards in parallel, the same figures (default: every core)")
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
    rules = game_rules(args.game, args.rules)
    if args.shoe is None:
        return rules, Shoe.decks(rules.decks)
    shoe = parse_shoe(args.shoe)
    if rules.cut_card >= shoe.total:
        raise RuleConflictError(f"CUT{rules.cut_card} with --shoe: the cut card must come "
                                f"before the end of the {shoe.total}-card shoe")
    return rules, shoe


def _analysis(args: argparse.Namespace) -> Analysis:
    from analyzer.engine.analysis import Analysis

    rules, shoe = rules_and_shoe(args)
    return Analysis(rules, shoe, exact=args.exact, split=getattr(args, "split", "cdz"))


def cmd_ev(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.report.cache import cached_ev_report
    from analyzer.report.render import ev_json, ev_text

    rules, shoe = rules_and_shoe(args)
    report = cached_ev_report(rules, shoe, exact=args.exact, split=args.split,
                              levels=args.levels, use_cache=not args.no_cache,
                              jobs=args.jobs if args.jobs is not None else os.cpu_count() or 1)
    return ev_json(report) if args.json else ev_text(report)


def cmd_hand(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.core.cards import parse_cards, parse_value
    from analyzer.report.model import hand_report
    from analyzer.report.render import hand_json, hand_text

    up = int(parse_value(args.up))
    cards = tuple(int(c) for c in parse_cards(args.cards))
    report = hand_report(_analysis(args), up, cards, unconditioned=args.unconditioned)
    return hand_json(report) if args.json else hand_text(report)


def cmd_dealer(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.report.model import dealer_table
    from analyzer.report.render import dealer_json, dealer_text

    table = dealer_table(_analysis(args))
    return dealer_json(table) if args.json else dealer_text(table)


__all__ = ["register", "rules_and_shoe"]
