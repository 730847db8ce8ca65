"""The dealer kernels of ``_dealer.c``, compiled by numba: the fallback with no C compiler.

Why numba and not numpy: the hash table of :class:`~analyzer.engine.dealer.OutcomeCache`
and the card-set loops of :mod:`~analyzer.engine.dist_splits` probe one key at a time,
and the hand recursion of optimal splitting walks nodes in order; numpy would run those
loops in the interpreter, or replace them with sorts and temporaries that the C was
written to avoid, and its sums would not have the C's bits (nor one shoe's bits in
every batch, which the shared dealer rows rely on).  numba needs
no C compiler, is already a dependency (the simulator), and compiles the loops below
line for line as the C does: the same IEEE double operations in the same order, with no
fast-math and no fused multiply-adds (LLVM contracts only under fast-math flags), so the
figures are the C extension's to the last bit.  The price is numba's import and, once
per machine (``cache=True``), the compilation.

Each function checks its arguments as the C does (dtype, dimensions, C order, sizes)
before the compiled loop runs, with the same messages: see
:mod:`analyzer.engine.kernel` for the arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np
import numpy.typing as npt

from analyzer.core.errors import InternalError

KMAX_LIMIT = 32
_F = TypeVar("_F", bound=Callable[..., Any])


def _njit(function: _F) -> _F:
    """``numba.njit`` cached on disk, without the GIL, IEEE arithmetic (no fast-math)."""
    jit: Any = numba.njit(cache=True, nogil=True, error_model="numpy", fastmath=False)
    compiled: _F = jit(function)
    return compiled


# -- argument checks (the C module's, message for message) ----------------------------------
class ArrayTypeError(InternalError, TypeError):
    """An array of the wrong dtype (the C module raises the plain ``TypeError``): a bug."""


class ArrayValueError(InternalError, ValueError):
    """Arrays of the wrong shape, order or sizes (the C: ``ValueError``): a bug."""


def _array(fn: str, name: str, a: object, kind: str, ndim: int,
           writable: bool = False) -> npt.NDArray[Any]:
    """``a`` as the kernel reads it: an int64 (``kind`` "i"), int32 ("w") or float64 ("f")
    C-ordered array."""
    want = np.dtype({"i": np.int64, "w": np.int32}.get(kind, np.float64))
    if not isinstance(a, np.ndarray):
        raise ArrayTypeError(f"{fn}: {name} must be a numpy array of {want}, "
                             f"not {type(a).__name__}")
    if a.dtype != want:
        raise ArrayTypeError(f"{fn}: {name} must be {want}, not {a.dtype}")
    if a.ndim != ndim:
        raise ArrayValueError(f"{fn}: {name} must have {ndim} dimension(s), not {a.ndim}")
    if not a.flags.c_contiguous:
        raise ArrayValueError(f"{fn}: {name} must be C-contiguous")
    if writable and not a.flags.writeable:
        raise ArrayValueError(f"{fn}: {name} must be writable")
    return a


def _disagree(fn: str) -> ArrayValueError:
    return ArrayValueError(f"{fn}: array sizes disagree")


# -- outcome_sums ---------------------------------------------------------------------------
@_njit
def _outcome_sums(shoes: Any, blocks: Any, block_of: Any, halves: Any, low_of: Any,
                  high_of: Any, runs: Any, mult: Any, kmax: int, out: Any) -> None:
    first = (0, 3, 5, 8)
    width = (3, 2, 3, 2)
    m, nb, nh, n_out = shoes.shape[0], blocks.shape[0], halves.shape[0], out.shape[1]
    blk = np.empty(nb)
    half = np.empty(nh)
    ff = np.empty((11, KMAX_LIMIT + 1))
    for s in range(m):
        total = 0
        for i in range(11):
            n = shoes[s, i] if i < 10 else total
            if i < 10:
                total += n
            ff[i, 0] = 1.0
            for k in range(1, kmax + 1):
                f = n - k + 1
                ff[i, k] = ff[i, k - 1] * float(f if f > 0 else 0)
        for b in range(nb):
            g = block_of[b]
            v = 1.0
            for j in range(width[g]):
                v *= ff[first[g] + j, blocks[b, j]]
            if g == 3:
                d = ff[10, blocks[b, 2]]
                v *= 1.0 / d if d != 0.0 else 1.0
            blk[b] = v
        for h in range(nh):
            half[h] = blk[halves[h, 0]] * blk[halves[h, 1]]
        for o in range(n_out):
            a0 = a1 = a2 = a3 = 0.0  # four accumulators, as the C adds them
            q, end = runs[o], runs[o + 1]
            while q + 4 <= end:
                a0 += mult[q] * (half[low_of[q]] * half[high_of[q]])
                a1 += mult[q + 1] * (half[low_of[q + 1]] * half[high_of[q + 1]])
                a2 += mult[q + 2] * (half[low_of[q + 2]] * half[high_of[q + 2]])
                a3 += mult[q + 3] * (half[low_of[q + 3]] * half[high_of[q + 3]])
                q += 4
            while q < end:
                a0 += mult[q] * (half[low_of[q]] * half[high_of[q]])
                q += 1
            out[s, o] = (a0 + a1) + (a2 + a3)


def outcome_sums(shoes: object, blocks: object, block_of: object, halves: object,
                 low_of: object, high_of: object, runs: object, mult: object, kmax: int,
                 out: object) -> None:
    fn = "outcome_sums"
    s = _array(fn, "shoes", shoes, "i", 2)
    bl = _array(fn, "blocks", blocks, "i", 2)
    bo = _array(fn, "block_of", block_of, "i", 1)
    hv = _array(fn, "halves", halves, "i", 2)
    lo = _array(fn, "low_of", low_of, "i", 1)
    hi = _array(fn, "high_of", high_of, "i", 1)
    rn = _array(fn, "runs", runs, "i", 1)
    mu = _array(fn, "mult", mult, "f", 1)
    o = _array(fn, "out", out, "f", 2, writable=True)
    m, nb, nh, c, n_out = len(s), len(bo), len(hv), len(lo), len(rn) - 1
    if (not 0 <= kmax <= KMAX_LIMIT or n_out < 0 or s.shape[1] != 10 or bl.shape != (nb, 3)
            or hv.shape[1] != 2 or hi.shape != (c,) or mu.shape != (c,)
            or o.shape != (m, n_out)):
        raise _disagree(fn)
    # Indices in range (the C trusts its caller, dealer._kernel, here; numba must not read
    # outside an array either way).
    if ((nb and (bo.min() < 0 or bo.max() > 3 or bl.min() < 0 or bl.max() > kmax))
            or (nh and (hv.min() < 0 or hv.max() >= nb))
            or (c and (min(lo.min(), hi.min()) < 0 or max(lo.max(), hi.max()) >= nh))
            or (n_out >= 0 and len(rn) and (rn[0] < 0 or rn[-1] > c
                                             or (np.diff(rn) < 0).any()))):
        raise ArrayValueError(f"{fn}: an index out of range")
    _outcome_sums(s, bl, bo, hv, lo, hi, rn, mu, int(kmax), o)


# -- the hash table of OutcomeCache ---------------------------------------------------------
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@_njit
def _slot_of(key: int, bits: int) -> Any:
    return np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - bits))


def _slot_table(slot_keys: npt.NDArray[Any], slot_rows: npt.NDArray[Any]) -> int:
    size = len(slot_keys)
    bits = max(size - 1, 0).bit_length()
    if size < 2 or 1 << bits != size or slot_rows.shape != slot_keys.shape:
        raise ArrayValueError("cache: the slot table is not a power of two")
    return bits


@_njit
def _cache_find(out: Any, sk: Any, sr: Any, k: Any, n: int, r: Any, f: Any, bits: int) -> int:
    m, size = out.shape[0], sk.shape[0]
    for i in range(m):
        for j in range(10):
            if out[i, j] < 0 or out[i, j] > 63:
                return -1  # not representable: nothing entered
    added = 0
    for i in range(m):
        key = 0
        for j in range(9, -1, -1):
            key = (key << 6) | out[i, j]
        r[i], added = _probe(key, bits, size, sk, sr, k, f, n, added, i)
    return added


@_njit
def _probe(key: int, bits: int, size: int, sk: Any, sr: Any, k: Any, f: Any, n: int,
           added: int, i: int) -> tuple[int, int]:
    """Enter ``key`` (row ``n + added`` if new, ``i`` noted in ``f``): its row, ``added``."""
    at = _slot_of(key, bits)
    while sk[at] != -1 and sk[at] != key:
        at = (at + 1) & (size - 1)
    if sk[at] == -1:  # new: the next row, filled by the caller
        sk[at] = key
        sr[at] = n + added
        k[n + added] = key
        f[added] = i
        added += 1
    return sr[at], added


@_njit
def _cache_find_keys(w: Any, sk: Any, sr: Any, k: Any, n: int, r: Any, f: Any,
                     bits: int) -> int:
    added = 0
    for i in range(w.shape[0]):
        r[i], added = _probe(w[i], bits, sk.shape[0], sk, sr, k, f, n, added, i)
    return added


def cache_find(out: object, slot_keys: object, slot_rows: object, keys: object, n: int,
               rows: object, first: object) -> int:
    fn = "cache_find"
    o = _array(fn, "out", out, "i", 2)
    if o.shape[1] != 10:
        raise _disagree(fn)
    return int(_cache_find(o, *_cache_arrays(fn, len(o), slot_keys, slot_rows, keys, n, rows,
                                             first)))


def cache_find_keys(wanted: object, slot_keys: object, slot_rows: object, keys: object, n: int,
                    rows: object, first: object) -> int:
    fn = "cache_find_keys"
    w = _array(fn, "wanted", wanted, "i", 1)
    found = _cache_arrays(fn, len(w), slot_keys, slot_rows, keys, n, rows, first)
    if len(w) and w.min() < 0:
        raise ArrayValueError(f"{fn}: a negative key")
    return int(_cache_find_keys(w, *found))


def _cache_arrays(fn: str, m: int, slot_keys: object, slot_rows: object, keys: object, n: int,
                  rows: object, first: object) -> tuple[Any, ...]:
    """The table and output arrays of a lookup of ``m`` shoes, checked; then the slot bits."""
    sk = _array(fn, "slot_keys", slot_keys, "i", 1, writable=True)
    sr = _array(fn, "slot_rows", slot_rows, "i", 1, writable=True)
    k = _array(fn, "keys", keys, "i", 1, writable=True)
    r = _array(fn, "rows", rows, "i", 1, writable=True)
    f = _array(fn, "first", first, "i", 1, writable=True)
    bits = _slot_table(sk, sr)
    if n < 0 or r.shape != (m,) or f.shape != (m,) or len(k) < n + m or 2 * (n + m) > len(sk):
        raise _disagree(fn)
    return sk, sr, k, int(n), r, f, bits


@_njit
def _cache_rehash(k: Any, n: int, sk: Any, sr: Any, bits: int) -> None:
    size = sk.shape[0]
    for i in range(size):
        sk[i] = -1
    for i in range(n):
        at = _slot_of(k[i], bits)
        while sk[at] != -1:
            at = (at + 1) & (size - 1)
        sk[at] = k[i]
        sr[at] = i


def cache_rehash(keys: object, n: int, slot_keys: object, slot_rows: object) -> None:
    fn = "cache_rehash"
    k = _array(fn, "keys", keys, "i", 1)
    sk = _array(fn, "slot_keys", slot_keys, "i", 1, writable=True)
    sr = _array(fn, "slot_rows", slot_rows, "i", 1, writable=True)
    bits = _slot_table(sk, sr)
    if n < 0 or len(k) < n or 2 * n > len(sk):
        raise _disagree(fn)
    _cache_rehash(k, int(n), sk, sr, bits)


# -- merge_pairs ------------------------------------------------------------------------------
_PAIR_MIX = np.uint64(0xC2B2AE3D27D4EB4F)


@_njit
def _pair_slot(k1: int, k2: int, bits: int) -> Any:
    key: Any = np.int64(np.uint64(k1) * _PAIR_MIX + np.uint64(k2))
    return _slot_of(key, bits)


@_njit
def _pair_table(k1: Any, k2: Any, first: Any, n: int, size: int, bits: int) -> Any:
    table = np.full(size, -1, dtype=np.int64)
    for u in range(n):
        at = _pair_slot(k1[first[u]], k2[first[u]], bits)
        while table[at] != -1:
            at = (at + 1) & (size - 1)
        table[at] = u
    return table


@_njit
def _merge_pairs(k1: Any, k2: Any, mult: Any, first: Any, total: Any) -> int:
    size, bits, n = 1 << 12, 12, 0
    table = _pair_table(k1, k2, first, 0, size, bits)
    for i in range(k1.shape[0]):
        at = _pair_slot(k1[i], k2[i], bits)
        while table[at] != -1 and (k1[first[table[at]]] != k1[i]
                                   or k2[first[table[at]]] != k2[i]):
            at = (at + 1) & (size - 1)
        if table[at] != -1:
            total[table[at]] += mult[i]
            continue
        table[at] = n
        first[n] = i
        total[n] = mult[i]
        n += 1
        if 2 * n > size:
            size *= 2
            bits += 1
            table = _pair_table(k1, k2, first, n, size, bits)
    return n


def merge_pairs(k1: object, k2: object, mult: object, first: object, total: object) -> int:
    fn = "merge_pairs"
    a = _array(fn, "k1", k1, "i", 1)
    b = _array(fn, "k2", k2, "i", 1)
    m = _array(fn, "mult", mult, "i", 1)
    f = _array(fn, "first", first, "i", 1, writable=True)
    t = _array(fn, "total", total, "i", 1, writable=True)
    if not (b.shape == m.shape == f.shape == t.shape == a.shape):
        raise _disagree(fn)
    return int(_merge_pairs(a, b, m, f, t))


# -- sum_rows, pair_accumulate ---------------------------------------------------------------
_PAIR_TILE = 128


@_njit
def _gallop(u: Any, n: int, start: int, key: int) -> int:
    lo = start
    if lo >= n or u[lo] >= key:
        return lo
    step = 1
    while lo + step < n and u[lo + step] < key:
        lo += step
        step *= 2
    hi = lo + step if lo + step < n else n
    while hi - lo > 1:
        mid = lo + (hi - lo) // 2
        if u[mid] < key:
            lo = mid
        else:
            hi = mid
    return hi


@_njit
def _tile_rows(u: Any, n: int, h: Any, i0: int, i1: int, tj: int, at: Any, keyed: Any,
               rows: Any) -> int:
    """As ``tile_rows`` in ``_dealer.c``: the rows of ``h[i] + tj`` for the tile's heads
    (-1 where absent), each search from the furthest of the previous head's and this
    head's previous one whose sum was not larger; returns how many are absent."""
    before, before_key, missing = 0, np.iinfo(np.int64).min, 0
    for i in range(i0, i1):
        key = h[i] + tj
        start = at[i - i0] if key >= keyed[i - i0] else 0
        if key >= before_key and before > start:
            start = before
        q = _gallop(u, n, start, key)
        at[i - i0] = before = q
        keyed[i - i0] = before_key = key
        rows[i - i0] = q if q < n and u[q] == key else -1
        missing += rows[i - i0] < 0
    return missing


