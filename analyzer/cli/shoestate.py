"""Shoe-state commands: ``bja eor``, ``bja counts``, ``bja indices``, ``bja edge``.

Thin handlers over :mod:`analyzer.api`, imported only when a command runs
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

from analyzer.cli.options import add_progress, progress_bar
from analyzer.core.errors import UsageError
from analyzer.core.limits import (
    MAX_COUNT_SAMPLES,
    MAX_JOBS,
    MAX_SEED,
    MAX_STATES,
)
from analyzer.core.numbers import parse_whole
from analyzer.core.shoe import MAX_COUNT

EOR_DESCRIPTION = """\
The exact effect of removing one card of each value on the game's EV and on
decisions, per unit of the initial bet.

--decision (repeatable): HANDvUP:FIRST-SECOND, e.g.
  16vT:stand-hit     every two-card non-pair hard 16 against a ten
  T,6vT:S-H          those cards
  s18v9:hit-stand    soft 18 against a 9
  T,Tv6:split-stand  a pair of tens against a 6
  11vA:D-H           double or hit 11 against an ace
  15vT:surrender-hit
or 'insurance'.  Its value is EV(first) - EV(second) per unit of the initial bet (insurance:
its EV per unit of the insurance bet)."""

DECISION_HELP = ("a decision HANDvUP:FIRST-SECOND, e.g. 16vT:stand-hit, T,6vT:S-H, "
                 "T,Tv6:split-stand, 11vA:double-hit, or 'insurance' (repeatable)")


def _whole(text: str, what: str, minimum: int, maximum: int = MAX_JOBS) -> int:
    """A whole number ``minimum..maximum`` (``1e5`` too): caps in :mod:`analyzer.core.limits`."""
    return parse_whole(text, what, UsageError, minimum=minimum, maximum=maximum,
                       scientific=True)


def _jobs(args: argparse.Namespace) -> int | None:
    """``--jobs N`` (1 or more), or None: every core, as every command defaults."""
    return None if args.jobs is None else _whole(args.jobs, "--jobs", 1)


def _game(args: argparse.Namespace) -> str:
    from analyzer.api.games import cli_game

    return cli_game(args.game, args.rules)


def _cmd_eor(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import eor

    with progress_bar(args) as bar:
        result = eor(_game(args), shoe=args.shoe, decisions=args.decision or (),
                     strategy=args.strategy, exact=args.exact, jobs=_jobs(args),
                     cache=not args.no_cache, progress=bar)
    return result.to_dict() if args.json else result.to_text()


def _cmd_counts(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import counts

    with progress_bar(args) as bar:
        result = counts(_game(args), systems=args.count or (), jobs=_jobs(args),
                        cache=not args.no_cache, progress=bar)
    return result.to_dict() if args.json else result.to_text()


def _cmd_indices(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import indices

    unseen = None if args.unseen is None else _whole(args.unseen, "--unseen", 13, 10 * MAX_COUNT)
    with progress_bar(args) as bar:
        result = indices(_game(args), count=args.count, decisions=args.decision or (),
                         unseen=unseen, jobs=_jobs(args), cache=not args.no_cache,
                         progress=bar)
    return result.to_dict() if args.json else result.to_text()


def _cmd_edge(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import edge
    from analyzer.util.files import check_target, write_bytes_atomic

    if args.png:
        check_target(Path(args.png))  # before the work: a link or a device is refused
    with progress_bar(args) as bar:
        result = edge(_game(args), count=args.count,
                      states=_whole(args.states, "--states", 2, MAX_STATES),
                      samples=_whole(args.samples, "--samples", 2, MAX_COUNT_SAMPLES),
                      seed=_whole(args.seed, "--seed", 0, MAX_SEED),
                      cut=None if args.cut is None else _whole(args.cut, "--cut", 1,
                                                               10 * MAX_COUNT),
                      jobs=_jobs(args), cache=not args.no_cache, progress=bar)
    if args.png:
        write_bytes_atomic(Path(args.png), result.to_png())
    return result.to_dict() if args.json else result.to_text()


def _common(p: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    p.add_argument("--game", default=None, help="a named game (see `bja rules list`)")
    p.add_argument("--rules", default="", help="rule tokens, alone or on top of --game")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    if jobs:
        p.add_argument("--jobs", default=None, metavar="N",
                       help="parallel worker processes (default: every core)")
    add_progress(p)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``eor``, ``counts``, ``indices`` and ``edge`` to the main CLI."""
    p = subparsers.add_parser("eor", help="exact effects of removal on the game and decisions",
                              description=EOR_DESCRIPTION,
                              formatter_class=argparse.RawTextHelpFormatter)
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
    p.add_argument("--states", default="200", help="shoe states analysed exactly (default 200, "
                   f"at most {MAX_STATES:,})")
    p.add_argument("--samples", default="100000",
                   help="count-only states for the true-count distribution (default 100000, "
                   f"at most {MAX_COUNT_SAMPLES:,})")
    p.add_argument("--seed", default="1", help="random seed (default 1)")
    p.add_argument("--cut", default=None, help="cards dealt before the reshuffle (default the "
                   "game's CUT token)")
    p.add_argument("--png", default=None, help="also write the plot to this PNG file")
    p.set_defaults(func=_cmd_edge)


__all__ = ["register"]
