"""Optimal splitting: every decision of a split round uses every card seen in the round.

The player knows the upcard, both pair cards, every card of every split hand
played so far, his current hand and (after a peek) that the dealer has no
blackjack; each decision (stand, hit, double, resplit or not) maximises the EV
of the whole round.  This is the "speed of light" of pair splitting in Eric
Farmer's sense ("Optimal strategy maximizing expected value for splitting
pairs", possiblywrong.wordpress.com, December 2024, and his brute force
``src/pdf/blackjack_split.h``), computed here by a much smaller recursion.

Why the round decomposes
------------------------
Cards are dealt from a randomly ordered shoe; the dealer's cards are the hole
card and the cards after the player's last one.  Whatever the player's
(non-anticipating) play, the cards after it are distributed like a fresh deal
from the unseen cards, so the expected payoff of a *finished* hand, given
everything seen so far, is a martingale: later hands cannot change it on
average, only the player's information.  Hence, with ``K`` the cards dealt so
far (pair cards included) and ``k`` one-card hands still to play, ``r``
resplits left::

    Phi(K, 0, r) = 0
    Phi(K, k, r) = sum_x P(x | K) max( [x = pair, r > 0] Phi(K + x, k + 1, r - 1),
                                       best play of the hand (pair, x) )

where a hand finishing with cards ``c`` is worth its own expected payoff
*given the cards seen at that moment* (the usual stand/bust/double value from
the shoe ``B - K - c``) plus ``Phi(K + c, k - 1, r)``.  The split's EV is
``Phi(pair pair, 2, max_hands - 2)``.  Hand values are conditioned on no dealer
blackjack where the dealer peeked (the player knows it), unconditioned
otherwise; under ``OBO`` each new paid hand gets back the blackjack's chance
(by the same martingale), as the round loses only the original bet to it.

The Spanish 21 rules
--------------------
A hand's options widen but the decomposition holds: each option is the hand's own
payoff given the cards seen when it stops, plus ``Phi`` of the cards then seen.  With
DAS a hand doubles on two cards and, under DAN, after hitting (a double is one more
card, then the doubled hand's choice); once a paid double's card is dealt it stands,
doubles again (RDn) or is given up for half its stake (DDR), each weighed with the round
after it.  A winning 21 is paid its card-count bonus (not under BNS; a doubled hand not
under BND) and a 6-7-8 or 7-7-7 its pay averaged over the suits: the play follows the
ranks of the round's cards, not their suits.  No surrender after hitting (a split hand
may not), no Super Bonus (not on a split hand).

Cost and limits
---------------
``Phi`` is needed for every distinct set of cards the finished hands can hold:
for one split, every final composition of the first hand (non-busted or
busted, about 10^4 for a pair of 2s), each needing the second hand's full
recursion (its dealer outcomes keyed by all the cards dealt).  With resplits
the sets multiply with each hand; they are bounded by the shoe, so small shoes
stay feasible.  :func:`check_feasible` refuses (with the reason) rather than
approximate: resplits only with at most ``MAX_RESPLIT_CARDS`` cards.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.arith import Number, quotient
from analyzer.core.cards import blackjack_value, format_value
from analyzer.core.errors import ImpossibleError, ImpossibleHandError
from analyzer.core.outcomes import Outcome
from analyzer.core.rules import Rules
from analyzer.engine import kernel as _dealer  # the compiled loops: C, or numba without it
from analyzer.engine.dealer import KEY_BASE, KEY_LIMIT, OutcomeCache, outcome_matrix
from analyzer.engine.hands import (
    HandSpace,
    PlayRules,
    bonus_pays,
    condition_outcomes,
    double_allowed,
    draw_probabilities,
    forced_nodes,
    hand_space,
    later_doubles,
    payoff_matrix,
    sub_space,
)
from analyzer.engine.postsplit import split_hand_space
from analyzer.engine.splits import SplitPlan
from analyzer.util.memo import Memo, pickled

# float64, or object (Fractions) in exact mode: numpy's stubs define no arithmetic on
# the union of the two dtypes (every operation would need a cast), so Any.
Array = npt.NDArray[Any]
# Resplits: shoes of at most one deck's worth of cards.  The card sets of three and four
# hands multiply with the shoe: a pair of 2s against a 6 with four hands needs about a
# million dealer shoes on one deck, four million on 65 cards (minutes a case) and, on two
# decks, more than the budget below (hours).  So larger shoes are refused before any work.
MAX_RESPLIT_CARDS = 52
# Dealer shoes one pair against one upcard may hold (about 400 bytes each with their
# figures: 6.4 GB, two workers within a 24 GB machine): the backstop on a shoe within the
# card limit whose composition needs more (many low cards).  One split needs under half a
# million at any deck count.
MAX_DEALER_ROWS = 16_000_000
MAX_EXACT_ROWS = 2_000_000  # exact: each row's figures are GMP rationals, kilobytes a row
CHUNK = 256  # card sets evaluated together (memory: a few CHUNK x nodes arrays)


class SplitInfeasible(ImpossibleError):
    """Optimal splitting cannot be computed exactly within the limits for this case."""


def refusal(rules: Rules, cards: int) -> str | None:
    """Why optimal splitting cannot be computed exactly for these rules and shoe size, if so."""
    resplits = rules.max_hands > 2 and not rules.free_splits
    if resplits and rules.split_by_rank:  # at any size: the more basic reason first
        return ("optimal splitting with resplits under split-by-rank (SPR) would need card "
                "memory by rank (which ten ranks are gone), not modelled")
    if resplits and cards > MAX_RESPLIT_CARDS:
        return _too_many_cards(cards, "SPL1 works at any deck count")
    return None


def check_feasible(plan: SplitPlan, base: tuple[int, ...]) -> None:
    """Refuse resplits on shoes too large to enumerate (the reason in the message)."""
    if plan.max_hands > 2 and sum(base) + 1 > MAX_RESPLIT_CARDS:
        raise SplitInfeasible(_too_many_cards(sum(base) + 1, "use SPL1"))


def _too_many_cards(cards: int, instead: str) -> str:
    return (f"optimal splitting with resplits is computed for shoes of at most "
            f"{MAX_RESPLIT_CARDS} cards (1 deck); this shoe has {cards}: the card sets of "
            f"three and four hands multiply beyond time and memory ({instead})")


@dataclass(frozen=True)
class _Nodes:
    """The split hands' nodes, with their busting children listed once, and where the
    Spanish 21 rules reach them."""

    space: HandSpace
    bust_node: npt.NDArray[np.int64]  # (b,) node that busts ...
    bust_card: npt.NDArray[np.int64]  # (b,) ... drawing this value (0-based)
    bust_of: npt.NDArray[np.int64]  # (m, 10) index into the busts, or -1
    order: npt.NDArray[np.int64]  # (m,) the nodes, largest hands first (children first)
    forced: npt.NDArray[np.bool_]  # (m,) no decision left: a Charlie, or 21 where 21 stands
    pays: tuple[tuple[int, Fraction], ...]  # a winning 21's bonus (B5C..., B678, B777)
    later: npt.NDArray[np.int64]  # nodes of 3+ cards that double (DAN with DAS)
    again: npt.NDArray[np.int64]  # nodes a doubled hand doubles again at (RDn)
    doubles: npt.NDArray[np.int64]  # nodes whose double is valued: two cards, and ``later``


def _nodes(space: HandSpace, play: PlayRules) -> _Nodes:
    where = np.argwhere(space.child == space.bust)
    bust_of = np.full(space.child.shape, -1, dtype=np.int64)
    bust_of[where[:, 0], where[:, 1]] = np.arange(len(where))
    order = np.concatenate(space.layers) if space.layers else np.zeros(0, dtype=np.int64)
    forced = forced_nodes(space, play)
    later = np.flatnonzero(later_doubles(space, play.double_any) & ~forced)
    again = (np.flatnonzero(later_doubles(space, play.double) & ~forced) if play.redoubles
             else np.zeros(0, dtype=np.int64))
    return _Nodes(space=space, bust_node=where[:, 0], bust_card=where[:, 1], bust_of=bust_of,
                  order=order.astype(np.int64), forced=forced,
                  pays=tuple(bonus_pays(space, play.bonus, play.three)),
                  later=later, again=again,
                  doubles=np.union1d(np.flatnonzero(space.ncards == 2), later))


@dataclass(frozen=True)
class _RowFigures:
    """Per row of the dealer cache: ``win`` and ``net`` (win less loss) per column of
    payoffs (rows x columns), ``bj``, ``probs`` (rows x 10), with room past ``size``
    (grown fourfold, as the cache grows)."""

    win: Array
    net: Array
    bj: Array
    probs: Array
    size: int

    @classmethod
    def empty(cls, totals: int, dtype: type) -> _RowFigures:
        return cls(win=np.zeros((0, totals), dtype=dtype), net=np.zeros((0, totals), dtype=dtype),
                   bj=np.zeros(0, dtype=dtype), probs=np.zeros((0, 10), dtype=dtype), size=0)

    def extended(self, more: _RowFigures) -> _RowFigures:
        """These rows followed by ``more``'s."""
        size = self.size + more.size
        room = len(self.bj)
        if size <= room:
            grown = self
        else:
            room = max(size, 4 * room)  # unwritten room costs no memory (np.empty)
            grown = _RowFigures(win=_moved(self.win, self.size, room),
                                net=_moved(self.net, self.size, room),
                                bj=_moved(self.bj, self.size, room),
                                probs=_moved(self.probs, self.size, room), size=self.size)
        for mine, theirs in zip((grown.win, grown.net, grown.bj, grown.probs),
                                (more.win, more.net, more.bj, more.probs), strict=True):
            mine[self.size:size] = theirs
        return replace(grown, size=size)


