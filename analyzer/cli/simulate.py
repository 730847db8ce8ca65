"""The ``bja simulate`` subcommand: a Monte Carlo cross-check of a game's exact EV.

Test labs ask for a simulation next to the exact figures; ``--compare`` puts
the engine's exact EV beside the estimate and says how many standard errors
apart they are.  ``--counter hilo --spread 1-8`` plays a Hi-Lo counter instead
(game protection).  The simulator (and numba) are imported only when the
command runs, so ``bja --help`` stays fast.  Bad input raises an
:class:`~analyzer.core.errors.AnalyzerError` subclass, which the main CLI
prints as one line before exiting with status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from analyzer.core.errors import SimulationError
from analyzer.core.presets import game_rules
from analyzer.core.rules import Rules


def _count(text: str, what: str, minimum: int) -> int:
    """A whole number written plainly or as ``1e7`` / ``10_000_000``."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            number = float("nan")
        if not number.is_integer():
            raise SimulationError(f"{what} must be a whole number, not {text!r}") from None
        value = int(number)
    if value < minimum:
        raise SimulationError(f"{what} must be at least {minimum}, not {text!r}")
    return value


def _text(game: str, out: dict[str, Any]) -> str:
    pct = 100.0
    lines = [
        f"Monte Carlo simulation: {game}",
        f"rules         {out['rules']}",
        f"strategy      {out['strategy']}",
        f"rounds        {out['rounds']:,} (seed {out['seed']}, {out['jobs']} "
        f"job{'s' if out['jobs'] > 1 else ''})"
        + (f", reshuffled after {out['cut_card']} cards" if out["cut_card"] else
           ", every round from a freshly shuffled shoe"),
        f"EV            {out['mean']:+.5f} ± {out['se']:.5f} per initial bet (1 SE)  "
        f"= {out['mean'] * pct:+.3f}% ± {out['se'] * pct:.3f}%",
        f"RTP           {out['rtp'] * pct:.3f}%",
        f"SD per round  {out['sd']:.4f}",
        f"speed         {out['rounds_per_second']:,.0f} rounds/s ({out['seconds']:.1f} s wall; "
        f"{out['rounds_per_cpu_second']:,.0f} rounds per CPU second)",
    ]
    if "exact_ev" in out:
        lines += [
            f"exact EV      {out['exact_ev']:+.5f}  = {out['exact_ev'] * pct:+.3f}% "
            "(full shoe, shuffled every round)",
            f"difference    {out['difference']:+.5f} = {out['difference_se']:+.2f} SE",
        ]
        if out["cut_card"]:
            lines.append(f"note: the shoe is reshuffled after {out['cut_card']} cards; the "
                         "difference estimates the cut-card effect (plus noise)")
    return "\n".join(lines)


def _counter_text(game: str, out: dict[str, Any]) -> str:
    lo, hi = out["spread"]
    lines = [
        f"Hi-Lo counter, bet spread {lo}-{hi}: {game}",
        f"rules         {out['rules']}",
        f"strategy      {out['strategy']}; no index plays, no insurance",
        f"ramp          bet = min({hi}, max({lo}, floor(true count))) units; true count = "
        "running count / (cards left / 52)",
        f"rounds        {out['rounds']:,} (seed {out['seed']}, {out['jobs']} "
        f"job{'s' if out['jobs'] > 1 else ''})"
        + (f", reshuffled after {out['cut_card']} cards" if out["cut_card"]
           else ", shuffled every round: nothing to count"),
        f"win rate      {out['win_per_100']:+.3f} ± {out['se_per_100']:.3f} units per 100 "
        "rounds (1 SE)",
        f"mean bet      {out['mean_bet']:.3f} units; win per unit bet "
        f"{out['win_per_unit_bet'] * 100:+.3f}%",
        f"flat-bet EV   {out['flat_ev'] * 100:+.3f}% per round",
        "",
        f"{'TC':>4} {'share':>8} {'EV flat':>9} {'bet':>5}",
    ]
    lines += [f"{r['true_count']:>4} {r['share'] * 100:>7.3f}% {r['ev'] * 100:>+8.3f}% "
              f"{r['mean_bet']:>5.2f}" for r in out["by_true_count"] if r["share"] >= 1e-4]
    return "\n".join(lines)


