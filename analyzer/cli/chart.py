"""``bja chart`` and ``bja evaluate``.

Handlers return a str (printed), a dict (printed as JSON) or an int (exit
code), like the main CLI's; bad input raises an
:class:`~analyzer.core.errors.AnalyzerError` subclass, which the main CLI prints as
one line and turns into exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer import __version__
from analyzer.core.cards import format_value
from analyzer.core.errors import ChartError
from analyzer.core.presets import resolve_game
from analyzer.core.rules import Rules, format_spec

if TYPE_CHECKING:
    from analyzer.charts.model import Evaluation

# The chart renderers (analyzer.charts.build.TEXT_RENDERERS, then png and the
# exceptions), named here so that building the parser imports no renderer.
TEXT_FORMATS = ("txt", "csv", "md", "html")
FORMATS = (*TEXT_FORMATS, "png", "exceptions")


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
    p.add_argument("--out", type=Path, metavar="FILE", help="write to FILE instead of stdout")
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


def _figures_json(rules: Rules, ev: Evaluation) -> dict[str, Any]:
    from analyzer.charts.model import UPCARDS

    return {"rules": format_spec(rules), "engine": f"bja {__version__}",
            "ev": ev.chart_ev, "optimum_ev": ev.optimum_ev, "gap": ev.gap,
            "by_upcard": {format_value(u): ev.by_upcard[u] for u in UPCARDS
                          if u in ev.by_upcard}}


def cmd_chart(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.charts.build import TEXT_RENDERERS
    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.exceptions import find_exceptions, render_exceptions
    from analyzer.charts.render_png import render_png
    from analyzer.report.output import write_atomic, write_bytes_atomic

    rules, name = resolve_game(args.game, args.rules)
    if args.format == "png" and args.out is None:
        raise ChartError("--format png needs --out FILE")
    run = make_chart(rules, f"{name}: basic strategy", by_cards=args.by_cards or None)
    chart = run.chart
    output: str | bytes
    if args.format == "png":
        output = render_png(chart)
    elif args.format == "exceptions":
        output = render_exceptions(chart, run.optimum,
                                   find_exceptions(chart, run.optimum, run.deriver))
    else:
        output = TEXT_RENDERERS[args.format](chart)
    if args.out is not None:
        if isinstance(output, bytes):
            write_bytes_atomic(args.out, output)
        else:
            write_atomic(args.out, output)
    if args.json:
        assert chart.evaluation is not None
        data = _figures_json(rules, chart.evaluation)
        data.update({"title": chart.title, "strategy": "chart (total-dependent)",
                     "chart": {s.name: {k.label: list(c) for k, c in s.ordered()}
                               for s in chart.sections}})
        if args.out is not None:
            data["out"] = str(args.out)
        return data
    if args.out is not None:
        return str(args.out)
    assert isinstance(output, str)
    return output


def cmd_evaluate(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.charts.evaluate import evaluate
    from analyzer.charts.fileformat import load_chart
    from analyzer.charts.model import UPCARDS

    rules, _name = resolve_game(args.game, args.rules)
    chart = load_chart(args.chart, rules)
    figures, _played, _optimum = evaluate(chart)
    if args.json:
        data = _figures_json(rules, figures)
        data.update({"chart": str(args.chart), "strategy": "chart as written"})
        return data
    lines = [f"rules: {format_spec(rules)}   chart: {args.chart}",
             " upcard | EV (% of initial bet)", "--------+----------------"]
    for u in UPCARDS:
        if u in figures.by_upcard:
            lines.append(f"   {format_value(u)}    | {figures.by_upcard[u] * 100:15.9f}")
    lines += ["--------+----------------",
              f" chart  | {figures.chart_ev * 100:15.9f}",
              f" CDZ-   | {figures.optimum_ev * 100:15.9f}",
              f" diff   | {figures.gap * 100:15.9f}"]
    return "\n".join(lines)
