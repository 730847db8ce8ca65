"""Game protection: what a Hi-Lo counter wins at each seed game, as a casino would ask.

A counter keeps the Hi-Lo running count, bets ``min(hi, max(lo, floor(true
count)))`` units (a 1-8 spread by default), plays the game's basic chart (no
index plays, no insurance) and is dealt real shoes to the game's cut card by the
independent simulator (:func:`analyzer.sim.counter_win_rate`).  A
game shuffled every round (no cut card) leaves nothing to count: the counter
then always sees a full shoe, bets the minimum and loses the game's edge, which
the table shows as such.  Sampled, not exact: every figure carries its standard
error (per-shoe clusters); the seed and job count are fixed so a rebuild writes
the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from analyzer.core.rules import Rules
from analyzer.sim import counter_win_rate
from analyzer.sim.shoe_study import CounterFiguresJson, CounterResult
from analyzer.util.text import md_table

SPREAD = (1, 8)


@dataclass(frozen=True)
class Protection:
    """The counter's results at every game, in the given order."""

    games: tuple[tuple[str, CounterResult], ...]
    rounds: int
    seed: int
    jobs: int
    spread: tuple[int, int] = SPREAD


class ProtectionJson(TypedDict):
    """``reports/shoestate/protection.json``: the counter's figures by game."""

    what: str
    rounds: int
    seed: int
    jobs: int
    spread: list[int]
    games: dict[str, CounterFiguresJson]


def game_protection(games: dict[str, Rules], rounds: int, *, seed: int, jobs: int,
                    spread: tuple[int, int] = SPREAD) -> Protection:
    """Simulate the counter at each game (``rounds`` each, seeds fixed)."""
    found = tuple((name, counter_win_rate(rules, rounds, spread=spread, strategy="chart",
                                          seed=seed, jobs=jobs))
                  for name, rules in games.items())
    return Protection(games=found, rounds=rounds, seed=seed, jobs=jobs, spread=spread)


def protection_json(p: Protection) -> ProtectionJson:
    """Every figure of :func:`protection_markdown`, per game (win rates in units/100 rounds)."""
    return {"what": f"Hi-Lo counter, bet spread {p.spread[0]}-{p.spread[1]}, basic chart, "
                    "no index plays, no insurance; dealt to each game's cut card",
            "rounds": p.rounds, "seed": p.seed, "jobs": p.jobs, "spread": list(p.spread),
            "games": {name: r.figures() for name, r in p.games}}


def protection_markdown(p: Protection) -> str:
    """The table ``reports/shoestate/protection.md`` holds."""
    lo, hi = p.spread
    lines = [
        "# Game protection: a Hi-Lo counter at each seed game", "",
        f"A Hi-Lo counter bets min({hi}, max({lo}, floor(true count))) units (true count = "
        "running count / decks left), plays the game's basic chart (no index plays, no "
        "insurance) and is dealt real shoes to the game's cut card by the independent "
        f"simulator: {p.rounds:,} rounds per game, seed {p.seed}, {p.jobs} jobs. Sampled: "
        "every figure has its standard error (1 SE, per-shoe clusters). A game reshuffled "
        "every round leaves nothing to count: the counter always bets the minimum and loses "
        "the game's edge.", "",
    ]
    head = ["game", "rules", "reshuffle", "win per 100 rounds (units)", "mean bet (units)",
            "win per unit bet", "flat-bet EV (RTP as dealt - 1)"]
    rows = [[name, f"`{r.rules}`", f"after {r.cut_card} cards" if r.cut_card else "every round",
             f"{r.win_per_100:+.3f} ± {r.se_per_100:.3f}", f"{r.mean_bet:.3f}",
             f"{r.win_per_unit_bet * 100:+.3f}%", f"{r.flat_ev * 100:+.3f}%"]
            for name, r in p.games]
    lines += md_table(head, rows, "l" * len(head), compact=True)
    return "\n".join(lines) + "\n"


__all__ = ["SPREAD", "Protection", "game_protection", "protection_json", "protection_markdown"]
