"""Playing indices: the true count at which a decision flips, from exact analyses.

For a decision (:mod:`analyzer.shoestate.decisions`) and a count system, the
value ``EV(first) - EV(second)`` is computed exactly on the shoe at each whole
true count (:mod:`analyzer.shoestate.truecount`: Griffin's proportional
deflection of the unseen cards, at a fixed number of unseen cards -- half the
shoe by default, where the deflection is most representative), stepping from
0 towards the sign change; the index is where the value crosses zero, by
linear interpolation between the two whole counts that bracket it.

The known cards -- the upcard and the player's hand -- are counted and taken
out of the unseen cards, as a counter at the table sees them.  A decision
given as a total mixes its hands with their full-shoe dealing chances.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.shoestate.counts import CountSystem
from analyzer.shoestate.decisions import ACTION_WORDS, Decision, deal_weight
from analyzer.shoestate.memo import run_all
from analyzer.shoestate.truecount import CountShoe, TrueCountError, count_shoe

MAX_TC = 12  # how far from 0 the search steps before giving up


@dataclass(frozen=True)
class IndexResult:
    """Where a decision flips: ``first`` is better at counts above ``index`` when ``rising``."""

    decision: Decision
    index: float | None  # None: no flip within reach
    rising: bool  # the value (first minus second) grows with the count
    values: tuple[tuple[int, float], ...]  # (true count, value) computed
    unseen: int

    @property
    def rule(self) -> str:
        """The index as a playing rule, e.g. ``stand at TC >= +0.31 (else hit)``."""
        d = self.decision
        if d.insurance:
            take = "insure" if self.rising else "decline insurance"
            if self.index is None:
                return "no flip within reach"
            return f"{take} at TC {'>=' if self.rising else '<='} {self.index:+.2f}"
        first, second = ACTION_WORDS[d.first], ACTION_WORDS[d.second]
        if self.index is None:
            best = first if self.values and self.values[0][1] > 0 else second
            return f"{best} at every count within reach"
        sign = ">=" if self.rising else "<="
        return f"{first} at TC {sign} {self.index:+.2f} (else {second})"


def hand_value(spec: str, counts: tuple[int, ...], upcard: int, hand: tuple[int, int],
               first: int, second: int, fingerprint: str) -> float:
    """``EV(first) - EV(second)`` of one hand on one whole shoe (memoized task)."""
    del fingerprint
    analysis = Analysis(parse_spec(spec), Shoe(counts))
    actions = analysis.actions(upcard, hand)
    return float(actions[first] - actions[second])


@dataclass
class _Search:
    decision: Decision
    values: dict[int, float] = field(default_factory=dict)
    done: bool = False
    index: float | None = None

    def next_counts(self) -> list[int]:
        """Whole true counts still needed (empty once bracketed or out of reach)."""
        if self.done:
            return []
        if not self.values:
            return [0, 1]
        lo, hi = min(self.values), max(self.values)
        rising = self.values[1] > self.values[0]
        towards_up = (self.values[0] < 0) == rising
        step = hi + 1 if towards_up else lo - 1
        return [step] if abs(step) <= MAX_TC else []

    def bracket(self) -> None:
        counts = sorted(self.values)
        for a, b in zip(counts, counts[1:], strict=False):
            va, vb = self.values[a], self.values[b]
            if va == 0:
                self.index, self.done = float(a), True
                return
            if (va < 0) != (vb < 0):
                self.index, self.done = a + va / (va - vb), True
                return


def playing_indices(rules: Rules, system: CountSystem, decisions: Sequence[Decision], *,
                    shoe: Shoe | None = None, unseen: int | None = None, jobs: int = 1,
                    use_cache: bool = True) -> list[IndexResult]:
    """The index of every decision (module docstring), searched in parallel rounds."""
    full = shoe if shoe is not None else Shoe.decks(rules.decks)
    left = unseen if unseen is not None else full.total // 2
    spec = format_spec(rules)
    searches = [_Search(d) for d in decisions]
    while True:
        wanted = [(s, tc) for s in searches for tc in s.next_counts()]
        if not wanted:
            break
        plans = {}
        for s, tc in wanted:
            try:
                plans[(id(s), tc)] = _plan(s.decision, system, full, Fraction(tc), left)
            except TrueCountError:
                s.done = True
        tasks = [(hand_value, (spec, shoe_.counts, s.decision.upcard, hand, s.decision.first,
                               s.decision.second))
                 for s, tc in wanted if (id(s), tc) in plans
                 for hand, _, cs in plans[(id(s), tc)] for _, shoe_ in cs.vertices
                 if not s.decision.insurance]
        results = iter(run_all(tasks, jobs=jobs, use_cache=use_cache))
        for s, tc in wanted:
            if (id(s), tc) in plans:
                s.values[tc] = _combine(s.decision, plans[(id(s), tc)], results)
                s.bracket()
    return [IndexResult(decision=s.decision, index=s.index,
                        rising=0 in s.values and 1 in s.values and s.values[1] > s.values[0],
                        values=tuple(sorted(s.values.items())), unseen=left)
            for s in searches]


Plan = list[tuple[tuple[int, int], Fraction, CountShoe]]  # (hand, weight, count shoe)


def _plan(decision: Decision, system: CountSystem, full: Shoe, tc: Fraction,
          unseen: int) -> Plan:
    if decision.insurance:
        return [((1, 1), Fraction(1), count_shoe(system, full, (1,), tc, unseen))]
    return [(hand, deal_weight(full, decision.upcard, hand),
             count_shoe(system, full, (decision.upcard, *hand), tc, unseen))
            for hand in decision.hands]


def _combine(decision: Decision, plan: Plan, results: Iterator[float]) -> float:
    total = weights = 0.0
    for _, weight, cs in plan:
        if decision.insurance:
            rest = cs.unseen
            value = float(3 * rest[9] / sum(rest) - 1)
        else:
            value = sum(float(w) * next(results) for w, _ in cs.vertices)
        total += float(weight) * value
        weights += float(weight)
    return total / weights


__all__ = ["IndexResult", "MAX_TC", "playing_indices"]
