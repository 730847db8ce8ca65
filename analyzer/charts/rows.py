"""Solving the hard and soft rows of one upcard: one code per row, from exact EVs.

A row holds many compositions; its code maximises the EV of the row's hands,
each weighted by how often a chart player meets it (two-card hands as dealt,
larger ones as reached by hitting under the chart).  The rows are solved from
the top down (hard 21..11, soft 21..12, hard 10..4): every child of a row's
hands lies in an earlier row, so each hit is valued by the chart's own later
decisions (policy evaluation, as the engine does it), not the optimal ones.
A code's value counts its fallback on the hands that cannot take its first
action (D on three cards hits, Ds stands).  The same solver serves the
ordinary hand and Free Bet's free-bet hand (own stand values, a bust costs 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.charts.model import CODE_ACTIONS, RowKey
from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.cards import blackjack_value, comp_cards, is_natural
from analyzer.engine.analysis import Analysis, UpcardAnalysis
from analyzer.engine.fixed import later_options
from analyzer.engine.hands import HandSpace

# float64, or object (Fractions) in exact mode: numpy's stubs define no arithmetic on
# the union of the two dtypes (every operation would need a cast), so Any.
Array = npt.NDArray[Any]
ActionValues = dict[int, Array]
FirstValues = Callable[[Array, Array], ActionValues]  # (two-card nodes, hit) -> EVs

# Row order of the top-down solution: every child of a row's hands is in an earlier row.
SOLVE_ORDER = ([RowKey("H", t) for t in range(21, 10, -1)]
               + [RowKey("S", t) for t in range(21, 11, -1)]
               + [RowKey("H", t) for t in range(10, 3, -1)])
TOTAL_CODES = ("S", "H", "D", "Ds", "R", "Rs")
PRIMARY = {code: CODE_ACTIONS[code][0] for code in TOTAL_CODES}
FALLBACK = {code: CODE_ACTIONS[code][1].code for code in TOTAL_CODES}  # "H" or "S"
# A card-count row is printed only where it changes the round EV (given the upcard) this much.
MIN_IMPACT = 1e-8


@dataclass
class UpcardData:
    """Everything about one upcard the derivation reuses across rounds."""

    upcard: int
    ua: UpcardAnalysis
    comps: Sequence[tuple[int, ...]]  # each node's composition (the space's own tuples)
    two: Array  # bool: a two-card hand that is a decision (not a blackjack)
    deal: Array  # chance of being dealt (two-card hands), 0 elsewhere
    p_bj: Array  # dealer blackjack chance given the hand where EVs are conditioned, else 0
    keep: Array  # 1 - p_bj
    options: dict[int, frozenset[int]]  # node -> the engine's first options
    first: ActionValues  # unconditional EVs of stand, double, split, surrender (NaN: none)
    pair: Array  # pair value where splitting is an option, else 0
    rows: dict[RowKey, Array]  # node indices (two or more cards) of each row
    may_double: Array  # bool: a hand of three or more cards may double (DAN)
    may_give: Array  # bool: ... may surrender (SAH)

    def unconditional(self, values: Array, nodes: Array | None = None) -> Array:
        """Per-hand EVs conditioned on no dealer blackjack -> unconditional (two-card hands)."""
        if nodes is None:
            result: Array = self.keep * values - self.p_bj
        else:
            result = self.keep[nodes] * values - self.p_bj[nodes]
        return result


def prepare(analysis: Analysis, upcard: int) -> UpcardData:
    """Deal chances and the engine's first-action EVs of every two-card hand."""
    ua = analysis.upcard(upcard)
    space = ua.values.space
    comps = space.comp_tuples
    m = len(comps)
    shoe = ua.shoe
    n_total = sum(shoe)
    bj = blackjack_value(upcard)
    conditioned = analysis.conditioned(upcard)
    deal, p_bj = np.zeros(m), np.zeros(m)
    two = np.zeros(m, dtype=bool)
    pair = np.zeros(m, dtype=np.int64)
    first: ActionValues = {a: np.full(m, np.nan) for a in (STAND, DOUBLE, SPLIT, SURRENDER)}
    options: dict[int, frozenset[int]] = {}
    for i in np.flatnonzero(space.ncards == 2).tolist():
        comp = comps[i]
        if is_natural(comp):
            continue
        a, b = comp_cards(comp)
        ways = shoe[a - 1] * (shoe[b - 1] - (a == b)) * (1 if a == b else 2)
        if ways <= 0:
            continue
        two[i] = True
        deal[i] = ways / (n_total * (n_total - 1))
        if conditioned and bj is not None:
            p_bj[i] = (shoe[bj - 1] - comp[bj - 1]) / (n_total - 2)
        actions = analysis.actions(upcard, (a, b))
        options[i] = frozenset(actions)
        for action, value in actions.items():
            if action == SURRENDER:
                value = analysis.surrender_value(upcard, comp, unconditional=True)
            elif action != HIT:
                value = (1 - p_bj[i]) * value - p_bj[i]
            if action != HIT:
                first[action][i] = float(value)
        if SPLIT in actions:
            pair[i] = a
    may_double, may_give = later_options(space, analysis.play_rules(upcard))
    return UpcardData(upcard, ua, comps, two, deal, p_bj, 1 - p_bj, options, first, pair,
                      _row_nodes(space), may_double, may_give)


