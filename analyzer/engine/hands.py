"""Composition-dependent EVs of standing, hitting and doubling, for every hand.

For one upcard, every player hand composition the shoe allows (hard total at
most 21) is a node; hitting moves to the node with one more card.  Each node
has its own depleted shoe, and so its own dealer distribution: all of them are
computed in one vectorised batch (:func:`analyzer.engine.dealer.outcome_matrix`),
then the hit/stand recursion runs layer by layer, from the largest hands down.

Peek conditioning is exact.  After a peek the players know the hole card does
not complete a dealer blackjack.  The hole card is one of the unseen cards, so
both the dealer's final distribution *and* every card the player draws are
conditioned on it: the chance of drawing ``c`` from unseen counts ``n``
(``N`` cards, ``b`` of them the blackjack-completing value) is::

    P(c | no BJ) = n_c (N - 1 - b + [c = b]) / ((N - 1) (N - b))

EVs here are per unit of the hand's own bet, conditioned on no dealer
blackjack where the dealer peeks (the convention of published analyzers).
The arithmetic is float (numpy float64) or exact (numpy object arrays of GMP
rationals, which the engine's results hand out as Fractions: :mod:`analyzer.core.arith`)
through the same code.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, SURRENDER
from analyzer.core.arith import fast_ratio, gmp_rational
from analyzer.core.cards import blackjack_value, comp_total, soft_total
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.core.rules import Double, Rules
from analyzer.core.ruleset import suit_bonuses
from analyzer.engine import kernel
from analyzer.engine.dealer import outcome_matrix
from analyzer.engine.strategy import beats
from analyzer.engine.suits import ThreePays, three_card_pays

# float64, or object (GMP rationals: core.arith.fast_ratio) in exact mode: numpy's stubs
# define no arithmetic on the union of the two dtypes (every operation would need a cast),
# so Any.
Array = npt.NDArray[Any]


class _SubIndex(Mapping[tuple[int, ...], int]):
    """A sub-space's node per composition, looked up through its parent's index.

    Split play builds hundreds of sub-spaces and looks up a few two-card hands in
    each: mapping through the parent costs nothing to build.
    """

    def __init__(self, parent: Mapping[tuple[int, ...], int], remap: npt.NDArray[np.int64],
                 size: int) -> None:
        self._parent, self._remap, self._size = parent, remap, size

    def __getitem__(self, key: tuple[int, ...]) -> int:
        node = int(self._remap[self._parent[key]])
        if node >= self._size:
            raise KeyError(key)
        return node

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return (key for key in self._parent if key in self)

    def __len__(self) -> int:
        return self._size


@dataclass(frozen=True, eq=False)
class HandSpace:
    """Every non-busted hand composition drawable from a shoe, and how they link."""

    comps: npt.NDArray[np.int64]  # (m, 10) cards of each value in the hand
    ncards: npt.NDArray[np.int64]  # (m,)
    total: npt.NDArray[np.int64]  # (m,) best total
    soft: npt.NDArray[np.bool_]  # (m,)
    child: npt.NDArray[np.int64]  # (m, 10) node after drawing value c+1; m: bust, m+1: outside
    layers: tuple[npt.NDArray[np.int64], ...]  # node indices by card count, largest first

    parent_index: _SubIndex | None = None  # set on sub-spaces (see sub_space)

    def __post_init__(self) -> None:
        # Read-only: a space is shared by every analysis, upcard and level of its shoe,
        # and what is computed from it is kept by its identity (charts.strategy).
        for a in (self.comps, self.ncards, self.total, self.soft, self.child, *self.layers):
            a.flags.writeable = False

    @cached_property
    def index(self) -> Mapping[tuple[int, ...], int]:
        """Node of each composition (a sub-space maps through its parent's)."""
        if self.parent_index is not None:
            return self.parent_index
        return {c: i for i, c in enumerate(self.comp_tuples)}

    @cached_property
    def comp_tuples(self) -> tuple[tuple[int, ...], ...]:
        """Each node's composition as a tuple (a chart's lookups read them by node; a
        space serves every upcard and rule set of its shoe)."""
        return tuple(tuple(c) for c in self.comps.tolist())

    @property
    def bust(self) -> int:
        """The ``child`` index of a busted hand (``bust + 1``: a hand outside the space)."""
        return len(self.comps)

    @cached_property
    def walk(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """What the compiled hand recursion reads of the space (:func:`_played`): each
        node's row of chances (its own), the nodes largest first, the bust's column."""
        m = len(self.comps)
        order = (np.concatenate(self.layers) if self.layers
                 else np.zeros(0, dtype=np.int64)).astype(np.int64)
        bust_of = np.where(self.child == m, 0, -1).astype(np.int64)
        return np.arange(m, dtype=np.int64)[None, :], order, bust_of


def hand_space(limits: tuple[int, ...]) -> HandSpace:
    """All compositions with hard total <= 21 and at most ``limits[v-1]`` cards of value v.

    No hand of 21 or less holds more than ``21 // v`` cards of value v, so the
    limits are clipped to that first: shoes of six or eight decks, less any upcard
    or split cards, then share one space instead of building it again.
    """
    return _hand_space(tuple(min(n, 21 // v) for v, n in enumerate(limits, start=1)))


_CAPS = tuple(21 // v for v in range(1, 11))  # no hand of 21 or less holds more of value v


@lru_cache(maxsize=32)
def _hand_space(limits: tuple[int, ...]) -> HandSpace:
    """The space of ``limits``: the hands of the uncapped space within them, in its order.

    Shoes run short of one value or another (a counting study samples hundreds):
    cutting the one full space down is cheaper than enumerating each, and gives
    the same nodes in the same order (both sort by card count, then composition).
    """
    if limits == _CAPS:
        return _full_space()
    full = _full_space()
    return sub_space(full, np.flatnonzero((full.comps <= np.array(limits)).all(axis=1)))


@lru_cache(maxsize=1)
def _full_space() -> HandSpace:
    limits = _CAPS
    comps: list[tuple[int, ...]] = []

    def extend(comp: list[int], start: int, hard: int) -> None:
        for v in range(start, 11):
            if hard + v > 21 or comp[v - 1] >= limits[v - 1]:
                continue
            comp[v - 1] += 1
            comps.append(tuple(comp))
            extend(comp, v, hard + v)
            comp[v - 1] -= 1

    extend([0] * 10, 1, 0)
    comps.sort(key=lambda c: (sum(c), c))
    index = {c: i for i, c in enumerate(comps)}
    arr = np.array(comps, dtype=np.int64)
    values = np.arange(1, 11)
    hard = arr @ values
    total, soft = soft_total(hard, arr[:, 0])
    m = len(comps)
    child = np.full((m, 10), m + 1, dtype=np.int64)
    for i, comp in enumerate(comps):
        h = int(hard[i])
        for v in range(1, 11):
            if h + v > 21:
                child[i, v - 1] = m
            else:
                c = list(comp)
                c[v - 1] += 1
                child[i, v - 1] = index.get(tuple(c), m + 1)
    ncards = arr.sum(axis=1)
    layers = tuple(np.flatnonzero(ncards == k) for k in range(int(ncards.max()), 0, -1))
    return HandSpace(comps=arr, ncards=ncards, total=total, soft=soft, child=child,
                     layers=layers)


@lru_cache(maxsize=4096)  # asked of every two-card hand of every analysis
def double_allowed(rule: Double, comp: tuple[int, ...]) -> bool:
    """Whether a two-card hand may double under the rule (D9: hard 9-11, D10: 10-11).

    Never a 21 (a split hand's A-T), as after hitting (:func:`later_doubles`): on a tiny
    shoe doubling it can pay, and the levels that choose a split hand's play freely
    (CDP1, CDP, optimal) would take it where the oracle and CDZ- never do.
    """
    total = comp_total(comp)[0]  # A-9 is soft 20, not 10
    if rule is Double.ANY:
        return total != 21
    return total in ((9, 10, 11) if rule is Double.NINE_TO_ELEVEN else (10, 11))


def _ratio(num: Array, den: Array, exact: bool) -> Array:
    """Elementwise ``num / den`` of integer arrays; rows with ``den == 0`` are unreachable."""
    den = np.where(den == 0, 1, den)
    if not exact:
        result: Array = num / den
        return result
    num_b, den_b = np.broadcast_arrays(num, den)
    out = np.empty(num_b.size, dtype=object)
    q = gmp_rational()
    out[:] = [q(n, d) for n, d in zip(num_b.ravel().tolist(), den_b.ravel().tolist(), strict=True)]
    return out.reshape(num_b.shape)


def draw_probabilities(shoes: npt.NDArray[np.int64], upcard: int, conditioned: bool,
                       exact: bool) -> Array:
    """``P[s, c]``: chance the next card is value ``c+1``, given no dealer BJ if conditioned."""
    shoes = np.maximum(shoes, 0)
    n = shoes.sum(axis=1)[:, None]
    b_val = blackjack_value(upcard)
    if not conditioned or b_val is None:
        return _ratio(shoes, n, exact)
    b = shoes[:, b_val - 1][:, None]
    bonus = np.zeros(10, dtype=np.int64)
    bonus[b_val - 1] = 1
    return _ratio(shoes * (n - 1 - b + bonus), (n - 1) * (n - b), exact)


def condition_outcomes(outcomes: Array, exact: bool) -> Array:
    """Dealer outcomes given that the dealer has no blackjack."""
    keep = 1 - outcomes[:, Outcome.BLACKJACK]
    safe = np.where(keep == 0, 1, keep)
    result: Array = outcomes / safe[:, None]
    result[:, Outcome.BLACKJACK] = 0
    return result


@lru_cache(maxsize=4)
def payoff_matrix(push_22: bool = False, player_21_wins: bool = False,
                  ) -> npt.NDArray[np.int64]:
    """``PAY[t, o]``: result of standing on total ``t`` (0..21) against dealer outcome ``o``.

    With ``player_21_wins`` (P21W) a 21 wins against every dealer hand but a blackjack:
    a blackjack the dealer peeked at never meets it, one nobody checked beats it.
    Shared between calls, so read-only.
    """
    pay = np.zeros((22, N_OUTCOMES), dtype=np.int64)
    for t in range(22):
        for d in range(17, 22):
            pay[t, Outcome.standing(d)] = 1 if t > d else 0 if t == d else -1
        pay[t, Outcome.BLACKJACK] = -1
        pay[t, Outcome.BUST22] = 0 if push_22 else 1
        pay[t, Outcome.BUST23] = 1
    if player_21_wins:
        pay[21, :] = 1
        pay[21, Outcome.BLACKJACK] = -1
    pay.flags.writeable = False
    return pay


def doubling_refusal(rules: Rules, what: str, *, payouts: bool = True) -> str | None:
    """Why ``what`` cannot be computed under DAN, RDn, DDR, SAH or (``payouts``) the 21
    bonuses by card count, if any is set.

    The one list of parts that play a hand by standing and hitting after its first
    decision, a double by standing, and pay a 21 1:1 (checked where each starts): the
    one-line refusal beats a figure silently computed without the rule.
    """
    paid = payouts and (card_bonus(rules) is not None or suit_bonuses(rules))
    on = [t for t, v in (("DAN", rules.double_any_cards), (f"RD{rules.redoubles}",
                                                           rules.redoubles),
                         ("DDR", rules.double_rescue), ("SAH", rules.surrender_after_hit),
                         ("21 bonuses", paid)) if v]
    if not on:
        return None
    return (f"{' and '.join(on)}: {what} is not computed with doubling after hitting, "
            "redoubling, double-down rescue, surrender after hitting or 21 bonuses (by card "
            "count or suits) yet (bja ev, bja hand, bja chart, bja distribution with its two "
            "spots, bja simulate and the split levels cdz, cdp1, cdp and optimal are)")


Bonus = tuple[Fraction, Fraction, Fraction]  # what a winning 21 of 5, 6, 7+ cards pays


def card_bonus(rules: Rules) -> Bonus | None:
    """The 21 bonuses by card count (B5C, B6C, B7C), or None where every 21 pays 1:1."""
    bonus = (rules.bonus_5, rules.bonus_6, rules.bonus_7)
    return None if all(p == 1 for p in bonus) else bonus


_THREE = ((0, 0, 0, 0, 0, 1, 1, 1, 0, 0), (0, 0, 0, 0, 0, 0, 3, 0, 0, 0))  # 6-7-8, 7-7-7


def bonus_pays(space: HandSpace, bonus: Bonus | None,
               three: ThreePays | None) -> list[tuple[int, Fraction]]:
    """The nodes whose winning 21 is paid a bonus, with what it pays per unit: five or
    more cards (``bonus``), a 6-7-8 or 7-7-7 (``three``: its pay averaged over suits)."""
    pays: list[tuple[int, Fraction]] = []
    if bonus is not None:
        pays += [(node, bonus[min(int(space.ncards[node]), 7) - 5]) for node in
                 np.flatnonzero((space.total == 21) & (space.ncards >= 5)).tolist()]
    if three is not None:  # every node of the composition: a stacked space has several
        pays += [(node, p) for key, p in zip(_THREE, three, strict=True)
                 for node in np.flatnonzero((space.comps == key).all(axis=1)).tolist()]
    return pays


def _with_bonus(space: HandSpace, stand: Array, win: Array, lose: Array, bonus: Bonus | None,
                three: ThreePays | None, exact: bool) -> Array:
    """Stand values with a winning 21 of five or more cards paid its bonus, and a winning
    6-7-8 or 7-7-7 its pay averaged over suits."""
    paid = stand.copy()
    for node, pay in bonus_pays(space, bonus, three):
        paid[node] = (pay if exact else float(pay)) * win[node] - lose[node]
    return paid


@dataclass(frozen=True)
class PlayRules:
    """The rules that shape how one hand is played and paid (from :class:`Rules`)."""

    charlie: int = 0  # N cards without busting win 1:1 (0: no Charlie)
    charlie_beats_bj: bool = False  # ... also against a dealer blackjack nobody checked
    stand_on_21: bool = False  # a hand of 21 may not hit
    push_22: bool = False  # a dealer 22 pushes standing hands
    player_21_wins: bool = False  # a non-natural 21 wins against all but a dealer blackjack
    bj_takes_all: bool = True  # an unchecked dealer blackjack takes the double too
    free_hand: bool = False  # also value hands carrying a free bet (win 1, else 0)
    double_any: Double | None = None  # DAN: hands of 3+ cards double under this rule
    rescue: bool = False  # DDR: a paid double may give up after its card, for half its stake
    redoubles: int = 0  # RDn: a paid double may double again after its card, n times
    double: Double = Double.ANY  # the totals a redouble needs (as the doubling rule)
    bonus: Bonus | None = None  # B5C/B6C/B7C: what a winning 21 of 5, 6, 7+ cards pays
    three: ThreePays | None = None  # B678/B777 (SB): a winning 6-7-8, 7-7-7's pay over suits
    three_plain: ThreePays | None = None  # ... where the Super Bonus is not paid (doubles)
    bonus_doubled: bool = True  # ... on a doubled hand too (not under BND)
    surrender_later: bool = False  # SAH: a hand of 3+ cards may surrender (unsplit hands)


    @classmethod
    def from_rules(cls, rules: Rules, upcard: int, free_hand: bool) -> PlayRules:
        """The play rules against ``upcard``: what a blackjack the dealer did not check takes.

        A peeked blackjack ends the round before anyone plays, so against a peeked
        upcard neither CHBJ nor "takes all" can apply.
        """
        unchecked = not rules.peeks_on(upcard)
        return cls(charlie=rules.charlie, rescue=rules.double_rescue,
                   redoubles=rules.redoubles, double=rules.double,
                   bonus=card_bonus(rules), bonus_doubled=not rules.bonus_not_doubled,
                   three=three_card_pays(rules, super_bonus=upcard == 7),
                   three_plain=three_card_pays(rules, super_bonus=False),
                   double_any=rules.double if rules.double_any_cards else None,
                   surrender_later=rules.surrender_after_hit and (
                       upcard != 1 or rules.surrender_vs_ace),
                   charlie_beats_bj=rules.charlie_beats_bj and unchecked,
                   stand_on_21=rules.stand_on_21, push_22=rules.push_22,
                   player_21_wins=rules.player_21_wins,
                   bj_takes_all=rules.unpeeked_bj_takes_all and unchecked, free_hand=free_hand)


@dataclass
class HandValues:
    """Per-node EVs for one upcard and one shoe (per unit bet of the hand).

    ``free_*`` are the values of a hand that carries a *free* bet (Free Bet's
    free split hand): a win pays 1, a push or a loss costs nothing.
    ``free_double`` is the free double's value: own bet at risk, the free one
    only wins.
    """

    space: HandSpace
    stand: Array
    hit: Array
    double: Array
    cont: Array  # value of a hand reached by hitting (stand, hit; DAN: double), under the policy
    hits: npt.NDArray[np.bool_]  # whether that continued play hits
    doubles: npt.NDArray[np.bool_]  # whether it doubles (DAN; never on two cards)
    gives: npt.NDArray[np.bool_]  # whether it surrenders (SAH; never on two cards)
    # per stake level (row l - 1: stake 2**l, its card just dealt) and node: a doubled hand
    # given up here (DDR: loses half the stake), doubled again (RDn)
    rescues: npt.NDArray[np.bool_]
    redoubles: npt.NDArray[np.bool_]
    forced: npt.NDArray[np.bool_]  # hands that stop: Charlie, or 21 when 21 stands
    probs: Array  # draw probabilities per node
    outcomes: Array  # dealer outcomes per node (conditioned where the dealer peeked)
    win: Array  # P(the hand wins, standing), per node
    lose: Array  # P(the hand loses, standing), per node
    free_stand: Array | None = None
    free_hit: Array | None = None
    free_cont: Array | None = None
    # what a doubled hand stands for per unit of its stake (BND: no bonus; no Super Bonus)
    stand_doubled: Array | None = None

    @cached_property
    def free_double(self) -> Array:
        """The free double's value (computed when asked: only free-double games need it)."""
        tail = np.array([-1, 0], dtype=self.stand.dtype)
        stand_win = np.concatenate([2 * self.win - self.lose, tail])
        result: Array = (self.probs * stand_win[self.space.child]).sum(axis=1)
        return result


def _win_lose(outcomes: Array, total: npt.NDArray[np.int64], play: PlayRules,
              exact: bool) -> tuple[Array, Array]:
    """P(win) and P(loss) of standing, per node.

    Exact mode adds only the outcomes that count (grouped by the hand's total)
    instead of multiplying all ten by 0 or 1: a third of the exact arithmetic
    of a whole analysis, the same fractions.  In floats a sum is at most 1: where every
    outcome beats the hand, a row conditioned on no dealer blackjack can add up to a
    few units past 1 in the last place, which would value standing below -1.
    """
    pay = payoff_matrix(play.push_22, play.player_21_wins)
    if not exact:
        rows = pay[total]
        return (np.minimum((outcomes * (rows == 1)).sum(axis=1), 1.0),
                np.minimum((outcomes * (rows == -1)).sum(axis=1), 1.0))
    win = np.empty(len(total), dtype=object)
    lose = np.empty(len(total), dtype=object)
    for t in np.unique(total).tolist():
        nodes = np.flatnonzero(total == t)
        part = outcomes[nodes]
        win[nodes] = part[:, np.flatnonzero(pay[t] == 1)].sum(axis=1)
        lose[nodes] = part[:, np.flatnonzero(pay[t] == -1)].sum(axis=1)
    return win, lose


def forced_nodes(space: HandSpace, play: PlayRules) -> npt.NDArray[np.bool_]:
    """Hands with no decision left: a Charlie, or 21 where 21 stands."""
    forced = np.zeros(len(space.comps), dtype=bool)
    if play.charlie:
        forced |= space.ncards >= play.charlie
    if play.stand_on_21:
        forced |= space.total == 21
    return forced


def later_doubles(space: HandSpace, rule: Double | None) -> npt.NDArray[np.bool_]:
    """Nodes of three or more cards that may double, by DAN or as a redouble (``rule``: the
    totals the doubling rule allows; None: none).

    A 21 is never doubled (nothing to gain but a Charlie), as the oracle reads it.
    """
    if rule is None:
        return np.zeros(len(space.comps), dtype=bool)
    allowed = (space.ncards >= 3) & (space.total < 21)
    if rule is not Double.ANY:  # the best total, as on two cards (A-9-... is soft)
        low = 9 if rule is Double.NINE_TO_ELEVEN else 10
        allowed &= (space.total >= low) & (space.total <= 11)
    result: npt.NDArray[np.bool_] = allowed
    return result


def _recurse(space: HandSpace, probs: Array, stand: Array, forced: npt.NDArray[np.bool_],
             bust: int, dtype: Any, policy: Array | None, double: Array | None = None,
             may_double: npt.NDArray[np.bool_] | None = None,
             may_give: npt.NDArray[np.bool_] | None = None,
             ) -> tuple[Array, Array, Array, Array, Array]:
    """Hit and continuation values, largest hands first: ``(hit, cont, hits, doubles,
    gives)``.

    With ``double`` and ``may_double`` (DAN) a hand reached by hitting may also double:
    without a policy only where that beats both standing and hitting (ties: stand, then
    hit), with one where the policy says ``DOUBLE``.  With ``may_give`` (SAH) it may
    surrender for half its bet: without a policy where that beats every other play, with
    one where the policy says ``SURRENDER``.
    """
    if (policy is not None and dtype is not object
            and (may_double is None or double is None or not may_double.any())
            and (may_give is None or not may_give.any())):
        return _played(space, probs, stand, forced, bust, policy)
    m = len(space.comps)
    cont = np.zeros(m + 2, dtype=dtype)
    cont[m] = bust
    hit = np.zeros(m, dtype=dtype)
    hits = np.zeros(m, dtype=bool)
    doubles = np.zeros(m, dtype=bool)
    gives = np.zeros(m, dtype=bool)
    hit_code = int(HIT)  # a plain int: numpy probes an IntEnum for array protocols each time
    double_code = int(DOUBLE)
    give_code = int(SURRENDER)
    half: Any = fast_ratio(-1, 2) if dtype is object else -0.5  # an object or float scalar
    for layer in space.layers:
        h = (probs[layer] * cont[space.child[layer]]).sum(axis=1)
        hit[layer] = h
        s = stand[layer]
        go = beats(h, s) if policy is None else (policy[layer] == hit_code)
        go = go & ~forced[layer]
        if may_double is not None and double is not None and may_double[layer].any():
            d = double[layer]
            dgo = may_double[layer] & ~forced[layer] & (
                beats(d, np.where(go, h, s)) if policy is None
                else (policy[layer] == double_code))
            go &= ~dgo
            doubles[layer] = dgo
            cont[layer] = np.where(dgo, d, np.where(go, h, s))
        else:
            cont[layer] = np.where(go, h, s)
        if may_give is not None and may_give[layer].any():
            ggo = may_give[layer] & ~forced[layer] & (
                beats(half, cont[layer]) if policy is None else (policy[layer] == give_code))
            cont[layer] = np.where(ggo, half, cont[layer])
            go &= ~ggo
            doubles[layer] &= ~ggo
            gives[layer] = ggo
        hits[layer] = go
    return hit, cont[:m], hits, doubles, gives


def _played(space: HandSpace, probs: Array, stand: Array, forced: npt.NDArray[np.bool_],
            bust: int, policy: Array) -> tuple[Array, Array, Array, Array, Array]:
    """:func:`_recurse` of a policy that only stands and hits, in floats, compiled.

    Every split hand under CDZ- is played so (and a chart's or a frozen strategy's
    hands where they neither double nor surrender after hitting): one call per hand
    space instead of numpy's few operations per layer.  The kernel adds a hit's ten
    terms in numpy's order (:func:`analyzer.engine.kernel.best_play`): the same bits.
    """
    m = len(space.comps)
    at, order, bust_of = space.walk
    hits = (policy == int(HIT)) & ~forced
    hit, cont = np.empty((1, m)), np.empty((1, m))
    kernel.best_play(at, np.ascontiguousarray(probs, dtype=np.float64),
                     np.ascontiguousarray(stand, dtype=np.float64)[None, :],
                     np.full((1, 1), float(bust)), space.child, bust_of, order,
                     np.where(hits, kernel.PLAY_HIT, kernel.PLAY_STAND).astype(np.int64),
                     hit, cont)
    no = np.zeros(m, dtype=bool)
    return hit[0], cont[0], hits, no, no.copy()


def _doubled(space: HandSpace, stand: Array, forced: npt.NDArray[np.bool_], probs: Array,
             outcomes: Array, conditioned: bool, play: PlayRules,
             rescue_policy: npt.NDArray[np.bool_] | None,
             redouble_policy: npt.NDArray[np.bool_] | None,
             dtype: Any) -> tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """What a paid double's hand is worth once its card is dealt (per node, then the bust
    and outside indices), and per stake level where it is given up (DDR) or doubled
    again (RDn): ``(after, rescues, redoubles)``.

    Level ``l`` (1 to ``play.redoubles + 1``) is a hand at stake ``2**l`` its card just
    dealt: it stands (``2**l`` times the stand value), doubles again while levels remain
    (one more card, stake ``2**(l + 1)``: computed from the level above, so the levels
    run from the highest down) or gives up half the stake (DDR: the original bet after
    one double); without a policy the best of these (ties: stand, then redouble, then
    rescue), with one where ``rescue_policy[l - 1]`` and ``redouble_policy[l - 1]`` say.
    A bust loses the stake.  Where a dealer blackjack takes only the original bet and
    the values are unconditioned (the split hands of a peek game, OBO), each option
    carries it once, ``-q``: a stake ``S`` stands for ``S stand + (S - 1) q``, a rescue for
    ``-S/2 + (S/2 - 1) q``, and comparing them compares the conditioned values.
    Summed over the card, a bust has no node and so no ``q`` of its own: each child is
    entered less ``(S - 1) q`` of its own, the bust as ``-S``, and the parent adds
    ``(S - 1) q`` of its own (the children's ``q`` average to the parent's), which puts
    the bust's ``(S - 1) q`` back.
    """
    m = len(stand)
    adj = outcomes[:, Outcome.BLACKJACK] if not conditioned and not play.bj_takes_all \
        else 0 * stand
    levels = play.redoubles + 1
    rescues = np.zeros((levels, m), dtype=bool)
    redoubles = np.zeros((levels, m), dtype=bool)
    may = later_doubles(space, play.double) & ~forced if play.redoubles else None
    after = np.zeros(0, dtype=dtype)
    for level in range(levels, 0, -1):
        stake = 2 ** level
        vals = stake * stand + (stake - 1) * adj
        if may is not None and level < levels:
            again = (probs * after[space.child]).sum(axis=1) + (2 * stake - 1) * adj
            go = may & (beats(again, vals) if redouble_policy is None
                        else redouble_policy[level - 1])
            vals = np.where(go, again, vals)
            redoubles[level - 1] = go
        if play.rescue:
            # half the stake (the original bet after one double), carrying the blackjack once
            rescue = -(stake // 2) + (stake // 2 - 1) * adj
            give = beats(rescue, vals) if rescue_policy is None else rescue_policy[level - 1]
            vals = np.where(give, rescue, vals)
            rescues[level - 1] = give
            redoubles[level - 1] &= ~give
        after = np.concatenate([vals - (stake - 1) * adj, np.array([-stake, 0], dtype=dtype)])
    return after, rescues, redoubles


def evaluate(space: HandSpace, base: tuple[int, ...], upcard: int, *, hits_soft_17: bool,
             conditioned: bool, exact: bool, policy: Array | None = None,
             play: PlayRules = PlayRules(), free_policy: Array | None = None,
             outcomes: Array | None = None,
             shoes: npt.NDArray[np.int64] | None = None,
             rescue_policy: npt.NDArray[np.bool_] | None = None,
             redouble_policy: npt.NDArray[np.bool_] | None = None) -> HandValues:
    """Stand, hit and double EVs of every node of ``space``, shoe ``base`` minus the hand.

    Without ``policy`` continued play is optimal (stand or hit, whichever is
    better).  With ``policy`` (a per-node ``STAND``/``HIT`` array) the hit value
    is that of following the policy afterwards: how a fixed strategy, such as
    the pre-split strategy on split hands, is evaluated in another shoe.
    Unconditioned, a dealer blackjack loses the hand's bet (both halves of a
    double when ``play.bj_takes_all``).  ``outcomes`` may give the nodes' unconditioned
    dealer outcomes, already computed (shared between shoes that coincide), and
    ``shoes`` each node's shoe where it is not ``base`` less the hand (the levels
    of a split evaluated together, :func:`analyzer.engine.postsplit.stacked`).
    With a ``policy`` (which may say ``DOUBLE`` on hands of three or more cards under
    DAN), ``rescue_policy`` and ``redouble_policy`` say where a doubled hand gives up
    (DDR) and doubles again (RDn), per stake level (None: where that is better in this
    shoe).
    """
    if shoes is None:
        shoes = np.array(base, dtype=np.int64)[None, :] - space.comps
    if outcomes is None:
        outcomes = outcome_matrix(upcard, hits_soft_17, np.maximum(shoes, 0), exact)
    if conditioned:
        outcomes = condition_outcomes(outcomes, exact)
    win, lose = _win_lose(outcomes, space.total, play, exact)
    stand = win - lose
    plain = stand  # a 21 paid 1:1 (a doubled hand under BND)
    paid = play.bonus is not None or play.three is not None
    if paid:
        stand = _with_bonus(space, stand, win, lose, play.bonus, play.three, exact)
    dtype = object if exact else np.float64
    forced = np.zeros(len(space.comps), dtype=bool)
    charlie = np.zeros(len(space.comps), dtype=bool)
    if play.charlie:
        charlie = space.ncards >= play.charlie
        bj = outcomes[:, Outcome.BLACKJACK]
        stand = np.where(charlie, 1 - (0 if play.charlie_beats_bj else 2) * bj, stand)
        forced |= charlie
    if play.stand_on_21:
        forced |= space.total == 21
    probs = draw_probabilities(shoes, upcard, conditioned, exact)
    # what a doubled hand stands for, per unit of its stake (no Charlie goes with a bonus)
    if paid and not play.bonus_doubled:
        doubled = plain
    elif play.three != play.three_plain:  # the Super Bonus: not on a doubled hand
        doubled = _with_bonus(space, plain, win, lose, play.bonus, play.three_plain, exact)
    else:
        doubled = stand
    if play.rescue or play.redoubles:
        after, rescues, redoubles = _doubled(space, doubled, forced, probs, outcomes,
                                             conditioned, play, rescue_policy, redouble_policy,
                                             dtype)
        double = (probs * after[space.child]).sum(axis=1)
    else:
        tail = np.array([-1, 0], dtype=dtype)
        double = 2 * (probs * np.concatenate([doubled, tail])[space.child]).sum(axis=1)
        rescues = redoubles = np.zeros((1, len(space.comps)), dtype=bool)
    if not conditioned and not play.bj_takes_all:
        # A dealer blackjack takes the original bet only.
        double = double + outcomes[:, Outcome.BLACKJACK]
    may = later_doubles(space, play.double_any) if play.double_any is not None else None
    give = space.ncards >= 3 if play.surrender_later else None
    hit, cont, hits, doubles, gives = _recurse(space, probs, stand, forced, -1, dtype, policy,
                                               double, may, give)
    values = HandValues(space=space, stand=stand, hit=hit, double=double, cont=cont, hits=hits,
                        doubles=doubles, gives=gives, rescues=rescues, redoubles=redoubles,
                        forced=forced, probs=probs,
                        outcomes=outcomes, win=win, lose=lose, stand_doubled=doubled)
    if play.free_hand:
        bj = outcomes[:, Outcome.BLACKJACK]
        fstand = np.where(charlie, 1 - (0 if play.charlie_beats_bj else 1) * bj, win)
        fhit, fcont, _, _, _ = _recurse(space, probs, fstand, forced, 0, dtype, free_policy)
        values.free_stand, values.free_hit, values.free_cont = fstand, fhit, fcont
    return values


def sub_space(space: HandSpace, nodes: Sequence[int] | npt.NDArray[np.int64]) -> HandSpace:
    """The part of ``space`` made of ``nodes`` (children outside it point past the bust index)."""
    keep = np.asarray(nodes, dtype=np.int64)
    if len(keep) > 1 and not (keep[1:] > keep[:-1]).all():
        keep = np.unique(keep)
    k = len(keep)
    remap = np.full(space.bust + 2, k + 1, dtype=np.int64)
    remap[keep] = np.arange(k)
    remap[space.bust] = k
    comps = space.comps[keep]
    ncards = space.ncards[keep]
    steps = np.diff(ncards)
    if (steps >= 0).all():  # nodes in order of size (as every space is built): runs
        bounds = [0, *(np.flatnonzero(steps) + 1).tolist(), k] if k else [0]
        layers = tuple(np.arange(lo, hi) for lo, hi in
                       zip(bounds[-2::-1], bounds[:0:-1], strict=True))
    else:
        layers = tuple(np.flatnonzero(ncards == n) for n in np.unique(ncards)[::-1].tolist())
    return HandSpace(comps=comps, ncards=ncards, total=space.total[keep], soft=space.soft[keep],
                     child=remap[space.child[keep]], layers=layers,
                     parent_index=_SubIndex(space.index, remap, k))