def _exact(rules: Rules, strategy: str) -> tuple[float, Any]:
    """The exact full-shoe EV of the strategy that will be played, and that strategy."""
    full = rules.replace(cut_card=0)
    if strategy == "chart":
        from analyzer.charts.evaluate import make_chart
        from analyzer.charts.strategy import ChartStrategy

        chart = make_chart(full, "basic strategy").chart
        assert chart.evaluation is not None
        return chart.evaluation.chart_ev, ChartStrategy(chart, full)
    from analyzer.engine.analysis import Analysis
    from analyzer.engine.frozen import FrozenStrategy

    analysis = Analysis(full)
    return float(analysis.ev()), FrozenStrategy(analysis)


def _cmd_simulate(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.crosscheck.sim.config import check_counts, default_jobs

    rules = game_rules(args.game, args.rules)
    if args.no_cut_card:
        rules = rules.replace(cut_card=0)
    rounds = _count(args.rounds, "number of rounds", 2)
    jobs = default_jobs() if args.jobs is None else _count(args.jobs, "number of jobs", 1)
    seed = None if args.seed is None else _count(args.seed, "seed", 0)
    check_counts(rounds, jobs, seed)  # refuse 1e99 before numba or the engine loads
    from analyzer.crosscheck.sim import counter_win_rate, simulate
    from analyzer.crosscheck.sim.shoe_study import parse_spread
    from analyzer.crosscheck.sim.strategies import STRATEGIES

    if args.strategy not in STRATEGIES:
        raise SimulationError(f"unknown strategy {args.strategy!r} (use "
                             f"{', '.join(STRATEGIES)})")
    game = args.game or "custom rules"
    progress = not args.quiet
    if args.counter is not None:
        if args.counter.lower() != "hilo":
            raise SimulationError(f"unknown count system {args.counter!r} (use hilo)")
        spread = parse_spread(args.spread)
        res = counter_win_rate(rules, rounds, spread=spread, strategy=args.strategy,
                               seed=seed, jobs=jobs, progress=progress)
        cout = {"game": args.game, **res.to_dict()}
        return cout if args.json else _counter_text(game, cout)
    strategy: Any = args.strategy
    exact: float | None = None
    if args.compare:
        exact, strategy = _exact(rules, args.strategy)
    result = simulate(rules, rounds, seed=seed, jobs=jobs, strategy=strategy,
                      progress=progress)
    out = {"game": args.game, **result.to_dict()}
    out["strategy"] = args.strategy
    if exact is not None:
        out |= {"exact_ev": exact, "difference": result.mean - exact,
                "difference_se": result.z(exact)}
    return out if args.json else _text(game, out)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``simulate`` to the main CLI; the handler returns a str or a JSON dict."""
    p = subparsers.add_parser(
        "simulate", help="Monte Carlo estimate of a game's EV (cross-check of the exact one)",
        description="Play rounds with a fixed strategy through the simulator's own dealing "
                    "and settlement code (compiled with numba); with a cut card the shoe is "
                    "dealt down to it.  A progress bar shows on stderr after a second.")
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`)")
    p.add_argument("--rules", default="", help="rule tokens, alone or on top of --game")
    p.add_argument("--rounds", required=True,
                   help="rounds to play, e.g. 1000000 or 1e9 (at most 1e11)")
    p.add_argument("--seed", default=None, help="random seed (default: fresh, reported)")
    p.add_argument("--jobs", default=None, help="parallel jobs (default: every core)")
    p.add_argument("--strategy", default="optimal",
                   help="optimal (the engine's composition-dependent play, default) or chart "
                        "(the game's basic strategy chart)")
    p.add_argument("--no-cut-card", action="store_true",
                   help="ignore the game's cut card: every round from a full shoe")
    p.add_argument("--compare", action="store_true",
                   help="also compute the exact EV and the difference in standard errors")
    p.add_argument("--counter", default=None, metavar="SYSTEM",
                   help="play a card counter (hilo) with a bet spread instead")
    p.add_argument("--spread", default="1-8", help="the counter's bet spread (default 1-8)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_simulate)


__all__ = ["register"]