def _moved(a: Array, size: int, room: int) -> Array:
    """``a``'s first ``size`` rows in an array of ``room`` rows (the rest unwritten)."""
    out = np.empty((room, *a.shape[1:]), dtype=a.dtype)
    out[:size] = a[:size]
    return out


def optimal_split_value(base: tuple[int, ...], upcard: int, plan: SplitPlan, *,
                        hits_soft_17: bool, conditioned: bool, exact: bool,
                        memo: bool = False) -> Number:
    """:meth:`OptimalSplit.value`, kept in the on-disk memo (:mod:`analyzer.util.memo`)
    when ``memo``.

    The key is what the recursion reads -- the shoe, the upcard, the split's rules
    (:class:`~analyzer.engine.splits.SplitPlan`), the dealer's soft 17 and the peek --
    so rule sets that differ only where a split hand never goes (a blackjack's payout,
    surrender, insurance) share each pair's figure: the build's one-deck 3:2 and 6:5
    games compute it once.
    """
    def compute() -> Number:
        return OptimalSplit(base, upcard, plan, hits_soft_17=hits_soft_17,
                            conditioned=conditioned, exact=exact).value()

    if not memo:
        return compute()
    kind: type = numbers.Rational if exact else float  # a GMP rational in exact mode
    store: Memo[Number] = Memo("optimal-split", pickled(kind), enabled=True)
    key = (tuple(base), upcard, plan, hits_soft_17, conditioned, exact)
    return store.get_or_compute(key, compute)


