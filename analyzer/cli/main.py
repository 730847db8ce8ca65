"""``bja``: a thin command-line shell over the library.

Every command prints plain text, or JSON with ``--json``.  Bad input (an
unknown rule token, an impossible hand or shoe, a malformed file) prints one
line ``bja: error: ...`` and exits with status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.cli.chart import register as register_charts
from analyzer.cli.shoestate import register as register_shoestate
from analyzer.cli.sidebet import register as register_sidebet
from analyzer.cli.simulate import register as register_simulate
from analyzer.core.cards import parse_cards, parse_value
from analyzer.core.errors import AnalyzerError
from analyzer.core.presets import PRESETS, game_rules, get_preset
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe, format_shoe, parse_shoe
from analyzer.engine.analysis import Analysis
from analyzer.report.build import build
from analyzer.report.cache import ev_report
from analyzer.report.render import (
    dealer_json,
    dealer_text,
    hand_json,
    hand_text,
    preset_json,
    preset_text,
)


class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 and a one-line message for usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"bja: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`); --rules "
                   "tokens then apply on top of it")
    p.add_argument("--rules", default="", help='rule spec, e.g. "6D S17 DOA DAS SPL3 LS"')
    p.add_argument("--shoe", default=None, help="shoe composition, e.g. A:24,2:24,...,T:96")
    p.add_argument("--exact", action="store_true", help="exact rational arithmetic")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _rules(args: argparse.Namespace) -> Rules:
    return game_rules(args.game, args.rules)


def _shoe(args: argparse.Namespace, rules: Rules) -> Shoe:
    return parse_shoe(args.shoe) if args.shoe else Shoe.decks(rules.decks)


def _cmd_ev(args: argparse.Namespace) -> dict[str, Any] | str:
    rules = _rules(args)
    return ev_report(format_spec(rules), format_shoe(_shoe(args, rules)), exact=args.exact,
                     as_json=args.json, use_cache=not args.no_cache, split=args.split)


def _cmd_hand(args: argparse.Namespace) -> dict[str, Any] | str:
    rules = _rules(args)
    analysis = Analysis(rules, _shoe(args, rules), exact=args.exact)
    up = int(parse_value(args.up))
    cards = tuple(int(c) for c in parse_cards(args.cards))
    if args.json:
        return hand_json(analysis, up, cards, unconditioned=args.unconditioned)
    return hand_text(analysis, up, cards, unconditioned=args.unconditioned)


def _cmd_dealer(args: argparse.Namespace) -> dict[str, Any] | str:
    rules = _rules(args)
    analysis = Analysis(rules, _shoe(args, rules), exact=args.exact)
    return dealer_json(analysis) if args.json else dealer_text(analysis)


def _cmd_build(args: argparse.Namespace) -> str:
    written = build(args.root, progress=lambda msg: print(msg, file=sys.stderr))
    return "\n".join(str(p) for p in written)


def _cmd_rules(args: argparse.Namespace) -> dict[str, Any] | str:
    if args.action == "list":
        if args.json:
            return {name: p.spec for name, p in PRESETS.items()}
        return "\n".join(f"{name:<11} {p.spec}" for name, p in PRESETS.items())
    if not args.name:
        raise AnalyzerError("bja rules show needs a game name")
    return preset_json(get_preset(args.name)) if args.json else \
        preset_text(get_preset(args.name))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bja", description="Exact blackjack combinatorial analyzer")
    parser.add_argument("--version", action="version", version=f"bja {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("ev", help="overall EV of a round and EV by upcard")
    _rules_args(p)
    p.add_argument("--split", default="cdz", help="splits: cdz (CDZ-, Farmer's algorithm) or "
                   "exact (CDZ- by whole-round enumeration; small shoes only)")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    p.set_defaults(func=_cmd_ev)

    p = sub.add_parser("hand", help="EV of every action for one hand")
    _rules_args(p)
    p.add_argument("--up", required=True, help="dealer upcard: A, 2-9, T")
    p.add_argument("--cards", required=True, help="player's cards, e.g. T,6")
    p.add_argument("--unconditioned", action="store_true",
                   help="do not condition on the dealer having no blackjack")
    p.set_defaults(func=_cmd_hand)

    p = sub.add_parser("dealer", help="dealer outcome table per upcard")
    _rules_args(p)
    p.set_defaults(func=_cmd_dealer)

    p = sub.add_parser("rules", help="the preset games: list, or show one in words")
    p.add_argument("action", choices=("list", "show"))
    p.add_argument("name", nargs="?", default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("build", help="regenerate tables/ and reports/")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default .)")
    p.set_defaults(func=_cmd_build)

    register_sidebet(sub)
    register_charts(sub)
    register_simulate(sub)
    register_shoestate(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bja``; returns the exit status (2 for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        out = args.func(args)
    except AnalyzerError as err:
        print(f"bja: error: {err}", file=sys.stderr)
        return 2
    if isinstance(out, int):
        return out
    if isinstance(out, str):
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    else:
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


__all__ = ["main", "build_parser"]
