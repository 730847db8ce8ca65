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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from analyzer.core.actions import Action
from analyzer.core.errors import ImpossibleShoeError, UsageError
from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis, checked_jobs
from analyzer.shoestate.counts import CountSystem
from analyzer.shoestate.decisions import Decision, deal_weight
from analyzer.shoestate.truecount import CountShoe, TrueCountError, count_shoe
from analyzer.util.pool import run_all
from analyzer.util.progress import ProgressCallback

MAX_TC = 12  # how far from 0 the search goes, in the count's largest tags


def count_unit(system: CountSystem) -> tuple[Fraction, int]:
    """The step of the index search and how many steps it goes either way: a power of ten
    at most the largest tag, and 12 largest tags' worth of it, so a count's indices scale
    with its tags (Hi-Lo with every tag x10 has every index x10: the same shoes) and the
    search reaches them.  Step 1 and 12 steps for Hi-Lo (24 for a count whose largest tag
    is 2)."""
    top = max(abs(t) for t in system.tags)
    unit = Fraction(10) ** math.floor(math.log10(top))
    if unit > top:  # log10 rounded up across a power of ten
        unit /= 10
    return unit, math.ceil(MAX_TC * top / unit)


@dataclass(frozen=True)
class IndexResult:
    """Where a decision flips: ``first`` is better at counts above ``index`` when ``rising``."""

    decision: Decision
    index: float | None  # None: no flip within reach
    rising: bool  # the value (first minus second) grows with the count
    values: tuple[tuple[int | float, float], ...]  # (true count, value) computed
    unseen: int
    limit: Fraction | None = None  # the search stopped at this true count, not the shoe's reach
    unit: Fraction = Fraction(1)  # the search's step (:func:`count_unit`)
    why: str | None = None  # why the next count had no figure, where the shoe's reach ended it

    @property
    def index_text(self) -> str:
        """The index to two decimals of the count's unit (``+1.42``; ``+0.00153`` for a
        count whose tags are thousandths)."""
        if self.index is None:
            return "-"
        places = 2 + max(0, -math.floor(math.log10(self.unit)))
        return f"{self.index:+.{places}f}"

    def _searched(self) -> str:
        if self.limit is not None:
            return f" (searched to TC {float(self.limit):+g})"
        if self.why is None or not self.values:
            return ""
        low, high = self.values[0][0], self.values[-1][0]
        span = f"TC {low:+g}" if low == high else f"TC {low:+g} to {high:+g}"
        return f" ({span} computed; beyond: {self.why})"

    @property
    def rule(self) -> str:
        """The index as a playing rule, e.g. ``stand at TC >= +0.31 (else hit)``."""
        d = self.decision
        if not self.values:  # no count had a figure: no play to name
            return f"not computed: {self.why or 'no true count had a figure'}"
        if d.insurance:
            take = "insure" if self.rising else "decline insurance"
            if self.index is None:
                return "no flip within reach" + self._searched()
            return f"{take} at TC {'>=' if self.rising else '<='} {self.index_text}"
        first, second = Action(d.first).label, Action(d.second).label
        if self.index is None:
            best = first if self.values and self.values[0][1] > 0 else second
            return f"{best} at every count within reach" + self._searched()
        sign = ">=" if self.rising else "<="
        return f"{first} at TC {sign} {self.index_text} (else {second})"


def hand_actions(spec: str, counts: tuple[int, ...], upcard: int,
                 hand: tuple[int, int]) -> dict[int, float]:
    """EV of every action of one hand on one whole shoe (memoized, shared by decisions)."""
    try:
        actions = Analysis(parse_spec(spec), Shoe(counts)).actions(upcard, hand)
    except ImpossibleShoeError:  # a shoe this far from the full one that can run out, or
        return {}  # (a vertex of a small remainder) too few cards to deal a round at all
    return {int(a): float(v) for a, v in actions.items()}


@dataclass
class _Search:
    """The whole true counts evaluated for one decision, and where its value crosses 0."""

    decision: Decision
    values: dict[int, float] = field(default_factory=dict)  # by true count in count units
    done: bool = False
    index: float | None = None
    reach: int = MAX_TC  # the steps the search may go either way (:func:`count_unit`)
    limit: int = 0  # the signed step it stopped at, not by a count the shoe cannot reach
    why: str | None = None  # why a count had no figure (the first such count's reason)

    def next_counts(self) -> list[int]:
        """Whole true counts still needed (empty once bracketed or out of reach).

        After 0 and +1, a secant step jumps next to the predicted crossing (the
        value is close to linear in the count) and asks for the two whole counts
        around it; once a sign change is known across a gap, the counts next to
        the crossing inside the gap; a count already known is not asked again.
        """
        if self.done:
            return []
        if not self.values:
            return [0, 1]
        gap = self._sign_change()
        if gap is not None:
            a, b = gap
            va, vb = self.values[a], self.values[b]
            low = max(a + 1, min(b - 2, math.floor(a + (b - a) * va / (va - vb))))
            return [t for t in (low, low + 1) if t not in self.values]
        counts = sorted(self.values)
        rising = self.values[1] > self.values[0]
        right = (self.values[0] < 0) == rising  # the crossing lies above the counts known
        a, b = (counts[-2], counts[-1]) if right else (counts[1], counts[0])
        va, vb = self.values[a], self.values[b]
        beyond = b + (1 if right else -1)
        guess = beyond
        slope = (vb - va) / (b - a)
        if slope != 0 and (slope > 0) == rising:  # still heading for the crossing
            root = b - vb / slope
            guess = max(math.floor(root), beyond) if right else min(math.ceil(root), beyond)
        guess = max(-self.reach, min(self.reach, guess))
        wanted = [guess, guess + (1 if right else -1)]
        fresh = [t for t in wanted if abs(t) <= self.reach and t not in self.values]
        if not fresh:
            self.done = True
            if any(abs(t) >= self.reach for t in wanted):
                self.limit = self.reach if right else -self.reach
        return fresh

    def _sign_change(self) -> tuple[int, int] | None:
        """Neighbouring known counts whose values have opposite signs (or a zero)."""
        counts = sorted(self.values)
        for a, b in zip(counts, counts[1:], strict=False):
            if self.values[a] == 0 or (self.values[a] < 0) != (self.values[b] < 0):
                return a, b
        return None

    def bracket(self) -> None:
        """Settle the index once the crossing lies between two consecutive counts."""
        gap = self._sign_change()
        if gap is None:
            return
        a, b = gap
        va, vb = self.values[a], self.values[b]
        if va == 0:
            self.index, self.done = float(a), True
        elif b == a + 1:
            self.index, self.done = a + va / (va - vb), True


