"""A chart as a :class:`~analyzer.engine.strategy.Strategy`: the documented lookup rules, in code.

Passing :class:`ChartStrategy` to :class:`~analyzer.engine.analysis.Analysis` evaluates the
chart as written, exactly (policy evaluation): the first two cards, hands
reached by hitting and split hands all read their decision off the chart.
The lookup rules (also :data:`analyzer.charts.model.LOOKUP_RULES`):

1. a hand of 21 stands where the rules stand it; a Charlie hand stops;
2. the pair row is used only for a two-card pair that may be split right now
   (``SPLIT`` among the options), and its code is the decision;
3. otherwise the hard/soft row of the total, or its card-count row (``H16/5``);
4. D/Ds fall back to hit/stand where doubling is not an option; R/Rs/Rp to
   hit/stand/split where surrender is not; Ph splits only under DAS;
5. missing H4 uses H5, missing S12 hits, missing H21/S21 stand;
6. under DAN a D/Ds doubles a hand of three or more cards where the doubling rule allows
   its total, under SAH an R/Rs surrenders an unsplit one;
7. a doubled hand, its card dealt, reads the ``doubled-hand`` section by its total (DDR,
   RDn): Rs gives it up for the original bet (rescue), Ds doubles it again, S stands;
   without the section it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from analyzer.charts.context import ChartContext
from analyzer.charts.model import CODE_ACTIONS, UPCARDS, Chart, RowKey, Section, validate_rows
from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.cards import comp_total
from analyzer.core.rules import Rules
from analyzer.engine.strategy import checked_comps

FREE_SECTION = "free-bet-hand"
DOUBLED_SECTION = "doubled-hand"
_COLUMN = {u: i for i, u in enumerate(UPCARDS)}  # an upcard's column in a row of codes
_VALUES = np.arange(1, 11, dtype=np.int64)  # the hard value of each count of A..T


def _shapes(comps: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One integer per hand shape: hard total, cards and aces, which fix the best total,
    softness and card count, so the row of a hand that may not split (non-negative
    counts, :func:`checked_comps`)."""
    ncards = comps.sum(axis=1)
    aces = comps[:, 0]
    shape: npt.NDArray[np.int64] = ((comps @ _VALUES) * (ncards.max(initial=0) + 1) + ncards) \
        * (aces.max(initial=0) + 1) + aces
    return shape


