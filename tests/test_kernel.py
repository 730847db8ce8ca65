"""The dealer kernels: the C extension and the numba fallback give the same bits.

Each kernel is run on random inputs by both paths and the outputs compared bit for
bit (the fallback does the C's IEEE operations in the C's order; the residue pairing
also against Python integers);
both refuse arrays of the wrong dtype, shape or order alike; the C extension's exact
dealer sums (128-bit integers, no numba twin) equal the Python integers of the exact
path, and decline a denominator beyond 128 bits; and the command line
gives the same figures with ``BJA_KERNEL=c`` and ``BJA_KERNEL=python``.  Without the
C extension built, the comparisons skip and the rest runs on the fallback.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.errors import UsageError
from analyzer.core.modular import primes_for
from analyzer.core.outcomes import N_OUTCOMES
from analyzer.core.shoe import Shoe
from analyzer.engine import dealer, hands, kernel, kernel_numba
from analyzer.engine.hands import PlayRules, hand_space, payoff_matrix
from analyzer.engine.optimal_split import _nodes as optimal_nodes
from analyzer.engine.postsplit import split_hand_space

C = kernel.compiled()
needs_c = pytest.mark.skipif(C is None, reason="the C extension is not built here")
PATHS = [pytest.param(kernel_numba, id="numba"),
         pytest.param(C, id="c", marks=needs_c)]


def _both(call: Callable[[ModuleType], Any]) -> tuple[Any, Any]:
    assert C is not None
    return call(C), call(kernel_numba)


def _same(a: Any, b: Any) -> None:
    """Equal to the last bit (arrays: same dtype, shape and bytes)."""
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    elif isinstance(a, tuple | list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    else:
        assert a == b


# -- each kernel, both paths, random inputs -------------------------------------------------
def _shoes(seed: int) -> npt.NDArray[np.int64]:
    rng = np.random.default_rng(seed)
    big = Shoe.decks(6).counts - rng.integers(0, 12, size=(200, 10))
    small = rng.integers(0, 3, size=(200, 10))
    return np.concatenate([big, small, np.zeros((1, 10), dtype=np.int64)]).astype(np.int64)


@needs_c
@pytest.mark.parametrize("h17", [False, True])
def test_outcome_sums_same_bits(h17: bool) -> None:
    shoes = _shoes(5)
    for up in range(1, 11):
        k = dealer._kernel(up, h17)

        def run(m: ModuleType, k: dealer.KernelTables = k) -> npt.NDArray[np.float64]:
            out = np.empty((len(shoes), len(k.runs) - 1))
            m.outcome_sums(shoes, k.blocks, k.block_of, k.halves, k.low_of, k.high_of, k.runs,
                           k.mult, k.kmax, out)
            return out

        _same(*_both(run))


@needs_c
def _entered(find: Callable[..., int], batches: list[npt.NDArray[np.int64]]
             ) -> tuple[list[Any], int, Any, Any, Any]:
    """The batches entered one after another into one table by ``find`` (``cache_find``
    or a caller of ``cache_find_keys``): what each call gave and left in the table, then
    the rows filled, the keys and the table."""
    seen: list[Any] = []
    size, n = 4096, 0
    keys = np.zeros(size, dtype=np.int64)
    slot_keys, slot_rows = np.full(size, -1, dtype=np.int64), np.zeros(size, dtype=np.int64)
    for out in batches:
        rows, first = np.empty(len(out), dtype=np.int64), np.empty(len(out), dtype=np.int64)
        added = find(out, slot_keys, slot_rows, keys, n, rows, first)
        seen += [added, slot_keys.copy(), slot_rows.copy()]
        if added >= 0:
            seen += [rows, first[:added].copy()]
            n += added
    return seen, n, keys, slot_keys, slot_rows


def test_cache_find_and_rehash_same_bits() -> None:
    """The same sequence of batches into two tables: the same rows, keys and slots."""
    rng = np.random.default_rng(2)
    batches = [rng.integers(0, 4, size=(n, 10)).astype(np.int64) for n in (50, 900, 300, 1)]
    batches.insert(2, np.concatenate([batches[0][:20], batches[1][-30:]]))
    bad = batches[0][:5].copy()
    bad[3, 4] = 64  # a count the keys cannot hold: -1, nothing entered
    batches.append(bad)

    def run(m: ModuleType) -> list[Any]:
        seen, n, keys, slot_keys, slot_rows = _entered(m.cache_find, batches)
        m.cache_rehash(keys, n, slot_keys, slot_rows)
        return [*seen, n, keys, slot_keys, slot_rows]

    c, fallback = _both(run)
    _same(c, fallback)
    added = [x for x in c if isinstance(x, int)]
    assert added[0] > 0 and added[-1] > 1000 and -1 in added  # entered, refilled, a refusal


@needs_c
@pytest.mark.parametrize(("n_head", "n_tail", "top"), [(300, 200, 40), (40, 120, 10**12),
                                                       (0, 5, 9), (1, 1, 0),
                                                       (2000, 1500, 10**9)])  # in ranges
def test_distinct_sums_same_bits(n_head: int, n_tail: int, top: int) -> None:
    rng = np.random.default_rng(n_head * 7 + n_tail)
    head = np.sort(rng.integers(0, top + 1, n_head)).astype(np.int64)
    tail = rng.integers(0, top + 1, n_tail).astype(np.int64)
    _same(*_both(lambda m: m.distinct_sums(head, tail, 3)))  # the same order, too


@needs_c
def test_merge_pairs_same_bits() -> None:
    rng = np.random.default_rng(5)
    k1, k2 = rng.integers(0, 2**62, 9000), rng.integers(0, 40, 9000)
    k1[::3] = 12  # many rows of one card set

    def run(m: ModuleType) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        first, total = np.full(9000, -7, dtype=np.int64), np.full(9000, -7, dtype=np.int64)
        n = m.merge_pairs(k1, k2, np.arange(9000, dtype=np.int64), first, total)
        return n, first[:n], total[:n]

    c, fallback = _both(run)
    _same(c, fallback)
    assert 6000 < c[0] < 9000  # merged, and the table grew past 4,096 slots


@pytest.mark.parametrize("impl", PATHS)
@pytest.mark.parametrize("order", ["sorted", "shuffled", "descending"])
def test_sum_rows_finds_every_sum_in_any_order(impl: ModuleType, order: str) -> None:
    """Each search starts where an earlier one ended only when that one's sum was not
    larger: heads and tails in any order give the rows a dictionary gives."""
    rng = np.random.default_rng(3)
    unique = np.unique(rng.integers(0, 10**7, 20_000)).astype(np.int64)
    head = np.sort(rng.choice(unique[:10_000], 700))  # several tiles of 128
    tail = np.sort(rng.choice(unique[:2_000], 40)) - unique[0]
    if order == "shuffled":
        head, tail = rng.permutation(head), rng.permutation(tail)
    elif order == "descending":
        head, tail = head[::-1].copy(), tail[::-1].copy()
    rows = np.full(len(head) * len(tail), -7, dtype=np.int64)
    missing = impl.sum_rows(head, tail, 5, unique, rows)
    index = {int(v): i for i, v in enumerate(unique)}
    expect = [index.get(int(h) + int(t) + 5, -1) for h in head for t in tail]
    assert rows.tolist() == expect
    assert missing == expect.count(-1) and 0 < missing < len(expect)


@pytest.mark.parametrize("impl", PATHS)
def test_keys_at_the_ends_of_int64_are_in_order(impl: ModuleType) -> None:
    """Order is checked by comparing keys, not by their differences (which wrap past
    2**63): both paths take the same sorted keys."""
    big = np.iinfo(np.int64)
    unique = np.array([big.min, 0, big.max], dtype=np.int64)  # differences past 2**63
    rows = np.empty(3, dtype=np.int64)
    assert impl.sum_rows(unique, np.zeros(1, np.int64), 0, unique, rows) == 0
    assert rows.tolist() == [0, 1, 2]
    assert sorted(np.frombuffer(impl.distinct_sums(unique, np.zeros(1, np.int64), 0),
                                np.int64).tolist()) == unique.tolist()
    with pytest.raises(ValueError, match="not strictly increasing"):
        impl.sum_rows(unique, np.zeros(1, np.int64), 0, unique[::-1].copy(), rows)


@needs_c
def test_sum_rows_and_pair_accumulate_same_bits() -> None:
    rng = np.random.default_rng(11)
    unique = np.unique(rng.integers(0, 10**6, 3000)).astype(np.int64)
    head = np.sort(rng.choice(unique, 300)).astype(np.int64)  # more than a tile of 128
    head[8] = head[7]  # a head twice
    tail = np.array([0, 0, 1, 5, 10**6], dtype=np.int64)  # 1, 5, 10**6: mostly absent
    weights = rng.random((len(unique), 3))
    starts = np.array([0, 1, 3, 3, 4, 6], dtype=np.int64)
    results = rng.integers(0, 4, (6, 4)).astype(np.int64)

    def run(m: ModuleType) -> tuple[int, npt.NDArray[np.int64], int, npt.NDArray[np.float64]]:
        rows = np.full(len(head) * len(tail), -7, dtype=np.int64)
        acc = np.zeros((len(head), 3, 4))
        return (m.sum_rows(head, tail, 0, unique, rows), rows,
                m.pair_accumulate(head, tail, 0, unique, weights, starts, results, acc), acc)

    c, fallback = _both(run)
    _same(c, fallback)
    missing, rows, also_missing, acc = c
    assert 0 < missing == also_missing < len(rows) and (rows.reshape(300, 5)[:, 0] >= 0).all()
    expect = np.zeros_like(acc)  # the same sums, one pair at a time in Python
    for i, j in np.argwhere(rows.reshape(300, 5) >= 0):
        for r in range(starts[j], starts[j + 1]):
            for k in range(3):
                expect[i, k, results[r, 1 + k]] += weights[rows[i * 5 + j], k] * results[r, 0]
    assert np.allclose(acc, expect, rtol=1e-15, atol=0)


def _pairing_by_numpy(head: npt.NDArray[np.int64], tail: npt.NDArray[np.int64], extra: int,
                      unique: npt.NDArray[np.int64], weights: npt.NDArray[np.float64],
                      starts: npt.NDArray[np.int64], results: npt.NDArray[np.int64],
                      ny: int) -> tuple[int, npt.NDArray[np.float64]]:
    """pair_accumulate by ``np.add.at`` over the pairs head by head, tail by tail: the
    adds in the kernel's order (an entry's products tail by tail), so the same bits."""
    no = weights.shape[1]
    acc = np.zeros((len(head), no, ny))
    sums = (head[:, None] + tail[None, :] + extra).ravel()
    rows = np.searchsorted(unique, sums)
    found = (rows < len(unique)) & (unique[np.minimum(rows, len(unique) - 1)] == sums)
    i, j = np.divmod(np.flatnonzero(found), len(tail))
    counts = starts[j + 1] - starts[j]  # each pair times each of its tail set's rounds
    i, r = np.repeat(i, counts), np.concatenate([np.arange(starts[b], starts[b + 1])
                                                 for b in j]).astype(np.int64)
    row = np.repeat(rows[found], counts)
    for k in range(no):  # outcome by outcome: each entry is one outcome's
        np.add.at(acc, (i, k, results[r, 1 + k]), weights[row, k] * results[r, 0].astype(float))
    return int((~found).sum()), acc


@pytest.mark.parametrize("impl", PATHS)
@pytest.mark.parametrize("n_unique", [100, 2 * 16384, 2 * 16384 + 1, 50_000])
@pytest.mark.parametrize("narrow", [False, True])
def test_pair_accumulate_over_windows_of_sums_adds_in_order(impl: ModuleType, n_unique: int,
                                                            narrow: bool) -> None:
    """The C module walks the pairs window by window of the distinct sums (16,384 each:
    here one, two exactly, two and one sum, four): every pair once, and each entry's
    products added tail by tail as numpy adds them, to the last bit; sums below, between
    and above the distinct ones are counted missing.  ``narrow``: heads close together and
    tails spread wide, so that a tail's sums fall in one or two windows and the walk
    skips it in the others."""
    rng = np.random.default_rng(n_unique)
    unique = np.unique(rng.integers(0, 10**9, n_unique)).astype(np.int64)
    while len(unique) < n_unique:
        unique = np.unique(np.append(unique, rng.integers(0, 10**9, n_unique - len(unique))))
    head = np.sort(rng.choice((unique[:600] if narrow else unique[::3]) - 1000, 150))
    spread = 10**9 if narrow else 10**6
    tail = np.sort(np.append(rng.integers(0, spread, 60), [0, 0, 10**9]))
    head[1:3] = head[0]  # heads twice over, and sums past the last
    nb = len(tail)
    sizes = rng.integers(0, 3, nb)  # a tail set has zero, one or two rounds
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    weights = rng.random((len(unique), 3))
    results = np.concatenate([rng.integers(1, 50, (int(starts[-1]), 1)),
                              rng.integers(0, 4, (int(starts[-1]), 3))], axis=1).astype(np.int64)
    acc = np.zeros((len(head), 3, 4))
    missing = impl.pair_accumulate(head, tail, 1000, unique, weights, starts, results, acc)
    expect_missing, expect = _pairing_by_numpy(head, tail, 1000, unique, weights, starts,
                                               results, 4)
    assert missing == expect_missing and 0 < missing < len(head) * nb
    assert acc.tobytes() == expect.tobytes()


@pytest.mark.parametrize("impl", PATHS)
def test_pair_accumulate_refuses_heads_or_tails_out_of_order(impl: ModuleType) -> None:
    """The walk by windows needs sorted heads and tails (the order an entry adds in)."""
    unique = np.arange(10, dtype=np.int64)
    args = (np.arange(4, dtype=np.int64), np.array([[1, 0]] * 3, np.int64), np.zeros((2, 1, 1)))
    for head, tail in (([1, 0], [0, 1, 2]), ([0, 1], [2, 1, 0])):
        with pytest.raises(ValueError, match="head or tail is not sorted"):
            impl.pair_accumulate(np.array(head, np.int64), np.array(tail, np.int64), 0,
                                 unique, np.ones((10, 1)), *args)


def _residue_inputs(seed: int, sizes: tuple[int, ...] = (2, 1, 0, 2, 1)) -> tuple[Any, ...]:
    """A pairing for :func:`pair_residues`: sums partly absent, heads not quite sorted,
    residues near the primes (the largest products), ``sizes[b]`` rounds of tail set b."""
    rng = np.random.default_rng(seed)
    primes = primes_for(90)  # four primes below 2**26
    unique = np.unique(rng.integers(0, 10**6, 3000)).astype(np.int64)
    head = np.sort(rng.choice(unique, 300)).astype(np.int64)
    head[7] = head[200]
    tail = np.array([0, 0, 1, 5, 10**6], dtype=np.int64)
    joint = (primes[None, None, :] - 1 - rng.integers(0, 3, (len(unique), 9, len(primes)))
             ).astype(np.int32)
    outcomes = np.array([0, 2, 3, 8], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    results = rng.integers(0, 4, (int(starts[-1]), 1 + len(outcomes))).astype(np.int64)
    orders = (primes[None, :] - 1 - rng.integers(0, 2, (len(results), len(primes)))
              ).astype(np.int64)
    return head, tail, unique, joint, outcomes, primes, starts, results, orders


# (1000, 0, 900, 1000, 2): more products to an entry than fit between reductions
@pytest.mark.parametrize("sizes", [(2, 1, 0, 2, 1), (1000, 0, 900, 1000, 2)])
def test_pair_residues_is_the_modular_sum(sizes: tuple[int, ...]) -> None:
    """Each implementation against Python integers pair by pair; C and numba the same."""
    head, tail, unique, joint, outcomes, primes, starts, results, orders = \
        _residue_inputs(5, sizes)

    def run(m: ModuleType) -> tuple[int, npt.NDArray[np.int64]]:
        acc = np.zeros((len(head), len(outcomes), 4, len(primes)), dtype=np.int64)
        acc[3, 1, 2] = primes - 1  # residues on entry are added to
        return m.pair_residues(head, tail, 0, unique, joint, outcomes, primes, starts,
                               results, orders, acc), acc

    outs = [run(m) for m in (kernel_numba, C) if m is not None]
    for other in outs[1:]:
        _same(outs[0], other)
    missing, acc = outs[0]
    index = {int(v): i for i, v in enumerate(unique)}
    expect = np.zeros(acc.shape, dtype=object)
    expect[3, 1, 2] = primes - 1
    gone = 0
    for i, h in enumerate(head.tolist()):
        for j, t in enumerate(tail.tolist()):
            row = index.get(h + t)
            gone += row is None
            for r in range(starts[j], starts[j + 1]) if row is not None else ():
                for k, o in enumerate(outcomes.tolist()):
                    for p in range(len(primes)):
                        expect[i, k, results[r, 1 + k], p] += \
                            int(joint[row, o, p]) * int(orders[r, p])
    assert missing == gone > 0
    assert (acc == expect % primes.astype(object)).all()


@pytest.mark.parametrize("impl", PATHS)
def test_pair_residues_refuses_what_is_not_residues(impl: ModuleType) -> None:
    head, tail, unique, joint, outcomes, primes, starts, results, orders = _residue_inputs(6)

    def call(joint: Any = joint, orders: Any = orders, outcomes: Any = outcomes,
             acc: Any = None) -> int:
        acc = np.zeros((len(head), len(outcomes), 4, len(primes)), np.int64) if acc is None \
            else acc
        missing: int = impl.pair_residues(head, tail, 0, unique, joint, outcomes, primes,
                                          starts, results, orders, acc)
        return missing

    assert call() > 0
    big = _residue_inputs(6, (1025, 0, 0, 0, 0))  # a set of more rounds than fit: refused
    with pytest.raises(ValueError, match="out of range"):
        impl.pair_residues(big[0], big[1], 0, *big[2:],
                           np.zeros((len(head), len(outcomes), 4, len(primes)), np.int64))
    with pytest.raises(TypeError, match="joint must be int32"):
        call(joint=joint.astype(np.int64))
    with pytest.raises(ValueError, match="out of range"):
        call(orders=orders + primes[None, :])  # not reduced
    with pytest.raises(ValueError, match="out of range"):
        call(outcomes=outcomes + 1)  # a column past joint's outcomes
    with pytest.raises(ValueError, match="residues"):
        call(acc=np.full((len(head), len(outcomes), 4, len(primes)), 2**40, np.int64))
    with pytest.raises(ValueError, match="sizes disagree"):
        call(acc=np.zeros((len(head) + 1, len(outcomes), 4, len(primes)), np.int64))


def _fill_inputs(seed: int, nh: int = 9) -> dict[str, Any]:
    """A joint fill: 40 sets over 6 low halves, the low products near the primes (one
    value's factors near them, the others 1), the high table near them too.  With 9 high
    halves, eleven groups of compositions, one of 2,400 with orderings near the primes: its
    sum would overflow an int64 unreduced.  With more, one composition per column of ``A``
    (orderings 1, so every entry of ``A`` is near its prime): a set's sums over thousands of
    high halves would overflow unreduced."""
    rng = np.random.default_rng(seed)
    primes = primes_for(90)
    cut, nl, nuh, n_p, nsets = 4, 5, 7, 3, 40
    q = primes[:, None]
    ff = np.ones((len(primes), cut, 7), dtype=np.int64)
    ff[:, 0] = q - 1 - rng.integers(0, 3, (len(primes), 7))
    if nh == 9:  # eleven groups: two empty, one of 2,400 compositions
        starts = np.array([0, 100, 100, 100, 2500, 2520, 2540, 2560, 2580, 2590, 2595, 2600])
        cols = rng.choice(nh * n_p, len(starts) - 1, replace=False)
        mult = q - 1 - rng.integers(0, 3, (len(primes), starts[-1]))
    else:
        starts = np.arange(nh * n_p + 1)
        cols = rng.permutation(nh * n_p)
        mult = np.ones((len(primes), starts[-1]), dtype=np.int64)
    arrays = dict(
        ff=ff, u_low=rng.integers(0, 3, (6, cut)), low=rng.integers(0, 4, (nl, cut)),
        comp_low=rng.integers(0, nl, starts[-1]), mult=mult, starts=starts, cols=cols,
        phigh=q.T[:, :, None] - 1 - rng.integers(0, 3, (nuh, len(primes), nh)),
        first=np.concatenate([[0], np.sort(rng.integers(0, nsets, 5)), [nsets]]),
        high_rows=rng.integers(0, nuh, nsets), sets=rng.permutation(nsets),
        present=np.array([0, 3, 7]), primes=primes)
    return {k: np.ascontiguousarray(v, dtype=np.int64) for k, v in arrays.items()}


def _fill_expected(x: dict[str, Any], i: int) -> dict[tuple[int, int], int]:
    """The joint fill modulo the ``i``-th prime by its definition, one entry at a time, in
    Python integers."""
    p = int(x["primes"][i])
    ff, mult, ph = x["ff"][i], x["mult"][i], x["phigh"][:, i]
    n_p, nh = len(x["present"]), ph.shape[1]
    out: dict[tuple[int, int], int] = {}
    for j, u in enumerate(x["u_low"].tolist()):
        plow = []
        for kl in x["low"].tolist():
            v = 1
            for c in range(len(u)):
                v *= int(ff[c, u[c] + kl[c]])
            plow.append(v)
        flat = [0] * (nh * n_p)
        for g, col in enumerate(x["cols"].tolist()):
            flat[col] = sum(plow[x["comp_low"][c]] * int(mult[c])
                            for c in range(x["starts"][g], x["starts"][g + 1]))
        for r in range(x["first"][j], x["first"][j + 1]):
            for q, o in enumerate(x["present"].tolist()):
                s = sum(int(ph[x["high_rows"][r], h]) * flat[h * n_p + q] for h in range(nh))
                out[int(x["sets"][r]), o] = s % p
    return out


_FILL_ORDER = ("ff", "u_low", "low", "comp_low", "mult", "starts", "cols", "phigh", "first",
               "high_rows", "sets", "present", "primes")


# 9: a group's sum past an int64 unreduced; 3,000: a set's sum over the high halves
@pytest.mark.parametrize("nh", [9, 3000])
def test_joint_fill_residues_is_the_modular_sum(nh: int) -> None:
    """Each path against Python integers entry by entry; C and numba the same bytes."""
    x = _fill_inputs(8, nh=nh)
    outs = []
    for m in (kernel_numba, C):
        if m is None:
            continue
        out = np.full((40, N_OUTCOMES, len(x["primes"])), -1, dtype=np.int32)
        m.joint_fill_residues(*(x[k] for k in _FILL_ORDER), out)
        outs.append(out)
        for i in range(len(x["primes"])):
            for (s, o), v in _fill_expected(x, i).items():
                assert out[s, o, i] == v
        assert (np.delete(out, [0, 3, 7], axis=1) == -1).all()  # other outcomes untouched
    _same(outs[0], outs[-1])


def test_product_residues_is_the_modular_product() -> None:
    rng = np.random.default_rng(9)
    primes = primes_for(90)
    ff = (primes[:, None, None] - 1 - rng.integers(0, 3, (len(primes), 3, 9))).astype(np.int64)
    mine = rng.integers(0, 5, (11, 3)).astype(np.int64)
    theirs = rng.integers(0, 5, (6, 3)).astype(np.int64)
    outs = []
    for m in (kernel_numba, C):
        if m is None:
            continue
        out = np.empty((11, len(primes), 6), dtype=np.int64)
        m.product_residues(ff, mine, theirs, primes, out)
        outs.append(out)
    for p, q in enumerate(primes.tolist()):
        for a, b in np.ndindex(11, 6):
            v = 1
            for c in range(3):
                v *= int(ff[p, c, mine[a, c] + theirs[b, c]])
            assert outs[0][a, p, b] == v % q
    _same(outs[0], outs[-1])


@pytest.mark.parametrize("impl", PATHS)
def test_the_exact_fills_refuse_indices_and_residues_out_of_range(impl: ModuleType) -> None:
    e = _fill_inputs(8)
    primes = e["primes"]

    def fill(dtype: Any = np.int32, **bad: Any) -> None:
        args = {**e, **bad}
        impl.joint_fill_residues(*(args[k] for k in _FILL_ORDER),
                                 np.zeros((40, N_OUTCOMES, len(primes)), dtype=dtype))

    fill()
    for bad in (dict(u_low=e["u_low"] + 5), dict(comp_low=e["comp_low"] + 5),
                dict(cols=e["cols"] + 27), dict(high_rows=e["high_rows"] + 7),
                dict(sets=e["sets"] + 1), dict(present=e["present"] + 1),
                dict(first=e["first"][::-1].copy())):
        with pytest.raises(ValueError, match="out of range"):
            fill(**bad)
    with pytest.raises(ValueError, match="sizes disagree"):
        fill(mult=e["mult"][:, 1:].copy())
    phigh = e["phigh"].copy()
    phigh[-1, -1, -1] = primes[-1]  # one residue, of the last prime, unreduced
    for bad in (dict(ff=e["ff"] + primes[:, None, None]), dict(mult=e["mult"] + 2**30),
                dict(phigh=-e["phigh"] - 1), dict(phigh=phigh), dict(primes=primes * 2**10)):
        with pytest.raises(ValueError, match="residue out of range"):
            fill(**bad)
    with pytest.raises(TypeError, match="out must be int32"):
        fill(dtype=np.int64)
    out = np.empty((11, len(primes), 6), dtype=np.int64)
    with pytest.raises(ValueError, match="out of range"):
        impl.product_residues(e["ff"][:, :3, :3].copy(), np.full((11, 3), 2, np.int64),
                              np.full((6, 3), 1, np.int64), primes, out)  # 2 + 1 past 3


def _split_inputs(seed: int) -> tuple[Any, ...]:
    rng = np.random.default_rng(seed)
    k = 400
    rows = rng.dirichlet(np.ones(N_OUTCOMES), size=k)
    pay = payoff_matrix(False).astype(np.float64)
    shoes = rng.integers(-1, 6, size=(k, 10)).astype(np.int64)
    hard = rng.integers(4, 22, size=k).astype(np.int64)
    total = np.where(hard <= 11, hard + 10 * rng.integers(0, 2, size=k), hard).astype(np.int64)
    kid_total = np.where(hard[:, None] + np.arange(1, 11) > 21, -1,
                         np.minimum(total[:, None] + np.arange(1, 11), 21)).astype(np.int64)
    charlie = (rng.random(k) < 0.1).astype(np.int64)
    return rows, pay, shoes, total, hard, kid_total, charlie


@needs_c
def test_split_bounds_same_bits() -> None:
    args = _split_inputs(3)

    def run(m: ModuleType) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        stand, hit = np.empty(len(args[3])), np.empty(len(args[3]))
        m.split_bounds(*args, 18.0, stand, hit)
        return stand, hit

    _same(*_both(run))


def _best_play_inputs(seed: int, n: int = 9) -> tuple[Any, ...]:
    space, _ = split_hand_space(hand_space(Shoe.decks(1).remove([6]).counts), 8)
    nd = optimal_nodes(space, PlayRules())
    rng = np.random.default_rng(seed)
    m, b = len(space.comps), len(nd.bust_node)
    probs = rng.dirichlet(np.ones(10), size=n * m // 2)
    at = rng.integers(0, len(probs), size=(n, m))
    stand = rng.uniform(-1, 1, (n, m))
    busted = rng.uniform(-2, 0, (n, b))
    play = rng.choice([0, 1, 2], size=m, p=[0.8, 0.1, 0.1])  # best, stand, hit
    return at, probs, stand, busted, space.child, nd.bust_of, nd.order, play.astype(np.int64)


def test_cache_find_keys_is_cache_find() -> None:
    """Shoes given by their keys enter the same rows, slots and keys as given by counts,
    in both kernels; a negative key is refused."""
    rng = np.random.default_rng(8)
    batches = [rng.integers(0, 64, size=(n, 10)).astype(np.int64) for n in (40, 700, 1)]
    batches.insert(2, np.concatenate([batches[0][:9], batches[1][-20:]]))

    def by_keys(m: ModuleType) -> Callable[..., int]:
        return lambda out, *rest: m.cache_find_keys(out @ dealer.KEY_BASE, *rest)

    for m in kernel.implementations().values():
        _same(list(_entered(by_keys(m), batches)), list(_entered(m.cache_find, batches)))
        with pytest.raises(ValueError, match="negative key"):
            m.cache_find_keys(np.array([3, -1]), np.full(8, -1), np.zeros(8, dtype=np.int64),
                              np.zeros(8, dtype=np.int64), 0, np.empty(2, dtype=np.int64),
                              np.empty(2, dtype=np.int64))


@needs_c
def test_best_play_same_bits() -> None:
    args = _best_play_inputs(4)

    def run(m: ModuleType) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        hit, cont = np.empty(args[2].shape), np.empty(args[2].shape)
        m.best_play(*args, hit, cont)
        return hit, cont

    _same(*_both(run))


@pytest.mark.parametrize("impl", PATHS)
def test_a_fixed_play_has_the_bits_of_the_numpy_layer_loop(impl: ModuleType) -> None:
    """A fixed strategy's hands (the split hands of CDZ-) go through the compiled
    recursion (``hands._played``): the bits of the numpy loop over layers it replaced,
    for a paid hand (a bust loses 1) and a free bet's (a bust loses 0)."""
    space = hand_space(Shoe.decks(2).remove([8, 8, 6]).counts)
    rng = np.random.default_rng(5)
    m = len(space.comps)
    probs = rng.dirichlet(np.ones(10), size=m)
    stand = rng.uniform(-1, 1, m)
    forced = rng.random(m) < 0.1
    policy = rng.choice([int(STAND), int(HIT), int(DOUBLE)], size=m)  # a double: no hit here
    name = kernel.FALLBACK if impl is kernel_numba else kernel.C_EXTENSION
    for bust in (-1, 0):
        with _kernel_path(impl, name):
            hit, cont, hits, doubles, gives = hands._recurse(space, probs, stand, forced, bust,
                                                             np.float64, policy)
        want_cont = np.zeros(m + 2)
        want_cont[m] = bust
        want_hit = np.zeros(m)
        for layer in space.layers:  # largest hands first, as the engine's loop went
            h = (probs[layer] * want_cont[space.child[layer]]).sum(axis=1)
            want_hit[layer] = h
            go = (policy[layer] == int(HIT)) & ~forced[layer]
            want_cont[layer] = np.where(go, h, stand[layer])
        _same((hit, cont), (want_hit, want_cont[:m]))
        assert np.array_equal(hits, (policy == int(HIT)) & ~forced)
        assert not doubles.any() and not gives.any()
        assert (cont == hit).any() and (cont == stand).any() and (cont != stand).any()


# -- refusals: dtype, shape, order ---------------------------------------------------------
@pytest.mark.parametrize("impl", PATHS)
def test_an_int32_array_of_the_right_byte_length_is_refused(impl: ModuleType) -> None:
    """Read by byte length alone, an int32 (m, 20) would pass as int64 (m, 10) shoes."""
    k = dealer._kernel(10, False)
    shoes = np.full((3, 10), 24, dtype=np.int64)
    out = np.empty((3, len(k.runs) - 1))
    impl.outcome_sums(shoes, k.blocks, k.block_of, k.halves, k.low_of, k.high_of, k.runs,
                      k.mult, k.kmax, out)  # the right arrays: accepted
    as_int32 = np.full((3, 20), 24, dtype=np.int32)
    assert as_int32.nbytes == shoes.nbytes
    with pytest.raises(TypeError, match="shoes must be int64"):
        impl.outcome_sums(as_int32, k.blocks, k.block_of, k.halves, k.low_of, k.high_of,
                          k.runs, k.mult, k.kmax, out)
    with pytest.raises(TypeError, match="mult must be float64"):
        impl.outcome_sums(shoes, k.blocks, k.block_of, k.halves, k.low_of, k.high_of, k.runs,
                          k.mult.view(np.int64), k.kmax, out)
    head = np.arange(4, dtype=np.int64)
    with pytest.raises(TypeError, match="head must be int64"):
        impl.distinct_sums(head.view(np.int32), head, 0)
    with pytest.raises(TypeError, match="head must be int64"):  # same size, float: refused
        impl.distinct_sums(head.view(np.float64), head, 0)


@pytest.mark.parametrize("impl", PATHS)
def test_shape_order_and_writability_are_checked(impl: ModuleType) -> None:
    k = dealer._kernel(10, False)
    shoes = np.full((3, 10), 24, dtype=np.int64)
    out = np.empty((3, len(k.runs) - 1))

    def sums(shoes: Any = shoes, out: Any = out, block_of: Any = k.block_of) -> None:
        impl.outcome_sums(shoes, k.blocks, block_of, k.halves, k.low_of, k.high_of, k.runs,
                          k.mult, k.kmax, out)

    with pytest.raises(ValueError, match="dimension"):
        sums(shoes=shoes.ravel())
    with pytest.raises(ValueError, match="sizes disagree"):
        sums(shoes=np.full((3, 9), 24, dtype=np.int64))
    with pytest.raises(ValueError, match="C-contiguous"):
        sums(shoes=np.asfortranarray(np.full((3, 10), 24, dtype=np.int64)))
    with pytest.raises(ValueError, match="C-contiguous"):
        sums(out=np.empty((3, 2 * out.shape[1]))[:, ::2])
    frozen = out.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        sums(out=frozen)
    with pytest.raises(ValueError, match="out of range"):
        sums(block_of=k.block_of + 4)
    with pytest.raises(TypeError):
        sums(shoes=[[24] * 10] * 3)  # not an array at all


# -- the dispatch -----------------------------------------------------------------------------
def test_bja_kernel_chooses_and_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel.ENV, "python")
    assert kernel._select() == (kernel_numba, kernel.FALLBACK)
    assert kernel.describe() == "numba fallback (BJA_KERNEL=python)"
    monkeypatch.setenv(kernel.ENV, "fast")
    with pytest.raises(UsageError, match="BJA_KERNEL must be one of auto, c, python"):
        kernel._select()
    assert "must be one of" in kernel.describe()  # --version still answers
    monkeypatch.setattr(kernel, "compiled", lambda: None)  # as after an install without a compiler
    monkeypatch.setenv(kernel.ENV, "c")
    with pytest.raises(UsageError, match="BJA_KERNEL=c but the C extension"):
        kernel._select()
    monkeypatch.delenv(kernel.ENV)
    assert kernel._select() == (kernel_numba, kernel.FALLBACK)  # auto: the fallback, said
    assert kernel.describe() == "numba fallback: the C extension is not built"


