"""``bja rules``: the preset games, listed or shown in words (no engine needed)."""

from __future__ import annotations

import argparse
from typing import Any

from analyzer.core.errors import UsageError
from analyzer.core.presets import (
    BUILT_VARIANTS,
    CLASSIC_GAMES,
    PRESETS,
    VARIANT_GAMES,
    game_base,
    get_preset,
)
from analyzer.core.rules import describe_rules, format_spec
from analyzer.report.render import PresetJson, preset_json, preset_text


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``rules`` to the main CLI."""
    p = sub.add_parser("rules", help="the named games: list, or show one in words",
                       description="List every named game (the seed games, with their rule "
                                   "texts' readings, and the classic tables), or show one in "
                                   "words.")
    p.add_argument("action", choices=("list", "show"))
    p.add_argument("name", nargs="?", default=None, help="the game to show (bja rules list)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> PresetJson | dict[str, Any] | str:
    if args.action == "list":
        if args.name is not None:  # read as a game to list, it was silently ignored
            raise UsageError(f"bja rules list takes no name (bja rules show {args.name})")
        if args.json:
            return {name: {"spec": spec, "kind": kind} for name, spec, kind in _games()}
        return "\n".join(f"{name:<14} {kind:<8} {spec}" for name, spec, kind in _games())
    if not args.name:
        raise UsageError("bja rules show needs a game name")
    if args.name in CLASSIC_GAMES or args.name in VARIANT_GAMES:
        return classic_json(args.name) if args.json else classic_text(args.name)
    if args.name not in PRESETS:
        game_base(args.name)  # the error naming every known game
    preset = get_preset(args.name)
    return preset_json(preset) if args.json else preset_text(preset)


def _games() -> list[tuple[str, str, str]]:
    """Every named game: (name, spec, "seed", "classic" or "variant")."""
    return [*((name, p.spec, "seed") for name, p in PRESETS.items()),
            *((name, spec, "classic") for name, spec in CLASSIC_GAMES.items()),
            *((name, spec, "variant") for name, spec in VARIANT_GAMES.items())]


CLASSIC_NOTE = ("a common casino rule set analysed beside the seed games; it has no rule "
                "text of its own: the spec is the whole game")


VARIANT_NOTE = ("Spanish 21 as docs/games.md reads the game (48-card decks, the bonuses "
                "printed on its tables; the Super Bonus is a switch, SB, its pay depending on "
                "the bet); ")
BUILT_NOTE = ("bja build writes its report, chart, rule effects, shoe-state studies and "
              "certificate")
ON_REQUEST_NOTE = "analysed on request, not written by bja build"


def _kind(name: str) -> tuple[str, str]:
    if name not in VARIANT_GAMES:
        return "classic", CLASSIC_NOTE
    return "variant", VARIANT_NOTE + (BUILT_NOTE if name in BUILT_VARIANTS else ON_REQUEST_NOTE)


def classic_json(name: str) -> dict[str, Any]:
    rules = game_base(name)
    kind, note = _kind(name)
    return {"name": name, "kind": kind, "spec": format_spec(rules),
            "rules": describe_rules(rules), "rule_text": None, "note": note}


def classic_text(name: str) -> str:
    rules = game_base(name)
    kind, note = _kind(name)
    lines = [f"{name} ({'classic table' if kind == 'classic' else 'variant'})",
             f"spec: {format_spec(rules)}", "rules:"]
    lines += [f"  - {w}" for w in describe_rules(rules)]
    lines.append(f"note: {note}")
    return "\n".join(lines)


__all__ = ["register"]
