"""The simulator's own reading of a rule set, and the flat parameters the compiled loop takes.

Deliberately independent of ``analyzer.engine``: which two-card hands may
double, which pairs split, when the dealer peeks, what a free bet is - every
such rule is re-coded here from :class:`~analyzer.core.rules.Rules` alone, so
that the simulation checks the engine rather than repeating it.  """

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from analyzer.core.errors import SimulationError
from analyzer.core.rules import Double, HoleCard, Rules, Surrender
from analyzer.crosscheck.sim import layout as L

# Largest run accepted: 10^11 rounds take about three hours at the 10 million rounds a
# second of this project's 2-core machines, and give a standard error near 4e-6 (0.0004
# percentage points), a hundredth of the finest figure a certificate quotes; past that a
# typing slip (1e99) would run for ever.  Counters are int64, far from overflowing there.
MAX_ROUNDS = 10**11
MAX_LOSS = 8  # four hands, each doubled: no round loses more than 8 initial bets
MAX_WIN = 8

def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_counts(rounds: object, jobs: object, seed: object) -> None:
    """Refuse counts that are not whole numbers in range, naming the value and the bound."""
    for value, what, low in ((rounds, "number of rounds", 2), (jobs, "number of jobs", 1),
                             (0 if seed is None else seed, "seed", 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise SimulationError(f"{what} must be a whole number >= {low}, not {value!r}")
    assert isinstance(rounds, int)
    if rounds > MAX_ROUNDS:
        raise SimulationError(f"number of rounds {rounds:.3g} is above the maximum "
                              f"{MAX_ROUNDS:.0e} (about three hours on 2 cores at 10 million "
                              "rounds a second)")


def check_cut(rules: Rules, cut: int) -> None:
    """Refuse a cut card at or beyond the end of the shoe."""
    size = 52 * rules.decks
    if not 0 <= cut < size:
        raise SimulationError(f"cut card at {cut} cards is not inside the {size}-card shoe")


def _two_card_total(a: int, b: int) -> tuple[int, bool]:
    hard = a + b
    return (hard + 10, True) if 1 in (a, b) and hard <= 11 else (hard, False)


@dataclass(frozen=True)
class SimRules:
    """Per-value and per-hand rule tables, read from ``Rules`` by the simulator itself."""

    rules: Rules
    limits: tuple[int, ...]  # cards of each value A..T in the shoe
    charlie: int  # cards that make a Charlie (99: none)
    stand_on_21: bool
    max_hands: int
    aces_hands: int  # hands a split of aces may reach
    one_card_aces: bool
    double_after_split: bool
    can_split: tuple[bool, ...]  # by pair value, index 1..10
    free_split: tuple[bool, ...]
    surrender_on: tuple[bool, ...]  # by upcard
    peek_on: tuple[bool, ...]
    paid_double: tuple[tuple[bool, ...], ...]  # [a][b]
    free_double: tuple[tuple[bool, ...], ...]
    ticks: int  # result units per initial bet: results are whole numbers of ticks

    @classmethod
    def of(cls, rules: Rules) -> SimRules:
        split = rules.max_hands > 1
        peek = (False, *(rules.hole_card is HoleCard.PEEK and u in (1, 10)
                         or rules.hole_card is HoleCard.PEEK_ACE and u == 1
                         for u in range(1, 11)))
        surrender = (False, *(rules.surrender is not Surrender.NONE
                              and (u != 1 or rules.surrender_vs_ace) for u in range(1, 11)))
        low = (9, 10, 11) if rules.double is Double.NINE_TO_ELEVEN else (10, 11)
        paid = [[False] * 11 for _ in range(11)]
        free = [[False] * 11 for _ in range(11)]
        for a in range(1, 11):
            for b in range(1, 11):
                total, soft = _two_card_total(a, b)
                free[a][b] = not soft and total in rules.free_doubles
                paid[a][b] = rules.double is Double.ANY or total in low
        return cls(
            rules=rules, limits=(*(4 * rules.decks for _ in range(9)), 16 * rules.decks),
            charlie=rules.charlie or 99, stand_on_21=rules.stand_on_21,
            max_hands=rules.max_hands,
            aces_hands=rules.max_hands if rules.resplit_aces else min(rules.max_hands, 2),
            one_card_aces=not rules.hit_split_aces,
            double_after_split=rules.double_after_split,
            can_split=(False, split and rules.split_aces, *(split for _ in range(2, 11))),
            free_split=(False, *(v in rules.free_splits for v in range(1, 11))),
            surrender_on=surrender, peek_on=peek,
            paid_double=tuple(tuple(r) for r in paid), free_double=tuple(tuple(r) for r in free),
            ticks=math.lcm(2, rules.blackjack_pays.denominator))

    @property
    def low(self) -> int:
        """The smallest result, in ticks (the histogram's first bin)."""
        return -MAX_LOSS * self.ticks

    @property
    def bins(self) -> int:
        high = max(Fraction(MAX_WIN), self.rules.blackjack_pays) * self.ticks
        return int(high) - self.low + 1

    def cfg(self, cut: int, spread: tuple[int, int] | None,
            split_table: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The kernel's parameter vector (see :mod:`~analyzer.crosscheck.sim.layout`)."""
        r = self.rules
        v = np.zeros(L.CFG_SIZE, dtype=np.int64)
        scalars = {
            L.C_H17: r.hits_soft_17, L.C_A21: r.stand_on_21, L.C_P22: r.push_22,
            L.C_CHBJ: r.charlie_beats_bj, L.C_CHARLIE: self.charlie,
            L.C_TAKES_ALL: r.unpeeked_bj_takes_all, L.C_BJ: int(r.blackjack_pays * self.ticks),
            L.C_TICKS: self.ticks, L.C_EARLY: r.surrender is Surrender.EARLY,
            L.C_ENHC: r.hole_card is HoleCard.NO_HOLE_CARD, L.C_DAS: self.double_after_split,
            L.C_MAX_HANDS: self.max_hands, L.C_ACES_HANDS: self.aces_hands,
            L.C_ONE_CARD: self.one_card_aces, L.C_CUT: cut, L.C_LOW: self.low}
        if spread is not None:
            scalars |= {L.C_COUNTING: 1, L.C_SPREAD_LO: spread[0], L.C_SPREAD_HI: spread[1]}
        for index, value in scalars.items():
            v[index] = int(value)
        for start, row in ((L.C_PEEK, self.peek_on), (L.C_SURRENDER, self.surrender_on),
                           (L.C_CAN_SPLIT, self.can_split), (L.C_FREE_SPLIT, self.free_split)):
            v[start:start + 11] = row
        v[L.C_PAID_DOUBLE:L.C_PAID_DOUBLE + 121] = np.array(self.paid_double).ravel()
        v[L.C_FREE_DOUBLE:L.C_FREE_DOUBLE + 121] = np.array(self.free_double).ravel()
        v[L.C_SPLIT_TABLE:] = split_table.ravel()
        return v


def shoe_codes(rules: Rules) -> npt.NDArray[np.int8]:
    """The card codes of the shoe: 1-13 (A, 2-10, J, Q, K) when pairs split by rank, else
    values 1-10 (any two tens are a pair)."""
    ranks = np.repeat(np.arange(1, 14, dtype=np.int8), 4 * rules.decks)
    return ranks if rules.split_by_rank else np.minimum(ranks, 10).astype(np.int8)


__all__ = ["MAX_ROUNDS", "SimRules", "SimulationError", "check_counts", "check_cut", "default_jobs",
           "shoe_codes"]
