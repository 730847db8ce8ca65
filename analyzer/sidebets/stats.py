"""A side bet's par sheet: pay, probability and return of every event, and the bet's risk.

All figures are exact fractions; the standard deviation and what follows from it
(volatility index, confidence intervals) are the only floats.  The volatility
index at confidence ``c`` is ``z * sd`` with ``z`` the two-sided normal quantile,
so after ``n`` rounds the realised RTP lies within ``RTP +- VI / sqrt(n)`` with
probability about ``c``.

>>> from analyzer.sidebets.bets import get_bet
>>> from analyzer.sidebets.paytable import preset
>>> from analyzer.sidebets.suitshoe import SuitShoe
>>> bet = get_bet("any-pair")
>>> sheet = par_sheet(bet, bet.outcomes(SuitShoe.decks(1)), preset(bet), "1 deck")
>>> sheet.ev, sheet.hit_frequency, sheet.top.label  # one deck has no suited pair
(Fraction(-8, 17), Fraction(1, 17), 'pair (different suits)')
>>> round(volatility_index(sheet, 0.95), 4)
4.1505
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, Protocol, TypedDict

from analyzer.sidebets.bets import SideBet
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import PayTable

if TYPE_CHECKING:
    from analyzer.sidebets.protection import Protection

CONFIDENCES = (0.90, 0.95, 0.99)
ROUNDS = tuple(10**k for k in range(3, 9))


class RiskJson(TypedDict):
    """How far results stray, as the JSON payloads state it: ``volatility_index`` keyed by
    confidence (``"95%"``), each ``rtp_interval`` item holding ``rounds`` and a ``[low,
    high]`` per confidence."""

    volatility_index: dict[str, float]
    rtp_interval: list[dict[str, int | list[float]]]


@dataclass(frozen=True)
class EventLine:
    """One outcome of the bet, priced."""

    name: str
    label: str
    pays: Fraction
    combinations: int
    probability: Fraction

    @property
    def ret(self) -> Fraction:
        """Contribution to the expected value per unit bet."""
        return self.pays * self.probability


@dataclass(frozen=True)
class ParSheet:
    """Everything a certification report states about one bet, shoe and pay table."""

    bet: str
    title: str
    shoe: str
    paytable: str
    unit: str
    deals: int
    events: tuple[EventLine, ...]
    notes: tuple[str, ...]
    protection: Protection | None = None  # effects of removal, counts, a counter's results
    table_title: str = ""  # what the pay table is called where it is dealt
    source: str = ""  # where the pay table was published

    @property
    def ev(self) -> Fraction:
        return sum((e.ret for e in self.events), Fraction(0))

    @property
    def rtp(self) -> Fraction:
        return 1 + self.ev

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet wins something."""
        return sum((e.probability for e in self.events if e.pays > 0), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """Variance of the net result of a unit bet."""
        return sum((e.pays**2 * e.probability for e in self.events), Fraction(0)) - self.ev**2

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def top(self) -> TopAward:
        """The top award: the highest pay this shoe can deal, with every event paying it.

        Events the shoe cannot deal are left out (a one-deck shoe has no suited
        trips), unless no paying event can be dealt at all (then the award is the
        highest pay, never dealt); events of the same pay are one award whose chance is
        their sum.  Losing and pushing events are never an award.
        """
        paying = [e for e in self.events if e.pays > 0] or list(self.events)
        dealt = [e for e in paying if e.probability > 0] or paying
        pays = max(e.pays for e in dealt)
        return TopAward(tuple(e for e in dealt if e.pays == pays))

    def result_range(self) -> tuple[float, float]:
        """The lowest and highest net result of one unit bet that the shoe can deal."""
        pays = [e.pays for e in self.events if e.probability > 0]
        return float(min(pays)), float(max(pays))


@dataclass(frozen=True)
class TopAward:
    """The events paying a par sheet's top award, taken together."""

    events: tuple[EventLine, ...]

    @property
    def name(self) -> str:
        """The first event's name (the one ``--solve`` prices for this award)."""
        return self.events[0].name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.events)

    @property
    def label(self) -> str:
        return "; ".join(e.label for e in self.events)  # labels hold commas and "or"

    @property
    def pays(self) -> Fraction:
        return self.events[0].pays

    @property
    def probability(self) -> Fraction:
        return sum((e.probability for e in self.events), Fraction(0))


def par_sheet(bet: SideBet, outcomes: Outcomes, table: PayTable, shoe: str) -> ParSheet:
    """Price ``outcomes`` with ``table``; non-paying outcomes keep the bet's fixed pays."""
    pays = {**bet.fixed, **table.pays}
    events = tuple(
        EventLine(name, bet.labels[name], pays[name], n, outcomes.probability(name))
        for name, n in outcomes.counts.items()
    )
    return ParSheet(bet=bet.name, title=bet.title, shoe=shoe, paytable=table.name,
                    unit=outcomes.unit, deals=outcomes.deals, events=events,
                    notes=outcomes.notes, table_title=table.title, source=table.source)


class Spread(Protocol):
    """What the risk figures need of a bet: its standard deviation and RTP per unit bet,
    and the range of its net results."""

    @property
    def sd(self) -> float: ...

    @property
    def rtp(self) -> Fraction | float: ...

    def result_range(self) -> tuple[float, float]: ...


def z_score(confidence: float) -> float:
    """Two-sided standard normal quantile: 1.645 at 90%, 1.960 at 95%, 2.576 at 99%."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def volatility_index(sheet: Spread, confidence: float) -> float:
    return z_score(confidence) * sheet.sd


def rtp_interval(sheet: Spread, rounds: int, confidence: float) -> tuple[float, float]:
    """Where the realised RTP of ``rounds`` unit bets lies with probability ``confidence``.

    The normal approximation, cut to the RTPs that ``rounds`` bets can realise (1 plus
    the lowest to 1 plus the highest net result): over few rounds of a volatile bet the
    normal interval reaches past them, below 0% for a bet that cannot lose more than
    its stake.
    """
    half = volatility_index(sheet, confidence) / math.sqrt(rounds)
    low, high = sheet.result_range()
    rtp = float(sheet.rtp)
    return max(rtp - half, 1 + low), min(rtp + half, 1 + high)