def _one_per_key(keys: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.intp],
                                                       npt.NDArray[np.intp]]:
    """The first row of each distinct key, and each row's key's place among them: a chart
    asked once per key answers every row."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


@lru_cache(maxsize=16384)
def hand_shape(comp: tuple[int, ...]) -> tuple[int, bool, int]:
    """Best total, softness and number of cards of a composition (counts of A..T).

    Cached: evaluating a chart asks it of every hand against every upcard.
    """
    total, soft = comp_total(comp)
    return total, soft, sum(comp)


def pair_value(comp: tuple[int, ...]) -> int | None:
    """The card value of a two-card pair, else None."""
    if sum(comp) != 2:
        return None
    for v in range(1, 11):
        if comp[v - 1] == 2:
            return v
    return None


def resolve(code: str, options: frozenset[int], rules: Rules) -> int:
    """The action a code stands for, given the options the rules leave this hand."""
    primary, fallback = CODE_ACTIONS[code]
    if code == "Ph" and not rules.double_after_split:
        primary = HIT
    if primary in options:
        return primary
    if code == "Rp" and fallback not in options:
        fallback = HIT
    return fallback if fallback in options else STAND


class ChartStrategy:
    """Play a chart section by the lookup rules (``section``: by name, default the main one).

    A Free Bet chart's ``free-bet-hand`` section plays the hand carrying the
    free bet after a free split (:meth:`decide_free`); ``free_calls`` counts
    how often the engine asked for it.
    """

    def __init__(self, chart: Chart | Section, rules: Rules, *,
                 context: ChartContext | None = None, section: str | None = None) -> None:
        free: ChartStrategy | None = None
        doubled: ChartStrategy | None = None
        if isinstance(chart, Chart):
            names = [s.name for s in chart.sections]
            if section is None and FREE_SECTION in names:
                free = ChartStrategy(chart.section(FREE_SECTION), rules, context=context)
            if section is None and DOUBLED_SECTION in names:
                doubled = ChartStrategy(chart.section(DOUBLED_SECTION), rules, context=context)
            chart = chart.section(section) if section else chart.main
        validate_rows(chart.rows, f"chart section {chart.name!r}")
        self.section = chart
        self.rules = rules
        self.context = context or ChartContext.from_rules(rules)
        self._rows = {key: codes for key, codes in chart.rows.items()}
        self._free = free
        self._doubled = doubled
        self.free_calls = 0
        self._row_of: dict[tuple[tuple[int, ...], bool], RowKey | None] = {}
        self._codes: dict[tuple[tuple[int, ...], bool], Sequence[str]] = {}
        self._hit_tables: dict[int | bytes, tuple[npt.NDArray[np.int64],
                                                  npt.NDArray[np.int64]]] = {}

    def row_for(self, comp: tuple[int, ...], options: frozenset[int]) -> RowKey | None:
        """The row a hand reads (None: no decision, or a missing row with a fixed play).

        It depends on the options only through whether a split is one of them:
        kept per (hand, split allowed), since every upcard asks again.
        """
        key = (comp, SPLIT in options)
        if key not in self._row_of:
            self._row_of[key] = self._find_row(comp, options)
        return self._row_of[key]

    def _find_row(self, comp: tuple[int, ...], options: frozenset[int]) -> RowKey | None:
        total, soft, ncards = hand_shape(comp)
        if ncards < 2 or self.context.forced_stand(total, ncards):
            return None
        pair = pair_value(comp)
        if pair is not None and SPLIT in options and RowKey("P", pair) in self._rows:
            return RowKey("P", pair)
        kind = "S" if soft else "H"
        qualified = RowKey(kind, total, ncards)
        if qualified in self._rows:
            return qualified
        key = RowKey(kind, total)
        if key not in self._rows and key == RowKey("H", 4):
            key = RowKey("H", 5)
        return key if key in self._rows else None

    def code_for(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> str:
        """The chart code that governs this hand (after the missing-row rules)."""
        return self.code_for_row(comp, options)[_COLUMN[upcard]]

    def _find_codes(self, comp: tuple[int, ...], options: frozenset[int]) -> Sequence[str]:
        """The codes of the hand's row by upcard (its fixed play repeated where it has none)."""
        total, soft, ncards = hand_shape(comp)
        if ncards < 2:
            return "H" * len(UPCARDS)  # the one-card start of a split hand draws its second card
        key = self.row_for(comp, options)
        if key is None:  # forced stand, missing S12 (hits), missing H21/S21 (stand)
            forced = self.context.forced_stand(total, ncards)
            return ("H" if soft and total == 12 and not forced else "S") * len(UPCARDS)
        return self._rows[key]

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        return resolve(self.code_for(upcard, comp, options), options, self.rules)

    def hit_policy(self, upcard: int, comps: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`decide` with the options stand and hit, for every row of ``comps`` at once.

        An analysis played by the chart asks it of its whole hand space against
        each upcard; the spaces recur (one per shoe size), so each is resolved once
        for every upcard column and kept.
        """
        # A read-only array (a hand space's) is known by its identity, another by its bytes.
        key: int | bytes = id(comps) if isinstance(comps, np.ndarray) and \
            not comps.flags.writeable else checked_comps(comps).astype(np.int64).tobytes()
        found = self._hit_tables.get(key)
        if found is not None and (isinstance(key, bytes) or found[0] is comps):
            table = found[1]
        else:
            comps = checked_comps(comps).astype(np.int64, copy=False)
            # Without a split among the options a hand's row is a function of its shape
            # (total, softness, cards), and that of its hard total, aces and cards: one
            # lookup per distinct shape, a few hundred where a space has thousands of hands.
            first, inverse = _one_per_key(_shapes(comps))
            both = frozenset((STAND, HIT))
            action = {code: resolve(code, both, self.rules) for code in CODE_ACTIONS}
            by_shape = np.array([[action[code] for code in self.code_for_row(tuple(c), both)]
                                 for c in comps[first].tolist()],
                                dtype=np.int64).reshape(-1, len(UPCARDS))
            table = by_shape[inverse]
            self._hit_tables[key] = (comps, table)  # the array kept: its id stays its own
        return table[:, _COLUMN[upcard]].copy()

    def later_policy(self, upcard: int, comps: npt.NDArray[np.int64],
                     may_double: npt.NDArray[np.bool_], may_give: npt.NDArray[np.bool_],
                     ) -> npt.NDArray[np.int64]:
        """:meth:`decide` for every row of ``comps`` (hands reached by hitting) with the
        options stand and hit, double where ``may_double`` and surrender where ``may_give``
        says: asked once per shape and options, as :meth:`hit_policy`."""
        comps = checked_comps(comps).astype(np.int64, copy=False)
        options = 2 * np.asarray(may_double, dtype=np.int64) + np.asarray(may_give,
                                                                          dtype=np.int64)
        first, inverse = _one_per_key(4 * _shapes(comps) + options)
        answers = []
        for row, i in zip(comps[first].tolist(), first.tolist(), strict=True):
            allowed = {STAND, HIT} | ({DOUBLE} if options[i] & 2 else set()) | \
                ({SURRENDER} if options[i] & 1 else set())
            answers.append(self.decide(upcard, tuple(row), frozenset(allowed)))
        result: npt.NDArray[np.int64] = np.array(answers, dtype=np.int64)[inverse]
        return result

    def code_for_row(self, comp: tuple[int, ...], options: frozenset[int]) -> Sequence[str]:
        """The hand's codes by upcard, in the order of :data:`UPCARDS` (see :meth:`code_for`)."""
        key = (comp, SPLIT in options)
        if key not in self._codes:
            self._codes[key] = self._find_codes(comp, options)
        return self._codes[key]

    def decide_free(self, upcard: int, comp: tuple[int, ...]) -> int:
        """Hit or stand for the hand carrying a free bet (the free-bet-hand section)."""
        self.free_calls += 1
        player = self._free or self
        return player.decide(upcard, comp, frozenset((STAND, HIT)))

    def free_policy(self, upcard: int, comps: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`decide_free` for every row of ``comps`` at once (as :meth:`hit_policy`)."""
        self.free_calls += len(comps)
        player = self._free or self
        return player.hit_policy(upcard, comps)

    def decide_rescue(self, upcard: int, comp: tuple[int, ...], level: int = 1) -> bool:
        """DDR: whether a doubled hand holding ``comp`` gives up (an Rs in the doubled-hand
        section; every stake level alike)."""
        return self._doubled_action(upcard, comp, SURRENDER)

    def decide_redouble(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        """RDn: whether a doubled hand holding ``comp`` doubles again (a Ds in the
        doubled-hand section; every stake level alike)."""
        return self._doubled_action(upcard, comp, DOUBLE)

    def _doubled_action(self, upcard: int, comp: tuple[int, ...], action: int) -> bool:
        if self._doubled is None:
            return False
        return self._doubled.decide(upcard, comp, frozenset((STAND, action))) == action

    def doubled_policy(self, upcard: int, comps: npt.NDArray[np.int64], levels: int,
                       ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """:meth:`decide_rescue` and :meth:`decide_redouble` for every row of ``comps``,
        repeated for each of ``levels`` stake levels."""
        comps = checked_comps(comps).astype(np.int64, copy=False)
        first, inverse = _one_per_key(_shapes(comps))
        rows = [tuple(c) for c in comps[first].tolist()]  # one hand per shape, as hit_policy
        give = np.array([self.decide_rescue(upcard, c) for c in rows], dtype=bool)
        again = np.array([self.decide_redouble(upcard, c, 1) for c in rows], dtype=bool)
        return np.tile(give[inverse], (levels, 1)), np.tile(again[inverse], (levels, 1))