@lru_cache(maxsize=16)  # a space serves every upcard and rule set of its shoe
def _row_nodes(space: HandSpace) -> dict[RowKey, Array]:
    """The nodes (two or more cards, not a two-card 21) of each row of :data:`SOLVE_ORDER`."""
    rows: dict[RowKey, Array] = {}
    multi = space.ncards >= 2
    for key in SOLVE_ORDER:
        mask = multi & (space.total == key.total) & (space.soft == (key.kind == "S"))
        rows[key] = np.flatnonzero(mask & ~((space.ncards == 2) & (space.total == 21)))
        rows[key].flags.writeable = False  # shared by every derivation on this space
    return rows


def later_values(d: UpcardData, hit: Array, stand: Array, nodes: Array,
                 codes: Iterable[str]) -> dict[str, Array]:
    """Per code of ``codes``, what each of ``nodes`` (hands of three or more cards) is
    worth playing it: its first action where the hand has it (DAN's double, SAH's
    surrender), else its fallback.  Hit and stand values are the caller's (the chart's
    own continuation)."""
    h, s = hit[nodes], stand[nodes]
    out: dict[str, Array] = {}
    for code in codes:
        fallback = h if FALLBACK[code] == "H" else s
        if code in ("H", "S"):
            out[code] = fallback
        elif PRIMARY[code] == DOUBLE:
            out[code] = np.where(d.may_double[nodes], d.ua.values.double[nodes].astype(float),
                                 fallback)
        else:
            out[code] = np.where(d.may_give[nodes], -0.5, fallback)
    return out


def dealt_probability(comp: tuple[int, ...], shoe: tuple[int, ...]) -> float:
    """Chance that the first cards drawn from ``shoe`` are exactly ``comp``."""
    k = sum(comp)
    num = math.prod(math.comb(n, c) for n, c in zip(shoe, comp, strict=True))
    return num / math.comb(sum(shoe), k)


def reach(d: UpcardData, start: Array, hits: Array) -> Array:
    """Chance of reaching each hand of three or more cards by hitting from ``start``.

    ``start``: weight of each two-card hand; ``hits``: per hand, whether it hits.
    A hand's parents all hold one card fewer, so each hand's chance is summed from one
    layer, into a zero: ``bincount`` adds in the order ``np.add.at`` would, the same bits.
    """
    space = d.ua.values.space
    m = len(d.comps)
    out = np.zeros(m + 2)
    out[:m] = np.where(space.ncards == 2, start, 0.0)
    for layer in reversed(space.layers):
        if int(space.ncards[layer[0]]) < 2:
            continue
        flow = np.where(hits[layer], out[layer], 0.0)
        out += np.bincount(space.child[layer].ravel(), minlength=m + 2,
                           weights=(flow[:, None] * d.ua.values.probs[layer]).ravel())
    result: Array = np.where(space.ncards >= 3, out[:m], 0.0)
    return result


