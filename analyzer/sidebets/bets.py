"""The side bets: names, outcomes, the rule switches they read, and where they are offered.

>>> [bet.name for bet in BETS.values()][:4]
['21+3', 'hot3', 'any-pair', 'bust-it']
>>> get_bet("hot3").paying
('777', '21-suited', '21-unsuited', '20', '19')
>>> get_bet("Match-The-Dealer").spanish, get_bet("perfect-pairs").default_table
(True, 'A')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.errors import RuleError
from analyzer.sidebets import anypair, bustit, firstcards, hot3, threecard, twentyone3, twocard
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.suitshoe import SuitShoe


@dataclass(frozen=True)
class BetOptions:
    """Rule switches; each bet reads the ones that concern it."""

    straights: twentyone3.Straights = "standard"  # 21+3: see twentyone3.STRAIGHT_RULES
    pair_by: anypair.PairBy = "rank"  # Any Pair: same rank or same blackjack value
    hits_soft_17: bool = False  # Bust It, Buster Blackjack
    reading: bustit.BustItReading = "removed"  # Bust It, Buster: player's two cards removed?


Count = Callable[[SuitShoe, BetOptions, bool], Outcomes]  # shoe, options, removals


@dataclass(frozen=True)
class SideBet:
    """One side bet: its outcomes in display order and how to count them on a shoe."""

    name: str
    title: str
    labels: dict[str, str]  # every outcome -> label; paying events first
    fixed: dict[str, Fraction]  # outcomes no pay table sets: lose (-1), push (0)
    count: Count
    default_table: str = "seed"  # the shipped pay table used when none is named
    spanish: bool = False  # offered with Spanish 21 (48-card decks)
    dealer: bool = False  # settled by the dealer's draw (H17 and the reading matter)
    reads: frozenset[str] = frozenset()  # the BetOptions fields its count reads

    @property
    def paying(self) -> tuple[str, ...]:
        """The events a pay table prices."""
        return tuple(e for e in self.labels if e not in self.fixed)

    def outcomes(self, shoe: SuitShoe, options: BetOptions = BetOptions(), *,
                 removals: bool = False) -> Outcomes:
        """Exact counts; with ``removals``, the counts less one card of each identity too."""
        return self.count(shoe, options, removals)


def _plain(counter: Callable[[SuitShoe, bool], Outcomes]) -> Count:
    """A bet no option changes."""
    return lambda shoe, _options, removals: counter(shoe, removals)


_LOSE = {"lose": Fraction(-1)}
_BETS = [
    SideBet("21+3", "21+3", twentyone3.EVENTS, _LOSE,
            lambda shoe, o, r: twentyone3.outcomes(shoe, straights=o.straights, removals=r),
            reads=frozenset({"straights"})),
    SideBet("hot3", "Hot 3", hot3.EVENTS, _LOSE,
            lambda shoe, o, r: hot3.outcomes(shoe, removals=r)),
    SideBet("any-pair", "Any Pair", anypair.EVENTS, _LOSE,
            lambda shoe, o, r: anypair.outcomes(shoe, pair_by=o.pair_by, removals=r),
            reads=frozenset({"pair_by"})),
    SideBet("bust-it", "Bust It", bustit.EVENTS, {"push": Fraction(0), **_LOSE},
            lambda shoe, o, r: bustit.outcomes(shoe, hits_soft_17=o.hits_soft_17,
                                               reading=o.reading, removals=r), dealer=True,
            reads=frozenset({"hits_soft_17", "reading"})),
    SideBet("perfect-pairs", "Perfect Pairs", twocard.PERFECT_PAIRS, _LOSE,
            _plain(twocard.perfect_pairs_outcomes), default_table="A"),
    SideBet("lucky-ladies", "Lucky Ladies", firstcards.LUCKY_LADIES, _LOSE,
            _plain(firstcards.lucky_ladies_outcomes), default_table="A"),
    SideBet("royal-match", "Royal Match", twocard.ROYAL_MATCH, _LOSE,
            _plain(twocard.royal_match_outcomes), default_table="v1"),
    SideBet("match-the-dealer", "Match the Dealer", threecard.MATCH_THE_DEALER, _LOSE,
            _plain(threecard.match_the_dealer_outcomes), default_table="4-11", spanish=True),
    SideBet("lucky-lucky", "Lucky Lucky", threecard.LUCKY_LUCKY, _LOSE,
            _plain(threecard.lucky_lucky_outcomes), default_table="pt1"),
    SideBet("buster-blackjack", "Buster Blackjack", bustit.BUSTER_EVENTS, _LOSE,
            lambda shoe, o, r: bustit.buster_outcomes(shoe, hits_soft_17=o.hits_soft_17,
                                                      reading=o.reading, removals=r),
            default_table="v1", dealer=True, reads=frozenset({"hits_soft_17", "reading"})),
    SideBet("21+3-xtreme", "21+3 XTreme", threecard.XTREME, _LOSE,
            _plain(threecard.xtreme_outcomes), default_table="aquarius"),
    SideBet("21+3-classic", "21+3 Classic", threecard.CLASSIC, _LOSE,
            _plain(threecard.classic_outcomes), default_table="v1"),
    SideBet("super-sevens", "Super Sevens", firstcards.SUPER_SEVENS, _LOSE,
            _plain(firstcards.super_sevens_outcomes), default_table="super"),
    SideBet("over-under-13", "Over/Under 13", twocard.OVER_UNDER, {},
            _plain(twocard.over_under_outcomes), default_table="over"),
    SideBet("kings-bounty", "King's Bounty", firstcards.KINGS_BOUNTY, _LOSE,
            _plain(firstcards.kings_bounty_outcomes), default_table="6deck"),
    SideBet("bet-the-set", "Bet the Set (Pair Square)", twocard.BET_THE_SET, _LOSE,
            _plain(twocard.bet_the_set_outcomes), default_table="25-10"),
]
BETS: dict[str, SideBet] = {bet.name: bet for bet in _BETS}


def get_bet(name: str) -> SideBet:
    """The bet called ``name`` (see :data:`BETS`), any case."""
    try:
        return BETS[name.strip().lower()]
    except KeyError:
        raise RuleError(f"unknown side bet {name!r} (use {', '.join(BETS)})") from None
