"""The exact distribution of a split round's net result: every hand and the dealer jointly.

The hands of a split share the shoe and the dealer's hand, so their results are
dependent and are enumerated *jointly* with the dealer's outcome.  Each hand is
a block (:mod:`analyzer.engine.dist_blocks`); a round is a tuple of blocks, one
per hand, plus the extra pair cards of its resplits.  Its chance is

    prod_j mult(B_j) * J(sum_j B_j + extra pairs, o)

(:func:`analyzer.engine.dist_dealer.joint_weights`): the cards of every hand
come off the one shoe, and the dealer draws from what is left.  Rounds are
combined hand by hand, merging those with the same drawn cards and the same
result vector, so the dealer is evaluated once per distinct multiset of cards
(Eric Farmer's analyzer, ``blackjack_pdf.cpp``, pairs the two hands of a
non-resplit split the same way; it does not handle resplits).

A round with three or four hands is enumerated the same way while the number
of combined states stays within :data:`STATE_BUDGET`; past it (resplits in a
large shoe) the extra hands are settled by the *independent-hands* model of
:func:`_independent_extra` and the probability of those rounds is reported as the
error bound: each probability printed is within it of the exact value.

Peek games: the round is enumerated with the hole card drawn after the hands
(the same law, by exchangeability) and conditioned on no dealer blackjack by
dropping that outcome and dividing by its complement.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.errors import InternalError
from analyzer.core.modular import matmul, rebuild, residues
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine import kernel as _dealer  # the compiled loops: C, or numba without it
from analyzer.engine.dealer import distinct_keys, unique_rows
from analyzer.engine.dist_blocks import NO_TAGS, Blocks, BonusTags
from analyzer.engine.dist_dealer import joint_residues, joint_weights, sequence_weights
from analyzer.util.memo import Memo, pickled

IntArray = npt.NDArray[np.int64]
STATE_BUDGET = 10_000_000  # hands-product size of a 3-4 hand pattern enumerated exactly
PAIRS_AT_ONCE = 4_000_000  # (head set, tail set) pairs held at once: the memory of a pairing


class CardKeys:
    """Multisets of cards as one int64 each, additive: ``key(a + b) = key(a) + key(b)``.

    Each value gets a digit wide enough for the most cards of it any round can
    hold, so sums never carry.
    """

    def __init__(self, limits: IntArray) -> None:
        self.radix = np.asarray(limits, dtype=np.int64) + 1
        if float(np.prod(self.radix.astype(np.float64))) >= 2.0**62:
            raise InternalError("too many cards per round to encode in 64 bits")
        self.place = np.cumprod(np.r_[1, self.radix[:0:-1]])[::-1].astype(np.int64)

    def encode(self, drawn: IntArray) -> IntArray:
        return np.asarray(drawn, dtype=np.int64) @ self.place

    def decode(self, keys: IntArray) -> IntArray:
        return (np.asarray(keys, dtype=np.int64)[:, None] // self.place[None, :]) % self.radix


@dataclass(frozen=True)
class Rounds:
    """Rounds merged by (cards drawn, result vector, bonus tag), with their card-order
    counts."""

    cards: IntArray  # (r,) card keys
    pay: IntArray  # (r, 8)
    mult: IntArray  # (r,)
    tag: IntArray  # (r,) the hands' bonus tags added up (dist_blocks.BonusTags)

    @classmethod
    def single(cls, keys: CardKeys, blocks: Blocks) -> Rounds:
        return _merged(keys.encode(blocks.drawn), _results(blocks.pay, blocks.tag), blocks.mult)

    def size_with(self, blocks: Blocks) -> int:
        return len(self.mult) * len(blocks.mult)

    def add(self, keys: CardKeys, blocks: Blocks) -> Rounds:
        """Every round of these extended by one more hand from ``blocks``.

        Each side's distinct results (result vector and tag) are numbered, and every
        pair of numbers by the result the two add up to (a table of a few thousand
        rows), so the product's rows are merged in one pass by (cards, that number),
        a slice of these rounds at a time (at most :data:`PAIRS_AT_ONCE` rows):
        memory follows the merged rounds, not their product.  Past that many pairs
        of results, a row keeps its pair's number and is merged once more by what it
        adds up to.
        """
        mine, my_id = _distinct(_results(self.pay, self.tag))
        theirs, their_id = _distinct(_results(blocks.pay, blocks.tag))
        tabulated = len(mine) * len(theirs) <= PAIRS_AT_ONCE
        if tabulated:
            sums, combo = _distinct((mine[:, None, :] + theirs[None, :, :])
                                    .reshape(-1, mine.shape[1]))
        else:
            combo = np.arange(len(mine) * len(theirs), dtype=np.int64)
        combo = combo.reshape(len(mine), len(theirs))
        step = max(1, PAIRS_AT_ONCE // max(1, len(blocks.mult)))
        drawn = keys.encode(blocks.drawn)
        cards, ids, mult = [], [], []
        for lo in range(0, len(self.mult), step):
            hi = lo + step
            k1 = (self.cards[lo:hi, None] + drawn[None, :]).ravel()
            k2 = combo[my_id[lo:hi]][:, their_id].ravel()
            first, total = merge_pairs(k1, k2, (self.mult[lo:hi, None] * blocks.mult).ravel())
            cards.append(k1[first])
            ids.append(k2[first])
            mult.append(total)
        k1, k2, m = np.concatenate(cards), np.concatenate(ids), np.concatenate(mult)
        if len(cards) > 1:
            first, m = merge_pairs(k1, k2, m)
            k1, k2 = k1[first], k2[first]
        if tabulated:
            return _rounds(k1, sums[k2], m)
        return _merged(k1, mine[k2 // len(theirs)] + theirs[k2 % len(theirs)], m)

    @classmethod
    def union(cls, parts: list[Rounds], ways: list[int] | None = None) -> Rounds:
        """The rounds of all ``parts``, each part's counts times its ``ways``, merged."""
        weights = ways or [1] * len(parts)
        return _merged(np.concatenate([r.cards for r in parts]),
                       np.concatenate([_results(r.pay, r.tag) for r in parts]),
                       np.concatenate([r.mult * w for r, w in zip(parts, weights, strict=True)]))

    def possible(self, keys: CardKeys, shoe: tuple[int, ...]) -> Rounds:
        """The rounds whose cards the shoe holds (small shoes: the others have chance 0)."""
        short = np.flatnonzero(keys.radix - 1 > np.array(shoe))  # values a round can lack
        if not len(short):
            return self
        keep = np.ones(len(self.cards), dtype=bool)
        for v in short.tolist():
            keep &= (self.cards // keys.place[v]) % keys.radix[v] <= shoe[v]
        return Rounds(self.cards[keep], self.pay[keep], self.mult[keep], self.tag[keep])

    def results(self, o: int, s: SplitSettings) -> IntArray:
        """Each round's result against dealer outcome ``o``, its tag folded in where a
        bonus 21 wins (:class:`~analyzer.engine.dist_blocks.BonusTags`)."""
        return s.tags.encode(self.pay[:, o], self.tag, o)


def _results(pay: IntArray, tag: IntArray) -> IntArray:
    """A round's result vector with its bonus tag as one more column: what it is merged by
    besides its cards (both add up over a round's hands)."""
    return np.concatenate([pay, tag[:, None]], axis=1)


def merge_pairs(k1: IntArray, k2: IntArray, mult: IntArray) -> tuple[IntArray, IntArray]:
    """The first row of each distinct ``(k1, k2)`` and their rows' summed ``mult``
    (:func:`analyzer.engine.kernel.merge_pairs`)."""
    k1, k2 = np.ascontiguousarray(k1, dtype=np.int64), np.ascontiguousarray(k2, dtype=np.int64)
    first, total = np.empty_like(k1), np.empty_like(k1)
    n = _dealer.merge_pairs(k1, k2, np.ascontiguousarray(mult, dtype=np.int64), first, total)
    return first[:n], total[:n]


def _distinct(rows: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct rows of small integers (sorted) and each row's number among them."""
    low = rows.min(axis=0, initial=0)
    table, ids = unique_rows(rows - low)  # row_keys needs non-negative digits
    return table + low, ids


def _rounds(cards: IntArray, results: IntArray, mult: IntArray) -> Rounds:
    return Rounds(cards, np.ascontiguousarray(results[:, :N_OUTCOMES]), mult,
                  np.ascontiguousarray(results[:, N_OUTCOMES]))


def _merged(cards: IntArray, results: IntArray, mult: IntArray) -> Rounds:
    """Rounds with equal cards and results (result vector, then tag) merged, counts summed."""
    table, result_id = _distinct(results)
    first, total = merge_pairs(cards, result_id, mult)
    return _rounds(cards[first], table[result_id[first]], total)


@dataclass(frozen=True)
class SplitSettings:
    """How a split round against one upcard is settled."""

    upcard: int
    hits_soft_17: bool
    peeked: bool  # the dealer checked for blackjack: condition on none
    bj_takes_all: bool  # an unchecked dealer blackjack takes every paid bet (else 1 unit)
    exact: bool
    scale: int = 1  # results are in units of 1 / scale of the bet (dist_blocks.pay_scale)
    tags: BonusTags = NO_TAGS  # how the split hands' bonus 21s paid by suits ride along


def _unique(keys: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(keys, return_inverse=True)``, by runs or counting where it can be
    (:func:`~analyzer.engine.dealer.distinct_keys`): the distinct keys and each key's
    index among them."""
    flat = np.asarray(keys, dtype=np.int64).ravel()
    first, inverse = distinct_keys(flat)
    return flat[first], inverse


def _orders_by_result(ids: IntArray, n: int, results: IntArray,
                      mult: IntArray) -> tuple[IntArray, IntArray]:
    """``M[a, r]``: the card orders of rounds with card set ``a`` and result ``values[r]``."""
    values, which = _unique(results)
    counts = np.zeros(n * len(values), dtype=np.int64)
    np.add.at(counts, ids * len(values) + which, mult)
    return counts.reshape(n, len(values)), values


class PairSums:
    """The distinct card sets ``head[a] + tail[b] + extra`` of all pairs, sorted, and each
    pair's row among them, a slice of ``head`` at a time (the memory of one slice, not
    of every pair: a three-hand round pairs about 10^8 of them).

    >>> sums = PairSums(np.array([0, 1]), np.array([0, 1, 2]), 10)
    >>> sums.unique.tolist(), [where.tolist() for _, where in sums.slices()]
    ([10, 11, 12, 13], [[[0, 1, 2], [1, 2, 3]]])
    """

    def __init__(self, head: IntArray, tail: IntArray, extra: int,
                 pairs_at_once: int | None = None) -> None:
        self.head = np.ascontiguousarray(head, dtype=np.int64)
        self.tail = np.ascontiguousarray(tail, dtype=np.int64)
        self.extra = extra
        at_once = PAIRS_AT_ONCE if pairs_at_once is None else pairs_at_once
        self.step = max(1, at_once // max(1, len(tail)))
        self.unique: IntArray = _dealer.distinct_sums(np.sort(self.head), self.tail, extra)

    def head_slices(self) -> Iterator[tuple[slice, IntArray]]:
        """The slices of ``head`` paired at once, with their keys."""
        for lo in range(0, len(self.head), self.step):
            yield slice(lo, lo + self.step), self.head[lo:lo + self.step]

    def slices(self) -> Iterator[tuple[slice, IntArray]]:
        """Per slice of ``head``, its rows and ``where[a, b]``: the row in :attr:`unique`
        of ``head[a] + tail[b] + extra``."""
        for rows, head in self.head_slices():
            where = np.empty(len(head) * len(self.tail), dtype=np.int64)
            if _dealer.sum_rows(head, self.tail, self.extra, self.unique, where):
                raise InternalError("a pair's card set is missing from the distinct sums")
            yield rows, where.reshape(len(head), len(self.tail))


def pair_outcomes(base: tuple[int, ...], keys: CardKeys, head: Rounds, tail: Rounds,
                  extra: int, s: SplitSettings) -> dict[int, dict[int, Any]]:
    """Per dealer outcome, ``{net result: probability}`` of ``head`` completed by ``tail``.

    ``extra`` (a card key) adds the resplits' pair cards.  Unnormalised: the
    blackjack outcome is left out when peeked, and nothing is yet divided by its
    complement.

    Only the card sets matter to the dealer, so per outcome ``o`` this is a matrix
    product over the distinct card sets ``a`` of the head and ``b`` of the tail:
    ``H_o^T K_o T_o`` with ``K_o[a, b] = J(a + b + extra, o)`` and ``H_o[a, x]``
    the head's card orders with card set ``a`` and result ``x`` against ``o``.
    """
    if len(head.mult) == 0 or len(tail.mult) == 0:
        return {}
    head_sets, head_of = _unique(head.cards)
    tail_sets, tail_of = _unique(tail.cards)
    sums = PairSums(head_sets, tail_sets, extra)
    sets = keys.decode(sums.unique)
    outcomes = [o for o in range(N_OUTCOMES) if not (o == Outcome.BLACKJACK and s.peeked)]
    tables = {o: (_orders_by_result(head_of.ravel(), len(head_sets), head.results(o, s),
                                    head.mult),
                  _orders_by_result(tail_of.ravel(), len(tail_sets), tail.results(o, s),
                                    tail.mult))
              for o in outcomes}
    by_pair: dict[int, Any] = {}
    den = 1
    rounds = _TailRounds(tail, tail_of.ravel(), len(tail_sets), s, outcomes)
    if s.exact:  # integers over one denominator, as residues: each sum <= den (a chance)
        joint, den, primes = joint_residues(base, sets, s.upcard, hits_soft_17=s.hits_soft_17,
                                            bits=1)
        by_pair = _residue_pairing(sums, joint, primes, [tables[o][0][0] for o in outcomes],
                                   rounds, outcomes)
        by_pair = {o: _numerators(r, primes, den) for o, r in by_pair.items()}
    else:
        weights = np.ascontiguousarray(joint_weights(base, sets, s.upcard,
                                                     hits_soft_17=s.hits_soft_17)[:, outcomes])
        by_pair = _float_pairing(sums, weights,
                                 [tables[o][0][0].astype(np.float64) for o in outcomes], rounds,
                                 outcomes)
    result: dict[int, dict[int, Any]] = {}
    for o in outcomes:
        (_, h_values), (_, t_values) = tables[o]
        dist: dict[int, Any] = {}
        for (x, y), p in zip(product(h_values.tolist(), t_values.tolist()),
                             by_pair[o].ravel(), strict=True):
            dist[x + y] = dist.get(x + y, 0) + p
        result[o] = {x: Fraction(int(p), den) for x, p in dist.items()} if s.exact else dist
    return result


class _TailRounds:
    """The last hand's rounds grouped by card set, as the pairing kernels read them:
    ``order`` (the rounds in set order), ``starts`` (set ``b``'s rounds are ``starts[b] ..
    starts[b + 1] - 1``), ``results`` (per round its card orders, then its result's index
    against each paired outcome, indices as :func:`_orders_by_result` orders the values)
    and ``counts`` (the result values per outcome)."""

    def __init__(self, tail: Rounds, tail_of: IntArray, n_sets: int, s: SplitSettings,
                 outcomes: list[int]) -> None:
        self.order = np.argsort(tail_of, kind="stable")
        self.starts = np.searchsorted(tail_of[self.order],
                                      np.arange(n_sets + 1)).astype(np.int64)
        self.results = np.empty((len(self.order), 1 + len(outcomes)), dtype=np.int64)
        self.results[:, 0] = tail.mult[self.order]
        for k, o in enumerate(outcomes):
            self.results[:, 1 + k] = _unique(tail.results(o, s))[1][self.order]
        self.counts = [int(self.results[:, 1 + k].max(initial=-1)) + 1
                       for k in range(len(outcomes))]
        self.ny = max(self.counts, default=0)


def _float_pairing(sums: PairSums, weights: npt.NDArray[np.float64],
                   head_orders: list[npt.NDArray[np.float64]], tail: _TailRounds,
                   outcomes: list[int]) -> dict[int, npt.NDArray[np.float64]]:
    """``H_o^T K_o T_o`` per outcome in floats, ``K_o T_o`` added up pair by pair in the
    kernel (:func:`analyzer.engine.kernel.pair_accumulate`): a tail set has one or two
    rounds, so that is a few products per pair and outcome where ``T_o`` as a dense
    matrix costs one per result value, and no (pairs x outcomes) array is built.

    ``head_orders[k]`` is ``H_o`` for ``o = outcomes[k]``.
    """
    by_pair: dict[int, npt.NDArray[np.float64]] = {}
    for rows, head in sums.head_slices():
        acc = np.zeros((len(head), len(outcomes), tail.ny))
        if _dealer.pair_accumulate(head, sums.tail, sums.extra, sums.unique, weights,
                                   tail.starts, tail.results, acc):
            raise InternalError("a pair's card set is missing from the distinct sums")
        for k, o in enumerate(outcomes):
            part = head_orders[k][rows].T @ acc[:, k, :tail.counts[k]]
            by_pair[o] = by_pair[o] + part if o in by_pair else part
    return by_pair


def _residue_pairing(sums: PairSums, joint: npt.NDArray[np.int32], primes: IntArray,
                     head_orders: list[IntArray], tail: _TailRounds,
                     outcomes: list[int]) -> dict[int, IntArray]:
    """:func:`_float_pairing` in exact mode, modulo each prime: ``K_o T_o`` pair by pair in
    the kernel (:func:`analyzer.engine.kernel.pair_residues`), then ``H_o^T`` times it.

    The heads' card orders become residues a slice at a time: the head of a three-hand
    round has a quarter of a million card sets, which with a dozen primes and every
    outcome would take more memory than the joint table.  Returns per outcome the
    residues ``(P, head results, tail results)``.
    """
    orders = np.ascontiguousarray(residues(tail.results[:, 0], primes).T)
    columns = np.array(outcomes, dtype=np.int64)
    by_pair: dict[int, IntArray] = {}
    for rows, head in sums.head_slices():
        acc = np.zeros((len(head), len(outcomes), tail.ny, len(primes)), dtype=np.int64)
        if _dealer.pair_residues(head, sums.tail, sums.extra, sums.unique, joint, columns,
                                 primes, tail.starts, tail.results, orders, acc):
            raise InternalError("a pair's card set is missing from the distinct sums")
        for k, o in enumerate(outcomes):
            h = residues(head_orders[k][rows].T, primes)
            part = matmul(h, np.ascontiguousarray(acc[:, k, :tail.counts[k]].transpose(2, 0, 1)),
                          primes)
            by_pair[o] = (by_pair[o] + part) % primes[:, None, None] if o in by_pair else part
    return by_pair


def _numerators(res: IntArray, primes: IntArray, den: int) -> Any:
    """The integers ``n`` with residues ``res``, each a chance ``n / den`` (a chance is in
    [0, 1]: a numerator outside ``[0, den]`` means too few primes, never silently)."""
    nums = rebuild(res, primes)
    if nums.size and (nums.min() < 0 or nums.max() > den):
        raise InternalError("an exact distribution's sum fell outside [0, 1]: the residues "
                            "do not determine it")
    return nums


def _collapse(by_outcome: dict[int, dict[int, Any]], s: SplitSettings) -> dict[int, Any]:
    """Sum over the dealer's outcomes; "original bet only" makes a blackjack cost 1 unit."""
    result: dict[int, Any] = {}
    for o, dist in by_outcome.items():
        if o == Outcome.BLACKJACK and not s.bj_takes_all:
            dist = {-s.scale * s.tags.width: sum(dist.values())}
        for x, p in dist.items():
            result[x] = result.get(x, 0) + p
    return result


def _independent_extra(base: tuple[int, ...], keys: CardKeys, hands: list[Blocks], pair: int,
                       s: SplitSettings) -> dict[int, Any]:
    """Rounds with three or four hands, the hands past the first two settled independently.

    The first two hands and the dealer are enumerated jointly (with every pair
    card of the round out of the shoe); each further hand's result is drawn
    from its own exact law in the shoe less the upcard and all the pair cards,
    independently of the other hands' cards, that law normalised over the hand's
    kind (``hands[k]``: e.g. no pair card first, where a resplit is still open).
    So these rounds carry the first two hands' whole probability: at least their
    exact total, which also counts the chance that each further hand is of its
    kind (the printed total can pass 1 by as much).  With that total ``e`` and the
    exact one ``e* <= e``, each result's share lies in ``[0, e]`` printed and in
    ``[0, e*]`` exactly: every probability is within ``e`` of the exact value.
    """
    pairs = len(hands) - 2
    shoe = list(base)
    shoe[pair - 1] -= pairs
    head = pair_outcomes(base, keys, Rounds.single(keys, hands[0]),
                         Rounds.single(keys, hands[1]), pairs * int(keys.place[pair - 1]), s)
    laws = [(b, sequence_weights(tuple(shoe), b.drawn, s.exact) * b.mult) for b in hands[2:]]
    for o, dist in head.items():
        for b, w in laws:
            col = s.tags.encode(b.pay[:, o], b.tag, o)
            share = {int(y): w[col == y].sum() for y in np.unique(col)}
            norm = sum(share.values())
            if not norm:  # this hand cannot be dealt from the shoe
                dist = {}
                break
            nxt: dict[int, Any] = {}
            for x, p in dist.items():
                for y, q in share.items():
                    nxt[x + y] = nxt.get(x + y, 0) + p * q / norm
            dist = nxt
        head[o] = dist
    return _collapse(head, s)


@dataclass(frozen=True)
class SplitDistribution:
    """A split round's net results (conditioned on no dealer blackjack when peeked)."""

    probabilities: dict[int, Any]
    error: Any  # bound on |error| of each probability (0: exact)
    tags: BonusTags = NO_TAGS  # how its results carry the bonus 21s paid by suits


def split_distribution(base: tuple[int, ...], pair: int, families: dict[str, Blocks],
                       patterns: dict[tuple[str, ...], int], s: SplitSettings,
                       budget: int = STATE_BUDGET) -> SplitDistribution:
    """The net result of splitting ``pair``, from the shoe ``base`` (upcard out, pair in).

    ``families`` names the blocks of each kind of hand; ``patterns`` maps a tuple
    of family names (one per hand, in play order) to the number of ways the pair
    cards fall that way.
    """
    after = list(base)
    after[pair - 1] -= 2
    shoe = tuple(after)
    zero: Any = Fraction(0) if s.exact else 0.0
    most = max(len(names) for names in patterns)
    limits = sum(blocks.drawn.max(axis=0, initial=0) for blocks in families.values()) * most
    limits[pair - 1] += most - 2
    keys = CardKeys(limits)
    total: dict[int, Any] = {}
    error = zero
    # Patterns of as many hands ending in the same kind of hand are paired with it once,
    # their earlier hands' rounds merged (each counted by its ways): the pairing is the
    # cost, and such patterns share nearly all their card sets.
    heads: dict[tuple[int, str], tuple[list[Rounds], list[int]]] = {}
    for names, ways in patterns.items():
        hands = [families[n] for n in names]
        if not all(len(blocks.mult) for blocks in hands):
            continue  # a kind of hand this shoe cannot deal (one rank left): no such round
        rounds = Rounds.single(keys, hands[0])
        for blocks in hands[1:-1]:
            if rounds.size_with(blocks) > budget:
                part = _independent_extra(shoe, keys, hands, pair, s)
                error += sum(part.values()) * ways
                for x, p in part.items():
                    total[x] = total.get(x, zero) + p * ways
                break
            rounds = rounds.add(keys, blocks).possible(keys, shoe)
            if not len(rounds.mult):  # no cards of these hands fit the shoe: no such round
                break
        else:
            group = heads.setdefault((len(names), names[-1]), ([], []))
            group[0].append(rounds)
            group[1].append(ways)
    for (length, last), (parts, ways_of) in heads.items():
        extra = (length - 2) * int(keys.place[pair - 1])
        head = Rounds.union(parts, ways_of)
        part = _collapse(pair_outcomes(shoe, keys, head, Rounds.single(keys, families[last]),
                                       extra, s), s)
        for x, p in part.items():
            total[x] = total.get(x, zero) + p
    if s.peeked:
        bj = {1: 10, 10: 1}.get(s.upcard)
        if bj is not None:
            keep = (Fraction(sum(shoe) - shoe[bj - 1], sum(shoe)) if s.exact
                    else (sum(shoe) - shoe[bj - 1]) / sum(shoe))
            total = {x: p / keep for x, p in total.items()}
            error = error / keep
    return SplitDistribution({x: p for x, p in sorted(total.items())}, error, s.tags)


def _digest(families: dict[str, Blocks]) -> str:
    """SHA-256 of every block of every kind of hand: what a split round's hands can be."""
    h = hashlib.sha256()
    for name in sorted(families):
        h.update(name.encode() + b"\0")
        blocks = families[name]
        for a in (blocks.drawn, blocks.pay, blocks.mult, blocks.tag):
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def kept_split_distribution(base: tuple[int, ...], pair: int, families: dict[str, Blocks],
                            patterns: dict[tuple[str, ...], int], s: SplitSettings,
                            budget: int = STATE_BUDGET, *, memo: bool = False
                            ) -> SplitDistribution:
    """:func:`split_distribution`, kept in the on-disk memo (:mod:`analyzer.util.memo`) when
    ``memo``, keyed by its arguments (the hands' blocks by their digest).

    Two strategies that play a split round alike give it the same blocks, so the second
    reads the first's figures.  A certificate's basic-strategy chart plays most split
    rounds of the seed games as the optimal play computed before it does, but one hand
    played otherwise changes a round's blocks: Spanish 21's chart (ranks and totals,
    where the optimal play reads suits and compositions) plays most of its rounds
    otherwise and computes them again.
    """
    if not memo:
        return split_distribution(base, pair, families, patterns, s, budget)
    key = (tuple(base), pair, _digest(families), sorted(patterns.items()), s, budget)
    store: Memo[SplitDistribution] = Memo("split-distribution", pickled(SplitDistribution))
    return store.get_or_compute(
        key, lambda: split_distribution(base, pair, families, patterns, s, budget))