class OptimalSplit:
    """The optimal EV of splitting one pair against one upcard (see the module notes).

    ``base`` is the shoe less the upcard; ``conditioned``: the dealer peeked with
    this upcard, so the player knows he has no blackjack.
    """

    def __init__(self, base: tuple[int, ...], upcard: int, plan: SplitPlan, *,
                 hits_soft_17: bool, conditioned: bool, exact: bool) -> None:
        check_feasible(plan, base)
        self.base = np.array(base, dtype=np.int64)
        self.upcard, self.plan, self.exact = upcard, plan, exact
        self.hits_soft_17, self.conditioned = hits_soft_17, conditioned
        space, _ = split_hand_space(hand_space(base), plan.pair)
        if plan.one_card:  # split aces take one card each: only two-card hands are played
            space = sub_space(space, np.flatnonzero(space.ncards == 2))
        self.space = space
        self._subsets: dict[bytes, _Nodes] = {}
        self.pay = payoff_matrix(plan.play.push_22, plan.play.player_21_wins)
        self.dtype = object if exact else np.float64
        self._memo: dict[tuple[int, int, int], Number] = {}
        self._constants: dict[tuple[tuple[int, int], int], Array] = {}
        self._limit = MAX_EXACT_ROWS if exact else MAX_DEALER_ROWS
        # Every hand of every set needs the dealer in its own shoe; sets share many.  Its
        # own cache, not the analyses' shared ones: a case can fill millions of rows.
        self._dealer = OutcomeCache(base, upcard, hits_soft_17=hits_soft_17, exact=exact)
        # What a hand needs of the dealer's row, derived once per row of the cache (a row
        # serves dozens of (set, node) pairs): win and loss chances by the hand's total,
        # the blackjack's, the next card's.  Totals paid alike (every total below 17, say)
        # share a column: the same sums, computed once per row.
        totals = np.unique(space.total)
        pays, column = np.unique(self.pay[totals], axis=0, return_inverse=True)
        self._column = np.zeros(int(totals.max()) + 1 if len(totals) else 1, dtype=np.int64)
        self._column[totals] = column.ravel()
        self._win_pay = (pays == 1)[None]  # (1, columns, outcomes)
        self._lose_pay = (pays == -1)[None]
        self._rows = _RowFigures.empty(len(pays), self.dtype)
        bj = blackjack_value(upcard)
        self._obo = (bj is not None and not conditioned and not plan.play.bj_takes_all)

    # -- public ---------------------------------------------------------------
    def value(self) -> Number:
        """EV of the split, conditioned on no dealer blackjack where the dealer peeked."""
        p = self.plan.pair
        if self.base[p - 1] < 2:
            raise ImpossibleHandError(f"a pair of {p} cannot be split from this shoe")
        start = np.zeros((1, 10), dtype=np.int64)
        start[0, p - 1] = 2
        resplits = 0 if self.plan.free else self.plan.max_hands - 2
        bonus = 0 if self.plan.free else self._bj_chance(start)[0]
        value: Number = self._phi(start, 2, resplits)[0] + bonus
        return value

    # -- the recursion ------------------------------------------------------------
    def _phi(self, sets: npt.NDArray[np.int64], k: int, r: int) -> Array:
        """``Phi`` for each row of ``sets`` (cards dealt), ``k`` hands to play, ``r`` resplits."""
        if k == 0:
            return np.zeros(len(sets), dtype=self.dtype)
        possible = (sets <= self.base[None, :]).all(axis=1)
        if not possible.all():
            # A set holding more of a value than the shoe (a hand busting on a card its
            # shoe lacks) is reached with chance 0: valued 0, not played out.
            out = np.zeros(len(sets), dtype=self.dtype)
            if possible.any():
                out[possible] = self._phi(sets[possible], k, r)
            return out
        # Each distinct set once (counts below 64, as the cache's keys), in key order.
        keys, first, inverse = np.unique(sets @ KEY_BASE, return_index=True,
                                         return_inverse=True)
        distinct = keys.tolist()
        todo = [i for i, key in enumerate(distinct) if (key, k, r) not in self._memo]
        if todo:
            rows = sets[first[todo]]
            chunk = 1 if self.exact else CHUNK  # exact: each set on its own few nodes
            for lo in range(0, len(todo), chunk):
                values = self._hands(rows[lo:lo + chunk], k, r)
                for i, v in zip(todo[lo:lo + chunk], values.tolist(), strict=True):
                    self._memo[(distinct[i], k, r)] = v
        out = np.empty(len(distinct), dtype=self.dtype)
        out[:] = [self._memo[(key, k, r)] for key in distinct]
        return out[inverse.ravel()]

    def _hands(self, sets: npt.NDArray[np.int64], k: int, r: int) -> Array:
        """Play the next hand from each row of ``sets``; the rest follows through ``Phi``."""
        p, plan = self.plan.pair, self.plan
        nd = self._feasible(sets)
        space = nd.space
        m, n = len(space.comps), len(sets)
        if m == 0:  # no second card left to draw: a shoe this small has no such round
            return np.zeros(n, dtype=self.dtype)
        drawn = space.comps.copy()
        drawn[:, p - 1] -= 1  # the hand's pair card is already among the cards dealt
        # A node a set cannot reach (more of a value than its shoe holds: the nodes serve
        # a chunk of sets at once) is weighed by chance 0.  It needs no dealer of its own
        # and no round after it: it reads its set's row, and the round after it is 0.
        room = self.base[None, :] - sets
        reach = np.ones((n, m), dtype=bool)
        for v in range(10):
            reach &= drawn[None, :, v] <= room[:, None, v]
        cells, rows = self._figures(sets, drawn, reach)  # (n, m): each set and node's row
        column = self._column[space.total][None, :]
        free = plan.free and k == 1  # Free Bet: the last hand carries the free bet
        paid = (rows.win if free else rows.net)[cells, column]  # a free hand loses nothing
        bj = rows.bj[cells] if plan.play.charlie or self._obo else None
        stand = self._stand(nd, paid, bj, free)
        stand_doubled = stand  # what a doubled hand stands for, per unit of its stake
        if nd.pays and not free:  # a winning 21's bonus: pay x win - loss
            bonus = paid.copy()
            for node, pay in nd.pays:  # the win chance gathered at these few nodes only
                win = rows.win[cells[:, node], column[0, node]]
                bonus[:, node] += ((pay if self.exact else float(pay)) - 1) * win
            stand = self._stand(nd, bonus, bj, free)
            if plan.play.bonus_doubled:  # not under BND
                stand_doubled = stand
        loss = 0 if free else -1
        rest: Array | None = None  # (n, m) Phi after the hand stops at a node
        bust_rest: Array | None = None  # (n, b) Phi after it busts there
        if k == 1:  # the last hand: nothing follows (Phi(., 0, .) = 0), so no sets to list
            played = stand  # a hand's value with what follows it
            busted = self._filled((n, len(nd.bust_node)), loss)
        else:
            rest = self._continuation(sets, drawn, reach, k, r)
            bust_rest = self._continuation(sets, drawn[nd.bust_node] +
                                           np.eye(10, dtype=np.int64)[nd.bust_card],
                                           reach[:, nd.bust_node], k, r)
            played = stand + rest
            busted = loss + bust_rest  # (n, b): a hand busting here, then the rest
        double = None
        if not free:  # a free hand never doubles
            double = self._double(nd, cells, rows, stand_doubled, rest, bust_rest, bj)
            if len(nd.later):  # DAN: a hand reached by hitting may double instead of standing
                at = nd.later
                played = played.copy()
                played[:, at] = np.where(double[:, at] > played[:, at], double[:, at],
                                         played[:, at])
        forced = nd.forced
        if not self.exact:  # the same loop compiled: no (sets x layer x 10) temporaries
            cont = np.empty((n, m))  # every node written
            plays = np.where(forced, _dealer.PLAY_STAND, _dealer.PLAY_BEST).astype(np.int64)
            _dealer.best_play(cells, rows.probs, np.ascontiguousarray(played, dtype=np.float64),
                              np.ascontiguousarray(busted, dtype=np.float64), space.child,
                              nd.bust_of, nd.order, plays, np.empty((n, m)), cont)
            return self._starts(nd, sets, played, double, cont, k, r)
        cont = np.zeros((n, m), dtype=self.dtype)
        probs = rows.probs[cells]  # (n, m, 10)
        for layer in space.layers:
            h = (probs[:, layer] * self._child_values(nd, cont, busted, layer)).sum(axis=2)
            s = played[:, layer]
            go = (h > s) & ~forced[layer][None, :]
            cont[:, layer] = np.where(go, h, s)
        return self._starts(nd, sets, played, double, cont, k, r)

    def _double(self, nd: _Nodes, cells: npt.NDArray[np.int64], rows: _RowFigures,
                stand: Array, rest: Array | None, bust_rest: Array | None,
                bj: Array | None) -> Array:
        """``(n, m)``: a double at each node of ``nd.doubles`` (the others 0, unread).

        Its card dealt, the hand stands, doubles again (RDn: one more card, the stake
        doubled) or is given up for half its stake (DDR), whichever is best for the whole
        round: each option is worth the hand's own payoff plus ``rest``, the round after
        it.  Level ``l`` is stake ``2**l``, from the most redoubled down, as
        :func:`analyzer.engine.hands._doubled` values one hand.  Where a blackjack nobody
        checked takes the original bet only (OBO), each stake carries its chance once:
        a stake ``S`` stands for ``S stand + (S - 1) bj`` (the same correction as there).
        """
        play = self.plan.play
        n, m = cells.shape
        adj = bj if self._obo else None
        after: Array | None = None  # each node's value at the level above, less its bj part
        bust_after: Array | None = None
        for level in range(play.redoubles + 1, 0, -1):
            stake = 2 ** level
            vals = stake * stand if rest is None else stake * stand + rest
            if adj is not None:
                vals = vals + (stake - 1) * adj
            if after is not None and bust_after is not None and len(nd.again):
                at = nd.again
                again = self._expected(nd, cells, rows, after, bust_after, at)
                if adj is not None:
                    again = again + (2 * stake - 1) * adj[:, at]
                vals[:, at] = np.where(again > vals[:, at], again, vals[:, at])
            if play.rescue:  # half the stake: the original bet after one double
                give = -(stake // 2) if rest is None else -(stake // 2) + rest
                if adj is not None:
                    give = give + (stake // 2 - 1) * adj
                vals = np.where(give > vals, give, vals)
            after = vals if adj is None else vals - (stake - 1) * adj
            bust_after = (self._filled((n, len(nd.bust_node)), -stake) if bust_rest is None
                          else bust_rest - stake)
        assert after is not None and bust_after is not None
        double = np.zeros((n, m), dtype=self.dtype)
        at = nd.doubles
        double[:, at] = self._expected(nd, cells, rows, after, bust_after, at)
        if adj is not None:
            double[:, at] += adj[:, at]  # only the original bet is lost to the blackjack
        return double

    def _filled(self, shape: tuple[int, int], value: int) -> Array:
        """A read-only array of ``value`` (a last hand's busts: the same few shapes, chunk
        after chunk, each tens of megabytes)."""
        key = (shape, value)
        if key not in self._constants:
            if len(self._constants) >= 8:
                self._constants.clear()
            filled = np.full(shape, value, dtype=self.dtype)
            filled.flags.writeable = False
            self._constants[key] = filled
        return self._constants[key]

    def _expected(self, nd: _Nodes, cells: npt.NDArray[np.int64], rows: _RowFigures,
                  node_val: Array, busted: Array, at: npt.NDArray[np.int64]) -> Array:
        """``(n, len(at))``: the value after one more card at the nodes ``at``, a child
        worth ``node_val``, a bust ``busted`` (see :meth:`_child_values`)."""
        n, m = cells.shape
        if self.exact or 4 * len(at) < m:  # a few nodes (two cards): numpy's gathers
            return (rows.probs[cells[:, at]] *  # type: ignore[no-any-return]
                    self._child_values(nd, node_val, busted, at)).sum(axis=2)
        # many (DAN): the hit loop compiled, every node forced to stop, gives this sum for
        # every node (in numpy's order of additions) with no (sets x nodes x 10) temporaries
        step, stop = np.empty((n, m)), np.empty((n, m))
        _dealer.best_play(cells, rows.probs, np.ascontiguousarray(node_val, dtype=np.float64),
                          np.ascontiguousarray(busted, dtype=np.float64), nd.space.child,
                          nd.bust_of, nd.order, np.full(m, _dealer.PLAY_STAND, dtype=np.int64),
                          step, stop)
        return step[:, at]

    def _feasible(self, sets: npt.NDArray[np.int64]) -> _Nodes:
        """The nodes some set of ``sets`` can still draw (the others have no chance)."""
        room = (self.base[None, :] - sets).max(axis=0)
        drawn = self.space.comps.copy()
        drawn[:, self.plan.pair - 1] -= 1
        keep = (drawn <= room[None, :]).all(axis=1)
        key = keep.tobytes()
        if key not in self._subsets:
            self._subsets[key] = _nodes(sub_space(self.space, np.flatnonzero(keep).tolist()),
                                        self.plan.play)
        return self._subsets[key]

    def _continuation(self, sets: npt.NDArray[np.int64], drawn: npt.NDArray[np.int64],
                      reach: npt.NDArray[np.bool_], k: int, r: int) -> Array:
        """``(n, m)``: ``Phi`` of the next hands after each set with each node's cards
        ``drawn``, where ``reach`` (0 elsewhere)."""
        out = np.zeros(reach.shape, dtype=self.dtype)
        at, node = np.nonzero(reach)
        out[at, node] = self._phi(sets[at] + drawn[node], k - 1, r)
        return out

    def _child_values(self, nd: _Nodes, node_val: Array, busted: Array,
                      layer: npt.NDArray[np.int64] | None) -> Array:
        """``(n, len(layer), 10)``: each node's value after drawing each card.

        ``node_val`` for a child in the space, ``busted`` (per bust) for a bust,
        0 for a card the shoe cannot hold (its chance is 0).
        """
        space = nd.space
        m = len(space.comps)
        rows = np.arange(m) if layer is None else layer
        n = node_val.shape[0]
        padded = np.concatenate([node_val, np.zeros((n, 2), dtype=self.dtype)], axis=1)
        vals = padded[:, np.minimum(space.child[rows], m + 1)]
        where = nd.bust_of[rows]
        b = where >= 0
        vals[:, b] = busted[:, where[b]]
        return vals

    def _figures(self, sets: npt.NDArray[np.int64], drawn: npt.NDArray[np.int64],
                 reach: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int64], _RowFigures]:
        """The dealer figures of each set of ``sets`` with each node's cards ``drawn`` (the
        cards out: their sum): its row (n, m) in a table of them."""
        n, m = len(sets), len(drawn)
        fits = None
        if (min(sets.min(), drawn.min()) >= 0
                and (sets.max(axis=0) + drawn.max(axis=0)).max() < KEY_LIMIT):  # keys add
            alone = (sets @ KEY_BASE)[:, None]  # an unreachable node reads its set's row
            keys = np.where(reach, alone + (drawn @ KEY_BASE)[None, :], alone)
            at = self._dealer.find_keys(keys.reshape(-1))
        else:  # a count the cache's keys cannot hold (64+ of a value out) in some rows
            flat = (sets[:, None, :] + drawn[None, :, :] * reach[:, :, None]).reshape(-1, 10)
            # (an unreachable node: its set alone, as above)
            fits = ((flat >= 0) & (flat < KEY_LIMIT)).all(axis=1)
            found = self._dealer.find(flat[fits])
            assert found is not None
            at = np.zeros(len(flat), dtype=np.int64)
            at[fits] = found
        done, filled = self._rows.size, len(self._dealer.table)
        if filled > self._limit:
            raise SplitInfeasible(self._too_large())
        if filled > done:
            self._rows = self._rows.extended(self._derive(self._dealer.table[done:filled],
                                                          self._dealer.shoes(done, filled)))
        rows = self._rows
        if fits is not None:  # those rows on their own, in a copy of the table, not kept
            lost = np.flatnonzero(~fits)
            shoes = np.maximum(self.base[None, :] - flat[lost], 0)
            own = self._derive(outcome_matrix(self.upcard, self.hits_soft_17, shoes, self.exact),
                               shoes)
            at[lost] = rows.size + np.arange(len(lost))
            rows = replace(rows, win=rows.win[:rows.size], net=rows.net[:rows.size],
                           bj=rows.bj[:rows.size], probs=rows.probs[:rows.size]).extended(own)
        return at.reshape(n, m), rows

    def _too_large(self) -> str:
        plan = self.plan
        pair = format_value(plan.pair)
        mode = " in exact mode" if self.exact else ""
        hands = (f"resplits to {plan.max_hands} hands" if plan.max_hands > 2 and not plan.free
                 else "one split")
        return (f"optimal splitting of {pair},{pair} against {format_value(self.upcard)} "
                f"needs the dealer in more than {self._limit:,} shoes{mode} on this "
                f"{int(self.base.sum()) + 1}-card shoe with {hands}: beyond memory (use "
                f"SPL1, which needs under a million at any deck count, or a smaller shoe)")

    def _derive(self, rows: Array, shoes: npt.NDArray[np.int64]) -> _RowFigures:
        """Figures of dealer rows in these shoes: the same operations, row by row, that the
        hands would repeat (so the same bits)."""
        if self.conditioned:  # the player knows the dealer has no blackjack
            rows = condition_outcomes(rows, self.exact)
        win = (rows[:, None, :] * self._win_pay).sum(axis=2)
        return _RowFigures(win=win, net=win - (rows[:, None, :] * self._lose_pay).sum(axis=2),
                           bj=rows[:, Outcome.BLACKJACK].copy(),
                           probs=draw_probabilities(shoes, self.upcard, self.conditioned,
                                                    self.exact),
                           size=len(rows))

    def _stand(self, nd: _Nodes, paid: Array, bj: Array | None, free: bool) -> Array:
        """Stand payoff of every node (the hand's own bet): ``paid`` by the dealer's
        outcomes (what the hand wins, less what it loses unless ``free``), or a Charlie's."""
        space, play = nd.space, self.plan.play
        stand = paid
        if play.charlie:
            assert bj is not None
            charlie = (space.ncards >= play.charlie)[None, :]
            beats = 0 if play.charlie_beats_bj else (1 if free else 2)
            stand = np.where(charlie, 1 - beats * bj, stand)
        return stand

    def _bj_chance(self, sets: npt.NDArray[np.int64]) -> Array:
        """What a new paid hand gets back under OBO: the dealer blackjack's chance now."""
        out = np.zeros(len(sets), dtype=self.dtype)
        if not self._obo:
            return out
        bj = blackjack_value(self.upcard)
        assert bj is not None
        unseen = self.base[None, :] - sets
        for i, row in enumerate(unseen.tolist()):
            total = sum(row)
            out[i] = quotient(row[bj - 1], total, self.exact)
        return out

    def _starts(self, nd: _Nodes, sets: npt.NDArray[np.int64], stand: Array,
                double: Array | None, cont: Array, k: int, r: int) -> Array:
        """Each set's value: the second card, then the best play (or a resplit)."""
        p, plan, space = self.plan.pair, self.plan, nd.space
        forced = nd.forced
        unseen = np.maximum(self.base[None, :] - sets, 0)
        probs = draw_probabilities(unseen, self.upcard, self.conditioned, self.exact)
        total = np.zeros(len(sets), dtype=self.dtype)
        for x in range(1, 11):
            key = tuple(int(c) for c in np.eye(10, dtype=np.int64)[p - 1] +
                        np.eye(10, dtype=np.int64)[x - 1])
            i = space.index.get(key)
            if i is None:
                continue
            if plan.one_card:
                best = stand[:, i]
            else:
                best = cont[:, i]
                may_double = (double is not None and plan.double_after_split
                              and double_allowed(plan.double, key) and not forced[i]
                              and space.total[i] < 21)  # a 21 is never doubled (as the oracle)
                if may_double:
                    assert double is not None
                    best = np.where(double[:, i] > best, double[:, i], best)
            if x == p and r > 0:
                more = sets.copy()
                more[:, p - 1] += 1
                again = self._phi(more, k + 1, r - 1) + self._bj_chance(more)
                best = np.where(again > best, again, best)
            total = total + probs[:, x - 1] * best
        return total
