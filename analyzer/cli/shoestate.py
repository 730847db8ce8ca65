"""Shoe-state commands: ``bja eor``, ``bja counts``, ``bja indices``, ``bja edge``.

Thin handlers over :mod:`analyzer.shoestate`, imported only when a command runs
(so ``bja --help`` stays fast).  Each returns text, or a JSON dict with ``--json``;
bad input raises an :class:`~analyzer.core.errors.AnalyzerError` (one line, exit 2).

``--decision`` syntax (repeatable): ``HANDvUP:FIRST-SECOND`` -- e.g.
``16vT:stand-hit`` (every two-card non-pair hard 16), ``T,6vT:S-H`` (those
cards), ``s18v9:hit-stand``, ``T,Tv6:split-stand``, ``11vA:D-H``,
``15vT:surrender-hit`` -- or ``insurance``.  Its value is EV(first) - EV(second)
per unit of the initial bet.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from analyzer.core.errors import RuleConflictError, UsageError

DECISION_HELP = ("a decision HANDvUP:FIRST-SECOND, e.g. 16vT:stand-hit, T,6vT:S-H, "
                 "T,Tv6:split-stand, 11vA:double-hit, or 'insurance' (repeatable)")


def _whole(text: str, what: str, minimum: int) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {text!r}") from None
    if value < minimum:
        raise UsageError(f"{what} must be at least {minimum}, not {text!r}")
    return value


def _game(args: argparse.Namespace) -> tuple[Any, str]:
    from analyzer.core.presets import resolve_game
    return resolve_game(args.game, args.rules)


def _decisions(texts: list[str] | None, rules: Any) -> list[Any]:
    """Parsed ``--decision`` values; an error for one the rules never offer."""
    from analyzer.shoestate.decisions import not_allowed, parse_decision
    decisions = [parse_decision(t) for t in texts or []]
    for d in decisions:
        why = not_allowed(d, rules)
        if why:
            raise RuleConflictError(f"decision {d.key}: {why} under these rules")
    return decisions


def _cmd_eor(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.core.shoe import parse_shoe
    from analyzer.shoestate.eor import effects_of_removal
    from analyzer.shoestate.render_eor import eor_json, eor_text

    rules, name = _game(args)
    shoe = parse_shoe(args.shoe) if args.shoe else None
    if args.strategy not in ("optimal", "fixed"):
        raise UsageError(f"unknown strategy {args.strategy!r} (use optimal or fixed)")
    table = effects_of_removal(rules, shoe, decisions=_decisions(args.decision, rules),
                               strategy=args.strategy, exact=args.exact,
                               jobs=_whole(args.jobs, "--jobs", 1), use_cache=not args.no_cache)
    return eor_json(table, name) if args.json else eor_text(table, name)


def _systems(names: list[str] | None) -> list[Any]:
    from analyzer.shoestate.counts import SYSTEMS, get_system
    return [get_system(n) for n in names] if names else list(SYSTEMS.values())


def _cmd_counts(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.shoestate.efficiency import effects_model, efficiency
    from analyzer.shoestate.render_eor import efficiency_json, efficiency_text

    rules, name = _game(args)
    systems = _systems(args.count)
    model = effects_model(rules, jobs=_whole(args.jobs, "--jobs", 1),
                          use_cache=not args.no_cache)
    effs = [efficiency(model, s) for s in systems]
    return efficiency_json(model, effs, name) if args.json else \
        efficiency_text(model, effs, name)


def _cmd_indices(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.shoestate.counts import get_system
    from analyzer.shoestate.decisions import not_allowed, parse_decision
    from analyzer.shoestate.indices import playing_indices
    from analyzer.shoestate.published import ILLUSTRIOUS_18_FAB_4
    from analyzer.shoestate.render_play import indices_json, indices_text

    rules, name = _game(args)
    system = get_system(args.count)
    if args.decision:
        decisions = _decisions(args.decision, rules)
    else:  # the Illustrious 18 and Fab 4 that these rules allow
        decisions = [d for p in ILLUSTRIOUS_18_FAB_4
                     if not_allowed(d := parse_decision(p.decision), rules) is None]
    unseen = None if args.unseen is None else _whole(args.unseen, "--unseen", 13)
    results = playing_indices(rules, system, decisions, unseen=unseen,
                              jobs=_whole(args.jobs, "--jobs", 1), use_cache=not args.no_cache)
    from analyzer.core.rules import format_spec
    spec = format_spec(rules)
    return indices_json(results, name, spec, system.name) if args.json else \
        indices_text(results, name, spec, system.name)


def _cmd_edge(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.report.output import write_bytes_atomic
    from analyzer.shoestate.counts import get_system
    from analyzer.shoestate.edge import edge_by_count
    from analyzer.shoestate.render_play import edge_json, edge_text

    rules, name = _game(args)
    model = edge_by_count(rules, get_system(args.count),
                          states=_whole(args.states, "--states", 2),
                          count_samples=_whole(args.samples, "--samples", 2),
                          seed=_whole(args.seed, "--seed", 0),
                          cut=None if args.cut is None else _whole(args.cut, "--cut", 1),
                          jobs=_whole(args.jobs, "--jobs", 1), use_cache=not args.no_cache)
    if args.png:
        from analyzer.shoestate.plot import edge_png
        write_bytes_atomic(Path(args.png), edge_png(model, f"{name}: edge by true count"))
    return edge_json(model, name) if args.json else edge_text(model, name)


def _common(p: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    p.add_argument("--game", default=None, help="a named game (see `bja rules list`)")
    p.add_argument("--rules", default="", help="rule tokens, alone or on top of --game")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    if jobs:
        p.add_argument("--jobs", default="1", help="parallel worker processes (default 1)")


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``eor``, ``counts``, ``indices`` and ``edge`` to the main CLI."""
    p = subparsers.add_parser("eor", help="exact effects of removal on the game and decisions",
                              description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    _common(p)
    p.add_argument("--shoe", default=None, help="start from this shoe, e.g. A:24,...,T:96")
    p.add_argument("--decision", action="append", help=DECISION_HELP)
    p.add_argument("--strategy", default="optimal",
                   help="optimal (re-optimised on every shoe, default) or fixed (the full "
                        "shoe's strategy, frozen: the EORs then sum to exactly 0)")
    p.add_argument("--exact", action="store_true", help="exact rational arithmetic (slow)")
    p.set_defaults(func=_cmd_eor)

    p = subparsers.add_parser("counts", help="betting correlation, playing efficiency and "
                              "insurance correlation of count systems for a game")
    _common(p)
    p.add_argument("--count", action="append", help="a count system (hi-lo, ko, hi-opt-1, "
                   "hi-opt-2, omega-2, zen, wong-halves) or a .toml file; default all built-ins")
    p.set_defaults(func=_cmd_counts)

    p = subparsers.add_parser("indices", help="true counts at which decisions flip")
    _common(p)
    p.add_argument("--count", default="hi-lo", help="count system or .toml file (default hi-lo)")
    p.add_argument("--decision", action="append",
                   help=DECISION_HELP + "; default the Illustrious 18 and Fab 4")
    p.add_argument("--unseen", default=None, help="cards unseen at the decision (default half "
                   "the shoe)")
    p.set_defaults(func=_cmd_indices)

    p = subparsers.add_parser("edge", help="edge by true count of a re-optimising player "
                              "(exact EV of sampled shoe states)")
    _common(p)
    p.add_argument("--count", default="hi-lo", help="count system or .toml file (default hi-lo)")
    p.add_argument("--states", default="200", help="shoe states analysed exactly (default 200)")
    p.add_argument("--samples", default="100000",
                   help="count-only states for the true-count distribution (default 100000)")
    p.add_argument("--seed", default="1", help="random seed (default 1)")
    p.add_argument("--cut", default=None, help="cards dealt before the reshuffle (default the "
                   "game's CUT token)")
    p.add_argument("--png", default=None, help="also write the plot to this PNG file")
    p.set_defaults(func=_cmd_edge)


__all__ = ["register"]