@_njit
def _tile_state() -> tuple[Any, Any, Any]:
    """A tile's search state before its first tail (``tile_start``), and its rows."""
    return (np.zeros(_PAIR_TILE, np.int64), np.full(_PAIR_TILE, np.iinfo(np.int64).max),
            np.empty(_PAIR_TILE, np.int64))


@_njit
def _sum_rows(h: Any, t: Any, extra: int, u: Any, r: Any) -> int:
    na, nb, n = h.shape[0], t.shape[0], u.shape[0]
    missing = 0
    for i0 in range(0, na, _PAIR_TILE):
        i1 = min(i0 + _PAIR_TILE, na)
        at, keyed, rows = _tile_state()
        for j in range(nb):
            missing += _tile_rows(u, n, h, i0, i1, t[j] + extra, at, keyed, rows)
            for i in range(i0, i1):
                r[i * nb + j] = rows[i - i0]
    return missing


_SUMS_PER_RANGE = 1_000_000
_SUMS_SAMPLE = 66049


@_njit
def _lower_bound(h: Any, n: int, key: int) -> int:
    lo, hi = 0, n
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if h[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@_njit
def _distinct_sums(h: Any, t: Any, extra: int) -> Any:
    na, nb = h.shape[0], t.shape[0]
    u = np.empty(1 << 12, dtype=np.int64)
    n = 0
    ranges = int(float(na) * float(nb) / _SUMS_PER_RANGE) + 1
    si = na // 256 if na > 256 else 1
    sj = nb // 256 if nb > 256 else 1
    sample = np.empty(_SUMS_SAMPLE, dtype=np.int64)
    m = 0
    for i in range(0, na, si):
        if m >= _SUMS_SAMPLE:
            break
        for j in range(0, nb, sj):
            if m >= _SUMS_SAMPLE:
                break
            sample[m] = h[i] + t[j]
            m += 1
    if m == 0:
        return u[:0].copy()
    cut = np.sort(sample[:m])
    ranges = min(ranges, m)
    bound = np.empty(ranges + 1, dtype=np.int64)
    for r in range(1, ranges):
        bound[r] = cut[int(float(r) * float(m) / float(ranges))]
    size, bits = 1 << 12, 12
    table = np.full(size, -1, dtype=np.int64)
    for r in range(ranges):
        if 0 < r < ranges - 1 and bound[r] == bound[r + 1]:
            continue
        first = n
        for j in range(nb):
            lo = 0 if r == 0 else _lower_bound(h, na, bound[r] - t[j])
            hi = na if r == ranges - 1 else _lower_bound(h, na, bound[r + 1] - t[j])
            for i in range(lo, hi):
                key = h[i] + t[j] + extra
                at = _slot_of(key, bits)
                while table[at] != -1 and u[table[at]] != key:
                    at = (at + 1) & (size - 1)
                if table[at] != -1:
                    continue
                if n == u.shape[0]:
                    more = np.empty(2 * n, dtype=np.int64)
                    more[:n] = u
                    u = more
                u[n] = key
                table[at] = n
                n += 1
                if 2 * (n - first) > size:
                    size *= 2
                    bits += 1
                    table = np.full(size, -1, dtype=np.int64)
                    for k in range(first, n):
                        s2 = _slot_of(u[k], bits)
                        while table[s2] != -1:
                            s2 = (s2 + 1) & (size - 1)
                        table[s2] = k
        for k in range(first, n):
            s2 = _slot_of(u[k], bits)
            while table[s2] != k:
                s2 = (s2 + 1) & (size - 1)
            table[s2] = -1
    return u[:n].copy()


def distinct_sums(head: object, tail: object, extra: int) -> bytes:
    fn = "distinct_sums"
    h = _array(fn, "head", head, "i", 1)
    t = _array(fn, "tail", tail, "i", 1)
    if not _sorted(h):
        raise ArrayValueError(f"{fn}: head is not sorted")
    return bytes(_distinct_sums(h, t, int(extra)).tobytes())


def _sorted(keys: npt.NDArray[Any]) -> bool:
    return not (keys[1:] < keys[:-1]).any()  # compared, not subtracted: np.diff wraps


def _strictly_increasing(fn: str, u: npt.NDArray[Any]) -> None:
    if (u[1:] <= u[:-1]).any():  # as the C's sorted_strictly, whatever the keys' range
        raise ArrayValueError(f"{fn}: unique is not strictly increasing")


def sum_rows(head: object, tail: object, extra: int, unique: object, rows: object) -> int:
    fn = "sum_rows"
    h = _array(fn, "head", head, "i", 1)
    t = _array(fn, "tail", tail, "i", 1)
    u = _array(fn, "unique", unique, "i", 1)
    r = _array(fn, "rows", rows, "i", 1, writable=True)
    if r.shape != (len(h) * len(t),):
        raise _disagree(fn)
    _strictly_increasing(fn, u)
    return int(_sum_rows(h, t, int(extra), u, r))


def _tail_ok(st: npt.NDArray[np.int64], res: npt.NDArray[np.int64], most: int,
             ny: int) -> bool:
    """As ``tail_ok`` in ``_dealer.c``: set ``b``'s rounds ``st[b] .. st[b+1]-1`` (at most
    ``most``) cover the rounds in order; each result index is below ``ny``."""
    sizes = np.diff(st)
    return bool(st[0] == 0 and st[-1] == len(res) and (sizes >= 0).all()
                and (sizes <= most).all()
                and not (res.size and res.shape[1] > 1
                         and (res[:, 1:].min() < 0 or res[:, 1:].max() >= ny)))


@_njit
def _pair_accumulate(h: Any, t: Any, extra: int, u: Any, w: Any, st: Any, res: Any,
                     acc: Any) -> int:
    na, nb, n, no = h.shape[0], t.shape[0], u.shape[0], w.shape[1]
    missing = 0
    for i0 in range(0, na, _PAIR_TILE):
        i1 = min(i0 + _PAIR_TILE, na)
        at, keyed, rows = _tile_state()
        for j in range(nb):
            missing += _tile_rows(u, n, h, i0, i1, t[j] + extra, at, keyed, rows)
            for i in range(i0, i1):
                row = rows[i - i0]
                if row < 0:
                    continue
                for r in range(st[j], st[j + 1]):
                    m = float(res[r, 0])
                    for k in range(no):
                        acc[i, k, res[r, k + 1]] += w[row, k] * m
    return missing


def pair_accumulate(head: object, tail: object, extra: int, unique: object, weights: object,
                    starts: object, results: object, acc: object) -> int:
    fn = "pair_accumulate"
    h = _array(fn, "head", head, "i", 1)
    t = _array(fn, "tail", tail, "i", 1)
    u = _array(fn, "unique", unique, "i", 1)
    w = _array(fn, "weights", weights, "f", 2)
    st = _array(fn, "starts", starts, "i", 1)
    res = _array(fn, "results", results, "i", 2)
    ac = _array(fn, "acc", acc, "f", 3, writable=True)
    no = w.shape[1]
    if (len(w) != len(u) or st.shape != (len(t) + 1,) or res.shape[1] != no + 1
            or ac.shape[:2] != (len(h), no)):
        raise _disagree(fn)
    if not (_sorted(h) and _sorted(t)):
        raise ArrayValueError(f"{fn}: head or tail is not sorted")
    _strictly_increasing(fn, u)
    if not _tail_ok(st, res, len(res), ac.shape[2]):
        raise ArrayValueError(f"{fn}: an index out of range")
    return int(_pair_accumulate(h, t, int(extra), u, w, st, res, ac))


def _primes_ok(ps: npt.NDArray[Any]) -> bool:
    """The C module's ``primes_ok``: every modulus 2 .. 2**26."""
    return not ((ps < 2).any() or (ps > 2**26).any())


_RESIDUE_ADDS = 1024  # as _dealer.c: products (< 2**52) added to a residue between reductions


@_njit
def _reduce_tile(acc: Any, primes: Any, i0: int, i1: int) -> None:
    for i in range(i0, i1):
        for k in range(acc.shape[1]):
            for y in range(acc.shape[2]):
                for p in range(acc.shape[3]):
                    acc[i, k, y, p] %= primes[p]


@_njit
def _pair_residues(h: Any, t: Any, extra: int, u: Any, joint: Any, outs: Any, primes: Any,
                   st: Any, res: Any, orders: Any, acc: Any) -> int:
    na, nb, n, no, n_p = h.shape[0], t.shape[0], u.shape[0], outs.shape[0], primes.shape[0]
    missing = 0
    for i0 in range(0, na, _PAIR_TILE):
        i1 = min(i0 + _PAIR_TILE, na)
        since = 0
        at, keyed, rows = _tile_state()
        for j in range(nb):
            if since + (st[j + 1] - st[j]) > _RESIDUE_ADDS:
                _reduce_tile(acc, primes, i0, i1)
                since = 0
            since += st[j + 1] - st[j]
            missing += _tile_rows(u, n, h, i0, i1, t[j] + extra, at, keyed, rows)
            for i in range(i0, i1):
                row = rows[i - i0]
                if row < 0:
                    continue
                for r in range(st[j], st[j + 1]):
                    for k in range(no):
                        y = res[r, k + 1]
                        for p in range(n_p):
                            acc[i, k, y, p] += np.int64(joint[row, outs[k], p]) * orders[r, p]
        _reduce_tile(acc, primes, i0, i1)
    return missing


def pair_residues(head: object, tail: object, extra: int, unique: object, joint: object,
                  outcomes: object, primes: object, starts: object, results: object,
                  orders: object, acc: object) -> int:
    fn = "pair_residues"
    h = _array(fn, "head", head, "i", 1)
    t = _array(fn, "tail", tail, "i", 1)
    u = _array(fn, "unique", unique, "i", 1)
    jo = _array(fn, "joint", joint, "w", 3)
    outs = _array(fn, "outcomes", outcomes, "i", 1)
    ps = _array(fn, "primes", primes, "i", 1)
    st = _array(fn, "starts", starts, "i", 1)
    res = _array(fn, "results", results, "i", 2)
    orde = _array(fn, "orders", orders, "i", 2)
    ac = _array(fn, "acc", acc, "i", 4, writable=True)
    no = len(outs)
    if (jo.shape[2] != len(ps) or jo.shape[0] != len(u) or st.shape != (len(t) + 1,)
            or res.shape[1] != no + 1 or orde.shape != (len(res), len(ps))
            or ac.shape[:2] != (len(h), no) or ac.shape[3] != len(ps)):
        raise _disagree(fn)
    _strictly_increasing(fn, u)
    if (not _tail_ok(st, res, _RESIDUE_ADDS, ac.shape[2])
            or (no and (outs.min() < 0 or outs.max() >= jo.shape[1]))
            or not _primes_ok(ps)
            or (orde < 0).any() or (orde >= ps[None, :]).any()):
        raise ArrayValueError(f"{fn}: an index or residue out of range")
    if ac.size and (ac.min() < 0 or ac.max() >= 2**26):
        raise ArrayValueError(f"{fn}: acc must hold residues")
    return int(_pair_residues(h, t, int(extra), u, jo, outs, ps, st, res, orde, ac))


# -- joint_fill_residues, product_residues --------------------------------------------
def _sums_fit(mine: npt.NDArray[Any], theirs: npt.NDArray[Any], top: int) -> bool:
    """The C module's ``sums_fit``: counts not negative, each column's sums below ``top``."""
    most = mine.max(axis=0, initial=0) + theirs.max(axis=0, initial=0)
    return not ((mine < 0).any() or (theirs < 0).any() or (most >= top).any())


def _fill_ok(ff_top: int, u_low: Any, low: Any, comp_low: Any, starts: Any, cols: Any,
             width: int, first: Any, high_rows: Any, nuh: int, sets: Any, nsets: int,
             present: Any, n_out: int) -> bool:
    """The C module's ``fill_ok``: every index within what it indexes."""
    nl, nul, nc, ng = len(low), len(u_low), len(comp_low), len(cols)
    return not (not _sums_fit(u_low, low, ff_top)
                or (comp_low < 0).any() or (comp_low >= nl).any()
                or starts[0] != 0 or starts[ng] != nc or (np.diff(starts) < 0).any()
                or (cols < 0).any() or (cols >= width).any()
                or first[0] != 0 or first[nul] != len(high_rows) or (np.diff(first) < 0).any()
                or (high_rows < 0).any() or (high_rows >= nuh).any()
                or (sets < 0).any() or (sets >= nsets).any()
                or (present < 0).any() or (present >= n_out).any())


_FILL_RESIDUES = (("ff", "i", 3), ("u_low", "i", 2), ("low", "i", 2), ("comp_low", "i", 1),
                  ("mult", "i", 2), ("starts", "i", 1), ("cols", "i", 1), ("phigh", "i", 3),
                  ("first", "i", 1), ("high_rows", "i", 1), ("sets", "i", 1),
                  ("present", "i", 1), ("primes", "i", 1), ("out", "w", 3))


def _take(fn: str, specs: tuple[tuple[str, str, int], ...],
          args: tuple[object, ...]) -> list[npt.NDArray[Any]]:
    """Every argument as :func:`_array` takes it, by its (name, kind, dimensions)."""
    return [_array(fn, name, a, kind, ndim, writable=name == "out")
            for (name, kind, ndim), a in zip(specs, args, strict=True)]


@_njit
def _joint_fill_residues(ff: Any, u_low: Any, low: Any, comp_low: Any, mult: Any,
                         starts: Any, cols: Any, phigh: Any, first: Any, high_rows: Any,
                         sets: Any, present: Any, primes: Any, out: Any) -> None:
    cut, nl, nh, n_p = ff.shape[1], low.shape[0], phigh.shape[2], present.shape[0]
    plow = np.empty(nl, dtype=np.int64)
    flat = np.empty((primes.shape[0], nh * n_p), dtype=np.int64)
    acc = np.empty(n_p, dtype=np.int64)
    for j in range(u_low.shape[0]):
        for p in range(primes.shape[0]):
            q = primes[p]
            for m in range(nl):
                v = np.int64(1)
                for c in range(cut):
                    v = v * ff[p, c, u_low[j, c] + low[m, c]] % q
                plow[m] = v
            flat[p, :] = 0
            for g in range(cols.shape[0]):
                s = np.int64(0)
                for c in range(starts[g], starts[g + 1]):
                    s += plow[comp_low[c]] * mult[p, c]
                    if (c - starts[g]) % _RESIDUE_ADDS == _RESIDUE_ADDS - 1:
                        s %= q
                flat[p, cols[g]] = s % q
        for r in range(first[j], first[j + 1]):
            hr = high_rows[r]
            for p in range(primes.shape[0]):
                q = primes[p]
                acc[:] = 0
                for h0 in range(0, nh, _RESIDUE_ADDS):
                    for h in range(h0, min(h0 + _RESIDUE_ADDS, nh)):
                        x = phigh[hr, p, h]
                        for k in range(n_p):
                            acc[k] += x * flat[p, h * n_p + k]
                    for k in range(n_p):
                        acc[k] %= q
                for k in range(n_p):
                    out[sets[r], present[k], p] = np.int32(acc[k])


def joint_fill_residues(ff: object, u_low: object, low: object, comp_low: object,
                        mult: object, starts: object, cols: object, phigh: object,
                        first: object, high_rows: object, sets: object, present: object,
                        primes: object, out: object) -> None:
    fn = "joint_fill_residues"
    (f, ul, lo, cl, mu, st, co, ph, fi, hr, se, pr, ps, ou) = _take(
        fn, _FILL_RESIDUES, (ff, u_low, low, comp_low, mult, starts, cols, phigh, first,
                             high_rows, sets, present, primes, out))
    n_p = len(ps)
    if (f.shape[0] != n_p or ul.shape[1] != f.shape[1] or lo.shape[1] != f.shape[1]
            or mu.shape != (n_p, len(cl)) or len(st) != len(co) + 1
            or ph.shape[1] != n_p or len(fi) != len(ul) + 1 or len(se) != len(hr)
            or ou.shape[2] != n_p):
        raise _disagree(fn)
    if not _fill_ok(f.shape[2], ul, lo, cl, st, co, ph.shape[2] * len(pr), fi, hr, ph.shape[0],
                    se, ou.shape[0], pr, ou.shape[1]):
        raise ArrayValueError(f"{fn}: an index out of range")
    if (not _primes_ok(ps)
            or any(((x < 0) | (x >= ps.reshape((-1,) + (1,) * (x.ndim - 1)))).any()
                   for x in (f, mu, ph.transpose(1, 0, 2)))):
        raise ArrayValueError(f"{fn}: a prime or residue out of range")
    _joint_fill_residues(f, ul, lo, cl, mu, st, co, ph, fi, hr, se, pr, ps, ou)


@_njit
def _product_residues(ff: Any, mine: Any, theirs: Any, primes: Any, out: Any) -> None:
    for p in range(primes.shape[0]):
        q = primes[p]
        for i in range(mine.shape[0]):
            for j in range(theirs.shape[0]):
                x = np.int64(1)
                for v in range(ff.shape[1]):
                    x = x * ff[p, v, mine[i, v] + theirs[j, v]] % q
                out[i, p, j] = x


def product_residues(ff: object, mine: object, theirs: object, primes: object,
                     out: object) -> None:
    fn = "product_residues"
    f, mi, th, ps, ou = _take(fn, (("ff", "i", 3), ("mine", "i", 2), ("theirs", "i", 2),
                                   ("primes", "i", 1), ("out", "i", 3)),
                              (ff, mine, theirs, primes, out))
    n_p, nv = len(ps), f.shape[1]
    if (f.shape[0] != n_p or mi.shape[1] != nv or th.shape[1] != nv
            or ou.shape != (len(mi), n_p, len(th))):
        raise _disagree(fn)
    if (not _primes_ok(ps) or not _sums_fit(mi, th, f.shape[2])
            or (f < 0).any() or (f >= ps[:, None, None]).any()):
        raise ArrayValueError(f"{fn}: an index, prime or residue out of range")
    _product_residues(f, mi, th, ps, ou)


# -- split_bounds -----------------------------------------------------------------------------
@_njit
def _split_bounds(r: Any, p: Any, sh: Any, t: Any, h: Any, kt: Any, ch: Any, slack: float,
                  st: Any, ht: Any) -> None:
    k, n_out = r.shape[0], r.shape[1]
    above = np.zeros(12, dtype=np.int64)  # above[v]: cards of value v or more (11: none)
    for i in range(k):
        above[11] = 0
        for v in range(10, 0, -1):
            c = sh[i, v - 1] if sh[i, v - 1] > 0 else 0
            above[v] = above[v + 1] + c
        n = float(above[1]) if above[1] > 0 else 1.0
        rest = float(above[1] - 1) if above[1] > 1 else 1.0
        s = 0.0
        for o in range(n_out):
            s += r[i, o] * p[t[i], o]
        total = 0.0
        for x in range(1, 11):
            c = sh[i, x - 1]
            if c <= 0:
                continue
            kid = kt[i, x - 1]
            if kid < 0:
                u = -1.0
            elif ch[i]:
                u = 1.0
            else:
                stays = slack / n
                for o in range(n_out):
                    stays += r[i, o] * p[kid, o]
                first = 22 - (h[i] + x)  # the kid busts on a card this or more
                busting = 0
                if first <= 10:
                    busting = above[first if first >= 1 else 1] - (1 if x >= first else 0)
                    if busting < 0:
                        busting = 0
                hits = 1.0 - 2.0 * float(busting) / rest
                u = stays if stays > hits else hits
                if u < 0.0:
                    u = 0.0
            total += float(c) * u
        st[i] = s
        ht[i] = total / n


def split_bounds(rows: object, pay: object, shoes: object, total: object, hard: object,
                 kid_total: object, charlie: object, slack: float, stand: object,
                 hit: object) -> None:
    fn = "split_bounds"
    r = _array(fn, "rows", rows, "f", 2)
    p = _array(fn, "pay", pay, "f", 2)
    sh = _array(fn, "shoes", shoes, "i", 2)
    t = _array(fn, "total", total, "i", 1)
    h = _array(fn, "hard", hard, "i", 1)
    kt = _array(fn, "kid_total", kid_total, "i", 2)
    ch = _array(fn, "charlie", charlie, "i", 1)
    st = _array(fn, "stand", stand, "f", 1, writable=True)
    ht = _array(fn, "hit", hit, "f", 1, writable=True)
    k, n_out = len(t), p.shape[1]
    if (p.shape[0] != 22 or r.shape != (k, n_out) or sh.shape != (k, 10) or h.shape != (k,)
            or kt.shape != (k, 10) or ch.shape != (k,) or st.shape != (k,)
            or ht.shape != (k,)):
        raise _disagree(fn)
    if k and (t.min() < 0 or t.max() > 21 or kt.min() < -1 or kt.max() > 21):
        raise ArrayValueError(f"{fn}: a total outside 0..21")
    _split_bounds(r, p, sh, t, h, kt, ch, float(slack), st, ht)


# -- best_play --------------------------------------------------------------------------------
@_njit
def _best_play(at: Any, pr: Any, st: Any, bu: Any, ch: Any, bo: Any, od: Any, fo: Any,
               ht: Any, co: Any) -> None:
    n, m = st.shape[0], st.shape[1]
    t = np.empty(10)
    for s in range(n):
        for k in range(m):
            i = od[k]
            for x in range(10):
                c = ch[i, x]
                if c < m:
                    v = co[s, c]
                elif c == m:
                    v = bu[s, bo[i, x]]
                else:
                    v = 0.0
                t[x] = pr[at[s, i], x] * v
            # numpy's pairwise order for ten items, as the C adds them
            h = ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]))
            h += t[8]
            h += t[9]
            sv = st[s, i]
            ht[s, i] = h
            co[s, i] = h if (fo[i] == 2 or (fo[i] == 0 and h > sv)) else sv