@dataclass
class RowProblem:
    """One hand type's rows against one upcard: what is paid and who is met how often."""

    d: UpcardData
    stand: Array  # EV of standing, per hand
    bust: float  # value of a bust (-1; 0 for a free bet)
    first_weight: Array  # weight of each two-card hand as a first decision (0: none)
    met: Array  # weight of each larger hand (reached by hitting under the chart)
    first_values: FirstValues  # EVs of the first actions of two-card hands
    forced: Array  # bool: hands with no decision (Charlie, 21 standing)
    by_cards: bool
    later: bool = True  # hands of 3+ cards may double (DAN) or surrender (SAH) where allowed
    # each row's hands as this problem divides them, kept between solutions of the same
    # problem (its weights of first decisions, forced hands and options unchanged)
    shapes: dict[RowKey, RowShape] | None = None


@dataclass(frozen=True)
class RowShape:
    """A row's hands as :func:`_choose` divides them: what no solving round changes."""

    two: Array  # the two-card hands taken as first decisions
    multi: Array  # the hands of three or more cards with a decision
    w2: Array  # the first decisions' weights
    distinct: tuple[str, ...]  # the codes hands of three or more cards tell apart
    counts: tuple[tuple[int, Array], ...]  # (card count, its hands among ``multi``)
    sizes: Array  # each of ``multi``'s card count
    # per first action but stand and hit: where the two-card hands lack it, whether any
    # and all do (filled at its first solution: those EVs are the analysis's, fixed)
    unset: dict[int, tuple[Array, bool, bool]] = field(default_factory=dict)


def _row_shape(problem: RowProblem, nodes: Array) -> RowShape:
    d = problem.d
    ncards = d.ua.values.space.ncards[nodes]
    two = nodes[problem.first_weight[nodes] > 0]
    multi = nodes[(ncards >= 3) & ~problem.forced[nodes]]
    return _shape_of(problem, two, multi, problem.first_weight[two])


def _shape_of(problem: RowProblem, two: Array, multi: Array, w2: Array) -> RowShape:
    d = problem.d
    distinct = ["H", "S"] + [c for c, on in (("D", d.may_double[multi].any()),
                                             ("R", d.may_give[multi].any())) if on
                             and problem.later]
    distinct += [c + "s" for c in distinct[2:]]
    sizes = d.ua.values.space.ncards[multi]
    counts = tuple((n, sizes == n) for n in sorted(set(sizes.tolist())))
    return RowShape(two, multi, w2, tuple(distinct), counts, sizes)


Solution = tuple[dict[RowKey, str], dict[RowKey, dict[str, float]], Array]


def solve_rows(problem: RowProblem) -> Solution:
    """Codes of every hard/soft row (plus card-count rows), each candidate's EV, hit EVs."""
    d = problem.d
    space = d.ua.values.space
    probs = d.ua.values.probs
    m = len(d.comps)
    cont = np.zeros(m + 2)
    cont[m] = problem.bust
    hit = np.zeros(m)
    codes: dict[RowKey, str] = {}
    evs: dict[RowKey, dict[str, float]] = {}
    for key in SOLVE_ORDER:
        nodes = d.rows[key]
        if len(nodes) == 0:
            continue
        hit[nodes] = (probs[nodes] * cont[space.child[nodes]]).sum(axis=1)
        code, qualified, values = _choose(problem, key, nodes, hit)
        codes[key] = code
        codes.update(qualified)
        evs[key] = values
        # what each hand continues at, played by its row's code (its card count's, if any)
        played = {c: c if problem.later else FALLBACK[c] for c in (code, *qualified.values())}
        worth = _later_values(problem, hit, nodes, set(played.values()))
        value = worth[played[code]].astype(float)  # a copy: the card counts' are written in
        for qkey, qcode in qualified.items():
            sel = space.ncards[nodes] == qkey.cards
            value[sel] = worth[played[qcode]][sel]
        cont[nodes] = np.where(problem.forced[nodes], problem.stand[nodes], value)
    return codes, evs, hit


def _later_values(problem: RowProblem, hit: Array, nodes: Array,
                  codes: Iterable[str]) -> dict[str, Array]:
    """Per code of ``codes``, the value of ``nodes`` played by it after hitting (DAN/SAH
    where the problem has them; without, only H and S are asked)."""
    if problem.later:
        return later_values(problem.d, hit, problem.stand, nodes, codes)
    h, s = hit[nodes], problem.stand[nodes].astype(float)
    return {c: h if c == "H" else s for c in codes}


