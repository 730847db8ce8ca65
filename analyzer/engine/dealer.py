"""The dealer's final-outcome distribution, exactly, for any shoe and upcard.

The dealer's play is fixed, so every way the dealer can finish is a *draw
composition* (how many cards of each value the dealer drew after the upcard)
together with the number of orderings of those cards that the drawing rule
actually produces.  For a shoe with ``n_i`` cards of value ``i`` (``N`` in all)
the probability of a composition ``k`` (``K`` cards) is::

    mult(k) * prod_i n_i (n_i - 1) ... (n_i - k_i + 1) / (N (N - 1) ... (N - K + 1))

The compositions are enumerated once per (upcard, S17/H17); evaluating a shoe
is then a product over ten falling factorials, which vectorises over thousands
of shoe states at once (every player hand needs its own depleted shoe).  With
``exact=True`` the same products are taken over integers (128-bit in the C
extension, Python integers where it is not built or a denominator needs more) and
divided once, giving :class:`fractions.Fraction` results.

The first card drawn is the hole card, so the ``BLACKJACK`` outcome is exactly
the event a peeking dealer rules out; conditioning on "no blackjack" is
dividing the other outcomes by ``1 - P(blackjack)``.

>>> from analyzer.core.shoe import Shoe
>>> d = dealer_distribution(Shoe.decks(1).remove([6]).counts, 6, hits_soft_17=False, exact=True)
>>> sum(d.outcomes.values()) == 1
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.arith import Number, gmp_rational
from analyzer.core.cards import soft_total
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine import kernel as _dealer  # the compiled loops: C, or numba without it


@dataclass(frozen=True)
class DrawTable:
    """Every way the dealer can finish from one upcard: compositions and orderings."""

    upcard: int
    comps: npt.NDArray[np.int64]  # (c, 10): cards of each value drawn after the upcard
    mult: npt.NDArray[np.int64]  # (c,): orderings the drawing rule produces
    outcome: npt.NDArray[np.int64]  # (c,): outcome index
    drawn: npt.NDArray[np.int64]  # (c,): number of cards drawn after the upcard


def _dealer_stands(total: int, soft: bool, hits_soft_17: bool) -> bool:
    return total > 17 or (total == 17 and not (soft and hits_soft_17))


def _verdicts(hits_soft_17: bool, two_cards: bool) -> list[tuple[int, int]]:
    """Per hard total (aces as 1), the outcome without and with an ace; -1: the dealer draws."""
    table = []
    for hard in range(32):
        row = []
        for aces in (0, 1):
            total, soft = soft_total(hard, aces)
            if two_cards and total == 21:
                row.append(int(Outcome.BLACKJACK))
            elif total > 21:
                row.append(int(Outcome.BUST22 if total == 22 else Outcome.BUST23))
            elif _dealer_stands(total, soft, hits_soft_17):
                row.append(int(Outcome.standing(total)))
            else:
                row.append(-1)
        table.append((row[0], row[1]))
    return table


@lru_cache(maxsize=64)
def draw_table(upcard: int, hits_soft_17: bool) -> DrawTable:
    """Enumerate the dealer's finishing compositions for one upcard.

    States are compositions (orderings merged, their counts kept), so the work
    is linear in the number of distinct compositions, not of sequences.
    """
    finished: dict[tuple[int, ...], tuple[int, int]] = {}  # comp -> (mult, outcome)
    # comp -> (orderings, hard total with the upcard, whether an ace is held); every
    # comp of a frontier has the same number of cards, so these are carried along.
    frontier: dict[tuple[int, ...], tuple[int, int, int]] = {
        (0,) * 10: (1, upcard, int(upcard == 1))}
    later = _verdicts(hits_soft_17, two_cards=False)
    verdicts = _verdicts(hits_soft_17, two_cards=True)  # the hole card: a blackjack counts
    while frontier:
        nxt: dict[tuple[int, ...], tuple[int, int, int]] = {}
        for comp, (mult, hard0, ace0) in frontier.items():
            for card in range(1, 11):
                key = comp[:card - 1] + (comp[card - 1] + 1,) + comp[card:]
                hard = hard0 + card
                ace = ace0 | (card == 1)
                outcome = verdicts[hard][ace]
                if outcome < 0:
                    nxt[key] = (nxt.get(key, (0,))[0] + mult, hard, ace)
                else:
                    finished[key] = (finished.get(key, (0,))[0] + mult, outcome)
        frontier = nxt
        verdicts = later
    keys = sorted(finished)
    comps = np.array(keys, dtype=np.int64)
    return DrawTable(
        upcard=upcard,
        comps=comps,
        mult=np.array([finished[k][0] for k in keys], dtype=np.int64),
        outcome=np.array([finished[k][1] for k in keys], dtype=np.int64),
        drawn=comps.sum(axis=1),
    )


def _falling(n: npt.NDArray[Any], kmax: int, exact: bool) -> npt.NDArray[Any]:
    """``F[..., k] = n (n-1) ... (n-k+1)`` for ``k = 0..kmax`` (0 once ``k > n``)."""
    steps = np.arange(kmax, dtype=np.int64)
    factors = np.maximum(n[..., None] - steps, 0)
    factors = factors.astype(object if exact else np.float64)
    ones = np.ones(n.shape + (1,), dtype=factors.dtype)
    return np.concatenate([ones, np.cumprod(factors, axis=-1)], axis=-1)


@dataclass(frozen=True)
class _Factored:
    """A draw table split into low (A-5) and high (6-T, with card count) halves.

    A composition's weight is a product of ten falling factorials; grouping the
    first five and the last five (plus the normaliser, which depends only on
    the number of cards drawn) turns ten gathers over every composition into
    two, because far fewer distinct halves exist than compositions.
    """

    low: npt.NDArray[np.int64]  # (n1, 5) distinct low halves
    high: npt.NDArray[np.int64]  # (n2, 6) distinct high halves + cards drawn
    low_of: npt.NDArray[np.int64]  # (c,) index into low, compositions sorted by outcome
    high_of: npt.NDArray[np.int64]  # (c,) index into high
    by_outcome: tuple[tuple[int, slice, npt.NDArray[np.int64]], ...]  # (outcome, run, mult)
    kmax: int


@dataclass(frozen=True)
class KernelTables:
    """A draw table as the compiled float kernel takes it (``analyzer/engine/_dealer.c``)."""

    blocks: npt.NDArray[np.int64]  # (nb, 3) distinct blocks: A-3, 4-5, 6-8, 9-T + cards drawn
    block_of: npt.NDArray[np.int64]  # (nb,) which of the four blocks
    halves: npt.NDArray[np.int64]  # (nh, 2) distinct low and high (6-T) halves
    low_of: npt.NDArray[np.int64]  # (c,) each composition's low half
    high_of: npt.NDArray[np.int64]  # (c,) its high half
    runs: npt.NDArray[np.int64]  # (N_OUTCOMES + 1,) outcome o: compositions runs[o]:runs[o+1]
    mult: npt.NDArray[np.float64]  # (c,) orderings
    mult_int: npt.NDArray[np.int64]  # (c,) the same, as integers (the exact kernel's)
    kmax: int  # most cards the dealer draws


def row_keys(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64] | None:
    """One int64 per row of small non-negative integers, equal iff the rows are equal
    (None: the rows' digits take more than 62 bits).

    The first column is the most significant digit, so keys sort as the rows do.
    """
    rows = np.asarray(rows, dtype=np.int64)
    radix = rows.max(axis=0, initial=0) + 1
    if float(np.prod(radix.astype(np.float64))) >= 2.0**62:
        return None
    keys = np.zeros(len(rows), dtype=np.int64)
    for j in range(rows.shape[1]):
        keys = keys * radix[j] + rows[:, j]
    return keys


def unique_rows(rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64],
                                                       npt.NDArray[np.int64]]:
    """The distinct rows (sorted) and, per row, the index of its distinct row.

    ``np.unique(rows, axis=0, return_inverse=True)``, faster: one key per row, where
    the rows' digits fit in one (a split round's results against eight outcomes, with
    ``RD3`` stakes and bonuses in fractions of the bet, may not: then ``np.unique``
    itself, which sorts alike).
    """
    rows = np.asarray(rows, dtype=np.int64)
    keys = row_keys(rows)
    if keys is None:
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        return rows[first], inverse.ravel()
    first, inverse = distinct_keys(keys)
    return rows[first], inverse


DENSE_SPAN = 4096  # a span of keys counted in a table (plus two slots a key) over a sort


def distinct_keys(keys: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64],
                                                        npt.NDArray[np.int64]]:
    """``np.unique(keys, return_index=True, return_inverse=True)[1:]``: where each
    distinct key first appears (in the keys' order) and each key's index among them.

    The same arrays, without a sort where none is needed: keys already in order (a
    split round's card sets, sorted by their sums) are runs, and keys within a short
    span (results, a low half's cards) are counted in a table of the span.

    >>> [a.tolist() for a in distinct_keys(np.array([7, 5, 7, 6, 5]))]
    [[1, 3, 0], [2, 0, 2, 1, 0]]
    """
    keys = np.asarray(keys, dtype=np.int64).ravel()
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if (keys[1:] >= keys[:-1]).all():
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.not_equal(keys[1:], keys[:-1], out=new[1:])
        return np.flatnonzero(new), np.cumsum(new) - 1
    low = int(keys.min())
    span = int(keys.max()) - low + 1  # Python ints: no wrap past 2**63
    if span > 2 * n + DENSE_SPAN:
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return first, inverse.ravel()
    seen = np.full(span, n, dtype=np.int64)
    offset = keys - low
    np.minimum.at(seen, offset, np.arange(n, dtype=np.int64))
    present = seen < n
    return seen[present], (np.cumsum(present) - 1)[offset]


@lru_cache(maxsize=64)
def _kernel(upcard: int, hits_soft_17: bool) -> KernelTables:
    """The short draw table (no bust-23+) as the compiled kernel takes it."""
    table = _short_table(upcard, hits_soft_17)
    order = np.argsort(table.outcome, kind="stable")  # each outcome one contiguous run
    comps, drawn, outcome = table.comps[order], table.drawn[order], table.outcome[order]
    keys = [comps[:, 0:3], comps[:, 3:5], comps[:, 5:8],
            np.concatenate([comps[:, 8:10], drawn[:, None]], axis=1)]
    blocks, block_of, index = [], [], []
    offset = 0
    for g, key in enumerate(keys):
        uniq, inv = unique_rows(key)
        blocks.append(np.pad(uniq, ((0, 0), (0, 3 - uniq.shape[1]))))
        block_of.append(np.full(len(uniq), g, dtype=np.int64))
        index.append(inv + offset)
        offset += len(uniq)
    low, low_of = unique_rows(np.stack(index[:2], axis=1))
    high, high_of = unique_rows(np.stack(index[2:], axis=1))
    return KernelTables(blocks=np.concatenate(blocks).astype(np.int64),
                        block_of=np.concatenate(block_of),
                        halves=np.concatenate([low, high]).astype(np.int64),
                        low_of=low_of.astype(np.int64),
                        high_of=(high_of + len(low)).astype(np.int64),
                        runs=np.searchsorted(outcome, np.arange(N_OUTCOMES + 1)).astype(np.int64),
                        mult=table.mult[order].astype(np.float64),
                        mult_int=np.ascontiguousarray(table.mult[order], dtype=np.int64),
                        kmax=int(table.drawn.max()))


@lru_cache(maxsize=64)
def _factored(upcard: int, hits_soft_17: bool, short: bool) -> _Factored:
    table = _short_table(upcard, hits_soft_17) if short else draw_table(upcard, hits_soft_17)
    order = np.argsort(table.outcome, kind="stable")  # each outcome one contiguous run
    comps, drawn, outcome = table.comps[order], table.drawn[order], table.outcome[order]
    mult = table.mult[order]
    low, low_of = np.unique(comps[:, :5], axis=0, return_inverse=True)
    high_keys = np.concatenate([comps[:, 5:], drawn[:, None]], axis=1)
    high, high_of = np.unique(high_keys, axis=0, return_inverse=True)
    groups = []
    for o in range(N_OUTCOMES):
        run = np.flatnonzero(outcome == o)
        if len(run):
            groups.append((o, slice(int(run[0]), int(run[-1]) + 1), mult[run]))
    return _Factored(low=low, high=high, low_of=low_of.ravel(), high_of=high_of.ravel(),
                     by_outcome=tuple(groups), kmax=int(table.drawn.max()))


def _outcome_sums(
    upcard: int, hits_soft_17: bool, shoes: npt.NDArray[np.int64], exact: bool, short: bool
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Per shoe and outcome, the summed weights ``S[s, o]`` and a normaliser ``D[s]``.

    ``P(o) = S[s, o] / D[s]``.  In exact mode all weights are integers over the
    common denominator ``N (N-1) .. (N-kmax+1)``; in float mode ``D`` is 1.  Neither
    mode is the engine's first path (the compiled kernels are): the float mode stays as
    the tests' independent reference for the float kernel, the exact mode as that of
    the 128-bit kernel and the exact path where that kernel declines.
    """
    f = _factored(upcard, hits_soft_17, short)
    shoes = np.asarray(shoes, dtype=np.int64)
    m = shoes.shape[0]
    ff = _falling(shoes, f.kmax, exact)  # (m, 10, kmax+1)
    low = ff[:, 0, f.low[:, 0]]
    for i in range(1, 5):
        low = low * ff[:, i, f.low[:, i]]
    high = ff[:, 5, f.high[:, 0]]
    for i in range(6, 10):
        high = high * ff[:, i, f.high[:, i - 5]]
    fn = _falling(shoes.sum(axis=1), f.kmax, exact)  # (m, kmax+1)
    if exact:
        # Common denominator FF(N, k) with k = min(kmax, N): compositions of more than
        # N cards have weight 0, and FF(N, K) divides it for every K <= k.
        cap = np.minimum(shoes.sum(axis=1), f.kmax)
        denom = fn[np.arange(m), cap]
        safe = np.where(fn == 0, 1, fn)
        tail = np.where(fn == 0, 0, denom[:, None] // safe)  # FF(N-K, k-K), exactly
    else:
        tail = 1.0 / np.where(fn == 0, 1.0, fn)
        denom = np.ones(m)
    high = high * tail[:, f.high[:, 5]]
    weights = low[:, f.low_of]
    weights *= high[:, f.high_of]
    sums = np.zeros((m, N_OUTCOMES), dtype=object if exact else np.float64)
    for o, run, mult in f.by_outcome:
        sums[:, o] = weights[:, run].dot(mult.astype(object) if exact else mult.astype(float))
    return sums, denom


@lru_cache(maxsize=64)
def _short_table(upcard: int, hits_soft_17: bool) -> DrawTable:
    """The draw table without the bust-23+ compositions: that outcome is the remainder."""
    full = draw_table(upcard, hits_soft_17)
    keep = full.outcome != Outcome.BUST23
    return DrawTable(upcard=upcard, comps=full.comps[keep], mult=full.mult[keep],
                     outcome=full.outcome[keep], drawn=full.drawn[keep])


CHUNK = 512  # shoes per batch: bounds the float64 weights held at once


def outcome_matrix(
    upcard: int, hits_soft_17: bool, shoes: npt.NDArray[np.int64], exact: bool
) -> npt.NDArray[Any]:
    """``P[s, o]``: probability of outcome ``o`` for shoe ``s`` (upcard already out of it).

    Float mode gives a float array; exact mode an object array of Fractions, the sums
    taken in 128-bit integers by the C extension when every denominator fits (else by
    :func:`_outcome_sums`, the same integers in Python).  Busting on 23 or more, half
    of all compositions, is taken as the remainder (in floats, at least 0).
    """
    if not exact:
        k = _kernel(upcard, hits_soft_17)
        sums = np.empty((len(shoes), N_OUTCOMES))
        _dealer.outcome_sums(np.ascontiguousarray(shoes, dtype=np.int64), k.blocks, k.block_of,
                             k.halves, k.low_of, k.high_of, k.runs, k.mult, k.kmax, sums)
        # the remainder, never below 0: where the dealer cannot bust past 22 it is 0, and
        # 1 minus the others' float sum can be a unit of the last place under it
        sums[:, Outcome.BUST23] = np.maximum(1.0 - sums.sum(axis=1), 0.0)
        return sums
    if len(shoes) > CHUNK:  # bound the (shoes x dealer compositions) temporaries
        return np.concatenate([outcome_matrix(upcard, hits_soft_17, shoes[lo:lo + CHUNK], exact)
                               for lo in range(0, len(shoes), CHUNK)])
    shoes = np.ascontiguousarray(shoes, dtype=np.int64)
    k = _kernel(upcard, hits_soft_17)
    words = np.empty((len(shoes), N_OUTCOMES, 2), dtype=np.int64)
    if _dealer.outcome_sums_exact(shoes, k.blocks, k.block_of, k.halves, k.low_of, k.high_of,
                                 k.runs, k.mult_int, k.kmax, words):
        # the same integers as _outcome_sums below, summed in 128 bits (two words each)
        sums = np.array([[lo | hi << 64 for lo, hi in row]
                         for row in words.view(np.uint64).tolist()], dtype=object)
        totals = shoes.sum(axis=1).tolist()
        denom = np.array([_falling_int(n, min(n, k.kmax)) for n in totals], dtype=object)
    else:
        sums, denom = _outcome_sums(upcard, hits_soft_17, shoes, exact, short=True)
    out = np.empty(sums.shape, dtype=object)
    q = gmp_rational()
    for s in range(len(denom)):
        den = int(denom[s])
        sums[s, Outcome.BUST23] = den - sum(sums[s])
        out[s, :] = [q(int(x), den) for x in sums[s]]
    return out


KEY_LIMIT = 64  # a cache key holds counts 0..63 of each value, six bits each ...
KEY_BASE = np.int64(KEY_LIMIT) ** np.arange(10, dtype=np.int64)  # ... as counts @ KEY_BASE
SHARED_CACHES = 20  # float caches kept between analyses: two rule sets' ten upcards
_SHARED: dict[tuple[tuple[int, ...], int, bool], OutcomeCache] = {}
_SHARED_LOCK = threading.Lock()  # analyses in several threads of one process share _SHARED
# Exact caches kept while some caller is inside :func:`exact_rows_kept` (None: outside).
_EXACT: dict[tuple[tuple[int, ...], int, bool], OutcomeCache] | None = None
_EXACT_HOLDERS = 0


@contextmanager
def exact_rows_kept() -> Iterator[None]:
    """Within the block, exact analyses of one shoe share their dealer rows.

    Exact rows are Fractions, too large to keep between unrelated analyses, but a
    caller that values several levels of play (or several rule sets of one dealer
    rule) in fractions asks for the same rows each time: here they are computed once
    and dropped when the last holder leaves.  Nested and concurrent blocks share one
    store; a shared row is the same Fraction a fresh cache computes.
    """
    global _EXACT, _EXACT_HOLDERS
    with _SHARED_LOCK:
        _EXACT_HOLDERS += 1
        if _EXACT is None:
            _EXACT = {}
    try:
        yield
    finally:
        with _SHARED_LOCK:
            _EXACT_HOLDERS -= 1
            if _EXACT_HOLDERS == 0:
                _EXACT = None


class OutcomeCache:
    """Dealer outcomes of one upcard, by the cards out of a base shoe, each computed once.

    Every player hand, split hand and post-split level needs the dealer's outcomes
    in its own depleted shoe, and many coincide: the split hand 8,3 with no extra 8
    out sees the shoe of the hand 8,8,3; a pair of 2s and a pair of 3s share
    hands.  Rows are keyed by the multiset of cards out (counts below 64, packed
    in one integer) in a hash table kept by the compiled module, and computed in
    batches; a shared row is the same object or the same bits as a fresh one (the
    kernel's result for a shoe does not depend on its batch), so sharing changes
    no value.

    A cache is shared by the analyses of one shoe, in any thread: filling it (rows
    counted, keys added, then computed, with the GIL released in the kernel) holds
    its lock, or two threads would write their rows into the same places.
    """

    def __init__(self, base: Sequence[int], upcard: int, *, hits_soft_17: bool,
                 exact: bool) -> None:
        self._lock = threading.RLock()  # rows() calls itself for shoes past the keys
        self.base = np.array(base, dtype=np.int64)
        self.upcard, self.hits_soft_17, self.exact = upcard, hits_soft_17, exact
        self._n = 0  # rows filled
        self._keys = np.zeros(4096, dtype=np.int64)  # key of each row
        self._slot_keys = np.full(8192, -1, dtype=np.int64)  # the hash table, at most half full
        self._slot_rows = np.zeros(8192, dtype=np.int64)
        self._table: npt.NDArray[Any] = np.zeros((4096, N_OUTCOMES),
                                                 dtype=object if exact else np.float64)

    @classmethod
    def shared(cls, base: Sequence[int], upcard: int, *, hits_soft_17: bool,
               exact: bool) -> OutcomeCache:
        """The cache of this shoe and upcard that recent analyses filled, or a new one.

        Analyses of one shoe under rules that share the dealer's rule (a chart's
        evaluation beside the optimum, DAS beside NDAS in a comparison) need the
        same dealer outcomes.  In floats the last :data:`SHARED_CACHES` are kept (a
        few MB each); exact rows are Fractions, too large to keep around, so only
        within :func:`exact_rows_kept`.
        """
        key = (tuple(base), upcard, hits_soft_17)
        if exact:
            with _SHARED_LOCK:
                if _EXACT is None:
                    return cls(base, upcard, hits_soft_17=hits_soft_17, exact=True)
                if key not in _EXACT:
                    _EXACT[key] = cls(base, upcard, hits_soft_17=hits_soft_17, exact=True)
                return _EXACT[key]
        with _SHARED_LOCK:
            cache = _SHARED.pop(key, None) or cls(base, upcard, hits_soft_17=hits_soft_17,
                                                  exact=False)
            _SHARED[key] = cache  # the most recent last
            while len(_SHARED) > SHARED_CACHES:
                del _SHARED[next(iter(_SHARED))]
        return cache

    def rows(self, out: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """``P[s, o]`` for the shoes ``base - out[s]`` (negative counts read as 0)."""
        with self._lock:
            return self._rows(out)

    def find(self, out: npt.NDArray[np.int64]) -> npt.NDArray[np.int64] | None:
        """Row numbers in :attr:`table` of the shoes ``base - out[s]``, new rows computed;
        ``None`` (nothing entered) when a count is one the keys cannot hold (read those
        with :meth:`rows`).  For a caller that derives its own figures once per row."""
        with self._lock:
            return self._find(np.ascontiguousarray(out, dtype=np.int64))

    def find_keys(self, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`find` for shoes given by their keys (:data:`KEY_BASE`), every count of
        them 0..63: a caller with card sets ``a + b`` adds ``a``'s and ``b``'s keys."""
        with self._lock:
            keys = np.ascontiguousarray(keys, dtype=np.int64)
            n = self._n
            self._reserve(n + len(keys))
            rows = np.empty(len(keys), dtype=np.int64)
            first = np.empty(len(keys), dtype=np.int64)
            added = _dealer.cache_find_keys(keys, self._slot_keys, self._slot_rows, self._keys,
                                            n, rows, first)
            self._fill(n, added, self.shoes(n, n + added))
            return rows

    @property
    def table(self) -> npt.NDArray[Any]:
        """The rows filled so far, in the order :meth:`find` numbers them."""
        return self._table[:self._n]

    def shoes(self, lo: int, hi: int) -> npt.NDArray[np.int64]:
        """The shoes of rows ``lo`` to ``hi`` (their keys unpacked: six bits a value)."""
        keys = self._keys[lo:hi, None] // KEY_BASE[None, :]
        result: npt.NDArray[np.int64] = np.maximum(self.base[None, :] - keys % KEY_LIMIT, 0)
        return result

    def _find(self, out: npt.NDArray[np.int64]) -> npt.NDArray[np.int64] | None:
        n = self._n
        self._reserve(n + len(out))
        rows = np.empty(len(out), dtype=np.int64)
        first = np.empty(len(out), dtype=np.int64)
        added = _dealer.cache_find(out, self._slot_keys, self._slot_rows, self._keys, n, rows,
                                   first)
        if added < 0:
            return None
        self._fill(n, added, np.maximum(self.base - out[first[:added]], 0))
        return rows

    def _fill(self, n: int, added: int, shoes: npt.NDArray[np.int64]) -> None:
        """Compute the ``added`` rows entered after row ``n``, for these shoes."""
        if not added:
            return
        try:
            self._table[n:n + added] = outcome_matrix(self.upcard, self.hits_soft_17, shoes,
                                                      self.exact)
        except BaseException:  # the new keys point at rows never filled: forget them
            _dealer.cache_rehash(self._keys, n, self._slot_keys, self._slot_rows)
            raise
        self._n = n + added

    def _rows(self, out: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        out = np.ascontiguousarray(out, dtype=np.int64)
        rows = self._find(out)
        if rows is None:  # a count the keys cannot hold: those shoes computed, not kept
            fits = ((out >= 0) & (out < KEY_LIMIT)).all(axis=1)
            mixed = np.empty((len(out), N_OUTCOMES), dtype=self._table.dtype)
            mixed[~fits] = outcome_matrix(self.upcard, self.hits_soft_17,
                                          np.maximum(self.base - out[~fits], 0), self.exact)
            if fits.any():  # the rest of the batch as usual (optimal splitting has a few
                mixed[fits] = self.rows(out[fits])  # hands of 64+ aces: a 12-deck shoe)
            return mixed
        result: npt.NDArray[Any] = self._table[rows]
        return result

    def _reserve(self, n: int) -> None:
        """Room for ``n`` rows, the hash table at most half full."""
        room = len(self._table)
        if room < n:
            while room < n:
                room *= 2
            table = np.empty((room, N_OUTCOMES), dtype=self._table.dtype)  # rows past n unread
            table[:self._n] = self._table[:self._n]
            keys = np.empty(room, dtype=np.int64)
            keys[:self._n] = self._keys[:self._n]
            self._table, self._keys = table, keys
        if 2 * n > len(self._slot_keys):
            size = len(self._slot_keys)
            while 2 * n > size:
                size *= 2
            self._slot_keys = np.full(size, -1, dtype=np.int64)
            self._slot_rows = np.zeros(size, dtype=np.int64)
            _dealer.cache_rehash(self._keys, self._n, self._slot_keys, self._slot_rows)


@dataclass(frozen=True)
class DealerDistribution:
    """Final outcomes of the dealer's hand for one upcard and shoe (unconditioned)."""

    upcard: int
    outcomes: dict[str, Number]  # keyed by Outcome labels, in Outcome order
    bust_by_cards: dict[int, Number]  # total dealer cards (upcard included) -> P(bust)

    @property
    def bust(self) -> Number:
        return self.outcomes[Outcome.BUST22.label] + self.outcomes[Outcome.BUST23.label]


def _falling_int(x: int, k: int) -> int:
    """``x (x-1) ... (x-k+1)`` over Python integers (0 when ``x`` is negative)."""
    out = 1
    for j in range(k):
        out *= x - j
    return out if x >= 0 else 0


def dealer_distribution(
    counts: Sequence[int], upcard: int, *, hits_soft_17: bool, exact: bool
) -> DealerDistribution:
    """The dealer's distribution from a shoe that no longer holds the upcard.

    Unconditioned: the blackjack outcome is one of the outcomes (a peek game's
    conditioned figures divide the others by ``1 - P(blackjack)``).
    """
    table = draw_table(upcard, hits_soft_17)
    n = list(counts)
    total = sum(n)
    probs = []
    for comp, mult, k in zip(table.comps.tolist(), table.mult.tolist(), table.drawn.tolist(),
                             strict=True):
        w = mult
        for i, ki in enumerate(comp):
            if ki:
                w *= _falling_int(n[i], ki)
        probs.append(Fraction(w, _falling_int(total, k)) if w else Fraction(0))
    weights = np.array(probs, dtype=object)

    def prob(mask: npt.NDArray[np.bool_]) -> Number:
        p = Fraction(weights[mask].sum()) if mask.any() else Fraction(0)
        return p if exact else float(p)

    outcomes = {o.label: prob(table.outcome == o) for o in Outcome}
    busts = table.outcome >= Outcome.BUST22
    by_cards = {int(k) + 1: prob(busts & (table.drawn == k))
                for k in sorted(set(table.drawn[busts].tolist()))}
    return DealerDistribution(upcard=upcard, outcomes=outcomes, bust_by_cards=by_cards)


def dealer_bust_by_cards(
    counts: Sequence[int], upcard: int, *, hits_soft_17: bool, exact: bool
) -> dict[int, Number]:
    """P(dealer busts holding exactly k cards), upcard counted; no conditioning."""
    return dealer_distribution(counts, upcard, hits_soft_17=hits_soft_17,
                               exact=exact).bust_by_cards