def playing_indices(rules: Rules, system: CountSystem, decisions: Sequence[Decision], *,
                    shoe: Shoe | None = None, unseen: int | None = None, jobs: int = 1,
                    use_cache: bool = True,
                    progress: ProgressCallback | None = None) -> list[IndexResult]:
    """The index of every decision (module docstring), searched in parallel rounds
    (``progress``: the shoes of each round of the search)."""
    full = shoe if shoe is not None else rules.full_shoe()
    jobs = checked_jobs(jobs)
    left = unseen if unseen is not None else full.total // 2
    most = full.total - 3  # the upcard and two cards of the hand are seen
    if isinstance(left, bool) or not isinstance(left, int) or not MIN_UNSEEN <= left <= most:
        raise UsageError(f"unseen cards must be a whole number {MIN_UNSEEN} to {most} (the "
                         f"{full.total}-card shoe less the upcard and the hand), not {left!r}")
    spec = format_spec(rules)
    unit, reach = count_unit(system)
    searches = [_Search(d, reach=reach) for d in decisions]
    search = 0
    while True:
        search += 1
        wanted = [(s, tc) for s in searches for tc in s.next_counts()]
        if not wanted:
            break
        plans = {}
        for s, tc in wanted:
            try:
                plans[(id(s), tc)] = _plan(s.decision, system, full, tc * unit, left)
            except TrueCountError as err:
                s.done, s.why = True, s.why or str(err)
        keys = sorted({(shoe_.counts, s.decision.upcard, hand)
                       for s, tc in wanted if (id(s), tc) in plans and not s.decision.insurance
                       for hand, _, cs in plans[(id(s), tc)] for _, shoe_ in cs.vertices})
        tasks = [(hand_actions, (spec, counts, up, hand)) for counts, up, hand in keys]
        results = dict(zip(keys, run_all(tasks, jobs=jobs, use_cache=use_cache,
                                                  progress=progress,
                                                  stage=f"search {search}: shoes"),
                           strict=True))
        for s, tc in wanted:
            if (id(s), tc) in plans:
                try:
                    s.values[tc] = _combine(s.decision, plans[(id(s), tc)], results)
                except TrueCountError as err:  # no figure there: the count is beyond reach
                    s.done, s.why = True, s.why or str(err)
                    continue
                s.bracket()
    def scaled(k: int) -> int | float:  # a searched count in the count's own units
        tc = k * unit
        return int(tc) if tc.denominator == 1 else float(tc)

    return [IndexResult(decision=s.decision,
                        index=None if s.index is None else float(s.index * unit),
                        rising=0 in s.values and 1 in s.values and s.values[1] > s.values[0],
                        values=tuple((scaled(k), v) for k, v in sorted(s.values.items())),
                        unseen=left, limit=s.limit * unit if s.limit else None,
                        unit=unit, why=s.why)
            for s in searches]


MIN_UNSEEN = 13  # with the three cards seen, the fewest a round can be dealt from

Plan = list[tuple[tuple[int, int], Fraction, CountShoe]]  # (hand, weight, count shoe)
Results = dict[tuple[tuple[int, ...], int, tuple[int, int]], dict[int, float]]


def _plan(decision: Decision, system: CountSystem, full: Shoe, tc: Fraction,
          unseen: int) -> Plan:
    if decision.insurance:
        return [((1, 1), Fraction(1), count_shoe(system, full, (1,), tc, unseen))]
    return [(hand, deal_weight(full, decision.upcard, hand),
             count_shoe(system, full, (decision.upcard, *hand), tc, unseen))
            for hand in decision.hands]


def _combine(decision: Decision, plan: Plan, results: Results) -> float:
    total = weights = 0.0
    for hand, weight, cs in plan:
        if decision.insurance:
            rest = cs.unseen
            value = float(3 * rest[9] / sum(rest) - 1)
        else:
            value = 0.0
            for w, shoe in cs.vertices:
                evs = results[(shoe.counts, decision.upcard, hand)]
                if not evs:
                    raise TrueCountError("the shoe at this count can run out within a round")
                value += float(w) * (evs[decision.first] - evs[decision.second])
        total += float(weight) * value
        weights += float(weight)
    return total / weights


__all__ = ["IndexResult", "MAX_TC", "MIN_UNSEEN", "count_unit", "playing_indices"]
