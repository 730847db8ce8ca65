"""``bja rules``: the preset games, listed or shown in words (no engine needed)."""

from __future__ import annotations

import argparse
from typing import Any

from analyzer.core.errors import UsageError
from analyzer.core.presets import PRESETS, get_preset
from analyzer.report.render import preset_json, preset_text


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``rules`` to the main CLI."""
    p = sub.add_parser("rules", help="the preset games: list, or show one in words")
    p.add_argument("action", choices=("list", "show"))
    p.add_argument("name", nargs="?", default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> dict[str, Any] | str:
    if args.action == "list":
        if args.json:
            return {name: p.spec for name, p in PRESETS.items()}
        return "\n".join(f"{name:<11} {p.spec}" for name, p in PRESETS.items())
    if not args.name:
        raise UsageError("bja rules show needs a game name")
    preset = get_preset(args.name)
    return preset_json(preset) if args.json else preset_text(preset)


__all__ = ["register"]
