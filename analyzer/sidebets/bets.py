"""The four side bets of the free-bet game: names, outcomes, and the rule switches they read.

>>> [bet.name for bet in BETS.values()]
['21+3', 'hot3', 'any-pair', 'bust-it']
>>> get_bet("hot3").paying
('777', '21-suited', '21-unsuited', '20', '19')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.errors import RuleError
from analyzer.sidebets import anypair, bustit, hot3, twentyone3
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.suitshoe import SuitShoe


@dataclass(frozen=True)
class BetOptions:
    """Rule switches; each bet reads the ones that concern it."""

    straights: str = "standard"  # 21+3: see twentyone3.STRAIGHT_RULES
    pair_by: str = "rank"  # Any Pair: "rank" or "value"
    hits_soft_17: bool = False  # Bust It
    reading: str = "removed"  # Bust It: are the player's first two cards out of the shoe?


@dataclass(frozen=True)
class SideBet:
    """One side bet: its outcomes in display order and how to count them on a shoe."""

    name: str
    title: str
    labels: dict[str, str]  # every outcome -> label; paying events first
    fixed: dict[str, Fraction]  # outcomes no pay table sets: lose (-1), push (0)
    count: Callable[[SuitShoe, BetOptions], Outcomes]

    @property
    def paying(self) -> tuple[str, ...]:
        """The events a pay table prices."""
        return tuple(e for e in self.labels if e not in self.fixed)

    def outcomes(self, shoe: SuitShoe, options: BetOptions = BetOptions()) -> Outcomes:
        return self.count(shoe, options)


_LOSE = {"lose": Fraction(-1)}
BETS: dict[str, SideBet] = {
    "21+3": SideBet("21+3", "21+3", twentyone3.EVENTS, _LOSE,
                    lambda shoe, o: twentyone3.outcomes(shoe, straights=o.straights)),
    "hot3": SideBet("hot3", "Hot 3", hot3.EVENTS, _LOSE, lambda shoe, o: hot3.outcomes(shoe)),
    "any-pair": SideBet("any-pair", "Any Pair", anypair.EVENTS, _LOSE,
                        lambda shoe, o: anypair.outcomes(shoe, pair_by=o.pair_by)),
    "bust-it": SideBet("bust-it", "Bust It", bustit.EVENTS, {"push": Fraction(0), **_LOSE},
                       lambda shoe, o: bustit.outcomes(shoe, hits_soft_17=o.hits_soft_17,
                                                       reading=o.reading)),
}


def get_bet(name: str) -> SideBet:
    """The bet called ``name`` (``21+3``, ``hot3``, ``any-pair``, ``bust-it``)."""
    try:
        return BETS[name.strip().lower()]
    except KeyError:
        raise RuleError(f"unknown side bet {name!r} (use {', '.join(BETS)})") from None
