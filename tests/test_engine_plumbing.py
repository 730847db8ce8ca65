"""The engine's plumbing against the plain computation it replaces.

The dealer-outcome cache (a compiled hash table), the packed-key ``np.unique``
of the kernel tables, the compiled dedupe of a split round's card sets, the
compiled hand recursion of optimal splitting and the forked upcards change
where a value is computed,
never the value: each is checked here against the direct route, bit for bit.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from analyzer.core.arith import gmp_rational
from analyzer.core.errors import InternalError
from analyzer.core.shoe import Shoe
from analyzer.engine import forked
from analyzer.engine import kernel as _dealer  # the compiled loops in use (BJA_KERNEL)
from analyzer.engine.dealer import OutcomeCache, outcome_matrix, unique_rows
from analyzer.engine.dist_splits import PairSums, merge_pairs
from analyzer.engine.hands import PlayRules, hand_space
from analyzer.engine.optimal_split import _nodes as optimal_nodes
from analyzer.engine.postsplit import split_hand_space
from analyzer.util import pool


@pytest.mark.parametrize("exact", [False, True])
def test_outcome_cache_rows_are_the_direct_outcomes(exact: bool) -> None:
    """Repeats within a batch and across batches, growth past the first table, bad counts."""
    base = Shoe.decks(1 if exact else 6).remove([7]).counts
    rng = np.random.default_rng(3)
    cache = OutcomeCache(base, 7, hits_soft_17=False, exact=exact)
    size = 40 if exact else 3000
    batches = [rng.integers(0, 3, size=(size, 10)) for _ in range(4)]
    batches.append(np.concatenate([batches[0][:50], batches[2][-50:], batches[0][:50]]))
    for out in batches:
        got = cache.rows(out)
        direct = outcome_matrix(7, False, np.maximum(np.array(base) - out, 0), exact)
        assert got.dtype == direct.dtype and (got == direct).all()
    if not exact:  # 4 x 3000 random multisets of 0..2 cards: the table grew past 4096 rows
        assert cache._n > 4096
    odd = np.zeros((2, 10), dtype=np.int64)
    odd[0, 9] = 70  # more than a key holds: computed directly, not kept
    odd[1, 0] = -1  # a card put back: counts read as they are
    n = cache._n
    direct = outcome_matrix(7, False, np.maximum(np.array(base) - odd, 0), exact)
    assert (cache.rows(odd) == direct).all() and cache._n == n
    fresh = np.zeros((1, 10), dtype=np.int64)
    fresh[0, 1] = 4  # four 2s out: no random batch above (0..2 cards a value) had it
    mixed = np.concatenate([odd[:1], fresh, odd[1:]])
    direct = outcome_matrix(7, False, np.maximum(np.array(base) - mixed, 0), exact)
    assert (cache.rows(mixed) == direct).all() and cache._n == n + 1  # the fitting row kept
    if exact:  # the engine's exact type inside (a GMP rational), never a float
        assert all(isinstance(x, gmp_rational()) for x in cache.rows(batches[1][:3]).ravel())


def test_outcome_cache_forgets_rows_it_failed_to_fill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted while computing new rows: the keys entered are taken back out."""
    from analyzer.engine import dealer

    base = Shoe.decks(2).remove([10]).counts
    cache = OutcomeCache(base, 10, hits_soft_17=True, exact=False)
    out = np.eye(10, dtype=np.int64)
    real = dealer.outcome_matrix

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(dealer, "outcome_matrix", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cache.rows(out)
    monkeypatch.setattr(dealer, "outcome_matrix", real)
    assert cache._n == 0
    assert (cache.rows(out) == real(10, True, np.array(base) - out, False)).all()


def test_cache_find_refuses_mismatched_arrays() -> None:
    keys = np.zeros(8, dtype=np.int64)
    with pytest.raises(ValueError, match="power of two"):
        _dealer.cache_find(np.zeros((1, 10), dtype=np.int64), np.full(6, -1, dtype=np.int64),
                           np.zeros(6, dtype=np.int64), keys, 0, np.empty(1, dtype=np.int64),
                           np.empty(1, dtype=np.int64))
    with pytest.raises(ValueError, match="sizes disagree"):  # 3 shoes cannot fit half of 4
        _dealer.cache_find(np.zeros((3, 10), dtype=np.int64), np.full(4, -1, dtype=np.int64),
                           np.zeros(4, dtype=np.int64), keys, 0, np.empty(3, dtype=np.int64),
                           np.empty(3, dtype=np.int64))
    with pytest.raises(ValueError, match="sizes disagree"):  # shoes by key: the same checks
        _dealer.cache_find_keys(np.zeros(3, dtype=np.int64), np.full(4, -1, dtype=np.int64),
                                np.zeros(4, dtype=np.int64), keys, 0, np.empty(3, dtype=np.int64),
                                np.empty(3, dtype=np.int64))
    with pytest.raises(ValueError, match="sizes disagree"):  # counts are ten per shoe
        _dealer.cache_find(np.zeros((1, 9), dtype=np.int64), np.full(8, -1, dtype=np.int64),
                           np.zeros(8, dtype=np.int64), keys, 0, np.empty(1, dtype=np.int64),
                           np.empty(1, dtype=np.int64))


def test_packed_unique_rows_equal_numpy_unique() -> None:
    """The kernel's tables use the packed-key unique: the same rows, order and inverse."""
    rng = np.random.default_rng(8)
    for cols, top in ((3, 12), (2, 5000), (1, 7), (4, 2)):
        rows = rng.integers(0, top, size=(500, cols))
        uniq, inv = unique_rows(rows)
        want, want_inv = np.unique(rows, axis=0, return_inverse=True)
        assert (uniq == want).all() and (inv == want_inv.ravel()).all()
    # keys would overflow: np.unique's own rows (an internal error before: RD3 with bonuses)
    wide = np.array([[2**40, 1, 2], [0, 2**40, 5], [2**40, 1, 2]])
    uniq, inv = unique_rows(wide)
    assert uniq.tolist() == [[0, 2**40, 5], [2**40, 1, 2]] and inv.tolist() == [1, 0, 1]


@pytest.mark.parametrize(("n_head", "n_tail", "top"), [(300, 200, 40), (40, 300, 10**12),
                                                       (0, 5, 9), (7, 0, 9), (1, 1, 0)])
def test_distinct_sums_is_a_brute_force_set(n_head: int, n_tail: int, top: int) -> None:
    """The compiled distinct sums of a split round's card sets against a Python set.

    The 10^12 case has every one of its 12,000 sums distinct, which grows the table
    (4,096 slots at first, doubled when half full) and the list of sums (4,096 at
    first) while keys are being entered; the large cases below cut the sums into
    ranges of a million pairs.
    """
    rng = np.random.default_rng(n_head + n_tail)
    head = np.sort(rng.integers(0, top + 1, n_head))
    tail = rng.integers(0, top + 1, n_tail)
    found = _dealer.distinct_sums(head, tail, 17)
    assert found.tolist() == sorted({int(h) + int(t) + 17 for h in head for t in tail})


@pytest.mark.parametrize("pairs_at_once", [10**9, 1_000, 150, 1])
def test_pair_sums_are_every_pair_sum_sorted_slice_by_slice(pairs_at_once: int) -> None:
    """:class:`PairSums` in one slice and in many (the table lookups of ``sum_rows``)
    against a brute-force sum of every pair."""
    rng = np.random.default_rng(pairs_at_once)
    head, tail = rng.integers(0, 10**9, 60), rng.integers(0, 50, 40)
    head[:5] = head[5]  # repeated sums
    sums = PairSums(head, tail, 3, pairs_at_once=pairs_at_once)
    every = head[:, None] + tail[None, :] + 3
    assert sums.unique.tolist() == sorted(set(every.ravel().tolist()))
    seen = []
    for rows, where in sums.slices():
        assert (sums.unique[where] == every[rows]).all()
        seen.extend(range(len(head))[rows])
    assert seen == list(range(len(head)))  # every head row once, in order


def test_sum_rows_marks_a_sum_not_in_the_table_and_refuses_an_unsorted_list() -> None:
    unique = np.array([5, 9, 12], dtype=np.int64)
    rows = np.empty(6, dtype=np.int64)
    head = np.array([4, 1, 9])  # out of order: found all the same
    missing = _dealer.sum_rows(head, np.array([1, 8]), 3, unique, rows)
    assert missing == 4 and rows.tolist() == [-1, -1, 0, 2, -1, -1]  # 8 15 5 12 13 20
    with pytest.raises(ValueError, match="not strictly increasing"):
        _dealer.sum_rows(head, np.array([1]), 0, unique[::-1].copy(), rows[:3])


@pytest.mark.parametrize(("m", "top"), [(5000, 30), (3000, 10**15), (0, 1), (1, 1)])
def test_merge_pairs_is_a_dict_of_sums(m: int, top: int) -> None:
    """The compiled merge of a split's rounds against a dict; the 10^15 case has nearly
    every pair distinct, which doubles the table (4,096 slots at first) while it fills."""
    rng = np.random.default_rng(m)
    k1, k2 = rng.integers(0, top, m), rng.integers(0, 3, m)
    mult = rng.integers(1, 10**6, m)
    first, total = merge_pairs(k1, k2, mult)
    expect: dict[tuple[int, int], int] = {}
    for a, b, c in zip(k1.tolist(), k2.tolist(), mult.tolist(), strict=True):
        expect[a, b] = expect.get((a, b), 0) + c
    assert list(zip(k1[first].tolist(), k2[first].tolist(), strict=True)) == list(expect)
    assert total.tolist() == list(expect.values())


@pytest.mark.parametrize(("n_head", "n_tail", "top"), [
    pytest.param(3000, 1500, 10**6, marks=pytest.mark.slow), (2000, 2000, 300)])
def test_distinct_sums_in_ranges_are_every_sum_once(n_head: int, n_tail: int, top: int) -> None:
    """More than a million pairs: the sums found range by range, each in a table of its
    own, are each distinct sum once (against numpy's sort of every pair's sum)."""
    rng = np.random.default_rng(top)
    head = np.sort(rng.integers(0, top, n_head))
    tail = rng.integers(0, top, n_tail)
    every = np.unique((head[:, None] + tail[None, :]).ravel() + 5)
    assert np.array_equal(_dealer.distinct_sums(head, tail, 5), every)


def test_distinct_sums_refuses_bad_input() -> None:
    with pytest.raises(TypeError, match="head must be int64"):
        _dealer.distinct_sums(np.zeros(2, dtype=np.int32), np.zeros(3, dtype=np.int64), 0)
    with pytest.raises(ValueError, match="head is not sorted"):
        _dealer.distinct_sums(np.array([3, 1]), np.zeros(3, dtype=np.int64), 0)


@pytest.mark.skipif(not pool.available(), reason="no fork on this platform")
def test_in_forks_returns_what_children_computed_and_skips_their_failures() -> None:
    parent = os.getpid()
    seen: list[int] = []

    def work(item: int) -> tuple[int, int]:
        if os.getpid() == parent:
            seen.append(item)
        elif item == 5:
            raise RuntimeError("a child fails on 5")
        return item * item, os.getpid()

    items = list(range(12))
    got = forked.in_forks(work, items, jobs=2)
    assert all(value == item * item and pid != parent for item, (value, pid) in got.items())
    assert 5 not in got  # a failing child ends: the rest of its share is the parent's
    assert set(got).isdisjoint(seen)  # each item taken once
    assert set(got) | set(seen) >= set(items) - {5}  # only a failed item may be missing
    with pytest.raises(InternalError, match="0..255"):
        forked.in_forks(work, [256], jobs=2)


def test_best_play_is_the_numpy_layer_loop() -> None:
    """Optimal splitting's compiled hand recursion against the numpy loop it replaced.

    The kernel adds the ten terms in numpy's pairwise order, so the values agree to
    the last bit on numpy 2.x; the tolerance only guards against a numpy that sums
    ten items another way.  The chances come by row, several (set, node) pairs sharing
    one, as shoes are shared.
    """
    space, _ = split_hand_space(hand_space(Shoe.decks(1).remove([6]).counts), 8)
    nd = optimal_nodes(space, PlayRules())
    rng = np.random.default_rng(11)
    n, m, b = 7, len(space.comps), len(nd.bust_node)
    table = rng.dirichlet(np.ones(10), size=n * m // 3)
    at = rng.integers(0, len(table), size=(n, m))
    probs = table[at]
    stand = rng.uniform(-1, 1, (n, m))
    busted = rng.uniform(-2, 0, (n, b))
    forced = rng.random(m) < 0.1
    hit, cont = np.empty((n, m)), np.empty((n, m))
    _dealer.best_play(at, table, stand, busted, space.child, nd.bust_of, nd.order,
                      forced.astype(np.int64), hit, cont)
    want_hit, want = np.zeros((n, m)), np.zeros((n, m))
    for layer in space.layers:  # largest hands first
        padded = np.concatenate([want, np.zeros((n, 2))], axis=1)  # a bust, a card not left
        vals = padded[:, np.minimum(space.child[layer], m + 1)]
        where = nd.bust_of[layer]
        vals[:, where >= 0] = busted[:, where[where >= 0]]
        h = (probs[:, layer] * vals).sum(axis=2)
        want_hit[:, layer] = h
        want[:, layer] = np.where((h > stand[:, layer]) & ~forced[layer], h, stand[:, layer])
    assert np.allclose(hit, want_hit, rtol=0, atol=1e-15)
    assert np.allclose(cont, want, rtol=0, atol=1e-15)
    assert (cont > stand + 1e-12).any() and (cont == stand).any()  # both choices taken
    # every node told to stop: the hit values are one card's sums over ``stand`` (what
    # optimal splitting's doubles read), the same bits as numpy's
    _dealer.best_play(at, table, stand, busted, space.child, nd.bust_of, nd.order,
                      np.ones(m, dtype=np.int64), hit, cont)
    padded = np.concatenate([stand, np.zeros((n, 2))], axis=1)
    vals = padded[:, np.minimum(space.child, m + 1)]
    vals[:, nd.bust_of >= 0] = busted[:, nd.bust_of[nd.bust_of >= 0]]
    assert np.array_equal(hit, (probs * vals).sum(axis=2)) and np.array_equal(cont, stand)


def test_best_play_refuses_bad_input() -> None:
    space, _ = split_hand_space(hand_space(Shoe.decks(1).remove([6]).counts), 8)
    nd = optimal_nodes(space, PlayRules())
    m, b = len(space.comps), len(nd.bust_node)
    probs, stand, busted = np.zeros((5, 10)), np.zeros((2, m)), np.zeros((2, b))
    at = np.zeros((2, m), dtype=np.int64)
    forced = np.zeros(m, dtype=np.int64)
    with pytest.raises(ValueError, match="sizes disagree"):
        _dealer.best_play(at[:1], probs, stand, busted, space.child, nd.bust_of, nd.order,
                          forced, np.empty((2, m)), np.empty((2, m)))
    with pytest.raises(ValueError, match="sizes disagree"):
        _dealer.best_play(at, np.zeros((5, 9)), stand, busted, space.child, nd.bust_of, nd.order,
                          forced, np.empty((2, m)), np.empty((2, m)))
    with pytest.raises(ValueError, match="out of range"):
        _dealer.best_play(at, probs, stand, np.zeros((2, b - 1)), space.child, nd.bust_of,
                          nd.order, forced, np.empty((2, m)), np.empty((2, m)))
    at[1, 3] = 5  # past the table of chances
    with pytest.raises(ValueError, match="row of probs out of range"):
        _dealer.best_play(at, probs, stand, busted, space.child, nd.bust_of, nd.order,
                          forced, np.empty((2, m)), np.empty((2, m)))
    at[1, 3] = 0
    forced[4] = 3  # a play other than best, stand or hit
    with pytest.raises(ValueError, match="play out of range"):
        _dealer.best_play(at, probs, stand, busted, space.child, nd.bust_of, nd.order,
                          forced, np.empty((2, m)), np.empty((2, m)))
