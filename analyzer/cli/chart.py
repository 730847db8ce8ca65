"""``bja chart`` and ``bja evaluate``.

Handlers return a str (printed), a dict (printed as JSON) or an int (exit
code), like the main CLI's; bad input raises an
:class:`~analyzer.core.errors.AnalyzerError` subclass, which the main CLI prints as
one line and turns into exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from analyzer.cli.options import out_file
from analyzer.core.errors import ChartError

if TYPE_CHECKING:
    from analyzer.charts.build import TextFormat

# The chart renderers (analyzer.charts.build.TEXT_RENDERERS, then png and the
# exceptions), named here so that building the parser imports no renderer.
TEXT_FORMATS: tuple[TextFormat, ...] = ("txt", "csv", "md", "html")
ChartFormat = Literal["txt", "csv", "md", "html", "png", "exceptions"]
FORMATS: tuple[ChartFormat, ...] = (*TEXT_FORMATS, "png", "exceptions")


def _add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="", help='rule spec, e.g. "6D S17 DOA DAS SPL3 LS"')
    p.add_argument("--game", default=None, metavar="NAME",
                   help="a named game (its rules; --rules tokens apply on top)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``chart`` and ``evaluate`` to the main CLI."""
    p = subparsers.add_parser(
        "chart", help="basic strategy chart of a rule set, with its exact EV",
        description="Derive the total-dependent chart from exact EVs, evaluate it exactly "
                    "and print it beside the CDZ- optimum.")
    _add_rules(p)
    p.add_argument("--format", choices=FORMATS, default="txt",
                   help="txt (default), csv (the chart file), md, html, png (needs --out), "
                        "or the composition-dependent exceptions")
    p.add_argument("--out", type=out_file, metavar="FILE",
                   help="write to FILE instead of stdout (- : stdout)")
    p.add_argument("--by-cards", action="store_true",
                   help="add rows qualified by the number of cards where that changes the "
                        "play (always on in Charlie games)")
    p.set_defaults(func=cmd_chart)

    p = subparsers.add_parser(
        "evaluate", help="exact EV of a strategy chart file",
        description="Play a chart file exactly as written (policy evaluation) and compare "
                    "it with the CDZ- optimum.")
    _add_rules(p)
    p.add_argument("--chart", required=True, type=Path, metavar="FILE",
                   help="chart file: rows H4..H21, S12..S21, P2..PA, ten codes each")
    p.set_defaults(func=cmd_evaluate)


def cmd_chart(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import chart
    from analyzer.api.games import cli_game
    from analyzer.util.files import check_target, write_atomic, write_bytes_atomic

    if args.format == "png" and args.out is None:
        raise ChartError("--format png needs --out FILE")
    if args.json and args.out is None and args.format != "txt":  # one of them would be lost
        raise ChartError(f"--json prints the chart as JSON: --format {args.format} needs "
                         "--out FILE beside it")
    if args.out is not None:
        check_target(args.out)  # before the work: a link or a device is refused
    result = chart(cli_game(args.game, args.rules), by_cards=args.by_cards or None)
    output: str | bytes
    if args.format == "png":
        output = result.to_png()
    elif args.format == "exceptions":
        output = result.exceptions_text()
    else:
        output = result.render(args.format)
    if args.out is not None:
        if isinstance(output, bytes):
            write_bytes_atomic(args.out, output)
        else:
            write_atomic(args.out, output)
    if args.json:
        data = result.to_dict()
        if args.out is not None:
            data["out"] = str(args.out)
        return data
    if args.out is not None:
        return str(args.out)
    assert isinstance(output, str)
    return output


def cmd_evaluate(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.api import evaluate_chart
    from analyzer.api.games import cli_game

    result = evaluate_chart(cli_game(args.game, args.rules), args.chart)
    return result.to_dict() if args.json else result.to_text()
