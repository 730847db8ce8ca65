"""The dealer kernels: the C extension when it is built, else the same loops compiled by numba.

The engine's hot loops are compiled (``analyzer/engine/_dealer.c``): the dealer's
outcome sums, the hash table of :class:`~analyzer.engine.dealer.OutcomeCache`, the
card-set dedupe of split rounds and their pairing with the last hand (in floats, and in
residues for exact mode: :func:`pair_residues`), exact mode's dealer weights of those card
sets (:func:`joint_fill_residues`, :func:`product_residues`), the post-split bounds and
the hand recursion of optimal splitting and of split hands under a fixed play
(:func:`best_play`).  The C extension is optional: ``pip install`` builds it when
a compiler is there and goes on without it otherwise; :mod:`analyzer.engine.kernel_numba`
holds the same loops compiled by numba, which gives the same bits (the same IEEE
operations in the same order) at the cost of numba's import and a one-time compilation.  The C
extension also sums the exact dealer weights in 128-bit integers
(:func:`outcome_sums_exact`); numba has no such type, so on the fallback exact mode
sums them with Python integers, the same integers.  The hash table holds integer keys
only, so exact figures are the same on either path.

The environment variable ``BJA_KERNEL`` chooses: ``auto`` (the default: the C
extension if it imports), ``c`` (the C extension or an error, never silently the
fallback) or ``python`` (the numba fallback).  ``bja --version`` names the path taken
(:func:`describe`).  The choice is made once, at the first call of a kernel
(:func:`name`), so importing this module loads neither numpy nor numba.

Every function takes numpy arrays of the dtype and shape given, C-ordered (outputs
writable), and refuses anything else with a ``TypeError`` (dtype) or ``ValueError``
(dimensions, order, sizes, indices out of range): an int32 array of the right byte
length is an error, never misread (``pair_residues`` reads one int32 array, by name).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import UsageError

if TYPE_CHECKING:  # numpy is not imported here: `bja --version` asks describe() without it
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    Int32Array = npt.NDArray[np.int32]

ENV = "BJA_KERNEL"
CHOICES = ("auto", "c", "python")
C_EXTENSION = "C extension"
FALLBACK = "numba fallback"
# best_play's play of a node: the better of hitting and standing, stand, or hit.
PLAY_BEST, PLAY_STAND, PLAY_HIT = 0, 1, 2


def requested() -> str:
    """``BJA_KERNEL`` as given (``auto`` when unset or empty); a bad value is a usage error."""
    value = os.environ.get(ENV, "").strip().lower() or "auto"
    if value not in CHOICES:
        raise UsageError(f"{ENV} must be one of {', '.join(CHOICES)}, not "
                         f"{os.environ.get(ENV)!r}")
    return value


def compiled() -> ModuleType | None:
    """The C extension module, or None when it is not built (or does not load)."""
    try:
        return importlib.import_module("analyzer.engine._dealer")
    except ImportError:
        return None


def _select() -> tuple[ModuleType, str]:
    want = requested()
    if want != "python":
        module = compiled()
        if module is not None:
            return module, C_EXTENSION
        if want == "c":
            raise UsageError(f"{ENV}=c but the C extension analyzer.engine._dealer is not "
                             "built (reinstall with a C compiler, or unset it for the numba "
                             "fallback)")
    return importlib.import_module("analyzer.engine.kernel_numba"), FALLBACK


def describe() -> str:
    """Which kernel the engine takes here, for ``bja --version``; never raises.

    Does not import the fallback (nor numba): only the small C module is tried.
    """
    try:
        want = requested()
    except UsageError as err:
        return str(err)
    if want == "python":
        return f"{FALLBACK} ({ENV}=python)"
    if compiled() is not None:
        return C_EXTENSION
    if want == "c":
        return f"{ENV}=c but the C extension is not built"
    return f"{FALLBACK}: the C extension is not built"


_chosen: list[tuple[ModuleType, str]] = []  # the module and name selected, once


def _module() -> ModuleType:
    if not _chosen:
        _chosen.append(_select())
    return _chosen[0][0]


def name() -> str:
    """The path in use: :data:`C_EXTENSION` or :data:`FALLBACK` (selecting it if need be)."""
    _module()
    return _chosen[0][1]


def outcome_sums(shoes: IntArray, blocks: IntArray, block_of: IntArray, halves: IntArray,
                 low_of: IntArray, high_of: IntArray, runs: IntArray, mult: FloatArray,
                 kmax: int, out: FloatArray) -> None:
    """Per shoe, the summed weight of each dealer outcome (the float dealer distribution).

    The factorised product of :class:`~analyzer.engine.dealer.KernelTables`, one
    pass per shoe; the bits of a shoe's row do not depend on the other shoes.

    Parameters
    ----------
    shoes : int64 (m, 10)
        Cards of each value left.
    blocks : int64 (nb, 3)
        Distinct blocks of a composition: cards drawn of A-3 | 4-5 | 6-8 | 9-T (the
        last with the number of cards drawn), padded with zeros.
    block_of : int64 (nb,)
        Which of the four blocks each is.
    halves : int64 (nh, 2)
        Two blocks each: the low (A-5) and high (6-T) halves.
    low_of, high_of : int64 (c,)
        Each composition's halves, compositions sorted by outcome.
    runs : int64 (n_out + 1,)
        Outcome ``o`` has compositions ``runs[o]`` to ``runs[o + 1] - 1``.
    mult : float64 (c,)
        Orderings of each composition.
    kmax : int
        The most cards the dealer draws (at most 32).
    out : float64 (m, n_out)
        Written: the weights summed by outcome.
    """
    _module().outcome_sums(shoes, blocks, block_of, halves, low_of, high_of, runs, mult, kmax,
                       out)


def outcome_sums_exact(shoes: IntArray, blocks: IntArray, block_of: IntArray,
                       halves: IntArray, low_of: IntArray, high_of: IntArray, runs: IntArray,
                       mult: IntArray, kmax: int, out: IntArray) -> bool:
    """The exact dealer sums in 128-bit integers, when the C extension can compute them.

    The integers of exact mode's :func:`~analyzer.engine.dealer.outcome_matrix`: per
    shoe and outcome, the summed weight over the common denominator ``N (N-1) ..
    (N-k+1)``, ``k = min(kmax, N)``.  Only the C extension has it (numba has no
    128-bit integers); elsewhere, or when a denominator needs more than 128 bits, this
    returns False and the caller computes the sums with Python integers.

    Parameters
    ----------
    shoes, blocks, block_of, halves, low_of, high_of, runs, kmax
        As :func:`outcome_sums`.
    mult : int64 (c,)
        Orderings of each composition.
    out : int64 (m, n_out, 2)
        Written when True is returned: each sum's low and high 64-bit words (unsigned).

    Returns
    -------
    bool
        Whether ``out`` holds the sums.
    """
    module = _module()
    if not hasattr(module, "outcome_sums_exact"):
        return False
    try:
        fits: bool = module.outcome_sums_exact(shoes, blocks, block_of, halves, low_of,
                                               high_of, runs, mult, kmax, out)
    except NotImplementedError:  # built by a compiler without 128-bit integers
        return False
    return fits


def cache_find(out: IntArray, slot_keys: IntArray, slot_rows: IntArray, keys: IntArray,
               n: int, rows: IntArray, first: IntArray) -> int:
    """Each shoe's row in :class:`~analyzer.engine.dealer.OutcomeCache`, new shoes entered.

    A shoe is keyed by the cards out of the base shoe, counts 0..63 packed six bits
    each, in an open-addressing table (linear probing, empty slots -1) kept at most
    half full by the caller.

    Parameters
    ----------
    out : int64 (m, 10)
        Cards of each value out of the base shoe, per shoe.
    slot_keys, slot_rows : int64 (size,)
        The table (``size`` a power of two, at least ``2 (n + m)``), updated.
    keys : int64 (at least n + m,)
        The key of each row, new rows appended.
    n : int
        Rows already filled.
    rows : int64 (m,)
        Written: each shoe's row.
    first : int64 (m,)
        Written: for the ``added`` new rows, the index in ``out`` of the shoe each is for.

    Returns
    -------
    int
        ``added``, the new rows (``n`` to ``n + added - 1``, for the caller to fill);
        -1 with nothing entered when a count is outside 0..63.
    """
    added: int = _module().cache_find(out, slot_keys, slot_rows, keys, n, rows, first)
    return added


def cache_find_keys(wanted: IntArray, slot_keys: IntArray, slot_rows: IntArray, keys: IntArray,
                    n: int, rows: IntArray, first: IntArray) -> int:
    """:func:`cache_find` for shoes given by their keys: a caller that has them as sums of
    packed parts (a card set's key plus a hand's) need not list the counts.

    Parameters
    ----------
    wanted : int64 (m,)
        Each shoe's key, counts 0..63 packed six bits each (value 1 lowest); not negative.
    slot_keys, slot_rows, keys, n, rows, first
        As for :func:`cache_find` (``first`` indexes ``wanted``).

    Returns
    -------
    int
        ``added``, the new rows.
    """
    added: int = _module().cache_find_keys(wanted, slot_keys, slot_rows, keys, n, rows, first)
    return added


def cache_rehash(keys: IntArray, n: int, slot_keys: IntArray, slot_rows: IntArray) -> None:
    """Rebuild the table of :func:`cache_find` from rows ``0 .. n - 1`` of ``keys``.

    Parameters
    ----------
    keys : int64 (at least n,)
        The key of each row.
    n : int
        Rows to enter.
    slot_keys, slot_rows : int64 (size,)
        Written: the table, ``size`` a power of two at least ``2 n``.
    """
    _module().cache_rehash(keys, n, slot_keys, slot_rows)


def distinct_sums(head: IntArray, tail: IntArray, extra: int) -> IntArray:
    """The distinct sums ``head[a] + tail[b] + extra`` of every pair, sorted.

    The range of the sums is cut into ranges of about a million pairs each (at the
    quantiles of a grid sample); for each tail value the heads whose sums fall in a
    range are one run of the sorted heads, and each range's sums are found in a hash
    table of their own, small enough to stay in cache.

    Parameters
    ----------
    head : int64 (na,)
        Card keys, sorted.
    tail : int64 (nb,)
        Card keys.
    extra : int
        A key added to every sum.

    Returns
    -------
    int64 (n,)
        Each distinct sum once, in increasing order.
    """
    import numpy  # not at the top: see TYPE_CHECKING above

    found: bytes = _module().distinct_sums(head, tail, extra)
    sums: IntArray = numpy.sort(numpy.frombuffer(found, dtype=numpy.int64))
    return sums


def merge_pairs(k1: IntArray, k2: IntArray, mult: IntArray, first: IntArray,
                total: IntArray) -> int:
    """The distinct pairs ``(k1[i], k2[i])`` and each one's summed ``mult``.

    Parameters
    ----------
    k1, k2, mult : int64 (m,)
        The keys of each row and its count.
    first, total : int64 (m,)
        Written: for the ``n`` distinct pairs in order of first appearance, ``first[u]``
        the index of pair ``u``'s first row and ``total[u]`` its rows' summed ``mult``.

    Returns
    -------
    int
        ``n``, the number of distinct pairs.
    """
    n: int = _module().merge_pairs(k1, k2, mult, first, total)
    return n


def sum_rows(head: IntArray, tail: IntArray, extra: int, unique: IntArray,
             rows: IntArray) -> int:
    """Each pair's row among known distinct sums: the index of ``head[a] + tail[b] +
    extra`` in the sorted ``unique``.

    Found by galloping, a tile of heads per tail set, from the furthest of the previous
    head's row and this head's row for the previous tail whose sum was not larger:
    fastest when ``head`` and ``tail`` are sorted (any order gives the same rows).

    Parameters
    ----------
    head, tail : int64 (na,), (nb,)
        Card keys.
    extra : int
        A key added to every sum.
    unique : int64 (u,)
        Strictly increasing.
    rows : int64 (na nb,)
        Written: ``rows[a nb + b]``, the row of pair ``(a, b)``'s sum, -1 where absent.

    Returns
    -------
    int
        The number of pairs whose sum is not in ``unique``.
    """
    missing: int = _module().sum_rows(head, tail, extra, unique, rows)
    return missing


def pair_accumulate(head: IntArray, tail: IntArray, extra: int, unique: IntArray,
                    weights: FloatArray, starts: IntArray, results: IntArray,
                    acc: FloatArray) -> int:
    """The float pairing of a split round's earlier hands with its last hand.

    For every pair ``(a, b)``, the dealer weights of its card set ``head[a] +
    tail[b] + extra`` (found as :func:`sum_rows` finds it) times the card orders of
    each of the tail's rounds with set ``b``, added at that round's result against
    each outcome: ``acc[a, o, results[r, 1 + o]] += weights[row, o] * results[r, 0]``.

    Each entry adds its products tail by tail in order, whatever the order of the
    work: the C module walks the pairs window by window of ``unique`` (a window's weight
    rows read while they are in cache), the fallback head tile by head tile, and both
    give the same bits.

    Parameters
    ----------
    head, tail : int64 (na,), (nb,)
        Card keys of the distinct head and tail sets, each sorted.
    extra : int
        A key added to every sum.
    unique : int64 (u,)
        The distinct sums, strictly increasing.
    weights : float64 (u, no)
        The dealer weights of each distinct sum, per outcome.
    starts : int64 (nb + 1,)
        The tail's rounds of set ``b`` are rows ``starts[b] .. starts[b + 1] - 1``.
    results : int64 (r, 1 + no)
        Per tail round: its card orders, then its result's index against each outcome.
    acc : float64 (na, no, ny)
        Added to.

    Returns
    -------
    int
        The number of pairs whose sum is not in ``unique`` (0 when it holds them all).
    """
    missing: int = _module().pair_accumulate(head, tail, extra, unique, weights, starts,
                                             results, acc)
    return missing


def pair_residues(head: IntArray, tail: IntArray, extra: int, unique: IntArray,
                  joint: Int32Array, outcomes: IntArray, primes: IntArray, starts: IntArray,
                  results: IntArray, orders: IntArray, acc: IntArray) -> int:
    """:func:`pair_accumulate` in exact mode: the same pairing modulo each prime.

    ``acc[a, k, results[r, 1 + k], p] += joint[row, outcomes[k], p] * orders[r, p]``,
    reduced modulo ``primes[p]`` (at most :data:`~analyzer.core.modular.PRIME_BITS` bits):
    products of two residues fit 52 bits, so a thousand are added between reductions.
    The primes are the last axis of both tables, so a pair reads and adds stretches of
    memory, not a cache line per prime.

    Parameters
    ----------
    head, tail, extra, unique, starts, results
        As :func:`pair_accumulate` (``results[:, 0]`` unread: the orders are ``orders``).
    joint : int32 (u, n_outcomes, P)
        The residues of each distinct sum's dealer weights over one denominator
        (:func:`analyzer.engine.dist_dealer.joint_residues`), each below its prime: not
        checked here (the table is read again for every slice of heads).
    outcomes : int64 (no,)
        The columns of ``joint`` paired, in the order of ``acc``'s second axis.
    primes : int64 (P,)
        The moduli, below ``2**26``.
    orders : int64 (r, P)
        Each tail round's card orders modulo each prime.
    acc : int64 (na, no, ny, P)
        Residues, added to.

    Returns
    -------
    int
        The number of pairs whose sum is not in ``unique``.
    """
    missing: int = _module().pair_residues(head, tail, extra, unique, joint, outcomes, primes,
                                           starts, results, orders, acc)
    return missing


def product_residues(ff: IntArray, mine: IntArray, theirs: IntArray, primes: IntArray,
                     out: IntArray) -> None:
    """``out[a, p, b] = prod_v ff[p, v, mine[a, v] + theirs[b, v]]`` modulo ``primes[p]``:
    exact mode's falling-factorial products of two sets of halves (the dealer's joint
    weights, :func:`analyzer.engine.dist_dealer.joint_residues`).

    ``ff`` int64 (P, nv, top) holds residues (checked), ``mine`` and ``theirs`` int64
    (na, nv) and (nb, nv) counts whose sums index it, ``out`` int64 (na, P, nb) is
    written.  In numpy each of the ``nv`` factors cost a modulo of the whole array.
    """
    _module().product_residues(ff, mine, theirs, primes, out)


def joint_fill_residues(ff: IntArray, u_low: IntArray, low: IntArray, comp_low: IntArray,
                        mult: IntArray, starts: IntArray, cols: IntArray, phigh: IntArray,
                        first: IntArray, high_rows: IntArray, sets: IntArray,
                        present: IntArray, primes: IntArray, out: Int32Array) -> None:
    """The dealer's joint weights of many card sets in exact mode, modulo each prime, a low
    half at a time (:func:`analyzer.engine.dist_dealer.joint_residues`).

    For each distinct low half ``j`` of the sets and each prime ``p``: ``PL[l] = prod_v
    ff[p, v, u_low[j, v] + low[l, v]]`` over the dealer's low halves ``l``; per group ``g``
    of the dealer's compositions (one high half and outcome), ``A[cols[g]] = sum_c
    PL[comp_low[c]] * mult[p, c]`` over ``c = starts[g] .. starts[g + 1] - 1``; and for each
    of its sets (rows ``r = first[j] .. first[j + 1] - 1``), ``out[sets[r], present[q], p]
    = sum_h phigh[high_rows[r], p, h] * A[h * len(present) + q]``, all modulo
    ``primes[p]`` (below ``2**26``: a thousand products between reductions, as
    :func:`pair_residues`).

    Parameters
    ----------
    ff : int64 (P, cut, top)
        Residues of the falling factorials of each low value's count in the shoe.
    u_low, low : int64 (nul, cut), (nl, cut)
        The sets' distinct low halves; the dealer compositions' distinct low halves.
    comp_low, mult : int64 (nc,), (P, nc)
        Per composition, in group order: its low half; its orderings' residues.
    starts, cols : int64 (ng + 1,), (ng,)
        Where each group starts (and the end); its column in ``A``, below
        ``phigh.shape[2] * len(present)``.
    phigh : int64 (nuh, P, nh)
        Residues of the high halves' products over the common denominator.
    first, high_rows, sets : int64 (nul + 1,), (nrows,), (nrows,)
        The sets by low half: where each low half's sets start, their high halves, their rows
        of ``out``.
    present, primes : int64 (np,), (P,)
        The outcome columns written; the moduli.
    out : int32 (nsets, n_out, P)
        Written at ``[sets[r], present[q], :]``: the layout :func:`pair_residues` reads.
    """
    _module().joint_fill_residues(ff, u_low, low, comp_low, mult, starts, cols, phigh, first,
                                  high_rows, sets, present, primes, out)


def split_bounds(rows: FloatArray, pay: FloatArray, shoes: IntArray, total: IntArray,
                 hard: IntArray, kid_total: IntArray, charlie: IntArray, slack: float,
                 stand: FloatArray, hit: FloatArray) -> None:
    """Each split hand's stand EV and an upper bound on its hit EV, from its own row alone.

    A child is bounded by ``max(pay . rows + slack / n, 1 - 2 P(its next card busts),
    0)``, a Charlie by 1, a bust is -1 (the argument is in
    ``SplitLevels.hit_bounds``, :mod:`analyzer.engine.postsplit`).

    Parameters
    ----------
    rows : float64 (k, n_out)
        Dealer outcomes in each hand's shoe.
    pay : float64 (22, n_out)
        The result of standing on each total against each outcome.
    shoes : int64 (k, 10)
        Cards left.
    total, hard : int64 (k,)
        Each hand's best total (0..21) and hard total.
    kid_total : int64 (k, 10)
        The best total after one more card of each value, -1 for a bust.
    charlie : int64 (k,)
        1 where one more card makes a Charlie.
    slack : float
        Twice the most cards the dealer draws.
    stand, hit : float64 (k,)
        Written: the stand EVs and the hit bounds.
    """
    _module().split_bounds(rows, pay, shoes, total, hard, kid_total, charlie, slack, stand, hit)


def best_play(at: IntArray, probs: FloatArray, stand: FloatArray, busted: FloatArray,
              child: IntArray, bust_of: IntArray, order: IntArray, forced: IntArray,
              hit: FloatArray, cont: FloatArray) -> None:
    """The hand recursion: hit and played values of every node, per card set (optimal
    splitting's, and a fixed strategy's split hands).

    Nodes are visited in ``order`` (every child before its parent); the ten terms of
    a hit are added in numpy's pairwise order for ten items, so the values have the
    bits of the numpy loop this replaces.

    Parameters
    ----------
    at : int64 (n, m)
        The row of ``probs`` of each card set and node: the shoe it draws from (many
        set and node pairs share a shoe, so the chances are listed once per shoe).
    probs : float64 (r, 10)
        The chance of each next card, per shoe.
    stand : float64 (n, m)
        Standing's value (with what follows it).
    busted : float64 (n, b)
        The value of each bust listed by ``bust_of``.
    child : int64 (m, 10)
        The node after each card: below ``m`` a node, ``m`` a bust, more: no such card.
    bust_of : int64 (m, 10)
        A bust's column in ``busted`` (-1 where there is no bust).
    order : int64 (m,)
        The nodes in the order to visit them.
    forced : int64 (m,)
        The play of each node: :data:`PLAY_BEST` (0) the better of hitting and standing,
        :data:`PLAY_STAND` (1: the hand may not hit), :data:`PLAY_HIT` (2: a fixed
        strategy's).
    hit, cont : float64 (n, m)
        Written: hitting's value, and the value of the node's play.
    """
    _module().best_play(at, probs, stand, busted, child, bust_of, order, forced, hit, cont)


def implementations() -> dict[str, Any]:
    """Both paths' modules by name, the C extension only when built (for the tests)."""
    found: dict[str, Any] = {FALLBACK: importlib.import_module("analyzer.engine.kernel_numba")}
    module = compiled()
    if module is not None:
        found[C_EXTENSION] = module
    return found


__all__ = ["C_EXTENSION", "CHOICES", "ENV", "FALLBACK", "PLAY_BEST", "PLAY_HIT", "PLAY_STAND",
           "best_play", "cache_find", "cache_find_keys", "cache_rehash", "compiled", "describe",
           "distinct_sums", "implementations", "merge_pairs", "name", "outcome_sums",
           "outcome_sums_exact", "pair_accumulate", "pair_residues", "requested", "split_bounds",
           "sum_rows"]
