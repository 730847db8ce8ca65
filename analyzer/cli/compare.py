"""``bja compare``: grids, rule-effect tables and rule-by-rule explanations.

Thin: parses the arguments, calls :mod:`analyzer.comparisons`, renders.  Everything
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
from typing import TYPE_CHECKING, Any

from analyzer.cli.options import JOBS, add_progress, out_file, progress_bar, whole
from analyzer.core.errors import GridError
from analyzer.core.levels import SPLIT_LEVELS
from analyzer.core.limits import MAX_PLAYERS

if TYPE_CHECKING:
    from analyzer.comparisons.outputs import Format

FORMATS: tuple[Format, ...] = ("json", "csv", "markdown", "html", "png")

EPILOG = """modes:
  bja compare --base "6D S17 DOA DAS SPL3 LS" --vary "1D|2D|6D|8D" --vary "S17|H17"
  bja compare --grid my-grid.toml            (schema: see analyzer/comparisons/variants.py)
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
    p.add_argument("--split", default="cdz", choices=[str(m) for m in SPLIT_LEVELS],
                   help="level of split play of the EV column: cdz (CDZ-, default), cdp1 / "
                   "cdp (Farmer's post-split strategies), optimal (optimal splitting; "
                   "minutes per rule set, resplits only up to 1 deck)")
    p.add_argument("--levels", action="store_true",
                   help="a column per other level of split play (CDZ-, CDP1, CDP)")
    p.add_argument("--no-chart", action="store_true",
                   help="skip the basic-strategy chart column (about half the work)")
    p.add_argument("--max-players", action=whole(1, MAX_PLAYERS), default=8, metavar="N",
                   help=f"explain: at most N rules attributed one by one (default 8, at most "
                   f"{MAX_PLAYERS})")
    p.add_argument("--jobs", action=JOBS, default=None, metavar="N",
                   help="worker processes (default: every core)")
    p.add_argument("--backend", default="loky", choices=("loky", "dask"),
                   help="loky: processes here (default); dask: a Dask cluster")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk memo")
    add_progress(p)
    out = p.add_mutually_exclusive_group()
    for fmt in FORMATS:
        out.add_argument(f"--{fmt}", dest="format", action="store_const", const=fmt,
                         help=f"{fmt} output" + (" (needs --out)" if fmt == "png" else ""))
    p.add_argument("--out", type=out_file, default=None, metavar="FILE",
                   help="write the output to FILE (whole or not at all; - : stdout)")
    p.set_defaults(func=cmd_compare, format="text")
    # Let a --vary value start with "-" (keep the base): argparse reads a word
    # matching its negative-number pattern as a value when no option looks like one.
    p._negative_number_matcher = re.compile(r"^-(\d+|\d*\.\d+|\|.*)$")


def cmd_compare(args: argparse.Namespace) -> dict[str, Any] | str | int:
    from analyzer.util.files import check_target, write_atomic, write_bytes_atomic

    if args.format == "png" and args.out is None:
        raise GridError("--png needs --out FILE")
    if args.out is not None:
        check_target(args.out)  # before the work: a link or a device is refused
    result = _comparison(args)
    output = _render(result, args.format)
    if args.out is not None:
        if isinstance(output, bytes):
            write_bytes_atomic(args.out, output)
        else:
            write_atomic(args.out, output if isinstance(output, str) else _dumps(output))
    comparison = result.comparison
    if comparison.rows and comparison.failed == len(comparison.rows):
        _emit(output if args.out is None else str(args.out))
        print("bja: error: every row failed (see the reasons above)", file=sys.stderr)
        return 2
    if args.out is not None:
        return str(args.out)
    assert not isinstance(output, bytes)
    return output


def _render(result: Any, fmt: str) -> str | bytes | dict[str, Any]:
    """The comparison in the chosen format (the result's own renderings)."""
    if fmt == "json":
        data: dict[str, Any] = result.to_dict()
        return data
    render = {"text": result.to_text, "csv": result.to_csv, "markdown": result.to_markdown,
              "html": result.to_html, "png": result.to_png}[fmt]
    out: str | bytes = render()
    return out


def _comparison(args: argparse.Namespace) -> Any:
    """The one API call of the arguments' mode (the API checks the mode)."""
    from analyzer.api import compare
    from analyzer.api.games import cli_game

    base = None
    if args.base is not None or args.game is not None:
        base = cli_game(args.game, args.base or "")
    with progress_bar(args) as bar:
        return compare(base, vary=args.vary, grid=args.grid, effects=args.effects,
                       games=args.games, exact=args.exact, split=args.split,
                       levels=args.levels, charts=not args.no_chart,
                       max_players=args.max_players, jobs=args.jobs, backend=args.backend,
                       scheduler=args.scheduler, cache=not args.no_cache, progress=bar)


def _dumps(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, indent=2) + "\n"


def _emit(output: Any) -> None:
    sys.stdout.write(_dumps(output) if isinstance(output, dict) else str(output))
