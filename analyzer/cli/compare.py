"""``bja compare``: grids, rule-effect tables and rule-by-rule explanations.

Thin: parses the arguments, calls :mod:`analyzer.compare`, renders.  Everything
heavy is imported inside the command, so ``bja --help`` stays fast.  A bad
``--vary`` token or grid file raises an ``AnalyzerError`` (one line, exit 2);
a bad *cell* is a row saying why, and the exit status is 0 unless every row
failed.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from analyzer.core.errors import GridError
from analyzer.core.levels import SPLIT_LEVELS

FORMATS = ("json", "csv", "markdown", "html", "png")

EPILOG = """modes:
  bja compare --base "6D S17 DOA DAS SPL3 LS" --vary "1D|2D|6D|8D" --vary "S17|H17"
  bja compare --grid my-grid.toml            (schema: see analyzer/compare/variants.py)
  bja compare --game charlie7 --effects      (every single-rule change, sorted)
  bja compare charlie7 free-bet privilege    (side by side, differences explained)
a --vary alternative may hold several tokens ("DAS RSA"); "-" keeps the base."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``compare`` to the main CLI."""
    p = subparsers.add_parser(
        "compare", help="compare rule variants: grids, rule effects, explained differences",
        description="Exact EV of many rule sets at once, their differences from a base, "
                    "and the difference of two games attributed rule by rule (Shapley).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", nargs="*", metavar="GAME_OR_SPEC",
                   help="explain mode: two or more game names or quoted specs")
    p.add_argument("--base", default=None, metavar="SPEC", help="base rule spec")
    p.add_argument("--game", default=None, metavar="NAME",
                   help="base game (--base tokens apply on top)")
    p.add_argument("--vary", action="append", default=[], metavar="A|B|...",
                   help="an axis of alternatives on top of the base (repeatable)")
    p.add_argument("--grid", type=Path, default=None, metavar="FILE.toml", help="a grid file")
    p.add_argument("--effects", action="store_true",
                   help="every single-rule change of the base, sorted by effect")
    p.add_argument("--exact", action="store_true", help="fractions (exact rational EVs)")
    p.add_argument("--split", default="cdz", choices=SPLIT_LEVELS,
                   help="level of split play of the EV column: cdz (CDZ-, default), cdp1 / "
                   "cdp (Farmer's post-split strategies), optimal (optimal splitting; "
                   "minutes per rule set, resplits only up to 2 decks)")
    p.add_argument("--levels", action="store_true",
                   help="a column per other level of split play (CDZ-, CDP1, CDP)")
    p.add_argument("--no-chart", action="store_true",
                   help="skip the basic-strategy chart column (about half the work)")
    p.add_argument("--max-players", type=int, default=8, metavar="N",
                   help="explain: at most N rules attributed one by one (default 8)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes (default: every core)")
    p.add_argument("--backend", default="loky", choices=("loky", "dask"),
                   help="loky: processes here (default); dask: a Dask cluster")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    out = p.add_mutually_exclusive_group()
    for fmt in FORMATS:
        out.add_argument(f"--{fmt}", dest="format", action="store_const", const=fmt,
                         help=f"{fmt} output" + (" (needs --out)" if fmt == "png" else ""))
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write the output to FILE (whole or not at all)")
    p.set_defaults(func=cmd_compare, format="text")
    # Let a --vary value start with "-" (keep the base): argparse reads a word
    # matching its negative-number pattern as a value when no option looks like one.
    p._negative_number_matcher = re.compile(r"^-(\d+|\d*\.\d+|\|.*)$")


def cmd_compare(args: argparse.Namespace) -> dict[str, Any] | str | int:
    from analyzer.compare.outputs import render
    from analyzer.report.output import write_atomic, write_bytes_atomic

    if args.format == "png" and args.out is None:
        raise GridError("--png needs --out FILE")
    if args.jobs is not None and args.jobs < 1:
        raise GridError(f"--jobs must be >= 1, not {args.jobs}")
    comparison = _comparison(args)
    output = render(comparison, args.format)
    if args.out is not None:
        if isinstance(output, bytes):
            write_bytes_atomic(args.out, output)
        else:
            write_atomic(args.out, output if isinstance(output, str) else _dumps(output))
    if comparison.rows and comparison.failed == len(comparison.rows):
        _emit(output if args.out is None else str(args.out))
        print("bja: error: every row failed (see the reasons above)", file=sys.stderr)
        return 2
    if args.out is not None:
        return str(args.out)
    assert not isinstance(output, bytes)
    return output


def _games(names: list[str]) -> list[tuple[str, Any]]:
    """Each explain argument as (name, rules): a named game, else a spec."""
    from analyzer.core.presets import CLASSIC_GAMES, PRESETS, game_base
    from analyzer.core.rules import parse_spec

    return [(n, game_base(n) if n in PRESETS or n in CLASSIC_GAMES else parse_spec(n))
            for n in names]


def _comparison(args: argparse.Namespace) -> Any:
    """Pick the mode from the arguments and run it."""
    from analyzer.compare import RunOptions, compare_effects, compare_explain, compare_grid
    from analyzer.compare.variants import (
        load_grid,
        parse_axis,
        product_variants,
        resolve_base,
    )

    options = RunOptions(exact=args.exact, charts=not args.no_chart, jobs=args.jobs,
                         backend=args.backend, scheduler=args.scheduler,
                         use_cache=not args.no_cache, progress=not args.no_progress,
                         split=args.split, levels=args.levels)
    modes = [m for m, on in (("explain", bool(args.games)), ("effects", args.effects),
                             ("grid file", args.grid is not None),
                             ("vary", bool(args.vary))) if on]
    if len(modes) != 1:
        raise GridError("give one of: two or more games/specs, --effects, --grid FILE, "
                        f"--vary (got {', '.join(modes) or 'none'})")
    if args.games:
        if args.base or args.game:
            raise GridError("explain mode takes games/specs as arguments, not --base/--game")
        if len(args.games) < 2:
            raise GridError("explain mode needs two or more games or specs")
        if args.max_players < 1:
            raise GridError(f"--max-players must be >= 1, not {args.max_players}")
        return compare_explain(_games(args.games), options, max_players=args.max_players)
    if args.grid is not None:
        if args.base or args.game:
            raise GridError("--grid FILE names its own base; drop --base/--game")
        grid = load_grid(args.grid)
        return compare_grid(grid.base, grid.variants, options, base_name=grid.base_name)
    base = resolve_base(args.base, args.game)
    name = args.game if args.game and not args.base else None
    if args.effects:
        return compare_effects(base, options, base_name=name)
    axes = [parse_axis(axis, base) for axis in args.vary]
    return compare_grid(base, product_variants(base, axes), options, base_name=name)


def _dumps(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, indent=2) + "\n"


def _emit(output: Any) -> None:
    sys.stdout.write(_dumps(output) if isinstance(output, dict) else str(output))