def best_play(at: object, probs: object, stand: object, busted: object, child: object,
              bust_of: object, order: object, forced: object, hit: object, cont: object) -> None:
    fn = "best_play"
    ix = _array(fn, "at", at, "i", 2)
    pr = _array(fn, "probs", probs, "f", 2)
    st = _array(fn, "stand", stand, "f", 2)
    bu = _array(fn, "busted", busted, "f", 2)
    ch = _array(fn, "child", child, "i", 2)
    bo = _array(fn, "bust_of", bust_of, "i", 2)
    od = _array(fn, "order", order, "i", 1)
    fo = _array(fn, "forced", forced, "i", 1)
    ht = _array(fn, "hit", hit, "f", 2, writable=True)
    co = _array(fn, "cont", cont, "f", 2, writable=True)
    m = len(od)
    n, b = st.shape[0], bu.shape[1]
    if (st.shape != (n, m) or ix.shape != (n, m) or pr.shape[1:] != (10,) or bu.shape[0] != n
            or ch.shape != (m, 10) or bo.shape != (m, 10) or fo.shape != (m,)
            or ht.shape != (n, m) or co.shape != (n, m)):
        raise _disagree(fn)
    if m and (od.min() < 0 or od.max() >= m or ch.min() < 0 or fo.min() < 0 or fo.max() > 2
              or ((ch == m) & ((bo < 0) | (bo >= b))).any()):
        raise ArrayValueError(f"{fn}: a node, bust index or play out of range")
    if ix.size and (ix.min() < 0 or ix.max() >= pr.shape[0]):
        raise ArrayValueError(f"{fn}: a row of probs out of range")
    _best_play(ix, pr, st, bu, ch, bo, od, fo, ht, co)