# -- the command line, both kernels --------------------------------------------------------
@contextlib.contextmanager
def _kernel_path(impl: ModuleType, name: str) -> Iterator[None]:
    """Every kernel call in this process through ``impl``, no dealer row computed before."""
    saved = list(kernel._chosen)
    shared = dict(dealer._SHARED)
    kernel._chosen[:] = [(impl, name)]
    dealer._SHARED.clear()
    try:
        yield
    finally:
        kernel._chosen[:] = saved
        dealer._SHARED.clear()
        dealer._SHARED.update(shared)


def _numbers(value: Any, path: str = "") -> Iterator[tuple[str, float]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, f"{path}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, f"{path}/{i}")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield path, float(value)


def _cli(argv: list[str]) -> Any:
    from analyzer.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return json.loads(out.getvalue())


@needs_c
@pytest.mark.parametrize("argv", [
    pytest.param(["ev", "--rules", "6D S17 DOA DAS SPL3 LS"], id="ev"),
    pytest.param(["ev", "--rules", "6D S17 DOA DAS SPL3 LS", "--split", "cdp"], id="cdp"),
    pytest.param(["hand", "--rules", "2D S17 DOA DAS SPL1 LS", "--up", "6", "--cards", "8,8",
                  "--split", "optimal"], id="optimal"),
    pytest.param(["distribution", "--rules", "1D S17 DOA DAS SPL1 LS"], id="distribution",
                 marks=pytest.mark.slow),  # ~12 s for both
])
def test_the_cli_gives_the_same_figures_with_either_kernel(
        argv: list[str], tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    argv = [*argv, "--json", *(["--no-cache"] if argv[0] == "ev" else []),
            *(["--jobs", "1"] if argv[0] != "hand" else [])]
    assert C is not None
    with _kernel_path(C, kernel.C_EXTENSION):
        c = dict(_numbers(_cli(argv)))
    with _kernel_path(kernel_numba, kernel.FALLBACK):
        fallback = dict(_numbers(_cli(argv)))
    assert c.keys() == fallback.keys() and len(c) >= 5
    worst = max(abs(c[k] - fallback[k]) for k in c)
    assert worst <= 1e-12, worst


def test_bja_kernel_python_end_to_end(tmp_path: Any) -> None:
    """The environment variable, through a fresh process: --version says it, ev agrees."""
    env = {**os.environ, "BJA_CACHE_DIR": str(tmp_path), kernel.ENV: "python"}
    run = [sys.executable, "-m", "analyzer"]
    version = subprocess.run([*run, "--version"], env=env, capture_output=True, text=True,
                             timeout=60)
    assert version.stdout.strip().endswith("(dealer kernel: numba fallback (BJA_KERNEL=python))")
    code = ("import json, sys\nfrom analyzer.engine import kernel\n"
            "from analyzer.engine.analysis import Analysis\nfrom analyzer.core.rules import "
            "parse_spec\nev = float(Analysis(parse_spec('1D S17 DOA DAS SPL3 LS')).ev())\n"
            "print(json.dumps([kernel.name(), 'numba' in sys.modules, ev]))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300)
    name, numba_loaded, ev = json.loads(done.stdout)
    assert (name, numba_loaded) == (kernel.FALLBACK, True), done.stderr
    from analyzer.core.rules import parse_spec
    from analyzer.engine.analysis import Analysis

    assert abs(ev - float(Analysis(parse_spec("1D S17 DOA DAS SPL3 LS")).ev())) <= 1e-12


# -- the exact dealer sums in 128-bit integers (C only) --------------------------------------
def _exact_words(k: dealer.KernelTables, shoes: npt.NDArray[np.int64]) -> list[list[int]] | None:
    """The C kernel's exact sums as Python integers, None when it declines."""
    words = np.empty((len(shoes), N_OUTCOMES, 2), dtype=np.int64)
    if not kernel.outcome_sums_exact(shoes, k.blocks, k.block_of, k.halves, k.low_of,
                                     k.high_of, k.runs, k.mult_int, k.kmax, words):
        return None
    w = words.view(np.uint64).tolist()
    return [[lo | hi << 64 for lo, hi in row] for row in w]


@needs_c
@pytest.mark.parametrize("h17", [False, True])
def test_exact_sums_are_the_python_integers(h17: bool) -> None:
    """Every upcard, 6-deck and nearly empty shoes: the 128-bit sums are the object-array
    integers of dealer._outcome_sums (the exact path without the C extension)."""
    if kernel.name() != kernel.C_EXTENSION:
        pytest.skip("BJA_KERNEL selects the numba fallback, which has no exact kernel")
    shoes = _shoes(11)
    for up in range(1, 11):
        k = dealer._kernel(up, h17)
        mine = _exact_words(k, shoes)
        assert mine is not None
        theirs, _ = dealer._outcome_sums(up, h17, shoes, exact=True, short=True)
        assert mine == theirs.tolist()


def test_a_denominator_beyond_128_bits_falls_back_to_python_integers() -> None:
    """A million decks: N (N-1) .. (N-kmax+1) needs more than 128 bits, the kernel
    declines (returns False) and outcome_matrix gives the same Fractions as the
    object-array path."""
    shoes = np.array([Shoe.decks(10**6).counts, Shoe.decks(6).counts], dtype=np.int64)
    k = dealer._kernel(6, True)
    assert _exact_words(k, shoes[:1]) is None
    assert _exact_words(k, shoes[1:]) is not None or kernel.name() != kernel.C_EXTENSION
    rows = dealer.outcome_matrix(6, True, shoes, exact=True)
    sums, denom = dealer._outcome_sums(6, True, shoes, exact=True, short=True)
    for s in range(2):
        d = int(denom[s])
        assert sum(rows[s]) == 1
        for o in range(N_OUTCOMES):
            if o != dealer.Outcome.BUST23:
                assert rows[s][o] == Fraction(int(sums[s][o]), d)
    assert dealer.outcome_matrix(6, True, shoes[1:], exact=True).tolist() == rows[1:].tolist()


@needs_c
def test_the_exact_kernel_refuses_what_the_float_one_refuses() -> None:
    assert C is not None
    k = dealer._kernel(10, False)
    shoes = np.full((3, 10), 24, dtype=np.int64)
    words = np.empty((3, N_OUTCOMES, 2), dtype=np.int64)

    def sums(shoes: Any = shoes, out: Any = words, mult: Any = k.mult_int) -> bool:
        fits: bool = C.outcome_sums_exact(shoes, k.blocks, k.block_of, k.halves, k.low_of,
                                          k.high_of, k.runs, mult, k.kmax, out)
        return fits

    assert sums() is True
    with pytest.raises(TypeError, match="mult must be int64"):
        sums(mult=k.mult)
    with pytest.raises(ValueError, match="sizes disagree"):
        sums(out=np.empty((3, N_OUTCOMES, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="negative count"):
        sums(shoes=shoes - 25)
