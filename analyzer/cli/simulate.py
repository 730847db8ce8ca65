"""The ``bja simulate`` subcommand: a Monte Carlo cross-check of a game's exact EV.

Test labs ask for a simulation next to the exact figures; ``--compare`` puts
the engine's exact EV beside the estimate and says how many standard errors
apart they are.  Bad input raises an :class:`~analyzer.core.errors.AnalyzerError`
subclass, which the main CLI prints as one line before exiting with status 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import SimulationError
from analyzer.core.presets import game_rules

if TYPE_CHECKING:
    from analyzer.crosscheck.simulate import SimResult, SimStrategy


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
        f"rounds        {out['rounds']:,} (seed {out['seed']}, {out['jobs']} "
        f"job{'s' if out['jobs'] > 1 else ''})",
        f"EV            {out['mean']:+.5f} ± {out['se']:.5f} per initial bet (1 SE)  "
        f"= {out['mean'] * pct:+.3f}% ± {out['se'] * pct:.3f}%",
        f"RTP           {out['rtp'] * pct:.3f}%",
        f"SD per round  {out['sd']:.4f}",
        f"speed         {out['rounds_per_second']:,.0f} rounds/s ({out['seconds']:.1f} s)",
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


def _cmd_simulate(args: argparse.Namespace) -> dict[str, Any] | str:
    from analyzer.crosscheck.simulate import simulate

    rules = game_rules(args.game, args.rules)
    rounds = _count(args.rounds, "number of rounds", 2)
    jobs = _count(args.jobs, "number of jobs", 1)
    seed = None if args.seed is None else _count(args.seed, "seed", 0)
    strategy: SimStrategy | None = None
    exact: float | None = None
    if args.compare:
        from analyzer.engine.analysis import Analysis
        from analyzer.engine.frozen import FrozenStrategy

        analysis = Analysis(rules)
        exact = float(analysis.ev())
        strategy = FrozenStrategy(analysis)  # the same engine plays and is compared
    result: SimResult = simulate(rules, rounds, seed=seed, jobs=jobs, strategy=strategy)
    out = {"game": args.game, **result.to_dict(), "cut_card": rules.cut_card}
    if exact is not None:
        out |= {"exact_ev": exact, "difference": result.mean - exact,
                "difference_se": result.z(exact)}
    return out if args.json else _text(args.game or "custom rules", out)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``simulate`` to the main CLI; the handler returns a str or a JSON dict."""
    p = subparsers.add_parser(
        "simulate", help="Monte Carlo estimate of a game's EV (cross-check of the exact one)",
        description="Play rounds with the engine's strategy through an independent dealing "
                    "and settlement code path; with a cut card the shoe is dealt down to it.")
    p.add_argument("--game", default=None, help="a preset (see `bja rules list`)")
    p.add_argument("--rules", default="", help="rule tokens, alone or on top of --game")
    p.add_argument("--rounds", required=True, help="rounds to play, e.g. 1000000 or 1e7")
    p.add_argument("--seed", default=None, help="random seed (default: fresh, reported)")
    p.add_argument("--jobs", default="1", help="parallel processes (default 1)")
    p.add_argument("--compare", action="store_true",
                   help="also compute the exact EV and the difference in standard errors")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_simulate)


__all__ = ["register"]