def _unset(shape: RowShape, first: ActionValues,
           action: int) -> tuple[Array, bool, bool] | None:
    """Where the row's two-card hands lack ``action`` (NaN), whether any and all do; None
    where the problem has no such action."""
    if action not in first:
        return None
    if action not in shape.unset:
        missing = np.isnan(first[action])
        shape.unset[action] = missing, bool(missing.any()), bool(missing.all())
    return shape.unset[action]


def _choose(problem: RowProblem, key: RowKey, nodes: Array,
            hit: Array) -> tuple[str, dict[RowKey, str], dict[str, float]]:
    """Best code of a row, its card-count rows, and each candidate's average EV."""
    d = problem.d
    if problem.shapes is None:
        shape = _row_shape(problem, nodes)
    elif key in problem.shapes:
        shape = problem.shapes[key]
    else:
        shape = problem.shapes[key] = _row_shape(problem, nodes)
    two, multi, w2, wm = shape.two, shape.multi, shape.w2, problem.met[shape.multi]
    met = w2.sum() + wm.sum()
    if met <= 0:  # no chart player meets this row: weight by the deal
        two = nodes[d.two[nodes]]
        w2 = d.deal[two]
        wm = np.array([dealt_probability(d.comps[i], d.ua.shoe) for i in multi])
        shape = _shape_of(problem, two, multi, w2)
        met = w2.sum() + wm.sum()
    first = problem.first_values(two, hit)
    distinct = shape.distinct
    worth = _later_values(problem, hit, multi, distinct)

    def multi_of(code: str) -> str:
        """The code whose play on hands of 3+ cards this code's is."""
        return code if code in distinct else FALLBACK[code]

    groups: dict[int, str] = {}
    agree = dict.fromkeys(distinct, 0.0)
    if problem.by_cards:  # each card count plays its own best where that matters
        sizes = shape.sizes
        for n, sel in shape.counts:
            w = wm[sel]
            by_code = {c: float(w @ worth[c][sel]) for c in distinct}
            best = max(distinct, key=lambda c: by_code[c])  # ties: the first listed
            if max(by_code.values()) - min(by_code.values()) >= MIN_IMPACT:
                groups[n] = best
                agree[best] += float(w.sum())  # ties: the code most counts agree with
        chosen = np.zeros(int(sizes.max(initial=0)) + 1, dtype=bool)  # np.isin, for small
        chosen[list(groups)] = True  # arrays: a lookup by card count
        own = chosen[sizes]
        # the same for every code: each hand of these counts at its best
        fixed = float(wm[own] @ reduce(np.maximum, [worth[c][own] for c in distinct])) \
            if groups else 0.0  # the elementwise max: np.max of the stacked rows, unstacked
        rest = ~own
        w = wm[rest]
        multi_value = {c: fixed + float(w @ worth[c][rest]) for c in distinct}
    else:
        multi_value = {c: float(wm @ worth[c]) for c in distinct}
    weight = float(met) or 1.0
    best_code, best_score = "S", (-math.inf, -math.inf, -math.inf)
    values: dict[str, float] = {}
    plain = {STAND: float(w2 @ first[STAND]), HIT: float(w2 @ first[HIT])}  # S's, H's
    for code in TOTAL_CODES:
        primary = PRIMARY[code]
        fb = STAND if FALLBACK[code] == "S" else HIT
        if primary in (STAND, HIT):  # S and H: their own fallback
            two_total = plain[primary]
        else:
            unset = _unset(shape, first, primary)
            if unset is None or unset[2]:
                if multi_of(code) == FALLBACK[code]:  # nothing in this row takes the action
                    continue
                two_total = plain[fb]
            elif unset[1]:
                two_total = float(w2 @ np.where(unset[0], first[fb], first[primary]))
            else:  # np.where would copy first[primary]: the same dot
                two_total = float(w2 @ first[primary])
        total = two_total + multi_value[multi_of(code)]
        score = (total, plain[fb], agree[multi_of(code)])
        values[code] = total / weight
        if score > best_score:
            best_code, best_score = code, score
    base = multi_of(best_code)
    qualified = {RowKey(key.kind, key.total, n): g for n, g in groups.items() if g != base}
    return best_code, qualified, values
