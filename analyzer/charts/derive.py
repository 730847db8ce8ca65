"""Derive the total-dependent (TD) chart of a rule set from the engine's exact EVs.

Each code maximises the EV of its row's hands, weighted by how often a chart
player meets them (:mod:`analyzer.charts.rows`): two-card hands by their
chance of being dealt against the upcard (a pair that may be split belongs to
its pair row), larger hands by their chance of being reached by hitting under
the chart itself.  Reach depends on the chart, so the derivation starts from
CDZ- play and repeats until the chart is stable.  Pair rows compare the
pair's own EVs: split (CDZ-, or the chart's own split EV once the chart has
been evaluated), stand, hit (under the chart), double, surrender.  Split
hands' own use of the rows is not weighted: they are a small share.

Free Bet adds a section for the free-bet hand after a free split: hit or stand
only, valued by the engine's free-hand EVs (a win pays 1, anything else 0),
weighted by how often the main chart's free splits deal each such hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from analyzer.charts.context import ChartContext
from analyzer.charts.model import UPCARDS, RowKey, Section, standard_rows
from analyzer.charts.rows import (
    FALLBACK,
    SOLVE_ORDER,
    ActionValues,
    Array,
    RowProblem,
    RowShape,
    Solution,
    UpcardData,
    prepare,
    reach,
    solve_rows,
)
from analyzer.charts.strategy import DOUBLED_SECTION, FREE_SECTION, ChartStrategy
from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER, Action
from analyzer.engine.analysis import Analysis
from analyzer.engine.fixed import play_policy
from analyzer.engine.hands import HandSpace, later_doubles
from analyzer.engine.strategy import beats

MAX_ROUNDS = 8
SplitValues = Mapping[tuple[int, int], float]
Columns = dict[int, dict[RowKey, str]]


class Deriver:
    """Solves the TD chart of one (CDZ-) analysis; reusable for refinement rounds."""

    def __init__(self, analysis: Analysis, context: ChartContext | None = None, *,
                 by_cards: bool | None = None) -> None:
        self.analysis = analysis
        self.rules = analysis.rules
        self.context = context or ChartContext.from_rules(self.rules)
        self.by_cards = self.context.by_cards if by_cards is None else by_cards
        self.upcards = [u for u in UPCARDS if analysis.shoe[u]]
        self._data = {u: prepare(analysis, u) for u in self.upcards}
        self._ndas: dict[tuple[int, int], float] = {}
        self._forced_of: dict[HandSpace, Array] = {}
        self._without_das: Analysis | None = None  # the same rules under NDAS (_split_code)
        self._shapes: dict[int, dict[RowKey, RowShape]] = {}  # the main rows' (rows.RowShape)
        # the codes a hand of three or more cards plays as written (DAN, SAH)
        self._later_codes = frozenset(("D", "Ds") if self.rules.double_any_cards else ()) | \
            frozenset(("R", "Rs") if self.rules.surrender_after_hit else ())
        # the section the last round of _solve started from, and its rows per upcard
        self._rows_from: tuple[Section | None, dict[int, Solution]] = (None, {})
        # per upcard, the last rows solved and the bits of the weights they were solved for
        self._last_rows: dict[int, tuple[bytes, Solution]] = {}

    def upcard_data(self, upcard: int) -> UpcardData:
        return self._data[upcard]

    def _forced(self, d: UpcardData) -> Array:
        """Per hand: whether the rules stand it (kept per hand space: every round and
        upcard asks again, and the upcards of a shoe share one space)."""
        space = d.ua.values.space
        if space not in self._forced_of:
            forced = np.array(
                [self.context.forced_stand(t, n)
                 for t, n in zip(space.total.tolist(), space.ncards.tolist(), strict=True)],
                dtype=bool)
            forced.flags.writeable = False  # shared between rounds
            self._forced_of[space] = forced
        return self._forced_of[space]

    def met(self, upcard: int, strategy: ChartStrategy) -> Array:
        """Per hand: chance a chart player meets it against ``upcard`` (times no dealer BJ)."""
        d = self._data[upcard]
        start = np.where(d.two, d.deal * d.keep, 0.0)
        result: Array = np.where(d.two, start, reach(d, start, self._hits(d, strategy, {})))
        return result

    def first_values(self, d: UpcardData, hit: Array,
                     split_values: SplitValues | None = None) -> ActionValues:
        """Unconditional EV of every first action of every two-card hand (NaN: not allowed).

        Hitting is valued by ``hit`` (the chart's continuation); a split by the
        chart's own split EV where ``split_values`` has it, else by CDZ-.
        """
        out = {a: values.copy() for a, values in d.first.items()}
        out[HIT] = np.where(d.two, d.unconditional(hit), np.nan)
        for i in np.flatnonzero(d.pair):
            value = (split_values or {}).get((d.upcard, int(d.pair[i])))
            if value is not None:
                out[SPLIT][i] = d.keep[i] * value - d.p_bj[i]
        return out

    def _hits(self, d: UpcardData, strategy: ChartStrategy | None,
              split_values: SplitValues) -> Array:
        """Per hand: whether the chart (or, without one, CDZ- play) hits it."""
        v = d.ua.values
        space = v.space
        m = len(d.comps)
        if strategy is None:
            first = self.first_values(d, v.hit, split_values)
            stacked = np.vstack([np.nan_to_num(first[a], nan=-np.inf) if a in first
                                 else np.full(m, -np.inf) for a in range(5)])
            result: Array = np.where(space.ncards == 2, np.argmax(stacked, axis=0) == HIT,
                                     v.hits)  # CDZ-: a hand that doubles (DAN) draws no more
            return result & ~self._forced(d)
        hits: Array = (self._policy(d, strategy) == HIT) & (space.ncards >= 3)
        for i in d.options:  # the two-card hands dealt: their own options
            if int(space.ncards[i]) == 2:
                hits[i] = strategy.decide(d.upcard, d.comps[i], d.options[i]) == HIT
        return hits

    def _policy(self, d: UpcardData, strategy: ChartStrategy) -> Array:
        """Per hand, the chart's action after hitting (DAN's double, SAH's surrender too)."""
        return play_policy(strategy, self.analysis.play_rules(d.upcard), d.upcard,
                           d.ua.values.space)

    def hit_values(self, section: Section, upcard: int) -> Array:
        """EV of hitting each hand when the chart plays on (the engine's policy hit EVs)."""
        strategy = ChartStrategy(section, self.rules, context=self.context)
        return self._solve_upcard(self._data[upcard], strategy, {})[2]

    # -- the main chart -------------------------------------------------------
    def derive(self, split_values: SplitValues | None = None,
               start: Section | None = None) -> Section:
        """Repeat solve -> reach under the new chart until the chart is stable."""
        section = start
        for _ in range(MAX_ROUNDS):
            new = self._solve(section, split_values or {})
            if section is not None and new.rows == section.rows:
                break
            section = new
        assert section is not None
        return section

    def _solve(self, previous: Section | None, split_values: SplitValues) -> Section:
        strategy = (ChartStrategy(previous, self.rules, context=self.context)
                    if previous is not None else None)
        # The hard and soft rows depend on the chart played before (who meets which hand),
        # not on the split values: a refinement round from the section the last round
        # started from reuses its rows and solves the pair rows again.
        if previous is None or self._rows_from[0] is not previous:
            self._rows_from = (previous, {})
        solved = self._rows_from[1]
        columns: Columns = {}
        evs: dict[tuple[RowKey, int], dict[str, float]] = {}
        for u in self.upcards:
            d = self._data[u]
            if u not in solved:
                solved[u] = self._solve_rows(d, strategy, split_values)
            columns[u], cell_evs = self._with_pairs(d, *solved[u], split_values)
            evs.update({(key, u): values for key, values in cell_evs.items()})
        return Section(name="main", title="chart",
                       rows=_assemble(columns, self._later_codes), evs=evs)

    def _solve_upcard(self, d: UpcardData, strategy: ChartStrategy | None,
                      split_values: SplitValues
                      ) -> tuple[dict[RowKey, str], dict[RowKey, dict[str, float]], Array]:
        codes, evs, hit = self._solve_rows(d, strategy, split_values)
        return (*self._with_pairs(d, codes, evs, hit, split_values), hit)

    def _solve_rows(self, d: UpcardData, strategy: ChartStrategy | None,
                    split_values: SplitValues) -> Solution:
        """The hard and soft rows (and card-count rows) against one upcard, and hit EVs.

        Everything else the rows are solved from is fixed per upcard, so weights with
        the bits of the last round's give its solution again: the round that confirms
        a chart reuses it wherever the chart hits where CDZ- play did (most upcards of
        a multi-deck shoe).
        """
        start = np.where(d.two, d.deal * d.keep, 0.0)
        met = reach(d, start, self._hits(d, strategy, split_values))
        bits = met.tobytes()  # bits, not ==: a -0.0 met is not taken for a 0.0
        last = self._last_rows.get(d.upcard)
        if last is not None and last[0] == bits:
            return last[1]

        def first_values(two: Array, hit: Array) -> ActionValues:
            out: ActionValues = {STAND: d.first[STAND][two], HIT: d.unconditional(hit[two], two)}
            for action in (DOUBLE, SURRENDER):
                out[action] = d.first[action][two]
            return out

        problem = RowProblem(d=d, stand=d.ua.values.stand, bust=-1.0,
                             first_weight=np.where(d.two & (d.pair == 0), d.deal, 0.0),
                             met=met, first_values=first_values, forced=self._forced(d),
                             by_cards=self.by_cards, shapes=self._shapes.setdefault(d.upcard, {}))
        solution = solve_rows(problem)
        solution[2].flags.writeable = False  # shared by the rounds that reuse it
        self._last_rows[d.upcard] = (bits, solution)
        return solution

    def _with_pairs(self, d: UpcardData, rows: dict[RowKey, str],
                    row_evs: dict[RowKey, dict[str, float]], hit: Array,
                    split_values: SplitValues
                    ) -> tuple[dict[RowKey, str], dict[RowKey, dict[str, float]]]:
        """The rows with the pair rows added, splits valued by ``split_values``."""
        codes, evs = dict(rows), dict(row_evs)
        if d.pair.any():
            first = self.first_values(d, hit, split_values)
            for i in map(int, np.flatnonzero(d.pair)):
                p = int(d.pair[i])
                codes[RowKey("P", p)], evs[RowKey("P", p)] = self._pair_code(d, p, i, first)
        return codes, evs

    def _pair_code(self, d: UpcardData, p: int, i: int,
                   first: ActionValues) -> tuple[str, dict[str, float]]:
        """The pair row's code: the pair's best play, with the fallback its code implies."""
        values = {a: float(first[a][i]) for a in first if not np.isnan(first[a][i])}
        best = STAND
        for action in Action:
            if action in values and beats(values[action], values[best]):
                best = action
        shown = {a.code: values[a] for a in Action if a in values}
        if best == DOUBLE:
            return ("Ds" if beats(values[STAND], values[HIT]) else "D"), shown
        if best == SURRENDER:
            rest = {a: values[a] for a in (HIT, STAND, SPLIT) if a in values}
            alt = max(rest, key=lambda a: (rest[a], -a))
            return {HIT: "R", STAND: "Rs", SPLIT: "Rp"}[alt], shown
        if best == SPLIT:
            return self._split_code(d, p, i, values), shown
        return ("H" if best == HIT else "S"), shown

    def _split_code(self, d: UpcardData, p: int, i: int, values: dict[int, float]) -> str:
        """P, or Ph where the split is worth it only because doubling after it is allowed."""
        if not self.rules.double_after_split:
            return "P"
        alt = max((a for a in (STAND, HIT, DOUBLE) if a in values), key=lambda a: values[a])
        if alt != HIT:
            return "P"
        key = (d.upcard, p)
        if key not in self._ndas:  # CDZ- split EV of the same rules without DAS
            if self._without_das is None:
                self._without_das = Analysis(self.rules.replace(double_after_split=False),
                                             self.analysis.shoe)
            self._ndas[key] = float(self._without_das.split_value(
                dataclasses.replace(d.ua, splits={}), p))
        without_das = d.keep[i] * self._ndas[key] - d.p_bj[i]
        return "Ph" if without_das < values[HIT] else "P"

    # -- DDR, RDn: a doubled hand once its card is dealt -------------------------
    def derive_doubled(self, main: Section) -> Section | None:
        """The doubled-hand section (S, Rs to give up, Ds to double again), or None when a
        doubled hand has no decision under these rules.

        Each row's code maximises the value of its doubled hands at the first stake
        (twice the bet), weighted by how often the main chart doubles into each; a
        redouble is valued with the later stakes played at their best.
        """
        if not self.context.doubled_decides:
            return None
        strategy = ChartStrategy(main, self.rules, context=self.context)
        columns: Columns = {}
        evs: dict[tuple[RowKey, int], dict[str, float]] = {}
        for u in self.upcards:
            columns[u], cell_evs = self._solve_doubled(self._data[u], strategy)
            evs.update({(key, u): values for key, values in cell_evs.items()})
        return Section(name=DOUBLED_SECTION, title="doubled hand", rows=_assemble(columns),
                       evs=evs)

    def _doubled_weight(self, d: UpcardData, strategy: ChartStrategy) -> Array:
        """Per hand, the chance the chart's player holds it as a doubled hand, card dealt."""
        v = d.ua.values
        space = v.space
        m = len(d.comps)
        doubling = np.where(self._policy(d, strategy) == DOUBLE, self.met(d.upcard, strategy),
                            0.0)
        for i in d.options:
            if d.two[i]:
                doubling[i] = d.deal[i] * d.keep[i] if strategy.decide(
                    d.upcard, d.comps[i], d.options[i]) == DOUBLE else 0.0
        # each hand's parents hold one card fewer: summed in np.add.at's order, into zeros
        out = np.bincount(space.child.ravel(), weights=(doubling[:, None] * v.probs).ravel(),
                          minlength=m + 2)
        return out[:m]

    def _solve_doubled(self, d: UpcardData, strategy: ChartStrategy
                       ) -> tuple[dict[RowKey, str], dict[RowKey, dict[str, float]]]:
        v = d.ua.values
        space = v.space
        assert v.stand_doubled is not None
        ds = v.stand_doubled.astype(float)
        play = self.analysis.play_rules(d.upcard)
        levels = play.redoubles + 1
        may = later_doubles(space, play.double) & ~self._forced(d) if play.redoubles \
            else np.zeros(len(ds), dtype=bool)
        options = {"S": 2 * ds}
        after = np.zeros(0)
        for level in range(levels, 0, -1):  # the later stakes at their best, top down
            stake = 2 ** level
            vals = stake * ds
            again = (v.probs * after[space.child]).sum(axis=1) if level < levels else None
            if again is not None:
                vals = np.where(may, np.maximum(vals, again), vals)
            if play.rescue:
                vals = np.maximum(vals, -stake / 2)
            if level == 1:
                if play.rescue:
                    options["Rs"] = np.full(len(ds), -1.0)
                if again is not None:
                    options["Ds"] = np.where(may, again, 2 * ds)
            after = np.concatenate([vals, [-stake, 0.0]])
        weight = self._doubled_weight(d, strategy)
        forced = self._forced(d)
        codes: dict[RowKey, str] = {}
        evs: dict[RowKey, dict[str, float]] = {}
        for key in SOLVE_ORDER:
            nodes = d.rows[key]
            nodes = nodes[(space.ncards[nodes] >= 3) & ~forced[nodes]]
            w = weight[nodes]
            if len(nodes) == 0 or w.sum() <= 0:
                codes[key] = "S"
                continue
            values = {c: float(w @ a[nodes]) / float(w.sum()) for c, a in options.items()}
            codes[key] = max(values, key=lambda c: (values[c], c == "S"))  # ties: stand
            evs[key] = values
        return codes, evs

    # -- Free Bet: the free-bet hand after a free split -----------------------
    def derive_free(self, main: Section) -> Section | None:
        """The free-bet hand's hit/stand chart, or None when the rules have no free splits."""
        if not self.context.free_splits or any(
                self._data[u].ua.values.free_stand is None for u in self.upcards):
            return None
        strategy = ChartStrategy(main, self.rules, context=self.context)
        starts = {u: self._free_starts(self._data[u], strategy) for u in self.upcards}
        section: Section | None = None
        for _ in range(MAX_ROUNDS):
            previous = (ChartStrategy(section, self.rules, context=self.context)
                        if section is not None else None)
            columns: Columns = {}
            evs: dict[tuple[RowKey, int], dict[str, float]] = {}
            for u in self.upcards:
                columns[u], cell_evs = self._solve_free(self._data[u], starts[u], previous)
                evs.update({(key, u): values for key, values in cell_evs.items()})
            new = Section(name=FREE_SECTION, title="free-bet hand after a free split",
                          rows=_assemble(columns), evs=evs)
            if section is not None and new.rows == section.rows:
                break
            section = new
        return section

    def _free_starts(self, d: UpcardData, main: ChartStrategy) -> Array:
        """Weight of each two-card free-bet hand: pair dealt, split by the chart, card drawn."""
        start = np.zeros(len(d.comps))
        index = d.ua.values.space.index
        for i in map(int, np.flatnonzero(d.pair)):
            p = int(d.pair[i])
            one_card = p == 1 and not self.rules.hit_split_aces
            if p not in self.context.free_splits or one_card or \
                    main.decide(d.upcard, d.comps[i], d.options[i]) != SPLIT:
                continue
            shoe = list(d.ua.shoe)
            shoe[p - 1] -= 2
            for x in range(1, 11):
                comp = [0] * 10
                comp[p - 1] += 1
                comp[x - 1] += 1
                if shoe[x - 1] > 0 and tuple(comp) in index:
                    start[index[tuple(comp)]] += d.deal[i] * d.keep[i] * shoe[x - 1] / sum(shoe)
        return start

    def _solve_free(self, d: UpcardData, start: Array, previous: ChartStrategy | None
                    ) -> tuple[dict[RowKey, str], dict[RowKey, dict[str, float]]]:
        v = d.ua.values
        assert v.free_stand is not None and v.free_hit is not None
        free_stand, forced = v.free_stand, self._forced(d)
        if previous is None:
            hits = beats(v.free_hit, free_stand) & ~forced
        else:
            space = v.space
            hits = (previous.hit_policy(d.upcard, space.comps) == HIT) & (space.ncards >= 2)

        def first_values(two: Array, hit: Array) -> ActionValues:
            return {STAND: free_stand[two], HIT: hit[two]}

        problem = RowProblem(d=d, stand=free_stand, bust=0.0, first_weight=start,
                             met=reach(d, start, hits), first_values=first_values,
                             forced=forced, by_cards=self.by_cards, later=False)
        codes, evs, _ = solve_rows(problem)
        return codes, evs


def _assemble(columns: Columns, later: frozenset[str] = frozenset()
              ) -> dict[RowKey, tuple[str, ...]]:
    """Rows from per-upcard codes; cells an upcard did not decide get the play they imply
    (``later``: the codes a hand of three or more cards plays as they are, D and Ds under
    DAN, R and Rs under SAH; a card-count row repeats them)."""
    keys = set(standard_rows(pairs=False))
    for codes in columns.values():
        keys.update(codes)
    rows: dict[RowKey, tuple[str, ...]] = {}
    for key in sorted(keys, key=RowKey.sort_key):
        cells = []
        for u in UPCARDS:
            codes = columns.get(u, {})
            code = codes.get(key)
            if code is None and key.cards is not None:  # the base row's play on many cards
                base = codes.get(key.base, "H")
                code = base if base in later else FALLBACK.get(base, "S")
            elif code is None and key.kind == "P":  # a pair not split here: its total's row
                total = RowKey("S", 12) if key.total == 1 else RowKey("H", 2 * key.total)
                code = codes.get(total, "H")
            elif code is None:
                code = "S" if key.total >= 17 else "H"
            cells.append(code)
        rows[key] = tuple(cells)
    return rows
